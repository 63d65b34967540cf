"""A venue scope's review summaries (``ReviewStore.summaries_among``, issue 31): only the forums
asked for are built (the other venues' entries parsed, not built), the same summaries as a whole
read; a wider set builds the rest, never one twice; a rated summary among them brings every one of
its venue, no other venue's (a rank compares it with its venue's every rated paper, the same rank
as a whole read's). Counted, not timed: the summaries built."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.review_summary import ReviewSummary, SomeSummaries, covers
from paperdeck.store.paper_index import object_bytes
from paperdeck.store.reviews import ReviewStore

from tests.store.test_summaries_streamed import _store

#: Scope A's forums: reviewed, no rating (as the Paper Copilot lists' comments-only papers).
UNRATED = [f"A{n}" for n in range(40)]
#: Another venue's: rated.
RATED = [f"B{n}" for n in range(60)]
#: A third venue's: rated, on its own.
OTHER = [f"C{n}" for n in range(20)]


def _docs() -> dict[str, dict[str, object]]:
    docs = {forum: ReviewSummary(count=0, comments=n % 3 + 1, venue="A").to_dict() for n, forum in enumerate(UNRATED)}
    for n, forum in enumerate(RATED):
        ratings = (float(n % 9), float((n + 2) % 9))
        summary = ReviewSummary(count=2, mean=sum(ratings) / 2, ratings=ratings, confidences=(3.0, 3.0), venue="B",
                                decision='Accept},"x":{"y' if n % 7 == 3 else "")  # fmt: skip
        docs[forum] = summary.to_dict()
    for n, forum in enumerate(OTHER):  # rated on another venue's scale: never ranked with B
        summary = ReviewSummary(count=1, mean=float(n % 4), ratings=(float(n % 4),), confidences=(2.0,), venue="C")
        docs[forum] = summary.to_dict()
    return docs


@pytest.fixture
def built(summaries_built: list[str]) -> list[str]:
    """The summaries built (``ReviewSummary.from_dict``), by their venue (the forum's first letter)."""
    return summaries_built


def _whole(tmp_path: Path) -> dict[str, ReviewSummary]:
    other = tmp_path / "whole"
    other.mkdir()
    return _store(other, object_bytes(_docs())[0]).summaries()


def test_a_scopes_summaries_alone_are_built(tmp_path: Path, built: list[str]) -> None:
    whole = _whole(tmp_path)
    built.clear()
    store = _store(tmp_path, object_bytes(_docs())[0])
    scope = frozenset([*UNRATED[:30], "nowhere"])
    some = store.summaries_among(scope)
    assert isinstance(some, SomeSummaries) and some.forums == scope
    assert built == ["A"] * 30  # none of the other venue's 60
    assert some == {forum: whole[forum] for forum in UNRATED[:30]}
    assert store.summaries_among(frozenset(UNRATED[:10])) is some  # covered: the same, nothing built
    assert store.summaries_current(some) and not store.summaries_read
    # Answered from them, no file read: the summary, no rank (unrated), none for a forum without one.
    assert store.summary_held("A3") and store.summary("A3") == whole["A3"] and store.rank("A3") is None
    assert store.summary("nowhere") is None and store._single_reads == 0
    assert covers(some, "A3") and not covers(some, "B1") and covers(whole, "B1")
    assert len(built) == 30


def test_widening_builds_the_rest_and_a_rated_one_brings_its_venues(tmp_path: Path, built: list[str]) -> None:
    whole = _whole(tmp_path)
    reference = ReviewStore(tmp_path / "whole" / "reviews", now=lambda: "")
    ranks = {forum: reference.rank(forum) for forum in [*RATED, *OTHER]}
    built.clear()
    store = _store(tmp_path, object_bytes(_docs())[0])
    some = store.summaries_among(frozenset(UNRATED[:30]))
    wider = store.summaries_among(frozenset(UNRATED))  # still unrated: the ten more alone
    assert isinstance(wider, SomeSummaries) and wider is not some and not store.summaries_current(some)
    assert built == ["A"] * 40 and wider == {forum: whole[forum] for forum in UNRATED}
    # A rated one: every summary of its venue (B), wherever it is, none of another (C).
    rated = store.summaries_among(frozenset([*UNRATED, RATED[0]]))
    assert isinstance(rated, SomeSummaries) and rated.venues == {"B"} and store.summaries_current(rated)
    assert rated == {forum: whole[forum] for forum in [*UNRATED, *RATED]}
    assert sorted(built) == ["A"] * 40 + ["B"] * 60  # none built twice, none of C
    assert [store.rank(forum) for forum in RATED] == [ranks[forum] for forum in RATED]
    assert not store.summaries_read and len(built) == 100  # ranked within B: nothing more read
    assert store.rank(OTHER[2]) == ranks[OTHER[2]]  # a forum of C: read as a whole store reads it
    # (its own summary read alone first, as before: then every one, those held taken over)
    assert store.summaries_read and sorted(built) == ["A"] * 40 + ["B"] * 60 + ["C"] * 21
    assert store.summaries() == whole


def test_a_rank_asked_beside_some_is_the_whole_stores(tmp_path: Path) -> None:
    store = _store(tmp_path, object_bytes(_docs())[0])
    store.summaries_among(frozenset(UNRATED))
    whole = ReviewStore(tmp_path / "reviews", now=lambda: "")
    expected = whole.rank(RATED[5])
    assert expected is not None
    assert store.rank(RATED[5]) == expected  # a forum outside them: read as a whole store reads it


def test_without_summaries_or_read_whole_every_one_answers(tmp_path: Path) -> None:
    store = _store(tmp_path, object_bytes(_docs())[0])
    every = store.summaries()
    assert store.summaries_among(frozenset(UNRATED[:3])) is every
    empty = tmp_path / "empty"
    empty.mkdir()
    bare = ReviewStore(empty / "reviews", now=lambda: "")  # no reviews imported
    none = bare.summaries_among(frozenset(UNRATED))
    assert none == {} and covers(none, "A1") and bare.summaries_current(none)
