"""Cold start of the real app in a pseudo-terminal: ms from exec to the first list row painted.

Usage: python bench/cold_start.py DATA_DIR [RUNS]  — prints {"cold_start_ms": median, "runs": [...],
"bare_textual_start_ms": median, "bare_runs": [...], "cold_start_vs_bare": …, "index_ready_ms": …,
"index_ready_runs": [...]}: the bare runs for a bare Textual app (Textual's own floor on this
machine), the index-ready runs to a query's list painted; all interleaved with paperdeck's.

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


def one_run(data_dir: str, marker: bytes, timeout: float = 20.0) -> float:
    """ms from exec of ``paperdeck`` on ``data_dir`` to ``marker`` (the first row's title) on the terminal."""
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    return _first_paint_ms([paperdeck], dict(PAPERDECK_DATA_DIR=data_dir), marker, timeout)


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
    env = dict(os.environ, PAPERDECK_DATA_DIR=data_dir, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(paperdeck, [paperdeck], env)
    seen = b""
    typed = False
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if not typed and marker in seen:
                    os.write(fd, b"/" + query.encode("utf-8"))
                    typed, seen = True, b""
                elif typed and result in _STYLE_CODES.sub(b"", seen):
                    return (time.perf_counter() - started) * 1000
        raise RuntimeError(f"{result!r} never appeared")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def bare_textual_run(timeout: float = 20.0) -> float:
    """ms from exec of :data:`BARE_TEXTUAL_APP` to its fourth row on the terminal."""
    return _first_paint_ms([sys.executable, "-c", BARE_TEXTUAL_APP], {}, b"bare row 3", timeout)


def _first_paint_ms(argv: list[str], env: dict[str, str], marker: bytes, timeout: float) -> float:
    env = dict(os.environ, **env, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
                if marker in seen:
                    return (time.perf_counter() - started) * 1000
        raise RuntimeError(f"{marker!r} never appeared")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    data_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    marker = first_title(data_dir).encode("utf-8")
    compile_app()
    result = query_marker(data_dir, "REAP")
    times, bare, ready = [], [], []
    for _ in range(runs):  # interleaved: the machine's speed drifts
        times.append(one_run(data_dir, marker))
        bare.append(bare_textual_run())
        ready.append(index_ready_run(data_dir, marker, "REAP", result))
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
            }
        )
    )


if __name__ == "__main__":
    main()
