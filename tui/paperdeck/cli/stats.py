"""``paperdeck stats``' figures (:mod:`paperdeck.stats.figures`) as lines: Unicode block bars when
standard output is a terminal, the same lines without bars when it is piped. Every area name is
data and goes through :func:`paperdeck.model.safe_text.one_line`."""

from __future__ import annotations

import shutil
import sys
from typing import Any

from paperdeck.model.safe_text import one_line
from paperdeck.stats.bars import SHADES, bar, stacked_bar
from paperdeck.stats.figures import Distribution, Figures, figures_of, number
from paperdeck.store.store import Store

__all__ = ["figure_lines", "figures_of_store", "stats_figures"]

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


def figures_of_store(store: Store) -> Figures:
    """The figures of every paper of ``store``.

    Raises:
        StoreError: the review summaries cannot be read.
    """
    return figures_of(store.papers, store.reviews.summaries(), store.all_user_data)


def stats_figures(store: Store) -> tuple[dict[str, Any], list[str]]:
    """``stats``' figures: as data (``{"figures": …}``) and as lines, with bars on a terminal."""
    figures = figures_of_store(store)
    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    return {"figures": figures.to_dict()}, figure_lines(figures, columns)
