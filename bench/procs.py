"""Whole processes measured from outside: CPU time, peak memory and instruction counts.

- :func:`paperdeck_argv` / :func:`paperdeck_env`: ``paperdeck`` as the installed script runs it
  (``from paperdeck.cli.main import main``), but on this checkout's ``tui/`` (``PYTHONPATH``), so
  that a worktree measures its own code even when the virtual environment's editable install
  points at another checkout;
- :func:`run_child`: one child process to its end, its CPU time (``ru_utime + ru_stime`` of
  ``os.wait4``: every thread, and every process it started and waited for, such as the review
  import's word-index process), its peak resident memory (``ru_maxrss``: the largest of those
  processes' peaks, not their sum) and the peak of its processes' memory summed
  (:attr:`ChildRun.tree_peak_rss_mb`, sampled). The child is started by a small Python process
  (:data:`WAITER`) that waits for it: Linux counts in a child's ``ru_maxrss`` the memory of the
  process it was forked from, so a child of the bench itself (hundreds of MB once it has read a
  store) would report at least the bench's size (the waiter's own ~11 MB is the floor of what it
  reports);
- :func:`store_built_alone`: the directory a store is built in from nothing, refused when it holds
  anything or another build holds it (a dump "imported into an empty store" into a full one is
  another measurement: 815 MB and a third of the CPU at 5 ×);
- :func:`proc_cpu_ms` / :func:`proc_status_mb`: a running process's CPU time so far
  (``/proc/PID/stat`` utime + stime, in clock ticks: 10 ms steps here) and its memory
  (``/proc/PID/status`` ``VmRSS``, ``VmHWM``);
- :func:`instructions`: instructions a process executes (``valgrind --tool=callgrind``,
  "Collected : N"), ``None`` where valgrind is not installed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TUI = REPO / "tui"

#: What the ``paperdeck`` script generated for ``[project.scripts]`` runs.
ENTRY = "import sys; from paperdeck.cli.main import main; sys.exit(main())"


def paperdeck_argv(*args: str) -> list[str]:
    """The command line of ``paperdeck ARGS`` on this checkout's code (with :func:`paperdeck_env`)."""
    return [sys.executable, "-c", ENTRY, *args]


def paperdeck_env(data_dir: Path | str | None = None, **extra: str) -> dict[str, str]:
    """This process's environment with ``tui/`` first on ``PYTHONPATH`` and, given ``data_dir``,
    ``PAPERDECK_DATA_DIR`` set to it."""
    path = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=f"{TUI}{os.pathsep}{path}" if path else str(TUI), **extra)
    if data_dir is not None:
        env["PAPERDECK_DATA_DIR"] = str(data_dir)
    return env


#: How often :data:`WAITER` sums the resident memory of the child's processes (seconds).
TREE_SAMPLE_S = 0.05

#: Runs ``argv[2:]`` and writes its ``os.wait4`` status, CPU seconds, ``ru_maxrss`` (KB) and the
#: largest sum of its processes' resident memory seen (KB; the child and every process under it,
#: ``VmRSS`` summed every :data:`TREE_SAMPLE_S`) to the file ``argv[1]``; that sum is also written to
#: ``argv[1] + ".tree"`` each time it grows.
WAITER = f"""
import os, subprocess, sys, threading
child = subprocess.Popen(sys.argv[2:])
page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
tree_peak = 0
done = threading.Event()
def tree_kb():
    total, todo = 0, [child.pid]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{{pid}}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * page_kb
            tasks = os.listdir(f"/proc/{{pid}}/task")
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
        for task in tasks:
            try:
                with open(f"/proc/{{pid}}/task/{{task}}/children", "rb") as children:
                    todo += map(int, children.read().split())
            except OSError:
                pass  # the thread ended meanwhile
    return total
def sample():
    global tree_peak
    while not done.wait({TREE_SAMPLE_S}):
        kb = tree_kb()
        if kb > tree_peak:
            tree_peak = kb
            with open(sys.argv[1] + ".tree", "w") as out:
                out.write(str(kb))
sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
_, status, usage = os.wait4(child.pid, 0)
done.set()
sampler.join()
child.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as out:
    out.write(f"{{child.returncode}} {{usage.ru_utime + usage.ru_stime}} {{usage.ru_maxrss}} {{tree_peak}}")
"""


@dataclass(frozen=True)
class ChildRun:
    """One whole process: ``wall_s`` seconds from start to exit, ``cpu_s`` its user + system CPU
    seconds (all its threads, and the processes it started and waited for), ``peak_rss_mb`` the
    peak resident memory of the largest of those processes (MB of 2**20 bytes), ``returncode``,
    what it wrote to standard output (``stdout``; empty when thrown away), and
    ``tree_peak_rss_mb``: the largest sum of the resident memory of the process and every process
    under it at one moment, sampled every :data:`TREE_SAMPLE_S` (a peak between two samples is
    missed: at least ``peak_rss_mb`` is reported when it is larger)."""

    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    returncode: int
    stdout: str
    tree_peak_rss_mb: float = 0.0


def run_child(
    argv: list[str],
    env: dict[str, str] | None = None,
    stdin: Path | None = None,
    keep_output: bool = False,
    stderr: Path | None = None,
) -> ChildRun:
    """Run ``argv`` to its end (standard input from ``stdin`` or ``/dev/null``; standard output kept
    when ``keep_output``, else thrown away; standard error written to ``stderr`` or thrown away).

    Raises:
        OSError: ``argv[0]`` cannot be run.
    """
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "usage"
        with (
            open(stdin if stdin is not None else os.devnull, "rb") as given,
            open(stderr if stderr is not None else os.devnull, "wb") as err,
        ):
            started = time.perf_counter()
            out = subprocess.PIPE if keep_output else subprocess.DEVNULL
            command = [sys.executable, "-c", WAITER, str(report), *argv]
            done = subprocess.run(command, stdin=given, stdout=out, stderr=err, env=env, check=False)
            wall = time.perf_counter() - started
        if not report.exists():
            raise OSError(f"{argv[0]} could not be run (exit {done.returncode})")
        code, cpu, maxrss, tree = report.read_text().split()
    text = done.stdout.decode("utf-8", "replace") if keep_output else ""
    peak = int(maxrss) / 1024
    return ChildRun(wall, float(cpu), peak, int(code), text, max(int(tree) / 1024, peak))


@contextlib.contextmanager
def store_built_alone(work: Path) -> Iterator[Path]:
    """``work/data``, for a store to be built in from nothing: while the body runs, this process
    holds an exclusive lock on ``work/.bench-build.lock`` (a second build into ``work`` stops at
    once instead of writing the same files and store), and ``work/data`` held nothing when the
    lock was taken (made if missing).

    Raises:
        SystemExit: another process is building in ``work``, or ``work/data`` holds a file.
    """
    work.mkdir(parents=True, exist_ok=True)
    data_dir = work / "data"
    with open(work / ".bench-build.lock", "a") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(f"bench: another process is building a store in {work}; wait, or use another") from None
        data_dir.mkdir(mode=0o700, exist_ok=True)  # as paperdeck makes its data directory
        if next(data_dir.iterdir(), None) is not None:
            raise SystemExit(f"bench: {data_dir} is not empty: a store is built from nothing; remove it first")
        yield data_dir


def time_child(argv: list[str], env: dict[str, str] | None = None, stdin: Path | None = None) -> tuple[float, float]:
    """Wall ms and CPU ms (user + system, every thread) of ``argv`` run to its end, its output thrown
    away; started directly (its CPU time is its own; use :func:`run_child` for its memory).

    Raises:
        OSError: ``argv[0]`` cannot be run.
    """
    with open(stdin if stdin is not None else os.devnull, "rb") as given:
        started = time.perf_counter()
        child = subprocess.Popen(argv, stdin=given, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)  # Popen must not wait for it again
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000


_TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def proc_cpu_ms(pid: int) -> float:
    """CPU milliseconds (user + system, every thread, those ended included) the running process
    ``pid`` has used, to the clock tick.

    Raises:
        OSError: no such process.
    """
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # the command name may hold spaces
    return (int(fields[11]) + int(fields[12])) * _TICK_MS  # utime, stime: fields 14 and 15 of proc(5)


def proc_status_mb(pid: int, field: str) -> float:
    """``field`` (``VmRSS``, ``VmHWM``) of the running process ``pid``, MB.

    Raises:
        OSError: no such process.
        StopIteration: no such field.
    """
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith(field + ":"))
    return int(line.split()[1]) / 1024


_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def instructions(argv: list[str], env: dict[str, str] | None = None) -> int | None:
    """Instructions ``argv`` executes to its end under ``valgrind --tool=callgrind`` (its standard
    output thrown away); ``None`` when valgrind is not installed.

    Raises:
        RuntimeError: valgrind ran but printed no count.
    """
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    command = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv]
    done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)  # fmt: skip
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count for {argv[3:]}: {done.stderr[-300:]}")
    return int(found.group(1))


async def settled(app: Any) -> None:
    """Wait until none of ``app``'s workers runs: each one done, failed or cancelled (Textual's
    ``wait_for_complete`` raises ``WorkerCancelled`` for a worker a newer one replaced, as an
    exclusive worker's group does)."""
    from textual.worker import WorkerCancelled

    while True:
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        return
