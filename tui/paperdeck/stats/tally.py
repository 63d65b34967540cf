"""The figures of a set of papers as additive counts: each paper's contribution to them
(:meth:`Tally.add`), summed, so that a set's figures can be updated for a few papers changed by
taking their old contributions out and putting their new ones in (:meth:`Tally.add` with
``sign=-1``), instead of counting every paper again. :func:`paperdeck.stats.figures.figures_of`
counts through these tallies too: the figures of a tally updated so are those of a recount, by
construction.

A tally holds counters only (never a list per paper): a few hundred entries for a conference of
any size, whatever its number of papers (mean ratings and review scores take few distinct values).
Each counter is keyed by tuples; :meth:`Tally.to_json` / :meth:`Tally.from_json` keep it as JSON
(``{name: [[*key, count], …]}``), as :mod:`paperdeck.stats.cache` does.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from paperdeck.model.paper import Paper, UserData
from paperdeck.model.review_summary import ReviewSummary

#: How a paper without a primary area is counted (:data:`paperdeck.stats.figures.NO_AREA`).
NO_AREA = "(no area)"

__all__ = ["Tally", "VenueTally", "add_paper", "ordered_counts", "venue_tallies"]

#: The counters of a tally, by name (see :class:`Tally`).
_NAMES = (
    "kinds",
    "means",
    "per_paper",
    "ratings",
    "confidence",
    "first",
    "steps",
    "paper_steps",
    "move_areas",
    "directions",
    "numbers",
    "scales",
)


class Tally:
    """The additive counts of one set of papers (:func:`paperdeck.stats.figures.finished` makes its
    figures), each a :class:`~collections.Counter` keyed by tuples:

    - ``kinds``: ``(area, decision, status, starred)`` of every paper;
    - ``means``: ``(mean rating, decision)`` of every paper with a finite mean;
    - ``per_paper``: ``(number of reviews,)`` of those with a count;
    - ``ratings``, ``confidence``, ``first``: ``(value,)`` of every review's rating, confidence,
      first rating (from the imported reviews' summaries);
    - ``steps``, ``paper_steps``, ``move_areas`` (``(area, "papers" | "up" | "down" | "moved")``),
      ``directions`` (``(direction, decision)``) and ``numbers`` (``(name,)``: ``rated``,
      ``reviews``, ``reviews_moved``, ``reviews_up``, ``reviews_down``, ``papers_up``,
      ``papers_down``, ``papers_moved``): the rating moves (:class:`~paperdeck.stats.figures.Moves`);
    - ``scales``: ``(scale text,)`` of every paper whose scale is known (its venue's scale is the
      most common).

    A count taken to 0 by a removal is dropped (:meth:`clean`): a tally equals the one counted
    from its papers alone."""

    __slots__ = _NAMES

    kinds: Counter[tuple[Any, ...]]
    means: Counter[tuple[Any, ...]]
    per_paper: Counter[tuple[Any, ...]]
    ratings: Counter[tuple[Any, ...]]
    confidence: Counter[tuple[Any, ...]]
    first: Counter[tuple[Any, ...]]
    steps: Counter[tuple[Any, ...]]
    paper_steps: Counter[tuple[Any, ...]]
    move_areas: Counter[tuple[Any, ...]]
    directions: Counter[tuple[Any, ...]]
    numbers: Counter[tuple[Any, ...]]
    scales: Counter[tuple[Any, ...]]

    def __init__(self) -> None:
        for name in _NAMES:
            setattr(self, name, Counter())

    def counters(self) -> Iterable[tuple[str, Counter[tuple[Any, ...]]]]:
        """``(name, counter)`` of each counter, in a fixed order."""
        return ((name, getattr(self, name)) for name in _NAMES)

    @property
    def papers(self) -> int:
        """The papers counted."""
        return sum(self.kinds.values())

    def add(self, paper: Paper, summary: ReviewSummary | None, user: UserData | None, sign: int = 1) -> None:
        """Count ``paper`` (``sign`` 1) or take it out (``sign`` -1): its ``summary`` (its imported
        reviews', ``None`` without), its ``user`` record (``None``: unseen, not starred)."""
        from paperdeck.model.venue import scale_of

        area = paper.primary_area or NO_AREA
        decision = paper.decision
        status, starred = (user.status, user.starred) if user is not None else ("unseen", False)
        self.kinds[(area, decision, status, starred)] += sign
        if summary is not None and summary.scale:
            self.scales[(summary.scale,)] += sign
        elif paper.ratings is not None and (scale := scale_of(paper)) is not None:
            self.scales[(scale.text(),)] += sign
        mean: float | None = None
        count: int | None = None
        if summary is not None and summary.count and summary.mean is not None:
            mean, count = summary.mean, summary.count
            for rating in summary.ratings:
                self.ratings[(rating,)] += sign
            for confidence in summary.confidences:
                if confidence is not None:
                    self.confidence[(confidence,)] += sign
            for rating in summary.initial_ratings or summary.ratings:
                self.first[(rating,)] += sign
            self._add_moves(area, decision, summary, sign)
        elif paper.ratings is not None:
            mean, count = paper.ratings.mean, paper.ratings.count
        if mean is None or not math.isfinite(mean):
            return
        self.means[(mean, decision)] += sign
        if count:
            self.per_paper[(count,)] += sign

    def _add_moves(self, area: str, decision: str, summary: ReviewSummary, sign: int) -> None:
        """A rated paper's part of the rating moves (as :func:`paperdeck.stats.figures.finished` reads them)."""
        numbers = self.numbers
        numbers[("rated",)] += sign
        numbers[("reviews",)] += sign * summary.count
        numbers[("reviews_moved",)] += sign * summary.moved
        self.move_areas[(area, "papers")] += sign
        firsts = summary.initial_ratings  # () when no review's first rating differs: most papers
        if not firsts and not summary.moved:
            self.directions[("none", decision)] += sign
            return
        for was, now in zip(firsts, summary.ratings, strict=False):
            if now != was:
                self.steps[(now - was,)] += sign
                numbers[("reviews_up" if now > was else "reviews_down",)] += sign
        delta = (summary.rating_delta or 0.0) if firsts else 0.0
        if delta:
            self.paper_steps[(round(delta * 2) / 2,)] += sign
        if delta > 0:
            numbers[("papers_up",)] += sign
            self.move_areas[(area, "up")] += sign
        elif delta < 0:
            numbers[("papers_down",)] += sign
            self.move_areas[(area, "down")] += sign
        if summary.moved > 0:
            numbers[("papers_moved",)] += sign
            self.move_areas[(area, "moved")] += sign
        self.directions[("up" if delta > 0 else "down" if delta < 0 else "none", decision)] += sign

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to this tally's."""
        for name, counter in other.counters():
            getattr(self, name).update(counter)

    def clean(self) -> None:
        """Drop the counts that are 0."""
        for _, counter in self.counters():
            for key in [key for key, count in counter.items() if not count]:
                del counter[key]

    def to_json(self) -> dict[str, list[list[Any]]]:
        """``{name: [[*key, count], …]}`` (counts that are 0 left out)."""
        return {name: [[*key, count] for key, count in counter.items() if count] for name, counter in self.counters()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        """Inverse of :meth:`to_json`.

        Raises:
            KeyError, TypeError, ValueError: not what :meth:`to_json` wrote.
        """
        tally = cls()
        for name, counter in tally.counters():
            for row in data[name]:
                if not isinstance(row, list) or len(row) < 2 or not isinstance(row[-1], int):
                    raise ValueError(f"a {name} count is not [key…, count]")
                counter[tuple(row[:-1])] += row[-1]
        return tally


@dataclass(slots=True)
class VenueTally:
    """The tally of one venue's papers (:func:`paperdeck.model.venue.venue_of`), with the venue
    and year of its first paper in catalogue order (``where``: its known scale, when none of its
    papers gives one)."""

    where: tuple[str, int | None]
    tally: Tally


def venue_tallies(
    papers: Iterable[Paper], summaries: Mapping[str, ReviewSummary], user_data: Mapping[str, UserData]
) -> dict[str, VenueTally]:
    """The tally of each venue's ``papers`` (``summaries`` by forum id, ``user_data`` by paper
    id, as :func:`paperdeck.stats.figures.figures_of` takes them), by venue, in order of first paper."""
    groups: dict[str, VenueTally] = {}
    for paper in papers:
        venue = paper.library_venue
        group = groups.get(venue)
        if group is None:
            group = groups[venue] = VenueTally((paper.venue, paper.year), Tally())
        add_paper(group.tally, paper, summaries, user_data.get(paper.id))
    return groups


def add_paper(
    tally: Tally, paper: Paper, summaries: Mapping[str, ReviewSummary], user: UserData | None, sign: int = 1
) -> None:
    """:meth:`Tally.add` of ``paper`` with its summary looked up in ``summaries`` by its forum id."""
    forum = paper.openreview_id
    tally.add(paper, summaries.get(forum) if forum else None, user, sign)


def ordered_counts(counter: Mapping[str, int]) -> dict[str, int]:
    """``counter`` as a dict, most first, then by name (counts of 0 left out): the same for the
    same counts, however they were counted."""
    return dict(sorted(((name, count) for name, count in counter.items() if count), key=lambda i: (-i[1], i[0])))
