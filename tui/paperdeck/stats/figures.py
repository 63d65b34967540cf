"""The figures of a set of papers: what the statistics screen draws and ``paperdeck stats`` prints.

One pass over the papers (:func:`figures_of`) gives every figure:

- the histogram of the papers' **mean ratings** (buckets one rating point wide, ``[k, k+1)``, the
  last one closed) with the mean of the means, and where one paper's mean stands in it
  (:meth:`Figures.place`: its bucket and percentile);
- the distribution of **every review's rating** (each value a reviewer gave), with its mean;
- **decisions by primary area**: papers, accepted, rejected, still under review, withdrawn, and
  the acceptance rate;
- the **acceptance rate by mean-rating bucket**;
- **reviews per paper** and every review's **confidence**;
- the user's **progress**: papers by reading status and starred, overall and by area;
- the **rating moves** of the discussion (:class:`Moves`): every review's first rating against its
  current one, how many reviews and papers moved and by how much, by area, and the acceptance
  rate by direction of the move.
- the same figures **per venue** (:class:`VenueFigures`), each venue's histograms on its own
  rating scale (:mod:`paperdeck.model.venue`): ratings of different venues are never pooled in a
  chart (the ratings and acceptance charts draw each venue's apart when a set mixes venues).

A paper's mean rating and its number of reviews come from its imported reviews' summary
(:class:`paperdeck.model.review_summary.ReviewSummary`, by OpenReview forum id) when there is one, else
from the catalogue's :attr:`paperdeck.model.paper.Paper.ratings`; each review's rating and
confidence only from the summaries (a catalogue keeps a paper's mean, not each review's score).

The acceptance rate is ``accepted / decided``, where **decided** counts the papers with an
accept- or reject-type decision only: a paper sent to the workshop track (ICLR 2017's 47) counts
as not accepted to the conference, as the conference's own figures count it; withdrawn papers,
unknown decisions and papers still "under review" (no decision) are left out of it. How the rate
is taken depends on the decisions the whole set holds (:attr:`Figures.basis`, one of
:data:`BASES`):

- ``"decided"``: some paper is rejected: ``accepted / (accepted + rejected)``, undecided papers
  left out;
- ``"accepted list"``: papers are accepted and others have no decision, but none is rejected: the
  decisions came from a list of the accepted papers (Paper Copilot's ICLR 2026 Parquet), so a
  paper without a decision was not accepted: ``accepted / (accepted + undecided)``, and the
  charts say so;
- ``"accepted only"``: every paper with a decision is accepted and none is undecided (a list of
  accepted papers alone, COLM 2025's): no rate (it would be 100 % by construction);
- ``"none"``: no accept- or reject-type decision at all: no rate ("no decisions").

In a set of several venues each venue's rate follows its own basis; the whole set's rates by area
sum each venue's accepted papers and the papers its rate is over.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from paperdeck.model.decision import ACCEPTED
from paperdeck.model.decision import REJECTED as _REJECTED
from paperdeck.model.paper import STATUSES, Paper, UserData
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.model.venue import NO_VENUE
from paperdeck.stats.tally import NO_AREA as _NO_AREA

if TYPE_CHECKING:
    from paperdeck.stats.tally import Tally, VenueTally

#: Decisions that count as not accepted to the conference: rejected, and the workshop track.
REJECTED = _REJECTED | frozenset({"workshop"})

__all__ = [
    "NO_AREA",
    "AreaDecisions",
    "Bucket",
    "BucketAcceptance",
    "Distribution",
    "Figures",
    "MoveAcceptance",
    "MoveArea",
    "Moves",
    "Place",
    "Progress",
    "VenueFigures",
    "figures_from",
    "figures_of",
    "finished",
    "number",
    "per_paper",
]

#: How a paper without a primary area is counted.
NO_AREA = _NO_AREA
#: How a set's acceptance rates are taken (the module docstring): ``"decided"``, ``"accepted
#: list"``, ``"accepted only"``, ``"none"``; ``"mixed"`` for a set of venues whose bases differ.
BASES = ("decided", "accepted list", "accepted only", "none", "mixed")
#: What each basis says under a chart of rates (the module docstring).
BASIS_NOTES = {
    "decided": "rate = accepted / decided ({decided}); papers without a decision left out",
    "accepted list": "only accepted papers have a decision (a list of the accepted): "
    "rate = accepted / (accepted + papers without a decision)",
    "accepted only": "every paper with a decision is accepted (a list of the accepted): no rate",
    "none": "no decisions",
    "mixed": "each venue's rate on its own decisions",
}
#: How each not-accepted decision is named in the ``"decided"`` note, in the order named.
_REFUSED_NAMES = {"reject": "rejected", "desk-rejected": "desk-rejected", "workshop": "workshop"}
#: The rating range every histogram covers at least (ICLR's 0–10 scale); means outside widen it.
RATING_RANGE = (0, 10)


def number(value: float | None) -> str:
    """A score as people write it: ``6``, ``5.5``, ``4.26`` (two decimals at most); ``—`` for none."""
    if value is None:
        return "—"
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


def per_paper(value: float | None) -> str:
    """A mean count per paper as a column of them shows it: two decimals always (``3.90``,
    ``3.01``: one format down the column, where :func:`number` gave ``3.9`` beside ``3.01``);
    ``—`` for none."""
    return "—" if value is None else f"{value:.2f}"


def _mean(total: float, count: int) -> float | None:
    return total / count if count else None  # full precision: :func:`number` rounds it once


@dataclass(frozen=True, slots=True)
class Distribution:
    """How often each value occurs.

    Attributes:
        counts: ``(value, count)`` pairs, by value.
        total: the number of values (the sum of the counts).
        mean: their mean (rounded to 3 decimals), ``None`` when there are none.
    """

    counts: tuple[tuple[float, int], ...] = ()
    total: int = 0
    mean: float | None = None

    @classmethod
    def of(cls, counter: Mapping[float, int]) -> Distribution:
        """The distribution of a counter of values (counts of 0 left out); its mean summed
        exactly (:func:`math.fsum`): the same whatever order the values were counted in."""
        items = tuple(sorted((value, count) for value, count in counter.items() if count))
        total = sum(count for _, count in items)
        weighted = math.fsum(value * count for value, count in items)
        return cls(items, total, _mean(weighted, total))

    def to_dict(self) -> dict[str, Any]:
        """``{"counts": {"6": 123, …}, "total": …, "mean": …}`` (values as :func:`number` writes them)."""
        return {"counts": {number(v): c for v, c in self.counts}, "total": self.total, "mean": self.mean}


@dataclass(frozen=True, slots=True)
class Bucket:
    """Papers whose mean rating is in ``[low, high)`` (``[low, high]`` for the last bucket)."""

    low: int
    high: int
    count: int

    @property
    def label(self) -> str:
        """``"5–6"``."""
        return f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class BucketAcceptance:
    """The decided papers of one mean-rating bucket and how many of them were accepted.

    ``decided`` counts accepted and rejected papers, ``undecided`` those still under review (no
    decision); ``rate`` as the module docstring takes it (0–1), ``None`` when there is none;
    ``left_out`` the bucket's papers counted in neither (withdrawn, workshop…), by decision, most
    first: ``(("withdrawn", 15),)``.
    """

    low: int
    high: int
    decided: int
    accepted: int
    rate: float | None
    undecided: int = 0
    left_out: tuple[tuple[str, int], ...] = ()

    @property
    def label(self) -> str:
        """``"5–6"``."""
        return f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class AreaDecisions:
    """The decisions of one primary area's papers.

    ``rejected`` counts the rejected (and desk-rejected) papers, ``workshop`` those sent to the
    workshop track (ICLR 2017's): both are decided, not accepted (:attr:`not_accepted`);
    ``pending`` counts the papers still under review (no decision); ``rate`` as the module
    docstring takes it (0–1), ``None`` when there is none; ``other`` counts unknown decisions.
    """

    area: str
    papers: int
    accepted: int
    rejected: int
    pending: int
    withdrawn: int
    other: int
    rate: float | None
    workshop: int = 0

    @property
    def not_accepted(self) -> int:
        """The decided papers not accepted: rejected, desk-rejected, or sent to the workshop track."""
        return self.rejected + self.workshop


@dataclass(frozen=True, slots=True)
class Progress:
    """The user's reading of a group of papers: how many have each status (every one of
    :data:`paperdeck.model.paper.STATUSES`, ``unseen`` included) and how many are starred."""

    label: str
    papers: int
    statuses: tuple[tuple[str, int], ...]
    starred: int

    def count(self, status: str) -> int:
        """Papers with ``status``."""
        return dict(self.statuses).get(status, 0)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": self.papers, "statuses": dict(self.statuses), "starred": self.starred}


@dataclass(frozen=True, slots=True)
class MoveArea:
    """The rating moves of one primary area's rated papers: how many there are, in how many a
    review's rating moved (``papers_review_moved``: papers, not reviews), and whose mean rose
    (``up``) or fell (``down``)."""

    area: str
    papers: int
    up: int
    down: int
    papers_review_moved: int


@dataclass(frozen=True, slots=True)
class MoveAcceptance:
    """The decided papers whose mean rating moved in one ``direction`` (``"up"``, ``"down"``,
    ``"none"``) and how many were accepted; ``undecided``, ``rate`` and ``left_out`` as
    :class:`BucketAcceptance`'s."""

    direction: str
    decided: int
    accepted: int
    rate: float | None
    undecided: int = 0
    left_out: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Moves:
    """How the ratings moved during the discussion (from each official review's versions, as the
    summaries give them: :attr:`~paperdeck.model.review_summary.ReviewSummary.initial_ratings`).

    Attributes:
        first_ratings: every review's first rating (its current one is
            :attr:`Figures.review_ratings`).
        reviews: reviews with a rating; ``reviews_moved``: of them, those whose rating took more
            than one value (even when it came back); ``reviews_up`` / ``reviews_down``: whose
            current rating is above / below the first.
        review_steps: current − first rating of the reviews where they differ.
        papers: papers with rated reviews; ``papers_up`` / ``papers_down``: whose mean rose /
            fell (``rating_delta`` above / below 0); ``papers_review_moved``: with a review that
            moved (``review_moved:any``).
        paper_steps: the papers' ``rating_delta`` where not 0, to the nearest half point.
        by_area: the same by primary area, most papers first (rated papers only).
        by_direction: the acceptance rate of papers whose mean rose, fell, did not move
            (empty when no decision is known).
    """

    first_ratings: Distribution = field(default_factory=Distribution)
    reviews: int = 0
    reviews_moved: int = 0
    reviews_up: int = 0
    reviews_down: int = 0
    review_steps: Distribution = field(default_factory=Distribution)
    papers: int = 0
    papers_up: int = 0
    papers_down: int = 0
    papers_review_moved: int = 0
    paper_steps: Distribution = field(default_factory=Distribution)
    by_area: tuple[MoveArea, ...] = ()
    by_direction: tuple[MoveAcceptance, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the counts, the distributions as :meth:`Distribution.to_dict`, by area and by direction."""
        return {
            "first_ratings": self.first_ratings.to_dict(),
            "reviews": self.reviews,
            "reviews_moved": self.reviews_moved,
            "reviews_up": self.reviews_up,
            "reviews_down": self.reviews_down,
            "review_steps": self.review_steps.to_dict(),
            "papers": self.papers,
            "papers_up": self.papers_up,
            "papers_down": self.papers_down,
            "papers_review_moved": self.papers_review_moved,
            "paper_steps": self.paper_steps.to_dict(),
            "by_area": {
                a.area: {"papers": a.papers, "up": a.up, "down": a.down, "papers_review_moved": a.papers_review_moved}
                for a in self.by_area
            },
            "acceptance_by_direction": {
                d.direction: {
                    "decided": d.decided,
                    "accepted": d.accepted,
                    "undecided": d.undecided,
                    "acceptance_rate": d.rate,
                }
                for d in self.by_direction
            },
        }


@dataclass(frozen=True, slots=True)
class Place:
    """Where one mean rating stands among the reviewed papers of the figures.

    Attributes:
        mean: the mean rating.
        bucket: the index of its bucket in :attr:`Figures.mean_ratings`.
        below: reviewed papers with a lower mean.
        percentile: ``100 * below / reviewed`` (0–100): the share rated lower.
        top: the share (0–1] rated as high or higher (``0.23``: "top 23 %").
        venue: the venue it stands within (:attr:`VenueFigures.venue`, its own scale) when the
            figures mix venues; ``None`` when it stands among all their papers (one venue).
    """

    mean: float
    bucket: int
    below: int
    percentile: float
    top: float
    venue: str | None = None


@dataclass(frozen=True, slots=True)
class Figures:
    """Every figure of a set of papers (see the module docstring).

    Attributes:
        papers: papers counted.
        reviewed: papers with a mean rating.
        mean_ratings: the histogram of the papers' mean ratings (every bucket of the range, empty
            ones too); the counts sum to ``reviewed``.
        mean_of_means: the mean of the papers' mean ratings, ``None`` without any.
        review_ratings: every review's rating (from the imported reviews).
        by_area: decisions by primary area, most papers first (:data:`NO_AREA` for none).
        decisions_known: some paper has an accepted or rejected decision.
        basis: how the acceptance rates are taken (:data:`BASES`, the module docstring).
        refused: the not-accepted decisions some paper has (``reject``, ``desk-rejected``,
            ``workshop``): what the decided papers are besides the accepted ones.
        acceptance_by_rating: the acceptance rate by mean-rating bucket, aligned with ``mean_ratings``.
        reviews_per_paper: how many papers have 1, 2, 3 … reviews (papers with a mean rating).
        confidence: every review's confidence (from the imported reviews).
        progress: the user's reading of all the papers.
        progress_by_area: the same by primary area, most papers first.
        means: every reviewed paper's mean rating, sorted (for :meth:`place`).
        moves: how the ratings moved during the discussion (:class:`Moves`).
        venues: the figures of each venue of the papers, most papers first (:class:`VenueFigures`;
            their own ``venues`` empty); one entry when every paper is of one venue.
    """

    papers: int = 0
    reviewed: int = 0
    mean_ratings: tuple[Bucket, ...] = ()
    mean_of_means: float | None = None
    review_ratings: Distribution = field(default_factory=Distribution)
    by_area: tuple[AreaDecisions, ...] = ()
    decisions_known: bool = False
    acceptance_by_rating: tuple[BucketAcceptance, ...] = ()
    reviews_per_paper: Distribution = field(default_factory=Distribution)
    confidence: Distribution = field(default_factory=Distribution)
    progress: Progress = field(default_factory=lambda: Progress("all papers", 0, (), 0))
    progress_by_area: tuple[Progress, ...] = ()
    means: tuple[float, ...] = ()
    moves: Moves = field(default_factory=Moves)
    venues: tuple[VenueFigures, ...] = ()
    basis: str = "none"
    refused: tuple[str, ...] = ()

    @property
    def basis_note(self) -> str:
        """What the rates are (:data:`BASIS_NOTES`), the decided papers named by the decisions
        they hold: ``accepted + rejected + workshop`` for ICLR 2017 (its 47 workshop papers are
        decided, not accepted)."""
        note = BASIS_NOTES.get(self.basis, "")
        refused = [_REFUSED_NAMES[d] for d in _REFUSED_NAMES if d in self.refused] or ["rejected"]
        return note.replace("{decided}", " + ".join(["accepted", *refused]))

    @property
    def rated_venues(self) -> tuple[VenueFigures, ...]:
        """The venues with a rated paper: more than one means the ratings must be drawn apart."""
        return tuple(venue for venue in self.venues if venue.figures.reviewed)

    def place(self, mean: float | None, venue: str | None = None) -> Place | None:
        """Where ``mean`` stands (:class:`Place`); ``None`` for no mean or no reviewed paper.

        Where the figures mix rated venues (:attr:`rated_venues`, several scales), a mean stands
        only within its paper's ``venue`` (:func:`paperdeck.model.venue.venue_of`, as
        :attr:`VenueFigures.venue`): its place among that venue's papers, on its scale, with
        :attr:`Place.venue` set; ``None`` when ``venue`` is not given or not one of them (ratings
        of different scales are never ranked together)."""
        rated = self.rated_venues
        if len(rated) > 1:
            own = next((v for v in rated if v.venue == venue), None) if venue is not None else None
            found = own.figures.place(mean) if own is not None else None
            return replace(found, venue=own.venue) if found is not None and own is not None else None
        if mean is None or not self.means or not self.mean_ratings:
            return None
        below = bisect.bisect_left(self.means, mean)
        reviewed = len(self.means)
        first = self.mean_ratings[0].low
        index = min(max(math.floor(mean) - first, 0), len(self.mean_ratings) - 1)
        return Place(mean, index, below, 100 * below / reviewed, (reviewed - below) / reviewed)

    def to_cache(self) -> dict[str, Any]:
        """Every field as JSON-ready lists (:meth:`from_cache` reads it back whole): what
        :func:`dataclasses.asdict` gives, without its deep copy of every mean (tens of thousands)."""
        data = asdict(replace(self, means=(), venues=()))
        data["means"] = list(self.means)
        data["venues"] = [{"venue": v.venue, "scale": v.scale, "figures": v.figures.to_cache()} for v in self.venues]
        return data

    @classmethod
    def from_cache(cls, data: dict[str, Any]) -> Figures:
        """Inverse of :meth:`to_cache`.

        Raises:
            KeyError, TypeError, ValueError: not what :meth:`to_cache` wrote.
        """

        def distribution(d: dict[str, Any]) -> Distribution:
            return Distribution(tuple((float(v), int(c)) for v, c in d["counts"]), int(d["total"]), d["mean"])

        def progress(d: dict[str, Any]) -> Progress:
            return Progress(str(d["label"]), int(d["papers"]), tuple((str(s), int(c)) for s, c in d["statuses"]),
                            int(d["starred"]))  # fmt: skip

        def left_out(row: dict[str, Any]) -> tuple[tuple[str, int], ...]:
            return tuple((str(decision), int(count)) for decision, count in row["left_out"])

        def moves(d: dict[str, Any]) -> Moves:
            numbers = {
                name: int(d[name])
                for name in (
                    "reviews",
                    "reviews_moved",
                    "reviews_up",
                    "reviews_down",
                    "papers",
                    "papers_up",
                    "papers_down",
                    "papers_review_moved",
                )
            }
            return Moves(
                first_ratings=distribution(d["first_ratings"]),
                review_steps=distribution(d["review_steps"]),
                paper_steps=distribution(d["paper_steps"]),
                by_area=tuple(MoveArea(**a) for a in d["by_area"]),
                by_direction=tuple(MoveAcceptance(**(m | {"left_out": left_out(m)})) for m in d["by_direction"]),
                **numbers,
            )  # fmt: skip

        return cls(
            papers=int(data["papers"]),
            reviewed=int(data["reviewed"]),
            mean_ratings=tuple(Bucket(**b) for b in data["mean_ratings"]),
            mean_of_means=data["mean_of_means"],
            review_ratings=distribution(data["review_ratings"]),
            by_area=tuple(AreaDecisions(**a) for a in data["by_area"]),
            decisions_known=bool(data["decisions_known"]),
            acceptance_by_rating=tuple(
                BucketAcceptance(**(b | {"left_out": left_out(b)})) for b in data["acceptance_by_rating"]
            ),
            reviews_per_paper=distribution(data["reviews_per_paper"]),
            confidence=distribution(data["confidence"]),
            progress=progress(data["progress"]),
            progress_by_area=tuple(progress(p) for p in data["progress_by_area"]),
            means=tuple(float(m) for m in data["means"]),
            moves=moves(data["moves"]),
            venues=tuple(
                VenueFigures(str(v["venue"]), str(v["scale"]), cls.from_cache(v["figures"]))
                for v in data.get("venues") or ()
            ),
            basis=str(data["basis"]),
            refused=tuple(str(d) for d in data["refused"]),
        )

    def with_progress(self, marks: Iterable[tuple[str, str, bool]]) -> Figures:
        """These figures with the user's progress counted again from ``marks``: the ``(area,
        status, starred)`` of every paper the user has a record for (``area`` as counted here,
        :data:`NO_AREA` for none); every other paper is unseen and not starred."""
        papers = {a.area: a.papers for a in self.by_area}
        everyone, areas = _Tally(), {area: _Tally() for area in papers}
        kinds = Counter(marks)
        for (area, status, starred), count in kinds.items():
            tally = areas.get(area)
            if tally is None or (status == "unseen" and not starred):
                continue
            for group in (everyone, tally):
                group.statuses[status] += count
                group.starred += count if starred else 0
        for area, tally in areas.items():
            tally.papers = papers[area]
            tally.statuses["unseen"] += tally.papers - sum(tally.statuses.values())
        everyone.papers = self.papers
        everyone.statuses["unseen"] += everyone.papers - sum(everyone.statuses.values())
        return replace(
            self,
            progress=everyone.progress(self.progress.label),
            progress_by_area=tuple(areas[p.label].progress(p.label) for p in self.progress_by_area),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every figure, rates as fractions (0–1), the buckets labelled ``"5–6"``."""
        return {
            "papers": self.papers,
            "reviewed_papers": self.reviewed,
            "mean_ratings": {
                "buckets": {b.label: b.count for b in self.mean_ratings},
                "total": self.reviewed,
                "mean": self.mean_of_means,
            },
            "review_ratings": self.review_ratings.to_dict(),
            "acceptance_basis": self.basis,
            "decisions_by_area": {
                a.area: {
                    "papers": a.papers,
                    "accepted": a.accepted,
                    "rejected": a.rejected,
                    "workshop": a.workshop,
                    "decided": a.accepted + a.not_accepted,
                    "pending": a.pending,
                    "withdrawn": a.withdrawn,
                    "other": a.other,
                    "acceptance_rate": a.rate,
                }
                for a in self.by_area
            },
            "acceptance_by_rating": {
                b.label: {
                    "decided": b.decided,
                    "accepted": b.accepted,
                    "undecided": b.undecided,
                    "acceptance_rate": b.rate,
                }
                for b in self.acceptance_by_rating
            },
            "reviews_per_paper": self.reviews_per_paper.to_dict(),
            "confidence": self.confidence.to_dict(),
            "progress": self.progress.to_dict(),
            "progress_by_area": {p.label: p.to_dict() for p in self.progress_by_area},
            "rating_moves": self.moves.to_dict(),
            "venues": [venue.to_dict() for venue in self.venues],
        }


@dataclass(frozen=True, slots=True)
class VenueFigures:
    """The figures of one venue's papers.

    Attributes:
        venue: as shown (``"ICLR 2017"``), ``""`` for the papers of no known venue.
        scale: the venue's rating scale as text (:meth:`paperdeck.model.venue.Scale.text`,
            ``"1-10"``): the one most of its rated papers are on; ``""`` when unknown and when
            none of its papers has a rating (whatever scale the venue is known to rate on).
        figures: its figures (histogram buckets spanning its scale).
    """

    venue: str
    scale: str
    figures: Figures

    @property
    def name(self) -> str:
        """The venue as listed: :data:`~paperdeck.model.venue.NO_VENUE` for none."""
        return self.venue or NO_VENUE

    @property
    def acceptance_rate(self) -> float | None:
        """The venue's acceptance rate on its decisions (:attr:`Figures.basis`, the module
        docstring), ``None`` when it has none to take it on."""
        areas = self.figures.by_area
        accepted = sum(a.accepted for a in areas)
        return _rate(self.figures.basis, accepted, sum(a.not_accepted for a in areas), sum(a.pending for a in areas))

    @property
    def reviews_per_paper(self) -> float | None:
        """The mean number of reviews of its rated papers (``None`` when none gives a count)."""
        return self.figures.reviews_per_paper.mean

    def to_dict(self) -> dict[str, Any]:
        """For ``paperdeck stats --json``: the venue, its scale (:meth:`Scale.to_dict
        <paperdeck.model.venue.Scale.to_dict>`, ``null`` when unknown), papers, rated papers, the
        mean of their means (on the venue's scale), the acceptance rate (0–1), reviews per paper,
        every review's rating (``rating_distribution``: value → reviews, on the venue's scale),
        then every figure of :meth:`Figures.to_dict` but the venues and the user's progress
        (counted for the whole set)."""
        from paperdeck.model.venue import Scale

        scale = Scale.parse(self.scale)
        data: dict[str, Any] = {
            "venue": self.venue,
            "scale": scale.to_dict() if scale is not None else None,
            "papers": self.figures.papers,
            "rated_papers": self.figures.reviewed,
            "mean_rating": self.figures.mean_of_means,
            "acceptance_rate": self.acceptance_rate,
            "acceptance_basis": self.figures.basis,
            "reviews_per_paper": self.reviews_per_paper,
            "rating_distribution": {number(v): c for v, c in self.figures.review_ratings.counts},
        }
        figures = self.figures.to_dict()
        for name in ("venues", "progress", "progress_by_area"):
            figures.pop(name, None)
        return data | {"figures": figures}


def _rate(basis: str, accepted: int, rejected: int, pending: int) -> float | None:
    """The acceptance rate of a group on a set's ``basis`` (the module docstring), ``None`` when
    the basis gives none or the group has no paper it is taken over."""
    over = _over(basis, accepted, rejected, pending)
    return accepted / over if over else None


def _over(basis: str, accepted: int, rejected: int, pending: int) -> int:
    """The papers a group's rate is taken over on ``basis`` (0: no rate)."""
    if basis == "decided":
        return accepted + rejected
    if basis == "accepted list":
        return accepted + rejected + pending
    return 0


def _basis(accepted: int, rejected: int, pending: int) -> str:
    """The basis of a set's rates from its counts (the module docstring)."""
    if rejected:
        return "decided"
    if not accepted:
        return "none"
    return "accepted list" if pending else "accepted only"


class _Tally:
    """The counts of one group of papers (an area, or all)."""

    __slots__ = ("accepted", "decisions", "other", "papers", "pending", "rejected", "starred", "statuses", "withdrawn",
                 "workshop")  # fmt: skip

    def __init__(self) -> None:
        self.papers = self.accepted = self.rejected = self.workshop = self.pending = self.withdrawn = self.other = 0
        self.starred = 0
        self.statuses: Counter[str] = Counter()
        self.decisions: set[str] = set()  # the decisions some paper counted has

    def add(self, decision: str, status: str, starred: bool, papers: int) -> None:
        """Count ``papers`` papers of this decision, status and star."""
        self.papers += papers
        self.decisions.add(decision)
        if decision in ACCEPTED:
            self.accepted += papers
        elif decision == "workshop":
            self.workshop += papers
        elif decision in REJECTED:
            self.rejected += papers
        elif decision == "under-review":
            self.pending += papers
        elif decision == "withdrawn":
            self.withdrawn += papers
        else:
            self.other += papers
        self.statuses[status] += papers
        if starred:
            self.starred += papers

    def progress(self, label: str) -> Progress:
        return Progress(label, self.papers, tuple((s, self.statuses.get(s, 0)) for s in STATUSES), self.starred)


def figures_of(
    papers: Iterable[Paper],
    summaries: Mapping[str, ReviewSummary],
    user_data: Mapping[str, UserData],
) -> Figures:
    """The figures of ``papers``, with each venue's apart (:attr:`Figures.venues`), counted through
    each venue's :class:`~paperdeck.stats.tally.Tally` (:func:`figures_from`).

    Args:
        papers: the papers to count (a view's, or the whole catalogue).
        summaries: imported review summaries by OpenReview forum id (``{}`` without reviews).
        user_data: the user's records by paper id (a paper without one is unseen, not starred).
    """
    from paperdeck.stats.tally import venue_tallies

    return figures_from(venue_tallies(papers, summaries, user_data))


def figures_from(groups: Mapping[str, VenueTally]) -> Figures:
    """The figures of the papers counted in ``groups`` (each venue's tally, by venue:
    :func:`paperdeck.stats.tally.venue_tallies`), with each venue's apart: its histograms span its
    scale (the one most of its rated papers are on, the first by name of those as common; else its
    known scale), which is its :attr:`VenueFigures.scale` only when it has a rated paper (``""``
    without: no ratings); the whole set's figures are those of every venue's tallies summed (one venue:
    that venue's)."""
    from paperdeck.model.venue import Scale, known_scale
    from paperdeck.stats.tally import Tally

    venues = []
    sizes = {venue: group.tally.papers for venue, group in groups.items()}
    for venue, group in sorted(groups.items(), key=lambda item: (-sizes[item[0]], item[0])):
        if not sizes[venue]:
            continue
        scales = [(key[0], count) for key, count in group.tally.scales.items() if count]
        if scales:
            parsed = Scale.parse(min(scales, key=lambda item: (-item[1], item[0]))[0])
        else:
            parsed = known_scale(*group.where)
        span = (math.floor(parsed.low), math.ceil(parsed.high)) if parsed is not None else RATING_RANGE
        # no rated paper: no scale (a known one would say the papers were rated on it)
        scale = parsed.text() if parsed is not None and scales else ""
        venues.append(VenueFigures(venue, scale, finished(group.tally, span)))
    if len(venues) == 1:
        return replace(venues[0].figures, venues=tuple(venues))
    whole = Tally()
    for group in groups.values():
        whole.merge(group.tally)
    bases = {venue.figures.basis for venue in venues} - {"none"}
    basis = bases.pop() if len(bases) == 1 else "mixed" if bases else "none"
    figures = finished(whole, RATING_RANGE, basis)
    if basis == "mixed":  # each venue's rates on its own decisions, summed by area and by move
        moves = replace(figures.moves, by_direction=_directions_summed(figures.moves.by_direction, venues))
        figures = replace(figures, by_area=_areas_summed(figures.by_area, venues), moves=moves)
    return replace(figures, venues=tuple(venues))


def _directions_summed(
    directions: tuple[MoveAcceptance, ...], venues: list[VenueFigures]
) -> tuple[MoveAcceptance, ...]:
    """``directions`` (a set of several venues') with each rate taken as :func:`_areas_summed` takes
    an area's, and its counts those of the venues whose decisions give a rate (the rate's own)."""
    rows: dict[str, list[int]] = {d.direction: [0, 0, 0, 0] for d in directions}  # decided, accepted, undecided, over
    for venue in venues:
        if venue.figures.basis not in ("decided", "accepted list"):
            continue
        for row in venue.figures.moves.by_direction:
            counts = rows.setdefault(row.direction, [0, 0, 0, 0])
            rejected = row.decided - row.accepted
            counts[0] += row.decided
            counts[1] += row.accepted
            counts[2] += row.undecided
            counts[3] += _over(venue.figures.basis, row.accepted, rejected, row.undecided)
    return tuple(
        replace(d, decided=c[0], accepted=c[1], undecided=c[2], rate=c[1] / c[3] if c[3] else None)
        for d in directions
        for c in (rows[d.direction],)
    )


def _areas_summed(areas: tuple[AreaDecisions, ...], venues: list[VenueFigures]) -> tuple[AreaDecisions, ...]:
    """``areas`` (a set of several venues') with each rate taken as each venue's own basis takes
    it: the accepted papers of the area in every venue over the papers each venue's rate is over."""
    accepted: Counter[str] = Counter()
    over: Counter[str] = Counter()
    for venue in venues:
        for area in venue.figures.by_area:
            if _over(venue.figures.basis, area.accepted, area.not_accepted, area.pending):
                accepted[area.area] += area.accepted
                over[area.area] += _over(venue.figures.basis, area.accepted, area.not_accepted, area.pending)
    return tuple(replace(a, rate=accepted[a.area] / over[a.area] if over[a.area] else None) for a in areas)


def listed_figures(
    papers: Iterable[Paper],
    summaries: Mapping[str, ReviewSummary],
    user_data: Mapping[str, UserData],
    span: tuple[int, int] = RATING_RANGE,
) -> Figures:
    """The figures of ``papers`` taken as one set (no :attr:`Figures.venues`), the mean-rating
    histogram covering at least ``span`` (``(low, high)`` whole numbers); see :func:`figures_of`."""
    from paperdeck.stats.tally import Tally, add_paper

    tally = Tally()
    for paper in papers:
        add_paper(tally, paper, summaries, user_data.get(paper.id))
    return finished(tally, span)


def _values(counter: Mapping[tuple[Any, ...], int]) -> Counter[float]:
    """A tally's counter of ``(value,)`` keys as a counter of values (counts of 0 left out)."""
    return Counter({key[0]: count for key, count in counter.items() if count})


def finished(tally: Tally, span: tuple[int, int] = RATING_RANGE, basis: str | None = None) -> Figures:
    """The figures of the papers counted in ``tally`` (:class:`paperdeck.stats.tally.Tally`), taken
    as one set (no :attr:`Figures.venues`), the mean-rating histogram covering at least ``span``,
    the rates on ``basis`` (:data:`BASES`; ``None``: the one the tally's decisions give)."""
    everyone = _Tally()
    areas: dict[str, _Tally] = {}
    for (area, decision, status, starred), number_of in sorted(tally.kinds.items()):
        if not number_of:
            continue
        everyone.add(decision, status, starred, number_of)
        group = areas.get(area)
        if group is None:
            group = areas[area] = _Tally()
        group.add(decision, status, starred, number_of)
    means = sorted((mean, decision, count) for (mean, decision), count in tally.means.items() if count)
    low = min(span[0], math.floor(means[0][0])) if means else span[0]
    high = max(span[1], math.ceil(means[-1][0])) if means else span[1]
    if high == low:
        high = low + 1
    counts = [0] * (high - low)
    accepted = [0] * (high - low)
    rejected = [0] * (high - low)
    pending = [0] * (high - low)
    left_out: list[Counter[str]] = [Counter() for _ in range(high - low)]
    for mean, decision, number_of in means:
        index = min(math.floor(mean) - low, high - low - 1)
        counts[index] += number_of
        if decision in ACCEPTED:
            accepted[index] += number_of
        elif decision in REJECTED:
            rejected[index] += number_of
        elif decision == "under-review":
            pending[index] += number_of
        else:
            left_out[index][decision or "unknown"] += number_of
    reviewed = sum(count for _, _, count in means)
    known = bool(everyone.accepted or everyone.rejected or everyone.workshop)
    if basis is None:
        basis = _basis(everyone.accepted, everyone.rejected + everyone.workshop, everyone.pending)
    buckets = tuple(Bucket(low + i, low + i + 1, counts[i]) for i in range(high - low))
    acceptance = tuple(
        BucketAcceptance(low + i, low + i + 1, accepted[i] + rejected[i], accepted[i],
                         _rate(basis, accepted[i], rejected[i], pending[i]), pending[i], _most_first(left_out[i]))
        for i in range(high - low)
    )  # fmt: skip
    ordered = sorted(areas.items(), key=lambda item: (-item[1].papers, item[0]))
    every_mean: list[float] = []
    for mean, _, count in means:
        every_mean += [mean] * count
    every_mean.sort()
    return Figures(
        papers=everyone.papers,
        reviewed=reviewed,
        mean_ratings=buckets,
        mean_of_means=_mean(math.fsum(every_mean), reviewed),
        review_ratings=Distribution.of(_values(tally.ratings)),
        by_area=tuple(
            AreaDecisions(
                area,
                t.papers,
                t.accepted,
                t.rejected,
                t.pending,
                t.withdrawn,
                t.other,
                _rate(basis, t.accepted, t.rejected + t.workshop, t.pending),
                t.workshop,
            )
            for area, t in ordered
        ),
        decisions_known=known,
        basis=basis,
        refused=tuple(d for d in _REFUSED_NAMES if d in everyone.decisions),
        acceptance_by_rating=acceptance,
        reviews_per_paper=Distribution.of(_values(tally.per_paper)),
        confidence=Distribution.of(_values(tally.confidence)),
        progress=everyone.progress("all papers"),
        progress_by_area=tuple(t.progress(area) for area, t in ordered),
        means=tuple(every_mean),
        moves=_moves_finished(tally, known, basis),
    )


def _most_first(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    """``counts`` above 0 as ``(name, count)`` pairs, the most first (ties by name)."""
    return tuple(sorted(((name, n) for name, n in counts.items() if n > 0), key=lambda item: (-item[1], item[0])))


def _moves_finished(tally: Tally, known: bool, basis: str) -> Moves:
    """The :class:`Moves` of the rated papers counted in ``tally``; ``known``: some decision is
    known (:attr:`Figures.decisions_known`); ``basis``: how rates are taken (:data:`BASES`)."""
    numbers = Counter({key[0]: count for key, count in tally.numbers.items()})
    areas: dict[str, dict[str, int]] = {}
    for (area, what), count in tally.move_areas.items():
        if count:
            areas.setdefault(area, {})[what] = count
    decisions: dict[str, Counter[str]] = {name: Counter() for name in ("up", "down", "none")}
    for (direction, decision), count in tally.directions.items():
        if count:
            decisions[direction][decision] += count
    directions = {
        name: [sum(n for d, n in counts.items() if d in ACCEPTED), sum(n for d, n in counts.items() if d in REJECTED),
               counts["under-review"]]
        for name, counts in decisions.items()
    }  # fmt: skip
    counted = ACCEPTED | REJECTED | {"under-review"}
    left_out: dict[str, tuple[tuple[str, int], ...]] = {}
    for name, counts in decisions.items():
        others: Counter[str] = Counter()
        for decision, count in counts.items():
            if decision not in counted:
                others[decision or "unknown"] += count
        left_out[name] = _most_first(others)
    rated_areas = [(area, tally_of) for area, tally_of in areas.items() if tally_of.get("papers", 0)]
    ordered = sorted(rated_areas, key=lambda item: (-item[1]["papers"], item[0]))
    by_direction = tuple(
        MoveAcceptance(name, a + r, a, _rate(basis, a, r, p), p, left_out[name])
        for name, (a, r, p) in directions.items()
    )
    return Moves(
        first_ratings=Distribution.of(_values(tally.first)),
        reviews=numbers["reviews"],
        reviews_moved=numbers["reviews_moved"],
        reviews_up=numbers["reviews_up"],
        reviews_down=numbers["reviews_down"],
        review_steps=Distribution.of(_values(tally.steps)),
        papers=numbers["rated"],
        papers_up=numbers["papers_up"],
        papers_down=numbers["papers_down"],
        papers_review_moved=numbers["papers_moved"],
        paper_steps=Distribution.of(_values(tally.paper_steps)),
        by_area=tuple(
            MoveArea(area, a["papers"], a.get("up", 0), a.get("down", 0), a.get("moved", 0)) for area, a in ordered
        ),
        by_direction=by_direction if known else (),
    )
