"""``paperdeck fetch`` against a real HTTP server on 127.0.0.1 (:mod:`tests.fetch.api_server`).

The server answers like OpenReview API v2, with pages built from the cuts of the ReviewTracker dump
and of the review parts in ``tests/data/``, re-wrapped into the v2 ``{"value": …}`` shape (how: the server module's
docstring), and serves each fault of issue 16. Every test checks one of: the fetch lands with every
submission and its reviews, or fails with one clear line and the store's files byte for byte as
they were. Retries are made fast (``Limits(backoff_s=…)``, a short sleep).
"""

from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.fetch.client import FetchError
from paperdeck.fetch.run import FetchProgress, fetch, last_sources
from paperdeck.fetch.venues import UnknownSource, parse_source
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER, VENUE, ApiServer, lfs_pointer, store_files
from tests.fetch.helpers import ICLR, PAGE, PAPERS, assert_complete, options, seeded_store


def test_a_fetch_brings_every_submission_with_its_reviews_in_few_requests(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    seen: list[FetchProgress] = []
    store = Store(data_dir)
    summary = fetch(store, [ICLR], options(server), seen.append)
    assert_complete(store, notes)
    pages = -(-PAPERS // PAGE)
    assert summary.pages == pages and summary.notes == PAPERS
    assert summary.requests == pages + 2  # one login, the venue group, then the pages
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


@pytest.mark.parametrize("faults", [("429", "429-reset", "429-date", "ok", "429-junk", "500", "502"),
                                    ("timeout", "reset", "truncated", "html"),
                                    ("ok", "500", "ok", "reset", "truncated")])  # fmt: skip
def test_transient_faults_are_retried_to_a_correct_result(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]], faults: tuple[str, ...]
) -> None:
    server.slow_s = 2.0  # twice the read timeout of the options
    server.fail("/notes", *faults)
    store = Store(data_dir)
    summary = fetch(store, [ICLR], options(server))
    assert_complete(store, notes)
    assert summary.requests == -(-PAPERS // PAGE) + 2 + sum(f != "ok" for f in faults)


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


def test_a_captive_portal_s_page_is_named_once_and_nothing_is_said_kept(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    """A tester's find: a server answering ``200`` ``text/html`` was retried six times as "not
    complete JSON", then "the pages fetched so far are kept" although none was."""
    told: list[str] = []
    server.fail("/notes", *["portal"] * 6)
    store = seeded_store(data_dir)
    with pytest.raises(FetchError) as caught:
        fetch(store, [ICLR], replace(options(server), notice=told.append))
    message = str(caught.value)
    assert "HTML page" in message and "not JSON" in message, message
    assert "kept" not in message and "nothing was fetched" in message, message
    assert server.count("/notes") == 1 and not any("JSON" in line for line in told), told


def test_a_server_failing_from_the_first_page_says_nothing_was_fetched(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    server.fail("/notes", *["500"] * 6)
    message = _fails_cleanly(server, data_dir, "server error (500)", attempts=6)
    assert "nothing was fetched" in message and "kept" not in message, message


def test_a_portal_after_a_page_keeps_the_pages_fetched(server: ApiServer, login: None, data_dir: Path) -> None:
    server.fail("/notes", "ok", "portal")
    message = _fails_cleanly(server, data_dir, "HTML page")
    assert "the pages fetched so far are kept" in message, message


def test_a_429_asking_for_a_long_wait_stops_the_run_with_when_to_resume(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    server.fail("/notes", "ok", "429-long")
    _fails_cleanly(server, data_dir, "asks to wait 5000 s")


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
    with pytest.raises(FetchError, match=r"no such venue: OpenReview has no submissions for 'ICLR\.cc/2031/"):
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
    from tests.helpers import COPILOT_2018_NAME, fixture

    records = orjson.loads(fixture(COPILOT_2018_NAME).read_bytes())[:40]
    server.copilot["iclr/iclr2018.json"] = orjson.dumps(records)
    server.fail("/pc/iclr/iclr2018.json", "502")
    store = Store(data_dir)
    summary = fetch(store, [parse_source("papercopilot:iclr2018")], options(server))
    assert summary.requests == 2 and len(store.papers) == 40
    assert server.count("/login") == 0


def test_an_arxiv_query_is_fetched_in_one_request(server: ApiServer, data_dir: Path) -> None:
    from tests.helpers import fixture

    server.raw["/arxiv/query"] = fixture("arxiv_atom_2026_query-testing_100.xml").read_bytes()
    server.fail("/arxiv/query", "500")
    store = Store(data_dir)
    source = parse_source("arxiv:all:testing")
    summary = fetch(store, [source], options(server))
    assert summary.requests == 2 and len(store.papers) == 100
    query = [q for _, path, q in server.requests if path == "/arxiv/query"][-1]
    assert query["search_query"] == ["all:testing"] and query["max_results"] == ["200"]
    server.raw["/arxiv/query"] = b"<html>Service unavailable</html>"
    before = store_files(data_dir)
    with pytest.raises(FetchError, match="not an arXiv Atom feed"):
        fetch(store, [source], options(server))
    assert store_files(data_dir) == before


def test_a_page_the_reader_refuses_changes_nothing_and_is_fetched_afresh_next_time(
    server: ApiServer, login: None, data_dir: Path, notes: list[dict[str, Any]]
) -> None:
    from paperdeck.model.errors import SourceError

    bad = next(n for n in server.notes[VENUE][60:] if n["details"]["directReplies"])
    reply = next(r for r in bad["details"]["directReplies"] if "rating" in r["content"])
    # a malformed reply among sound ones is only skipped: a reply over the size limit refuses the page
    reply["content"]["extra"] = {"value": "\x1b[31mlots " + "w" * 1_000_001}
    store = seeded_store(data_dir)
    before = store_files(data_dir)
    with pytest.raises(SourceError) as caught:
        fetch(store, [ICLR], options(server))
    assert "openreview-ICLR.cc-2026-Conference.json" in str(caught.value) and "\n" not in str(caught.value)
    assert store_files(data_dir) == before
    del reply["content"]["extra"]
    summary = fetch(Store(data_dir), [ICLR], options(server))
    assert summary.resumed == 0
    assert_complete(Store(data_dir), notes)


def test_progress_json_is_one_json_object_a_line_and_json_gives_the_summary(
    server: ApiServer, login: None, data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the app's refresh reads of the child ``paperdeck fetch``: each step on standard
    error, then the result on standard output."""
    import json

    from paperdeck.cli.main import main

    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
    assert main(["fetch", "iclr2026", "--json", "--progress-json", "--page-size", str(PAGE), "--data-dir",
                 str(data_dir)]) == 0  # fmt: skip
    captured = capsys.readouterr()
    steps = [json.loads(line) for line in captured.err.splitlines()]
    keys = {"stage", "source", "pages", "notes", "total", "requests", "read"}
    assert steps and all(set(step) == keys for step in steps)
    fetched = [step for step in steps if step["stage"] == "fetching"][-1]
    assert fetched["notes"] == PAPERS and fetched["total"] == PAPERS
    importing = [step["read"] for step in steps if step["stage"] == "importing"]  # the import's bar
    assert steps[-1]["stage"] == "importing" and importing == sorted(importing) and importing[-1] == fetched["pages"]
    result = json.loads(captured.out)
    assert result["summary"].startswith("fetched iclr2026: ") and result["papers"] == PAPERS
    # As `paperdeck import` leaves them: the app's next start reads these instead of building them.
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.searcher import INDEX_FILE, SIMILARITY_FILE

    store = Store(data_dir, lazy=True)
    stamp = store.held_catalogue_stamp()
    assert stamp is not None and (data_dir / SIMILARITY_FILE).is_file()
    assert isinstance(SearchIndex.load(data_dir / INDEX_FILE, stamp, store.paper_ids), SearchIndex)
    assert (data_dir / "stats-cache.json").is_file()


def test_ctrl_c_while_a_fetch_indexes_says_the_import_was_saved(
    server: ApiServer, login: None, data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The papers are committed before the indexes are made: an interruption then keeps them and
    says so, not "nothing was changed"."""
    from paperdeck.cli.main import main

    def interrupted(*_args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
    monkeypatch.setattr("paperdeck.cli.fetch.save_caches", interrupted)
    assert main(["fetch", "iclr2026", "--json", "--page-size", str(PAGE), "--data-dir", str(data_dir)]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        "paperdeck: interrupted; what was fetched and imported so far was saved; the search index was not "
        "finished and is made again at the next start"
    )
    assert len(Store(data_dir).papers) == PAPERS
