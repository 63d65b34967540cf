"""``paperdeck fetch`` of any OpenReview venue (issue 31), against real HTTP servers on 127.0.0.1:
the venue group read first, a second venue whose scores are strings and whose replies are of many
kinds, a venue only the old API host holds (two servers), a venue that does not exist, a group
without the expected names, a venue with no public reviews. Never the internet: the old host is
a second local server, and a mirror is never paired with the public old host."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from paperdeck.cli.main import main
from paperdeck.fetch.client import FetchError
from paperdeck.fetch.credentials import Credentials
from paperdeck.fetch.run import FetchOptions, fetch
from paperdeck.fetch.venues import VenueGroup, parse_source, pattern_invitations, short_name, venue_group
from paperdeck.model.review import AUTHOR_RESPONSE, COMMENT, DECISION, ETHICS_REVIEW, META_REVIEW, REVIEW
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER, VENUE, ApiServer, store_files, venue_group_record
from tests.fetch.helpers import options, seeded_store
from tests.fetch.venues_data import COLM, ICLR2017, colm2025_notes, iclr2017_notes, ratings_of, records, v1_group
from tests.helpers import fixture


@pytest.fixture
def old_host() -> Iterator[ApiServer]:
    """The old API host (v1): it holds ICLR 2017 only, its group without names, its pages by offset."""
    with ApiServer([]) as running:
        running.groups.pop(VENUE)
        running.add_venue(ICLR2017, iclr2017_notes(), v1_group(ICLR2017), f"{ICLR2017}/-/submission")
        yield running


def _options(server: ApiServer, said: list[str], old: ApiServer | None = None, page_size: int = 3) -> FetchOptions:
    return replace(options(server, page_size), notice=said.append, openreview_old_url=old.url if old else "")


def test_a_second_venue_with_string_scores_and_every_reply_kind_lands_whole(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    server.add_venue(COLM, colm2025_notes(), venue_group_record(COLM), f"{COLM}/-/Submission")
    said: list[str] = []
    store = Store(data_dir)
    summary = fetch(store, [parse_source("colm2025")], _options(server, said))
    expected = records("colm2025")
    assert summary.notes == len(expected) == len(store.papers) == 8
    assert not summary.imported.skipped, summary.imported.skipped  # no reply kind is refused or dropped
    assert server.requests[1][1:] == ("/groups", {"id": [COLM]})  # the group first (after the login)
    asked = {q["invitation"][0] for _, path, q in server.requests if path == "/notes"}
    assert asked == {f"{COLM}/-/Submission"}
    assert not any("pattern" in line or "no public reviews" in line for line in said), said
    kinds: Counter[str] = Counter()
    for record in expected:
        paper = next(p for p in store.papers if p.openreview_id == record["id"])
        assert (paper.venue, paper.year) == ("COLM", 2025)
        reviews = store.reviews.summary(record["id"])
        assert reviews is not None and reviews.ratings == tuple(float(r) for r in ratings_of(record))
        notes = store.reviews.reviews(record["id"])
        kinds.update(note.kind for note in notes)
        meta = next(note for note in notes if note.kind == META_REVIEW)
        assert meta.section("recommendation").startswith(("Accept", "Reject"))  # text, kept as text
        rated = next(note for note in notes if note.kind == REVIEW)
        assert dict(rated.score_labels)["rating"].startswith(("Marginally", "Good", "Top", "Ok", "Clear"))
    assert kinds[REVIEW] == sum(len(ratings_of(r)) for r in expected)
    assert kinds[META_REVIEW] == kinds[DECISION] == kinds[AUTHOR_RESPONSE] == 8
    assert kinds[ETHICS_REVIEW] == 1 and kinds["reviewer-flag"] == 1 and kinds[COMMENT] == 0


def test_the_group_names_the_submissions_invitation_not_the_pattern(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    group = venue_group_record(COLM, submission_name="Full_Submission")
    server.add_venue(COLM, colm2025_notes(), group, f"{COLM}/-/Full_Submission")
    fetch(Store(data_dir), [parse_source(COLM)], _options(server, []))
    asked = {q["invitation"][0] for _, path, q in server.requests if path == "/notes"}
    assert asked == {f"{COLM}/-/Full_Submission"}


def test_a_group_without_the_expected_names_falls_back_to_the_pattern_and_says_so(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    nameless = venue_group_record(COLM, submission_name=None, review_name=None, review_rating=None)
    nameless["content"]["submission_name"] = {"value": "../../x"}  # hostile: no plain name, so none
    server.add_venue(COLM, colm2025_notes(), nameless, f"{COLM}/-/Submission")
    said: list[str] = []
    store = Store(data_dir)
    fetch(store, [parse_source("colm2025")], _options(server, said))
    assert len(store.papers) == 8
    assert any("names no submissions' invitation" in line and f"{COLM}/-/Submission" in line for line in said), said


def test_a_rating_the_venue_names_otherwise_is_said_not_guessed(server: ApiServer, login: None, data_dir: Path) -> None:
    group = venue_group_record(COLM, review_rating="final_rating")
    server.add_venue(COLM, colm2025_notes(), group, f"{COLM}/-/Submission")
    said: list[str] = []
    fetch(Store(data_dir), [parse_source("colm2025")], _options(server, said))
    assert sum("calls the reviews' rating 'final_rating'" in line for line in said) == 1, said


def test_a_venue_with_no_public_reviews_imports_its_papers_and_says_so(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    server.add_venue(COLM, colm2025_notes(with_replies=False), venue_group_record(COLM), f"{COLM}/-/Submission")
    said: list[str] = []
    store = Store(data_dir)
    summary = fetch(store, [parse_source("colm2025")], _options(server, said))
    assert len(store.papers) == 8 and summary.imported.reviews is None
    assert sum("no public reviews" in line for line in said) == 1, said
    assert summary.notices == tuple(said[1:])  # what was decided, not "fetching … from …"


@pytest.mark.parametrize("new_has_group", [False, True])
def test_a_venue_only_the_old_api_holds_is_fetched_from_it_by_offset(
    server: ApiServer, old_host: ApiServer, login: None, data_dir: Path, new_has_group: bool
) -> None:
    if new_has_group:  # as api2 does: it returns an API v1 venue's group too, without a domain
        server.groups[ICLR2017] = v1_group(ICLR2017)
    said: list[str] = []
    store = Store(data_dir)
    summary = fetch(store, [parse_source("iclr2017")], _options(server, said, old_host))
    expected = records("iclr2017")
    assert summary.notes == len(store.papers) == len(expected)
    assert server.count("/notes") == 0 and server.count("/groups") == 1  # the new host: asked, not holding it
    pages = [q for _, path, q in old_host.requests if path == "/notes" and q["invitation"][0].endswith("/submission")]
    assert [q["offset"] for q in pages] == [["0"], ["3"], ["6"]] and all("after" not in q for q in pages)
    assert any("fetching it from the old API" in line and old_host.url in line for line in said), said
    named = [line for line in said if "names no submissions' invitation" in line]  # the v1 group names nothing
    assert len(named) == 1 and f"{ICLR2017}/-/Blind_Submission, then " in named[0], said
    assert named[0].endswith(f"{ICLR2017}/-/submission (the pattern)")
    for record in expected:
        paper = next(p for p in store.papers if p.openreview_id == record["id"])
        assert (paper.venue, paper.year) == ("ICLR", 2017)
        reviews = store.reviews.summary(record["id"])
        assert reviews is not None and reviews.ratings == tuple(float(r) for r in ratings_of(record))
        kinds = Counter(note.kind for note in store.reviews.reviews(record["id"]))
        assert kinds == {REVIEW: len(ratings_of(record)), DECISION: 1}


def test_a_venue_no_host_holds_is_one_line_and_changes_nothing(
    server: ApiServer, old_host: ApiServer, login: None, data_dir: Path
) -> None:
    store = seeded_store(data_dir)
    before = store_files(data_dir)
    with pytest.raises(FetchError) as caught:
        fetch(store, [parse_source("NoSuch.cc/2026/Conference")], _options(server, [], old_host))
    message = str(caught.value)
    assert message.startswith("no such venue: 'NoSuch.cc/2026/Conference'") and "\n" not in message
    assert server.url in message and old_host.url in message
    assert server.count("/notes") == old_host.count("/notes") == 0
    assert store_files(data_dir) == before


def test_without_an_old_host_a_venue_without_a_group_is_asked_by_the_pattern_then_no_such_venue(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    said: list[str] = []
    with pytest.raises(FetchError, match=r"no such venue: OpenReview has no submissions for 'NoSuch\.cc/2026/"):
        fetch(Store(data_dir), [parse_source("NoSuch.cc/2026/Conference")], _options(server, said))
    assert any("holds no group" in line and "(the pattern)" in line for line in said), said


def test_a_paper_copilot_venue_is_read_by_its_folder(server: ApiServer, data_dir: Path) -> None:
    server.copilot["colm/colm2025.json"] = fixture("papercopilot_colm2025.json").read_bytes()
    source = parse_source("papercopilot:colm2025")
    assert source.path == "colm/colm2025.json"
    store = Store(data_dir)
    fetch(store, [source], options(server))
    assert len(store.papers) == 8 and {p.venue for p in store.papers} == {"COLM"}


@pytest.mark.parametrize(
    ("text", "venue_id", "name"),
    [
        ("tmlr", "TMLR", "tmlr"),
        ("TMLR", "TMLR", "tmlr"),
        ("tmlr2025", "TMLR", "tmlr"),  # a rolling journal: one venue for every year
        ("neurips2025", "NeurIPS.cc/2025/Conference", "neurips2025"),
        ("colm2025", COLM, "colm2025"),
        ("iclr2026", "ICLR.cc/2026/Conference", "iclr2026"),
        ("iclr2017", ICLR2017, "iclr2017"),
    ],
)
def test_short_names_resolve(text: str, venue_id: str, name: str) -> None:
    source = parse_source(text)
    assert (source.kind, source.venue_id, source.name) == ("openreview", venue_id, name)


def test_a_store_venue_gives_its_short_name_back() -> None:
    assert short_name("TMLR", None) == "tmlr" and short_name("COLM", 2025) == "colm2025"
    assert short_name("ICLR", None) is None


def test_a_group_is_read_wrapped_or_plain_and_its_hostile_names_are_left_out() -> None:
    wrapped = venue_group(orjson.loads(orjson.dumps({"groups": [venue_group_record("TMLR")]})), "TMLR")
    assert wrapped is not None and wrapped.named and wrapped.invitations == ("TMLR/-/Submission",)
    assert (wrapped.withdrawn_venue_id, wrapped.rating_name) == ("TMLR/Withdrawn_Submission", "rating")
    assert wrapped.domain == "TMLR"  # an API v2 venue's group
    plain = {"id": "V/2020/Conf", "content": {"submission_name": "Blind_Submission", "review_name": "Review",
                                              "withdrawn_venue_id": "Elsewhere/Withdrawn"}}  # fmt: skip
    group = venue_group({"groups": [plain]}, "V/2020/Conf", api=1)
    assert group == VenueGroup("V/2020/Conf", 1, "V/2020/Conf/-/Blind_Submission", review_name="Review")
    hostile = {
        "id": "V/1",
        "content": {
            "submission_id": {"value": "Other/-/Submission"},
            "submission_name": {"value": "Sub\x1b[2J"},
            "decision_name": {"value": 7},
        },
    }
    bare = venue_group({"groups": [hostile]}, "V/1")
    assert bare == VenueGroup("V/1") and not bare.named and bare.invitations == pattern_invitations("V/1", 2)
    assert venue_group({"groups": [{"id": "Other"}]}, "V/1") is None
    with pytest.raises(ValueError, match="not a list of groups"):
        venue_group({"groups": "\x1b]52;c;aGk=\x07"}, "V/1")
    assert pattern_invitations("V/1", 1) == ("V/1/-/Blind_Submission", "V/1/-/Submission", "V/1/-/submission")


def test_a_mirror_is_never_paired_with_the_public_old_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAPERDECK_OPENREVIEW_OLD_URL", raising=False)
    assert FetchOptions(openreview_url="http://127.0.0.1:9").old_api_url() == ""
    assert FetchOptions(openreview_url="https://api2.openreview.net").old_api_url() == "https://api.openreview.net"
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_OLD_URL", "http://127.0.0.1:8")
    assert FetchOptions(openreview_url="http://127.0.0.1:9").old_api_url() == "http://127.0.0.1:8"


def test_the_fetch_command_says_no_such_venue_in_one_line(
    server: ApiServer, old_host: ApiServer, login: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_OLD_URL", old_host.url)
    code = main(["fetch", "NoSuch.cc/2026/Conference", "--data-dir", str(tmp_path / "data")])
    lines = capsys.readouterr().err.splitlines()
    assert code != 0
    assert lines == [f"paperdeck: fetching NoSuch.cc/2026/Conference from {server.url}", lines[-1]]
    assert lines[-1].startswith("paperdeck: no such venue: 'NoSuch.cc/2026/Conference' (neither "), lines


def test_the_login_is_asked_once_for_both_hosts(server: ApiServer, old_host: ApiServer, data_dir: Path) -> None:
    asked: list[int] = []

    def prompt() -> Credentials:
        asked.append(1)
        return Credentials(USER, PASSWORD)

    fetch(Store(data_dir), [parse_source("iclr2017")], replace(_options(server, [], old_host), prompt=prompt))
    assert len(asked) == 1 and server.count("/login") == old_host.count("/login") == 1


def test_an_interrupted_old_host_fetch_resumes_under_the_invitation_it_found(
    server: ApiServer, old_host: ApiServer, login: None, data_dir: Path
) -> None:
    store = seeded_store(data_dir)
    stopping = replace(_options(server, [], old_host), limits=replace(options(server).limits, budget=5))
    with pytest.raises(FetchError, match="budget of 5 requests"):  # the old host: login, group, 3 invitations
        fetch(store, [parse_source("iclr2017")], stopping)
    asked = len(old_host.requests)
    summary = fetch(store, [parse_source("iclr2017")], _options(server, [], old_host))
    assert summary.resumed == 1 and summary.notes == 8
    pages = [q for _, path, q in old_host.requests[asked:] if path == "/notes"]
    again = [(q["invitation"][0].rsplit("/", 1)[-1], q["offset"][0]) for q in pages]
    assert again == [("submission", "3"), ("submission", "6")]  # no invitation tried again, page 1 not fetched again


def test_the_fetch_commands_json_carries_what_it_decided(
    server: ApiServer, login: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    server.add_venue(COLM, colm2025_notes(with_replies=False), venue_group_record(COLM), f"{COLM}/-/Submission")
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
    code = main(["fetch", "colm2025", "--json", "--data-dir", str(tmp_path / "data")])
    result = orjson.loads(capsys.readouterr().out)
    assert code == 0 and result["papers"] == 8
    assert len(result["notices"]) == 1 and "no public reviews" in result["notices"][0]
