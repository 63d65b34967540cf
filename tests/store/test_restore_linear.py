"""Restoring a user-data backup takes time linear in its size: reading it never rescans the whole
file per record (it did to find each record's line number, for an error that was not there:
quadratic, minutes for a full conference). The line is looked up only for the record at fault.

Tests never time (``bench/bench.py`` reports ``restore_backup_s``): they count the scans.

And a backup's notes and tags are capped (a longer note, more or longer tags refuse the file in
one line naming the record), as imported papers' fields are.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import UserData
from paperdeck.store import backup
from paperdeck.store.backup import BACKUP_MARK, read_backup, restore_backup
from paperdeck.store.store import Store
from paperdeck.store.user_data import MAX_NOTE_CHARS, MAX_TAG_CHARS, MAX_TAGS

RECORDS = 5_000


def _backup_file(path: Path, records: list[dict[str, object]]) -> Path:
    document = {"paperdeck": BACKUP_MARK, "schema": 1, "exported": "", "count": len(records), "records": records}
    path.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    return path


def _records(count: int) -> list[dict[str, object]]:
    return [
        UserData(f"openreview:P{n:07d}", starred=True, note=f"note {n}", tags=("t",)).to_dict() for n in range(count)
    ]


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every whole-file search for a record's line, by paper id."""
    found: list[str] = []
    real = backup._line_of

    def counted(raw: bytes, paper_id: str, second: bool = False) -> int | None:
        found.append(paper_id)
        return real(raw, paper_id, second)

    monkeypatch.setattr(backup, "_line_of", counted)
    return found


def test_reading_and_restoring_a_large_backup_scans_the_file_for_no_record(tmp_path: Path, scans: list[str]) -> None:
    path = _backup_file(tmp_path / "backup.json", _records(RECORDS))
    read = read_backup(path)
    assert len(read.records) == RECORDS
    report = restore_backup(Store(tmp_path / "data"), read)
    assert report.restored == RECORDS and report.not_in_store == RECORDS
    assert scans == []


def test_a_faulty_record_is_still_named_with_its_line(tmp_path: Path, scans: list[str]) -> None:
    records = _records(50)
    records[40]["starred"] = "yes"
    path = _backup_file(tmp_path / "backup.json", records)
    with pytest.raises(SourceError) as caught:
        read_backup(path)
    line = path.read_text().splitlines().index('      "paper_id": "openreview:P0000040",') + 1
    assert str(caught.value).startswith(f"{path}:{line}: record 41 (openreview:P0000040): starred must be")
    assert scans == ["openreview:P0000040"]


@pytest.mark.parametrize(
    ("field", "value", "fits", "words"),
    [
        ("note", "n" * (MAX_NOTE_CHARS + 1), "n" * MAX_NOTE_CHARS, "its note has 1,000,001 characters"),
        ("tags", [f"t{n}" for n in range(MAX_TAGS + 1)], [f"t{n}" for n in range(MAX_TAGS)], "it has 1,001 tags"),
        ("tags", ["t" * (MAX_TAG_CHARS + 1)], ["t" * MAX_TAG_CHARS], "a tag has 201 characters"),
    ],
)
def test_an_oversized_note_or_tag_list_refuses_the_backup_in_one_line(
    field: str, value: object, fits: object, words: str, tmp_path: Path
) -> None:
    records = _records(3)
    records[1][field] = value
    path = _backup_file(tmp_path / "backup.json", records)
    with pytest.raises(SourceError) as caught:
        read_backup(path)
    message = str(caught.value)
    assert "\n" not in message and words in message and "record 2" in message
    assert "nnnnnnnnnn" not in message
    records[1][field] = fits
    assert len(read_backup(_backup_file(tmp_path / "fits.json", records)).records) == 3
