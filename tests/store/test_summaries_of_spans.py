"""A decisions file's papers' review summaries (``ReviewStore.summaries_of``, issue 32) are found by
the summaries file's span index, each entry parsed alone: the same summaries as a whole parse,
a forum without one left out, and a missing or stale index answered by the whole parse. Counted,
not timed: the whole parses made."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.store import reviews as review_module
from paperdeck.store.paper_index import object_bytes, write_paper_index

from tests.store.test_summaries_streamed import FIXED_TIME, _CountingLoads, _docs


def _store(tmp_path: Path, docs: dict[str, dict[str, object]], *, spans: bool) -> review_module.ReviewStore:
    directory = tmp_path / "reviews"
    directory.mkdir()
    raw, entries = object_bytes(docs)
    path = directory / "summaries.g1.json"
    path.write_bytes(raw)
    if spans:
        stat = os.stat(path)
        write_paper_index(directory / "summaries.g1.spans.json", (stat.st_ino, stat.st_mtime_ns, stat.st_size),
                          entries, {})  # fmt: skip
    index = {"schema": 1, "generation": 1, "shards": {}, "summaries": "summaries.g1.json"}
    (directory / "index.json").write_bytes(orjson.dumps(index))
    return review_module.ReviewStore(directory, now=lambda: FIXED_TIME)


FORUMS = ["F3", "F299", "nowhere", "F0", "F3", "F150", ""]


def test_the_named_summaries_are_read_by_the_span_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _docs(300)
    store = _store(tmp_path, docs, spans=True)
    loads = _CountingLoads(big=4096)
    monkeypatch.setattr(review_module.orjson, "loads", loads)
    found = store.summaries_of(iter(FORUMS))
    assert loads.whole == 0  # no parse of the whole file (300 entries: ~60 KB)
    assert list(found) == ["F3", "F299", "F0", "F150"]  # in the order asked, once each
    assert found == {forum: ReviewSummary.from_dict(docs[forum]) for forum in found}
    assert found["F3"].decision == 'Accept},"x":{"y'


@pytest.mark.parametrize("stale", [False, True])
def test_without_a_usable_index_the_file_is_parsed_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stale: bool
) -> None:
    docs = _docs(300)
    store = _store(tmp_path, docs, spans=stale)
    if stale:  # the summaries file rewritten since its index was: the index is not used
        path = tmp_path / "reviews" / "summaries.g1.json"
        raw = path.read_bytes()
        os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns + 1))
        assert path.read_bytes() == raw
    loads = _CountingLoads(big=4096)
    monkeypatch.setattr(review_module.orjson, "loads", loads)
    found = store.summaries_of(FORUMS)
    assert loads.whole == 1
    assert found == {forum: ReviewSummary.from_dict(docs[forum]) for forum in ["F3", "F299", "F0", "F150"]}
