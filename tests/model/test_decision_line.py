"""The decision the reviews screen and ``paperdeck reviews`` put first when no decision note
states it (:func:`paperdeck.model.review.decision_line`): from whichever file gave it."""

from __future__ import annotations

from paperdeck.model.paper import Paper
from paperdeck.model.review import DECISION, REVIEW, Review, decision_line


def _paper(decision: str, raw: str = "", provenance: tuple[tuple[str, str], ...] = ()) -> Paper:
    return Paper(
        id="openreview:p1", title="T", abstract="A", decision=decision, decision_raw=raw,
        sources=("submissions.jsonl", "accepted.parquet"), provenance=provenance, openreview_id="p1",
    )  # fmt: skip


def _note(kind: str) -> Review:
    return Review.from_dict({"id": f"n-{kind}", "forum": "p1", "replyto": "p1", "kind": kind})


def test_a_decision_from_a_decisions_file_is_stated_with_the_file_it_came_from() -> None:
    paper = _paper("poster", "Poster", (("decision", "accepted.parquet"),))
    assert decision_line(paper, [_note(REVIEW)]) == "Decision: poster, from accepted.parquet"


def test_the_decision_is_worded_as_every_place_words_it() -> None:
    paper = _paper("oral", "ICLR 2026 Oral")
    assert decision_line(paper, []) == "Decision: oral (ICLR 2026 Oral), from submissions.jsonl"


def test_a_decision_note_states_it_itself_and_no_decision_states_nothing() -> None:
    assert decision_line(_paper("poster", "Poster"), [_note(REVIEW), _note(DECISION)]) == ""
    assert decision_line(_paper("unknown", "ICLR"), [_note(REVIEW)]) == ""
    assert decision_line(_paper("under-review", "ICLR 2026 Conference Submission"), []) == ""
