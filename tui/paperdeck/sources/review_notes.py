"""Reviews, comments and decisions from OpenReview API v2 reply notes.

Shapes (each as a JSON array, JSON Lines or ``{"notes": […]}``, any of them gzip-compressed):

- raw reply notes: ``id``, ``forum`` (the paper), ``replyto``, ``invitations`` holding
  ``…/Submission<number>/-/<Kind>``, ``signatures``, ``cdate``/``tmdate`` (ms), ``content`` with
  every field wrapped as ``{"value": …}``; API v1 notes (the old host, ICLR ≤ 2023) alike, with one
  ``invitation`` (``ICLR.cc/2020/Conference/Paper12/-/Official_Review``; ICLR 2017's
  ``…/-/paper12/official/review``) and plain content values;
- submission notes carrying their replies in ``details.directReplies`` or ``details.replies``
  (what the API returns with ``details=directReplies``).

Kinds, by the invitation's last part (:data:`KIND_OF_INVITATION`, any case; an API v1 suffix's
``paper12/`` part left out and its ``/`` read as ``_``): ``Official_Review`` (and ``Review``),
``Meta_Review``, ``Decision`` (and ``Acceptance_Decision``, ICLR 2017's ``acceptance``),
``Ethics_Review``, ``Official_Comment`` (an author response when signed by ``…/Authors``),
``Public_Comment``, ``Withdrawal`` (and ``Desk_Rejection``, kept as a withdrawal of the paper from
review), ``Rebuttal`` / ``Author_Response`` (author responses). A reply of any other kind (a
venue's own: ``Reviewer_Flag``) is kept under its own name (``"reviewer-flag"``, see
:func:`reply_kind`): no reply kind ever refuses a file or a venue.

The rating: a review whose venue names its rating otherwise (:data:`RATING_FIELDS`:
``recommendation``, ``overall_recommendation``, ``score``) and that has no ``rating`` gets the first
of those as its ``rating`` (its label too), so that summaries, sorts and ``rating`` terms read every
venue's reviews alike.

Scores: an int or float, or a string starting with a plain decimal number followed by its end, white
space or ``:``, ``.``, ``)``, ``-`` (``"6: marginally above the acceptance threshold"``, ICLR 2024's
``"3 good"``; the text after the number kept as the score's label). A score that stands for no
finite number (``NaN``, ``Infinity``, ``1e309``, as a JSON number or as text), in any field, is
dropped and counted by its field (``"non-finite confidence"``, as the import boundary counts a
paper's: :mod:`paperdeck.sources.validate`), the rest of the reply kept. A known score field
(:data:`SCORE_FIELDS`) holding anything else (a word, ``"1e3"``), or a number beyond
:data:`MAX_SCORE`, makes the reply malformed, except ``recommendation`` text (a meta-review's
``"Accept (Poster)"``), kept as a section; other fields holding numbers are scores under their own
names (ICLR 2024's ``correctness``), other text is a section.

A malformed reply (no id or forum, an id that is not a plain token
(:func:`paperdeck.model.ids.plain_id`), content of the wrong type, a bad score) is skipped with its
reason counted (``"malformed reply"``) while the file's other replies are sound: when more than half
of a file's replies are malformed, or a reply is over :data:`MAX_NOTE_CHARS`, the file is refused.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperdeck.model.errors import SourceError
from paperdeck.model.ids import plain_id
from paperdeck.model.review import (
    AUTHOR_RESPONSE,
    COMMENT,
    DECISION,
    ETHICS_REVIEW,
    META_REVIEW,
    PUBLIC_COMMENT,
    REVIEW,
    SECTION_ORDER,
    WITHDRAWAL,
    Review,
)
from paperdeck.model.safe_text import one_line
from paperdeck.sources.base import Skip
from paperdeck.sources.jsonfile import JsonRecords, json_kind

__all__ = [
    "KIND_OF_INVITATION",
    "MAX_NOTE_CHARS",
    "MAX_SCORE",
    "RATING_FIELDS",
    "SCORE_FIELDS",
    "TEXT_SCORE_FIELDS",
    "ReplyReader",
    "UnknownKind",
    "is_reply",
    "note_review",
    "replies_in",
    "reply_kind",
    "reviews_in",
]

#: Invitation suffix → review kind.
KIND_OF_INVITATION = {
    "Official_Review": REVIEW,
    "Review": REVIEW,
    "Meta_Review": META_REVIEW,
    "Decision": DECISION,
    "Acceptance_Decision": DECISION,
    "Acceptance": DECISION,
    "Ethics_Review": ETHICS_REVIEW,
    "Ethics_Meta_Review": ETHICS_REVIEW,
    "Official_Comment": COMMENT,
    "Comment": COMMENT,
    "Public_Comment": PUBLIC_COMMENT,
    "Withdrawal": WITHDRAWAL,
    "Desk_Rejection": WITHDRAWAL,
    "Rebuttal": AUTHOR_RESPONSE,
    "Author_Response": AUTHOR_RESPONSE,
}
_KIND_FOLDED = {name.lower(): kind for name, kind in KIND_OF_INVITATION.items()}
_V1_PAPER = re.compile(r"^(?:paper|submission)\d+$", re.IGNORECASE)
_KIND_NAME = re.compile(r"[^a-z0-9]+")
#: Invitation suffixes of submissions (not replies).
_SUBMISSION_KINDS = frozenset({"Submission", "Blind_Submission", "Edit", "Withdrawn_Submission", "submission"})
#: Fields that are scores wherever they appear; anything but a number there is an error.
SCORE_FIELDS = frozenset({
    "rating", "confidence", "soundness", "presentation", "contribution", "correctness",
    "technical_novelty", "empirical_novelty", "recommendation", "overall_assessment",
    "overall_recommendation", "score",
})  # fmt: skip
#: What venues call a review's rating, in the order one is taken when a review has no ``rating``.
RATING_FIELDS = ("rating", "recommendation", "overall_recommendation", "score")
#: Most characters of text one note may hold (a real review is far shorter): a larger note
#: refuses the file.
MAX_NOTE_CHARS = 1_000_000
#: A score's largest magnitude: every review scale is far inside it; beyond it a score field
#: refuses the file (a number in another field is kept as text).
MAX_SCORE = 100
#: Score fields whose text is a section when it is no number (a meta-review's "Accept (Poster)").
TEXT_SCORE_FIELDS = frozenset({"recommendation", "overall_recommendation", "score"})
_NUMBER_LABEL = re.compile(r"^\s*(-?[0-9]{1,15}(?:\.[0-9]{1,15})?)(?:$|\s*[:.)\-–]\s*|\s+)(.*)$", re.DOTALL)
_ID_CHARS = 200
_INF = float("inf")
_SCALARS = (str, int, float)
_SECTION_NAMES = frozenset(SECTION_ORDER)
#: Fields that are written text wherever they appear: never a score, even when they start like one
#: (``"1. L426: …"``, a numbered list of questions).
_TEXT_FIELDS = _SECTION_NAMES | frozenset({
    "details_of_ethics_concerns", "limitations", "summary_of_the_paper", "summary_of_the_review",
    "strength_and_weaknesses", "clarity,_quality,_novelty_and_reproducibility", "review", "main_review",
    "abstract", "tldr", "keywords",
})  # fmt: skip
#: A score given as text outside the score fields: a number, a colon, a short one-line label.
_SCORE_TEXT = re.compile(r"^\s*-?[0-9]{1,15}(?:\.[0-9]{1,15})?\s*:\s*[^\n]{0,200}$")
_BIG = 2**53
#: An int beyond this is no finite float (``10**400``): dropped as a non-finite score.
_HUGE = 10**300


class UnknownKind(ValueError):
    """A reply without any invitation kind (skipped and counted, never refusing a file); a reply
    of a kind paperdeck does not know is kept under its own kind (:func:`reply_kind`)."""


def reply_kind(invitation: str) -> str:
    """The review kind of an invitation's last part: :data:`KIND_OF_INVITATION`'s (any case;
    API v1's ``paper12/official/review`` read as ``official_review``), else the part's own name
    as a kind, lower case, words joined by ``-``, at most 40 characters (``"Reviewer_Flag"`` →
    ``"reviewer-flag"``); ``""`` when it has no letter or digit."""
    parts = [part for part in invitation.split("/") if part and not _V1_PAPER.match(part)]
    folded = "_".join(parts).lower()
    known = _KIND_FOLDED.get(folded) or _KIND_FOLDED.get(folded.replace("official_", "", 1))
    if known is not None:
        return known
    return _KIND_NAME.sub("-", folded).strip("-")[:40].strip("-")


class _Broken(ValueError):
    """A reply over a size limit: the file is refused (it is broken or hostile)."""


def invitation_kind(record: dict[str, Any]) -> str:
    """The invitation's last part (``"Official_Review"``), ``""`` when there is none."""
    invitations = record.get("invitations")
    candidates = invitations if isinstance(invitations, list) else [record.get("invitation")]
    for invitation in candidates:
        if isinstance(invitation, str) and "/-/" in invitation:
            kind = invitation.rsplit("/-/", 1)[1]
            if kind != "Edit":
                return kind
    return ""


def is_reply(record: Any) -> bool:
    """True when ``record`` is an OpenReview reply note (not a submission): its ``forum`` or
    ``replyto`` names another note, or its invitation is a reply kind."""
    if not isinstance(record, dict):
        return False
    note_id, forum, replyto = record.get("id"), record.get("forum"), record.get("replyto")
    if (forum and note_id and forum != note_id) or (replyto and replyto != note_id):
        return True
    kind = invitation_kind(record)
    return bool(kind) and kind not in _SUBMISSION_KINDS and "content" in record and not _has_title_abstract(record)


def _has_title_abstract(record: dict[str, Any]) -> bool:
    content = record.get("content")
    return isinstance(content, dict) and "abstract" in content


def _replies(record: dict[str, Any]) -> list[Any] | None:
    details = record.get("details")
    if not isinstance(details, dict):
        return None
    replies = details.get("directReplies")
    if replies is None:
        replies = details.get("replies")
    return replies if isinstance(replies, list) else None


def reviews_in(path: Path, document: JsonRecords) -> list[Review]:
    """The reviews of :func:`replies_in`, without the skipped replies."""
    return replies_in(path, document)[0]


def replies_in(path: Path, document: JsonRecords, *, consume: bool = False) -> tuple[list[Review], list[Skip]]:
    """Every reply note of a file: the reply records themselves and the replies carried in
    submission notes' ``details`` (submission notes without them are passed over), and the
    replies skipped: unknown kinds (``"unknown reply kind (X)"``) and malformed replies
    (``"malformed reply: …"``), as the module docstring says. ``consume``: each record is dropped
    from ``document.records`` (``None`` left in its place) once its replies are read, so that the
    parsed file and its reviews are not all held at once (the caller reads the records no more).

    Raises:
        SourceError: more than half of the replies are malformed, or one is over a size limit,
            naming the file, the line or record, and the note id; nothing is returned then.
    """
    replies = ReplyReader(path, document)
    records = document.records
    for index, record in enumerate(records):
        if consume:
            records[index] = None
        replies.add(index, record)
    return replies.result()


class ReplyReader:
    """The replies of a file's records, taken one record at a time (:meth:`add`), as
    :func:`replies_in` finds them: for a reader that makes each record's paper and replies in one
    pass (each record parsed once, dropped after). An error that refuses the file (a reply over a
    size limit, a rating off its venue's scale) is kept and raised by :meth:`result`, so that the
    reader's own errors about the same file come first, as they would in two passes.
    """

    def __init__(self, path: Path, document: JsonRecords) -> None:
        self._path, self._document = path, document
        self.reviews: list[Review] = []
        self.skipped: list[Skip] = []
        #: scores left out for standing for no finite number, by reason (``"non-finite confidence"``)
        self.dropped: Counter[str] = Counter()
        self._malformed: list[tuple[int, str]] = []
        self._on_scale = _ScaleCheck(path, document)
        self._error: SourceError | None = None

    def add(self, index: int, record: Any) -> None:
        """Take the replies of record ``index`` (nothing more once an error refuses the file)."""
        if self._error is not None:
            return
        document = self._document
        for note in _notes_of(record):
            try:
                review = note_review(note, self.dropped)
                self._on_scale(index, review)
                self.reviews.append(review)
            except UnknownKind as exc:
                self.skipped.append(Skip(document.position(index), f"unknown reply kind ({exc})"))
            except _Broken as exc:
                self._error = SourceError(self._path, f"{document.position(index)}: {exc}", document.line(index))
                return
            except SourceError as exc:  # off its venue's scale
                self._error = exc
                return
            except ValueError as exc:
                self._malformed.append((index, str(exc)))
                self.skipped.append(Skip(document.position(index), f"malformed reply: {exc}"))

    def result(self) -> tuple[list[Review], list[Skip]]:
        """The reviews and the replies skipped, as :func:`replies_in` returns them.

        Raises:
            SourceError: as :func:`replies_in`.
        """
        if self._error is not None:
            raise self._error
        malformed = self._malformed
        if malformed and len(malformed) * 2 > len(malformed) + len(self.reviews):
            index, reason = malformed[0]
            raise SourceError(self._path, f"{self._document.position(index)}: {reason}", self._document.line(index))
        return self.reviews, self.skipped


class _ScaleCheck:
    """Refuses a file whose official reviews rate off their venue's known scale (a 5 in an ICLR
    2026 file: :func:`paperdeck.model.venue.group_scale`), as a paper list's ratings are refused
    (:func:`paperdeck.sources.validate.with_scales`): the file mixes scales. One dict look-up per
    review (by venue and rating)."""

    def __init__(self, path: Path, document: JsonRecords) -> None:
        self._path, self._document = path, document
        self._seen: dict[tuple[str, float], bool] = {}

    def __call__(self, index: int, review: Review) -> None:
        """Raises :class:`SourceError` naming the file, the record, the note and the scale."""
        if review.kind != REVIEW or not review.venue_id:
            return
        rating = review.score("rating")
        if rating is None:
            return
        key = (review.venue_id, rating)
        held = self._seen.get(key)
        if held is None:
            from paperdeck.model.venue import group_scale

            scale = group_scale(review.venue_id)
            held = self._seen[key] = scale is None or scale.holds(rating)
        if not held:
            scale = group_scale(review.venue_id)
            assert scale is not None
            position, line = self._document.position(index), self._document.line(index)
            raise SourceError(
                self._path,
                f"{position}: note {review.id} (paper {review.forum}): rating {rating:g} is not on "
                f"{one_line(review.venue_id)[:60]}'s scale ({scale.label}): the file mixes scales",
                line,
            )


def _notes_of(record: Any) -> Iterator[Any]:
    if is_reply(record):
        yield record
        return
    if isinstance(record, dict):
        replies = _replies(record)
        if replies is not None:
            forum = record.get("id")
            for reply in replies:
                if isinstance(reply, dict) and "forum" not in reply and isinstance(forum, str):
                    reply = {**reply, "forum": forum}
                yield reply


def note_review(note: Any, dropped: Counter[str] | None = None) -> Review:
    """The :class:`Review` in one reply note. A score that stands for no finite number is left out
    of it and counted in ``dropped`` (``"non-finite confidence"``), when given.

    Raises:
        ValueError: not an object, no id or forum, an unknown kind, content that is not an
            object, a score that is not a number, or more than :data:`MAX_NOTE_CHARS` of text
            (the message names the note id).
    """
    if not isinstance(note, dict):
        raise ValueError(f"expected a reply note (an object), got {json_kind(note)}")
    note_id = note.get("id")
    if not isinstance(note_id, str) or not note_id.strip() or len(note_id) > _ID_CHARS:
        raise ValueError("a reply note without an id")
    if not plain_id(note_id.strip()):
        raise ValueError(f"a reply note whose id is not a plain token ({one_line(note_id)[:40]!r})")
    label = f"note {note_id.strip()[:40]}"
    forum = note.get("forum")
    if not isinstance(forum, str) or not forum.strip() or len(forum) > _ID_CHARS:
        raise ValueError(f"{label} has no forum (the paper it is on)")
    if not plain_id(forum.strip()):
        raise ValueError(f"{label}: its forum is not a plain token ({one_line(forum)[:40]!r})")
    replyto = note.get("replyto")
    if not isinstance(replyto, str) or not replyto.strip() or not plain_id(replyto.strip()):
        replyto = forum
    invitation = invitation_kind(note)
    kind = KIND_OF_INVITATION.get(invitation) or reply_kind(invitation)
    if not kind:
        raise UnknownKind(one_line(invitation or "no invitation")[:60])
    signature = _signature(note.get("signatures"))
    if kind == COMMENT and signature == "Authors":
        kind = AUTHOR_RESPONSE
    content = note.get("content", {})
    if not isinstance(content, dict):
        raise ValueError(f"{label}: content is {json_kind(content)}, expected an object")
    scores: list[tuple[str, float]] = []
    labels: list[tuple[str, str]] = []
    sections: dict[str, str] = {}
    far: list[tuple[str, float]] = []  # numbers beyond any scale: an error or text, after the rest
    size = 0
    for name, wrapped in content.items():
        value: Any = wrapped.get("value") if type(wrapped) is dict else wrapped
        kind_of = type(value)
        if kind_of is str:
            if not value:
                continue
            if name in TEXT_SCORE_FIELDS and not _NUMBER_LABEL.match(value[:2000]):
                sections[name] = value
                size += len(value)
            elif name in SCORE_FIELDS or (name not in _TEXT_FIELDS and value[:1].isdigit() and _is_number(value)):
                if _non_finite_text(value):
                    _drop(name, dropped)
                    continue
                score, text = _score(value, name, label)
                (scores if -MAX_SCORE <= score <= MAX_SCORE else far).append((name, score))
                if not text:
                    continue
                labels.append((name, text))
                size += len(text)
            else:
                sections[name] = value
                size += len(value)
        elif kind_of is int and -MAX_SCORE <= value <= MAX_SCORE:
            scores.append((name, float(value)))
            continue
        elif kind_of is int or kind_of is float:
            if (kind_of is float and not math.isfinite(value)) or (kind_of is int and not -_HUGE < value < _HUGE):
                _drop(name, dropped)
                continue
            score = float(value) if kind_of is int and -_BIG < value < _BIG else _score(value, name, label)[0]
            (scores if -MAX_SCORE <= score <= MAX_SCORE else far).append((name, score))
            continue
        elif value is None:
            continue
        elif name in SCORE_FIELDS:
            _score(value, name, label)  # raises: not a number
        elif text := _text(value, name, label):
            sections[name] = text
            size += len(text)
        else:
            continue
        if size > MAX_NOTE_CHARS:
            raise _Broken(f"{label}: over {MAX_NOTE_CHARS:,} characters of text; is the file broken?")
    if kind == REVIEW and "rating" not in content and scores:  # a dict look-up: no walk of every review
        scores, labels = _as_rating(scores, labels)
    for name, score in far:
        if name in SCORE_FIELDS:
            scale = f"-{MAX_SCORE} to {MAX_SCORE}"
            raise ValueError(f"{label}: {name} {score:.6g} is outside any review scale ({scale})")
        sections[name] = f"{score:.6g}"  # a number, but no score: kept as the note's text
    ordered = [(name, sections[name]) for name in SECTION_ORDER if name in sections]
    if len(ordered) < len(sections):
        ordered += [(name, text) for name, text in sections.items() if name not in _SECTION_NAMES]
    number = note.get("number")
    domain = note.get("domain")
    cdate = _time(note.get("cdate"))
    return Review(
        note_id.strip(),
        forum.strip(),
        replyto.strip(),
        kind,
        signature,
        number if type(number) is int else None,
        cdate,
        _time(note.get("tmdate")) or _time(note.get("mdate")) or cdate,
        tuple(scores),
        tuple(labels),
        tuple(ordered),
        domain[:_ID_CHARS] if type(domain) is str else "",
    )


def _as_rating(
    scores: list[tuple[str, float]], labels: list[tuple[str, str]]
) -> tuple[list[tuple[str, float]], list[tuple[str, str]]]:
    """``scores`` and ``labels`` with the first of :data:`RATING_FIELDS` present renamed ``rating``
    (as they were when none is)."""
    names = {name for name, _ in scores}
    alias = next((name for name in RATING_FIELDS if name in names), None)
    if alias is None:
        return scores, labels
    rename = {alias: "rating"}
    return [(rename.get(n, n), v) for n, v in scores], [(rename.get(n, n), t) for n, t in labels]


def _non_finite_text(value: str) -> bool:
    """Whether ``value`` is text for no finite number (``"NaN"``, ``"-Infinity"``, ``"1e309"``);
    ``"1e3"``, ``"1_000"`` or ``"٣"`` (finite, but no plain decimal) are not: they stay errors."""
    if len(value) > 40 or not value.isascii() or (value[:1].isdigit() and "e" not in value.lower()):
        return False
    try:
        return not math.isfinite(float(value))
    except ValueError:
        return False


def _drop(name: str, dropped: Counter[str] | None) -> None:
    """Count a score of field ``name`` left out for standing for no finite number."""
    if dropped is not None:
        dropped[f"non-finite {name}"] += 1


def _is_number(value: str) -> bool:
    """A score given as text in a field that is no known score: ``"6: marginally above the
    acceptance threshold"`` — the number, a colon, one short line (a numbered list such as
    ``"1. L426: …"`` is text)."""
    return len(value) <= 240 and _SCORE_TEXT.match(value) is not None


def _score(value: Any, name: str, label: str) -> tuple[float, str]:
    if type(value) is int or type(value) is float:
        try:
            score = float(value)
        except OverflowError:
            raise ValueError(f"{label}: {name} is not a finite number") from None
        if score != score or score in (_INF, -_INF):
            raise ValueError(f"{label}: {name} is not a finite number")
        return score, ""
    if isinstance(value, str):
        match = _NUMBER_LABEL.match(value[:2000])
        if match is not None:  # at most 15 digits each side: always finite
            return float(match.group(1)), (match.group(2) or "").strip()
        raise ValueError(f"{label}: {name} is not a number ({value[:40]!r})")
    raise ValueError(f"{label}: {name} is {json_kind(value)}, expected a number")


def _text(value: Any, name: str, label: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if type(value) is list:
        if all(type(item) is str for item in value):
            return "; ".join(value)
        if all(isinstance(item, _SCALARS) for item in value):
            return "; ".join(str(item) for item in value)
    raise ValueError(f"{label}: {name} is {json_kind(value)}, expected text")


def _signature(signatures: Any) -> str:
    if isinstance(signatures, list) and signatures and isinstance(signatures[0], str):
        return signatures[0].rsplit("/", 1)[-1][:100]
    return ""


def _time(value: Any) -> int:
    return value if type(value) is int and value > 0 else 0
