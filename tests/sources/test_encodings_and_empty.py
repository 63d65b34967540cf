"""A UTF-16 file is read as what it is (with a byte-order mark), or refused in one line saying it
is UTF-16 (without one); an empty file is refused in one line, exit 2, nothing changed."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import read_source

from tests.helpers import run

TSV = "number\ttitle\n1\tSparse Experts Prune Themselves\n2\tA Rényi View of Privacy\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_a_table_reads_the_same_in_every_encoding(tmp_path: Path, encoding: str) -> None:
    plain = read_source(_write(tmp_path / "iclr2023_plain.tsv", TSV.encode("utf-8")))
    data = TSV.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + TSV).encode(encoding)  # the byte-order mark a UTF-16 file carries
    read = read_source(_write(tmp_path / "iclr2023_other.tsv", data))
    assert read.format == plain.format == "csv"
    assert [(p.id, p.title) for p in read.papers] == [(p.id, p.title) for p in plain.papers]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_refused_in_one_line(tmp_path: Path, encoding: str) -> None:
    path = _write(tmp_path / "iclr2023.tsv", TSV.encode(encoding))
    with pytest.raises(SourceError, match=r"UTF-16.*save it as UTF-8") as caught:
        read_source(path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("empty.jsonl", b""),
        ("blank.csv", b"\n  \r\n\t\n"),
        ("bom.tsv", "\ufeff".encode("utf-16")),
        ("empty.jsonl.gz", gzip.compress(b"", mtime=0)),
        ("empty.txt", b""),
    ],
)
def test_an_empty_file_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes
) -> None:
    good = _write(tmp_path / "iclr2023_plain.tsv", TSV.encode())
    empty = _write(tmp_path / name, data)
    store = str(tmp_path / "data")
    code, out, err = run(capsys, "import", str(good), str(empty), "--data-dir", store)
    assert code == 2 and out == ""
    said = f"paperdeck: {empty}: no papers in this file (it is empty); nothing was imported"
    assert err.strip().splitlines() == [said]
    code, out, err = run(capsys, "list", "--data-dir", store)
    assert code != 0 or "Sparse" not in out, "nothing of the batch was imported"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
