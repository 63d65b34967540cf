"""``paperdeck reviews ID`` and ``show ID`` say how a paper's reviews moved: each review's path
(rating, confidence and sub-scores, with the days), the paper's mean then and now; ``reviews ID
--json`` gives each review its ``history``, oldest first."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ReviewSample, run

DAY = 86_400_000


def _day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d")


@pytest.fixture
def moved(tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A store of the sample where one review went from its rating to another, its confidence
    too, nine days later; returns the data dir, the note as first seen and the new scores."""
    notes = review_sample.notes()
    first = next(n for n in notes if n["invitations"][0].endswith("/-/Official_Review"))
    later = json.loads(json.dumps(first))
    old_rating, old_confidence = first["content"]["rating"]["value"], first["content"]["confidence"]["value"]
    new_rating = 8 if old_rating != 8 else 2
    new_confidence = 5 if old_confidence != 5 else 1
    later["content"]["rating"]["value"] = new_rating
    later["content"]["confidence"]["value"] = new_confidence
    later["tmdate"] = first["tmdate"] + 9 * DAY
    extra = tmp_path / "later.json"
    extra.write_text(json.dumps([later]))
    data = str(tmp_path / "data")
    code, _, err = run(
        capsys, "import", str(review_sample.papers_file), str(review_sample.notes_file), "--data-dir", data
    )
    assert code == 0, err
    code, out, err = run(capsys, "import", str(extra), "--data-dir", data, "--json")
    assert code == 0, err
    assert json.loads(out)["reviews"]["versions"] == 1
    return {"data": data, "first": first, "later": later, "rating": (old_rating, new_rating),
            "confidence": (old_confidence, new_confidence)}  # fmt: skip


def test_reviews_shows_each_reviews_path_with_days_and_the_mean_then_and_now(
    moved: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    first, later = moved["first"], moved["later"]
    code, out, err = run(capsys, "reviews", first["forum"], "--data-dir", moved["data"])
    assert code == 0, err
    (old, new), (old_c, new_c) = moved["rating"], moved["confidence"]
    days = f"({_day(first['tmdate'])} → {_day(later['tmdate'])[5:]})"
    assert f"moved: rating {old} → {new} {days}; confidence {old_c} → {new_c} {days}" in out
    data = json.loads(run(capsys, "reviews", first["forum"], "--data-dir", moved["data"], "--json")[1])
    summary = data["summary"]
    arrow = "↑" if summary["rating_delta"] > 0 else "↓"
    assert f"rating then and now: {summary['rating_initial']:.1f} {arrow}{summary['mean']:.1f} (1 of " in out
    (review,) = [r for r in data["reviews"] if r["id"] == first["id"]]
    assert [(v["time"], v["scores"]["rating"], v["scores"]["confidence"]) for v in review["history"]] == [
        (first["tmdate"], old, old_c),
        (later["tmdate"], new, new_c),
    ]
    unmoved = [r for r in data["reviews"] if r["id"] != first["id"]]
    assert all(len(r["history"]) == 1 for r in unmoved)


def test_show_says_the_mean_then_and_now_and_who_moved(
    moved: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    first = moved["first"]
    code, out, err = run(capsys, "show", first["forum"], "--data-dir", moved["data"])
    assert code == 0, err
    signature = first["signatures"][0].rsplit("/", 1)[-1]
    old, new = moved["rating"]
    assert "rating then and now: " in out
    assert f"  {signature}: rating {old} → {new} (" in out
    data = json.loads(run(capsys, "show", first["forum"], "--data-dir", moved["data"], "--json")[1])
    assert data["review_summary"]["moved"] == 1
    assert data["review_summary"]["initial_ratings"]


def test_rise_says_nothing_when_a_rating_moved(moved: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--sort", "rise", "--data-dir", moved["data"])
    assert code == 0 and out and "No rating moved" not in err
