"""Cold start of the real app in a pseudo-terminal: ms from exec to the first list row painted.

Usage: python bench/cold_start.py DATA_DIR [RUNS]  — prints {"cold_start_ms": median, "runs": [...]}.

The app's modules are byte-compiled first, as an installed package's are (pip compiles them):
this machine sets PYTHONDONTWRITEBYTECODE=1, so the editable checkout would otherwise recompile
every module at every start (~50 ms).
"""

from __future__ import annotations

import compileall
import json
import os
import pty
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
    from tui.core.store import Store

    store = Store(data_dir, lazy=True)
    row = store.row(store.paper_ids[0])
    assert row is not None
    return row.title[:24]


def one_run(data_dir: str, marker: bytes, timeout: float = 20.0) -> float:
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    env = dict(os.environ, PAPERDECK_DATA_DIR=data_dir, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(paperdeck, [paperdeck], env)
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
        raise RuntimeError("the first row never appeared")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    data_dir = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    marker = first_title(data_dir).encode("utf-8")
    compile_app()
    times = [one_run(data_dir, marker) for _ in range(runs)]
    print(json.dumps({"cold_start_ms": round(statistics.median(times)), "runs": [round(t) for t in times]}))


if __name__ == "__main__":
    main()
