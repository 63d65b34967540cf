"""The note file for ``$EDITOR``: a note holding raw control characters (restored from a backup
made elsewhere) is written with each shown, never raw, and what comes back is shown the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from paperdeck.reading.note_file import MARKER, NOTE_END, note_from_file, note_template
from paperdeck.store.store import Store

from tests.helpers import run

#: What may not reach the file raw (tabs and line ends, CRLF's CR too, are kept).
RAW = re.compile("\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE_NOTE = "Read \x1b[31mthis\x1b[0m first\x07.\n\tIndented \u202eevil\u202c line.\r\nEnd\x1b]52;c;aGk=\x07"


def test_a_note_restored_with_raw_escapes_reaches_the_editor_file_shown(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", str(seed_files[0]), "--data-dir", data)
    paper = Store(Path(data)).papers[0]
    backup = tmp_path / "backup.json"
    code, _, err = run(capsys, "note", paper.id, "--text", "placeholder", "--data-dir", data)
    assert code == 0, err
    code, _, err = run(capsys, "export", "--user-data", "-o", str(backup), "--data-dir", data)
    assert code == 0, err
    document = json.loads(backup.read_text("utf-8"))
    document["records"][0]["note"] = HOSTILE_NOTE
    backup.write_text(json.dumps(document), "utf-8")
    code, _, err = run(capsys, "import", str(backup), "--data-dir", data)
    assert code == 0, err
    note = Store(Path(data)).user_data(paper.id).note
    assert "\x1b" in note  # the store keeps the note as restored: the file is where it must be shown

    text = note_template(paper, note)
    assert not RAW.search(text), RAW.findall(text)
    body = text.split(NOTE_END, 1)[0]  # the note, at the top of the file
    assert "Read ␛[31mthis␛[0m first␇." in body and "\tIndented ⟨U+202E⟩evil⟨U+202C⟩ line.\r\n" in body
    assert note_from_file(text) == body.strip("\n").rstrip()


def test_what_the_editor_writes_back_is_shown_too() -> None:
    edited = f"# Title\n\n{MARKER}\n\nMine \x1b[2J and \x9b31m, tab\tkept\nsecond line\n"
    assert note_from_file(edited) == "Mine ␛[2J and ⟨U+009B⟩31m, tab\tkept\nsecond line"
