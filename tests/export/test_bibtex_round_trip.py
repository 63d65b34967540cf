"""paperdeck's own BibTeX export read back by ``paperdeck import`` keeps each paper's venue and
decision (a tester's find: a COLM entry came back as ``venue: 2025``, an under-review ``@misc``
as ``venue: 2026``, every poster, oral and spotlight as ``accept``). The fixtures are the cuts of
tests/data (their origin: tests/data/README.md): ICLR 2026 submissions under review and
withdrawn, ICLR 2018 of every decision (Paper Copilot and its OpenReview BibTeX), COLM 2025 and
NeurIPS 2018 posters and spotlights."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from paperdeck.export.bibtex import bibtex_entries
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import fixture

FILES = (
    "papercopilot_colm2025.json",
    "papercopilot_iclr2018.json",
    "papercopilot_nips2018.json",
    "iclr2026_submissions_reviewtracker.part1of3.jsonl",
    "iclr2018_openreview-bibtex_from-papercopilot.bib",
)


def _key(paper: Paper) -> str:
    """The paper's id: its OpenReview forum's, else the one made of its venue, year and title."""
    return paper.id


def test_the_bibtex_export_imported_again_keeps_every_venue_and_decision(tmp_path: Path) -> None:
    store = Store(tmp_path / "first")
    import_files(store, [fixture(name) for name in FILES])
    for paper in store.papers:
        store.set_star(paper.id, True)
    starred = [paper for paper in store.papers if store.user_data(paper.id).starred]
    kinds = Counter((paper.venue, paper.decision) for paper in starred)
    assert {venue for venue, _ in kinds} >= {"ICLR", "COLM", "NeurIPS"}
    assert {decision for _, decision in kinds} >= {"under-review", "withdrawn", "poster", "oral", "spotlight", "reject"}
    bib = tmp_path / "starred.bib"
    bib.write_text(bibtex_entries(starred), "utf-8")
    again = Store(tmp_path / "again")
    import_files(again, [bib])
    back = {_key(paper): paper for paper in again.papers}
    assert len(again.papers) == len(starred) == 227
    assert sorted(back) == sorted(_key(paper) for paper in starred)  # every paper found by its id
    lost = [
        (paper.title, paper.venue_label, paper.decision, read.venue_label, read.decision)
        for paper in starred
        if (read := back[_key(paper)]) and (read.venue_label, read.decision) != (paper.venue_label, paper.decision)
    ]
    assert lost == []
    # The title the reader gives back is the paper's: `\&`, `\textasciicircum{}`, `-{}-` read as the
    # text they stand for, the math kept; a source's own entry whose title reads otherwise (NeurIPS's
    # `\textbackslash ell\_1-regression`, OpenReview 2018's older titles) has it written from the paper.
    changed = [(p.title, back[_key(p)].title) for p in starred if back[_key(p)].title != " ".join(p.title.split())]
    assert changed == []
    generated = [paper for paper in starred if not paper.bibtex]
    assert len(generated) == 141
    assert [p.authors for p in generated] == [back[_key(p)].authors for p in generated]


def test_suffixed_names_come_back_as_the_names_they_were(tmp_path: Path) -> None:
    """The fifteenth round's second tester: the export writes ``Steele, Jr., Guy L.`` (BibTeX's
    ``von Last, Jr, First``) and the import split it on its commas into three authors."""
    names = ("Guy L. Steele Jr.", "Martin Luther King Jr.", "Hal Daumé III", "Jan van der Berg", "Donald E. Knuth")
    paper = Paper(id="abs:jr", title="Growing a Language", abstract="", authors=names, venue="ICLR", year=2026)
    bib = tmp_path / "suffixed.bib"
    bib.write_text(bibtex_entries([paper]), "utf-8")
    assert "Steele, Jr., Guy L. and King, Jr., Martin Luther and Daumé, III, Hal" in bib.read_text("utf-8")
    again = Store(tmp_path / "again")
    import_files(again, [bib])
    (back,) = again.papers
    assert back.authors == names


def test_a_hand_written_list_of_every_bibtex_name_form_reads_each_name_first_name_first() -> None:
    """``First von Last``, ``von Last, First``, ``von Last, Jr, First`` in one field; a field of
    one comma list (OpenReview's) is still a list of names."""
    from paperdeck.sources.bibtex import split_authors

    field = "Steele, Jr., Guy L. and Knuth, Donald E. and van der Berg, Jan and Jo\\~{a}o P. Costeira and others"
    assert split_authors(field) == ("Guy L. Steele Jr.", "Donald E. Knuth", "Jan van der Berg", "João P. Costeira")
    assert split_authors("Steele, Jr., Guy L.") == ("Guy L. Steele Jr.",)
    assert split_authors("Ann Smith, Bo Li, Cy Wu") == ("Ann Smith", "Bo Li", "Cy Wu")


#: Paper Copilot's COLM 2025 entry of a paper (tests/data/README.md: papercopilot_colm2025.json's
#: origin), whose title the list gives as ``Breaking the Data Barrier -- Building GUI Agents…``.
COLM_ENTRY = """@inproceedings{
zhang2025breaking,
title={Breaking the Data Barrier -- Building {GUI} Agents Through Task Generalization},
author={Junlei Zhang and Zichen Ding and Chang Ma and Zijie Chen and Qiushi Sun and Zhenzhong Lan and Junxian He},
booktitle={Second Conference on Language Modeling},
year={2025},
url={https://openreview.net/forum?id=QDtORaZt8K}
}"""


def _exported_and_back(tmp_path: Path, paper: Paper) -> Paper:
    bib = tmp_path / "one.bib"
    bib.write_text(bibtex_entries([paper]), "utf-8")
    again = Store(tmp_path / "back")
    import_files(again, [bib])
    (back,) = again.papers
    return back


def test_a_source_entry_whose_title_reads_otherwise_has_the_papers_title(tmp_path: Path) -> None:
    """The fifteenth round's second tester: the COLM paper exported as its source's entry came back
    with an en dash (BibTeX's ``--``) where its title has two hyphens."""
    title = "Breaking the Data Barrier -- Building GUI Agents Through Task Generalization"
    authors = ("Junlei Zhang", "Zichen Ding", "Chang Ma", "Zijie Chen", "Qiushi Sun", "Zhenzhong Lan", "Junxian He")
    paper = Paper(
        id="openreview:QDtORaZt8K", title=title, abstract="", authors=authors, venue="COLM", year=2025,
        openreview_id="QDtORaZt8K", bibtex=COLM_ENTRY,
    )  # fmt: skip
    text = bibtex_entries([paper])
    assert "zhang2025breaking," in text and "booktitle={Second Conference on Language Modeling}" in text
    assert "title={Breaking the Data Barrier -{}- Building GUI Agents Through Task Generalization}" in text
    assert _exported_and_back(tmp_path, paper).title == title
    same = replace(paper, title="Breaking the Data Barrier – Building GUI Agents Through Task Generalization")
    assert "{GUI}" in bibtex_entries([same])  # a title that reads back as it is: the entry as written


@pytest.mark.parametrize(
    ("field", "kept"),
    [('title = "Dashes -- Two Hyphens Apart"', False), ("title = {Dashes -- Two Hyphens} # { Apart}", True)],
)
def test_a_source_title_is_rewritten_only_as_one_braced_or_quoted_value(field: str, kept: bool) -> None:
    """A quoted title is written in braces from the paper; a ``#`` concatenation is left as it is."""
    entry = "@article{k,\n  booktitle = {Dashes -- Two Hyphens Apart},\n  " + field + ",\n  year = 2020\n}"
    paper = Paper(id="abs:k", title="Dashes -- Two Hyphens Apart", abstract="", year=2020, bibtex=entry)
    text = bibtex_entries([paper])
    assert text.startswith("@article{k,") and "booktitle = {Dashes -- Two Hyphens Apart}" in text, text
    assert (field in text) is kept and ("title = {Dashes -{}- Two Hyphens Apart}" in text) is not kept


def test_a_title_holding_braces_comes_back_with_them(tmp_path: Path) -> None:
    """The fifteenth round's second tester: a title with ``{braces}`` (shown as braces by the app)
    was exported as a BibTeX group and came back as ``braces``. A macro's argument stays a group."""
    title = r"Learning {braces} in {GUI {Agents}}: \emph{Why} $\mathcal{O}(n)$ and MEGS^{2}"
    paper = Paper(id="abs:b", title=title, abstract="An {abstract} too.", venue="ICLR", year=2026)
    text = bibtex_entries([paper])
    assert r"\textbraceleft{}braces\textbraceright{}" in text and r"\emph{Why} $\mathcal{O}(n)$" in text
    back = _exported_and_back(tmp_path, paper)
    assert (back.title, back.abstract) == (title, "An {abstract} too.")
