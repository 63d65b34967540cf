"""A paper first seen in an import is *new*, never *changed*: the reviews, ratings and decision it
came with are how the import found it. And a change's date is the source's where the source has
one, else said to be the import's ("imported 2026-12-06"), never shown as the source's.

The inputs are the cut of ``papercopilot_iclr2017.json`` (per-review ratings, no review dates)
and of ``papercopilot_colm2025.json`` in ``tests/data``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.changes import PaperChange, ScoreChange
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import fixture, run

ICLR2017 = "papercopilot_iclr2017.json"
COLM2025 = "papercopilot_colm2025.json"


def _first_half(tmp_path: Path) -> Path:
    records = json.loads(fixture(ICLR2017).read_text("utf-8"))
    path = tmp_path / "half" / ICLR2017
    path.parent.mkdir()
    path.write_text(json.dumps(records[: len(records) // 2]), "utf-8")
    return path


def test_the_papers_an_import_adds_are_new_not_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    assert run(capsys, "import", str(_first_half(tmp_path)), "--data-dir", data)[0] == 0
    assert run(capsys, "import", str(fixture(ICLR2017)), "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "changes", "--json", "--data-dir", data)
    papers = json.loads(out)["papers"]
    assert code == 0 and len(papers) == 4
    assert all(p["kinds"] == ["new"] and not p["scores"] and not p["reviews_added"] for p in papers), papers
    code, out, _ = run(capsys, "changes", "--data-dir", data)
    said = [line.strip() for line in out.splitlines() if line.startswith("      ")]  # what changed, per paper
    assert said == ["new paper"] * 4
    assert out.rstrip().endswith("4 new papers; • not opened since")


def test_a_conference_first_imported_beside_another_records_no_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(ICLR2017)])
    import_files(store, [fixture(COLM2025)])
    colm = {p.id for p in store.papers if p.venue == "COLM"}
    assert colm and not colm & set(store.changes_by_paper())


def test_a_rating_dated_by_the_import_says_so() -> None:
    at = "2026-12-06T15:00:00+00:00"
    at_ms = 1_796_569_200_000  # at, in milliseconds
    imported = ScoreChange("r1", "AnonReviewer1", "rating", None, 5.0, 0, at_ms - 2_000)
    dated = ScoreChange("r2", "AnonReviewer2", "rating", 4.0, 6.0, 1_763_769_600_000, 1_764_374_400_000)
    lines = PaperChange(at, "openreview:x", scores=(imported, dated)).lines()
    assert lines == ["rating: AnonReviewer1 – → 5, imported 2026-12-06; AnonReviewer2 4 → 6, 2025-11-22 → 11-29"]
