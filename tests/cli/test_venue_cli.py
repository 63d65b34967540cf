"""``--venue`` on the commands that select papers: search, list, export and similar keep the
papers of the venues named (any case), and a venue the store does not hold is one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.helpers import fixture, run

COLM = fixture("papercopilot_colm2025.json")  # 8 COLM 2025 posters, cut from Paper Copilot's list


@pytest.fixture
def store_dir(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    """The ICLR 2026 seeds (37 papers) and 8 COLM 2025 papers."""
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", *map(str, seed_files), str(COLM), "--data-dir", data)
    assert code == 0, err
    return data


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    records = json.loads(out)
    assert isinstance(records, list)
    return records


def test_list_and_search_keep_the_venues_named(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    every = _json(capsys, "list", "--data-dir", store_dir)
    assert len(every) == 45
    colm = _json(capsys, "list", "--venue", "colm 2025", "--data-dir", store_dir)
    assert len(colm) == 8 and {(r["venue"], r["year"]) for r in colm} == {("COLM", 2025)}
    both = _json(capsys, "list", "--venue", "COLM 2025", "--venue", "ICLR  2026", "--data-dir", store_dir)
    assert len(both) == 45
    found = _json(capsys, "search", "agents", "--limit", "0", "--data-dir", store_dir)
    in_colm = _json(capsys, "search", "agents", "--limit", "0", "--venue", "COLM 2025", "--data-dir", store_dir)
    assert in_colm and len(in_colm) < len(found)
    assert [r["id"] for r in in_colm] == [r["id"] for r in found if r["venue"] == "COLM"]


def test_export_and_similar_keep_the_venues_named(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "export", "--format", "csv", "--venue", "ICLR 2026", "--data-dir", store_dir)
    assert code == 0, err
    assert len(list(csv.DictReader(io.StringIO(out)))) == 37
    colm = _json(capsys, "list", "--venue", "COLM 2025", "--data-dir", store_dir)
    first = str(colm[0]["id"])
    similar = _json(capsys, "similar", first, "--limit", "3", "--venue", "ICLR 2026", "--data-dir", store_dir)
    assert similar and len(similar) <= 3 and {r["venue"] for r in similar} == {"ICLR"}


def test_a_venue_not_in_the_store_is_one_line(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--venue", "NeurIPS 2018", "--data-dir", store_dir)
    assert code != 0 and not out
    assert err.count("\n") == 1 and "NeurIPS 2018" in err and "'COLM 2025'" in err and "'ICLR 2026'" in err
