"""Venues benchmark part (``bench/bench.py venues`` runs only this): a library of every venue file
of the shared data (Paper Copilot's COLM 2025, ICLR 2017, ICLR 2018, NeurIPS 2018, ICML 2019,
CVPR 2019; the ICLR 2023 TSV, the ICLR 2025 CSV; the ICLR 2026 dump) against the ICLR 2026 dump
alone, each imported into a store of its own, its search index built (as ``paperdeck import``
leaves it):

- ``venues_papers`` / ``venues_iclr2026_papers``: the papers each store holds;
- ``venues_open_filter_cpu_s`` / ``venues_iclr2026_open_filter_cpu_s``: CPU seconds (user +
  system, every thread) of a fresh process running the real app headless (120×40, tuned as
  ``paperdeck`` runs it, its store opened as ``paperdeck`` opens it) on the library whose last
  scope was ICLR 2026 (``config.json``), and on the ICLR 2026 store alone: ``/`` and each of
  :data:`APP_QUERIES` typed a key at a time (each key's list painted before the next key), the
  bar cleared between them, then every start-up worker let finish (the catalogue parsed, the
  statistics counted ahead) — what a user who opens paperdeck and types a few filters costs;
  median of :data:`RUNS`, the two stores interleaved; ``venues_open_filter_cpu_ratio``: the
  median of the pairs' ratios library ÷ alone (``…_lo`` / ``…_hi``: the lowest and highest pair);
- ``venues_open_filter_ir`` / ``venues_iclr2026_open_filter_ir`` / ``venues_open_filter_ir_ratio``
  (where valgrind is installed, and asked for): the same app runs' instructions (``valgrind
  --tool=callgrind``, every thread, user space only; one run each, ``PYTHONHASHSEED=0``, each
  frame waited for up to an hour), which hold still under load where the CPU pairs move by
  ±0.15. Under callgrind the app runs ~50× slower while its timers keep wall time, so the work
  that waits for typing to pause starts sooner: the ratio is the slow machine's, compared with
  itself (before / after), not with the CPU ratio;
- ``venues_store_filter_iclr2026_cpu_ratio`` / ``venues_store_filter_all_cpu_ratio`` (with their
  ``_lo`` / ``_hi``): the same at the store level, as the app's store reads (``Store(lazy=True,
  lean=True)``, the rows cache, the venue runs, the other venues' papers deferred as the app defers
  them, the saved search index): a fresh process opening the store and running :data:`QUERIES`
  through the searcher (:func:`~paperdeck.search.selection.run_query`) in the ICLR 2026 scope / in
  every venue, ÷ the same on the ICLR 2026 store alone (``venues_store_filter_cpu_s_iclr2026`` /
  ``…_all``: the library's medians; ``venues_store_filter_iclr2026_alone_cpu_s``: the store alone's);
- ``venues_full_parse_open_filter_cpu_ratio`` (``…_cpu_s``): what the former
  ``venues_open_filter_cpu_ratio`` measured — a fresh process opening the store with
  ``Store(...)``, parsing every paper whole (``store.papers``) and running :data:`QUERIES` with no
  scope — which the app no longer does;
- ``venues_stats_ms``: the per-venue statistics of the whole library
  (:func:`paperdeck.stats.figures.figures_of`, one entry per venue), catalogue loaded, median
  of 5;
- ``venues_scope_filter_p95_ms``: ``venue:`` terms (one venue, several, a year, a complement)
  through ``run_query`` on the loaded library (after one round), p95 of 5 rounds: what a query
  naming venues filters;
- ``venues_scope_switch_p95_ms``: the scope switched as the venue picker switches it — the filter
  bar's query (:data:`SWITCHED_QUERIES`: blank, words, a mask, both) run again with
  ``run_query``'s ``scope`` (ICLR 2026; COLM 2025 + ICLR 2026; the library's first three venues;
  every venue) on the store as the app holds it (lean, opened on ICLR 2026, the other venues
  deferred until a scope needs them), after one round in ICLR 2026, p95 of 5 rounds (the issue:
  ≤ 50 ms, one keystroke's budget);
- ``venues_stats_cpu_ms``, ``venues_scope_filter_cpu_p95_ms``, ``venues_scope_switch_cpu_p95_ms``:
  the same three in the measuring thread's CPU time (``time.thread_time``: what holds still on a
  loaded machine; the statistics and the queries run in that thread);
  ``venues_scope_switch_cpu_max_ms``: the slowest switch, the first to a scope whose papers were
  held deferred (each parsed then, once).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import orjson
from paperdeck.search.searcher import build_index
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO / (os.environ.get("PAPERDECK_SHARED") or "../shared")
DATA = SHARED.resolve() / "data"
DUMP = [DATA / f"iclr2026_submissions_reviewtracker.part{n}of3.jsonl" for n in (1, 2, 3)]
OTHERS = [DATA / f"papercopilot_{name}.json" for name in
          ("colm2025", "iclr2017", "iclr2018", "nips2018", "icml2019", "cvpr2019")]  # fmt: skip
OTHERS += [DATA / "iclr2023_submissions_number_title.tsv", DATA / "iclr2025_title_authors_affiliations_decision.csv"]
#: Filter queries timed on both stores (no words: each is a mask over the papers).
QUERIES = ("venue:iclr", "rating>=6", "decision:accept", "-venue:colm rating_pct>=90", "year:2026 has:rating")
#: What the app's runs type: words, then masks (each key a query of its own).
APP_QUERIES = ("diffusion", "rating>=6", "decision:accept", "REAP")
#: The filter bar's queries re-run when the scope is switched (blank, words, a mask, both).
SWITCHED_QUERIES = ("", "diffusion", "rating>=6", "diffusion decision:accept")
SCOPES = ("venue:colm", 'venue:"iclr 2026"', "venue:2019", "-venue:colm", "venue:iclr OR venue:colm")
#: The venue the library's app and scoped runs look at (the store alone holds only it).
SCOPE = "ICLR 2026"
RUNS = 5

_FULL_PARSE = """
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

_STORE_FILTER = """
import os, sys
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.search.venues import effective_scope
from paperdeck.store.store import Store
store = Store(sys.argv[1], lazy=True, user_records=False, lean=True)
scope = effective_scope(store, [sys.argv[2]] if sys.argv[2] else [])
store.defer_outside(scope)  # as the app's main screen, before the catalogue is parsed
searcher = Searcher(store)
searcher.index.get()
for query in sys.argv[3:]:
    run_query(searcher, parse_query(query), "relevance", scope)
times = os.times()
print(times.user + times.system)
"""

_APP_TYPING = """
import asyncio, os, sys
from paperdeck import runtime
from paperdeck.store.store import Store
from procs import settled

async def main(data_dir, queries):
    frame_timeout = float(os.environ.get("VENUES_BENCH_FRAME_TIMEOUT_S", "30"))
    from textual import events
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.frames import watch_frames

    with runtime.tuned():
        app = PaperApp(store=Store(data_dir, lazy=True, user_records=False, lean=True))
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            painted = asyncio.Event()
            waiting_for = [""]

            def frame_painted(shows):
                if shows == waiting_for[0]:
                    painted.set()

            watch_frames(screen, lambda: screen.applied_filter[0], frame_painted)
            await pilot.press("slash")
            for query in queries:
                typed = ""
                for char in query:
                    typed += char
                    waiting_for[0] = typed
                    painted.clear()
                    app.post_message(events.Key("space" if char == " " else char, char))
                    await asyncio.wait_for(painted.wait(), timeout=frame_timeout)
                waiting_for[0] = ""
                await pilot.press("ctrl+a", "ctrl+k")
            while not app.store.loaded or screen.searcher.index.built is None:
                await asyncio.sleep(0.05)
            await settled(app)
            shown = len(screen.list_filter.view_ids())
    times = os.times()
    print(shown, times.user + times.system)

asyncio.run(main(sys.argv[1], sys.argv[2:]))
"""


def _cpu(script: str, *args: str) -> float:
    """CPU seconds (user + system) a fresh process running ``script`` with ``args`` reports last."""
    path = os.pathsep.join((str(REPO / "tui"), str(REPO / "bench"), os.environ.get("PYTHONPATH", "")))
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1].split()[-1])


def _paired(a: Callable[[], float], b: Callable[[], float], runs: int) -> list[tuple[float, float]]:
    """``runs`` pairs ``(a(), b())``, interleaved (a pair shares the machine's speed), after one
    unmeasured run of each (the file cache warm, the caches of a first start written)."""
    a(), b()
    return [(a(), b()) for _ in range(runs)]


def _ratio_keys(name: str, pairs: list[tuple[float, float]]) -> dict[str, float]:
    ratios = sorted(a / b for a, b in pairs)
    return {
        f"{name}_cpu_ratio": round(statistics.median(ratios), 2),
        f"{name}_cpu_ratio_lo": round(ratios[0], 2),
        f"{name}_cpu_ratio_hi": round(ratios[-1], 2),
    }


#: Prepended to :data:`_APP_TYPING` for its instruction counts: the filter bar's cursor does not
#: blink (its 0.5 s timer repaints the bar as long as the run lasts in wall time, which callgrind
#: stretches ~50× and the machine's load stretches again: counted, it would be the load's), and
#: the pilot's keys wait for the screen as long as callgrind takes (not Textual's 30 s).
_UNDER_CALLGRIND = (
    "from textual.widgets import Input\nInput.cursor_blink = False\n"
    "from textual.pilot import Pilot\nPilot._wait_for_screen.__defaults__ = (3600.0,)\n"
)


def _app_argv(data_dir: Path) -> list[str]:
    return [sys.executable, "-c", _UNDER_CALLGRIND + _APP_TYPING, str(data_dir), *APP_QUERIES]


def measure_open_filter_ir(alone: Path, library: Path) -> dict[str, float]:
    """The ``venues_*open_filter_ir*`` keys of the module docstring; ``{}`` without valgrind.

    Raises:
        subprocess.CalledProcessError: a run failed (its count would be of part of the run).
    """
    if shutil.which("valgrind") is None:
        return {}
    path = os.pathsep.join((str(REPO / "tui"), str(REPO / "bench"), os.environ.get("PYTHONPATH", "")))
    # Each key's frame waited for as long as callgrind takes on a loaded machine.
    env = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0", VENUES_BENCH_FRAME_TIMEOUT_S="3600")
    counted, counted_alone = _instructions(_app_argv(library), env), _instructions(_app_argv(alone), env)
    return {
        "venues_open_filter_ir": counted,
        "venues_iclr2026_open_filter_ir": counted_alone,
        "venues_open_filter_ir_ratio": round(counted / counted_alone, 3),
    }


def _instructions(argv: list[str], env: dict[str, str]) -> int:
    """Instructions ``argv`` executes to its end under callgrind (every thread).

    Raises:
        subprocess.CalledProcessError: it ended with an error.
        RuntimeError: callgrind printed no count.
    """
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "callgrind.log"
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", f"--log-file={log}", *argv]
        subprocess.run(command, env=env, capture_output=True, check=True)
        found = re.search(r"Collected\s*:\s*(\d+)", log.read_text(errors="replace"))
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {log.read_text(errors='replace')[-300:]}")
        return int(found.group(1))


def build_stores(work: Path) -> tuple[Path, Path]:
    """The ICLR 2026 store alone and the library under ``work``, their search indexes built, the
    library's scope (``config.json``) :data:`SCOPE`."""
    alone, library = work / "iclr2026", work / "library"
    for data_dir, files in ((alone, DUMP), (library, [*OTHERS, *DUMP])):
        store = Store(data_dir)
        import_files(store, files)
        build_index(store)
    (library / "config.json").write_bytes(orjson.dumps({"venues": [SCOPE]}))
    return alone, library


def measure_open_filter(alone: Path, library: Path, runs: int = RUNS) -> dict[str, float]:
    """The ``venues_*open_filter*`` and ``venues_store_filter*`` keys of the module docstring."""
    keys: dict[str, float] = {}
    app = _paired(lambda: _cpu(_APP_TYPING, str(library), *APP_QUERIES),
                  lambda: _cpu(_APP_TYPING, str(alone), *APP_QUERIES), runs)  # fmt: skip
    keys["venues_open_filter_cpu_s"] = round(statistics.median(a for a, _ in app), 3)
    keys["venues_iclr2026_open_filter_cpu_s"] = round(statistics.median(b for _, b in app), 3)
    keys |= _ratio_keys("venues_open_filter", app)
    for label, scope in (("iclr2026", SCOPE), ("all", "")):
        pairs = _paired(partial(_cpu, _STORE_FILTER, str(library), scope, *QUERIES),
                        partial(_cpu, _STORE_FILTER, str(alone), "", *QUERIES), runs)  # fmt: skip
        keys[f"venues_store_filter_cpu_s_{label}"] = round(statistics.median(a for a, _ in pairs), 3)
        keys |= _ratio_keys(f"venues_store_filter_{label}", pairs)
    keys["venues_store_filter_iclr2026_alone_cpu_s"] = round(statistics.median(b for _, b in pairs), 3)
    full = _paired(lambda: _cpu(_FULL_PARSE, str(library), *QUERIES), lambda: _cpu(_FULL_PARSE, str(alone), *QUERIES),
                   runs)  # fmt: skip
    keys["venues_full_parse_open_filter_cpu_s"] = round(statistics.median(a for a, _ in full), 3)
    keys |= _ratio_keys("venues_full_parse_open_filter", full)
    return keys


def measure_scope_and_stats(library: Path, runs: int = RUNS) -> dict[str, float]:
    """``venues_stats_ms`` and ``venues_scope_filter_p95_ms`` (the module docstring) on the built
    ``library``."""
    from paperdeck.search.query import parse_query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query
    from paperdeck.stats.figures import figures_of

    store = Store(library)
    papers, summaries = store.papers, store.reviews.summaries()
    stats_ms, stats_cpu_ms = [], []
    for _ in range(runs):
        started, cpu = time.perf_counter(), time.thread_time()
        figures_of(papers, summaries, {})
        stats_ms.append((time.perf_counter() - started) * 1000)
        stats_cpu_ms.append((time.thread_time() - cpu) * 1000)
    searcher = Searcher(store)
    for scope in SCOPES:  # the first query of a store loads what every one needs
        run_query(searcher, parse_query(scope), "list")
    scope_ms, scope_cpu_ms = [], []
    for _ in range(runs):
        for scope in SCOPES:
            started, cpu = time.perf_counter(), time.thread_time()
            run_query(searcher, parse_query(scope), "list")
            scope_ms.append((time.perf_counter() - started) * 1000)
            scope_cpu_ms.append((time.thread_time() - cpu) * 1000)
    # The scope switched as the venue picker does: the filter bar's query run again in each scope
    # (run_query's scope), on the store as the app holds it (lean, opened on ICLR 2026).
    lean = Store(library, lazy=True, user_records=False, lean=True)
    lean.defer_outside(frozenset({SCOPE}))
    lean_searcher = Searcher(lean)
    labels = lean.venue_runs.labels
    scopes = [frozenset({SCOPE}), frozenset({"COLM 2025", SCOPE}), frozenset(labels[:3]), frozenset()]
    queries = [parse_query(text) for text in SWITCHED_QUERIES]
    for query in queries:
        run_query(lean_searcher, query, "relevance", scopes[0])
    switch_ms, switch_cpu_ms = [], []
    for _ in range(runs):
        for scope in scopes:
            for query in queries:
                started, cpu = time.perf_counter(), time.thread_time()
                run_query(lean_searcher, query, "relevance", scope)
                switch_ms.append((time.perf_counter() - started) * 1000)
                switch_cpu_ms.append((time.thread_time() - cpu) * 1000)
    return {
        "venues_stats_ms": round(statistics.median(stats_ms), 1),
        "venues_stats_cpu_ms": round(statistics.median(stats_cpu_ms), 1),
        "venues_scope_filter_p95_ms": _p95(scope_ms),
        "venues_scope_filter_cpu_p95_ms": _p95(scope_cpu_ms),
        "venues_scope_switch_p95_ms": _p95(switch_ms),
        "venues_scope_switch_cpu_p95_ms": _p95(switch_cpu_ms),
        "venues_scope_switch_cpu_max_ms": round(max(switch_cpu_ms), 1),
    }


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1)


def measure_venues(runs: int = RUNS, ir: bool = True) -> dict[str, float]:
    """The keys of the module docstring (the instruction counts only given ``ir``)."""
    with tempfile.TemporaryDirectory() as tmp:
        alone, library = build_stores(Path(tmp))
        keys = measure_open_filter(alone, library, runs)
        if ir:
            keys |= measure_open_filter_ir(alone, library)
        return {
            "venues_papers": len(Store(library).paper_ids),
            "venues_iclr2026_papers": len(Store(alone).paper_ids),
            **keys,
            **measure_scope_and_stats(library, runs),
        }


if __name__ == "__main__":
    import json

    if len(sys.argv) == 3:  # venues_bench.py ALONE LIBRARY: the keys but the papers', on built stores
        library = Path(sys.argv[2])
        alone = Path(sys.argv[1])
        keys = measure_open_filter(alone, library) | measure_open_filter_ir(alone, library)
        print(json.dumps(keys | measure_scope_and_stats(library)))
    elif len(sys.argv) == 2:  # venues_bench.py LIBRARY: the statistics and the scope's re-filter alone
        print(json.dumps(measure_scope_and_stats(Path(sys.argv[1]))))
    else:
        print(json.dumps(measure_venues()))
