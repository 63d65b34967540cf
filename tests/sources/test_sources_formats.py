"""The input formats' table (:data:`paperdeck.sources.FORMATS`): one row per format, from which
detection, the ``--format`` choices, the error hints and the help are derived; the user-data
backup is a row like the others."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import FORMAT_NAMES, FORMATS, FORMATS_BY_NAME, detect_format, format_help, read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import BackupError
from paperdeck.store.store import Store

BACKUP = {"paperdeck": "user-data backup", "schema": 1, "records": []}


def test_the_format_choices_are_the_rows_a_user_may_choose_in_detection_order() -> None:
    assert FORMAT_NAMES == ("openreview", "papercopilot", "parquet", "bibtex", "arxiv", "csv", "schedule", "seed")
    assert [row.name for row in FORMATS] == ["backup", *FORMAT_NAMES]  # the backup first, seed text last
    assert not FORMATS_BY_NAME["backup"].choosable
    assert len({row.name for row in FORMATS}) == len(FORMATS)


def test_every_row_loads_a_reader_that_names_its_reads_as_the_row() -> None:
    for row in FORMATS:
        reader = row.reader
        assert callable(reader.sniff) and callable(reader.read)
        assert row.name == reader.NAME  # type: ignore[attr-defined]
        assert row.records and row.help and row.label
        assert all(ending == ending.lower() and ending[:1] in (".", "") for ending in row.endings)


def test_the_table_imports_no_reader() -> None:
    probe = "import sys, paperdeck.sources; print(sorted(m for m in sys.modules if m.startswith('paperdeck.sources.')))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "openreview" not in loaded and "backup_file" not in loaded and "seed_text" not in loaded


def test_a_file_no_reader_recognises_is_read_or_refused_by_its_ending(tmp_path: Path) -> None:
    refused = tmp_path / "table.xml"
    refused.write_text("nothing a reader knows\n")
    with pytest.raises(SourceError, match=r"not a format paperdeck recognises; try --format \(openreview, "):
        detect_format(refused)
    json_like = tmp_path / "list.csv"
    json_like.write_text('{"neither": "a note nor a record"}\n')
    assert detect_format(json_like) == "openreview"  # its reader says what is wrong
    other = tmp_path / "list.md"
    other.write_text("Some header\n\nWe propose a network for the study of graphs, and we test it on three tasks.\n")
    assert detect_format(other) == "seed"  # seed text by its content, whatever its ending
    for name in ("list.bib", "list.parquet"):  # the ending decides, whatever the content
        (tmp_path / name).write_text('{"title": "not what the ending says"}\n')
        assert detect_format(tmp_path / name) == {"list.bib": "bibtex", "list.parquet": "parquet"}[name]
    for name in ("list.txt", "list"):  # not seed text: JSON, which its reader says what is wrong with
        (tmp_path / name).write_text('{"title": "not what the ending says"}\n')
        assert detect_format(tmp_path / name) == "openreview"


def test_a_forced_format_that_reads_nothing_names_the_records_of_both_rows(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps([{"id": "a1", "forum": "a1", "content": {"title": {"value": "A paper"}}}]))
    with pytest.raises(SourceError, match="no BibTeX entries; it looks like OpenReview notes — leave out --format"):
        read_source(path, "bibtex")
    with pytest.raises(SourceError, match="unknown format 'backup'; one of: openreview, papercopilot"):
        read_source(path, "backup")


def test_a_backup_is_read_by_its_row_whatever_format_says(tmp_path: Path) -> None:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(BACKUP))
    assert detect_format(path) == "backup"
    for format in (None, "csv", "openreview"):
        read = read_source(path, format)
        assert read.format == "backup" and read.papers == () and read.backup is not None
    summary = import_files(Store(tmp_path / "data"), [path], "bibtex")
    assert summary.files == () and [name for name, _ in summary.restored] == [str(path)]


def test_a_malformed_or_compressed_backup_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"paperdeck": "user-data backup", "schema": "one"}')
    with pytest.raises(BackupError, match="schema"):
        read_source(broken)
    packed = tmp_path / "backup.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(BACKUP).encode()))
    with pytest.raises(SourceError, match="compressed paperdeck user-data backup"):
        read_source(packed)


def test_the_help_lists_the_rows(capsys: pytest.CaptureFixture[str]) -> None:
    from paperdeck.cli.main import build_app_parser, main

    assert format_help() == "OpenReview, Paper Copilot, Parquet, BibTeX, arXiv Atom, CSV, Miniconf programme, seed text"
    assert format_help() in " ".join(build_app_parser().format_help().split())
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for row in FORMATS:
        assert f"{row.name}: {' '.join(row.help.split())}" in text
