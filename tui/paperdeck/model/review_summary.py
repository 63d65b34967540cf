"""The summary of one paper's review scores: its ratings at a glance, and where its mean stands.

A :class:`ReviewSummary` is what lists, sorts and filters read: computed from a paper's official
reviews (:class:`paperdeck.model.review.Review`) when they are imported, so that none of them opens
review text. A :class:`Rank` places a paper's mean among its venue's; :class:`SomeSummaries` holds
the summaries of some papers only (a venue scope's), :func:`covers` tells which forums a set of
summaries answers for.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, NamedTuple

from paperdeck.model.paper import exact_sum, mean_and_std
from paperdeck.model.review import COMMENT_KINDS, DECISION, REVIEW, WITHDRAWAL, Review

__all__ = [
    "RATING_SCALES",
    "Rank",
    "ReviewSummary",
    "SomeSummaries",
    "covers",
    "forums_of",
]

#: The rating scale of a venue, by its OpenReview group: the values a reviewer could choose.
RATING_SCALES = {
    "ICLR.cc/2026/Conference": "0, 2, 4, 6, 8, 10",
    "ICLR.cc/2025/Conference": "1, 3, 5, 6, 8, 10",
    "ICLR.cc/2024/Conference": "1, 3, 5, 6, 8, 10",
}


def _group_scale(group: str) -> str:
    """The known scale of the venue ``group`` names, as text (:func:`paperdeck.model.venue.group_scale`)."""
    from paperdeck.model.venue import group_scale

    scale = group_scale(group)
    return scale.text() if scale is not None else ""


#: The scores a summary gives the mean of, besides the rating.
_MEAN_FIELDS = ("confidence", "soundness", "presentation", "contribution")


def _mean(values: list[float]) -> float | None:
    """The mean, to full precision (rounded once, where it is shown), the same in any order."""
    return exact_sum(values) / len(values) if values else None


#: One float object per value the summaries hold (ratings repeat: 6.0, 4.0, 2.75 …), see _shared_number.
_NUMBERS: dict[float, float] = {}


def _shared_number(value: Any) -> Any:
    """A float as the one object kept for its value (others as they are); bounded."""
    if type(value) is not float:
        return value
    shared = _NUMBERS.get(value)
    if shared is None:
        if len(_NUMBERS) >= 65_536:
            return value
        shared = _NUMBERS[value] = value
    return shared


#: Tuples of scores kept once for their value (:func:`_shared_scores`): papers' ratings and
#: confidences repeat (four reviews on a scale of six values).
_SCORES: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _shared_scores(values: Any) -> tuple[Any, ...]:
    """``values`` (a list of scores) as a tuple, each float shared (:func:`_shared_number`), the
    tuple itself the one object kept for its value; bounded."""
    try:  # most are kept already: an equal tuple finds them (floats compare by value)
        shared = _SCORES.get(tuple(values or ()))
    except TypeError:  # an unhashable item (a malformed file): as below
        shared = None
    if shared is not None:
        return shared
    scores = tuple(map(_shared_number, values or ()))
    try:
        shared = _SCORES.get(scores)
    except TypeError:  # an unhashable item (a malformed file): kept as it is, as before
        return scores
    if shared is None:
        if len(_SCORES) >= 65_536:
            return scores
        shared = _SCORES[scores] = scores
    return shared


class Rank(NamedTuple):
    """Where a paper's mean rating stands: ``top`` is the share (0–1] of the ``of`` rated papers
    of its venue (every reviewed paper of that venue in the store, whatever the list shows) whose
    mean is as high or higher; ``venue`` is the venue's OpenReview group the ranked papers share
    (``"ICLR.cc/2026/Conference"``, ``""``: papers whose reviews name none, ranked among themselves).
    ``0.18`` of 19,499 in ICLR 2026: "top 18 % of 19,499 rated in ICLR 2026"."""

    top: float
    of: int
    venue: str = ""

    def label(self) -> str:
        """``"top 18 % of 19,499 rated in ICLR 2026"``: always says what it is relative to (the
        venue named from its group, :func:`~paperdeck.model.venue.group_name`, safe text on one
        line; without a venue, ``"top 18 % of 19,499 rated"``); the only paper rated there:
        ``"the only paper rated in ICLR 2026"``)."""
        from paperdeck.model.venue import group_name

        name = group_name(self.venue) if self.venue else ""
        where = f" in {name}" if name else ""
        if self.of == 1:  # "top 100 % of 1 rated" says nothing
            return f"the only paper rated{where}"
        return f"top {max(1, round(self.top * 100))} % of {self.of:,} rated{where}"


@dataclass(frozen=True, slots=True)
class ReviewSummary:
    """The scores of one paper's official reviews, at a glance.

    Attributes:
        count: official reviews with a rating.
        mean, min, max, std: of those ratings (``None`` when ``count`` is 0); ``std`` is the
            population standard deviation.
        ratings: each rating in review order (by ``cdate``).
        confidences: each review's confidence, aligned with ``ratings`` (``None`` where absent).
        confidence, soundness, presentation, contribution: means over the reviews giving them.
        scale: the rating scale of the venue when known (``"0, 2, 4, 6, 8, 10"``, ``"1-10"``: see
            :class:`paperdeck.model.venue.Scale`), else ``""``.
        comments: comments, author responses and public comments.
        decision: the text of a Decision note (``"Accept (Oral)"``), ``""`` when there is none.
        withdrawn: a Withdrawal note is present.
        initial_ratings: each review's first rating (its oldest version giving one), aligned with
            ``ratings``; ``()`` when every first rating equals the current one.
        moved: official reviews whose rating took more than one value across their versions
            (:meth:`Review.moved`), even when it came back.
        venue: the venue's OpenReview group the notes name (:attr:`Review.venue_id`,
            ``"ICLR.cc/2026/Conference"``), ``""`` when none does: ranks are taken within it.
    """

    count: int = 0
    mean: float | None = None
    min: float | None = None
    max: float | None = None
    std: float | None = None
    ratings: tuple[float, ...] = ()
    confidences: tuple[float | None, ...] = ()
    confidence: float | None = None
    soundness: float | None = None
    presentation: float | None = None
    contribution: float | None = None
    scale: str = ""
    comments: int = 0
    decision: str = ""
    withdrawn: bool = False
    initial_ratings: tuple[float, ...] = ()
    moved: int = 0
    venue: str = ""

    @property
    def rating_initial(self) -> float | None:
        """The mean of each review's first rating (``None`` without ratings)."""
        return _mean(list(self.initial_ratings or self.ratings))

    @property
    def rating_delta(self) -> float | None:
        """Current mean − :attr:`rating_initial`, rounded to 9 places: no float noise for
        ``rating_delta>=1`` to miss, and no rounding for a shown ``+0.05`` to round again
        (``None`` without ratings)."""
        initial = self.rating_initial
        return None if self.mean is None or initial is None else round(self.mean - initial, 9)

    @property
    def spread(self) -> float | None:
        """``max - min`` of the ratings (``None`` without ratings)."""
        return None if self.max is None or self.min is None else self.max - self.min

    @classmethod
    def of(cls, reviews: Iterable[Review]) -> ReviewSummary:
        """The summary of one paper's reply notes (any order; sorted by ``cdate`` here); the scale
        from :data:`RATING_SCALES` by the notes' venue, else the venue's known scale
        (:func:`paperdeck.model.venue.group_scale`)."""
        notes = sorted(reviews, key=lambda review: (review.cdate, review.id))
        scale = decision = venue = ""
        ratings: list[float] = []
        initial: list[float] = []
        moved = 0
        confidences: list[float | None] = []
        means: dict[str, list[float]] = {name: [] for name in _MEAN_FIELDS}
        comments = 0
        withdrawn = False
        for note in notes:  # one pass, in review order
            kind = note.kind
            if not venue and note.venue_id:
                venue = note.venue_id
            if not scale and note.venue_id:
                scale = RATING_SCALES.get(note.venue_id) or _group_scale(note.venue_id)
            if kind == REVIEW:
                scores = dict(note.scores)
                if "rating" in scores:
                    ratings.append(scores["rating"])
                    confidences.append(scores.get("confidence"))
                    path = note.score_path("rating") if note.earlier else (scores["rating"],)
                    initial.append(path[0])
                    moved += len(set(path)) > 1
                for name, values in means.items():
                    if name in scores:
                        values.append(scores[name])
            elif kind == DECISION:
                decision = note.section("decision") or decision  # the last decision given
            elif kind in COMMENT_KINDS:
                comments += 1
            elif kind == WITHDRAWAL:
                withdrawn = True
        mean = std = None
        if ratings:
            mean, std = mean_and_std(ratings)  # as a file's scores give them, to the last bit
        return cls(
            count=len(ratings),
            mean=mean,
            min=min(ratings) if ratings else None,
            max=max(ratings) if ratings else None,
            std=std,
            ratings=tuple(ratings),
            confidences=tuple(confidences),
            confidence=_mean(means["confidence"]),
            soundness=_mean(means["soundness"]),
            presentation=_mean(means["presentation"]),
            contribution=_mean(means["contribution"]),
            scale=scale,
            comments=comments,
            decision=decision,
            withdrawn=withdrawn,
            initial_ratings=tuple(initial) if initial != ratings else (),
            moved=moved,
            venue=venue,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``None`` and empty values left out)."""
        data: dict[str, Any] = {"count": self.count}
        for name in ("mean", "min", "max", "std", "confidence", "soundness", "presentation", "contribution"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.ratings:
            data["ratings"] = list(self.ratings)
            data["confidences"] = list(self.confidences)
        for name in ("scale", "comments", "decision", "withdrawn", "moved", "venue"):
            value = getattr(self, name)
            if value:
                data[name] = value
        if self.initial_ratings:
            data["initial_ratings"] = list(self.initial_ratings)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReviewSummary:
        """Inverse of :meth:`to_dict`. The scale and decision texts, the same for most papers,
        are held once (interned), and so are the tuples of scores (papers' ratings repeat)."""
        values = dict(data)
        values["ratings"] = _shared_scores(values.get("ratings"))
        values["confidences"] = _shared_scores(values.get("confidences"))
        values["initial_ratings"] = _shared_scores(values.get("initial_ratings"))
        for name in ("mean", "min", "max", "confidence", "soundness", "presentation", "contribution"):
            if name in values:
                values[name] = _shared_number(values[name])
        for name in ("scale", "decision", "venue"):
            if type(text := values.get(name)) is str:
                values[name] = sys.intern(text)
        return cls(**values)

    def public_dict(self) -> dict[str, Any]:
        """The summary for ``--json`` output: every field, with ``spread``."""
        data = self.to_dict()
        data["spread"] = self.spread
        data["rating_initial"] = self.rating_initial
        data["rating_delta"] = self.rating_delta
        data["moved"] = self.moved
        return data


class SomeSummaries(dict[str, ReviewSummary]):
    """The review summaries of some papers only, by forum id (a venue scope's: the other venues'
    are not built): those of :attr:`forums` that have one. A plain ``dict`` of summaries is every
    paper's; :func:`covers` tells which forums either answers for.

    Args:
        summaries: the summaries held.
        forums: the forum ids whose summary, if any, is among them.
        venues: the :attr:`ReviewSummary.venue` values of which every summary of the store is
            among them (a rank within one of them needs no other: :meth:`sorted_means`).
    """

    __slots__ = ("_means", "forums", "venues")

    def __init__(
        self, summaries: dict[str, ReviewSummary], forums: AbstractSet[str], venues: frozenset[Any] = frozenset()
    ) -> None:
        super().__init__(summaries)
        self.forums = forums
        self.venues = venues
        self._means: dict[Any, list[float]] = {}

    def sorted_means(self, venue: Any) -> list[float]:
        """The mean ratings of the summaries held of ``venue`` (one of :attr:`venues`: every
        rated paper of it in the store), ascending; made once per venue."""
        means = self._means.get(venue)
        if means is None:
            rated = (summary.mean for summary in self.values() if summary.venue == venue and summary.mean is not None)
            means = self._means[venue] = sorted(rated)
        return means


def covers(summaries: Mapping[str, ReviewSummary], forum: str) -> bool:
    """Whether ``summaries`` answers for ``forum`` (holds its summary, or it has none): always
    for every paper's, else when ``forum`` is among :attr:`SomeSummaries.forums`."""
    return not isinstance(summaries, SomeSummaries) or forum in summaries.forums


def forums_of(papers: Iterable[Any]) -> frozenset[str]:
    """The OpenReview forum ids of ``papers`` (:class:`~paperdeck.model.paper.Paper`; those
    without one left out): the forums whose summaries a view of them reads."""
    return frozenset(forum for paper in papers if (forum := paper.openreview_id))
