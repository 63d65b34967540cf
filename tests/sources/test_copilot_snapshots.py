"""Paper Copilot snapshots of one conference taken on different days (the day in the file name):
their ``rating`` lists, aligned with ``reviewers``, build each review's history, the same whatever
order the files are imported in; a snapshot review joins the OpenReview review of the same
reviewer; lists that do not line up are counted; snapshots of two conferences are refused.

The snapshots are made from the committed cut of Paper Copilot's ICLR 2018 list
(``tests/data/papercopilot_iclr2018.json``), a few ratings changed from one day to the next."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.review import Review
from paperdeck.sources.importer import import_files
from paperdeck.sources.papercopilot import NOT_ALIGNED
from paperdeck.store.review_history import snapshot_note_id
from paperdeck.store.store import Store

from tests.helpers import COPILOT_2018_NAME, fixture

DAYS = ("2017-11-27", "2017-12-10", "2018-01-29")


def _snapshots(tmp_path: Path) -> list[Path]:
    """Three snapshot files: on the second day the first reviewer of the first five rated papers
    raises the rating by 1; on the third, lowers it by 2 from the first day's."""
    records = json.loads(fixture(COPILOT_2018_NAME).read_text())
    rated = [r for r in records if r.get("reviewers") and r.get("rating")][:5]
    paths = []
    for day, step in zip(DAYS, (0, 1, -2), strict=True):
        for record in rated:
            original = record.setdefault("_rating", record["rating"])
            scores = original.split(";")
            scores[0] = str(int(scores[0]) + step)
            record["rating"] = ";".join(scores)
        path = tmp_path / f"iclr2018_{day}.json"
        path.write_text(json.dumps([{k: v for k, v in r.items() if k != "_rating"} for r in records]))
        paths.append(path)
    return paths


def _histories(data_dir: Path) -> dict[str, tuple[Any, ...]]:
    store = Store(data_dir)
    return {
        review.id: review.history()
        for _, notes in store.reviews.reviews_of(store.reviews.summaries())
        for review in notes
    }


def test_snapshots_build_one_history_whatever_the_order(tmp_path: Path) -> None:
    paths = _snapshots(tmp_path)
    records = json.loads(paths[0].read_text())
    first = next(r for r in records if r.get("reviewers") and r.get("rating"))
    reviewer = first["reviewers"].split(";")[0]
    histories = []
    for number, order in enumerate(itertools.permutations(range(3))):
        data = tmp_path / f"data{number}"
        import_files(Store(data), [paths[order[0]]])
        import_files(Store(data), [paths[i] for i in order[1:]])
        histories.append(_histories(data))
    assert all(history == histories[0] for history in histories)
    review = Review("x", "x", "x", "review", earlier=histories[0][snapshot_note_id(first["id"], reviewer)][:-1])
    start = int(first["rating"].split(";")[0])
    path = [version.score("rating") for version in histories[0][snapshot_note_id(first["id"], reviewer)]]
    assert path == [start, start + 1, start - 2] and review.earlier
    summary = Store(tmp_path / "data0").reviews.summary(first["id"])
    assert summary is not None and summary.moved == 1 and summary.initial_ratings[0] == start
    moved = sum(1 for history in histories[0].values() if len({v.score("rating") for v in history}) > 1)
    assert moved == 5


def test_a_snapshot_review_joins_the_openreview_review_of_the_same_reviewer(tmp_path: Path) -> None:
    forum = "B11bwYgfM"
    note = {
        "id": "RealNote01", "forum": forum, "replyto": forum, "cdate": 1_510_000_000_000, "tmdate": 1_510_000_000_000,
        "invitations": ["ICLR.cc/2018/Conference/Paper1/-/Official_Review"],
        "signatures": ["ICLR.cc/2018/Conference/Paper1/AnonReviewer1"],
        "content": {"rating": {"value": 3}, "confidence": {"value": 4}, "review": {"value": "the review's text"}},
    }  # fmt: skip
    reviews = tmp_path / "reviews.json"
    reviews.write_text(json.dumps([note]))
    for order in ((reviews, "snapshot"), ("snapshot", reviews)):
        data = tmp_path / f"data-{order[0] == reviews}"
        snapshot = _snapshots(tmp_path)[1]
        for step in order:
            import_files(Store(data), [snapshot if step == "snapshot" else reviews])
        held = {review.id: review for review in Store(data).reviews.reviews(forum)}
        assert snapshot_note_id(forum, "AnonReviewer1") not in held  # one review, not two
        real = held["RealNote01"]
        assert real.section("review") == "the review's text"
        assert [v.score("rating") for v in real.history()] == [3.0, 5.0]  # its day, then the snapshot's (4 + 1)
        summary = Store(data).reviews.summary(forum)
        assert summary is not None and summary.count == 3


def test_ratings_not_aligned_with_reviewers_are_counted_not_guessed(tmp_path: Path) -> None:
    records = json.loads(fixture(COPILOT_2018_NAME).read_text())
    rated = [r for r in records if r.get("reviewers") and r.get("rating")]
    rated[0]["rating"] = ";".join(rated[0]["rating"].split(";")[:-1])  # a reviewer without a rating
    rated[1]["rating"] = rated[1]["rating"].replace(";", ";;", 1)  # an empty one among them
    path = tmp_path / f"iclr2018_{DAYS[0]}.json"
    path.write_text(json.dumps(records))
    summary = import_files(Store(tmp_path / "data"), [path])
    assert summary.skipped[NOT_ALIGNED] == 2
    held = _histories(tmp_path / "data")
    assert not any(note_id.startswith(f"pc_{rated[0]['id']}_") for note_id in held)
    assert any(note_id.startswith(f"pc_{rated[2]['id']}_") for note_id in held)


def test_snapshots_of_two_conferences_are_refused_in_one_line_naming_the_file(tmp_path: Path) -> None:
    iclr = _snapshots(tmp_path)[0]
    colm = tmp_path / "colm2025_2025-06-01.json"
    colm.write_bytes(fixture("papercopilot_colm2025.json").read_bytes())
    data = tmp_path / "data"
    with pytest.raises(SourceError) as caught:
        import_files(Store(data), [iclr, colm])
    message = str(caught.value)
    assert "\n" not in message and message.split(": ", 1)[0].endswith("colm2025_2025-06-01.json")
    assert "ICLR 2018" in message and "COLM 2025" in message
    assert not (data / "reviews").exists()


def test_a_list_without_a_day_in_its_name_gives_each_reviews_rating_without_a_time(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    summary = import_files(store, [fixture(COPILOT_2018_NAME)])
    assert summary.new > 0 and summary.reviews is not None and summary.reviews.new > 0
    held = store.reviews.reviews(next(iter(store.reviews.summaries())))
    assert held and all(r.id.startswith("pc_") and not r.sections and not r.earlier for r in held)
