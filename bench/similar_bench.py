"""Query and similar-papers latency for bench/bench.py (numbers only; asserts nothing).

- :func:`measure_queries`: field + fuzzy queries (the filter bar's language) through
  ``paperdeck.search.selection.run_query`` with a built search index, each timed from the text to the
  ranked, filtered ids (parse included); 5 rounds of 10 queries, the first round cold.
- :func:`measure_similar`: in a fresh interpreter (``python bench/similar_bench.py DATA_DIR``), so
  that numpy's import and the RSS growth are those of the app: the catalogue loaded, then the
  similarity index built and queried.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from paperdeck.store.store import Store  # noqa: E402

#: Field terms mixed with fuzzy words (ICLR 2026 submissions: no decisions or ratings yet, so
#: ``decision:`` and ``rating`` terms filter every ranked paper out, after ranking them all).
FIELD_QUERIES = [
    "decision:oral diffusion",
    "rating>=6 graph neural",
    "area:reinforcement policy -offline",
    "is:starred transformer",
    '"large language" author:Smith',
    "title:diffusion -decision:withdrawn samplng",
    'keyword:"graph neural" molecul',
    '(llm OR "language model") is:starred reasoning',
    "specul decod -area:optimization",
    "year:2026 NOT abstract:benchmark vision transformer",
]


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def measure_queries(store: Store, rounds: int = 5) -> list[float]:
    """Milliseconds per query (parse + rank + filter), ``rounds`` × ``FIELD_QUERIES``, with the
    search index built and the texts folded for text terms (both done once, in workers, in the
    app). Nothing is remembered between runs, so every round costs what the first does."""
    from paperdeck.search.query import parse_query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query

    searcher = Searcher(store)
    searcher.index.get()
    searcher.corpus.get()  # as the app does once, in a worker, at the first text term
    timings: list[float] = []
    for _ in range(rounds):
        for text in FIELD_QUERIES:
            started = time.perf_counter()
            query = parse_query(text)
            assert query.error is None, (text, query.error)
            run_query(searcher, query)
            timings.append(_ms(started))
    return timings


def _rss_mb(key: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return 0.0


def _similar_in_this_process(data_dir: Path) -> dict[str, Any]:
    """The numbers of :func:`measure_similar`, measured in this (fresh) process."""
    from statistics import median

    store = Store(data_dir)
    papers = store.papers
    starred = [pid for pid, record in store.all_user_data.items() if record.starred]
    gc.collect()
    before = _rss_mb()
    started = time.perf_counter()
    import numpy  # noqa: F401  (what the build imports first; timed apart)

    import_ms = _ms(started)
    from paperdeck.search.searcher import build_similarity
    from paperdeck.search.similar import SimilarityIndex

    saved = build_similarity(store)  # read from similar-cache.npz, which the import wrote
    saved.similar_to(papers[len(papers) // 2].id)
    first_ms = _ms(started)
    extra_mb, peak_extra_mb = _rss_mb() - before, max(0.0, _rss_mb("VmHWM") - before)  # as in the app
    del saved
    built = time.perf_counter()
    index = SimilarityIndex(papers)
    build_s = time.perf_counter() - built
    index.similar_to(papers[len(papers) // 2].id)
    cold_first_ms = import_ms + _ms(built)
    queries = []
    for paper in papers[:: max(1, len(papers) // 60)]:
        started = time.perf_counter()
        index.similar_to(paper.id)
        queries.append(_ms(started))
    queries.sort()
    started = time.perf_counter()
    index.rank_by_liked(starred)
    rank_ms = _ms(started)
    started = time.perf_counter()
    index.rank_by_liked(starred[:20])
    rank20_ms = _ms(started)
    return {
        "similar_numpy_import_ms": round(import_ms, 1),
        "similar_build_s": round(build_s, 2),
        "similar_first_ms": round(first_ms),
        "similar_first_unsaved_ms": round(cold_first_ms),
        "similar_p50_ms": round(median(queries), 1),
        "similar_p95_ms": round(queries[min(len(queries) - 1, round(0.95 * (len(queries) - 1)))], 1),
        "similar_rank_starred_ms": round(rank_ms, 1),
        "similar_rank_starred_count": len(starred),
        "similar_rank_20_starred_ms": round(rank20_ms, 1),
        "similar_extra_mb": round(extra_mb, 1),
        "similar_peak_extra_mb": round(peak_extra_mb, 1),
        "similar_build_extra_mb": round(max(0.0, _rss_mb("VmHWM") - before), 1),
        "similar_terms": index.term_count,
        "similar_index_mb": round(index.nbytes / 1e6, 1),
    }


def measure_similar(data_dir: Path) -> dict[str, Any]:
    """Similar-papers numbers on the store in ``data_dir`` (its starred papers as the liked set):

    - ``similar_numpy_import_ms``, ``similar_build_s``: numpy's import (first use) and the build;
    - ``similar_first_ms``: numpy's import + reading the index the import saved
      (``similar-cache.npz``) + the first ``similar_to``: the first result in the app;
      ``similar_first_unsaved_ms``: the same with the index built instead (no saved index);
    - ``similar_p50_ms`` / ``similar_p95_ms``: ``similar_to`` (top 50) over 60 papers;
    - ``similar_rank_starred_ms`` (``similar_rank_starred_count`` liked) and
      ``similar_rank_20_starred_ms``: ``rank_by_liked``, the whole list;
    - ``similar_extra_mb``: RSS with the saved index read, minus RSS with the catalogue loaded;
      ``similar_peak_extra_mb``: peak RSS (VmHWM) minus that; ``similar_build_extra_mb``: the peak
      once an index was also built (both held for a moment: an upper bound of the build's cost).
    """
    result = subprocess.run(
        [sys.executable, __file__, str(data_dir)], capture_output=True, text=True, check=True, timeout=300
    )
    numbers: dict[str, Any] = json.loads(result.stdout)
    return numbers


if __name__ == "__main__":
    print(json.dumps(_similar_in_this_process(Path(sys.argv[1]))))
