"""Multi-part author responses read 1…m: authors post the last part first (OpenReview shows the
newest note on top), so the oldest-first thread read "(4/4), (3/4), (2/4), (1/4)"."""

from __future__ import annotations

from paperdeck.model.review import AUTHOR_RESPONSE, COMMENT, REVIEW, Review, ordered_reviews, part_label


def note(nid: str, cdate: int, title: str = "", *, replyto: str = "R1", kind: str = AUTHOR_RESPONSE,
         signature: str = "Authors", text: str = "text") -> Review:  # fmt: skip
    sections = ((("title", title),) if title else ()) + (("comment", text),)
    return Review(id=nid, forum="F", replyto=replyto, kind=kind, signature=signature, cdate=cdate, sections=sections)


def test_the_parts_of_a_response_posted_last_first_read_in_order() -> None:
    review = note("R1", 1, kind=REVIEW, replyto="F", signature="Reviewer_abcd")
    parts = [note(f"P{n}", 10 + (4 - n), f"General comments ({n}/4)") for n in (4, 3, 2, 1)]
    other = note("X", 12, "A question", signature="Reviewer_abcd", kind=COMMENT)  # between parts in time
    late = note("L", 99, "Thanks")
    shown = [r.id for _, r in ordered_reviews([review, *parts, other, late])]
    # the parts take the places the parts held (at 10, 11, 12 and 13), in order; the question
    # (at 12, after the third part by id) keeps its own
    assert shown == ["R1", "P1", "P2", "P3", "X", "P4", "L"]


def test_labels_in_the_first_line_and_part_n_and_what_is_no_label() -> None:
    assert part_label(note("a", 1, text="Part 2 of 3: the baselines\nmore")) == (2, 3)
    assert part_label(note("a", 1, "Response [1/2]")) == (1, 2)
    assert part_label(note("a", 1, "Rebuttal, part 3")) == (3, 0)
    assert part_label(note("a", 1, "Response (5/4)")) is None
    assert part_label(note("a", 1, text="We thank the reviewer.\nPart 2 follows.")) is None  # not the first line
    assert part_label(note("a", 1, "Response")) is None


def test_unlabelled_replies_and_other_signers_parts_keep_time_order() -> None:
    review = note("R1", 1, kind=REVIEW, replyto="F", signature="Reviewer_abcd")
    replies = [
        note("A2", 10, "Answer (2/2)"),
        note("B", 11, "Reply (1/2)", signature="Reviewer_abcd", kind=COMMENT),  # one part alone: no group
        note("A1", 12, "Answer (1/2)"),
        note("C", 13, "Plain"),
    ]
    shown = [r.id for _, r in ordered_reviews([review, *replies])]
    assert shown == ["R1", "A1", "B", "A2", "C"]
