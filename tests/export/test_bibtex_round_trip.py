"""paperdeck's own BibTeX export read back by ``paperdeck import`` keeps each paper's venue and
decision (a tester's find: a COLM entry came back as ``venue: 2025``, an under-review ``@misc``
as ``venue: 2026``, every poster, oral and spotlight as ``accept``). The fixtures are the cuts of
tests/data (their origin: tests/data/README.md): ICLR 2026 submissions under review and
withdrawn, ICLR 2018 of every decision (Paper Copilot and its OpenReview BibTeX), COLM 2025 and
NeurIPS 2018 posters and spotlights."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

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
    return paper.openreview_id or paper.title


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
    assert len(again.papers) == len(starred)
    lost = [
        (paper.title, paper.venue_label, paper.decision, read.venue_label, read.decision)
        for paper in starred
        if (read := back.get(_key(paper))) is not None
        and (read.venue_label, read.decision) != (paper.venue_label, paper.decision)
    ]
    assert lost == []
    # four found by a title written with LaTeX escapes (`\&`, `$\\ell_1$`, two spaces): not compared here
    assert sum(_key(paper) in back for paper in starred) >= len(starred) - 4
