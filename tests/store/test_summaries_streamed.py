"""The reviews' summaries file is read entry by entry (issue 32: the app's resident memory), never
parsed as one tree: the same summaries as a whole parse, a text holding the separator between
entries read right, and a file not laid out as paperdeck writes it parsed whole (which names what
is wrong). Counted, not timed: the whole parses made."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.store import reviews as review_module
from paperdeck.store.paper_index import object_bytes
from paperdeck.store.reviews import ReviewStore

FIXED_TIME = "2026-11-29T12:00:00+00:00"


def _docs(count: int) -> dict[str, dict[str, object]]:
    docs: dict[str, dict[str, object]] = {}
    for n in range(count):
        ratings = [float(n % 9), float((n + 3) % 9)] if n % 5 else []
        summary = ReviewSummary(
            count=len(ratings), mean=sum(ratings) / len(ratings) if ratings else None, ratings=tuple(ratings),
            confidences=tuple(3.0 for _ in ratings), comments=n % 4, venue="ICLR.cc/2026/Conference",
            # a decision holding what separates two entries, and a quote and a brace
            decision='Accept},"x":{"y' if n % 7 == 3 else ("Reject" if n % 2 else ""), withdrawn=n % 11 == 0,
        )  # fmt: skip
        docs[f"F{n}"] = summary.to_dict()
    return docs


def _store(tmp_path: Path, raw: bytes) -> ReviewStore:
    directory = tmp_path / "reviews"
    directory.mkdir()
    (directory / "summaries.g1.json").write_bytes(raw)
    index = {"schema": 1, "generation": 1, "shards": {}, "summaries": "summaries.g1.json"}
    (directory / "index.json").write_bytes(orjson.dumps(index))
    return ReviewStore(directory, now=lambda: FIXED_TIME)


class _CountingLoads:
    """``orjson.loads`` counting the documents of more than ``big`` bytes parsed."""

    def __init__(self, big: int) -> None:
        self.big, self.whole = big, 0
        self._loads = orjson.loads

    def __call__(self, data: bytes | bytearray | memoryview | str) -> object:
        if len(data) > self.big:
            self.whole += 1
        return self._loads(data)


def test_the_summaries_are_read_entry_by_entry_as_a_whole_parse_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _docs(300)
    raw, _ = object_bytes(docs)
    assert raw == orjson.dumps(docs)
    loads = _CountingLoads(big=4096)
    monkeypatch.setattr(review_module.orjson, "loads", loads)
    summaries = _store(tmp_path, raw).summaries()
    assert loads.whole == 0  # no parse of the whole file (300 entries: ~60 KB)
    assert list(summaries) == list(docs)
    assert summaries == {forum: ReviewSummary.from_dict(doc) for forum, doc in docs.items()}
    assert summaries["F3"].decision == 'Accept},"x":{"y'


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"{}", {}),
        (b'{"F1":{"count":0}}', {"F1": ReviewSummary()}),
        (b'{"F1":{"count":0}} \n', {"F1": ReviewSummary()}),
    ],
)
def test_small_files_read_alike(tmp_path: Path, raw: bytes, expected: dict[str, ReviewSummary]) -> None:
    assert _store(tmp_path, raw).summaries() == expected


@pytest.mark.parametrize(
    "raw",
    [b'{"F1":{"count":0},"F2":{"count":', b'{"F1":{"count":0},"F2":{"bogus":1}}', b"[1, 2]", b'{"F1":{"count":0}}x'],
)
def test_a_broken_file_is_named(tmp_path: Path, raw: bytes) -> None:
    with pytest.raises(StoreError, match="summaries"):
        _store(tmp_path, raw).summaries()
