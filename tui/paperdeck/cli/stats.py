"""``paperdeck stats``' figures (:mod:`paperdeck.stats.figures`) as lines: Unicode block bars when
standard output is a terminal, the same lines without bars when it is piped. Every area name is
data and goes through :func:`paperdeck.model.safe_text.one_line`."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter
from typing import Any

from paperdeck.cli.output import emit
from paperdeck.model.paper import UserData
from paperdeck.model.safe_text import one_line
from paperdeck.stats.bars import SHADES, bar, stacked_bar
from paperdeck.stats.figures import NO_AREA, Distribution, Figures, figures_of, number
from paperdeck.store.store import Store

__all__ = ["figure_lines", "run_stats", "save_stats_cache"]

#: Cells an area name is cut to.
AREA_CELLS = 40
#: The statuses a progress bar stacks, in its shades' order (dismissed and unseen are the rest).
PROGRESS_PARTS = ("read", "skimmed", "to-read")


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{100 * rate:.1f}%"


def _cut(text: str, cells: int) -> str:
    text = one_line(text)
    return text if len(text) <= cells else text[: cells - 1] + "…"


def _room(columns: int | None, used: int) -> int:
    """Cells left for a bar on a line of ``columns`` after ``used`` cells (0: no bars)."""
    return 0 if columns is None else max(4, min(50, columns - used - 3))


def _distribution(title: str, figure: Distribution, columns: int | None, what: str) -> list[str]:
    lines = [f"\n{title}: {figure.total:,} {what}, mean {number(figure.mean)}"]
    largest = max((count for _, count in figure.counts), default=0)
    width = _room(columns, 16)
    for value, count in figure.counts:
        drawn = f"  {bar(count, largest, width)}" if width else ""
        lines.append(f"  {number(value):>5}  {count:>7,}{drawn}")
    return lines


def figure_lines(figures: Figures, columns: int | None) -> list[str]:
    """The figures as lines, bars fitted to a terminal ``columns`` wide; ``None``: no bars (piped)."""
    lines = [f"\npapers' mean ratings: {figures.reviewed:,} of {figures.papers:,} papers rated, "
             f"mean {number(figures.mean_of_means)}"]  # fmt: skip
    largest = max((b.count for b in figures.mean_ratings), default=0)
    width = _room(columns, 16)
    if figures.reviewed:
        for bucket in figures.mean_ratings:
            drawn = f"  {bar(bucket.count, largest, width)}" if width else ""
            lines.append(f"  {bucket.label:>5}  {bucket.count:>7,}{drawn}")
    lines += _distribution("every review's rating", figures.review_ratings, columns, "reviews")
    lines.append("\ndecisions by primary area (acceptance rate: accepted / (accepted + rejected + under review)):")
    lines.append(f"  {'area':<{AREA_CELLS}}  {'papers':>7}  {'accepted':>8}  {'rate':>6}")
    width = _room(columns, AREA_CELLS + 29)
    for area in figures.by_area:
        drawn = f"  {bar(area.rate or 0, 1, width)}" if width and area.rate is not None else ""
        lines.append(
            f"  {_cut(area.area, AREA_CELLS):<{AREA_CELLS}}  {area.papers:>7,}  {area.accepted:>8,}  "
            f"{_percent(area.rate):>6}{drawn}"
        )
    if figures.decisions_known:
        lines.append("\nacceptance by mean rating:")
        lines.append(f"  {'rating':>6}  {'decided':>7}  {'accepted':>8}  {'rate':>6}")
        width = _room(columns, 33)
        for row in figures.acceptance_by_rating:
            if not row.decided:
                continue
            drawn = f"  {bar(row.rate or 0, 1, width)}" if width and row.rate is not None else ""
            lines.append(f"  {row.label:>6}  {row.decided:>7,}  {row.accepted:>8,}  {_percent(row.rate):>6}{drawn}")
    else:
        lines.append("\nacceptance by mean rating: no decisions known")
    lines += _distribution("reviews per paper", figures.reviews_per_paper, columns, "rated papers")
    lines += _distribution("every review's confidence", figures.confidence, columns, "reviews")
    progress = figures.progress
    said = ", ".join(f"{status} {count:,}" for status, count in progress.statuses)
    lines.append(f"\nmy progress: {progress.papers:,} papers: {said}; starred {progress.starred:,}")
    key = ", ".join(f"{shade} {status}" for shade, status in zip(SHADES, PROGRESS_PARTS, strict=False))
    width = _room(columns, AREA_CELLS + 36)
    lines.append(f"  by area (papers; read, skimmed, to read; starred{'; ' + key if width else ''}):")
    for group in figures.progress_by_area:
        parts = [group.count(status) for status in PROGRESS_PARTS]
        drawn = f"  {stacked_bar(parts, group.papers, width)}" if width and any(parts) else ""
        counts = " ".join(f"{count:>5,}" for count in parts)
        lines.append(
            f"  {_cut(group.label, AREA_CELLS):<{AREA_CELLS}}  {group.papers:>7,}  {counts}  "
            f"★{group.starred:<5,}{drawn}"
        )
    return lines


def _count(store: Store) -> tuple[dict[str, Any], Figures]:
    """What ``stats`` counts from the catalogue and the reviews (parses the whole catalogue).

    Raises:
        StoreError: the catalogue or the review summaries cannot be read.
    """
    from paperdeck.cli.reviews import review_stats

    papers = store.papers
    counts: dict[str, Any] = {
        "papers": len(papers),
        "by_source": dict(Counter(source for p in papers for source in p.sources).most_common()),
        "by_decision": dict(Counter(p.decision for p in papers).most_common()),
        "by_area": dict(Counter(p.primary_area or "(none)" for p in papers).most_common()),
    }
    counts["reviews"] = review_stats(store)[0]
    return counts, figures_of(papers, store.reviews.summaries(), {})


def _marks(store: Store, users: dict[str, UserData]) -> list[tuple[str, str, bool]]:
    """``(area, status, starred)`` of each paper the user marked (a status or a star), its area
    from the catalogue when it is parsed, else from the rows cache (no parse); records of papers
    the store does not hold are left out, as :func:`~paperdeck.stats.figures.figures_of` leaves them."""
    marks = []
    for paper_id, user in users.items():
        if user.status == "unseen" and not user.starred:
            continue
        if store.loaded:
            paper = store.paper(paper_id)
            area = None if paper is None or paper.id != paper_id else paper.primary_area
        else:
            row = store.row(paper_id)
            area = None if row is None else row.area
        if area is not None:
            marks.append((area or NO_AREA, user.status, user.starred))
    return marks


def save_stats_cache(store: Store) -> None:
    """Count the store's figures now and keep them (:mod:`paperdeck.stats.cache`), so that the
    next ``paperdeck stats`` reads them instead of parsing the catalogue (an import calls it).

    Raises:
        StoreError: the catalogue or the review summaries cannot be read.
    """
    from paperdeck.stats.cache import cache_key, write_cache

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
    from paperdeck.stats.cache import cache_key, read_cache, write_cache

    cached = read_cache(store)
    if cached is None:
        key = cache_key(store)
        counts, figures = _count(store)
        write_cache(store, key, counts, figures)
    else:
        counts, figures = cached
    users = store.all_user_data
    figures = figures.with_progress(_marks(store, users))
    starred = sum(1 for u in users.values() if u.starred)
    notes = sum(1 for u in users.values() if u.note)
    data = {"papers": counts["papers"], "starred": starred, "notes": notes, "by_source": counts["by_source"],
            "by_decision": counts["by_decision"], "by_area": counts["by_area"]}  # fmt: skip
    lines = [f"{counts['papers']:,} papers, {starred:,} starred, {notes:,} with notes"]
    for title in ("by source", "by decision", "by area"):
        lines.append(f"\n{title}:")
        lines += [f"  {count:>7,}  {one_line(name)}" for name, count in counts[title.replace(" ", "_")].items()]
    data.update(counts["reviews"])
    lines += review_stats_lines(counts["reviews"])
    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    data["figures"] = figures.to_dict()
    lines += figure_lines(figures, columns)
    emit(args, data, "\n".join(lines))
    return 0
