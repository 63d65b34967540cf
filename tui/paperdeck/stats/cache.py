"""The statistics cache (``stats-cache.json`` beside the catalogue): what ``paperdeck stats``
counts from the catalogue and the review summaries, kept so that the next ``stats`` reads one
small file instead of parsing the whole catalogue.

Shape: one JSON object ``{"schema": 7, "key": KEY, "counts": {…}, "figures": {…}, "tallies": […]}``: ``KEY`` is
the catalogue file's ``[size, mtime in ns]`` and the reviews index's, as :func:`cache_key` gives
them; ``counts`` is whatever the caller keeps (JSON); ``figures`` is
:meth:`paperdeck.stats.figures.Figures.to_cache`; ``tallies`` each venue's
:class:`~paperdeck.stats.tally.VenueTally` (``[venue, its first paper's venue, year, tally]``), from
which the figures are made, so that an import in place updates them for the papers it changed
(:func:`patch_cache`) instead of counting every paper again. A cache whose key is not the store's as it is
on disk now is not used (another import changed the catalogue or the reviews) and is written
again. The user's marks are never cached: they change between two runs and are counted afresh
(:meth:`~paperdeck.stats.figures.Figures.with_progress`).

The cache is derived data: a missing, unreadable or malformed file is counted again, and a
cache that cannot be written is only a slower next run (never an error).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.stats.figures import Figures
from paperdeck.stats.tally import Tally, VenueTally
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.store.store import Store

if TYPE_CHECKING:
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.store.patch_record import CataloguePatch

__all__ = [
    "CACHE_FILE",
    "PATCH_COUNTED",
    "PaperCounts",
    "cache_key",
    "count_counts",
    "patch_cache",
    "read_cache",
    "read_scoped",
    "review_counts",
    "summed_counts",
    "venue_counts",
    "write_cache",
]

CACHE_FILE = "stats-cache.json"
_SCHEMA = 9  # 2: the figures carry the rating moves; 3: and each venue's (Figures.venues); 4: tallies;
# 5: the rates' basis (Figures.basis), the undecided papers apart from the decided; 6: the counts of
# each venue (counts["by_venue"]), for stats --venue; 7: a venue without a rated paper has no scale;
# 8: the not-accepted decisions present (Figures.refused), named under the rates; 9: an area's
# workshop papers apart from its rejected ones (AreaDecisions.workshop)


def cache_key(store: Store) -> list[Any]:
    """The catalogue's and the reviews index's ``[size, mtime in ns]`` (``None`` for a missing file)."""
    try:
        stat = store.reviews.index_path.stat()
        reviews: list[int] | None = [stat.st_size, stat.st_mtime_ns]
    except OSError:
        reviews = None
    return [store.catalogue_stamp(), reviews]


def read_cache(store: Store) -> tuple[dict[str, Any], Figures] | None:
    """The cached counts and figures when the cache is of the store as it is on disk now, else
    ``None`` (no cache, another key, or a file that is not a cache)."""
    try:
        data = orjson.loads((store.data_dir / CACHE_FILE).read_bytes())
        if data.get("schema") != _SCHEMA or data.get("key") != cache_key(store):
            return None
        return dict(data["counts"]), Figures.from_cache(data["figures"])
    except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        return None


def read_scoped(store: Store, scope: frozenset[str]) -> tuple[dict[str, Any], Figures] | None:
    """The counts and figures of the venues in ``scope`` alone, made from the cache's counts of
    each venue (``counts["by_venue"]``: :func:`venue_counts`) and its tallies when it is of the
    store as it is on disk now: what counting those venues' papers afresh gives. ``None`` when it
    cannot (no current cache, no counts or tally of a venue in ``scope``)."""
    from paperdeck.stats.figures import figures_from
    from paperdeck.stats.tally import Tally, VenueTally

    try:
        data = orjson.loads((store.data_dir / CACHE_FILE).read_bytes())
        if data.get("schema") != _SCHEMA or data.get("key") != cache_key(store) or "tallies" not in data:
            return None
        by_venue = data["counts"]["by_venue"]
        if not all(venue in by_venue for venue in scope):
            return None
        groups: dict[str, VenueTally] = {}
        for venue, where_venue, where_year, tally in data["tallies"]:
            if venue in scope:
                groups[str(venue)] = VenueTally((str(where_venue), where_year), Tally.from_json(tally))
        if set(groups) != set(scope):
            return None
        return summed_counts([by_venue[venue] for venue in groups]), figures_from(groups)
    except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        return None


def write_cache(
    store: Store,
    key: list[Any],
    counts: dict[str, Any],
    figures: Figures,
    tallies: Mapping[str, VenueTally] | None = None,
) -> None:
    """Keep ``counts`` and ``figures``, counted from the store as it was at ``key`` (taken
    before counting: a change meanwhile leaves a cache that is not used), with the ``tallies``
    they were made from (``None``: none; the next import in place then counts every paper).
    Best effort."""
    payload = {"schema": _SCHEMA, "key": key, "counts": counts, "figures": figures.to_cache()}
    if tallies is not None:
        payload["tallies"] = [
            [venue, group.where[0], group.where[1], group.tally.to_json()] for venue, group in tallies.items()
        ]
    with contextlib.suppress(StoreError, OSError):
        atomic_write_bytes(store.data_dir / CACHE_FILE, orjson.dumps(payload))


#: The names of :func:`count_counts`' counters, each of the papers' values.
_COUNTED = ("by_source", "by_decision", "by_area")


def count_counts(counts: dict[str, Any], paper: Paper, sign: int = 1) -> None:
    """Count ``paper`` into the cache's ``counts`` (``by_source``: each of its sources,
    ``by_decision``, ``by_area``: its primary area, ``"(none)"`` for none), or take it out
    (``sign`` -1); the counters are left unordered (:func:`paperdeck.stats.tally.ordered_counts`)."""
    area = paper.primary_area or "(none)"
    values = {"by_source": paper.sources, "by_decision": (paper.decision,), "by_area": (area,)}
    for name in _COUNTED:
        counter = counts[name]
        for value in values[name]:
            counter[value] = counter.get(value, 0) + sign


def review_counts(summaries: Mapping[str, ReviewSummary]) -> dict[str, Any]:
    """The review part of the counts of the papers of ``summaries`` (by forum): reviewed papers,
    reviews and every review's rating (``review_notes`` ``None``: notes are counted for the whole
    store only)."""
    from collections import Counter

    from paperdeck.stats.figures import number

    distribution: Counter[float] = Counter(r for s in summaries.values() for r in s.ratings)
    return {
        "reviewed_papers": sum(1 for s in summaries.values() if s.count),
        "review_notes": None,
        "reviews": sum(s.count for s in summaries.values()),
        "rating_distribution": {number(k): v for k, v in sorted(distribution.items())},
    }


def venue_counts(papers: Iterable[Paper], summaries: Mapping[str, ReviewSummary]) -> dict[str, dict[str, Any]]:
    """Each venue's counts (:attr:`~paperdeck.model.paper.Paper.library_venue` → papers,
    ``by_source``, ``by_decision``, ``by_area`` and its papers' :func:`review_counts`), as
    ``paperdeck stats --venue`` counts the papers of one venue: kept in the cache's counts
    (``by_venue``) so that :func:`read_scoped` adds them up instead of counting again."""
    counter = VenueCounter()
    for paper in papers:
        counter.add(paper)
    return counter.counts(summaries)


class VenueCounter:
    """:func:`venue_counts` a paper at a time: what it keeps of a paper is its counts and its
    OpenReview id, never the paper (a catalogue read one paper at a time is counted in one pass)."""

    def __init__(self) -> None:
        self._counts: dict[str, dict[str, Any]] = {}
        self._forums: dict[str, set[str]] = {}

    def add(self, paper: Paper) -> None:
        """Counts ``paper`` in its venue's counts."""
        venue = paper.library_venue
        counts = self._counts.get(venue)
        if counts is None:
            counts = self._counts[venue] = {"papers": 0, "by_source": {}, "by_decision": {}, "by_area": {}}
            self._forums[venue] = set()
        counts["papers"] += 1
        count_counts(counts, paper)
        if paper.openreview_id:
            self._forums[venue].add(paper.openreview_id)

    def counts(self, summaries: Mapping[str, ReviewSummary]) -> dict[str, dict[str, Any]]:
        """Each venue's counts so far, in the order its first paper came (:func:`venue_counts`)."""
        from paperdeck.stats.tally import ordered_counts

        out: dict[str, dict[str, Any]] = {}
        for venue, counted in self._counts.items():
            counts = dict(counted)
            for name in _COUNTED:
                counts[name] = ordered_counts(counted[name])
            forums = self._forums[venue]
            counts["reviews"] = review_counts({forum: s for forum, s in summaries.items() if forum in forums})
            out[venue] = counts
        return out


def summed_counts(parts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Venues' counts (:func:`venue_counts`) added up: what counting their papers together gives."""
    from paperdeck.stats.tally import ordered_counts

    total: dict[str, Any] = {"papers": 0, "by_source": {}, "by_decision": {}, "by_area": {}}
    reviews: dict[str, Any] = {"reviewed_papers": 0, "review_notes": None, "reviews": 0}
    distribution: dict[str, int] = {}
    for part in parts:
        total["papers"] += int(part["papers"])
        for name in _COUNTED:
            for value, count in part[name].items():
                total[name][value] = total[name].get(value, 0) + int(count)
        for name in ("reviewed_papers", "reviews"):
            reviews[name] += int(part["reviews"][name])
        for value, count in part["reviews"]["rating_distribution"].items():
            distribution[value] = distribution.get(value, 0) + int(count)
    for name in _COUNTED:
        total[name] = ordered_counts(total[name])
    reviews["rating_distribution"] = dict(sorted(distribution.items(), key=lambda item: float(item[0])))
    total["reviews"] = reviews
    return total


def _count_venue(counts: dict[str, Any], paper: Paper, summary: ReviewSummary | None, sign: int) -> None:
    """Count ``paper`` (its venue's papers unchanged: it stays in it) and its review summary into
    its venue's counts (:func:`venue_counts`), or take them out (``sign`` -1)."""
    from paperdeck.stats.figures import number

    for name in _COUNTED:
        counts[name] = dict(counts[name])
    count_counts(counts, paper, sign)
    if summary is None:
        return
    reviews = counts["reviews"] = dict(counts["reviews"])
    reviews["reviewed_papers"] += sign * bool(summary.count)
    reviews["reviews"] += sign * summary.count
    ratings = reviews["rating_distribution"] = dict(reviews["rating_distribution"])
    for rating in summary.ratings:
        key = number(rating)
        ratings[key] = ratings.get(key, 0) + sign


#: Papers whose contributions :func:`patch_cache` counted (out and in), since the process began:
#: what a decisions file of k papers costs, whatever the store's size (the tests read it).
PATCH_COUNTED = [0]


class PaperCounts:
    """What ``stats`` counts of every paper of the store, a paper at a time, never the papers held
    (:func:`paperdeck.cli.stats._count`): the counts (:func:`count_counts`), each venue's
    (:class:`VenueCounter`) and each venue's tally (what :func:`~paperdeck.stats.tally.venue_tallies`
    makes), in the order the papers come. A review import feeds it as it writes the new scores
    (:func:`paperdeck.store.rescoring.rescore`: each paper parsed once serves the scores and the
    counts), then says which catalogue file it counted (:meth:`done`).

    Attributes:
        counts: ``papers``, ``by_source``, ``by_decision``, ``by_area`` (unordered).
        by_venue: each venue's counts.
        tallies: each venue's tally, by venue, in order of first paper.
        counted_for: the stamp of the catalogue file every paper of which was counted, once
            :meth:`done` said so; ``None`` before.
    """

    def __init__(self) -> None:
        self.counts: dict[str, Any] = {"papers": 0, "by_source": {}, "by_decision": {}, "by_area": {}}
        self.by_venue = VenueCounter()
        self.tallies: dict[str, VenueTally] = {}
        self.counted_for: tuple[int, ...] | None = None

    def add(self, paper: Paper, summary: ReviewSummary | None) -> None:
        """Count ``paper``, ``summary`` its imported reviews' (``None``: none), as unseen and not starred."""
        counts = self.counts
        counts["papers"] += 1
        count_counts(counts, paper)
        self.by_venue.add(paper)
        venue = paper.library_venue
        group = self.tallies.get(venue)
        if group is None:
            group = self.tallies[venue] = VenueTally((paper.venue, paper.year), Tally())
        group.tally.add(paper, summary, None)

    def done(self, stamp: Iterable[int]) -> None:
        """Every paper of the catalogue file stamped ``stamp`` was counted, in its order."""
        self.counted_for = tuple(stamp)


def patch_cache(store: Store, before: list[Any], patch: CataloguePatch | None) -> bool:
    """Update the cache counted for the store at ``before`` (:func:`cache_key`) for the import in
    place ``patch`` made (:attr:`~paperdeck.store.catalogue.Catalogue.last_patch`): each changed
    paper's old contribution to the counts and tallies taken out and its new one put in (its review
    summary read for it alone), the figures made again from the tallies and the cache written for
    the store as it is: what counting every paper gives (:func:`~paperdeck.stats.figures.figures_from`).
    Returns False, having written nothing, when it cannot: no patch, a cache of another key or
    without tallies, reviews changed meanwhile, a changed paper moved to another venue or year.

    Raises:
        StoreError: the review summaries cannot be read.
    """
    from paperdeck.stats.figures import figures_from
    from paperdeck.stats.tally import Tally, VenueTally, ordered_counts

    now = cache_key(store)
    if patch is None or not before or before[0] is None or tuple(before[0]) != patch.before:
        return False
    if now[0] is None or tuple(now[0]) != patch.after or now[1] != before[1]:
        return False
    pairs = list(patch.papers.values())
    if any((old.venue, old.year) != (new.venue, new.year) for old, new in pairs):
        return False
    try:
        data = orjson.loads((store.data_dir / CACHE_FILE).read_bytes())
        if data.get("schema") != _SCHEMA or data.get("key") != before or "tallies" not in data:
            return False
        counts = dict(data["counts"])
        for name in _COUNTED:
            counts[name] = dict(counts[name])
        by_venue: dict[str, dict[str, Any]] = counts["by_venue"]
        groups: dict[str, VenueTally] = {}
        for venue, where_venue, where_year, tally in data["tallies"]:
            groups[str(venue)] = VenueTally((str(where_venue), where_year), Tally.from_json(tally))
    except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        return False
    forums = {paper.openreview_id for pair in pairs for paper in pair if paper.openreview_id}
    # the summaries the import read (the reviews are as they were then: the key's part says so)
    summaries = {forum: patch.summaries[forum] for forum in forums & patch.forums if forum in patch.summaries}
    if missing := forums - patch.forums:
        summaries.update(store.reviews.summaries_of(missing))
    # A cache read back that is not one written here (a count that is not a number, a value JSON
    # cannot keep: NaN) is counted again.
    try:
        for old, new in pairs:
            group = groups.get(old.library_venue)
            if group is None:
                return False
            venue = by_venue[old.library_venue]
            for paper, sign in ((old, -1), (new, 1)):
                summary = summaries.get(paper.openreview_id) if paper.openreview_id else None
                group.tally.add(paper, summary, None, sign)
                count_counts(counts, paper, sign)
                _count_venue(venue, paper, summary, sign)
            PATCH_COUNTED[0] += 1
        for group in groups.values():
            group.tally.clean()
        for name in _COUNTED:
            counts[name] = ordered_counts(counts[name])
            for venue in by_venue.values():
                venue[name] = ordered_counts(venue[name])
        for venue in by_venue.values():
            ratings = venue["reviews"]["rating_distribution"]
            venue["reviews"]["rating_distribution"] = {
                k: v for k, v in sorted(ratings.items(), key=lambda item: float(item[0])) if v
            }
        figures = figures_from(groups)
    except (TypeError, ValueError, AttributeError):
        return False
    write_cache(store, now, counts, figures, groups)
    return True
