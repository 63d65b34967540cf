"""A review, meta-review, decision or comment on a paper, and the order a reader meets them in.

A :class:`Review` is one OpenReview reply note, kept as the catalogue keeps it: the note's id, the
paper's forum id, what it answers (``replyto``), its kind (:data:`KINDS`, or a venue's own reply
kind under its own name: ``"reviewer-flag"``, headed by :func:`kind_label`), who signed it, its
scores (``rating``, ``confidence``, ``soundness`` … as given, other years' names such as ICLR
2024's ``correctness`` kept as they are) and its text sections (``summary``, ``strengths``,
``weaknesses``, ``questions``, ``comment`` …). Review text is data: it is stored verbatim and goes
through :mod:`paperdeck.model.safe_text` on every output.

The summary of a paper's scores that lists, sorts and filters read is
:mod:`paperdeck.model.review_summary`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NamedTuple

from paperdeck.model.decision import decision_shown

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper

__all__ = [
    "AUTHOR_RESPONSE",
    "COMMENT",
    "COMMENT_KINDS",
    "DECISION",
    "ETHICS_REVIEW",
    "KINDS",
    "KIND_LABELS",
    "META_REVIEW",
    "PUBLIC_COMMENT",
    "REVIEW",
    "SCORES_ONLY",
    "SECTION_ORDER",
    "SNAPSHOT_PREFIX",
    "WITHDRAWAL",
    "Review",
    "ReviewVersion",
    "answered_review",
    "decision_line",
    "kind_label",
    "ordered_reviews",
    "scores_only",
    "scores_only_line",
]

REVIEW = "review"
#: The prefix of the note id of a review read from a Paper Copilot list or snapshot of scores
#: (:func:`paperdeck.store.review_history.snapshot_note_id`: ``pc_<forum>_<reviewer>``).
SNAPSHOT_PREFIX = "pc_"
#: What every output says of a review with scores but no text (:func:`scores_only_line`).
SCORES_ONLY = "ratings only, no review text"
META_REVIEW = "meta-review"
DECISION = "decision"
COMMENT = "comment"
AUTHOR_RESPONSE = "author-response"
PUBLIC_COMMENT = "public-comment"
WITHDRAWAL = "withdrawal"
ETHICS_REVIEW = "ethics-review"
#: Every kind, in the order a reader meets them on the reviews screen (a venue's own kinds follow).
KINDS = (DECISION, META_REVIEW, REVIEW, ETHICS_REVIEW, AUTHOR_RESPONSE, COMMENT, PUBLIC_COMMENT, WITHDRAWAL)
#: How each kind of note is headed (the reviews screen, the Markdown export).
KIND_LABELS = {
    DECISION: "Decision",
    META_REVIEW: "Meta-review",
    REVIEW: "Review",
    AUTHOR_RESPONSE: "Author response",
    COMMENT: "Comment",
    PUBLIC_COMMENT: "Public comment",
    WITHDRAWAL: "Withdrawal",
    ETHICS_REVIEW: "Ethics review",
}


def kind_label(kind: str) -> str:
    """How a note of ``kind`` is headed: :data:`KIND_LABELS`, else a venue's own kind as words
    (``"reviewer-flag"`` → ``"Reviewer flag"``). Not sanitised: pass it through
    :mod:`paperdeck.model.safe_text` on output, as every stored text."""
    return KIND_LABELS.get(kind) or kind.replace("-", " ").capitalize()


#: Text sections shown first, in this order; any other section follows in the note's order.
SECTION_ORDER = (
    "title", "summary", "strengths", "weaknesses", "questions", "metareview", "decision", "comment",
    "withdrawal_confirmation",
)  # fmt: skip


class ReviewVersion(NamedTuple):
    """One version of a note as it stood at ``time``: the scores it gave then.

    Attributes:
        time: when this version was current, milliseconds since the epoch (the note's ``tmdate``,
            else its ``mdate``, else the time of the import that saw it).
        scores: ``(field, value)`` pairs as :attr:`Review.scores`.
    """

    time: int
    scores: tuple[tuple[str, float], ...]

    def score(self, name: str) -> float | None:
        """The score ``name`` in this version, ``None`` when it had none."""
        for key, value in self.scores:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True, init=False)
class Review:
    """One reply note on a paper.

    Attributes:
        id: the note's OpenReview id.
        forum: the paper's OpenReview forum id.
        replyto: the id of the note this answers (the forum id for a top-level reply).
        kind: one of :data:`KINDS`.
        signature: who signed it, the last part of the group id (``"Reviewer_hsV6"``,
            ``"Authors"``, ``"Area_Chair_x1Y2"``, ``"~Jane_Doe1"``); ``""`` when unsigned.
        number: the note's number among its kind (OpenReview's ``number``), ``None`` when absent.
        cdate: creation time, milliseconds since the epoch (``0`` when absent).
        tmdate: last modification time, milliseconds since the epoch (``0`` when absent); a note
            with a later ``tmdate`` replaces this one on import.
        scores: ``(field, value)`` pairs in the note's order: ``("rating", 6.0)``.
        score_labels: ``(field, label)`` for scores given as ``"6: marginally above …"``: the
            text after the number.
        sections: ``(field, text)`` pairs: every text field of the note (lists joined with
            ``"; "``), :data:`SECTION_ORDER` first.
        venue_id: the venue's OpenReview group (the note's ``domain``,
            ``"ICLR.cc/2026/Conference"``), ``""`` when absent.
        earlier: the versions of this note seen before the current one, oldest first, each with
            a distinct time earlier than ``tmdate``; only their scores are kept (not their text).
            ``()`` for a note seen in one version.
    """

    id: str
    forum: str
    replyto: str
    kind: str
    signature: str = ""
    number: int | None = None
    cdate: int = 0
    tmdate: int = 0
    scores: tuple[tuple[str, float], ...] = ()
    score_labels: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, str], ...] = ()
    venue_id: str = ""
    earlier: tuple[ReviewVersion, ...] = ()

    def __init__(
        self,
        id: str,
        forum: str,
        replyto: str,
        kind: str,
        signature: str = "",
        number: int | None = None,
        cdate: int = 0,
        tmdate: int = 0,
        scores: tuple[tuple[str, float], ...] = (),
        score_labels: tuple[tuple[str, str], ...] = (),
        sections: tuple[tuple[str, str], ...] = (),
        venue_id: str = "",
        earlier: tuple[ReviewVersion, ...] = (),
    ) -> None:
        # The fields set through their slots, as the frozen dataclass's own __init__ does, in
        # fewer steps (an import makes a conference's eighty thousand notes).
        _set_id(self, id)
        _set_forum(self, forum)
        _set_replyto(self, replyto)
        _set_kind(self, kind)
        _set_signature(self, signature)
        _set_number(self, number)
        _set_cdate(self, cdate)
        _set_tmdate(self, tmdate)
        _set_scores(self, scores)
        _set_score_labels(self, score_labels)
        _set_sections(self, sections)
        _set_venue_id(self, venue_id)
        _set_earlier(self, earlier)

    def score(self, name: str) -> float | None:
        """The score ``name`` (``"rating"``), ``None`` when the note has none."""
        for key, value in self.scores:
            if key == name:
                return value
        return None

    def section(self, name: str) -> str:
        """The text of section ``name`` (``"weaknesses"``), ``""`` when the note has none."""
        for key, text in self.sections:
            if key == name:
                return text
        return ""

    def history(self) -> tuple[ReviewVersion, ...]:
        """Every known version of the note, oldest first, the current one (at ``tmdate``) last."""
        return (*self.earlier, ReviewVersion(self.tmdate, self.scores))

    def score_path(self, name: str = "rating") -> tuple[float, ...]:
        """The values score ``name`` took across :meth:`history`, a repeated value once
        (``(6.0, 8.0)`` for a rating raised from 6 to 8); versions without it left out."""
        path: list[float] = []
        for version in self.history():
            value = version.score(name)
            if value is not None and (not path or path[-1] != value):
                path.append(value)
        return tuple(path)

    def moved(self, name: str = "rating") -> bool:
        """Score ``name`` took more than one value across the versions (6 → 8 → 6 counts)."""
        return len(set(self.score_path(name))) > 1

    def text_size(self) -> int:
        """Characters of text in the note (sections and labels)."""
        return sum(len(text) for _, text in self.sections) + sum(len(text) for _, text in self.score_labels)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (short keys: a full conference holds tens of thousands of these)."""
        data: dict[str, Any] = {"id": self.id, "forum": self.forum, "kind": self.kind}
        if self.replyto != self.forum:
            data["replyto"] = self.replyto
        if self.signature:
            data["sig"] = self.signature
        if self.number is not None:
            data["number"] = self.number
        data["cdate"], data["tmdate"] = self.cdate, self.tmdate
        if self.scores:
            data["scores"] = dict(self.scores)
        if self.score_labels:
            data["labels"] = dict(self.score_labels)
        if self.sections:
            data["text"] = dict(self.sections)
        if self.venue_id:
            data["venue"] = self.venue_id
        if self.earlier:
            data["v"] = [[version.time, dict(version.scores)] for version in self.earlier]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        """Inverse of :meth:`to_dict`.

        Raises:
            KeyError: ``id``, ``forum`` or ``kind`` is missing.
        """
        forum = data["forum"]
        return cls(
            id=data["id"],
            forum=forum,
            replyto=data.get("replyto", forum),
            kind=data["kind"],
            signature=data.get("sig", ""),
            number=data.get("number"),
            cdate=data.get("cdate", 0),
            tmdate=data.get("tmdate", 0),
            scores=tuple((data.get("scores") or {}).items()),
            score_labels=tuple((data.get("labels") or {}).items()),
            sections=tuple((data.get("text") or {}).items()),
            venue_id=data.get("venue", ""),
            earlier=tuple(ReviewVersion(time, tuple(scores.items())) for time, scores in data.get("v") or ()),
        )

    def public_dict(self) -> dict[str, Any]:
        """The review for ``--json`` output: every field under its full name."""
        return {
            "id": self.id,
            "forum": self.forum,
            "replyto": self.replyto,
            "kind": self.kind,
            "signature": self.signature,
            "number": self.number,
            "cdate": self.cdate,
            "tmdate": self.tmdate,
            "scores": dict(self.scores),
            "score_labels": dict(self.score_labels),
            "sections": dict(self.sections),
            "venue_id": self.venue_id,
            "history": [{"time": version.time, "scores": dict(version.scores)} for version in self.history()],
        }


(
    _set_id, _set_forum, _set_replyto, _set_kind, _set_signature, _set_number, _set_cdate, _set_tmdate,
    _set_scores, _set_score_labels, _set_sections, _set_venue_id, _set_earlier,
) = (getattr(Review, field.name).__set__ for field in fields(Review))  # fmt: skip


#: The kinds of note that answer a paper or a note: comments, author responses, public comments.
COMMENT_KINDS = frozenset({COMMENT, AUTHOR_RESPONSE, PUBLIC_COMMENT})


#: A reviewer named in a reply's title: "Response to Reviewer tLpQ", "Reply to reviewer_tLpQ (2/2)".
_REVIEWER_NAMED = re.compile(r"\breviewer[\s_:#-]*([A-Za-z0-9]{4})\b", re.IGNORECASE)


def answered_review(note: Review, reviewers: dict[str, str]) -> str:
    """For a comment or author response a snapshot left on the paper itself (its ``replyto`` the
    forum: the thread flattened), the id of the official review it answers: the review of the
    reviewer its title names (``"Response to Reviewer tLpQ"`` → the review signed
    ``Reviewer_tLpQ``), else, when a reviewer signed it, that reviewer's review; ``""`` when
    neither. ``reviewers``: official review ids by their signature's anonymous id, case-folded
    (``"tlpq"``)."""
    if note.kind not in COMMENT_KINDS or note.replyto != note.forum:
        return ""
    named = _REVIEWER_NAMED.search(note.section("title"))
    if named and (found := reviewers.get(named[1].casefold())):
        return found
    signed = note.signature.casefold()
    return reviewers.get(signed.removeprefix("reviewer_"), "") if signed.startswith("reviewer_") else ""


#: A part label in a reply's title or first line: ``(2/4)``, ``[2/4]``, ``Part 2``, ``part 2 of 4``.
_PART_LABEL = re.compile(
    r"[(\[]\s*(\d{1,2})\s*/\s*(\d{1,2})\s*[)\]]|\bpart\s*(\d{1,2})(?:\s*(?:/|of)\s*(\d{1,2}))?\b", re.IGNORECASE
)


def part_label(note: Review) -> tuple[int, int] | None:
    """The part ``(n, m)`` of a multi-part reply (``m`` 0 when not said) its title, else its text's
    first line, labels (``"General comments (2/4)"``, ``"Part 2"``), ``None`` for none (or a
    label that is no part: ``(5/4)``, ``(0/2)``)."""
    title = note.section("title")
    first = next((text for key, text in note.sections if key != "title" and text.strip()), "")
    for line in (title, first.strip().split("\n", 1)[0][:200]):
        found = _PART_LABEL.search(line) if line else None
        if found is None:
            continue
        n = int(found[1] or found[3])
        m = int(found[2] or found[4] or 0)
        return (n, m) if n >= 1 and (m == 0 or (m >= 2 and n <= m)) else None
    return None


def parts_in_order(notes: list[Review]) -> list[Review]:
    """``notes`` (in time order) with the parts of each multi-part reply (one signer's, of one
    kind, labelled ``(n/m)`` or ``Part n``: :func:`part_label`) put 1…m in the places they take:
    authors post the last part first so that OpenReview, newest on top, reads 1→m, which read
    oldest first came out m…1. Every other note keeps its place."""
    groups: dict[tuple[str, str, int], list[tuple[int, int]]] = {}
    for place, note in enumerate(notes):
        if (label := part_label(note)) is not None:
            groups.setdefault((note.kind, note.signature.casefold(), label[1]), []).append((place, label[0]))
    result = list(notes)
    for parts in groups.values():
        if len(parts) < 2:
            continue
        by_part = sorted(parts, key=lambda part: part[1])  # stable: a part given twice stays in time order
        for (place, _), (taken, _) in zip(parts, by_part, strict=True):
            result[place] = notes[taken]
    return result


def scores_only(review: Review) -> bool:
    """Whether ``review`` is a review that gives scores and no text: one reviewer's rating from
    a list of ratings (Paper Copilot's per-review ``rating``), not the review itself."""
    return review.kind == REVIEW and bool(review.scores) and not review.sections


def scores_only_line(reviews: Iterable[Review]) -> str:
    """The line the reviews screen and ``paperdeck reviews`` put above a paper's notes when some
    of its reviews are scores only (:func:`scores_only`), ``""`` when none is:
    ``"Paper Copilot: ratings only, no review text"`` (each from a Paper Copilot list), with how
    many when other reviews have text (``"… 3 of 5 reviews: ratings only, no review text"``)."""
    notes = [review for review in reviews if review.kind == REVIEW]
    only = [review for review in notes if scores_only(review)]
    if not only:
        return ""
    source = "Paper Copilot: " if all(review.id.startswith(SNAPSHOT_PREFIX) for review in only) else ""
    count = "" if len(only) == len(notes) else f"{len(only)} of {len(notes)} reviews: "
    return f"{source}{count}{SCORES_ONLY}"


def decision_line(paper: Paper, reviews: Iterable[Review]) -> str:
    """The line the reviews screen and ``paperdeck reviews`` put first when the paper has a
    decision but no decision note among ``reviews`` states it (a decision read from a decisions
    file, a Paper Copilot list or a venue string): ``"Decision: poster, from accepted.parquet"``
    — the decision as every place shows it (:func:`~paperdeck.model.decision.decision_shown`),
    then the file it came from (:meth:`Paper.source_of`); ``""`` when a decision note is there
    (it comes first itself) or there is no decision (unknown, or still under review). Not sanitised: pass it through
    :mod:`paperdeck.model.safe_text` on output."""
    if any(review.kind == DECISION for review in reviews):
        return ""
    shown = decision_shown(paper.decision, paper.decision_raw)
    if not shown or paper.decision == "under-review":
        return ""
    source = paper.source_of("decision")
    return f"Decision: {shown}" + (f", from {source}" if source else "")


def ordered_reviews(reviews: list[Review]) -> list[tuple[int, Review]]:
    """The notes as a reader meets them: decisions, meta-reviews, then each official review, each
    followed by what answers it (threaded by ``replyto``; where a snapshot flattened the thread,
    every ``replyto`` the forum, by the reviewer a reply names or who signed it:
    :func:`answered_review`), then the rest by time (the parts of a multi-part reply 1…m:
    :func:`parts_in_order`); as ``(depth, note)`` pairs, depth 0 for a note on the paper itself."""
    by_parent: dict[str, list[Review]] = {}
    ids = {review.id for review in reviews}
    flattened = all(review.replyto == review.forum for review in reviews)
    reviewers = {
        review.signature.casefold().removeprefix("reviewer_"): review.id
        for review in reviews
        if flattened and review.kind == REVIEW and review.signature.casefold().startswith("reviewer_")
    }
    for review in reviews:
        parent = review.replyto if review.replyto in ids and review.replyto != review.id else ""
        if not parent and reviewers:
            parent = answered_review(review, reviewers)
        by_parent.setdefault(parent, []).append(review)
    rank = {kind: index for index, kind in enumerate(KINDS)}
    top = parts_in_order(sorted(by_parent.get("", []), key=lambda r: (rank.get(r.kind, len(KINDS)), r.cdate, r.id)))
    result: list[tuple[int, Review]] = []
    seen: set[str] = set()

    def walk(review: Review, depth: int) -> None:
        if review.id in seen:
            return
        seen.add(review.id)
        result.append((depth, review))
        for child in parts_in_order(sorted(by_parent.get(review.id, []), key=lambda r: (r.cdate, r.id))):
            walk(child, depth + 1)

    for review in top:
        walk(review, 0)
    for review in reviews:  # a cycle of replies: shown, never lost
        walk(review, 0)
    return result
