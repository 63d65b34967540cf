"""The venue scope of a library of several venues: ``bench/bench.py venue_scope``.

The library: the full ICLR 2026 dump (19,630 papers) and the Paper Copilot lists of COLM 2025,
ICLR 2017, ICLR 2018, NeurIPS 2018, ICML 2019 and CVPR 2019, the ICLR 2025 CSV and the ICLR 2023
TSV (``../shared/data``), imported into one store, its search index built.

- ``scope_switch_p50_ms`` / ``scope_switch_p95_ms``: in the real app (headless, 120×40, tuned as
  ``paperdeck`` runs it), the scope changed as the venue picker's choice changes it
  (:meth:`ListFilter.set_scope <paperdeck.ui.screens.list_filter.ListFilter.set_scope>`: the
  settings written, the list filtered again), timed to the end of the first frame that shows the
  new list; cycling through one venue, two, every venue and back, with the bar blank and with a
  query (``diffusion``, ``decision:oral``) typed, 10 rounds; ``scope_switch_cpu_*``: the same
  in the process's CPU time (the writing thread's included), which a busy machine does not inflate;
- ``scope_ids_ms``: the papers of one venue found (:func:`paperdeck.search.venues.scoped_ids`)
  with no cache, median of 50;
- ``venues``, ``papers``: the library's.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from paperdeck import runtime
from paperdeck.search.searcher import build_index
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from procs import settled

#: The other venues' files, beside the ICLR 2026 dump.
OTHER_VENUES = (
    "papercopilot_colm2025.json",
    "papercopilot_iclr2017.json",
    "papercopilot_iclr2018.json",
    "papercopilot_nips2018.json",
    "papercopilot_icml2019.json",
    "papercopilot_cvpr2019.json",
    "iclr2025_title_authors_affiliations_decision.csv",
    "iclr2023_submissions_number_title.tsv",
)
#: The scopes switched between, in turn ([]: every venue).
SCOPES: tuple[list[str], ...] = (["ICLR 2026"], ["COLM 2025"], [], ["ICLR 2017", "ICLR 2026"], ["ICLR 2025"], [])
#: The filter bar's text during each round of switches.
QUERIES = ("", "diffusion", "decision:oral")
ROUNDS = 10


def build_library(data_dir: Path, dump: list[Path], shared_data: Path) -> Store:
    """Import the dump and every other venue's file into a store at ``data_dir``; build its index."""
    store = Store(data_dir)
    import_files(store, [*dump, *(shared_data / name for name in OTHER_VENUES)])
    build_index(store)
    return store


async def measure_switches(data_dir: Path) -> tuple[list[float], list[float]]:
    """Milliseconds from a scope change to the end of the first frame that shows its list: wall
    clock, and the process's CPU time (what a busy machine does not inflate)."""
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.frames import watch_frames
    from paperdeck.ui.screens.main import MainScreen
    from paperdeck.ui.widgets.filter_bar import FilterBar

    with runtime.tuned():
        app = PaperApp(store=Store(data_dir, lazy=True))
        timings: list[float] = []
        cpu: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            while screen.searcher.index.built is None or not app.store.loaded:
                await asyncio.sleep(0.05)
            await settled(app)
            list_filter = screen.list_filter
            painted = asyncio.Event()
            painted_at = [0.0, 0.0]
            waiting_for: list[object] = [None]

            def frame_painted(shows: object) -> None:
                if shows is waiting_for[0] and not painted.is_set():
                    painted_at[0], painted_at[1] = time.perf_counter(), time.process_time()
                    painted.set()

            watch_frames(screen, list_filter.view_ids, frame_painted)
            for query in QUERIES:
                screen.query_one(FilterBar).value = query
                await settled(app)
                await pilot.pause()
                for _ in range(ROUNDS):
                    for scope in SCOPES:
                        before = list_filter.view_ids()
                        painted.clear()
                        started, started_cpu = time.perf_counter(), time.process_time()
                        list_filter.set_scope(scope)
                        while list_filter.view_ids() is before:  # a worker's (a sort): its list, then its frame
                            await asyncio.sleep(0)
                        waiting_for[0] = list_filter.view_ids()
                        await asyncio.wait_for(painted.wait(), timeout=10)
                        timings.append((painted_at[0] - started) * 1000)
                        cpu.append((painted_at[1] - started_cpu) * 1000)
                        await asyncio.sleep(0.05)
            list_filter.set_scope([])
            await settled(app)
    return timings, cpu


def measure_venue_scope(
    dump: list[Path], shared_data: Path, work: Path, percentile: Callable[[list[float], float], float]
) -> dict[str, float | int]:
    """The numbers of the module docstring, on a library built under ``work``."""
    from paperdeck.search import venues

    store = build_library(work / "library", dump, shared_data)
    counts = venues.venue_counts(store)
    scope = frozenset({"COLM 2025"})
    found = []
    for _ in range(50):
        venues._scopes.clear()
        started = time.perf_counter()
        venues.scoped_ids(store, scope)
        found.append((time.perf_counter() - started) * 1000)
    switches, cpu = asyncio.run(measure_switches(store.data_dir))
    return {
        "venues": len(counts),
        "papers": store.paper_count,
        "scope_ids_ms": round(statistics.median(found), 3),
        "scope_switch_p50_ms": round(statistics.median(switches), 1),
        "scope_switch_p95_ms": round(percentile(switches, 0.95), 1),
        "scope_switch_cpu_p50_ms": round(statistics.median(cpu), 1),
        "scope_switch_cpu_p95_ms": round(percentile(cpu, 0.95), 1),
    }
