"""One rule for every input format (:func:`paperdeck.sources.read_source`): a file that yields
nothing to import, or is not the format ``--format`` states, is refused in one line naming the
file (and its first bad record), exit status 2, nothing changed; a file with some bad records
imports the good ones and says how many were skipped (exit status 0).

The inputs are made at test time from the cut fixtures in ``tests/data`` (their origin is in
``tests/data/README.md``): each format's real records, or those records with their titles taken
out, or a file of another format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, run

BIB = FIXTURES / "iclr2018_openreview-bibtex_from-papercopilot.bib"
COPILOT = FIXTURES / "papercopilot_iclr2017.json"
FLAT = FIXTURES / "iclr2026_accepted_safety-subset_openreview-flat.jsonl"
TSV = FIXTURES / "iclr2023_submissions_number_title.tsv"
ATOM = FIXTURES / "arxiv_atom_2025-11_electron-proton_10.xml"
ATOM_EMPTY = FIXTURES / "arxiv_atom_2025-11_empty-result.xml"


def _untitled_bib(tmp_path: Path, keep_first: bool = False) -> Path:
    """The BibTeX cut's first three entries, each without its title (the first kept whole when
    ``keep_first``)."""
    entries = BIB.read_text("utf-8").split("\n@")[:3]
    entries = [entries[0], *("@" + entry for entry in entries[1:])]
    cut = [entry if keep_first and i == 0 else re.sub(r"(?m)^\s*title\s*=.*$", "", entry)
           for i, entry in enumerate(entries)]  # fmt: skip
    path = tmp_path / ("some-untitled.bib" if keep_first else "untitled.bib")
    path.write_text("\n".join(cut) + "\n", "utf-8")
    return path


def _untitled_copilot(tmp_path: Path) -> Path:
    records = json.loads(COPILOT.read_text("utf-8"))[:3]
    path = tmp_path / "papercopilot_iclr2017.json"
    path.write_text(json.dumps([{**record, "title": ""} for record in records]), "utf-8")
    return path


def _untitled_flat(tmp_path: Path) -> Path:
    lines = FLAT.read_text("utf-8").splitlines()[:3]
    records = [json.loads(line) for line in lines]
    for record in records:
        record.pop("title", None)
        if isinstance(record.get("content"), dict):
            record["content"].pop("title", None)
    path = tmp_path / "flat.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    return path


def _untitled_tsv(tmp_path: Path) -> Path:
    numbers = [line.split("\t")[0] for line in TSV.read_text("utf-8").splitlines()[1:4]]
    path = tmp_path / "iclr2023_submissions.tsv"
    path.write_text("number\ttitle\n" + "".join(f"{n}\t\n" for n in numbers), "utf-8")
    return path


def _garbage_bib(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.bib"
    path.write_text("these are notes, not BibTeX\n", "utf-8")
    return path


def _empty_array(tmp_path: Path) -> Path:
    path = tmp_path / "empty.json"
    path.write_text("[]", "utf-8")
    return path


MAKERS = {
    "garbage bibtex": _garbage_bib,
    "bibtex without titles": _untitled_bib,
    "paper copilot without titles": _untitled_copilot,
    "openreview without titles": _untitled_flat,
    "tsv without titles": _untitled_tsv,
    "empty json array": _empty_array,
    "arxiv with no entry": lambda _tmp: ATOM_EMPTY,
}


@pytest.mark.parametrize("kind", MAKERS)
def test_a_file_that_yields_no_paper_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = MAKERS[kind](tmp_path)
    store = tmp_path / "data"
    code, out, err = run(capsys, "import", str(path), "--data-dir", str(store))
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert line.startswith(f"paperdeck: {path}: no ") and line.endswith("; nothing was imported"), line
    assert not store.exists(), "a refused import makes no store"


def test_a_refusal_names_the_first_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _untitled_tsv(tmp_path)
    code, _out, err = run(capsys, "import", str(path), "--data-dir", str(tmp_path / "data"))
    assert code == 2
    assert "no CSV rows in this file (3 records skipped; the first, line 2: no title)" in err


def test_a_refused_file_in_a_batch_imports_none_of_the_batch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "data")
    assert run(capsys, "import", str(ATOM), "--data-dir", store)[0] == 0
    before = run(capsys, "list", "--json", "--data-dir", store)[1]
    code, _out, err = run(capsys, "import", str(TSV), str(_garbage_bib(tmp_path)), "--data-dir", store)
    assert code == 2 and len(err.splitlines()) == 1
    assert run(capsys, "list", "--json", "--data-dir", store)[1] == before


@pytest.mark.parametrize(
    ("path", "format", "looks_like"),
    [
        (COPILOT, "bibtex", "Paper Copilot records"),
        (BIB, "papercopilot", "BibTeX entries"),
        (ATOM, "seed", "arXiv Atom entries"),
    ],
)
def test_a_file_not_of_the_stated_format_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path, format: str, looks_like: str
) -> None:
    store = tmp_path / "data"
    code, out, err = run(capsys, "import", "--format", format, str(path), "--data-dir", str(store))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"paperdeck: {path}: no ") and f"it looks like {looks_like}" in err
    assert not store.exists()


def test_some_bad_records_import_the_good_ones_and_say_how_many_were_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _untitled_bib(tmp_path, keep_first=True)
    code, out, err = run(capsys, "import", str(path), "--data-dir", str(tmp_path / "data"))
    assert code == 0 and err == ""
    name = path.name
    assert "1 paper (bibtex)" in out and f"2 skipped (2 records without a title: {name} line 10, {name} line 19)" in out
