"""A paper's rating spread is the same to the last bit whichever way its scores are read.

The thirteenth round's tester: re-importing the unchanged ``data/papercopilot_colm2025.json`` said
``0 new, 3 updated, 415 unchanged`` every time, the catalogue byte-identical. The file's
``"6;6;7;7;7"`` gave a standard deviation of ``0.48989794855663565``
(:meth:`~paperdeck.model.paper.Ratings.from_scores`, in the file's order); the store then took the
paper's ratings from its reviews in review order (:meth:`ReviewSummary.of`), ``0.4898979485566356``;
the merge's "changed?" test saw the two differ on every import. Papers ``CODs4jSGhN``
(``6;6;7;7;7``), ``H6so82c2Sw`` (``5;6;7;7;7``: ``0.7999999999999999`` against ``0.8``) and
``zP6DJaBBcR`` (``6;6;6;7;7``)."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest
from paperdeck.model.paper import Ratings
from paperdeck.model.review import REVIEW, Review
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import fixture

SCORES = ["6;6;7;7;7", "5;6;7;7;7", "6;6;6;7;7"]


def _review(number: int, rating: float) -> Review:
    return Review(f"r{number}", "f1", "f1", REVIEW, "R", None, number, number, (("rating", rating),))


@pytest.mark.parametrize("scores", SCORES)
def test_a_files_scores_and_the_same_reviews_in_any_order_give_one_ratings(scores: str) -> None:
    values = [float(score) for score in scores.split(";")]
    from_file = Ratings.from_scores(values)
    assert from_file is not None
    for order in set(permutations(values)):
        assert Ratings.from_scores(list(order)) == from_file, order
        summary = ReviewSummary.of(_review(number, rating) for number, rating in enumerate(order))
        assert (summary.mean, summary.std) == (from_file.mean, from_file.std), order


def test_re_importing_an_unchanged_paper_copilot_file_finds_every_paper_unchanged(
    data_dir: Path, tmp_path: Path
) -> None:
    """The three COLM 2025 papers' scores in the file's order, their reviewers named so that
    review order (by name) is the order whose spread differed: ``7;7;6;7;6``, ``7;7;6;7;5``,
    ``6;7;6;6;7``."""
    records = json.loads(fixture("papercopilot_colm2025.json").read_text("utf-8"))[:3]
    reviewers = ["c;e;a;b;d", "e;c;a;b;d", "a;c;d;b;e"]
    for record, scores, names in zip(records, SCORES, reviewers, strict=True):
        record["rating"], record["reviewers"], record["confidence"] = scores, names, "3;4;4;5;4"
    path = tmp_path / "papercopilot_colm2025.json"
    path.write_text(json.dumps(records), "utf-8")
    store = Store(data_dir)
    assert import_files(store, [path]).new == 3
    again = import_files(Store(data_dir), [path])
    assert (again.new, again.updated, again.unchanged) == (0, 0, 3)
