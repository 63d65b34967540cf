"""A table saved by Excel on Windows (`tests/data/iclr2025_…_excel-cp1252-semicolon.csv`: real
ICLR 2025 rows in Windows-1252, ``;`` between cells, CRLF) is imported, read as Windows-1252 (a
file with one of the five bytes Windows-1252 leaves unmapped, as Latin-1), and the import says so
once, naming the file; UTF-8 says nothing; binary bytes are still refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources.decode import LATIN_1, WINDOWS_1252
from paperdeck.sources.importer import import_files, read_files
from paperdeck.store.store import Store

from tests.helpers import fixture

EXCEL = fixture("iclr2025_title_authors_affiliations_decision_excel-cp1252-semicolon.csv")


def test_an_excel_csv_in_windows_1252_with_semicolons_is_imported_and_said_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    summary = import_files(store, [EXCEL])
    assert summary.notices == (f"{EXCEL}: {WINDOWS_1252}",)
    titles = {paper.title: paper for paper in store.papers}
    assert len(titles) == 8
    # Windows-1252's own characters (0x92 ’, 0x96 –) and Latin-1's (ü) read as written
    assert "Beyond Standardization – Putting the Normality in Normalization" in titles
    parkinson = next(paper for title, paper in titles.items() if title.startswith("GeneMamba"))
    assert "Parkinson’s" in parkinson.title
    traffic = next(paper for title, paper in titles.items() if title.startswith("Large-Scale Multi-Agent"))
    assert traffic.authors[-1] == "Magnus Müller" and traffic.library_venue == "ICLR 2025"
    assert titles["Self-supervised contrastive learning performs non-linear system identification"].decision == "poster"


def test_the_same_rows_in_utf_8_say_nothing(tmp_path: Path) -> None:
    path = tmp_path / EXCEL.name
    path.write_text(EXCEL.read_bytes().decode("cp1252"), encoding="utf-8", newline="")
    (read,) = read_files([path])
    assert read.notice is None and len(read.papers) == 8


def test_a_byte_windows_1252_leaves_unmapped_reads_the_file_as_latin_1(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    latin = "title;authors\r\nCaf\u00e9 and R\u00e9nyi;A. B\u00f6hm\r\n".encode("latin-1")
    path.write_bytes(latin + b"Odd \x81 byte;C. D\r\n")
    (read,) = read_files([path])
    assert read.notice == f"{path}: {LATIN_1}"
    assert [paper.title for paper in read.papers] == ["Café and Rényi", "Odd \x81 byte"]
    assert read.papers[0].authors == ("A. Böhm",)


def test_binary_bytes_are_still_refused_in_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_bytes(b"title;authors\r\n" + bytes(range(0x80, 0x100)) * 4 + b"\x01\x02\x03\x04\x05\x06" * 20)
    with pytest.raises(SourceError) as refused:
        read_files([path])
    assert str(refused.value) == f"{path}:2: not a text file (too many control characters)"
