"""paperdeck benchmark: prints one JSON object of numbers; asserts nothing (tests never time).

Usage: ``python bench/bench.py [--scale N] [--store DIR] [--runs R] [PART [DATA_DIR]]`` (``make bench
SCALE=N``). ``paperdeck`` and every process it starts run this checkout's code (``tui/`` first on
``PYTHONPATH``, bench/procs.py), whatever checkout the virtual environment was installed from.

**The issue-32 keys** (at every scale; bench/procs.py measures whole processes). The store is built
from ``scaled_files(N, tmp)`` (bench/scale.py: the dump and the reviews N × the ICLR 2026 ones,
copies with new ids and shuffled abstracts; the originals at N = 1) with ``paperdeck import`` run as
child processes, each measured alone (``os.wait4`` of the child: ``ru_maxrss``, ``ru_utime +
ru_stime``; bench/procs.py ``run_child``), in the order a user imports them, into ``work/data``
held by this build alone and empty (``store_built_alone``; the dump's import must find every
paper new):

- ``import_dump_peak_rss_mb`` / ``import_dump_cpu_s`` / ``import_dump_wall_s``: the dump's parts in one
  ``paperdeck import`` (which also builds and saves the search and similarity indexes) into an empty store;
- ``import_reviews_peak_rss_mb`` / ``import_reviews_cpu_s`` / ``…_wall_s``: the review parts (at N ×,
  the three originals and one file per copy) in one ``paperdeck import`` into the store holding the dump;
- ``import_parquet_peak_rss_mb`` / ``parquet_import_cpu_s`` / ``…_wall_s``: the decisions Parquet file
  (``data/iclr2026_accepted_papercopilot-derived.parquet``, 5,358 rows naming original papers, the
  same file at every scale), imported while the app runs on the store (for ``app_reload_*``);
- each ``…_cpu_s`` counts the import and every process it started and waited for (the review
  import's word-index process); each ``…_peak_rss_mb`` is the peak of the largest one of those
  processes, not their sum; ``import_dump_tree_peak_rss_mb``, ``import_reviews_tree_peak_rss_mb``,
  ``import_parquet_tree_peak_rss_mb``: their resident memory summed at one moment (sampled every
  50 ms: a lower bound of the true sum's peak, never under the largest one's);
  ``import_tree_peak_rss_mb`` the largest of the three;
- ``import_peak_rss_mb``: the largest of the three peaks; ``import_cpu_us_per_paper``: the dump's CPU
  µs ÷ ``papers``; ``import_cpu_us_per_review``: the reviews' CPU µs ÷ ``reviews`` (the notes the
  import counted: new + updated + unchanged); ``scale``, ``papers`` (the store's papers after the
  import), ``reviews``;
- ``app_reload_steady_rss_mb``, ``app_reload_peak_rss_mb``, ``app_reload_peak_vs_steady``: the app
  (``paperdeck`` in a pseudo-terminal) on the store with every review, its resident memory (VmRSS)
  once settled (:func:`settle`: at least 12 s, then 2 s without CPU use); its peak (VmHWM) is reset
  then (``/proc/PID/clear_refs`` 5) and read again once the app has settled after the Parquet's
  import: the peak of its reload of the new catalogue, ÷ the steady memory. ``app_reload_seen``:
  whether the import replaced the catalogue file (its inode, size or mtime changed, watched every
  50 ms) and the app then used 50 ms of CPU or more (its reload: the app checks the catalogue's stamp
  every few seconds); ``app_reload_cpu_ms`` the CPU it used from the catalogue's replacement until
  settled again (at least 8 s after the import's end).

With ``--store DIR`` the store in ``DIR`` (built as above, e.g. ``/tmp/s1/store``) is copied and
measured instead: the import and reload keys are absent, and ``scale`` is null unless ``--scale``
says the store's. The keys on the store built or copied:

- ``cold_start_ms`` / ``cold_start_cpu_ms``: exec of ``paperdeck`` in a pseudo-terminal to the
  first list row painted: wall ms and the process's CPU ms at that moment (``/proc/PID/stat`` utime
  + stime of every thread, to the 10 ms clock tick); ``floor_start_cpu_ms``: the same for the floor
  app (bench/cold_start.py ``FLOOR_TEXTUAL_APP``, a Textual app of paperdeck's shape with no data
  and none of its code) to its fourth row; ``cold_start_cpu_vs_floor``: median of the pairs' ratios;
- ``ready_cpu_ms``: the same to the list filtered for ``REAP`` painted, ``/REAP`` typed as soon as
  the first row is (``index_ready_run``); ``floor_ready_cpu_ms``: the floor app to its rows changed
  by its own typed query (``floor_textual_run``); ``ready_cpu_vs_floor_ready``: median of the pairs'
  ratios. The cold starts, the ready runs, the floor runs and the bare app's run ``--runs`` times (5)
  in turn, interleaved;
- ``keystroke_cpu_p50_ms`` / ``keystroke_cpu_p95_ms``: the keystrokes below (``keystroke_p50_ms``)
  in the process's CPU time (``time.process_time()``, every thread) from the key posted to the frame
  painted;
- the command line (bench/cli_bench.py): ``cli_show_cpu_ms``, ``cli_star_cpu_ms``,
  ``cli_version_cpu_ms``, ``python_pass_cpu_ms`` (the yardstick), ``cli_search_cpu_vs_fzf``, with
  their wall ms; instruction counts where valgrind is installed (``python_pass_ir``,
  ``cli_version_ir``, ``cli_show_ir``, ``cli_star_ir``, ``cli_note_ir``, ``cli_status_ir``,
  ``cli_*_ir_vs_pass``), else ``"ir": "valgrind not installed"``;
- instructions to the painted frames where valgrind is installed (bench/paint_ir.py, one run each,
  the process ended by itself at the frame): ``cold_start_ir`` / ``floor_start_ir`` /
  ``cold_start_ir_vs_floor`` (the steadier yardstick of ``cold_start_cpu_vs_floor``: it holds still
  under load) and ``ready_ir`` / ``floor_ready_ir`` / ``ready_ir_vs_floor_ready``. Under callgrind
  the app runs ~50× slower while its timers keep wall time, so the work it does once typing pauses
  (the index warmed, the catalogue parsed) starts before the result is painted and is counted: the
  ready ratio is the slowest machine's, an upper bound of ``ready_cpu_vs_floor_ready``;
- ``app_rss_mb``: the app's resident memory (VmRSS) once settled (as above) on the store with every
  review and the decisions; ``peak_rss_mb``: its peak (VmHWM) then;
- ``load_avg``: the machine's 1-minute load average at the start and the end of the run.

At ``--scale`` above 1 or with ``--store``, the older expensive keys are not measured; ``skipped``
lists them. At 1 (``make bench``) every key below is measured as well.

**The older keys**, on the full ICLR 2026 dump (``../shared/data/iclr2026_submissions_reviewtracker.part*.jsonl``,
19,630 papers), on this machine:

- ``import_s``: import of the three parts into an empty store, seconds, in the bench's own process
  (a store of its own, for ``import_s``, ``similarity_save_s``, ``restore_backup_s``, ``reviews_*``);
  ``similarity_save_s``: what ``paperdeck import`` adds after it,
  building and saving the similarity index;
- ``cold_start_vs_bare``: the median of the interleaved pairs' ratios ``cold_start`` ÷ bare Textual;
  ``index_ready_ms``: exec of ``paperdeck`` to the list filtered for ``REAP`` painted, ``/REAP``
  typed as soon as the first row is (bench/cold_start.py ``index_ready_run``), interleaved with the
  cold starts; ``index_ready_vs_cold_start`` the ratio of the medians;
- ``floor_start_ms``, ``floor_ready_ms``, ``floor_vs_bare``, ``floor_ready_vs_start``,
  ``cold_start_vs_floor``: the same two runs for a Textual app of paperdeck's shape with no data and
  none of its code (bench/cold_start.py ``FLOOR_TEXTUAL_APP``: a focused ``Input`` over a Line-API
  list beside a ``Static``, its rows changed once the query is typed), interleaved with the others:
  the best the two ratios above can be with Textual on this machine, and what paperdeck adds to it;
- ``cli_search_vs_fzf``, ``cli_search_ms``, ``fzf_ms``, ``cli_show_ms``, ``cli_star_ms``: the command
  line as whole processes (bench/cli_bench.py; fzf installed when missing, or why the ratio is absent);
- ``cold_start_ms``: median over 5 runs, exec of ``paperdeck`` in a pseudo-terminal to the first
  list row painted (bench/cold_start.py; the app's modules are byte-compiled first, as an
  installed package's are: this machine sets PYTHONDONTWRITEBYTECODE=1, which would otherwise
  recompile them at every start); ``bare_textual_start_ms``: the same for a bare Textual
  app (one ``Static`` of 40 lines), run interleaved: Textual's own floor on this machine;
- ``keystroke_p50_ms`` / ``keystroke_p95_ms``: key pressed → list re-ranked and repainted, in the
  real app (headless, 120×40), typing ``diffusion``, ``graph neural``, ``difusion samplng``,
  ``REAP``, ``specul decod`` and more one key at a time (~8 keys a second), clearing between
  queries. Each key is posted to the app as the terminal driver posts it, and timed to the end
  of the first frame that shows the list for the text typed: the compositor's update for that
  frame, encoded for the terminal as ``App._display`` would (headless skips that). No polling:
  ``Pilot.pause()`` and ``asyncio.sleep(0)`` loops steal the event loop (and the GIL) from what
  they time. The app runs tuned as ``paperdeck`` runs it (``paperdeck.runtime.tuned``: the cycle
  collector off while starting, what is loaded frozen once indexed, the same GIL switch
  interval); the index is built before the first key;
- ``keystroke_during_refresh_p50_ms`` / ``…_p95_ms``: the same typing while the app's refresh
  fetches the full ICLR 2026 from the local API server (bench/fetch_bench.py), on a copy of the
  store (only keys typed while it runs count; it is stopped after the last key if still running);
- ``star_p95_ms`` / ``note_p95_ms``: durable star toggle / note save with 5,000 starred papers (on
  the store the child imports built, once the app's keys above are measured; the keys below run with
  those 5,000 papers starred);
- ``peak_rss_mb``: peak resident memory (VmHWM) of the app process once settled (at least 12 s
  after start: catalogue parsed and search index built; see ``app_rss_mb``);
- ``cold_start_no_reviews_ms`` / ``peak_rss_no_reviews_mb``: the same two on a copy of the store
  taken before the reviews were imported (cold start runs interleaved with the other two);
- ``query_p50_ms`` / ``query_p95_ms``: field + fuzzy queries (``decision:oral diffusion``,
  ``"large language" author:Smith``, …) through ``run_query`` with a built index, 5 × 10 runs
  (bench/similar_bench.py);
- ``restore_backup_s``: restoring paperdeck's own user-data backup of a record for every paper
  (starred, a status, a tag, a note) into a copy of the catalogue with no user data, seconds
  (``bench/bench.py restore_backup_s`` measures only this, after the import);
- ``reviews_*``: importing every ICLR 2026 review (the three parts in ``../shared/reviews/``) into
  the store holding the dump, its size on disk, opening one paper's reviews
  (bench/reviews_bench.py; ``bench/bench.py reviews`` measures only this, after the import);
- ``stats_*``: the statistics of the whole conference: the statistics screen's figures shown, and
  ``paperdeck stats --json`` as a whole process (bench/stats_bench.py; ``bench/bench.py stats``
  measures only this, after the dump's and the reviews' import);
- ``moves_*``: ``moved:``, ``rating_delta`` and ``rating_initial`` queries over the whole conference
  (bench/moves_bench.py; ``bench/bench.py moves`` measures only this, after the dump's and the
  reviews' import);
- ``similar_*``: similar papers (``paperdeck.search.similar``) in a fresh process: build seconds, first
  result (numpy import + build + one query) and per-query ms, ranking by the 5,000 starred papers,
  RSS growth (bench/similar_bench.py);
- ``scope_switch_*``, ``scope_ids_ms``: the venue scope of a library of nine venues (the dump and
  the other venues' files), switched as the venue picker switches it (bench/venue_bench.py;
  ``bench/bench.py venue_scope`` measures only this);
- ``venues_*``: a library of every venue file of the shared data against the ICLR 2026 dump
  alone: the app opened on the library's ICLR 2026 scope and typed in, ÷ the app on ICLR 2026
  alone (``venues_open_filter_cpu_ratio``, CPU of the whole process, interleaved; its
  instructions, ``venues_open_filter_ir_ratio``, where valgrind is installed, unless
  ``--no-paint-ir``), the same at the store level in the ICLR 2026 scope and in every venue
  (``venues_store_filter_*``), the former full parse (``venues_full_parse_*``), per-venue
  statistics of the whole library, ``venue:`` scope filters (bench/venues_bench.py;
  ``bench/bench.py venues`` measures only this);
- ``fetch_full_*``: ``paperdeck fetch iclr2026`` of every submission with its replies from a local
  API server into an empty store: seconds end to end, of them the pages, and requests
  (bench/fetch_bench.py; ``bench/bench.py fetch`` measures only this).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import pty
import select
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tui"))  # this checkout's code, in this process as in its children

from cli_bench import measure_cli  # noqa: E402
from cold_start import (  # noqa: E402
    PtyRun,
    bare_textual_run,
    compile_app,
    cpu_keys,
    first_title,
    floor_keys,
    floor_textual_run,
    index_ready_run,
    one_run,
    query_marker,
)
from fetch_bench import measure_fetch, serving  # noqa: E402
from moves_bench import measure_moves  # noqa: E402
from paint_ir import paint_ir_keys  # noqa: E402
from paperdeck import runtime  # noqa: E402
from paperdeck.model.paper import UserData  # noqa: E402
from paperdeck.search.searcher import build_index, build_similarity  # noqa: E402
from paperdeck.sources.importer import import_files  # noqa: E402
from paperdeck.store.backup import read_backup, restore_backup, write_backup  # noqa: E402
from paperdeck.store.store import Store  # noqa: E402
from procs import (  # noqa: E402
    TUI,
    ChildRun,
    paperdeck_argv,
    paperdeck_env,
    proc_cpu_ms,
    proc_status_mb,
    run_child,
    settled,
    store_built_alone,
)
from reviews_bench import REVIEW_PARTS, SHARED, measure_reviews  # noqa: E402
from scale import scaled_files  # noqa: E402
from similar_bench import measure_queries, measure_similar  # noqa: E402
from stats_bench import measure_stats  # noqa: E402
from venue_bench import measure_venue_scope  # noqa: E402
from venues_bench import measure_venues  # noqa: E402

DUMP = sorted((SHARED / "data").glob("iclr2026_submissions_reviewtracker.part*.jsonl"))
#: The decisions file imported last, at every scale.
PARQUET = SHARED / "data" / "iclr2026_accepted_papercopilot-derived.parquet"
#: Typed as soon as the list is painted, for ``index_ready_ms``.
READY_QUERY = "REAP"
QUERIES = [
    "diffusion",
    "graph neural",
    "difusion samplng",
    "REAP",
    "specul decod",
    "transformer attention",
    "reinforcement learning from human feedback",
]
#: The keys measured at 1 × only (``skipped`` at a larger scale or on a given store).
OLDER_KEYS = [
    "import_s", "similarity_save_s", "restore_backup_s", "reviews_*", "star_p95_ms", "note_p95_ms",
    "keystroke_during_refresh_*", "cold_start_no_reviews_ms", "peak_rss_no_reviews_mb", "query_*",
    "similar_*", "stats_*", "scope_*", "fetch_*", "venues_*",
]  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure_user_data(store: Store) -> tuple[float, float]:
    ids = store.paper_ids[:5000]
    for paper_id in ids:
        store.set_star(paper_id, True)
    star_ms, note_ms = [], []
    for n in range(300):
        paper_id = ids[(n * 7919) % len(ids)]
        started = time.perf_counter()
        store.toggle_star(paper_id)
        star_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        store.set_note(paper_id, f"note {n}: compare with the baseline in section {n % 7}")
        note_ms.append((time.perf_counter() - started) * 1000)
        store.set_star(paper_id, True)
    return percentile(star_ms, 0.95), percentile(note_ms, 0.95)


def measure_restore(store: Store, work: Path) -> float:
    """Seconds to read and restore a backup holding a record for every paper of ``store`` into a
    copy of its catalogue without user data (``store``'s own user data is left as it was)."""
    source = Store(work / "backup-source")
    shutil.copy(store.catalogue_path, source.catalogue_path)
    source = Store(source.data_dir)
    statuses = ("read", "to-read", "skimmed")
    source.restore(
        UserData(pid, starred=n % 2 == 0, note=f"note {n}", status=statuses[n % 3], tags=("bench",))
        for n, pid in enumerate(source.paper_ids)
    )
    backup_path = work / "backup.json"
    write_backup(source, backup_path)
    target = Store(work / "restore-target")
    shutil.copy(store.catalogue_path, target.catalogue_path)
    target = Store(target.data_dir)
    started = time.perf_counter()
    report = restore_backup(target, read_backup(backup_path))
    seconds = time.perf_counter() - started
    assert report.restored == len(source.paper_ids), report
    return seconds


async def measure_keystrokes(data_dir: Path, refresh_url: str | None = None) -> tuple[list[float], list[float]]:
    """Milliseconds from a key reaching the app to the end of the first frame that shows its
    re-ranked list (see the module docstring), in wall time and in the process's CPU time; given
    ``refresh_url`` (the local API server), while a refresh from it runs (started, and seen fetching,
    before the first key; only the keys typed while it ran are counted; stopped after the last key
    if it has not landed)."""
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.frames import watch_frames
    from paperdeck.ui.screens.main import MainScreen
    from textual import events

    with runtime.tuned():  # as `paperdeck` runs the app (paperdeck.cli.main)
        app = PaperApp(store=Store(data_dir, lazy=True))
        timings: list[float] = []
        cpu: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            while screen.searcher.index.built is None:
                await asyncio.sleep(0.05)
            await settled(app)  # the screen has taken the index in (and frozen what is loaded)
            waiting_for: list[str] = [""]
            painted = asyncio.Event()
            painted_at = [0.0, 0.0]

            def frame_painted(shows: object) -> None:
                if shows == waiting_for[0] and not painted.is_set():
                    painted_at[:] = time.perf_counter(), time.process_time()
                    painted.set()

            if refresh_url is not None:
                os.environ["PAPERDECK_OPENREVIEW_URL"] = refresh_url
                os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
                screen.action_refresh()
                while "fetching" not in screen.refresh_note:
                    await asyncio.sleep(0.1)
            # What each frame shows is set with the list, never mid-frame.
            watch_frames(screen, lambda: screen.applied_filter[0], frame_painted)
            await pilot.press("slash")
            await pilot.pause()
            for query in QUERIES:
                typed = ""
                for char in query:
                    typed += char
                    waiting_for[0] = typed
                    painted.clear()
                    started, started_cpu = time.perf_counter(), time.process_time()
                    # As the terminal driver does: a key event posted to the app (Pilot.press would
                    # also wait for every widget to go idle, which is not what a user waits for).
                    app.post_message(events.Key("space" if char == " " else char, char))
                    await asyncio.wait_for(painted.wait(), timeout=10)
                    if refresh_url is None or screen.refresh_note:  # while the refresh runs
                        timings.append((painted_at[0] - started) * 1000)
                        cpu.append((painted_at[1] - started_cpu) * 1000)
                    await asyncio.sleep(0.12)  # a fast typist: ~8 keys a second
                waiting_for[0] = ""
                await pilot.press("ctrl+a", "ctrl+k")  # clear the filter bar (Input's own keys)
                await pilot.pause()
            if refresh_url is not None:
                from paperdeck.ui.refresh import stop_fetches

                say(f"{len(timings)} keys typed while the refresh ran; after the last: {screen.refresh_note!r}")
                stop_fetches()
    return timings, cpu


class AppInPty:
    """``paperdeck`` on ``data_dir`` in a pseudo-terminal (120×40), its output read and thrown away
    by a thread (a full terminal would stall it); killed on leaving the ``with`` block."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    def __enter__(self) -> AppInPty:
        argv = paperdeck_argv()
        env = paperdeck_env(self.data_dir, TERM="xterm-256color", COLUMNS="120", LINES="40")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        return self

    def _drain(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.2)
                if ready and not os.read(self.fd, 65536):
                    return
            except OSError:  # closed, or the app ended
                return

    def settle(self, at_least: float = 12.0, quiet: float = 2.0, cap: float = 120.0) -> bool:
        """Wait ``at_least`` seconds from this call (called at the start: from the app's start),
        and then until the app has used under 30 ms of CPU in ``quiet`` seconds; False if that did
        not happen within ``cap`` seconds."""
        began = time.monotonic()
        last_cpu, last_change = proc_cpu_ms(self.pid), began
        while time.monotonic() - began < cap:
            time.sleep(0.25)
            now, cpu = time.monotonic(), proc_cpu_ms(self.pid)
            if cpu - last_cpu >= 30:
                last_cpu, last_change = cpu, now
            if now - began >= at_least and now - last_change >= quiet:
                return True
        return False

    def __exit__(self, *exc: object) -> None:
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        self.drain.join(timeout=5)  # ended by the terminal's hang-up: the descriptor is not reused under it
        os.close(self.fd)


def app_memory(data_dir: Path) -> tuple[float, float]:
    """The app's resident memory (VmRSS) and peak (VmHWM) in MB once settled (:meth:`AppInPty.settle`,
    at least 12 s after start)."""
    with AppInPty(data_dir) as app:
        if not app.settle():
            say("the app did not settle in 120 s: its memory is read all the same")
        return proc_status_mb(app.pid, "VmRSS"), proc_status_mb(app.pid, "VmHWM")


def _stamp(path: Path) -> tuple[int, int, int]:
    stat = path.stat()
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def import_child(data_dir: Path, files: list[Path], log: Path) -> tuple[ChildRun, dict[str, object]]:
    """``paperdeck import --json FILES`` into ``data_dir`` as a child process: its run and its report.

    Raises:
        SystemExit: the import failed (the end of its standard error said).
    """
    run = run_child(paperdeck_argv("import", "--json", *map(str, files)), paperdeck_env(data_dir),
                    keep_output=True, stderr=log)  # fmt: skip
    if run.returncode != 0:
        sys.exit(f"bench: paperdeck import failed ({run.returncode}): {log.read_text(errors='replace')[-800:]}")
    report = json.loads(run.stdout)
    assert isinstance(report, dict)
    return run, report


def import_watching(data_dir: Path, log: Path, app_pid: int) -> tuple[ChildRun, float | None]:
    """The Parquet imported into ``data_dir`` by a child process while this one watches the
    catalogue file: the import's run, and the app's (``app_pid``) CPU ms when the catalogue was
    replaced (its inode, size or mtime changed; ``None`` if it never was)."""
    catalogue = data_dir / "catalogue.json"
    before = _stamp(catalogue)
    done: list[ChildRun] = []
    importing = threading.Thread(target=lambda: done.append(import_child(data_dir, [PARQUET], log)[0]))
    importing.start()
    cpu_at_rewrite: float | None = None
    while importing.is_alive():
        if cpu_at_rewrite is None and _stamp(catalogue) != before:
            cpu_at_rewrite = proc_cpu_ms(app_pid)
        time.sleep(0.05)
    importing.join()
    if cpu_at_rewrite is None and _stamp(catalogue) != before:
        cpu_at_rewrite = proc_cpu_ms(app_pid)
    if not done:
        sys.exit("bench: the Parquet's import failed")
    return done[0], cpu_at_rewrite


def brief(run: ChildRun) -> str:
    summed = ""
    if run.tree_peak_rss_mb > run.peak_rss_mb + 1:
        summed = f" (its processes summed {run.tree_peak_rss_mb:.0f} MB)"
    return f"{run.wall_s:.1f} s wall, {run.cpu_s:.1f} s CPU, peak {run.peak_rss_mb:.0f} MB{summed}"


def import_keys(name: str, run: ChildRun) -> dict[str, object]:
    cpu_key = "parquet_import_cpu_s" if name == "parquet" else f"import_{name}_cpu_s"
    return {f"import_{name}_peak_rss_mb": round(run.peak_rss_mb), cpu_key: round(run.cpu_s, 2),
            f"import_{name}_wall_s": round(run.wall_s, 2),
            f"import_{name}_tree_peak_rss_mb": round(run.tree_peak_rss_mb)}  # fmt: skip


def build_store(scale: int, work: Path, keep_no_reviews: bool) -> tuple[Path, dict[str, object]]:
    """The store of ``scaled_files(scale)`` built in ``work/data`` by child imports (the module
    docstring), with the import and reload keys; given ``keep_no_reviews``, a copy taken before the
    reviews in ``work/no-reviews``.

    Raises:
        SystemExit: ``work/data`` is not empty, another process is building in ``work``
            (:func:`procs.store_built_alone`), or the dump's import found papers in the store.
    """
    with store_built_alone(work) as data_dir:
        return _build_store(scale, work, data_dir, keep_no_reviews)


def _build_store(scale: int, work: Path, data_dir: Path, keep_no_reviews: bool) -> tuple[Path, dict[str, object]]:
    dump, reviews = scaled_files(scale, work / "files")
    say(f"{len(dump)} dump files, {len(reviews)} review files at {scale} ×")
    dump_run, dump_report = import_child(data_dir, dump, work / "import-dump.log")
    papers, new = int(str(dump_report["papers"])), int(str(dump_report["new"]))
    if new != papers:  # the keys are those of an import into an empty store
        sys.exit(f"bench: the dump's import found {papers - new:,} of its {papers:,} papers in {data_dir} already")
    say(f"dump: {papers} papers, {brief(dump_run)}")
    if keep_no_reviews:
        shutil.copytree(data_dir, work / "no-reviews")
    reviews_run, reviews_report = import_child(data_dir, reviews, work / "import-reviews.log")
    counts = reviews_report.get("reviews")
    assert isinstance(counts, dict), reviews_report
    notes = sum(int(counts.get(key, 0)) for key in ("new", "updated", "unchanged"))
    say(f"reviews: {notes} notes, {brief(reviews_run)}")
    with AppInPty(data_dir) as app:
        settled = app.settle()
        steady = proc_status_mb(app.pid, "VmRSS")
        Path(f"/proc/{app.pid}/clear_refs").write_text("5")  # VmHWM back to VmRSS: the reload's own peak
        parquet_run, cpu_at_rewrite = import_watching(data_dir, work / "import-parquet.log", app.pid)
        app.settle(at_least=8.0)  # the app checks the catalogue's stamp every few seconds
        reload_cpu = proc_cpu_ms(app.pid) - cpu_at_rewrite if cpu_at_rewrite is not None else 0.0
        peak = proc_status_mb(app.pid, "VmHWM")
    say(f"parquet: {brief(parquet_run)}; app settled {settled}, steady {steady:.0f} MB, reload peak {peak:.0f} MB")
    runs = {"dump": dump_run, "reviews": reviews_run, "parquet": parquet_run}
    keys: dict[str, object] = {"scale": scale, "papers": papers, "reviews": notes}
    for name, run in runs.items():
        keys.update(import_keys(name, run))
    keys.update(
        import_peak_rss_mb=round(max(run.peak_rss_mb for run in runs.values())),
        import_tree_peak_rss_mb=round(max(run.tree_peak_rss_mb for run in runs.values())),
        import_cpu_us_per_paper=round(dump_run.cpu_s * 1e6 / papers),
        import_cpu_us_per_review=round(reviews_run.cpu_s * 1e6 / notes) if notes else None,
        app_reload_steady_rss_mb=round(steady, 1),
        app_reload_peak_rss_mb=round(peak, 1),
        app_reload_peak_vs_steady=round(peak / steady, 2),
        app_reload_seen=cpu_at_rewrite is not None and reload_cpu >= 50,
        app_reload_cpu_ms=round(reload_cpu),
    )
    return data_dir, keys


def measure_app(data_dir: Path, runs: int, no_reviews: Path | None, ir: bool = True) -> dict[str, object]:
    """The issue-32 keys measured on a built store (module docstring), and the older start-up keys
    of the same runs (``cold_start_ms``, ``floor_*``, …); ``no_reviews``: a copy of the store before
    its reviews, for ``cold_start_no_reviews_ms`` (interleaved); ``ir``: with the instruction counts
    to the painted frames (bench/paint_ir.py, where valgrind is installed)."""
    marker = first_title(str(data_dir)).encode("utf-8")
    compile_app()
    result = query_marker(str(data_dir), READY_QUERY)
    cold: list[PtyRun] = []
    ready: list[PtyRun] = []
    floor: list[PtyRun] = []
    bare: list[float] = []
    cold_no_reviews: list[float] = []
    for _ in range(runs):  # interleaved: the machine's speed drifts
        cold.append(one_run(str(data_dir), marker))
        if no_reviews is not None:
            cold_no_reviews.append(one_run(str(no_reviews), marker).first_ms)
        bare.append(bare_textual_run().first_ms)
        ready.append(index_ready_run(str(data_dir), marker, READY_QUERY, result))
        floor.append(floor_textual_run(READY_QUERY))
    cold_ms = [run.first_ms for run in cold]
    ready_ms = [run.ready_ms or 0.0 for run in ready]
    say(f"cold start {cold_ms}, without the reviews {cold_no_reviews}, bare Textual app {bare}, index ready {ready_ms}")
    keys: dict[str, object] = {
        "cold_start_ms": round(statistics.median(cold_ms)),
        "cold_start_vs_bare": round(statistics.median(a / b for a, b in zip(cold_ms, bare, strict=True)), 2),
        "index_ready_ms": round(statistics.median(ready_ms)),
        "index_ready_vs_cold_start": round(statistics.median(ready_ms) / statistics.median(cold_ms), 2),
        **cpu_keys(cold, ready, floor),
        **floor_keys(cold_ms, bare, floor),
        "cold_start_runs_ms": [round(t) for t in cold_ms],
        "bare_textual_start_ms": round(statistics.median(bare)),
        "bare_textual_runs_ms": [round(t) for t in bare],
        "index_ready_runs_ms": [round(t) for t in ready_ms],
    }
    if ir:
        keys.update(paint_ir_keys(str(data_dir), marker.decode("utf-8"), READY_QUERY, result.decode("utf-8")))
    if cold_no_reviews:
        keys["cold_start_no_reviews_ms"] = round(statistics.median(cold_no_reviews))
        keys["cold_start_no_reviews_runs_ms"] = [round(t) for t in cold_no_reviews]
    cli = measure_cli(data_dir)
    say(f"command line: {cli}")
    keys.update(cli)
    wall, cpu = asyncio.run(measure_keystrokes(data_dir))
    say(f"{len(wall)} keystrokes")
    keys.update(
        keystroke_p50_ms=round(statistics.median(wall), 1), keystroke_p95_ms=round(percentile(wall, 0.95), 1),
        keystroke_cpu_p50_ms=round(statistics.median(cpu), 1), keystroke_cpu_p95_ms=round(percentile(cpu, 0.95), 1),
        keystrokes=len(wall),
    )  # fmt: skip
    rss, hwm = app_memory(data_dir)
    keys.update(app_rss_mb=round(rss, 1), peak_rss_mb=round(hwm, 1))
    return keys


def measure_older(data_dir: Path, no_reviews: Path, work: Path, ir: bool = True) -> dict[str, object]:
    """The older keys measured at 1 × alone (module docstring), ``data_dir`` the store the child
    imports built (it is written to: a refresh's copy is taken from it); ``ir``: the venues'
    instruction counts too."""
    store = Store(work / "legacy")
    started = time.perf_counter()
    import_files(store, DUMP)
    import_s = time.perf_counter() - started
    say(f"imported {len(store.paper_ids)} papers in {import_s:.2f} s")
    restore_s = measure_restore(store, work)
    say(f"restored a backup of {len(store.paper_ids)} records in {restore_s:.2f} s")
    started = time.perf_counter()
    build_similarity(store)  # what `paperdeck import` adds: the similarity index, saved
    similarity_save_s = time.perf_counter() - started
    build_index(store)  # and the search index, saved
    reviews = measure_reviews(store, percentile)
    say(f"reviews: {reviews}")
    del store
    shutil.rmtree(work / "legacy")
    star_p95, note_p95 = measure_user_data(Store(data_dir))  # 5,000 starred: similar_rank_starred_* ranks by them
    say(f"star p95 {star_p95:.2f} ms, note p95 {note_p95:.2f} ms")
    refreshed = work / "refreshed"  # a copy: the refresh is stopped before it lands, but all the same
    shutil.copytree(data_dir, refreshed)
    with serving() as url:
        during_refresh, _ = asyncio.run(measure_keystrokes(refreshed, refresh_url=url))
    shutil.rmtree(refreshed)
    say(f"{len(during_refresh)} keystrokes while a refresh ran")
    _, rss_no_reviews = app_memory(no_reviews)
    queries = measure_queries(Store(data_dir))
    say(f"{len(queries)} field+fuzzy queries")
    similar = measure_similar(data_dir)
    say(f"similar papers: {similar}")
    stats = measure_stats(data_dir)
    say(f"statistics: {stats}")
    library = measure_venue_scope(DUMP, SHARED / "data", work, percentile)
    venue_scope = {key: value for key, value in library.items() if key.startswith("scope_")}
    say(f"venue scope: {venue_scope}")
    fetched = measure_fetch()
    say(f"fetch: {fetched}")
    venues = measure_venues(ir=ir)
    say(f"venues: {venues}")
    return {
        "import_s": round(import_s, 2),
        "similarity_save_s": round(similarity_save_s, 2),
        "restore_backup_s": round(restore_s, 2),
        "keystroke_during_refresh_p50_ms": round(statistics.median(during_refresh), 1),
        "keystroke_during_refresh_p95_ms": round(percentile(during_refresh, 0.95), 1),
        "star_p95_ms": round(star_p95, 2),
        "note_p95_ms": round(note_p95, 2),
        "peak_rss_no_reviews_mb": round(rss_no_reviews, 1),
        "query_p50_ms": round(statistics.median(queries), 1),
        "query_p95_ms": round(percentile(queries, 0.95), 1),
        "queries": len(queries),
        **similar,
        **reviews,
        **stats,
        **venue_scope,
        **fetched,
        **venues,
    }


def say(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench/bench.py", description="paperdeck's benchmark: one JSON object")
    parser.add_argument("--scale", type=int, help="build the store N × the ICLR 2026 one (default 1)")
    parser.add_argument("--store", type=Path, help="measure a copy of this built store instead (no import keys)")
    parser.add_argument("--runs", type=int, default=5, help="interleaved start-up runs (default 5)")
    parser.add_argument("--no-paint-ir", action="store_true",
                        help="skip the instruction counts (frames, venues: ~10 min under valgrind)")  # fmt: skip
    parser.add_argument("part", nargs="?", help="fetch, venues, keystrokes, venue_scope, reviews, stats, moves, "
                        "restore_backup_s: only that part")  # fmt: skip
    parser.add_argument("data_dir", nargs="?", type=Path, help="keystrokes: the store to type in")
    args = parser.parse_args(argv)
    given_scale = args.scale  # with --store: the store's scale when said, else unknown (null)
    args.scale = 1 if given_scale is None else given_scale
    args.store_scale = given_scale
    if args.scale < 1 or args.runs < 1:
        parser.error("--scale and --runs must be at least 1")
    return args


def load_avg() -> float:
    return round(os.getloadavg()[0], 2)


def main() -> None:
    args = parse_args(sys.argv[1:])
    path = os.environ.get("PYTHONPATH")  # the children (stats, similar) run this checkout's code too
    os.environ["PYTHONPATH"] = f"{TUI}{os.pathsep}{path}" if path else str(TUI)
    if args.part == "fetch":
        print(json.dumps(measure_fetch()))
        return
    if args.part == "venues":
        print(json.dumps(measure_venues(ir=not args.no_paint_ir)))
        return
    if args.part == "keystrokes":  # bench.py keystrokes DATA_DIR: only these, on a built store
        with tempfile.TemporaryDirectory() as tmp:
            refreshed = Path(tmp) / "data"
            shutil.copytree(args.data_dir, refreshed)
            quiet, quiet_cpu = asyncio.run(measure_keystrokes(refreshed))
            with serving() as url:
                during, _ = asyncio.run(measure_keystrokes(refreshed, refresh_url=url))
        print(json.dumps({name: round(value, 1) for name, value in (
            ("keystroke_p50_ms", statistics.median(quiet)), ("keystroke_p95_ms", percentile(quiet, 0.95)),
            ("keystroke_cpu_p50_ms", statistics.median(quiet_cpu)),
            ("keystroke_cpu_p95_ms", percentile(quiet_cpu, 0.95)),
            ("keystroke_during_refresh_p50_ms", statistics.median(during)),
            ("keystroke_during_refresh_p95_ms", percentile(during, 0.95)))}))  # fmt: skip
        return
    if not DUMP:
        sys.exit(f"bench: no {SHARED}/data/iclr2026_submissions_reviewtracker.part*.jsonl (PAPERDECK_SHARED)")
    if args.part == "venue_scope":  # a library of nine venues: switching the scope
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(measure_venue_scope(DUMP, SHARED / "data", Path(tmp), percentile)))
        return
    if args.part in ("reviews", "stats", "moves", "restore_backup_s"):
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(measure_part(args.part, Path(tmp))))
        return
    if args.part is not None:
        sys.exit(f"bench: no part {args.part!r}")
    load_at_start = load_avg()
    older = args.scale == 1 and args.store is None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        keys: dict[str, object]
        if args.store is not None:
            data_dir = work / "data"
            shutil.copytree(args.store, data_dir)  # the CLI's star and the refresh write to it
            ids = Store(data_dir, lazy=True).paper_ids
            keys = {"scale": args.store_scale, "store": str(args.store), "papers": len(ids)}
        else:
            data_dir, keys = build_store(args.scale, work, keep_no_reviews=older)
        no_reviews = work / "no-reviews" if older else None
        keys.update(measure_app(data_dir, args.runs, no_reviews, ir=not args.no_paint_ir))
        if no_reviews is not None:
            keys.update(measure_older(data_dir, no_reviews, work, ir=not args.no_paint_ir))
        else:
            keys["skipped"] = OLDER_KEYS
    keys["load_avg"] = [load_at_start, load_avg()]
    keys["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(json.dumps(keys))


def measure_part(part: str, work: Path) -> dict[str, object]:
    """``reviews``, ``stats``, ``moves`` or ``restore_backup_s`` alone, after the dump's import in
    this process (module docstring)."""
    data_dir = work / "data"
    store = Store(data_dir)
    started = time.perf_counter()
    import_files(store, DUMP)
    say(f"imported {len(store.paper_ids)} papers in {time.perf_counter() - started:.2f} s")
    papers = len(store.paper_ids)
    if part == "reviews":
        return {"papers": papers, **measure_reviews(store, percentile)}
    if part == "restore_backup_s":
        return {"papers": papers, "restore_backup_s": round(measure_restore(store, work), 2)}
    import_files(store, REVIEW_PARTS)
    if part == "stats":
        return {"papers": papers, **measure_stats(data_dir)}
    return {"papers": papers, **measure_moves(data_dir, percentile)}


if __name__ == "__main__":
    main()
