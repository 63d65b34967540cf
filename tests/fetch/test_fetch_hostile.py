"""A hostile server, every mode of :data:`tests.fetch.hostile_server.MODES` a case, against the real
``paperdeck fetch`` in a child process: it ends with one clear line (no traceback) by its deadline
(its message says so, not a clock), its peak memory stays under 256 MB, and no secret (the token,
the password) is printed, forwarded to another origin or kept in the store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.fetch.api_server import PASSWORD, USER
from tests.fetch.hostile_server import MODES, Elsewhere, HostileServer
from tests.waits import GUARD_S

#: Peak resident memory a fetch may reach, whatever the server sends.
MOST_RSS_MB = 256
#: The bounds the child is run with where the deadline is what ends it (short, so that every such
#: case ends soon).
DEADLINE_S, REQUEST_DEADLINE_S, READ_TIMEOUT_S = 8.0, 3.0, 1.5
#: The bounds of a case that lands or ends by its own error (over 48 MB, too many JSON values, a
#: 404): far above what a loaded machine takes, so that no deadline ends it first (reading 48 MB
#: of an endless answer took over 3 s under load, and the fetch ran past its deadline instead).
ROOMY_S = GUARD_S * 2
_LATE = "ran past its deadline"

#: Mode → what the one error line says (``None``: the fetch lands).
EXPECTED: dict[str, str | None] = {
    "echo-4xx": "not found (404)",
    "echo-5xx": _LATE,
    "echo-429": _LATE,
    "echo-login": "refused the login",
    "echo-in-headers": "an encoding paperdeck does not read",
    "echo-in-notes": None,
    "redirect-login": "redirects to another origin",
    "redirect-notes": "redirects to another origin",
    "redirect-loop": "redirects; not followed",
    "endless": "over 48 MB",
    "huge-declared": "over 48 MB",
    "gzip-bomb": "over 48 MB inflated",
    "brotli": "an encoding paperdeck does not read",
    "swarm": "JSON values",
    "deep": "JSON values",
    "slow-body": _LATE,
    "slow-headers": _LATE,
    "silent": _LATE,
    "not-a-page": "not a page of notes",
    "unknown-kinds": None,
    "bad-types": None,
    "odd-ids": None,
    "escapes": None,
}


@dataclass
class Run:
    status: int
    out: str
    err: str
    peak_mb: float
    files: dict[Path, bytes]


#: The child: ``paperdeck`` as its console script runs it, writing its peak RSS (``VmHWM``, of its
#: own memory since its start: ``ru_maxrss`` would count the forking test process's) to a file at exit.
_CHILD = """
import atexit, sys
def peak():
    with open(sys.argv.pop(1), "w") as out:
        out.write(next(line for line in open("/proc/self/status") if line.startswith("VmHWM")))
atexit.register(peak)
from paperdeck.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def _fetch(server: HostileServer, data_dir: Path, deadline_s: float = DEADLINE_S, *, roomy: bool = False) -> Run:
    """``paperdeck fetch iclr2026 --json`` against ``server`` in a child process, and its peak RSS;
    ``roomy``: every bound (the deadline, each request's, the read timeout) :data:`ROOMY_S`."""
    request_deadline_s, read_timeout_s = (ROOMY_S, ROOMY_S) if roomy else (REQUEST_DEADLINE_S, READ_TIMEOUT_S)
    deadline_s = ROOMY_S if roomy else deadline_s
    env = {**os.environ, "PAPERDECK_OPENREVIEW_URL": server.url, "OPENREVIEW_USERNAME": USER,
           "OPENREVIEW_PASSWORD": PASSWORD, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}  # fmt: skip
    command = [
        sys.executable, "-c", _CHILD, str(data_dir.parent / "peak.txt"),
        "fetch", "iclr2026", "--json", "--data-dir", str(data_dir),
        "--deadline", str(deadline_s), "--request-deadline", str(request_deadline_s),
        "--read-timeout", str(read_timeout_s), "--budget", "30",
    ]  # fmt: skip
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    out_path, err_path = data_dir.parent / "out.txt", data_dir.parent / "err.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        child = subprocess.Popen(command, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    guard = threading.Timer(GUARD_S * 4, lambda: os.kill(child.pid, signal.SIGKILL))  # a hang fails, not waits
    guard.start()
    try:
        child.wait()
    finally:
        guard.cancel()
    files = {path: path.read_bytes() for path in data_dir.rglob("*") if path.is_file()}
    peak_kb = int((data_dir.parent / "peak.txt").read_text().split()[1])
    return Run(child.returncode, out_path.read_text("utf-8", "replace"), err_path.read_text("utf-8", "replace"),
               peak_kb / 1024, files)  # fmt: skip


def _secrets(server: HostileServer) -> list[str]:
    return [PASSWORD, *server.tokens]


def _leaked(secret: str, text: str | bytes) -> bool:
    """Whether any 10 characters of ``secret`` are in ``text``, whatever their case: a secret cut
    short or lower-cased is still out."""
    folded = (text.decode("utf-8", "replace") if isinstance(text, bytes) else text).casefold()
    width = min(10, len(secret))
    return any(secret[i : i + width].casefold() in folded for i in range(len(secret) - width + 1))


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[Elsewhere]:
    with Elsewhere() as running:
        yield running


@pytest.mark.parametrize("mode", list(MODES))
def test_a_hostile_server_is_bounded_and_never_gets_a_secret_out(
    mode: str, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    assert set(EXPECTED) == set(MODES)
    data_dir = tmp_path / "data"
    before = len(elsewhere.seen)
    expected = EXPECTED[mode]
    with HostileServer(mode, elsewhere) as server:  # only a case the deadline ends is given a short one
        run = _fetch(server, data_dir, roomy=expected != _LATE)
    said = run.out + run.err
    assert "Traceback" not in said and "Error:" not in said.replace("paperdeck:", ""), said
    if expected is None:
        assert run.status == 0, said
        orjson.loads(run.out)
    else:
        lines = [line for line in run.err.splitlines() if line.strip()]
        assert run.status == 2 and run.out == "", said
        assert all(line.startswith("paperdeck: ") for line in lines), said  # the notices, then the one error line
        assert expected in lines[-1], said
    assert "\x1b" not in said and "\u202e" not in said
    for secret in _secrets(server):
        assert not _leaked(secret, said), (mode, said)
        for path, data in run.files.items():
            if path.name != "openreview-token.json":  # where the token is kept on purpose (mode 0600)
                assert not _leaked(secret, data), (mode, path)
    for _method, path, headers, body in elsewhere.seen[before:]:
        assert not any(_leaked(secret, headers) or _leaked(secret, body) for secret in _secrets(server)), path
    assert run.peak_mb < MOST_RSS_MB, (mode, run.peak_mb)


def test_unknown_kinds_bad_records_and_odd_ids_are_counted_not_refusing_the_venue(
    elsewhere: Elsewhere, tmp_path: Path
) -> None:
    skipped: dict[str, dict[str, int]] = {}
    papers: dict[str, int] = {}
    results: dict[str, dict[str, Any]] = {}
    for mode in ("unknown-kinds", "bad-types", "odd-ids"):
        with HostileServer(mode, elsewhere) as server:
            run = _fetch(server, tmp_path / mode / "data", roomy=True)
        assert run.status == 0, run.err
        result = orjson.loads(run.out)
        skipped[mode], papers[mode] = result["skipped"], result["papers"]
        results[mode] = result
    # an empty id is made safe (the venue's submission number); " spaced " is no submission (its
    # forum is not its id once stripped): a reply note, not counted in a file that has replies
    assert papers == {"unknown-kinds": 3, "bad-types": 3, "odd-ids": 3}
    # the ethics review is kept, as its own kind; the review rated "1e309" too, its rating dropped
    # and counted (a score for no finite number drops the value, not the record)
    assert skipped["unknown-kinds"] == {"malformed reply": 1}
    assert "1 value dropped (1 non-finite rating)" in results["unknown-kinds"]["summary"]
    assert results["unknown-kinds"]["reviews"]["new"] == 4
    assert skipped["bad-types"] == {"malformed record": 3}
    assert skipped["odd-ids"] == {"odd id": 6, "malformed reply": 7}


@pytest.mark.perf
@pytest.mark.parametrize("mode", ["slow-body", "slow-headers", "silent", "echo-5xx"])
def test_a_slow_server_never_keeps_a_fetch_past_its_deadline_by_the_clock(
    mode: str, elsewhere: Elsewhere, tmp_path: Path
) -> None:
    with HostileServer(mode, elsewhere) as server:
        started = time.monotonic()
        run = _fetch(server, tmp_path / "data", deadline_s=4.0)
        took = time.monotonic() - started
    assert _LATE in run.err
    assert took < 4.0 + READ_TIMEOUT_S + 1.0 + 5.0, took  # the deadline, one read, the alarm's grace, a start


@pytest.mark.parametrize("mode", ["echo-4xx", "echo-login", "redirect-login", "echo-in-notes"])
def test_the_apps_refresh_never_shows_a_secret_a_server_echoes(
    mode: str, elsewhere: Elsewhere, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.ui.refresh import run_fetch_process

    monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    shown: list[str] = []
    with HostileServer(mode, elsewhere) as server:
        monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
        summary, error = run_fetch_process(tmp_path / "data", ["iclr2026"], shown.append)
    expected = EXPECTED[mode]
    assert (error == "") == (expected is None) and (expected is None or expected in error), (summary, error)
    assert server.tokens or mode != "echo-4xx"
    for secret in _secrets(server):
        assert not any(_leaked(secret, text) for text in [summary, error, *shown]), (mode, secret)
