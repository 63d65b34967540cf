"""Rating-moves benchmark part (``bench/bench.py moves`` runs only this, after the dump's and the
reviews' import), on the whole conference:

- ``moves_query_first_ms``: the first ``moved:up`` query through ``run_query`` in a fresh
  searcher, the review summaries read (as the app has them once a paper was shown): it makes the
  columns of every paper's first and current mean (:func:`paperdeck.search.query_fields.rating_moves`);
- ``moves_query_p50_ms`` / ``moves_query_p95_ms``: :data:`MOVE_QUERIES` (``moved:``,
  ``rating_delta``, ``rating_initial``, ``review_moved:``, their complements), 5 rounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from paperdeck.store.store import Store

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
    from paperdeck.search.query import parse_query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query

    store = Store(data_dir)
    store.reviews.summaries()
    searcher = Searcher(store)
    started = time.perf_counter()
    run_query(searcher, parse_query(MOVE_QUERIES[0]))
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(5):
        for text in MOVE_QUERIES:
            started = time.perf_counter()
            query = parse_query(text)
            assert query.error is None, (text, query.error)
            run_query(searcher, query)
            times.append((time.perf_counter() - started) * 1000)
    return {
        "moves_query_first_ms": round(first_ms, 1),
        "moves_query_p50_ms": round(percentile(times, 0.5), 1),
        "moves_query_p95_ms": round(percentile(times, 0.95), 1),
    }
