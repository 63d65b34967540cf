"""Exports and derived titles: a title paperdeck derived from the abstract is never written as the
paper's own. The source's title is written when a source gave one; else the derived title, said
to be one (BibTeX ``note``, RIS ``N1``, CSL ``note``). And no BibTeX field holds TeX's ``^^``."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from bibtexparser.entrypoint import parse_string
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.export.bibtex import base_key, bibtex_entries
from paperdeck.export.csl import csl_items
from paperdeck.export.ris import ris_records
from paperdeck.export.titles import DERIVED_TITLE_NOTE, export_title
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store

from tests.helpers import run

DERIVED = Paper(id="abs:1", title="Calibrated agents", abstract="We study agents.", title_derived=True,
                venue="ICLR", year=2026)  # fmt: skip
GIVEN = Paper(id="openreview:G", title="$\\alpha$-DPO: Robust Preference Alignment", abstract="A.", venue="ICLR",
              year=2026, openreview_id="G")  # fmt: skip
#: A derived title, but the source's own entry names the paper's title (and must be generated
#: anew: ``\input`` is no macro an export copies).
OWN_ENTRY = "@misc{own, title = {{$\\alpha$-DPO: Robust Preference Alignment}}, note = {\\input{x}}}"
WITH_SOURCE = Paper(id="abs:2", title="Derived words", abstract="We align.", title_derived=True, venue="ICLR",
                    year=2026, decision="reject", bibtex=OWN_ENTRY)  # fmt: skip


def test_the_title_an_export_writes() -> None:
    assert export_title(GIVEN) == (GIVEN.title, False)
    assert export_title(DERIVED) == ("Calibrated agents", True)
    assert export_title(WITH_SOURCE) == ("$\\alpha$-DPO: Robust Preference Alignment", False)
    broken = Paper(id="abs:3", title="Derived", abstract="a", title_derived=True, bibtex="@misc{x, title = {unclosed")
    assert export_title(broken) == ("Derived", True)


def test_bibtex_says_a_title_is_derived_in_its_note() -> None:
    entries = {e.key: e for e in parse_string(bibtex_entries([DERIVED, GIVEN, WITH_SOURCE])).entries}
    derived, given, own = entries["anonymous2026calibrated"], entries["anonymous2026dpo"], entries["anonymous2026dpoa"]
    assert derived["title"] == "Calibrated agents" and derived["note"] == DERIVED_TITLE_NOTE
    assert "note" not in given.fields_dict
    assert own["title"] == "$\\alpha$-DPO: Robust Preference Alignment"
    assert own["note"] == "Submitted to ICLR 2026"  # the note is the decision's alone: the title is the source's


def test_a_derived_title_beside_a_decision_note_keeps_both() -> None:
    rejected = Paper(id="abs:4", title="Calibrated agents", abstract="a", title_derived=True, venue="ICLR",
                     year=2026, decision="reject", decision_raw="Reject")  # fmt: skip
    entry = parse_string(bibtex_entries([rejected])).entries[0]
    assert entry["note"] == f"{DERIVED_TITLE_NOTE}. Reject"


def test_ris_says_a_title_is_derived_in_an_n1_note() -> None:
    records = ris_records([DERIVED, GIVEN, WITH_SOURCE], {}).split("ER  - \r\n")
    assert f"N1  - {DERIVED_TITLE_NOTE}\r\n" in records[0]
    assert "N1  - " not in records[1] and "TI  - α-DPO: Robust Preference Alignment\r\n" in records[1]
    assert "N1  - " not in records[2] and "TI  - α-DPO: Robust Preference Alignment\r\n" in records[2]


def test_csl_says_a_title_is_derived_in_its_note() -> None:
    derived, given, own = csl_items([DERIVED, GIVEN, WITH_SOURCE], {})
    assert derived["note"].split("\n")[0] == DERIVED_TITLE_NOTE
    assert "note" not in given and given["title"] == "α-DPO: Robust Preference Alignment"
    assert own["title"] == "α-DPO: Robust Preference Alignment" and DERIVED_TITLE_NOTE not in own.get("note", "")


def test_the_key_comes_from_the_title_written() -> None:
    assert base_key(WITH_SOURCE) == "anonymous2026dpo"


def test_every_seed_paper_exported_says_its_title_is_derived(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    papers = Store(Path(data)).papers
    assert papers and all(p.title_derived for p in papers)  # abstracts alone: every title derived
    for format, marked in (("bibtex", "note = {" + DERIVED_TITLE_NOTE), ("ris", "N1  - " + DERIVED_TITLE_NOTE)):
        code, out, err = run(capsys, "export", "--format", format, "--data-dir", data)
        assert code == 0, err
        assert out.count(marked) == len(papers), format
    code, out, err = run(capsys, "export", "--format", "csl", "--data-dir", data)
    assert code == 0, err
    assert all(DERIVED_TITLE_NOTE in item["note"] for item in orjson.loads(out))


CARETS = "x ^^5c y $a^^5cb$ \\^^5c $\\^^5c$ ^^^^005c $^^^^$"


def test_no_bibtex_field_holds_teX_character_notation() -> None:
    paper = Paper(
        id="openreview:X", title="T " + CARETS, abstract="A " + CARETS, authors=("A ^^5c B",), keywords=("k^^5c",),
        venue="ICLR", year=2026, decision="reject", decision_raw="R ^^5c", doi="10.1/x^^5c", arxiv_id="2501.^^5c",
        openreview_url="https://openreview.net/forum?id=a^^5cb",
    )  # fmt: skip
    text = bibtex_entries([paper])
    assert "^^" not in text
    library = parse_string(text)
    assert not library.failed_blocks
    entry = library.entries[0]
    assert entry["url"] == "https://openreview.net/forum?id=a%5E%5E5cb" and entry["doi"] == "10.1/x%5E%5E5c"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab^5c\\{}%@,="\n #$&_~é'), max_size=40))
def test_any_link_or_identifier_reads_back_as_written_without_carets(value: str) -> None:
    paper = Paper(id="abs:1", title="T", abstract="", year=2026, doi=value, openreview_url="https://x.org/" + value)
    text = bibtex_entries([paper])
    assert "^" not in text  # the links are the only fields holding one
    library = parse_string(text)
    assert not library.failed_blocks and len(library.entries) == 1
    entry = library.entries[0]
    written = "".join(value.split()).replace("\\", "").replace("{", "%7B").replace("}", "%7D").replace("^", "%5E")
    assert entry["url"] == "https://x.org/" + written
    if written:
        assert entry["doi"] == written
