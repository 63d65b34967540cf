"""What an import changed on a paper: the catalogue's history between two looks.

OpenReview overwrites a review when its reviewer edits it; paperdeck keeps the catalogue as it was,
so each import (a file or a fetch) can say what moved. A :class:`PaperChange` is one paper's change
in one import: a new paper, its decision (old → new), its title or abstract, official reviews added
or removed, each review's rating and confidence (old → new, by review note id, as
:class:`ScoreChange`), and the mean rating's move. The store keeps them in an append-only log
(:mod:`paperdeck.store.changes`); :func:`paper_changes` computes them from the catalogue before and
after an import, :func:`combined` sums one paper's changes over a span of time.

Texts here are data from files (review signatures, decisions): every output passes them through
:mod:`paperdeck.model.safe_text`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from paperdeck.model.paper import Paper

__all__ = [
    "CHANGE_KINDS",
    "RATING_UNKNOWN",
    "NoteChange",
    "PaperChange",
    "ScoreChange",
    "combined",
    "in_baseline",
    "paper_changes",
    "rating_moves",
    "with_baseline",
]

#: What a change can be about, as ``changed:`` terms name them: a new paper, its decision, its
#: rating (the mean or any review's rating), a review's confidence, reviews added or removed,
#: its title, its abstract; and a paper taken out of the store (``paperdeck remove``, an import undone).
CHANGE_KINDS = ("new", "decision", "rating", "confidence", "reviews", "title", "abstract", "removed")
#: The review scores whose moves are recorded.
SCORE_FIELDS = ("rating", "confidence")


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """One score of one official review, old → new.

    Attributes:
        review: the review note's OpenReview id.
        signature: who signed it (``"Reviewer_hsV6"``), ``""`` when unsigned.
        field: ``"rating"`` or ``"confidence"``.
        old, new: the score before and after; ``None`` when the review had none (a new review:
            ``old`` is ``None``).
        old_time, new_time: the note's ``tmdate`` before and after, milliseconds since the epoch
            (``0`` when unknown).
    """

    review: str
    signature: str
    field: str
    old: float | None
    new: float | None
    old_time: int = 0
    new_time: int = 0

    def to_list(self) -> list[Any]:
        """Compact JSON form: ``[review, signature, field, old, new, old_time, new_time]``."""
        return [self.review, self.signature, self.field, self.old, self.new, self.old_time, self.new_time]

    @classmethod
    def from_list(cls, data: list[Any]) -> ScoreChange:
        """Inverse of :meth:`to_list`.

        Raises:
            ValueError, TypeError: not seven values of the right kinds.
        """
        review, signature, field, old, new, old_time, new_time = data
        return cls(str(review), str(signature), str(field), _score(old), _score(new), int(old_time), int(new_time))

    def public_dict(self) -> dict[str, Any]:
        """For ``--json`` output: every field under its full name."""
        return {"review": self.review, "signature": self.signature, "field": self.field, "old": self.old,
                "new": self.new, "old_tmdate": self.old_time, "new_tmdate": self.new_time}  # fmt: skip


@dataclass(frozen=True, slots=True)
class NoteChange:
    """An official review added, replaced by a newer version, or removed by a review import.

    Attributes:
        forum: the paper's OpenReview forum id.
        review: the note's id.
        change: ``"added"``, ``"updated"`` or ``"removed"``.
        scores: the moves of its :data:`SCORE_FIELDS` (only those that moved).
    """

    forum: str
    review: str
    change: str
    scores: tuple[ScoreChange, ...] = ()


@dataclass(frozen=True, slots=True)
class PaperChange:
    """What one import changed on one paper.

    Attributes:
        at: when the import ran, ISO 8601 UTC (``"2026-11-29T19:30:00.123456+00:00"``).
        paper_id: the paper's id then (the store resolves it to the current id on reading).
        new: the paper was not in the catalogue before.
        decision: ``(old, new)`` decisions (:data:`paperdeck.model.paper.DECISIONS`), ``None``
            when it did not change.
        title, abstract: the title (a given one, not derived) / the abstract changed.
        added, removed: ids of official reviews added / removed.
        scores: each review score that moved, by review note id.
        mean: ``(old, new)`` mean rating, ``None`` when it did not move.
        gone: the paper was taken out of the catalogue (removed, or its import undone).
        first: the paper's first imports, folded into one (:func:`with_baseline`): the baseline,
            not news, said as ``first imported 2026-12-07: decision poster, rating 4.5`` (never
            written to the change log); ``new`` then says whether one of them added the paper
            (else it was in the store before them: ``as first seen 2026-12-07: …``).
    """

    at: str
    paper_id: str
    new: bool = False
    decision: tuple[str, str] | None = None
    title: bool = False
    abstract: bool = False
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    scores: tuple[ScoreChange, ...] = ()
    mean: tuple[float | None, float | None] | None = None
    gone: bool = False
    first: bool = False

    @property
    def kinds(self) -> frozenset[str]:
        """Which of :data:`CHANGE_KINDS` this change is about."""
        found = set()
        if self.new and not self.first:  # a paper's first imports are not news of a new paper
            found.add("new")
        if self.decision is not None:
            found.add("decision")
        if self.mean is not None or any(s.field == "rating" for s in self.scores):
            found.add("rating")
        if any(s.field == "confidence" for s in self.scores):
            found.add("confidence")
        if self.added or self.removed:
            found.add("reviews")
        if self.title:
            found.add("title")
        if self.abstract:
            found.add("abstract")
        if self.gone:
            found.add("removed")
        return frozenset(found)

    @property
    def is_empty(self) -> bool:
        """True when it says nothing changed."""
        return not self.kinds

    def to_dict(self) -> dict[str, Any]:
        """Compact JSON form for the log (empty parts left out)."""
        data: dict[str, Any] = {"at": self.at, "id": self.paper_id}
        if self.new:
            data["new"] = 1
        if self.decision is not None:
            data["d"] = list(self.decision)
        if self.title:
            data["t"] = 1
        if self.abstract:
            data["a"] = 1
        if self.added:
            data["+"] = list(self.added)
        if self.removed:
            data["-"] = list(self.removed)
        if self.scores:
            data["s"] = [score.to_list() for score in self.scores]
        if self.mean is not None:
            data["m"] = list(self.mean)
        if self.gone:
            data["gone"] = 1
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PaperChange:
        """Inverse of :meth:`to_dict`.

        Raises:
            KeyError, ValueError, TypeError: a malformed record.
        """
        decision = data.get("d")
        mean = data.get("m")
        if decision is not None:
            old_decision, new_decision = decision
            decision = (str(old_decision), str(new_decision))
        if mean is not None:
            old_mean, new_mean = mean
            mean = (_score(old_mean), _score(new_mean))
        return cls(
            at=str(data["at"]),
            paper_id=str(data["id"]),
            new=bool(data.get("new")),
            decision=decision,
            title=bool(data.get("t")),
            abstract=bool(data.get("a")),
            added=tuple(map(str, data.get("+") or ())),
            removed=tuple(map(str, data.get("-") or ())),
            scores=tuple(ScoreChange.from_list(item) for item in data.get("s") or ()),
            mean=mean,
            gone=bool(data.get("gone")),
        )

    def public_dict(self) -> dict[str, Any]:
        """For ``--json`` output: every field under its full name, with ``kinds``."""
        return {
            "at": self.at,
            "id": self.paper_id,
            "kinds": [kind for kind in CHANGE_KINDS if kind in self.kinds],
            "new": self.new,
            "decision": None if self.decision is None else {"old": self.decision[0], "new": self.decision[1]},
            "title": self.title,
            "abstract": self.abstract,
            "reviews_added": list(self.added),
            "reviews_removed": list(self.removed),
            "scores": [score.public_dict() for score in self.scores],
            "mean": None if self.mean is None else {"old": self.mean[0], "new": self.mean[1]},
            "removed": self.gone,
            "first_imports": self.first,
        }

    def lines(self) -> list[str]:
        """What changed, one line per part, in the field's words::

            decision poster → oral
            rating 4.5 → 5.5: Reviewer_hsV6 4 → 6, 2025-11-22 → 11-29
            confidence: Reviewer_hsV6 3 → 4
            2 reviews added

        Signatures and decisions are data: the caller makes them safe (:mod:`paperdeck.model.safe_text`).
        The paper's first imports (:attr:`first`) are one line of what they brought, dated:
        ``first imported 2026-12-07: decision poster, rating 4.5, 3 reviews``.
        """
        if self.first:
            return [self._first_line()]
        found: list[str] = []
        if self.new:
            found.append("new paper")
        if self.decision is not None:
            found.append(f"decision {self.decision[0]} → {self.decision[1]}")
        for field in SCORE_FIELDS:
            moves = "; ".join(_score_text(score, self.at) for score in self.scores if score.field == field)
            head = field
            if field == "rating" and self.mean is not None:
                head = f"rating {_number(self.mean[0])} → {_number(self.mean[1])}"
            if moves:
                found.append(f"{head}: {moves}")
            elif head != field:
                found.append(head)
        for count, verb in ((len(self.added), "added"), (len(self.removed), "removed")):
            if count:
                found.append(f"{count} review{'s' if count != 1 else ''} {verb}")
        if self.title:
            found.append("title changed")
        if self.abstract:
            found.append("abstract changed")
        if self.gone:
            found.append("removed from the store")
        return found

    def _first_line(self) -> str:
        """:meth:`lines` of the paper's first imports: what they brought, not moves."""
        parts = [f"decision {self.decision[1]}"] if self.decision is not None else []
        if self.mean is not None and self.mean[1] is not None:
            parts.append(f"rating {_number(self.mean[1])}")
        if reviews := len(self.added) - len(self.removed):
            parts.append(f"{reviews} review{'s' if reviews != 1 else ''}")
        # "first imported" only for a paper the store did not hold before (a paper already there,
        # under review when the Parquet brought its decision, was not first imported then)
        said = "first imported" if self.new else "as first seen"
        return f"{said} {self.at[:10]}" + (f": {', '.join(parts)}" if parts else "")


def in_baseline(change: PaperChange, baseline: str | None) -> bool:
    """Whether ``change`` is of the store's baseline: recorded before the user first opened the
    store in the app (at or before ``baseline``, the time of the latest change then, as
    :class:`~paperdeck.store.changes.SeenMark` keeps it). The one rule of what is not news: no
    ``•`` flags it (the flag counts changes after the seen mark, never before the baseline) and
    the history says it as the paper's first imports (:func:`with_baseline`). ``None`` (the app
    never opened the store: a store used from the command line alone) sets no baseline yet: its
    changes are listed as recorded (``paperdeck changes`` after two fetches shows the moves)."""
    return baseline is not None and change.at <= baseline


def rating_moves(changes: Iterable[PaperChange]) -> list[PaperChange]:
    """Of ``changes`` (:func:`paper_changes` of the first reviews a store imports), the moves of a
    mean rating a source had set before (``rating 4.5 → 7``: the Paper Copilot Parquet's
    pre-discussion mean, then the review notes'), each as that alone: a mean the reviews bring
    to a paper that had none is their first snapshot, not a change."""
    return [
        PaperChange(at=change.at, paper_id=change.paper_id, mean=change.mean)
        for change in changes
        if change.mean is not None and change.mean[0] is not None and not change.new
    ]


#: :func:`with_baseline`'s ``rating_now`` when the paper's rating is not known to the caller.
RATING_UNKNOWN = float("nan")


def with_baseline(
    changes: Sequence[PaperChange], baseline: str | None, rating_now: float | None = RATING_UNKNOWN
) -> list[PaperChange]:
    """One paper's ``changes`` (oldest first) with those of the baseline (:func:`in_baseline`)
    folded into one, first (:attr:`PaperChange.first`: ``first imported 2026-12-07: decision
    poster, rating 4.5``; ``as first seen 2026-12-07: …`` for a paper none of them added), the
    later ones as they are.

    ``rating_now``: the paper's mean rating as the store holds it (``None``: none). When the last
    mean the changes logged is not it (a log written before a second source's ratings were
    logged: the Paper Copilot Parquet's pre-discussion 4.5, then the review notes' 7.0 unlogged),
    the folded line leaves its rating out rather than contradict the paper's: it says only what
    is still true."""
    first = [change for change in changes if in_baseline(change, baseline)]
    later = [change for change in changes if not in_baseline(change, baseline)]
    folded = _first_imports(first)
    if folded is not None and folded.mean is not None and not any(c.mean is not None for c in later):
        shown = folded.mean[1]
        if rating_now is None or shown is None:
            stale = shown is not rating_now
        else:
            stale = rating_now == rating_now and abs(shown - rating_now) > 0.005  # (NaN: not known)
        if stale:
            folded = replace(folded, mean=None)
    return ([folded] if folded is not None else []) + later


def _first_imports(changes: Sequence[PaperChange]) -> PaperChange | None:
    """``changes`` folded into one :attr:`~PaperChange.first` change (``None`` for none): the
    last decision and mean they brought, the reviews they added."""
    if not changes:
        return None
    decisions = [c.decision for c in changes if c.decision is not None]
    means = [c.mean for c in changes if c.mean is not None]
    added = {r: None for c in changes for r in c.added}
    removed = {r: None for c in changes for r in c.removed}
    return PaperChange(
        at=changes[-1].at,
        paper_id=changes[-1].paper_id,
        new=any(c.new for c in changes),
        decision=decisions[-1] if decisions else None,
        added=tuple(r for r in added if r not in removed),
        mean=means[-1] if means else None,
        first=True,
    )


def _score(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"a score must be a number, not {type(value).__name__}")
    return float(value)


def _number(value: float | None) -> str:
    """A score as people write it: ``6``, ``4.5``, ``5.33``; ``–`` for none."""
    if value is None:
        return "–"
    return f"{value:g}" if value == int(value) else f"{round(value, 2):g}"


def _day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d") if ms > 0 else ""


#: How long before a change is recorded the reviews it records may have been stamped with the
#: import's own time (a version without a time of its own takes it when the import merges the
#: reviews: :func:`paperdeck.store.review_history.merge_versions`; the change is recorded once
#: the merge is done, minutes later for a whole conference).
_IMPORT_SPAN_MS = 30 * 60 * 1000


def _ms_of(at: str) -> int:
    """An ISO 8601 time as milliseconds since the epoch (``0`` when it is not one)."""
    try:
        return int(datetime.fromisoformat(at).timestamp() * 1000)
    except ValueError:
        return 0


def _score_text(score: ScoreChange, at: str = "") -> str:
    """``"Reviewer_hsV6 4 → 6, 2025-11-22 → 11-29"`` (the second date without its year when it is
    the same): the source's dates. A version the source gave no time (a Paper Copilot list) has
    the import's, ``at``'s: said so, ``"Reviewer_hsV6 – → 6, imported 2026-12-06"``, never as if
    the source had dated it."""
    text = f"{score.signature or score.review} {_number(score.old)} → {_number(score.new)}"
    old_day, new_day = _day(score.old_time), _day(score.new_time)
    at_ms = _ms_of(at) if at else 0
    if new_day and at_ms and at_ms - _IMPORT_SPAN_MS <= score.new_time <= at_ms + 1000:
        return text + (f", {old_day} → imported {new_day}" if old_day else f", imported {new_day}")
    if old_day and new_day:
        shown = new_day[5:] if new_day[:4] == old_day[:4] else new_day
        text += f", {old_day} → {shown}"
    elif new_day:
        text += f", {new_day}"
    return text


def _same_text(a: str, b: str) -> bool:
    return a.split() == b.split()


def paper_changes(
    before: Mapping[str, Paper],
    after: Mapping[str, Paper],
    aliases: Mapping[str, str],
    notes: Iterable[NoteChange],
    at: str,
) -> list[PaperChange]:
    """The change of each paper of ``after`` against ``before``, in ``after``'s order (papers that
    did not change are left out).

    New papers are recorded when their conference (venue and year) was in the catalogue before
    with at least as many papers as the import adds to it: an import that more than doubles a
    conference (its first full list, after the bundled seed abstracts or none) is that list's
    first snapshot, not news about each of its papers.

    Args:
        before, after: the catalogue before and after an import, by paper id.
        aliases: old id → newer id after the import (a paper that got a better id is matched to
            its record under the old one).
        notes: the official reviews the import added, replaced or removed; those on papers not in
            ``after`` (by OpenReview forum id) are left out.
        at: the import's time, ISO 8601 UTC.
    """

    def current(paper_id: str) -> str:
        for _ in range(8):
            if paper_id not in aliases:
                break
            paper_id = aliases[paper_id]
        return paper_id

    old_of: dict[str, Paper] = {}
    for paper_id, paper in before.items():
        if paper_id in after:
            old_of[paper_id] = paper
    for paper_id, paper in before.items():
        old_of.setdefault(current(paper_id), paper)
    held = Counter((paper.venue, paper.year) for paper in before.values())
    added = Counter((paper.venue, paper.year) for pid, paper in after.items() if pid not in old_of)
    by_forum: dict[str, list[NoteChange]] = {}
    for note in notes:
        by_forum.setdefault(note.forum, []).append(note)
    found: list[PaperChange] = []
    for paper_id, paper in after.items():
        old = old_of.get(paper_id)
        if old is None:
            conference = (paper.venue, paper.year)
            if added[conference] <= held[conference]:
                found.append(PaperChange(at, paper_id, new=True))
            continue
        change = PaperChange(at, paper_id)
        if old.decision != paper.decision:
            change = replace(change, decision=(old.decision, paper.decision))
        if not (old.title_derived or paper.title_derived) and not _same_text(old.title, paper.title):
            change = replace(change, title=True)
        if old.abstract and paper.abstract and not _same_text(old.abstract, paper.abstract):
            change = replace(change, abstract=True)
        old_mean = None if old.ratings is None else old.ratings.mean
        new_mean = None if paper.ratings is None else paper.ratings.mean
        # Compared to 3 places (a catalogue written before keeps means so rounded), kept whole.
        if (old_mean is None) != (new_mean is None) or (
            old_mean is not None and new_mean is not None and round(old_mean, 3) != round(new_mean, 3)
        ):
            change = replace(change, mean=(old_mean, new_mean))
        on_paper = by_forum.get(paper.openreview_id, []) if paper.openreview_id else []
        if on_paper:
            change = replace(
                change,
                added=tuple(n.review for n in on_paper if n.change == "added"),
                removed=tuple(n.review for n in on_paper if n.change == "removed"),
                scores=tuple(score for n in on_paper for score in n.scores),
            )
        if not change.is_empty:
            found.append(change)
    return found


def combined(changes: Iterable[PaperChange]) -> PaperChange | None:
    """One paper's changes (oldest first) as one: the first old value and the last new one of
    its decision, mean and each review's score (a value moved and moved back is no change),
    every review added and not removed again and the reverse; ``at`` the latest. ``None`` when
    nothing is left."""
    items = list(changes)
    if not items:
        return None
    first, last = items[0], items[-1]
    decisions = [c.decision for c in items if c.decision is not None]
    decision = (decisions[0][0], decisions[-1][1]) if decisions else None
    means = [c.mean for c in items if c.mean is not None]
    mean = (means[0][0], means[-1][1]) if means else None
    scores: dict[tuple[str, str], ScoreChange] = {}
    for change in items:
        for score in change.scores:
            key = (score.review, score.field)
            held = scores.get(key)
            scores[key] = score if held is None else replace(score, old=held.old, old_time=held.old_time)
    added = {r: None for c in items for r in c.added}
    removed = {r: None for c in items for r in c.removed}
    result = PaperChange(
        at=last.at,
        paper_id=last.paper_id,
        new=first.new,
        decision=decision if decision is not None and decision[0] != decision[1] else None,
        title=any(c.title for c in items),
        abstract=any(c.abstract for c in items),
        added=tuple(r for r in added if r not in removed),
        removed=tuple(r for r in removed if r not in added),
        scores=tuple(s for s in scores.values() if s.old != s.new),
        mean=mean if mean is not None and mean[0] != mean[1] else None,
        gone=last.gone,
    )
    return None if result.is_empty else result
