"""Venues benchmark part (``bench/bench.py venues`` runs only this): a library of every venue file
of the shared data (Paper Copilot's COLM 2025, ICLR 2017, ICLR 2018, NeurIPS 2018, ICML 2019,
CVPR 2019; the ICLR 2023 TSV, the ICLR 2025 CSV; the ICLR 2026 dump) against the ICLR 2026 dump
alone, each imported into a store of its own:

- ``venues_papers`` / ``venues_iclr2026_papers``: the papers each store holds;
- ``venues_open_filter_cpu_s`` / ``venues_iclr2026_open_filter_cpu_s``: CPU seconds (user +
  system) of a fresh process opening the store, reading its catalogue and running the filter
  queries :data:`QUERIES` (no words: masks only), median of 5 runs, the two stores interleaved;
  ``venues_open_filter_cpu_ratio``: the median of the pairs' ratios library ÷ ICLR 2026 alone;
- ``venues_stats_ms``: the per-venue statistics of the whole library
  (:func:`paperdeck.stats.figures.figures_of`, one entry per venue), catalogue loaded, median
  of 5;
- ``venues_scope_filter_p95_ms``: ``venue:`` terms (one venue, several, a year, a complement)
  through ``run_query`` on the loaded library (after one round), p95 of 5 rounds: what switching
  the venue scope re-filters.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

SHARED = Path(__file__).resolve().parents[1] / (os.environ.get("PAPERDECK_SHARED") or "../shared")
DATA = SHARED.resolve() / "data"
DUMP = [DATA / f"iclr2026_submissions_reviewtracker.part{n}of3.jsonl" for n in (1, 2, 3)]
OTHERS = [DATA / f"papercopilot_{name}.json" for name in
          ("colm2025", "iclr2017", "iclr2018", "nips2018", "icml2019", "cvpr2019")]  # fmt: skip
OTHERS += [DATA / "iclr2023_submissions_number_title.tsv", DATA / "iclr2025_title_authors_affiliations_decision.csv"]
#: Filter queries timed on both stores (no words: each is a mask over the papers).
QUERIES = ("venue:iclr", "rating>=6", "decision:accept", "-venue:colm rating_pct>=90", "year:2026 has:rating")
SCOPES = ("venue:colm", 'venue:"iclr 2026"', "venue:2019", "-venue:colm", "venue:iclr OR venue:colm")

_OPEN_FILTER = """
import os, sys
from paperdeck.store.store import Store
from paperdeck.cli.selecting import select_ids
store = Store(sys.argv[1])
store.papers
for query in sys.argv[2:]:
    select_ids(store, query)
times = os.times()
print(times.user + times.system)
"""


def _cpu(data_dir: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "tui"))
    done = subprocess.run([sys.executable, "-c", _OPEN_FILTER, str(data_dir), *QUERIES], env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1])


def measure_venues(runs: int = 5) -> dict[str, float]:
    """The keys of the module docstring."""
    from paperdeck.search.query import parse_query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query
    from paperdeck.stats.figures import figures_of

    with tempfile.TemporaryDirectory() as tmp:
        alone, library = Path(tmp) / "iclr2026", Path(tmp) / "library"
        import_files(Store(alone), DUMP)
        import_files(Store(library), [*OTHERS, *DUMP])
        _cpu(alone), _cpu(library)  # warm the file cache
        pairs = [(_cpu(library), _cpu(alone)) for _ in range(runs)]
        store = Store(library)
        papers, summaries = store.papers, store.reviews.summaries()
        stats_ms = []
        for _ in range(runs):
            started = time.perf_counter()
            figures_of(papers, summaries, {})
            stats_ms.append((time.perf_counter() - started) * 1000)
        searcher = Searcher(store)
        for scope in SCOPES:  # the first query of a store loads what every one needs
            run_query(searcher, parse_query(scope), "list")
        scope_ms = []
        for _ in range(runs):
            for scope in SCOPES:
                started = time.perf_counter()
                run_query(searcher, parse_query(scope), "list")
                scope_ms.append((time.perf_counter() - started) * 1000)
        scope_ms.sort()
        return {
            "venues_papers": len(papers),
            "venues_iclr2026_papers": len(Store(alone).paper_ids),
            "venues_open_filter_cpu_s": round(statistics.median(a for a, _ in pairs), 3),
            "venues_iclr2026_open_filter_cpu_s": round(statistics.median(b for _, b in pairs), 3),
            "venues_open_filter_cpu_ratio": round(statistics.median(a / b for a, b in pairs), 2),
            "venues_stats_ms": round(statistics.median(stats_ms), 1),
            "venues_scope_filter_p95_ms": round(scope_ms[min(len(scope_ms) - 1, int(0.95 * len(scope_ms)))], 1),
        }


if __name__ == "__main__":
    import json

    print(json.dumps(measure_venues()))
