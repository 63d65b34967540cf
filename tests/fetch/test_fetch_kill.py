"""``kill -9`` during ``paperdeck fetch`` (the real command, in a subprocess, against the local API
server of :mod:`tests.fetch.api_server`), then the same command again: the store a clean run gives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import orjson
from paperdeck.fetch.run import fetch
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER, ApiServer
from tests.fetch.helpers import ICLR, PAGE, PAPERS, contents, options
from tests.waits import GUARD_S, block_until


def _cli(server: ApiServer, data_dir: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PAPERDECK_OPENREVIEW_URL": server.url, "OPENREVIEW_USERNAME": USER,
           "OPENREVIEW_PASSWORD": PASSWORD, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}  # fmt: skip
    command = [sys.executable, "-m", "paperdeck", "fetch", "iclr2026", "--data-dir", str(data_dir), *args]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_kill_9_during_a_fetch_then_the_same_command_gives_a_clean_runs_store(
    server: ApiServer, tmp_path: Path
) -> None:
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    done = _cli(server, clean, "--page-size", str(PAGE))
    assert done.wait(60) == 0, done.stderr.read() if done.stderr else ""
    clean_pages = server.count("/notes")
    held = clean_pages + 2  # the killed run's second page is held back until it is killed
    killed_now = threading.Event()
    server.on_notes = lambda served: killed_now.wait(GUARD_S) if served == held else None
    running = _cli(server, killed, "--page-size", str(PAGE))
    block_until(lambda: server.count("/notes") >= held, what="the second page asked for", step=0.005)
    os.kill(running.pid, signal.SIGKILL)
    running.wait(GUARD_S)
    killed_now.set()
    state = orjson.loads(next((killed / "fetch" / "pages").glob("*/state.json")).read_bytes())
    assert state["pages"] == 1 and not state["complete"]  # killed mid-fetch, one page kept
    assert not (killed / "catalogue.json").exists() or contents(killed)[0] == []
    again = _cli(server, killed, "--page-size", str(PAGE), "--json")
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    result = orjson.loads(out)
    assert result["papers"] == PAPERS and result["resumed_pages"] == 1
    assert contents(killed) == contents(clean)


def test_kill_9_after_the_pages_are_kept_resumes_without_fetching_them_again(
    server: ApiServer, login: None, tmp_path: Path
) -> None:
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    fetch(Store(clean), [ICLR], options(server))
    script = (
        "import os, signal, sys\n"
        "import paperdeck.sources.importer as importer\n"
        "def die(*a, **k): os.kill(os.getpid(), signal.SIGKILL)\n"
        "importer.import_files = die\n"
        "import paperdeck.fetch.run as run; run.import_files = die\n"
        "from paperdeck.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {
        **os.environ,
        "PAPERDECK_OPENREVIEW_URL": server.url,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }
    dying = subprocess.run([sys.executable, "-c", script, "fetch", "iclr2026", "--data-dir", str(killed)],
                           env=env, capture_output=True, timeout=60)  # fmt: skip
    assert dying.returncode == -signal.SIGKILL
    before = server.count("/notes")
    # no request needed: the pages are kept (pages of 1000, as the CLI asks)
    summary = fetch(Store(killed), [ICLR], options(server, page_size=1000, budget=1))
    assert server.count("/notes") == before and summary.resumed == 1
    assert contents(killed) == contents(clean)
