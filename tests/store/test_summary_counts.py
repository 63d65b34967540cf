"""The import's summaries count in prose through one plural rule
(:func:`paperdeck.model.counts.counted`): 1 takes the singular, 2 the plural, in every part."""

from __future__ import annotations

from collections import Counter

import pytest
from paperdeck.model.counts import counted
from paperdeck.sources.importer import ImportSummary
from paperdeck.store.backup import RestoreReport
from paperdeck.store.reviews import ReviewImport
from paperdeck.store.schedule import ScheduleImport


def test_counted_takes_the_singular_for_one_only() -> None:
    assert [counted(n, "paper") for n in (0, 1, 2, 1234)] == ["0 papers", "1 paper", "2 papers", "1,234 papers"]
    assert counted(1, "paper's", "papers'") == "1 paper's" and counted(2, "paper's", "papers'") == "2 papers'"


def test_one_review_on_one_paper_is_said_in_the_singular() -> None:
    text = ReviewImport(new=1, papers=1, versions=1, rescored=1, waiting=1).summary()
    assert text == (
        "1 review or comment on 1 paper (1 new, 0 updated, 0 unchanged); 1 earlier version kept; "
        "1 paper's reviews and ratings updated; 1 paper not imported yet, its reviews kept until it is"
    )


def test_two_reviews_on_two_papers_are_said_in_the_plural() -> None:
    text = ReviewImport(new=2, papers=2, versions=2, rescored=2, waiting=2).summary()
    assert text == (
        "2 reviews and comments on 2 papers (2 new, 0 updated, 0 unchanged); 2 earlier versions kept; "
        "2 papers' reviews and ratings updated; 2 papers not imported yet, their reviews kept until they are"
    )


@pytest.mark.parametrize(("count", "word"), [(1, ""), (2, "s")])
def test_the_other_parts_of_the_summary_follow_the_same_rule(count: int, word: str) -> None:
    summary = ImportSummary(skipped=Counter({"reply note": count}), dropped=Counter({"non-finite rating": count}))
    text = summary.summary()
    assert f"{count} value{word} dropped" in text
    assert ("1 reply note)" if count == 1 else "2 reply notes)") in text
    schedule = ScheduleImport(events=count, papers=count).summary()
    assert schedule == f"schedule: {count} event{word} of {count} paper{word}"
    assert RestoreReport(restored=count).summary().startswith(f"{count} record{word}: ")
