"""The statistics screen's charts: each chart's lines (:mod:`paperdeck.stats.charts`, laid out
there once for the screen and ``paperdeck stats``) styled as :class:`~textual.content.Content`,
and the table of its numbers (columns, rows).

Charts use the theme's own text colour only (bars are characters, not colours), so they read in
every theme; the highlighted paper's bucket is drawn reversed. Area names are data: every one
goes through :func:`paperdeck.model.safe_text.one_line` and enters a table as
:class:`rich.text.Text` (a plain ``str`` cell would be read as markup).
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from paperdeck.model.counts import counted
from paperdeck.model.safe_text import one_line
from paperdeck.model.venue import Scale, mean_text
from paperdeck.stats.charts import CHARTS, Line, Style, chart_lines, percent, scale_label
from paperdeck.stats.figures import Distribution, Figures, Place, number, per_paper

__all__ = ["CHARTS", "SHORT_LABELS", "STYLES", "chart_content", "chart_table", "styled"]


#: How the screen draws each style of a chart's segments (:data:`paperdeck.stats.charts.Style`).
STYLES: dict[Style, str] = {"": "", "heading": "bold", "note": "italic", "mark": "reverse bold", "strong": "bold"}

Row = tuple[str | Text, ...]


def styled(line: Line) -> Content:
    """A chart's line with its segments styled (:data:`STYLES`)."""
    return Content.assemble(*((text, STYLES[style]) if style else text for text, style in line.segments))


def chart_content(key: str, figures: Figures, place: Place | None, width: int) -> Content:
    """Chart ``key`` (of :data:`CHARTS`) of ``figures``, fitted to ``width`` cells; ``place``: the
    highlighted paper's place (marked on the ratings and acceptance charts), ``None`` for none."""
    return Content("\n").join(styled(line) for line in chart_lines(key, figures, width, place, highlighting=True))


def _rate_cell(rate: float | None) -> str:
    return "" if rate is None else percent(rate, 1)


def _distribution_rows(figure: Distribution, what: str) -> list[Row]:
    return [(what, number(value), f"{count:,}") for value, count in figure.counts]


#: The tables' shorter column labels, for a terminal too narrow for the area names beside the long
#: ones (the chart of the areas says ``acc.`` too).
SHORT_LABELS = {"accepted": "acc.", "rejected": "rej.", "workshop": "wksp.", "under review": "pending",
                "withdrawn": "withdr.", "dismissed": "dism."}  # fmt: skip


def chart_table(key: str, figures: Figures) -> tuple[tuple[str, ...], list[Row]]:
    """The numbers of chart ``key``: column labels and rows (area names as :class:`Text`)."""
    if key == "ratings":
        rows: list[Row] = [("mean rating", b.label, f"{b.count:,}") for b in figures.mean_ratings]
        rows += _distribution_rows(figures.review_ratings, "review rating")
        rows += [("mean of papers' means", "", mean_text(figures.mean_of_means)),
                 ("mean of every review", "", mean_text(figures.review_ratings.mean))]  # fmt: skip
        return ("figure", "value", "papers / reviews"), rows
    if key == "areas":
        workshop = any(a.workshop for a in figures.by_area)  # a column of its own when some paper has it
        return ("area", "papers", "accepted", "rejected", *(("workshop",) if workshop else ()), "under review",
                "withdrawn", "rate"), [
            (Text(one_line(a.area)), f"{a.papers:,}", f"{a.accepted:,}", f"{a.rejected:,}",
             *((f"{a.workshop:,}",) if workshop else ()), f"{a.pending:,}", f"{a.withdrawn:,}", _rate_cell(a.rate))
            for a in figures.by_area
        ]  # fmt: skip
    if key == "acceptance":
        return ("mean rating", "decided", "accepted", "undecided", "rate"), [
            (b.label, f"{b.decided:,}", f"{b.accepted:,}", f"{b.undecided:,}", _rate_cell(b.rate))
            for b in figures.acceptance_by_rating
        ]
    if key == "reviews":
        rows = _distribution_rows(figures.reviews_per_paper, "reviews per paper")
        rows += _distribution_rows(figures.confidence, "confidence")
        return ("figure", "value", "papers / reviews"), rows
    if key == "moves":
        moves = figures.moves
        if moves.reviews and not moves.reviews_moved:  # final ratings only: no history to count moves in
            return ("figure", "value", "papers / reviews"), [
                ("rating history", "none", f"{counted(moves.reviews, 'review')}, final ratings only")
            ]
        rows = [("reviews", "", f"{moves.reviews:,}"), ("reviews moved", "", f"{moves.reviews_moved:,}"),
                ("reviews up", "", f"{moves.reviews_up:,}"), ("reviews down", "", f"{moves.reviews_down:,}"),
                ("papers rated", "", f"{moves.papers:,}"), ("papers up", "", f"{moves.papers_up:,}"),
                ("papers down", "", f"{moves.papers_down:,}"),
                ("papers with a review moved", "", f"{moves.papers_review_moved:,}")]  # fmt: skip
        rows += _distribution_rows(moves.first_ratings, "first rating")
        rows += _distribution_rows(figures.review_ratings, "rating now")
        rows += _distribution_rows(moves.review_steps, "review moved by")
        rows += _distribution_rows(moves.paper_steps, "mean moved by")
        rows += [(f"accepted, mean {d.direction}", f"{d.accepted:,} of {d.decided:,} decided", _rate_cell(d.rate))
                 for d in moves.by_direction]  # fmt: skip
        rows += [(Text(one_line(a.area)), f"↑ {a.up:,} ↓ {a.down:,}", f"{a.papers:,} rated") for a in moves.by_area]
        return ("figure", "value", "papers / reviews"), rows
    if key == "venues":
        return ("venue", "scale", "papers", "rated", "mean", "acc.", "rev/paper"), [
            (Text(one_line(v.name)), scale_label(v).replace("unknown", "—"), f"{v.figures.papers:,}",
             f"{v.figures.reviewed:,}", mean_text(v.figures.mean_of_means, Scale.parse(v.scale)),
             _rate_cell(v.acceptance_rate), per_paper(v.reviews_per_paper))
            for v in figures.venues
        ]  # fmt: skip
    groups = [figures.progress, *figures.progress_by_area]
    statuses = tuple(status for status, _ in figures.progress.statuses)
    return ("area", "papers", *statuses, "starred"), [
        (Text(one_line(g.label)), f"{g.papers:,}", *(f"{g.count(s):,}" for s in statuses), f"{g.starred:,}")
        for g in groups
    ]
