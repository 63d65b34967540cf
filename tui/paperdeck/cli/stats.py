"""``paperdeck stats``' counts, then its figures (:mod:`paperdeck.stats.figures`) as the charts of
the statistics screen (:mod:`paperdeck.stats.charts`, laid out there once): Unicode block bars when
standard output is a terminal, the same lines without bars when it is piped. Every area name is
data and goes through :func:`paperdeck.model.safe_text.one_line`. With ``--json``, ``venues``
holds one entry per venue with its scale and its rating distribution on it
(:meth:`~paperdeck.stats.figures.VenueFigures.to_dict`); the top level has them by scale, and one
``rating_distribution`` (and ``figures.rating_moves``' first ratings and steps) only when the
venues share one scale.
``--venue`` (repeatable, :func:`~paperdeck.cli.selecting.venue_scope`) counts only the papers of
those venues, and their reviews: read from the statistics cache's counts and tallies of each venue
when it is current (:func:`~paperdeck.stats.cache.read_scoped`), else counted afresh."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable
from typing import Any

from paperdeck.cli.output import emit
from paperdeck.model.safe_text import one_line
from paperdeck.stats.charts import CHARTS, chart_lines
from paperdeck.stats.figures import Figures
from paperdeck.stats.marks import user_marks
from paperdeck.stats.tally import VenueTally
from paperdeck.store.store import Store

__all__ = ["figure_lines", "run_stats", "save_stats_cache"]

#: Cells a chart is laid out for when standard output is piped (no bars), and at most on a terminal.
CHART_CELLS = 120


def figure_lines(figures: Figures, columns: int | None) -> list[str]:
    """The charts (:data:`paperdeck.stats.charts.CHARTS`, as the statistics screen lays them out),
    each after an empty line, bars fitted to a terminal ``columns`` wide (at most
    :data:`CHART_CELLS`); ``None``: no bars (piped), laid out for :data:`CHART_CELLS`."""
    width = CHART_CELLS if columns is None else max(min(columns - 1, CHART_CELLS), 30)
    lines: list[str] = []
    for chart in CHARTS:
        lines.append("")
        lines += [line.text.rstrip() for line in chart_lines(chart.key, figures, width, bars=columns is not None)]
    return lines


def _count(store: Store, scope: frozenset[str] = frozenset()) -> tuple[dict[str, Any], Figures, dict[str, VenueTally]]:
    """What ``stats`` counts from the catalogue and the reviews (parses the whole catalogue), and
    the tallies its figures are made from (:func:`~paperdeck.stats.tally.venue_tallies`); only the
    papers of the venues in ``scope`` and their reviews when it is not empty.

    Raises:
        StoreError: the catalogue or the review summaries cannot be read.
    """
    from paperdeck.cli.reviews import review_stats
    from paperdeck.stats.cache import PaperCounts, count_counts, review_counts, venue_counts
    from paperdeck.stats.figures import figures_from
    from paperdeck.stats.tally import ordered_counts, venue_tallies

    counts: dict[str, Any] = {"papers": 0, "by_source": {}, "by_decision": {}, "by_area": {}}
    written = store.catalogue.patched() if not scope else None
    if written is not None:
        # A catalogue an import patched in place, unparsed: its papers counted as the import wrote
        # them (a review import's scores: each paper parsed once for both), else read again one at
        # a time, each counted and tallied, never all held (a review import's last step at scale).
        summaries = store.reviews.summaries()
        counted = store.rescore_tally
        if not isinstance(counted, PaperCounts) or counted.counted_for != tuple(written.stamp):
            counted = PaperCounts()
            for paper in written.papers():
                forum = paper.openreview_id
                counted.add(paper, summaries.get(forum) if forum else None)
        counts = counted.counts
        for name in ("by_source", "by_decision", "by_area"):
            counts[name] = ordered_counts(counts[name])
        counts["reviews"] = review_stats(store)[0]
        counts["by_venue"] = counted.by_venue.counts(summaries)  # what stats --venue reads back
        return counts, figures_from(counted.tallies), counted.tallies
    papers = store.papers if not scope else [p for p in store.papers if p.library_venue in scope]
    counts["papers"] = len(papers)
    for paper in papers:
        count_counts(counts, paper)
    for name in ("by_source", "by_decision", "by_area"):
        counts[name] = ordered_counts(counts[name])
    summaries = store.reviews.summaries()
    if scope:
        forums = {p.openreview_id for p in papers if p.openreview_id}
        summaries = {forum: s for forum, s in summaries.items() if forum in forums}
        counts["reviews"] = review_counts(summaries)
    else:
        counts["reviews"] = review_stats(store)[0]
        counts["by_venue"] = venue_counts(papers, summaries)  # what stats --venue reads back
    tallies = venue_tallies(papers, summaries, {})
    return counts, figures_from(tallies), tallies


def _distributions_by_scale(figures: Figures, pooled: dict[str, int]) -> dict[str, Any]:
    """``--json``'s top-level rating distributions: ``rating_distribution_by_scale`` (each scale's
    text → every review's rating on it → reviews, the venues of one scale added up), and
    ``rating_distribution`` (every review's) only when the rated venues share one scale: ratings of
    several scales are never one distribution (each venue's entry has its own)."""
    from collections import Counter

    from paperdeck.stats.figures import number

    by_scale: dict[str, Counter[float]] = {}
    for venue in figures.rated_venues:
        by_scale.setdefault(venue.scale, Counter()).update(dict(venue.figures.review_ratings.counts))
    data: dict[str, Any] = {
        "rating_distribution_by_scale": {
            scale: {number(k): v for k, v in sorted(counts.items())} for scale, counts in by_scale.items()
        }
    }
    if len(by_scale) <= 1:
        data["rating_distribution"] = pooled
    return data


#: The rating moves' distributions that are on a rating scale (their counts are not).
_SCALED_MOVES = ("first_ratings", "review_steps", "paper_steps")


def _unpool(figures: Figures, data: dict[str, Any]) -> None:
    """Take out of ``--json``'s top-level figures (``data``) what is on a rating scale when the
    rated venues are on more than one: every review's rating (``review_ratings``), the papers'
    mean ratings' buckets and mean (``mean_ratings`` keeps its total), the acceptance by mean
    rating, and, of ``rating_moves``, the first ratings and the steps. As
    ``rating_distribution``, ratings of several scales are never one distribution (each venue's
    entry has its own)."""
    if len({venue.scale for venue in figures.rated_venues}) > 1:
        data.pop("review_ratings", None)
        data.pop("acceptance_by_rating", None)
        data["mean_ratings"] = {"total": data["mean_ratings"]["total"]}
        for name in _SCALED_MOVES:
            data["rating_moves"].pop(name, None)


def _in_scope(store: Store, scope: frozenset[str]) -> Callable[[str], bool] | None:
    """Whether a paper id is of a venue in ``scope`` (the catalogue is parsed); ``None`` (every
    paper) when ``scope`` is empty."""
    if not scope:
        return None
    return lambda paper_id: (paper := store.paper(paper_id)) is not None and paper.library_venue in scope


def save_stats_cache(store: Store, before: list[Any] | None = None) -> None:
    """Count the store's figures now and keep them (:mod:`paperdeck.stats.cache`), so that the
    next ``paperdeck stats`` reads them instead of parsing the catalogue (an import calls it).
    Given ``before`` (:func:`~paperdeck.stats.cache.cache_key` before the import), the cache of
    then is updated for the papers the store's last import in place changed, when it can be
    (:func:`~paperdeck.stats.cache.patch_cache`: no paper parsed but those), else counted again.

    Raises:
        StoreError: the catalogue or the review summaries cannot be read.
    """
    from paperdeck.stats.cache import cache_key, patch_cache, write_cache

    if before is not None and patch_cache(store, before, store.catalogue.last_patch):
        return
    key = cache_key(store)
    write_cache(store, key, *_count(store))


def run_stats(store: Store, args: argparse.Namespace) -> int:
    """``paperdeck stats``: the counts and figures of the whole store, read from the statistics
    cache when it is of the store as it is (:mod:`paperdeck.stats.cache`), else counted (and
    kept); the user's marks counted afresh every time.

    Raises:
        StoreError: the catalogue or the review summaries cannot be read.
    """
    from paperdeck.cli.reviews import review_stats_lines
    from paperdeck.cli.selecting import venue_scope
    from paperdeck.stats.cache import cache_key, read_cache, read_scoped, write_cache

    scope = venue_scope(store, getattr(args, "venue", None) or [])
    cached = read_scoped(store, scope) if scope else read_cache(store)
    if scope:
        counts, figures = cached if cached is not None else _count(store, scope)[:2]
    elif cached is None:
        key = cache_key(store)
        counts, figures, tallies = _count(store)
        write_cache(store, key, counts, figures, tallies)
    else:
        counts, figures = cached
    marked = user_marks(store, _in_scope(store, scope))  # papers of the store (and scope) only
    figures = figures.with_progress(marked.marks)
    starred, notes = marked.starred, marked.notes
    data: dict[str, Any] = {"venues_selected": sorted(scope)} if scope else {}
    data |= {"papers": counts["papers"], "starred": starred, "notes": notes, "by_source": counts["by_source"],
            "by_decision": counts["by_decision"], "by_area": counts["by_area"]}  # fmt: skip
    from paperdeck.model.counts import counted as count_of

    lines = [f"{count_of(counts['papers'], 'paper')}, {starred:,} starred, {notes:,} with notes"]
    if scope:
        from paperdeck.search.venues import venue_name

        lines[0] = f"{', '.join(one_line(venue_name(v)) for v in sorted(scope))}: {lines[0]}"
    for title in ("by source", "by decision", "by area"):
        lines.append(f"\n{title}:")
        lines += [f"  {count:>7,}  {one_line(name)}" for name, count in counts[title.replace(" ", "_")].items()]
    data.update(counts["reviews"])
    if len(figures.rated_venues) > 1:  # ratings of several scales: never one distribution
        lines += review_stats_lines(counts["reviews"] | {"rating_distribution": {}})
        lines.append("rating distribution: each venue's, on its own scale, in the charts below")
    else:
        lines += review_stats_lines(counts["reviews"])
    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    data["figures"] = figures.to_dict()
    data["venues"] = data["figures"].pop("venues")  # one entry per venue, with its scale
    _unpool(figures, data["figures"])
    data |= _distributions_by_scale(figures, data.pop("rating_distribution", {}))
    lines += figure_lines(figures, columns)
    emit(args, data, "\n".join(lines))
    return 0
