"""Reviews with scores and no text (a Paper Copilot list's per-review ratings) are named so."""

from __future__ import annotations

from paperdeck.model.review import COMMENT, REVIEW, SNAPSHOT_PREFIX, Review, scores_only, scores_only_line
from paperdeck.store.review_history import snapshot_note_id


def review(note_id: str, *, text: bool = False, kind: str = REVIEW) -> Review:
    sections = (("summary", "A careful study."),) if text else ()
    return Review(note_id, "f1", "f1", kind, "R", None, 0, 0, (("rating", 6.0),), sections=sections)


def test_paper_copilot_ratings_are_named_scores_only() -> None:
    assert snapshot_note_id("f1", "x").startswith(SNAPSHOT_PREFIX)
    only = [review(snapshot_note_id("f1", name)) for name in ("a", "b")]
    assert all(map(scores_only, only))
    assert scores_only_line(only) == "Paper Copilot: ratings only, no review text"


def test_a_mix_says_how_many_and_text_reviews_say_nothing() -> None:
    mixed = [review("pc_f1_a"), review("n1", text=True), review("n2", text=True), review("c1", kind=COMMENT)]
    assert scores_only_line(mixed) == "Paper Copilot: 1 of 3 reviews: ratings only, no review text"
    assert scores_only_line([review("n1"), review("n2", text=True)]) == "1 of 2 reviews: ratings only, no review text"
    assert scores_only_line([review("n1", text=True)]) == "" and scores_only_line([]) == ""
    assert not scores_only(review("c1", kind=COMMENT))
