"""paperdeck's own BibTeX export read back by ``paperdeck import`` keeps each paper's venue and
decision (a tester's find: a COLM entry came back as ``venue: 2025``, an under-review ``@misc``
as ``venue: 2026``, every poster, oral and spotlight as ``accept``). The fixtures are the cuts of
tests/data (their origin: tests/data/README.md): ICLR 2026 submissions under review and
withdrawn, ICLR 2018 of every decision (Paper Copilot and its OpenReview BibTeX), COLM 2025 and
NeurIPS 2018 posters and spotlights."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bibtexparser.entrypoint import parse_string
from paperdeck.export.bibtex import bibtex_entries
from paperdeck.model.paper import Paper
from paperdeck.sources.bibtex import strip_braces
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
    # The title (and the authors) the reader gives back are the paper's: `\&`, `\textasciicircum{}`,
    # `-{}-` read as the text they stand for, the math kept. A paper exported as its source's own
    # entry may come back with that entry's title as the reader reads it (NeurIPS's own entry writes
    # `\textbackslash ell\_1-regression`; OpenReview's 2018 entries have older titles).
    titles = [(p.title, back[_key(p)].title) for p in starred if back[_key(p)].title not in _titles(p)]
    assert titles == []
    generated = [paper for paper in starred if not paper.bibtex]
    assert len(generated) == 141
    assert [p.authors for p in generated] == [back[_key(p)].authors for p in generated]


def _titles(paper: Paper) -> tuple[str, ...]:
    """The titles an exported paper may be read back with: its own, white space collapsed as
    BibTeX does, or (exported as its source's entry) that entry's."""
    own = " ".join(paper.title.split())
    return (
        (own, *(strip_braces(entry["title"]) for entry in parse_string(paper.bibtex).entries))
        if paper.bibtex
        else (own,)
    )


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
