"""The statistics screen's charts, drawn from :class:`paperdeck.stats.figures.Figures`: each as
:class:`~textual.content.Content` (Unicode block bars of :mod:`paperdeck.stats.bars`, fitted to
a width) and as the table of its numbers (columns, rows).

Charts use the theme's own text colour only (bars are characters, not colours), so they read in
every theme; the highlighted paper's bucket is drawn reversed. Area names are data: every one
goes through :func:`paperdeck.model.safe_text.one_line` and enters a table as
:class:`rich.text.Text` (a plain ``str`` cell would be read as markup).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.content import Content

from paperdeck.model.safe_text import one_line
from paperdeck.stats.bars import SHADES, bar, stacked_bar
from paperdeck.stats.figures import Distribution, Figures, Place, number

__all__ = ["CHARTS", "SHORT_LABELS", "Chart", "chart_content", "chart_table", "ordinal"]


@dataclass(frozen=True)
class Chart:
    """One chart of the screen: its ``key`` (stable), its tab ``title``."""

    key: str
    title: str


#: The charts, in the order ``n`` / ``p`` (or ``→`` / ``←``) go through them.
CHARTS: tuple[Chart, ...] = (
    Chart("ratings", "Ratings"),
    Chart("areas", "Areas"),
    Chart("acceptance", "Acceptance"),
    Chart("reviews", "Reviews"),
    Chart("progress", "My progress"),
)

#: The statuses a progress bar stacks, in the order of :data:`SHADES`; unseen is the rest.
PROGRESS_PARTS = ("read", "skimmed", "to-read", "dismissed")

Row = tuple[str | Text, ...]


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``, ``100th``."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{100 * rate:.0f}%"


def _cut(text: str, cells: int) -> str:
    text = one_line(text)
    return text if len(text) <= cells else text[: max(cells - 1, 0)] + "…"


def _line(*parts: str | tuple[str, str] | Content) -> Content:
    return Content.assemble(*parts)


def _marked(label: str, rest: str, marked: bool) -> Content:
    """A chart line: its label reversed and a ``◀`` at its end when ``marked`` (the highlighted
    paper's bucket)."""
    if not marked:
        return Content(label + rest)
    return Content.assemble((label, "reverse bold"), rest, (" ◀", "bold"))


def _heading(text: str) -> Content:
    return Content.styled(text, "bold")


def _distribution(title: str, figure: Distribution, what: str, width: int) -> list[Content]:
    lines = [_heading(f"{title} · {figure.total:,} {what} · mean {number(figure.mean)}")]
    if not figure.counts:
        return [*lines, Content("  none")]
    largest = max(count for _, count in figure.counts)
    room = max(width - 17, 4)
    for value, count in figure.counts:
        lines.append(_line(f"{number(value):>5} │", bar(count, largest, room).ljust(room), f" {count:>8,}"))
    return lines


def _ratings(figures: Figures, place: Place | None, width: int) -> list[Content]:
    lines = [_heading(f"Papers' mean ratings · {figures.reviewed:,} of {figures.papers:,} rated "
                      f"· mean {number(figures.mean_of_means)}")]  # fmt: skip
    if not figures.reviewed:
        lines.append(Content("  no paper in the view has a rating"))
    else:
        largest = max(b.count for b in figures.mean_ratings)
        room = max(width - 19, 4)
        for index, bucket in enumerate(figures.mean_ratings):
            marked = place is not None and place.bucket == index
            drawn = f" │{bar(bucket.count, largest, room).ljust(room)} {bucket.count:>8,}"
            lines.append(_marked(f"{bucket.label:>5}", drawn, marked))
    if place is not None:
        lines.append(
            _line("  this paper ", (number(place.mean), "bold"),
                  f": {ordinal(round(place.percentile))} percentile (top {100 * place.top:.0f}%), bucket "
                  f"{figures.mean_ratings[place.bucket].label} ◀")
        )  # fmt: skip
    else:
        lines.append(Content("  the highlighted paper has no rating"))
    return lines + _distribution("Every review's rating", figures.review_ratings, "reviews", width)


def _areas(figures: Figures, width: int) -> list[Content]:
    lines = [
        _heading("Decisions by primary area"),
        Content.styled("  rate = accepted / (accepted + rejected + under review)", "italic"),
    ]
    longest = max((len(one_line(area.area)) for area in figures.by_area), default=4)
    # Wide screens give the names room to differ (three areas begin "applications to"), narrow
    # ones keep room for the bars.
    cells = max(min(width - 42, 34 if width < 120 else max(34, min(longest, width - 80))), 12)
    room = max(width - cells - 27, 4)
    lines.append(Content(f"{'area':<{cells}} {'papers':>7} {'acc.':>6} {'rate':>5} "))
    for area in figures.by_area:
        drawn = bar(area.rate or 0, 1, room) if area.rate is not None else ""
        lines.append(Content(f"{_cut(area.area, cells):<{cells}} {area.papers:>7,} {area.accepted:>6,} "
                             f"{_percent(area.rate):>5} {drawn}"))  # fmt: skip
    return lines


def _acceptance(figures: Figures, place: Place | None, width: int) -> list[Content]:
    lines = [_heading("Acceptance rate by mean rating")]
    if not figures.decisions_known:
        return [*lines, Content("  no decisions known for the papers of the view")]
    room = max(width - 32, 4)
    lines.append(Content(f"{'rating':>6} {'decided':>8} {'accepted':>9} {'rate':>5}"))
    for index, bucket in enumerate(figures.acceptance_by_rating):
        drawn = bar(bucket.rate or 0, 1, room) if bucket.rate is not None else ""
        text = f"{bucket.label:>6} {bucket.decided:>8,} {bucket.accepted:>9,} {_percent(bucket.rate):>5} {drawn}"
        marked = place is not None and place.bucket == index
        lines.append(_marked(text[:6], text[6:], marked))
    return lines


def _reviews(figures: Figures, width: int) -> list[Content]:
    lines = _distribution("Reviews per paper", figures.reviews_per_paper, "rated papers", width)
    return [*lines, Content(""), *_distribution("Every review's confidence", figures.confidence, "reviews", width)]


def _progress(figures: Figures, width: int) -> list[Content]:
    progress = figures.progress
    key = "  ".join(f"{shade} {status}" for shade, status in zip(SHADES, PROGRESS_PARTS, strict=True))
    said = " · ".join(f"{status} {count:,}" for status, count in progress.statuses)
    lines = [
        _heading(f"My progress · {progress.papers:,} papers · ★ {progress.starred:,} starred"),
        Content(f"  {said}"),
        Content(f"  {key}  (blank: unseen)"),
    ]
    room = max(width - 2, 4)
    parts = [progress.count(status) for status in PROGRESS_PARTS]
    lines.append(Content(f"  {stacked_bar(parts, progress.papers, room - 2)}"))
    lines.append(_heading("By area"))
    cells = max(min(width - 40, 34), 12)
    room = max(width - cells - 22, 4)
    for group in figures.progress_by_area:
        parts = [group.count(status) for status in PROGRESS_PARTS]
        done = sum(parts)
        drawn = stacked_bar(parts, group.papers, room).ljust(room)
        counts = f"{done:>5,}/{group.papers:<6,} ★{group.starred:<3}"
        lines.append(Content(f"{_cut(group.label, cells):<{cells}} {drawn} {counts}"))
    return lines


def chart_content(key: str, figures: Figures, place: Place | None, width: int) -> Content:
    """Chart ``key`` (of :data:`CHARTS`) of ``figures``, fitted to ``width`` cells; ``place``: the
    highlighted paper's place (marked on the ratings and acceptance charts), ``None`` for none."""
    drawers: dict[str, Callable[[], list[Content]]] = {
        "ratings": lambda: _ratings(figures, place, width),
        "areas": lambda: _areas(figures, width),
        "acceptance": lambda: _acceptance(figures, place, width),
        "reviews": lambda: _reviews(figures, width),
        "progress": lambda: _progress(figures, width),
    }
    return Content("\n").join(drawers[key]())


def _rate_cell(rate: float | None) -> str:
    return "" if rate is None else f"{100 * rate:.1f}%"


def _distribution_rows(figure: Distribution, what: str) -> list[Row]:
    return [(what, number(value), f"{count:,}") for value, count in figure.counts]


#: The tables' shorter column labels, for a terminal too narrow for the area names beside the long
#: ones (the chart of the areas says ``acc.`` too).
SHORT_LABELS = {"accepted": "acc.", "rejected": "rej.", "under review": "pending", "withdrawn": "withdr.",
                "dismissed": "dism."}  # fmt: skip


def chart_table(key: str, figures: Figures) -> tuple[tuple[str, ...], list[Row]]:
    """The numbers of chart ``key``: column labels and rows (area names as :class:`Text`)."""
    if key == "ratings":
        rows: list[Row] = [("mean rating", b.label, f"{b.count:,}") for b in figures.mean_ratings]
        rows += _distribution_rows(figures.review_ratings, "review rating")
        rows += [("mean of papers' means", "", number(figures.mean_of_means)),
                 ("mean of every review", "", number(figures.review_ratings.mean))]  # fmt: skip
        return ("figure", "value", "papers / reviews"), rows
    if key == "areas":
        return ("area", "papers", "accepted", "rejected", "under review", "withdrawn", "rate"), [
            (Text(one_line(a.area)), f"{a.papers:,}", f"{a.accepted:,}", f"{a.rejected:,}", f"{a.pending:,}",
             f"{a.withdrawn:,}", _rate_cell(a.rate))
            for a in figures.by_area
        ]  # fmt: skip
    if key == "acceptance":
        return ("mean rating", "decided", "accepted", "rate"), [
            (b.label, f"{b.decided:,}", f"{b.accepted:,}", _rate_cell(b.rate)) for b in figures.acceptance_by_rating
        ]
    if key == "reviews":
        rows = _distribution_rows(figures.reviews_per_paper, "reviews per paper")
        rows += _distribution_rows(figures.confidence, "confidence")
        return ("figure", "value", "papers / reviews"), rows
    groups = [figures.progress, *figures.progress_by_area]
    statuses = tuple(status for status, _ in figures.progress.statuses)
    return ("area", "papers", *statuses, "starred"), [
        (Text(one_line(g.label)), f"{g.papers:,}", *(f"{g.count(s):,}" for s in statuses), f"{g.starred:,}")
        for g in groups
    ]
