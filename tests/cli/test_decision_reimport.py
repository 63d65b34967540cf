"""A new user's CSV of bare decisions (``title,decision`` / ``Accept``): imported, starred and
imported again with a decision changed, it stays one paper per row, of no venue, the star on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run

ROWS = "title,decision\nPaper one about graphs,Accept\nPaper two about kernels,Reject\nPaper three,Poster\n"


def _papers(capsys: pytest.CaptureFixture[str], data: str) -> list[dict[str, object]]:
    code, out, _ = run(capsys, "--data-dir", data, "list", "--json")
    assert code == 0
    return list(json.loads(out))


def test_a_reimport_with_a_changed_decision_updates_the_starred_paper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, first, second = str(tmp_path / "data"), tmp_path / "s.csv", tmp_path / "s2.csv"
    first.write_text(ROWS, encoding="utf-8")
    second.write_text(ROWS.replace("graphs,Accept", "graphs,Reject"), encoding="utf-8")
    assert run(capsys, "--data-dir", data, "import", str(first))[0] == 0
    papers = _papers(capsys, data)
    assert {p["venue"] for p in papers} == {""}
    one = next(p["id"] for p in papers if p["title"] == "Paper one about graphs")
    assert run(capsys, "--data-dir", data, "star", str(one))[0] == 0

    code, out, _ = run(capsys, "--data-dir", data, "import", str(second))
    assert code == 0 and "0 new, 1 updated" in out

    papers = _papers(capsys, data)
    assert len(papers) == 3
    (again,) = (p for p in papers if p["title"] == "Paper one about graphs")
    assert (again["id"], again["decision"], again["starred"]) == (one, "reject", True)
