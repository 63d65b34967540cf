"""Fetch benchmark part (``bench/bench.py fetch`` runs only this).

- ``fetch_full_s``: ``paperdeck fetch iclr2026``'s work (:func:`paperdeck.fetch.run.fetch`) against
  the local API server (:mod:`tests.fetch.api_server`) serving all 19,630 ICLR 2026 submissions with
  their replies, into an empty store, seconds end to end (login, pages, the one import);
- ``fetch_full_pages_s``: the part of it spent getting and keeping the pages (the rest is the import);
- ``fetch_full_requests``: the requests it sent (the login and the pages).

The server runs in a process of its own (as a real one would be), so that it does not share the
client's interpreter lock.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests.fetch.api_server

from paperdeck.fetch.client import Limits
from paperdeck.fetch.run import FetchOptions, FetchProgress, fetch
from paperdeck.fetch.venues import parse_source
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER

_SERVE = """
import sys, time
from tests.fetch.api_server import ApiServer, iclr2026_encoded
with ApiServer(encoded=iclr2026_encoded()) as server:
    print(server.url, flush=True)
    sys.stdin.read()  # until the bench closes it
"""


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """The local API server (every ICLR 2026 submission with its replies) running in a process of
    its own, as its base URL, with the login it accepts in the environment."""
    os.environ.update({"OPENREVIEW_USERNAME": USER, "OPENREVIEW_PASSWORD": PASSWORD})
    repo = Path(__file__).resolve().parents[1]
    server = subprocess.Popen([sys.executable, "-c", _SERVE], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)  # fmt: skip
    # It stands for a remote machine: on this one it yields the CPU to what is measured.
    os.setpriority(os.PRIO_PROCESS, server.pid, os.getpriority(os.PRIO_PROCESS, 0) + 19)
    try:
        assert server.stdout is not None
        yield server.stdout.readline().strip()
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(60)


def measure_fetch() -> dict[str, float | int]:
    """The ``fetch_full_*`` numbers (see the module docstring)."""
    with serving() as url:
        return _measure(url)


def _measure(url: str) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as tmp:
        options = FetchOptions(openreview_url=url, limits=Limits(timeout_s=120), use_keyring=False)
        pages_done: list[float] = []

        def progress(state: FetchProgress) -> None:
            if state.stage == "importing":
                pages_done.append(time.perf_counter())

        store = Store(Path(tmp) / "data")
        started = time.perf_counter()
        summary = fetch(store, [parse_source("iclr2026")], options, progress)
        total = time.perf_counter() - started
        assert len(store.papers) == 19_630, len(store.papers)
        return {
            "fetch_full_s": round(total, 2),
            "fetch_full_pages_s": round(pages_done[0] - started, 2),
            "fetch_full_requests": summary.requests,
        }


if __name__ == "__main__":
    import json

    print(json.dumps(measure_fetch()))
