"""Cold start of the real app in a pseudo-terminal: ms from exec to the first list row painted.

Usage: python bench/cold_start.py DATA_DIR [RUNS]  — prints {"cold_start_ms": median, "runs": [...],
"bare_textual_start_ms": median, "bare_runs": [...], "cold_start_vs_bare": …, "index_ready_ms": …,
"index_ready_runs": [...], "index_ready_vs_cold_start": …, and :func:`floor_keys`}: the bare runs for
a bare Textual app (Textual's own floor on this machine), the index-ready runs to a query's list
painted, the floor runs for a Textual app of paperdeck's shape with no data
(:data:`FLOOR_TEXTUAL_APP`: what the yardsticks' ratios can reach at best); all interleaved.

The app's modules are byte-compiled first, as an installed package's are (pip compiles them):
this machine sets PYTHONDONTWRITEBYTECODE=1, so the editable checkout would otherwise recompile
every module at every start (~50 ms).
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
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


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


def one_run(data_dir: str, marker: bytes, timeout: float = 20.0) -> float:
    """ms from exec of ``paperdeck`` on ``data_dir`` to ``marker`` (the first row's title) on the terminal."""
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    return _run_in_pty([paperdeck], dict(PAPERDECK_DATA_DIR=data_dir), marker, timeout=timeout)[0]


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


def index_ready_run(data_dir: str, marker: bytes, query: str, result: bytes, timeout: float = 30.0) -> float:
    """ms from exec of ``paperdeck`` on ``data_dir`` to ``result`` (the first title ``query`` ranks,
    not on the first screen of the unfiltered list) on the terminal, ``/`` and ``query`` typed as
    soon as ``marker`` (the first row's title) is painted: when a query filters the whole store.

    ``result`` is looked for in the text painted with its style codes taken out: the list row shows
    the title with the query's words styled apart, which splits its bytes (matched as written, only
    the detail pane's heading, painted once the typing pauses, would count)."""
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    env = dict(PAPERDECK_DATA_DIR=data_dir)
    ready = _run_in_pty([paperdeck], env, marker, b"/" + query.encode("utf-8"), result, timeout)[1]
    assert ready is not None
    return ready


def bare_textual_run(timeout: float = 20.0) -> float:
    """ms from exec of :data:`BARE_TEXTUAL_APP` to its fourth row on the terminal."""
    return _run_in_pty([sys.executable, "-c", BARE_TEXTUAL_APP], {}, b"bare row 3", timeout=timeout)[0]


def floor_textual_run(query: str, timeout: float = 20.0) -> tuple[float, float]:
    """ms from exec of :data:`FLOOR_TEXTUAL_APP` to its fourth row on the terminal, and to that row
    changed by ``/`` and ``query`` typed as soon as it is painted (as :func:`index_ready_run` types)."""
    argv = [sys.executable, "-c", FLOOR_TEXTUAL_APP, query]
    first, ready = _run_in_pty(argv, {}, b"floor row 3", b"/" + query.encode("utf-8"), b"found row 3", timeout)
    assert ready is not None
    return first, ready


def _run_in_pty(
    argv: list[str],
    env: dict[str, str],
    marker: bytes,
    typed: bytes = b"",
    result: bytes = b"",
    timeout: float = 20.0,
) -> tuple[float, float | None]:
    """Run ``argv`` in a pseudo-terminal of 160×48: ms from exec to ``marker`` on the terminal; then,
    given ``typed``, ms from exec to ``result`` (style codes taken out), ``typed`` written as soon as
    ``marker`` was seen (else ``None``). The process is killed after.

    Raises:
        RuntimeError: ``marker`` or ``result`` never appeared within ``timeout`` seconds.
    """
    env = dict(os.environ, **env, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    seen = b""
    first: float | None = None
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
                    if not typed:
                        return first, None
                    os.write(fd, typed)
                    seen = b""
                elif first is not None and result in _STYLE_CODES.sub(b"", seen):
                    return first, (time.perf_counter() - started) * 1000
        raise RuntimeError(f"{(result if first is not None else marker)!r} never appeared")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def floor_keys(cold: list[float], bare: list[float], floor: list[tuple[float, float]]) -> dict[str, object]:
    """The keys that hold paperdeck's cold starts against :data:`FLOOR_TEXTUAL_APP`'s, all runs
    interleaved: ``floor_start_ms`` / ``floor_ready_ms`` (medians), ``floor_vs_bare`` (median of the
    pairs' ratios to the bare app: what Textual itself costs for an app of this shape),
    ``floor_ready_vs_start`` (ratio of the medians: the floor of ``index_ready_vs_cold_start``),
    ``cold_start_vs_floor`` (median of the pairs' ratios: what paperdeck adds to that floor)."""
    starts, readies = [f for f, _ in floor], [r for _, r in floor]
    return {
        "floor_start_ms": round(statistics.median(starts)),
        "floor_ready_ms": round(statistics.median(readies)),
        "floor_vs_bare": round(statistics.median(a / b for a, b in zip(starts, bare, strict=True)), 2),
        "floor_ready_vs_start": round(statistics.median(readies) / statistics.median(starts), 2),
        "cold_start_vs_floor": round(statistics.median(a / b for a, b in zip(cold, starts, strict=True)), 2),
        "floor_runs_ms": [[round(f), round(r)] for f, r in floor],
    }


def main() -> None:
    data_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    marker = first_title(data_dir).encode("utf-8")
    compile_app()
    result = query_marker(data_dir, "REAP")
    times: list[float] = []
    bare: list[float] = []
    ready: list[float] = []
    floor: list[tuple[float, float]] = []
    for _ in range(runs):  # interleaved: the machine's speed drifts
        times.append(one_run(data_dir, marker))
        bare.append(bare_textual_run())
        ready.append(index_ready_run(data_dir, marker, "REAP", result))
        floor.append(floor_textual_run("REAP"))
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
            }
        )
    )


if __name__ == "__main__":
    main()
