"""``paperdeck fetch`` against a real HTTP server on 127.0.0.1 (:mod:`tests.fetch.api_server`).

The server answers like OpenReview API v2, with pages built from the shared ReviewTracker dump and
the shared review parts, re-wrapped into the v2 ``{"value": …}`` shape (how: the server module's
docstring), and serves each fault of issue 16. Every test checks one of: the fetch lands with every
submission and its reviews, or fails with one clear line and the store's files byte for byte as
they were. Retries are made fast (``Limits(backoff_s=…)``, a short sleep).
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.fetch.client import FetchError, Limits
from paperdeck.fetch.run import FetchOptions, FetchProgress, fetch, last_sources
from paperdeck.fetch.venues import UnknownSource, parse_source
from paperdeck.model.paper_json import paper_record
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER, VENUE, ApiServer, iclr2026_notes, lfs_pointer, store_files

PAPERS = 120
PAGE = 50
ICLR = parse_source("iclr2026")


@pytest.fixture(scope="module")
def notes() -> list[dict[str, Any]]:
    return iclr2026_notes(PAPERS)


@pytest.fixture
def server(notes: list[dict[str, Any]]) -> Any:
    with ApiServer(orjson.loads(orjson.dumps(notes))) as running:
        yield running


@pytest.fixture(autouse=True)
def _no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the system keyring or reads the user's login."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)


@pytest.fixture
def login(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)


def options(server: ApiServer, page_size: int = PAGE, **limits: Any) -> FetchOptions:
    fast = {"backoff_s": 0.001, "backoff_max_s": 0.01, "timeout_s": 0.3, **limits}
    return FetchOptions(
        openreview_url=server.url, papercopilot_url=server.url + "/pc", limits=Limits(**fast),
        page_size=page_size, use_keyring=False, sleep=lambda s: time.sleep(min(s, 0.2)),
    )  # fmt: skip


def seeded_store(data_dir: Path) -> Store:
    """A store with a starred paper and a note: what a failed fetch must leave as it was."""
    store = Store(data_dir)
    seeds = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))
    from paperdeck.sources.importer import import_files

    import_files(store, seeds)
    first = store.papers[0].id
    store.set_star(first, True)
    store.set_note(first, "mine")
    return store


def contents(data_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """What a store holds, as data: its papers and every paper's review summary."""
    store = Store(data_dir)
    papers = sorted((paper_record(p, store.user_data(p.id)) for p in store.papers), key=lambda r: r["id"])
    return papers, {p.id: store.reviews.summary(p.openreview_id) for p in store.papers}


def assert_complete(store: Store, notes: list[dict[str, Any]]) -> None:
    ids = {paper.openreview_id for paper in store.papers}
    assert {note["id"] for note in notes} <= ids
    reviewed = [
        n for n in notes if any("Official_Review" in r["invitations"][0] for r in n["details"]["directReplies"])
    ]
    assert reviewed
    for note in reviewed[:20]:
        summary = store.reviews.summary(note["id"])
        expected = sum("Official_Review" in r["invitations"][0] for r in note["details"]["directReplies"])
        assert summary is not None and summary.count == expected


def test_a_fetch_brings_every_submission_with_its_reviews_in_few_requests(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    seen: list[FetchProgress] = []
    store = Store(data_dir)
    summary = fetch(store, [ICLR], options(server), seen.append)
    assert_complete(store, notes)
    pages = -(-PAPERS // PAGE)
    assert summary.pages == pages and summary.notes == PAPERS
    assert summary.requests == pages + 1  # one login, then the pages
    assert server.count("/login") == 1
    page_requests = [q for _, path, q in server.requests if path == "/notes"]
    assert all(
        q["details"] == ["directReplies"] and q["invitation"] == [f"{VENUE}/-/Submission"] for q in page_requests
    )
    assert "after" not in page_requests[0] and all("after" in q for q in page_requests[1:])
    assert seen[-1].stage == "importing" and seen[-2].total == PAPERS
    assert last_sources(data_dir) == ["iclr2026"]
    assert not (data_dir / "fetch" / "pages").exists() or not any((data_dir / "fetch" / "pages").iterdir())
    assert all(p.sources == ("openreview-ICLR.cc-2026-Conference.json",) for p in store.papers)


def test_the_token_is_kept_0600_outside_config_and_reused(server: ApiServer, login: None, data_dir: Path) -> None:
    fetch(Store(data_dir), [ICLR], options(server))
    token_file = data_dir / "fetch" / "openreview-token.json"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    for path in data_dir.rglob("*"):
        if path.is_file() and path != token_file:
            assert b"Bearer" not in path.read_bytes() and PASSWORD.encode() not in path.read_bytes()
    assert PASSWORD not in token_file.read_text()
    fetch(Store(data_dir), [ICLR], options(server))
    assert server.count("/login") == 1  # the kept token was used


def _fails_cleanly(server: ApiServer, data_dir: Path, expect: str, **limits: Any) -> str:
    store = seeded_store(data_dir)
    before = store_files(data_dir)
    with pytest.raises(FetchError) as caught:
        fetch(store, [ICLR], options(server, **limits))
    message = str(caught.value)
    assert "\n" not in message and expect in message, message
    assert PASSWORD not in message and "Bearer" not in message
    assert store_files(data_dir) == before
    return message


def test_403_without_login_says_how_to_log_in(server: ApiServer, data_dir: Path) -> None:
    _fails_cleanly(server, data_dir, "OPENREVIEW_USERNAME")
    assert server.count("/notes") == 1


def test_401_bad_password_is_one_line(server: ApiServer, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "wrong")
    _fails_cleanly(server, data_dir, "refused the login")
    assert server.count("/notes") == 0


def test_an_expired_token_mid_run_logs_in_again(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    store = Store(data_dir)
    fetch(store, [ICLR], options(server))  # keeps a token
    server.fail("/notes", "ok", "expire")
    store = Store(data_dir)
    fetch(store, [ICLR], options(server))
    assert server.count("/login") == 2
    assert_complete(store, notes)


def test_an_expired_token_without_credentials_is_one_line(
    server: ApiServer, login: None, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetch(Store(data_dir), [ICLR], options(server))
    monkeypatch.delenv("OPENREVIEW_PASSWORD")
    server.fail("/notes", "expire")
    message = _fails_cleanly(server, data_dir, "OPENREVIEW_PASSWORD")
    assert "login" in message


@pytest.mark.parametrize("faults", [("429", "429-reset", "500", "502"), ("timeout", "reset", "truncated", "html"),
                                    ("ok", "500", "ok", "reset", "truncated")])  # fmt: skip
def test_transient_faults_are_retried_to_a_correct_result(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]], faults: tuple[str, ...]
) -> None:
    server.slow_s = 0.6
    server.fail("/notes", *faults)
    store = Store(data_dir)
    summary = fetch(store, [ICLR], options(server))
    assert_complete(store, notes)
    assert summary.requests == -(-PAPERS // PAGE) + 1 + sum(f != "ok" for f in faults)


def test_a_server_that_keeps_failing_changes_nothing_and_the_rerun_resumes(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    server.fail("/notes", "ok", *["500"] * 6)
    message = _fails_cleanly(server, data_dir, "server error (500)", attempts=6)
    assert "resume" in message
    requests_before = server.count("/notes")
    store = Store(data_dir)
    summary = fetch(store, [ICLR], options(server))
    assert summary.resumed == 1
    assert server.count("/notes") - requests_before == -(-PAPERS // PAGE) - 1  # page 1 was not fetched again
    assert_complete(store, notes)


def test_the_request_budget_stops_the_run_cleanly(server: ApiServer, login: None, data_dir: Path) -> None:
    _fails_cleanly(server, data_dir, "budget of 2 requests", budget=2)


def test_notes_changing_between_two_requests_give_the_newer_notes_once(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    venue_notes = server.notes[VENUE]
    late = venue_notes[-1]
    added = {**venue_notes[0], "id": "zzzzzzzzz1", "forum": "zzzzzzzzz1", "number": 99999,
             "details": {"directReplies": []}}  # fmt: skip
    added["content"] = {**added["content"], "title": {"value": "Added while fetching"}}

    def change(pages: int) -> None:
        if pages == 1:  # after the first page: a later note changes title, a new one arrives, one before the cursor too
            late["content"] = {**late["content"], "title": {"value": "Retitled while fetching"}}
            venue_notes.append(added)
            venue_notes.insert(0, {**added, "id": "0000000001", "forum": "0000000001", "number": 99998})

    server.on_notes = change
    store = Store(data_dir)
    fetch(store, [ICLR], options(server))
    titles = {p.openreview_id: p.title for p in store.papers}
    assert titles[late["id"]] == "Retitled while fetching"
    assert titles["zzzzzzzzz1"] == "Added while fetching"
    assert len(store.papers) == len({p.openreview_id for p in store.papers})


def test_an_unknown_venue_id_is_one_line(server: ApiServer, login: None, data_dir: Path) -> None:
    store = seeded_store(data_dir)
    before = store_files(data_dir)
    with pytest.raises(FetchError, match=r"no submissions for 'ICLR\.cc/2031/Conference'"):
        fetch(store, [parse_source("ICLR.cc/2031/Conference")], options(server))
    assert store_files(data_dir) == before
    with pytest.raises(UnknownSource, match="no such conference"):
        parse_source("acme2026")
    with pytest.raises(UnknownSource, match="not a venue"):
        parse_source("not a venue at all")


def test_a_paper_copilot_lfs_pointer_is_one_line(server: ApiServer, data_dir: Path) -> None:
    server.copilot["iclr/iclr2026.json"] = lfs_pointer()
    store = seeded_store(data_dir)
    before = store_files(data_dir)
    with pytest.raises(FetchError, match="Git LFS pointer"):
        fetch(store, [parse_source("papercopilot:iclr2026")], options(server))
    assert store_files(data_dir) == before


def test_a_paper_copilot_list_is_fetched_without_login(server: ApiServer, data_dir: Path) -> None:
    from tests.conftest import SHARED_DATA

    records = orjson.loads((SHARED_DATA / "papercopilot_iclr2018.json").read_bytes())[:40]
    server.copilot["iclr/iclr2018.json"] = orjson.dumps(records)
    server.fail("/pc/iclr/iclr2018.json", "502")
    store = Store(data_dir)
    summary = fetch(store, [parse_source("papercopilot:iclr2018")], options(server))
    assert summary.requests == 2 and len(store.papers) == 40
    assert server.count("/login") == 0


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
    server.on_notes = lambda served: time.sleep(1.0) if served == held else None
    running = _cli(server, killed, "--page-size", str(PAGE))
    deadline = time.monotonic() + 30
    while server.count("/notes") < held and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(running.pid, signal.SIGKILL)
    running.wait(10)
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
