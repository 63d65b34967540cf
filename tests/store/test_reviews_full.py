"""The whole ICLR 2026 dump, its Paper Copilot decisions and every shared review imported into one
store (``slow``): every paper with reviews has its score summary, each checked against the numbers
computed here straight from the three review parts; REAP's (``ukGxWd2aDG``) reviews open whole."""

from __future__ import annotations

import gzip

import orjson
import pytest
from paperdeck.model.review import REVIEW
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import DECISIONS_NAME, SHARED_DATA, SHARED_REVIEWS, review_parts, submission_parts
from tests.sources.test_reviews_import import _check_summaries, _expected

PARTS = review_parts(SHARED_REVIEWS)
SUBMISSIONS = submission_parts(SHARED_DATA)
PARQUET = SHARED_DATA / DECISIONS_NAME
REAP = "ukGxWd2aDG"

pytestmark = [pytest.mark.slow, pytest.mark.data]


def test_every_reviewed_paper_of_the_whole_conference_has_its_summary(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    data = tmp_path_factory.mktemp("full") / "data"
    store = Store(data)
    summary = import_files(store, [*SUBMISSIONS, PARQUET, *PARTS])
    notes = [orjson.loads(line) for part in PARTS for line in gzip.decompress(part.read_bytes()).splitlines()]
    expected = _expected(notes)
    assert summary.reviews is not None
    assert summary.reviews.new == len({note["id"] for note in notes})
    assert summary.reviews.waiting == 0 and len(store.papers) == 19_630
    assert len(expected) == sum(1 for s in store.reviews.summaries().values() if s.count)
    fresh = Store(data)
    _check_summaries(fresh, expected)
    by_forum = {paper.openreview_id: paper for paper in fresh.papers}
    for forum, numbers in expected.items():
        ratings = by_forum[forum].ratings
        assert ratings is not None and ratings.count == numbers["count"], forum
        assert ratings.mean == pytest.approx(numbers["mean"]), forum
    reap = fresh.reviews.reviews(REAP)
    raw = {note["id"] for note in notes if note["forum"] == REAP}
    assert {review.id for review in reap} == raw
    assert sum(1 for review in reap if review.kind == REVIEW) == expected[REAP]["count"]
