"""A BibTeX author list cut short, ``and others`` (tester round 16: imported as the names alone,
``Jane Doe, Hans Müller``, and exported ``{Jane Doe and Hans Müller}``, the "et al." lost): kept
marked (:attr:`Paper.authors_more`), shown ``… et al.``, exported back ``and others``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from paperdeck.export.bibtex import bibtex_entries
from paperdeck.export.formats import export_papers
from paperdeck.model.paper import Paper, UserData, authors_line
from paperdeck.sources.bibtex import lists_others
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

ENTRY = """@inproceedings{doe2026,
  title = {A Paper With Many Authors},
  author = {Doe, Jane and M{\\"u}ller, Hans and others},
  booktitle = {ICLR},
  year = {2026}
}
"""


def _imported(tmp_path: Path, text: str, name: str) -> Paper:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    store = Store(tmp_path / name.replace(".", "-"))
    import_files(store, [path])
    (paper,) = store.papers
    return paper


def test_and_others_is_read_as_a_list_cut_short() -> None:
    assert lists_others('Doe, Jane and M{\\"u}ller, Hans and others')
    assert lists_others("Jane Doe AND  Others")
    assert not lists_others("Jane Doe and Hans Müller")
    assert not lists_others("{Smith and others}")  # one name, braced
    assert not lists_others("others")  # no name before it


def test_a_list_cut_short_is_kept_shown_et_al_and_exported_with_and_others(tmp_path: Path) -> None:
    paper = _imported(tmp_path, ENTRY, "source.bib")
    assert paper.authors == ("Jane Doe", "Hans Müller") and paper.authors_more
    assert authors_line(paper) == "Jane Doe, Hans Müller … et al."
    assert "Jane Doe, Hans Müller … et al." in export_papers([paper], {paper.id: UserData(paper.id)}, "markdown")
    generated = bibtex_entries([replace(paper, bibtex="")])  # an entry made from the paper
    assert "and others}" in generated, generated
    again = _imported(tmp_path, generated, "again.bib")
    assert again.authors == paper.authors and again.authors_more
    kept = bibtex_entries([paper])  # the source's own entry, as written
    assert "and others}" in kept and _imported(tmp_path, kept, "kept.bib").authors_more


def test_a_source_entry_without_others_is_rewritten_for_a_list_cut_short(tmp_path: Path) -> None:
    paper = _imported(tmp_path, ENTRY.replace(" and others", ""), "whole.bib")
    assert not paper.authors_more and authors_line(paper) == "Jane Doe, Hans Müller"
    cut_short = replace(paper, authors_more=True)  # another source said the list is cut short
    assert "and others}" in bibtex_entries([cut_short])


def test_a_merge_takes_the_mark_with_the_list_it_takes() -> None:
    from paperdeck.store.merge import combine

    bare = Paper(id="title:iclr-2026:x", title="T", abstract="", venue="ICLR", year=2026)
    cut_short = replace(bare, authors=("Jane Doe",), authors_more=True, sources=("a.bib",))
    assert combine(bare, cut_short).authors_more
    assert combine(cut_short, bare).authors_more  # nothing taken: kept


def test_the_mark_is_read_back_from_the_catalogue_file(tmp_path: Path) -> None:
    _imported(tmp_path, ENTRY, "source.bib")
    store = Store(tmp_path / "source-bib", lazy=True, lean=True)  # as the app opens it: papers read lean
    store.load()
    (paper,) = store.papers
    assert paper.authors_more and authors_line(paper) == "Jane Doe, Hans Müller … et al."
    assert store.paper(paper.id).authors_more
