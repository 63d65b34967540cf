"""Statistics benchmark part (``bench/bench.py stats`` runs only this, after the dump's and the
reviews' import), on the whole conference:

- ``stats_screen_first_ms``: ``A`` posted to the app on the list, as the terminal driver posts a
  key (every paper in the view; the catalogue parsed, the search index built and the review
  summaries read, as the app has them once a paper was shown) → the end of the first frame of
  the statistics screen showing its figures, counted from every paper; ``stats_screen_ms``: the
  median of 4 more opens (``escape`` between), which count only the user's marks again;
  ``stats_count_ms``: the first count itself, in its thread;
- ``stats_json_ms``: ``paperdeck stats --json``, whole process (exec to exit, the app's modules
  byte-compiled), median of 5 runs with the statistics cache the import writes;
  ``stats_json_uncached_ms``: one run without that cache (it counts from the catalogue, then
  writes the cache).
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from paperdeck import runtime
from paperdeck.stats.cache import CACHE_FILE
from paperdeck.store.store import Store
from procs import settled


async def _screen_times(data_dir: Path, runs: int = 5) -> tuple[list[float], list[float]]:

    with runtime.tuned():  # as `paperdeck` runs the app (paperdeck.cli.main)
        return await _screen_times_tuned(data_dir, runs)


async def _screen_times_tuned(data_dir: Path, runs: int) -> tuple[list[float], list[float]]:
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.frames import watch_frames
    from paperdeck.ui.screens.main import MainScreen
    from paperdeck.ui.screens.stats import StatsScreen
    from textual import events

    store = Store(data_dir, lazy=True)
    app = PaperApp(store=store)
    shown, counted = [], []
    painted = asyncio.Event()  # set at the end of the first frame showing the figures: no polling
    painted_at = [0.0]
    mount = StatsScreen.on_mount

    def mounted(screen: StatsScreen) -> None:
        def frame(shows: object) -> None:
            if shows and not painted.is_set():
                painted_at[0] = time.perf_counter()
                painted.set()

        watch_frames(screen, lambda: screen.figures is not None, frame)
        mount(screen)

    StatsScreen.on_mount = mounted  # type: ignore[method-assign,assignment]
    async with app.run_test(size=(80, 24)) as pilot:
        main = app.screen
        assert isinstance(main, MainScreen)
        while main.searcher.index.built is None or not store.reviews.summaries_read:
            await asyncio.sleep(0.05)
        await settled(app)  # the screen has taken the index in (and frozen what is loaded)
        await pilot.pause(0.5)
        for _ in range(runs):
            painted.clear()
            started = time.perf_counter()
            app.post_message(events.Key("A", "A"))  # as the terminal driver posts a key
            await asyncio.wait_for(painted.wait(), timeout=30)
            shown.append((painted_at[0] - started) * 1000)
            screen = app.screen
            assert isinstance(screen, StatsScreen)
            counted.append((screen.count_s or 0) * 1000)
            await pilot.press("escape")
            await pilot.pause(0.3)
    return shown, counted


def _stats_json_ms(data_dir: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "paperdeck", "stats", "--json", "--data-dir", str(data_dir)],
        check=True, capture_output=True,
    )  # fmt: skip
    return (time.perf_counter() - started) * 1000


def measure_stats(data_dir: Path) -> dict[str, object]:
    """The ``stats_*`` numbers (see the module docstring) on the store in ``data_dir``."""
    from cold_start import compile_app
    from paperdeck.cli.stats import save_stats_cache

    compile_app()
    (data_dir / CACHE_FILE).unlink(missing_ok=True)
    uncached = _stats_json_ms(data_dir)
    save_stats_cache(Store(data_dir))  # as `paperdeck import` leaves it
    runs = [_stats_json_ms(data_dir) for _ in range(5)]
    shown, counted = asyncio.run(_screen_times(data_dir))
    return {
        "stats_screen_first_ms": round(shown[0], 1),
        "stats_screen_ms": round(statistics.median(shown[1:]), 1),
        "stats_count_ms": round(counted[0], 1),
        "stats_json_ms": round(statistics.median(runs)),
        "stats_json_uncached_ms": round(uncached),
        "stats_screen_runs_ms": [round(t) for t in shown],
        "stats_json_runs_ms": [round(t) for t in runs],
    }
