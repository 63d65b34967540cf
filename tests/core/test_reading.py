"""The reading list's rules without a UI: marks, ranges, mark-all, targets, status keys, next unseen."""

from __future__ import annotations

from paperdeck.reading.marks import Marks
from paperdeck.reading.status import next_unseen, status_after

VIEW = ["a", "b", "c", "d", "e"]


def test_a_mark_toggles_and_sets_the_anchor() -> None:
    marks = Marks()
    marks.toggle("b", 1)
    assert marks.ids == {"b"} and marks.anchor == 1 and len(marks) == 1 and marks
    marks.toggle("b", 1)
    assert marks.ids == set() and not marks


def test_a_range_runs_from_the_anchor_either_way() -> None:
    marks = Marks()
    marks.toggle("d", 3)
    marks.mark_range(VIEW, 1)
    assert marks.ids == {"b", "c", "d"} and marks.anchor == 1
    fresh = Marks()
    fresh.mark_range(VIEW, 2)  # no anchor: just the row
    assert fresh.ids == {"c"}


def test_mark_all_marks_the_view_then_unmarks_it() -> None:
    marks = Marks()
    marks.toggle("z", 0)  # outside the view: kept either way
    marks.toggle_all(VIEW)
    assert marks.ids == {*VIEW, "z"}
    marks.toggle_all(VIEW)
    assert marks.ids == {"z"}
    marks.toggle_all([])
    assert marks.ids == {"z"}


def test_clear_says_whether_there_were_marks() -> None:
    marks = Marks()
    assert marks.clear() is False
    marks.toggle("a", 0)
    assert marks.clear() is True and marks.anchor is None and not marks.ids


def test_targets_are_the_marks_in_view_order_else_the_highlighted_paper() -> None:
    marks = Marks()
    assert marks.targets(VIEW, "c") == ["c"]
    assert marks.targets(VIEW, None) == []
    for pid, row in (("e", 4), ("a", 0), ("z", 9)):
        marks.toggle(pid, row)
    assert marks.targets(VIEW, "c") == ["a", "e"]
    assert marks.targets(["q"], "q") == ["a", "e", "z"]  # none shown: every mark, sorted
    assert marks.everything(VIEW) == ["a", "e", "z"]


def test_the_same_status_key_again_takes_a_single_paper_back_to_unseen() -> None:
    assert status_after("read", ["read"]) == "unseen"
    assert status_after("read", ["to-read"]) == "read"
    assert status_after("read", ["read", "read"]) == "read"  # a bulk change always sets it
    assert status_after("unseen", ["unseen"]) == "unseen"
    assert status_after("read", []) == "read"


def test_next_unseen_wraps_and_says_when_there_is_none() -> None:
    statuses = {"a": "read", "b": "unseen", "c": "read", "d": "read", "e": "unseen"}
    assert next_unseen(VIEW, 1, statuses.__getitem__) == 4
    assert next_unseen(VIEW, 4, statuses.__getitem__) == 1  # wraps past the end
    only = {"a": "unseen", "b": "read"}
    assert next_unseen(["a", "b"], 0, only.__getitem__) == 0  # itself, last
    assert next_unseen(["b"], 0, only.__getitem__) is None
