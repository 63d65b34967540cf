"""Rating-moves benchmark part (``bench/bench.py moves`` runs only this, after the dump's and the
reviews' import), on the whole conference:

- ``moves_query_first_ms``: the first ``moved:up`` query through ``run_query`` in a fresh
  searcher, the review summaries read (as the app has them once a paper was shown): it makes the
  columns of every paper's first and current mean (:func:`paperdeck.search.query_fields.rating_moves`);
- ``moves_query_p50_ms`` / ``moves_query_p95_ms``: :data:`MOVE_QUERIES` (``moved:``,
  ``rating_delta``, ``rating_initial``, ``review_moved:``, their complements), 5 rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperdeck.store.store import Store
from reviews_bench import time_queries

MOVE_QUERIES = [
    "moved:up",
    "moved:down",
    "-moved:any",
    "rating_delta>=1",
    "rating_delta<0 decision:accept",
    "rating_initial<5 moved:up",
    "review_moved:any",
    "-review_moved:any rating>=6",
]


def measure_moves(data_dir: Path, percentile: Callable[[list[float], float], float]) -> dict[str, float]:
    """The ``moves_*`` numbers (see the module docstring) on the store in ``data_dir``."""
    from paperdeck.search.searcher import Searcher

    store = Store(data_dir)
    store.reviews.summaries()
    searcher = Searcher(store)
    return time_queries(searcher, MOVE_QUERIES, percentile, "moves_query")
