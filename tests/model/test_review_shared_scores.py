"""Review summaries hold each tuple of scores once for its value (issue 32: the app's resident
memory; four ratings on a scale of six values repeat across papers): counted as objects shared."""

from __future__ import annotations

from paperdeck.model.review import ReviewSummary


def test_review_summaries_share_their_tuples_of_scores() -> None:
    first = ReviewSummary.from_dict({"count": 4, "ratings": [4.0, 6.0, 6.0, 8.0], "confidences": [3.0, 4.0, 4.0, 2.0]})
    second = ReviewSummary.from_dict({"count": 4, "ratings": [4.0, 6.0, 6.0, 8.0], "confidences": [3.0, 4.0, 4.0, 2.0]})
    assert first == second and first.ratings is second.ratings and first.confidences is second.confidences
    odd = ReviewSummary.from_dict({"ratings": [[1.0]]})  # unhashable: kept as it was read, as before
    assert odd.ratings == ([1.0],)
