"""Cold start of the real app in a pseudo-terminal: ms from exec to the first list row painted.

Usage: python bench/cold_start.py DATA_DIR [RUNS]  — prints {"cold_start_ms": median, "runs": [...],
"bare_textual_start_ms": median, "bare_runs": [...], "cold_start_vs_bare": …, "index_ready_ms": …,
"index_ready_runs": [...], "index_ready_vs_cold_start": …, :func:`floor_keys`, :func:`cpu_keys`}: the
bare runs for a bare Textual app (Textual's own floor on this machine), the index-ready runs to a query's list
painted, the floor runs for a Textual app of paperdeck's shape with no data
(:data:`FLOOR_TEXTUAL_APP`: what the yardsticks' ratios can reach at best); all interleaved.

The app's modules are byte-compiled first, as an installed package's are (pip compiles them):
this machine sets PYTHONDONTWRITEBYTECODE=1, so the editable checkout would otherwise recompile
every module at every start (~50 ms).

Each run also reads the process's CPU time (``/proc/PID/stat`` utime + stime, every thread, to the
clock tick) the moment its marker, and then its result, reaches the terminal (:class:`PtyRun`):
CPU time holds still where wall time moves with the machine's load.
"""

from __future__ import annotations

import compileall
import json
import os
import pty
import re
import select
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tui"))

from procs import paperdeck_argv, paperdeck_env, proc_cpu_ms  # noqa: E402


def compile_app() -> None:
    """Byte-compile the app's modules (into their ``__pycache__``, ignored by git)."""
    compileall.compile_dir(REPO / "tui", quiet=1)


def first_title(data_dir: str) -> str:
    from paperdeck.store.store import Store

    store = Store(data_dir, lazy=True)
    row = store.row(store.paper_ids[0])
    assert row is not None
    return row.title[:24]


#: Textual's own floor: a bare app, one ``Static`` of 40 lines and nothing else, to its first frame.
BARE_TEXTUAL_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("\\n".join(f"bare row {n}" for n in range(40)))

Bare().run()
"""

#: Textual's floor for an app of paperdeck's shape, with no data and none of our code: the widgets
#: of paperdeck's first frame (a focused ``Input`` over a Line-API list of visible rows beside a
#: ``Static``), its rows changed once the text typed ends with the query given as its argument
#: (``found row N``), as paperdeck's list is re-ranked: what a query typed at the first frame
#: costs Textual itself, from the key to the frame that shows it.
FLOOR_TEXTUAL_APP = """
import sys
from rich.segment import Segment
from textual.app import App
from textual.containers import Horizontal
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

class Rows(ScrollView):
    found = False
    def on_mount(self):
        self.virtual_size = Size(80, 20000)
    def render_line(self, y):
        word = "found" if self.found else "floor"
        return Strip([Segment(f"{word} row {self.scroll_offset.y + y} a paper's title")])

class Floor(App):
    CSS = "Horizontal { height: 1fr; } Rows { width: 1fr; } Static { width: 1fr; }"
    def compose(self):
        yield Input(placeholder="filter")
        with Horizontal():
            yield Rows()
            yield Static("\\n".join(f"detail line {n}" for n in range(12)))
    def on_input_changed(self, event):
        rows = self.query_one(Rows)
        rows.found = event.value.endswith(sys.argv[1])
        rows.refresh()

Floor().run()
"""


@dataclass(frozen=True)
class PtyRun:
    """One run in a pseudo-terminal: ms from exec to the marker painted (``first_ms``) and the
    process's CPU ms by then (``first_cpu_ms``); given typing, the same to its result painted
    (``ready_ms``, ``ready_cpu_ms``), else ``None``."""

    first_ms: float
    first_cpu_ms: float
    ready_ms: float | None = None
    ready_cpu_ms: float | None = None


def one_run(data_dir: str, marker: bytes, timeout: float = 20.0) -> PtyRun:
    """From exec of ``paperdeck`` on ``data_dir`` to ``marker`` (the first row's title) on the terminal."""
    return _run_in_pty(paperdeck_argv(), paperdeck_env(data_dir), marker, timeout=timeout)


def query_marker(data_dir: str, query: str) -> bytes:
    """The start of the title ``query`` ranks first, checked to be far from the list's first screen."""
    from paperdeck.search.searcher import Searcher
    from paperdeck.store.store import Store

    store = Store(data_dir, lazy=True)
    first = Searcher(store).index.get().search_ids(query)[0]
    assert store.paper_ids.index(first) > 100, "the query's first paper is on the list's first screen"
    row = store.row(first)
    assert row is not None
    return row.title[:24].encode("utf-8")


#: A terminal's colour and style codes (SGR): the list draws the query's words in a title in their own style.
_STYLE_CODES = re.compile(rb"\x1b\[[0-9;:]*m")


def index_ready_run(data_dir: str, marker: bytes, query: str, result: bytes, timeout: float = 30.0) -> PtyRun:
    """From exec of ``paperdeck`` on ``data_dir`` to ``result`` (the first title ``query`` ranks,
    not on the first screen of the unfiltered list) on the terminal, ``/`` and ``query`` typed as
    soon as ``marker`` (the first row's title) is painted: when a query filters the whole store.

    ``result`` is looked for in the text painted with its style codes taken out: the list row shows
    the title with the query's words styled apart, which splits its bytes (matched as written, only
    the detail pane's heading, painted once the typing pauses, would count)."""
    run = _run_in_pty(paperdeck_argv(), paperdeck_env(data_dir), marker, b"/" + query.encode("utf-8"), result, timeout)
    assert run.ready_ms is not None
    return run


def bare_textual_run(timeout: float = 20.0) -> PtyRun:
    """From exec of :data:`BARE_TEXTUAL_APP` to its fourth row on the terminal."""
    return _run_in_pty([sys.executable, "-c", BARE_TEXTUAL_APP], dict(os.environ), b"bare row 3", timeout=timeout)


def floor_textual_run(query: str, timeout: float = 20.0) -> PtyRun:
    """From exec of :data:`FLOOR_TEXTUAL_APP` to its fourth row on the terminal, and to that row
    changed by ``/`` and ``query`` typed as soon as it is painted (as :func:`index_ready_run` types)."""
    argv = [sys.executable, "-c", FLOOR_TEXTUAL_APP, query]
    typed = b"/" + query.encode("utf-8")
    run = _run_in_pty(argv, dict(os.environ), b"floor row 3", typed, b"found row 3", timeout)
    assert run.ready_ms is not None
    return run


def _run_in_pty(
    argv: list[str],
    env: dict[str, str],
    marker: bytes,
    typed: bytes = b"",
    result: bytes = b"",
    timeout: float = 20.0,
) -> PtyRun:
    """Run ``argv`` in a pseudo-terminal of 160×48 with ``env``: ms from exec to ``marker`` on the
    terminal and the process's CPU ms then; then, given ``typed``, the same to ``result`` (style
    codes taken out), ``typed`` written as soon as ``marker`` was seen. The process is killed after.

    Raises:
        RuntimeError: ``marker`` or ``result`` never appeared within ``timeout`` seconds.
    """
    env = dict(env, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    seen = b""
    first: float | None = None
    first_cpu = 0.0
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if first is None and marker in seen:
                    first = (time.perf_counter() - started) * 1000
                    first_cpu = proc_cpu_ms(pid)
                    if not typed:
                        return PtyRun(first, first_cpu)
                    os.write(fd, typed)
                    seen = b""
                elif first is not None and result in _STYLE_CODES.sub(b"", seen):
                    painted = (time.perf_counter() - started) * 1000
                    return PtyRun(first, first_cpu, painted, proc_cpu_ms(pid))
        raise RuntimeError(f"{(result if first is not None else marker)!r} never appeared")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def _pair_ratio(a: list[float], b: list[float]) -> float:
    """The median of the pairs' ratios ``a[i] / b[i]`` (runs interleaved: a pair shares the machine's speed)."""
    return round(statistics.median(x / y for x, y in zip(a, b, strict=True)), 2)


def cpu_keys(cold: list[PtyRun], ready: list[PtyRun], floor: list[PtyRun]) -> dict[str, object]:
    """The CPU-time keys of paperdeck's start against :data:`FLOOR_TEXTUAL_APP`'s, all runs
    interleaved (``cold`` from :func:`one_run`, ``ready`` from :func:`index_ready_run`, ``floor``
    from :func:`floor_textual_run`): ``cold_start_cpu_ms``, ``floor_start_cpu_ms``, ``ready_cpu_ms``,
    ``floor_ready_cpu_ms`` (medians, CPU ms of the process when its marker / result was painted),
    ``cold_start_cpu_vs_floor`` and ``ready_cpu_vs_floor_ready`` (medians of the pairs' ratios)."""
    cold_cpu = [run.first_cpu_ms for run in cold]
    ready_cpu = [run.ready_cpu_ms or 0.0 for run in ready]
    floor_cpu = [run.first_cpu_ms for run in floor]
    floor_ready_cpu = [run.ready_cpu_ms or 0.0 for run in floor]
    return {
        "cold_start_cpu_ms": round(statistics.median(cold_cpu)),
        "floor_start_cpu_ms": round(statistics.median(floor_cpu)),
        "cold_start_cpu_vs_floor": _pair_ratio(cold_cpu, floor_cpu),
        "ready_cpu_ms": round(statistics.median(ready_cpu)),
        "floor_ready_cpu_ms": round(statistics.median(floor_ready_cpu)),
        "ready_cpu_vs_floor_ready": _pair_ratio(ready_cpu, floor_ready_cpu),
        "cold_start_cpu_runs_ms": [round(c) for c in cold_cpu],
        "floor_start_cpu_runs_ms": [round(c) for c in floor_cpu],
        "ready_cpu_runs_ms": [round(c) for c in ready_cpu],
        "floor_ready_cpu_runs_ms": [round(c) for c in floor_ready_cpu],
    }


def floor_keys(cold: list[float], bare: list[float], floor: list[PtyRun]) -> dict[str, object]:
    """The keys that hold paperdeck's cold starts against :data:`FLOOR_TEXTUAL_APP`'s, all runs
    interleaved: ``floor_start_ms`` / ``floor_ready_ms`` (medians), ``floor_vs_bare`` (median of the
    pairs' ratios to the bare app: what Textual itself costs for an app of this shape),
    ``floor_ready_vs_start`` (ratio of the medians: the floor of ``index_ready_vs_cold_start``),
    ``cold_start_vs_floor`` (median of the pairs' ratios: what paperdeck adds to that floor)."""
    starts, readies = [run.first_ms for run in floor], [run.ready_ms or 0.0 for run in floor]
    return {
        "floor_start_ms": round(statistics.median(starts)),
        "floor_ready_ms": round(statistics.median(readies)),
        "floor_vs_bare": round(statistics.median(a / b for a, b in zip(starts, bare, strict=True)), 2),
        "floor_ready_vs_start": round(statistics.median(readies) / statistics.median(starts), 2),
        "cold_start_vs_floor": round(statistics.median(a / b for a, b in zip(cold, starts, strict=True)), 2),
        "floor_runs_ms": [[round(f), round(r)] for f, r in zip(starts, readies, strict=True)],
    }


def main() -> None:
    data_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    marker = first_title(data_dir).encode("utf-8")
    compile_app()
    result = query_marker(data_dir, "REAP")
    cold: list[PtyRun] = []
    bare: list[float] = []
    ready_runs: list[PtyRun] = []
    floor: list[PtyRun] = []
    for _ in range(runs):  # interleaved: the machine's speed drifts
        cold.append(one_run(data_dir, marker))
        bare.append(bare_textual_run().first_ms)
        ready_runs.append(index_ready_run(data_dir, marker, "REAP", result))
        floor.append(floor_textual_run("REAP"))
    times = [run.first_ms for run in cold]
    ready = [run.ready_ms or 0.0 for run in ready_runs]
    print(
        json.dumps(
            {
                "cold_start_ms": round(statistics.median(times)),
                "runs": [round(t) for t in times],
                "bare_textual_start_ms": round(statistics.median(bare)),
                "bare_runs": [round(t) for t in bare],
                "cold_start_vs_bare": round(statistics.median(a / b for a, b in zip(times, bare, strict=True)), 2),
                "index_ready_ms": round(statistics.median(ready)),
                "index_ready_runs": [round(t) for t in ready],
                "index_ready_vs_cold_start": round(statistics.median(ready) / statistics.median(times), 2),
                **floor_keys(times, bare, floor),
                **cpu_keys(cold, ready_runs, floor),
            }
        )
    )


if __name__ == "__main__":
    main()
