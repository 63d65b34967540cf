"""A CSV's ``venue`` column is the paper's venue, not its decision as written.

The sixteenth round (left16): the reader's column table listed ``venue`` among the decision's
headers (last) as well as the conference's, so ``iclr2026_accepted_optimization-area_with-llm-notes.csv``'s
``venue`` cells (``ICLR 2026 Poster``) were kept as each paper's decision as written, and the detail
pane said ``Decision as written: ICLR 2026 Poster`` under every paper of the file. A ``venue``
column is the venue now; when no column names the decision, the decision is read from it (as
OpenReview's venue strings say it: poster, oral), and nothing is kept as a decision as written.
A file with a decision column keeps its decision's text as before.

The fixture is tests/data's cut of ``data/iclr2026_accepted_optimization-area_with-llm-notes.csv``
(its header and first 12 rows, as raw text: tests/data/README.md gives its origin,
``alickzhu/iclr2026-papers``, ``iclr_paper/primary_area__optimization.csv``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from paperdeck.model.paper import UserData
from paperdeck.sources import csv_table
from paperdeck.ui.widgets.detail_content import detail_content

from tests.shared_slices import OPTIMISATION_CSV


def test_a_venue_column_is_the_venue_and_its_decision_none_written() -> None:
    papers = csv_table.read(OPTIMISATION_CSV).papers
    assert len(papers) == 12
    assert Counter((paper.venue_label, paper.decision) for paper in papers) == {
        ("ICLR 2026", "poster"): 9,
        ("ICLR 2026", "oral"): 3,
    }
    assert all(paper.decision_raw == "" for paper in papers)
    assert papers[0].id == "openreview:VaS6xcDrTb"  # the ids as before


def test_the_detail_pane_names_no_venue_a_decision_as_written() -> None:
    paper = csv_table.read(OPTIMISATION_CSV).papers[0]
    shown = detail_content(paper, UserData(paper.id)).plain
    assert "Decision as written" not in shown
    assert "ICLR 2026" in shown and "Poster" in shown


def test_a_decision_column_beside_a_venue_column_is_the_decision_as_written(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("title,venue,decision\nA paper,ICLR 2026,Accept (Oral)\nAnother,ICLR 2026 Poster,\n")
    first, second = csv_table.read(path).papers
    assert (first.venue_label, first.decision, first.decision_raw) == ("ICLR 2026", "oral", "Accept (Oral)")
    shown = detail_content(first, UserData(first.id)).plain
    assert "Decision as written: Accept (Oral)" in shown
    assert (second.venue_label, second.decision_raw) == ("ICLR 2026", "")  # no decision in its row
