"""A decision is never a venue: a CSV whose decision column holds bare words (``Accept``,
``Poster``, ``Accept (Oral)``) gives papers of no venue, whose ids do not change with their
decision; a decision that names its venue (``ICLR 2026 Poster``) still gives it."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.decision import bare_decision
from paperdeck.sources import csv_table
from paperdeck.sources.common import venue_from_decision, venue_from_text
from paperdeck.sources.papercopilot import venue_year


def _csv(tmp_path: Path, rows: str, header: str = "title,decision", name: str = "s.csv") -> Path:
    path = tmp_path / name
    path.write_text(f"{header}\n{rows}", encoding="utf-8")
    return path


@pytest.mark.parametrize("text", ["Accept", "Reject", "Poster", "Oral", "Accept (Oral)", "Desk Reject", "Withdrawn"])
def test_a_decision_written_alone_names_no_venue(text: str) -> None:
    assert bare_decision(text)
    assert venue_from_decision(text) == "" and venue_from_text(text) == ""
    assert venue_from_decision(f"{text} 2024") == ""


@pytest.mark.parametrize(
    ("text", "venue"),
    [("ICLR 2026 Poster", "ICLR"), ("NeurIPS", "NeurIPS"), ("FOO 2024 Oral", "FOO"), ("Oral at ICML", "ICML")],
)
def test_a_decision_naming_its_venue_gives_it(text: str, venue: str) -> None:
    assert not bare_decision(text) and venue_from_decision(text) == venue


def test_a_bare_word_in_a_decision_is_no_venue_but_in_a_conference_column_it_is() -> None:
    assert venue_from_decision("Foo") == "" and venue_from_text("Foo") == "Foo"


def test_bare_decisions_give_papers_of_no_venue_whose_ids_keep_through_a_new_decision(tmp_path: Path) -> None:
    rows = "Paper one about graphs,Accept\nPaper two about kernels,Reject\nPaper three,Poster\n"
    rows += "Paper four,Accept (Oral)\n"
    first = csv_table.read(_csv(tmp_path, rows)).papers
    assert [(p.venue, p.decision) for p in first] == [("", "accept"), ("", "reject"), ("", "poster"), ("", "oral")]
    assert all(p.id.startswith("title:unknown-unknown:") for p in first)
    changed = rows.replace("graphs,Accept", "graphs,Reject").replace("Paper three,Poster", "Paper three,Oral")
    second = csv_table.read(_csv(tmp_path, changed, name="s2.csv")).papers
    assert [p.id for p in second] == [p.id for p in first]
    assert (second[0].decision, second[2].decision) == ("reject", "oral")


def test_the_file_names_venue_stands_when_the_decision_names_none(tmp_path: Path) -> None:
    papers = csv_table.read(_csv(tmp_path, "Paper one about graphs,Accept\n", name="iclr2025_list.csv")).papers
    assert [(p.venue_label, p.decision) for p in papers] == [("ICLR 2025", "accept")]


def test_a_venue_column_of_decision_words_gives_no_venue(tmp_path: Path) -> None:
    papers = csv_table.read(_csv(tmp_path, "Paper one about graphs,Poster\n", header="title,venue")).papers
    assert [(p.venue, p.decision) for p in papers] == [("", "poster")]


def test_a_copilot_status_of_a_decision_and_a_year_names_no_venue(tmp_path: Path) -> None:
    assert venue_year(tmp_path / "list.json", [{"status": "Poster 2026"}]) == ("", None)
    assert venue_year(tmp_path / "list.json", [{"status": "ICLR 2026 Poster"}]) == ("ICLR", 2026)


def test_an_openreview_venue_of_a_decision_and_a_year_names_no_venue() -> None:
    from paperdeck.sources.openreview import _venue_year

    assert _venue_year("", "", "", "Poster 2026") == ("", None)
    assert _venue_year("", "", "", "ICLR 2026 Poster") == ("ICLR", 2026)
