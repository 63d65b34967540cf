"""The process that folds a big review import's words ends with the paperdeck process that started
it, however that one ends: killed with ``kill -9``, it is not left waiting for ever on its pipe."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.waits import block_until

#: A parent that starts a worker as the review import does, prints the worker's pid, then dies.
PARENT = textwrap.dedent(
    """
    import multiprocessing, os, signal, sys
    from concurrent.futures import ProcessPoolExecutor
    from paperdeck import runtime

    if __name__ == "__main__":
        pool = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"),
            initializer=runtime.end_with_parent, initargs=(os.getpid(),),
        )
        print(pool.submit(os.getpid).result(), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


def test_a_worker_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.run([sys.executable, "-c", PARENT], capture_output=True, text=True, timeout=120)
    assert parent.returncode == -9, parent.stderr
    worker = int(parent.stdout.strip())
    assert worker != os.getpid()
    block_until(lambda: not _alive(worker), what=f"the worker {worker} to end after its parent was killed")
