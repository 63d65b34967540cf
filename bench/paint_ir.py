"""Instructions to a painted frame: the start-up keys counted by callgrind, which hold still under load.

The CPU-time keys of bench/cold_start.py move by ±0.1 of a ratio between rounds on a loaded machine;
instruction counts do not. Each run here is one process under ``valgrind --tool=callgrind`` in a
pseudo-terminal, ended by itself (``os._exit``) the moment the text it waits for is written to the
terminal, so that what it does after that frame (the index warmed, the detail pane filled) is not
counted:

- :func:`paint_ir_keys`: ``cold_start_ir`` (exec of ``paperdeck`` to its first row's title written),
  ``floor_start_ir`` (the floor app, bench/cold_start.py ``FLOOR_TEXTUAL_APP``, to its fourth row),
  ``cold_start_ir_vs_floor``; ``ready_ir`` (``/`` and the query typed as soon as the first row is
  written, to the title the query ranks first written), ``floor_ready_ir``, ``ready_ir_vs_floor_ready``.
  One run each (``PYTHONHASHSEED=0``); ``{}`` where valgrind is not installed.

Instructions are user space only: the kernel's time, which both apps spend alike, is not counted, so
these ratios run a little higher than the CPU time's.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cold_start import FLOOR_TEXTUAL_APP
from procs import ENTRY, paperdeck_env

#: Runs ``argv[3:]`` as ``python -c argv[3] argv[4:]`` would, with Textual's output file
#: (``sys.__stderr__``) wrapped: the process ends (``os._exit(0)``) once the text written holds
#: ``argv[1]`` (style codes kept) or, when ``argv[2]`` is not empty, holds ``argv[1]`` and then
#: ``argv[2]`` (style codes taken out).
EXIT_AT_TEXT = r"""
import os, re, sys
marker, result, code = sys.argv[1], sys.argv[2], sys.argv[3]
sys.argv = ["-c", *sys.argv[4:]]
styles = re.compile("\x1b\\[[0-9;:]*m")

class ExitAtText:
    def __init__(self, file):
        self._file = file
        self._seen = ""
        self._marked = False

    def write(self, text):
        done = self._file.write(text)
        self._seen += text
        if not self._marked and marker in self._seen:
            self._marked, self._seen = True, ""
            if not result:
                self._end()
        elif self._marked and result and result in styles.sub("", self._seen):
            self._end()
        return done

    def _end(self):
        self._file.flush()
        os._exit(0)

    def __getattr__(self, name):
        return getattr(self._file, name)

sys.__stderr__ = ExitAtText(sys.__stderr__)
exec(compile(code, "<bench>", "exec"), {"__name__": "__main__"})
"""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def exit_at_text_argv(code: str, args: list[str], marker: str, result: str = "") -> list[str]:
    """``python -c code args`` run by :data:`EXIT_AT_TEXT`: ended at ``marker`` written or, given
    ``result``, at ``result`` written after ``marker``."""
    return [sys.executable, "-c", EXIT_AT_TEXT, marker, result, code, *args]


def run_to_exit(argv: list[str], env: dict[str, str], marker: str, typed: str = "", timeout: float = 600.0) -> int:
    """Run ``argv`` in a 160×48 pseudo-terminal to its end, typing ``typed`` as soon as ``marker``
    is written to the terminal; its exit status (``os.waitstatus_to_exitcode``).

    Raises:
        RuntimeError: it did not end within ``timeout`` seconds (it is killed).
    """
    env = dict(env, TERM="xterm-256color", COLUMNS="160", LINES="48")
    started = time.monotonic()
    # A pty pair and a spawned child in a session of its own (not pty.fork(): a fork of a process
    # that runs threads, as a test run's does, may deadlock the child, and Python 3.12+ warns).
    fd, terminal = os.openpty()
    try:
        child = subprocess.Popen(
            argv, env=env, stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True
        )
    except BaseException:
        os.close(fd)
        raise
    finally:
        os.close(terminal)
    seen, marked = b"", False
    try:
        while time.monotonic() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                with contextlib.suppress(OSError):  # OSError: the child ended, its side of the terminal closed
                    seen += os.read(fd, 65536)
                if typed and not marked and marker.encode("utf-8") in seen:
                    marked = True
                    os.write(fd, typed.encode("utf-8"))
            status = child.poll()
            if status is not None:
                return status
        raise RuntimeError(f"{argv[-1][:40]!r} did not end in {timeout:.0f} s")
    finally:
        if child.returncode is None:
            child.kill()
            child.wait()
        os.close(fd)


def painted_instructions(
    code: str,
    args: list[str],
    env: dict[str, str],
    marker: str,
    typed: str = "",
    result: str = "",
    timeout: float = 600.0,
) -> int:
    """Instructions ``python -c code args`` executes under callgrind in a 160×48 pseudo-terminal
    until ``marker`` is written to it or, given ``typed``, until ``result`` is written after
    ``typed`` was typed (as soon as ``marker`` appeared).

    Raises:
        RuntimeError: the text never appeared within ``timeout`` seconds, or callgrind printed no count.
    """
    valgrind = shutil.which("valgrind")
    assert valgrind is not None
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "callgrind.log"
        argv = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", f"--log-file={log}",
                *exit_at_text_argv(code, args, marker, result if typed else "")]  # fmt: skip
        run_to_exit(argv, dict(env, PYTHONHASHSEED="0"), marker, typed, timeout)
        found = _COLLECTED.search(log.read_text(errors="replace"))
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {log.read_text(errors='replace')[-300:]}")
        return int(found.group(1))


def paint_ir_keys(data_dir: str, marker: str, query: str, result: str) -> dict[str, object]:
    """The instruction-count keys (module docstring) of ``paperdeck`` on ``data_dir`` whose first
    row's title starts with ``marker`` and whose ``query`` ranks first a title starting with
    ``result`` (bench/cold_start.py ``first_title``, ``query_marker``); ``{}`` without valgrind."""
    if shutil.which("valgrind") is None:
        return {}
    app_env, floor_env = paperdeck_env(data_dir), dict(os.environ)
    typed = "/" + query
    cold = painted_instructions(ENTRY, [], app_env, marker)
    floor = painted_instructions(FLOOR_TEXTUAL_APP, [query], floor_env, "floor row 3")
    ready = painted_instructions(ENTRY, [], app_env, marker, typed, result)
    floor_ready = painted_instructions(FLOOR_TEXTUAL_APP, [query], floor_env, "floor row 3", typed, "found row 3")
    return {
        "cold_start_ir": cold,
        "floor_start_ir": floor,
        "cold_start_ir_vs_floor": round(cold / floor, 3),
        "ready_ir": ready,
        "floor_ready_ir": floor_ready,
        "ready_ir_vs_floor_ready": round(ready / floor_ready, 3),
    }


if __name__ == "__main__":  # python bench/paint_ir.py DATA_DIR: these keys alone
    import json

    from cold_start import compile_app, first_title, query_marker

    compile_app()
    store = sys.argv[1]
    print(json.dumps(paint_ir_keys(store, first_title(store), "REAP", query_marker(store, "REAP").decode("utf-8"))))
