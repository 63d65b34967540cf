"""Issue 31: a Paper Copilot list with per-review ratings (COLM 2025's ``rating`` ``"5;6;6;6"``,
ICLR 2017's) keeps each review's rating and confidence as a scores-only review, on the venue's
own scale, so that the rating histograms, the reviews per paper and the detail pane use them; an
import of the list again adds nothing and keeps the user's stars and notes; a rating changed in
a newer list is the review's next version."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.stats.figures import figures_of
from paperdeck.store.store import Store

from tests.helpers import fixture

COLM = fixture("papercopilot_colm2025.json")
ICLR2017 = fixture("papercopilot_iclr2017.json")


def _records(path: Path) -> list[dict[str, Any]]:
    records = json.loads(path.read_text("utf-8"))
    assert isinstance(records, list)
    return records


def _scores(record: dict[str, Any], key: str) -> list[float]:
    return [float(value) for value in record[key].split(";")]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    import_files(store, [COLM, ICLR2017])
    return store


def test_each_reviews_rating_and_confidence_is_kept_on_its_venues_scale(store: Store) -> None:
    summaries = store.reviews.summaries()
    for path in (COLM, ICLR2017):
        for record in _records(path):
            summary = summaries[record["id"]]
            ratings, confidences = _scores(record, "rating"), _scores(record, "confidence")
            assert sorted(summary.ratings) == sorted(ratings) and summary.count == len(ratings)
            assert Counter(zip(summary.ratings, summary.confidences, strict=True)) == Counter(
                zip(ratings, confidences, strict=True)
            )
            assert summary.mean == pytest.approx(sum(ratings) / len(ratings), abs=1e-3)
            assert summary.scale == "1-10"  # COLM 2025 and ICLR 2017 rate 1–10
    colm = _records(COLM)[0]["id"]
    rank = store.reviews.rank(colm)
    assert rank is not None and rank.of == 8 and rank.label().endswith("rated in COLM 2025")  # never pooled


def test_the_histograms_and_reviews_per_paper_count_each_review(store: Store) -> None:
    figures = figures_of(store.papers, store.reviews.summaries(), {})
    by_venue = {venue.venue: venue.figures for venue in figures.venues}
    for name, path in (("COLM 2025", COLM), ("ICLR 2017", ICLR2017)):
        records = _records(path)
        every = Counter(value for record in records for value in _scores(record, "rating"))
        assert dict(by_venue[name].review_ratings.counts) == every
        per_paper = Counter(len(_scores(record, "rating")) for record in records)
        assert dict(by_venue[name].reviews_per_paper.counts) == per_paper
        confidence = Counter(value for record in records for value in _scores(record, "confidence"))
        assert dict(by_venue[name].confidence.counts) == confidence


def test_the_detail_pane_shows_each_reviews_rating(store: Store) -> None:
    from paperdeck.ui.widgets.detail_content import reviews_content

    record = _records(COLM)[0]  # 5;6;6;6 with confidences 4;5;4;3
    text = reviews_content(store.reviews.summaries()[record["id"]], store.reviews.rank(record["id"])).plain
    shown = sorted(text.split(" · ")[0].removeprefix("Reviews: ").removesuffix(" (rating/confidence)").split())
    assert shown == sorted(f"{r:g}/{c:g}" for r, c in zip(_scores(record, "rating"), _scores(record, "confidence"),
                                                          strict=True))  # fmt: skip
    assert "rated in COLM 2025" in text


def test_an_import_again_keeps_the_users_marks_and_a_changed_rating_is_a_new_version(
    store: Store, tmp_path: Path
) -> None:
    record = _records(COLM)[0]
    paper_id = f"openreview:{record['id']}"
    store.set_star(paper_id, True)
    store.set_note(paper_id, "read the benchmark section")
    again = import_files(store, [COLM])
    assert again.reviews is not None and (again.reviews.new, again.reviews.updated) == (0, 0)
    changed = _records(COLM)
    first_reviewer = changed[0]["reviewers"].split(";")[0]
    ratings = changed[0]["rating"].split(";")
    ratings[0] = "8"  # the first reviewer raised the rating in a newer list
    changed[0]["rating"] = ";".join(ratings)
    newer = tmp_path / "papercopilot_colm2025.json"
    newer.write_text(json.dumps(changed), "utf-8")
    import_files(store, [newer])
    fresh = Store(store.data_dir)
    user = fresh.user_data(paper_id)
    assert user.starred and user.note == "read the benchmark section"
    summary = fresh.reviews.summaries()[record["id"]]
    assert sorted(summary.ratings) == sorted(float(r) for r in ratings) and summary.moved == 1
    (review,) = [r for r in fresh.reviews.reviews(record["id"]) if r.signature == f"Reviewer_{first_reviewer}"]
    assert [v.score("rating") for v in review.history()] == [5.0, 8.0]


def test_ratings_without_reviewers_in_line_are_signed_by_position(tmp_path: Path) -> None:
    records = _records(COLM)[:2]
    records[0]["reviewers"] = "only;two"  # four ratings
    del records[1]["reviewers"]
    path = tmp_path / "colm2025.json"
    path.write_text(json.dumps(records), "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [path])
    for record in records:
        held = store.reviews.reviews(record["id"])
        assert sorted(r.signature for r in held) == [f"Reviewer_R{n}" for n in range(1, len(held) + 1)]
        assert sorted(r.score("rating") for r in held) == sorted(_scores(record, "rating"))
