"""paperdeck benchmark: prints one JSON object of numbers; asserts nothing (tests never time).

On the full ICLR 2026 dump (``../shared/data/iclr2026_submissions_reviewtracker.part*.jsonl``,
19,630 papers), on this machine:

- ``import_s``: import of the three parts into an empty store, seconds; ``similarity_save_s``:
  what ``paperdeck import`` adds after it, building and saving the similarity index;
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
- ``star_p95_ms`` / ``note_p95_ms``: durable star toggle / note save with 5,000 starred papers;
- ``peak_rss_mb``: peak resident memory (VmHWM) of the app process, 12 s after start (catalogue
  parsed and search index built);
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
  alone: opening and filtering (CPU, interleaved), per-venue statistics of the whole library,
  ``venue:`` scope filters (bench/venues_bench.py; ``bench/bench.py venues`` measures only this);
- ``fetch_full_*``: ``paperdeck fetch iclr2026`` of every submission with its replies from a local
  API server into an empty store: seconds end to end, of them the pages, and requests
  (bench/fetch_bench.py; ``bench/bench.py fetch`` measures only this).
"""

from __future__ import annotations

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
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from cli_bench import measure_cli  # noqa: E402
from cold_start import (  # noqa: E402
    bare_textual_run,
    compile_app,
    first_title,
    floor_keys,
    floor_textual_run,
    index_ready_run,
    one_run,
    query_marker,
)
from fetch_bench import measure_fetch, serving  # noqa: E402
from moves_bench import measure_moves  # noqa: E402
from paperdeck import runtime  # noqa: E402
from paperdeck.model.paper import UserData  # noqa: E402
from paperdeck.search.searcher import build_index, build_similarity  # noqa: E402
from paperdeck.sources.importer import import_files  # noqa: E402
from paperdeck.store.backup import read_backup, restore_backup, write_backup  # noqa: E402
from paperdeck.store.store import Store  # noqa: E402
from reviews_bench import REVIEW_PARTS, SHARED, measure_reviews  # noqa: E402
from similar_bench import measure_queries, measure_similar  # noqa: E402
from stats_bench import measure_stats  # noqa: E402
from venue_bench import measure_venue_scope  # noqa: E402
from venues_bench import measure_venues  # noqa: E402

DUMP = sorted((SHARED / "data").glob("iclr2026_submissions_reviewtracker.part*.jsonl"))
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


async def measure_keystrokes(data_dir: Path, refresh_url: str | None = None) -> list[float]:
    """Milliseconds from a key reaching the app to the end of the first frame that shows its
    re-ranked list (see the module docstring); given ``refresh_url`` (the local API server), while
    a refresh from it runs (started, and seen fetching, before the first key; only the keys typed
    while it ran are counted; stopped after the last key if it has not landed)."""
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.frames import watch_frames
    from paperdeck.ui.screens.main import MainScreen
    from textual import events

    with runtime.tuned():  # as `paperdeck` runs the app (paperdeck.cli.main)
        app = PaperApp(store=Store(data_dir, lazy=True))
        timings: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            while screen.searcher.index.built is None:
                await asyncio.sleep(0.05)
            await app.workers.wait_for_complete()  # the screen has taken the index in (and frozen what is loaded)
            waiting_for: list[str] = [""]
            painted = asyncio.Event()
            painted_at = [0.0]

            def frame_painted(shows: object) -> None:
                if shows == waiting_for[0] and not painted.is_set():
                    painted_at[0] = time.perf_counter()
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
                    started = time.perf_counter()
                    # As the terminal driver does: a key event posted to the app (Pilot.press would
                    # also wait for every widget to go idle, which is not what a user waits for).
                    app.post_message(events.Key("space" if char == " " else char, char))
                    await asyncio.wait_for(painted.wait(), timeout=10)
                    if refresh_url is None or screen.refresh_note:  # while the refresh runs
                        timings.append((painted_at[0] - started) * 1000)
                    await asyncio.sleep(0.12)  # a fast typist: ~8 keys a second
                waiting_for[0] = ""
                await pilot.press("ctrl+a", "ctrl+k")  # clear the filter bar (Input's own keys)
                await pilot.pause()
            if refresh_url is not None:
                from paperdeck.ui.refresh import stop_fetches

                say(f"{len(timings)} keys typed while the refresh ran; after the last: {screen.refresh_note!r}")
                stop_fetches()
    return timings


def peak_rss_mb(data_dir: Path, seconds: float = 12.0) -> float:
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    env = dict(os.environ, PAPERDECK_DATA_DIR=str(data_dir), TERM="xterm-256color")
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(paperdeck, [paperdeck], env)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    os.read(fd, 65536)
                except OSError:
                    break
        status = Path(f"/proc/{pid}/status").read_text()
        hwm = next(line for line in status.splitlines() if line.startswith("VmHWM"))
        return int(hwm.split()[1]) / 1024
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def say(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


def main() -> None:
    if sys.argv[1:] == ["fetch"]:
        print(json.dumps(measure_fetch()))
        return
    if sys.argv[1:] == ["venues"]:
        print(json.dumps(measure_venues()))
        return
    if sys.argv[1:2] == ["keystrokes"]:  # bench.py keystrokes DATA_DIR: only these, on a built store
        given = Path(sys.argv[2])
        with tempfile.TemporaryDirectory() as tmp:
            refreshed = Path(tmp) / "data"
            shutil.copytree(given, refreshed)
            quiet = asyncio.run(measure_keystrokes(refreshed))
            with serving() as url:
                during = asyncio.run(measure_keystrokes(refreshed, refresh_url=url))
        print(json.dumps({name: round(value, 1) for name, value in (
            ("keystroke_p50_ms", statistics.median(quiet)), ("keystroke_p95_ms", percentile(quiet, 0.95)),
            ("keystroke_during_refresh_p50_ms", statistics.median(during)),
            ("keystroke_during_refresh_p95_ms", percentile(during, 0.95)))}))  # fmt: skip
        return
    if not DUMP:
        sys.exit(f"bench: no {SHARED}/data/iclr2026_submissions_reviewtracker.part*.jsonl (PAPERDECK_SHARED)")
    if sys.argv[1:] == ["venue_scope"]:  # a library of nine venues: switching the scope
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(measure_venue_scope(DUMP, SHARED / "data", Path(tmp), percentile)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        store = Store(data_dir)
        started = time.perf_counter()
        import_files(store, DUMP)
        import_s = time.perf_counter() - started
        papers = len(store.paper_ids)
        say(f"imported {papers} papers in {import_s:.2f} s")
        if sys.argv[1:] == ["reviews"]:
            print(json.dumps({"papers": papers, **measure_reviews(store, percentile)}))
            return
        if sys.argv[1:] == ["stats"]:
            import_files(store, REVIEW_PARTS)
            print(json.dumps({"papers": papers, **measure_stats(data_dir)}))
            return
        if sys.argv[1:] == ["moves"]:
            import_files(store, REVIEW_PARTS)
            print(json.dumps({"papers": papers, **measure_moves(data_dir, percentile)}))
            return
        restore_s = measure_restore(store, Path(tmp))
        say(f"restored a backup of {papers} records in {restore_s:.2f} s")
        if sys.argv[1:] == ["restore_backup_s"]:
            print(json.dumps({"papers": papers, "restore_backup_s": round(restore_s, 2)}))
            return
        started = time.perf_counter()
        build_similarity(store)  # what `paperdeck import` adds: the similarity index, saved
        similarity_save_s = time.perf_counter() - started
        build_index(store)  # and the search index, saved
        no_reviews = Path(tmp) / "no-reviews"  # the same store before its reviews, for before/after
        shutil.copytree(data_dir, no_reviews)
        reviews = measure_reviews(store, percentile)  # the app's numbers below: every review imported
        say(f"reviews: {reviews}")
        build_similarity(store)  # as `paperdeck import` does after the reviews changed the catalogue
        build_index(store)
        star_p95, note_p95 = measure_user_data(store)
        say(f"star p95 {star_p95:.2f} ms, note p95 {note_p95:.2f} ms")
        marker = first_title(str(data_dir)).encode("utf-8")
        compile_app()
        result = query_marker(str(data_dir), READY_QUERY)
        cold, cold_no_reviews, bare, ready = [], [], [], []
        floor: list[tuple[float, float]] = []
        for _ in range(5):  # interleaved: the machine's speed drifts
            cold.append(one_run(str(data_dir), marker))
            cold_no_reviews.append(one_run(str(no_reviews), marker))
            bare.append(bare_textual_run())
            ready.append(index_ready_run(str(data_dir), marker, READY_QUERY, result))
            floor.append(floor_textual_run(READY_QUERY))
        say(f"cold start {cold}, without the reviews {cold_no_reviews}, bare Textual app {bare}, index ready {ready}")
        cli = measure_cli(data_dir)
        say(f"command line: {cli}")
        keystrokes = asyncio.run(measure_keystrokes(data_dir))
        say(f"{len(keystrokes)} keystrokes")
        refreshed = Path(tmp) / "refreshed"  # a copy: the refresh is stopped before it lands, but all the same
        shutil.copytree(data_dir, refreshed)
        with serving() as url:
            during_refresh = asyncio.run(measure_keystrokes(refreshed, refresh_url=url))
        shutil.rmtree(refreshed)
        say(f"{len(during_refresh)} keystrokes while a refresh ran")
        rss = peak_rss_mb(data_dir)
        rss_no_reviews = peak_rss_mb(no_reviews)
        queries = measure_queries(Store(data_dir))
        say(f"{len(queries)} field+fuzzy queries")
        similar = measure_similar(data_dir)
        say(f"similar papers: {similar}")
        stats = measure_stats(data_dir)
        say(f"statistics: {stats}")
        library = measure_venue_scope(DUMP, SHARED / "data", Path(tmp), percentile)
        venue_scope = {key: value for key, value in library.items() if key.startswith("scope_")}
        say(f"venue scope: {venue_scope}")
    fetched = measure_fetch()
    say(f"fetch: {fetched}")
    venues = measure_venues()
    say(f"venues: {venues}")
    print(
        json.dumps(
            {
                "papers": papers,
                "import_s": round(import_s, 2),
                "similarity_save_s": round(similarity_save_s, 2),
                "restore_backup_s": round(restore_s, 2),
                "cold_start_ms": round(statistics.median(cold)),
                "cold_start_vs_bare": round(statistics.median(a / b for a, b in zip(cold, bare, strict=True)), 2),
                "index_ready_ms": round(statistics.median(ready)),
                "index_ready_vs_cold_start": round(statistics.median(ready) / statistics.median(cold), 2),
                **floor_keys(cold, bare, floor),
                **cli,
                "keystroke_p50_ms": round(statistics.median(keystrokes), 1),
                "keystroke_p95_ms": round(percentile(keystrokes, 0.95), 1),
                "keystroke_during_refresh_p50_ms": round(statistics.median(during_refresh), 1),
                "keystroke_during_refresh_p95_ms": round(percentile(during_refresh, 0.95), 1),
                "star_p95_ms": round(star_p95, 2),
                "note_p95_ms": round(note_p95, 2),
                "peak_rss_mb": round(rss, 1),
                "cold_start_no_reviews_ms": round(statistics.median(cold_no_reviews)),
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
                "keystrokes": len(keystrokes),
                "cold_start_runs_ms": [round(t) for t in cold],
                "cold_start_no_reviews_runs_ms": [round(t) for t in cold_no_reviews],
                "bare_textual_start_ms": round(statistics.median(bare)),
                "bare_textual_runs_ms": [round(t) for t in bare],
                "index_ready_runs_ms": [round(t) for t in ready],
                "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            }
        )
    )


if __name__ == "__main__":
    main()
