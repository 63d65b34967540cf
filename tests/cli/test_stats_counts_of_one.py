"""A count of one takes the singular in ``paperdeck stats`` and the statistics charts
(:func:`paperdeck.model.counts.counted`): the thirteenth round's tester saw ``1 papers``,
``1 reviewed papers, 1 reviews; 1 notes stored``, ``Every review's rating · 1 reviews``,
``Reviews per paper · 1 rated papers``, ``none of these 1 reviews``, ``My progress · 1 papers``
and ``the only one of these 1`` in a store of one paper with one review."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from paperdeck.stats.charts import _standing
from paperdeck.stats.figures import Place

from tests.helpers import fixture, run

PLURAL_OF_ONE = re.compile(r"\b1 (papers|reviews|reviewed papers|rated papers|notes)\b")


def test_stats_of_a_store_of_one_paper_with_one_review_say_each_count_of_one_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(fixture("papercopilot_colm2025.json").read_text("utf-8"))[0]
    record["rating"], record["confidence"], record["reviewers"] = "6", "4", "osWr"
    path = tmp_path / "papercopilot_colm2025.json"
    path.write_text(json.dumps([record]), "utf-8")
    data_dir = str(tmp_path / "data")
    assert run(capsys, "import", str(path), "--data-dir", data_dir)[0] == 0
    code, out, err = run(capsys, "stats", "--data-dir", data_dir)
    assert code == 0, err
    assert PLURAL_OF_ONE.findall(out) == [], out
    assert out.startswith("1 paper, 0 starred, 0 with notes")
    assert "reviews: 1 reviewed paper, 1 review; 1 note stored in all (" in out
    assert "Every review's rating · 1 review · mean 6.0" in out and "Reviews per paper · 1 rated paper" in out
    assert "My progress · 1 paper ·" in out
    assert "No rating history: this review has no earlier rating. Its source" in " ".join(out.split())


def test_the_only_rated_paper_is_said_to_be_the_only_one_rated() -> None:
    assert _standing(Place(6.0, 0, 0, 100.0, 1.0), 1) == "the only paper rated"
    assert _standing(Place(6.0, 0, 0, 100.0, 1.0, "COLM 2025"), 1) == "the only paper rated in COLM 2025"
