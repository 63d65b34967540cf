"""Per-venue numbers of a sequence of papers, for the query fields ``venue:`` and ``rating_pct``
and the ``rating_pct`` sort: each paper's venue (:func:`paperdeck.model.venue.venue_of`) and its
mean rating's percentile within its venue (:func:`rating_percentiles`), never across venues, as
venues rate on different scales (:mod:`paperdeck.model.venue`).

Both are kept for the last sequence of papers asked about (the catalogue's list, the same object
from one keystroke to the next), so a query re-evaluated as the user types costs an array look-up.
"""

from __future__ import annotations

import math
import operator
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from paperdeck.model.paper import Paper
from paperdeck.model.venue import Scale, venue_of

if TYPE_CHECKING:
    import numpy as np

__all__ = ["rating_percentiles", "scales_of_venues", "scales_shown", "venue_labels"]

_lock = threading.Lock()
#: ``(papers, labels, percentiles or None)`` of the last sequence asked about.
_last: tuple[Sequence[Paper], list[str], np.ndarray | None] | None = None


def _entry(papers: Sequence[Paper]) -> tuple[Sequence[Paper], list[str], np.ndarray | None]:
    global _last
    with _lock:
        last = _last
        if last is not None and _same(last[0], papers):
            return last
    pairs = list(map(_venue_year, papers))
    named: dict[tuple[str, int | None], str] = {}
    for n, pair in enumerate(pairs):
        if pair not in named:
            named[pair] = venue_of(papers[n])
    entry = (list(papers), [named[pair] for pair in pairs], None)
    with _lock:
        _last = entry
    return entry


_venue_year = operator.attrgetter("venue", "year")


def _same(kept: Sequence[Paper], papers: Sequence[Paper]) -> bool:
    """Whether ``papers`` are the very paper objects ``kept`` holds, in order (at C speed)."""
    return kept is papers or (len(kept) == len(papers) and all(map(operator.is_, kept, papers)))


def venue_labels(papers: Sequence[Paper]) -> list[str]:
    """Each paper's venue (``"ICLR 2026"``, ``""`` when unknown), aligned with ``papers``; do not
    change the list returned."""
    return _entry(papers)[1]


def rating_percentiles(papers: Sequence[Paper]) -> np.ndarray:
    """Each paper's mean rating as a percentile within its venue, aligned with ``papers`` (a float
    array, 0–100]: the share, in percent, of the venue's rated papers whose mean is as low or lower
    (the venue's best paper is at 100, a paper in its top tenth at 90 or more); NaN for a paper
    without ratings. Papers of no known venue are ranked among themselves. Do not change the
    array returned."""
    global _last
    import numpy as np

    entry = _entry(papers)
    if entry[2] is not None:
        return entry[2]
    labels = entry[1]
    means = np.fromiter(
        (p.ratings.mean if p.ratings is not None else math.nan for p in papers), dtype=np.float64, count=len(papers)
    )
    result = np.full(len(papers), math.nan)
    groups: dict[str, list[int]] = {}
    for n, label in enumerate(labels):
        groups.setdefault(label, []).append(n)
    for positions in groups.values():
        where = np.asarray(positions, dtype=np.int64)
        values = means[where]
        rated = ~np.isnan(values)
        if not rated.any():
            continue
        ordered = np.sort(values[rated])
        at_or_below = np.searchsorted(ordered, values[rated], side="right")
        result[where[rated]] = 100.0 * at_or_below / len(ordered)
    with _lock:
        if _last is entry:
            _last = (entry[0], labels, result)
    return result


def scales_shown(papers: Sequence[Paper]) -> dict[str, Scale]:
    """The scale of each rated paper (:func:`paperdeck.model.venue.scale_of`), by paper id, when the
    rated papers are on more than one scale (then a list of several shows ``6.5/10``:
    :func:`scales_of_venues` tells which views do); ``{}`` when they are all on one (or none is
    known: ratings are shown bare). Reads every paper: call it in a worker."""
    from paperdeck.model.venue import scale_of

    scales: dict[str, Scale] = {}
    for paper in papers:
        if paper.ratings is not None and (scale := scale_of(paper)) is not None:
            scales[paper.id] = scale
    return scales if len(set(scales.values())) > 1 else {}


def scales_of_venues(papers: Sequence[Paper], scales: Mapping[str, Scale]) -> dict[str, frozenset[Scale]]:
    """The scales of each venue's rated papers, by venue as the venue scope names it
    (:attr:`Paper.library_venue <paperdeck.model.paper.Paper.library_venue>`, the labels of the
    store's venue runs), from ``scales`` (by paper id: :func:`scales_shown`); ``{}`` when
    ``scales`` is (one scale: nothing to tell apart). A view's ratings show their scale when the
    venues it lists have more than one between them. Reads every paper: call it in a worker."""
    if not scales:
        return {}
    by_venue: dict[str, set[Scale]] = {}
    for paper in papers:
        if (scale := scales.get(paper.id)) is not None:
            by_venue.setdefault(paper.library_venue, set()).add(scale)
    return {venue: frozenset(found) for venue, found in by_venue.items()}
