"""A venue scope's review summaries are found by the summaries file's span index (issue 31):
only the scope's entries are parsed (the others' keys read at their spans, their values neither
parsed nor built), the same summaries in the same order as the file streamed entry by entry;
a missing, stale or wrong index, or a key that does not read, leaves the file streamed as
before. Counted, not timed: the entries parsed and the summaries built."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest
from paperdeck.model.review_summary import ReviewSummary, SomeSummaries
from paperdeck.store import summaries_file
from paperdeck.store.paper_index import object_bytes, write_paper_index
from paperdeck.store.reviews import ReviewStore

from tests.store.test_summaries_streamed import FIXED_TIME, _docs

Spans = list[tuple[str, tuple[int, int]]]


class EntriesParsed:
    """The summaries file's entries parsed (``orjson.loads`` to an object: a key alone is a
    string; a piece of an entry cut at a separator in a text does not parse)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        monkeypatch.setattr(
            summaries_file, "orjson", SimpleNamespace(loads=self, JSONDecodeError=orjson.JSONDecodeError)
        )

    def __call__(self, data: bytes) -> object:
        parsed = orjson.loads(data)
        if isinstance(parsed, dict):
            self.count += 1
        return parsed


def _store(
    tmp_path: Path, docs: dict[str, dict[str, object]], *, spans: Spans | None = None, index: bool = True
) -> ReviewStore:
    directory = tmp_path / "reviews"
    directory.mkdir(parents=True)
    raw, entries = object_bytes(docs)
    path = directory / "summaries.g1.json"
    path.write_bytes(raw)
    if index:
        stat = os.stat(path)
        write_paper_index(directory / "summaries.g1.spans.json", (stat.st_ino, stat.st_mtime_ns, stat.st_size),
                          entries if spans is None else spans, {})  # fmt: skip
    meta = {"schema": 1, "generation": 1, "shards": {}, "summaries": "summaries.g1.json"}
    (directory / "index.json").write_bytes(orjson.dumps(meta))
    return ReviewStore(directory, now=lambda: FIXED_TIME)


def _unrated(count: int) -> dict[str, dict[str, object]]:
    """Summaries without a rating (a comment each), forums ``U0``…, and some keys that need care."""
    docs = {f"U{n}": ReviewSummary(comments=1, decision='Accept},"x":{"y' if n % 3 else "", venue="V").to_dict()
            for n in range(count)}  # fmt: skip
    docs['odd":key'] = ReviewSummary(comments=2, venue="V").to_dict()
    docs["back\\slash"] = ReviewSummary(comments=3, venue="V").to_dict()
    docs["ünï"] = ReviewSummary(comments=4, venue="V").to_dict()
    return docs


SCOPE = frozenset(["U1", "U7", 'odd":key', "back\\slash", "ünï", "nowhere"])


def test_only_the_scopes_entries_are_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            summaries_built: list[str]) -> None:  # fmt: skip
    docs = _unrated(200)
    streamed = _store(tmp_path / "streamed", docs, index=False).summaries_among(SCOPE)
    summaries_built.clear()
    parsed = EntriesParsed(monkeypatch)
    some = _store(tmp_path / "indexed", docs).summaries_among(SCOPE)
    assert parsed.count == 5  # the scope's five entries; the 198 others' keys alone
    assert len(summaries_built) == 5
    assert isinstance(some, SomeSummaries) and some.forums == SCOPE
    assert list(some.items()) == list(streamed.items())  # the same, in the file's order
    assert some == {forum: ReviewSummary.from_dict(docs[forum]) for forum in docs if forum in SCOPE}


def test_a_wider_scope_parses_its_new_entries_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    summaries_built: list[str]) -> None:  # fmt: skip
    docs = _unrated(50)
    store = _store(tmp_path, docs)
    some = store.summaries_among(SCOPE)
    parsed = EntriesParsed(monkeypatch)
    wider = store.summaries_among(SCOPE | {"U2", "U3"})
    assert parsed.count == 2 and len(summaries_built) == 7  # the two new ones; the five taken over
    assert all(wider[forum] is some[forum] for forum in some)


def _damaged_spans(docs: dict[str, dict[str, object]], damage: str) -> Spans | None:
    """The span index's entries for ``docs`` as ``damage`` leaves them (``None``: as written)."""
    _, entries = object_bytes(docs)
    return {
        "shifted": [(key, (start + 1, end + 1)) for key, (start, end) in entries],
        "missing one": entries[:5] + entries[6:],
    }.get(damage)


@pytest.mark.parametrize("damage", ["stale", "shifted", "missing one", "no index"])
def test_an_index_not_of_the_file_leaves_it_streamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    docs = _unrated(30)
    spans = _damaged_spans(docs, damage)
    store = _store(tmp_path, docs, spans=spans, index=damage != "no index")
    if damage == "stale":  # the file written again since (its stamp): the index is not used
        path = store.directory / "summaries.g1.json"
        path.write_bytes(path.read_bytes())
        os.utime(path, ns=(1, 1))
    parsed = EntriesParsed(monkeypatch)
    some = store.summaries_among(SCOPE)
    assert parsed.count == len(docs)  # every entry streamed
    assert some == {forum: ReviewSummary.from_dict(docs[forum]) for forum in docs if forum in SCOPE}


def test_a_rated_scope_builds_its_venues_summaries_alone(tmp_path: Path, summaries_built: list[str]) -> None:
    docs = _unrated(20)
    docs |= {forum: {**doc, "venue": "W"} for forum, doc in _docs(40).items()}  # rated (most), venue W
    docs["X1"] = ReviewSummary(count=1, mean=3.0, ratings=(3.0,), venue="X").to_dict()
    whole = _store(tmp_path / "whole", docs, index=False)
    ranks = {forum: whole.rank(forum) for forum in docs}
    summaries_built.clear()
    store = _store(tmp_path / "some", docs)
    some = store.summaries_among(frozenset(["U1", "F1"]))
    assert isinstance(some, SomeSummaries) and some.venues == {"W"}
    assert sorted(some) == sorted(forum for forum in docs if forum.startswith("F") or forum == "U1")
    assert "X1" not in some and "U2" not in some and summaries_built.count("X") == 0
    assert {forum: store.rank(forum) for forum in some} == {forum: ranks[forum] for forum in some}
    assert not store.summaries_read


@pytest.mark.parametrize("damage", ["copied", "stale", "shifted", "missing one", "no index"])
def test_an_index_not_of_the_file_is_made_again_as_it_is_streamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A store copied or restored (its span index names the old file's inode), or an index found
    wrong, is written again from the pass that streams the file: the next open of a scope parses
    the scope's entries alone, with the same summaries."""
    import shutil

    docs = _unrated(30)
    spans = _damaged_spans(docs, damage)
    store = _store(tmp_path / "made", docs, spans=spans, index=damage != "no index")
    if damage == "copied":  # a new inode for the same bytes and times
        shutil.copytree(tmp_path / "made", tmp_path / "copy", copy_function=shutil.copy2)
        store = ReviewStore(tmp_path / "copy" / "reviews", now=lambda: FIXED_TIME)
    if damage == "stale":
        path = store.directory / "summaries.g1.json"
        path.write_bytes(path.read_bytes())
        os.utime(path, ns=(1, 1))
    expected = {forum: ReviewSummary.from_dict(docs[forum]) for forum in docs if forum in SCOPE}
    parsed = EntriesParsed(monkeypatch)
    assert store.summaries_among(SCOPE) == expected
    assert parsed.count == len(docs)  # streamed once, every entry
    parsed.count = 0
    again = ReviewStore(store.directory, now=lambda: FIXED_TIME).summaries_among(SCOPE)
    assert parsed.count == 5  # by the index made again: the scope's entries alone
    assert list(again.items()) == list(expected.items())


def test_every_summary_read_makes_a_copied_stores_index_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from paperdeck.store.paper_index import open_index

    docs = _unrated(30)
    _store(tmp_path / "made", docs)
    shutil.copytree(tmp_path / "made", tmp_path / "copy", copy_function=shutil.copy2)
    directory = tmp_path / "copy" / "reviews"
    assert open_index(directory / "summaries.g1.spans.json", directory / "summaries.g1.json") is None
    assert ReviewStore(directory, now=lambda: FIXED_TIME).summaries() == {
        forum: ReviewSummary.from_dict(doc) for forum, doc in docs.items()
    }
    index = open_index(directory / "summaries.g1.spans.json", directory / "summaries.g1.json")
    assert index is not None
    index.close()


def test_repair_spans_builds_no_summary_and_leaves_a_usable_index_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, summaries_built: list[str]
) -> None:
    import shutil

    docs = _unrated(30)
    made = _store(tmp_path / "made", docs)
    before = (made.directory / "summaries.g1.spans.json").stat().st_mtime_ns
    made.repair_spans()
    assert (made.directory / "summaries.g1.spans.json").stat().st_mtime_ns == before  # usable: not written
    shutil.copytree(tmp_path / "made", tmp_path / "copy", copy_function=shutil.copy2)
    copy = ReviewStore(tmp_path / "copy" / "reviews", now=lambda: FIXED_TIME)
    summaries_built.clear()
    copy.repair_spans()
    assert summaries_built == []
    parsed = EntriesParsed(monkeypatch)
    expected = {forum: ReviewSummary.from_dict(docs[forum]) for forum in docs if forum in SCOPE}
    assert copy.summaries_among(SCOPE) == expected
    assert parsed.count == 5
