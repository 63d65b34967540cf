"""JSON Lines read lean: records parsed from views of the file (line numbers as before, blank
lines skipped), and the replies of a file read with ``consume`` dropping each record once read, the
same replies found. The notes are the committed cut of the first real review part (``tests/data/``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources.jsonfile import load_json_records
from paperdeck.sources.review_notes import replies_in

from tests.helpers import review_parts


def test_json_lines_keep_their_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_bytes(b'\n  {"id": "a"}\r\n\n \t\n{"id": "b"}\n{"id": "c"}')
    document = load_json_records(path)
    assert document.records == [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    assert document.lines == [2, 5, 6]
    path.write_bytes(b'{"id": "a"}\n\n{"id": \n')
    with pytest.raises(SourceError) as raised:
        load_json_records(path)
    assert raised.value.line == 3


def test_replies_read_consuming_the_records_are_those_read_keeping_them(tmp_path: Path) -> None:
    path = tmp_path / "part.jsonl"
    with gzip.open(review_parts()[0], "rb") as handle:
        path.write_bytes(handle.read())
    kept = load_json_records(path)
    reviews, skipped = replies_in(path, kept)
    consumed = load_json_records(path)
    again, skipped_again = replies_in(path, consumed, consume=True)
    assert len(reviews) > 100 and (again, skipped_again) == (reviews, skipped)
    assert all(record is None for record in consumed.records)
    assert all(record is not None for record in kept.records)


def test_an_openreview_file_of_json_lines_is_parsed_once_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The OpenReview reader parses each line once as it makes that record's paper and replies,
    never every record at once: its reviews and skips are those of the whole-file read."""
    from paperdeck.sources import jsonfile, openreview

    path = tmp_path / "part.jsonl"
    with gzip.open(review_parts()[0], "rb") as handle:
        path.write_bytes(handle.read())
    whole = load_json_records(path)
    reviews, skipped = replies_in(path, whole)
    parsed: list[int] = []
    loads = jsonfile._loads

    def counting(data: bytes | memoryview, *args: object) -> object:
        parsed.append(len(data))
        return loads(data, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(jsonfile, "_loads", counting)
    read = openreview.read(path)
    lines = len(whole.records)
    assert len(parsed) == lines and lines > 100 and max(parsed) < path.stat().st_size // 10
    assert list(read.reviews) == reviews
    assert [s for s in read.skipped if "reply note" not in s.reason] == skipped


def test_an_openreview_file_of_json_lines_not_in_utf8_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    note = b'{"id": "p1", "content": {"title": {"value": "T\\u00e9"}, "abstract": {"value": "An abstract"}}}'
    other = '{"id": "p2", "content": {"title": {"value": "ICLR 2026 论文"}, "abstract": {"value": "An abstract"}}}'
    path.write_bytes(note + b"\n" + other.encode("gb18030") + b"\n")  # a line not UTF-8: the file decoded first
    from paperdeck.sources import openreview

    read = openreview.read(path)
    assert [paper.title for paper in read.papers] == ["Té", "ICLR 2026 论文"]
