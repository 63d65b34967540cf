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
