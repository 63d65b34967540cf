"""Review summaries hold each tuple of scores once for its value (issue 32: the app's resident
memory; four ratings on a scale of six values repeat across papers): counted as objects shared."""

from __future__ import annotations

from paperdeck.model.review_summary import ReviewSummary


def test_review_summaries_share_their_tuples_of_scores() -> None:
    first = ReviewSummary.from_dict({"count": 4, "ratings": [4.0, 6.0, 6.0, 8.0], "confidences": [3.0, 4.0, 4.0, 2.0]})
    second = ReviewSummary.from_dict({"count": 4, "ratings": [4.0, 6.0, 6.0, 8.0], "confidences": [3.0, 4.0, 4.0, 2.0]})
    assert first == second and first.ratings is second.ratings and first.confidences is second.confidences
    odd = ReviewSummary.from_dict({"ratings": [[1.0]]})  # unhashable: kept as it was read, as before
    assert odd.ratings == ([1.0],)


def test_a_tuple_kept_is_found_by_value_and_its_numbers_are_the_shared_ones() -> None:
    """The shortcut (an equal tuple looked up first) gives what sharing each number gave: the one
    tuple kept, whose floats are the shared ones; an int rating equal to a float kept finds it."""
    kept = ReviewSummary.from_dict({"ratings": [2.5, 7.5]}).ratings
    again = ReviewSummary.from_dict({"ratings": [float("2.5"), float("7.5")]}).ratings
    assert again is kept
    other = ReviewSummary.from_dict({"ratings": [7.5, 2.5]}).ratings  # not kept yet: its numbers shared
    assert other == (7.5, 2.5) and other[0] is kept[1] and other[1] is kept[0]
    whole = ReviewSummary.from_dict({"ratings": [3, 5]}).ratings
    assert whole == ReviewSummary.from_dict({"ratings": [3.0, 5.0]}).ratings
    assert ReviewSummary.from_dict({"ratings": None}).ratings == ()
