"""Every reply kind a venue has is kept, API v1 notes are read, and a rating is found by what the
venue calls it (issue 31: any OpenReview venue; the trust rule: no reply kind refuses a venue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.review import (
    COMMENT,
    DECISION,
    ETHICS_REVIEW,
    META_REVIEW,
    PUBLIC_COMMENT,
    REVIEW,
    Review,
    kind_label,
)
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.sources.importer import import_files
from paperdeck.sources.review_notes import note_review, reply_kind
from paperdeck.store.store import Store


def _reply(kind: str, note_id: str = "Reply00001", **content: Any) -> dict[str, Any]:
    return {
        "id": note_id, "forum": "Forum00001", "replyto": "Forum00001",
        "invitations": [f"colmweb.org/COLM/2025/Conference/Submission1/-/{kind}"],
        "signatures": ["colmweb.org/COLM/2025/Conference/Submission1/Reviewer_x1"], "cdate": 5, "tmdate": 5,
        "content": {key: {"value": value} for key, value in content.items()},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("invitation", "kind"),
    [
        ("Official_Review", REVIEW),
        ("official_review", REVIEW),
        ("Meta_Review", META_REVIEW),
        ("Decision", DECISION),
        ("Acceptance_Decision", DECISION),
        ("Ethics_Review", ETHICS_REVIEW),
        ("paper12/official/review", REVIEW),  # ICLR 2017 on the old API
        ("paper12/public/comment", PUBLIC_COMMENT),
        ("paper12/acceptance", DECISION),
        ("Paper12/Official_Comment", COMMENT),
        ("Reviewer_Flag", "reviewer-flag"),
        ("Camera Ready\x1b[2J/../x", "camera-ready-2j-x"),
        ("\u202e\u202e", ""),
    ],
)
def test_an_invitation_gives_its_kind_known_or_its_own(invitation: str, kind: str) -> None:
    assert reply_kind(invitation) == kind


def test_a_venues_own_reply_kind_is_kept_under_its_name_and_headed_in_words() -> None:
    flag = note_review(_reply("Reviewer_Flag", flag="Possible plagiarism"))
    assert flag.kind == "reviewer-flag" and flag.section("flag") == "Possible plagiarism"
    assert kind_label(flag.kind) == "Reviewer flag"
    ethics = note_review(_reply("Ethics_Review", ethics_concerns="None."))
    assert ethics.kind == ETHICS_REVIEW and kind_label(ethics.kind) == "Ethics review"
    assert Review.from_dict(flag.to_dict()) == flag
    assert ReviewSummary.of([flag, ethics]).count == 0  # neither is an official review


def test_a_reply_without_any_invitation_is_still_skipped_and_counted() -> None:
    note = _reply("Official_Review", rating=6)
    del note["invitations"]
    with pytest.raises(ValueError, match="no invitation"):
        note_review(note)


@pytest.mark.parametrize(
    ("field", "value", "rating", "label"),
    [
        ("rating", "6: Marginally above acceptance threshold", 6.0, "Marginally above acceptance threshold"),
        ("recommendation", 4, 4.0, ""),
        ("overall_recommendation", "3: Weak accept", 3.0, "Weak accept"),
        ("score", "7", 7.0, ""),
    ],
)
def test_a_reviews_rating_is_read_by_what_the_venue_calls_it(field: str, value: Any, rating: float, label: str) -> None:
    review = note_review(_reply("Official_Review", **{field: value, "confidence": "4: confident"}))
    assert review.score("rating") == rating and review.score("confidence") == 4
    assert dict(review.score_labels).get("rating", "") == label
    assert field == "rating" or review.score(field) is None  # renamed, not doubled
    assert ReviewSummary.of([review]).ratings == (rating,)


def test_a_review_with_a_rating_keeps_its_other_scores_under_their_names() -> None:
    review = note_review(_reply("Official_Review", rating=8, recommendation=3))
    assert review.score("rating") == 8 and review.score("recommendation") == 3


def test_a_meta_reviews_text_recommendation_stays_text_and_is_no_rating() -> None:
    meta = note_review(_reply("Meta_Review", overall_recommendation="Accept (Oral)", metareview="Strong."))
    assert meta.kind == META_REVIEW and meta.section("overall_recommendation") == "Accept (Oral)"
    assert meta.score("rating") is None


def _v1_note(note_id: str, number: int) -> dict[str, Any]:
    """A submission as the old API (v1) returns it: one ``invitation``, plain content values."""
    return {
        "id": note_id, "forum": note_id, "number": number, "invitation": "ICLR.cc/2017/conference/-/submission",
        "cdate": 1478000000000, "tmdate": 1478000000000,
        "content": {"title": f"An old paper {number}", "abstract": "Read from the old API. " * 4,
                    "authors": ["Ada Lovelace"], "keywords": ["Deep learning"]},
        "details": {"directReplies": [
            {"id": f"R{note_id[1:]}", "forum": note_id, "replyto": note_id,
             "invitation": f"ICLR.cc/2017/conference/-/paper{number}/official/review",
             "signatures": [f"ICLR.cc/2017/conference/paper{number}/AnonReviewer1"], "cdate": 2, "tmdate": 2,
             "content": {"rating": "7: Good paper, accept", "confidence": "3: The reviewer is fairly confident",
                         "review": "Clear."}},
            {"id": f"D{note_id[1:]}", "forum": note_id, "replyto": note_id,
             "invitation": f"ICLR.cc/2017/conference/-/paper{number}/acceptance",
             "signatures": ["ICLR.cc/2017/pcs"], "cdate": 3, "tmdate": 3,
             "content": {"decision": "Accept (Poster)", "comment": "Fine."}},
        ]},
    }  # fmt: skip


def test_an_old_api_page_imports_its_papers_and_every_reply(data_dir: Path, tmp_path: Path) -> None:
    page = tmp_path / "openreview-ICLR.cc-2017-conference.json"
    page.write_text(json.dumps({"notes": [_v1_note("S000000001", 1), _v1_note("S000000002", 2)], "count": 2}))
    store = Store(data_dir)
    summary = import_files(store, [page])
    assert summary.new == 2 and not summary.skipped, summary.skipped
    paper = next(p for p in store.papers if p.openreview_id == "S000000001")
    assert (paper.venue, paper.year, paper.number) == ("ICLR", 2017, 1)
    reviews = store.reviews.summary("S000000001")
    assert reviews is not None and reviews.ratings == (7.0,)
    kinds = sorted(r.kind for r in store.reviews.reviews("S000000001"))
    assert kinds == [DECISION, REVIEW]


def test_a_rolling_journals_paper_is_of_the_journal_without_a_year(data_dir: Path, tmp_path: Path) -> None:
    note = {
        "id": "TmlrPaper1", "forum": "TmlrPaper1", "number": 7, "invitations": ["TMLR/-/Submission"], "domain": "TMLR",
        "content": {"title": {"value": "A journal paper"}, "abstract": {"value": "Rolling. " * 8},
                    "venue": {"value": "Accepted by TMLR"}, "venueid": {"value": "TMLR"}},
    }  # fmt: skip
    page = tmp_path / "openreview-TMLR.json"
    page.write_text(json.dumps({"notes": [note], "count": 1}))
    store = Store(data_dir)
    import_files(store, [page])
    assert [(p.venue, p.year) for p in store.papers] == [("TMLR", None)]


def test_numbered_review_text_is_a_section_not_a_score() -> None:
    """Found by trying the product: 464 sections of the shipped ICLR 2026 reviews (review of paper
    5xOh6xNY8z, questions "1. L426: …") were read as scores and their text lost."""
    from paperdeck.sources.review_notes import note_review

    note = {
        "id": "KQGTnote01", "forum": "5xOh6xNY8z", "replyto": "5xOh6xNY8z",
        "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"],
        "domain": "ICLR.cc/2026/Conference",
        "content": {
            "rating": {"value": 6}, "confidence": {"value": 3},
            "questions": {"value": '1. L426: "...due to imbalanced classes." Why?\n2. What of $\\psi$?'},
            "weaknesses": {"value": "1.\tLine 738: the bound is loose."},
            "strengths": {"value": "3: a clear paper"},  # a known text field: text even in this form
            "novelty_note": {"value": "7: novel enough"},  # an unknown field in the score form: a score
        },
    }  # fmt: skip
    review = note_review(note)
    assert dict(review.scores) == {"rating": 6.0, "confidence": 3.0, "novelty_note": 7.0}
    assert review.section("questions").startswith("1. L426:")
    assert review.section("weaknesses").startswith("1.\tLine 738")
    assert review.section("strengths") == "3: a clear paper"


def test_a_review_rated_off_its_venue_s_scale_refuses_the_file(tmp_path: Path) -> None:
    """Found by trying the product: a 5 in a file of ICLR 2026 reviews (scale 0, 2, … 10) was
    imported; a paper list with such a rating was refused."""
    from paperdeck.model.errors import SourceError
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    def note(n: int, rating: int) -> dict[str, object]:
        return {
            "id": f"offscale{n:02d}", "forum": "lbEUvx1ILN", "replyto": "lbEUvx1ILN", "tmdate": 1_763_000_000_000 + n,
            "invitations": [f"ICLR.cc/2026/Conference/Submission{n}/-/Official_Review"],
            "domain": "ICLR.cc/2026/Conference",
            "signatures": [f"ICLR.cc/2026/Conference/Submission1/Reviewer_ab{n:02d}"],
            "content": {"rating": {"value": rating}, "confidence": {"value": 3}},
        }  # fmt: skip

    path = tmp_path / "bad5.json"
    path.write_text(json.dumps([note(1, 6), note(2, 5)]), encoding="utf-8")
    store = Store(tmp_path / "data")
    with pytest.raises(SourceError) as refused:
        import_files(store, [path])
    message = str(refused.value)
    assert "bad5.json" in message and "offscale02" in message and "rating 5" in message and "\n" not in message
    assert store.reviews.summaries() == {}
    path.write_text(json.dumps([note(1, 6), note(2, 4)]), encoding="utf-8")
    import_files(store, [path])
    assert store.reviews.summaries()["lbEUvx1ILN"].ratings == (6.0, 4.0)
