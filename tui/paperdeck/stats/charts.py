"""The statistics charts, each computed and laid out once, free of any UI: :data:`CHARTS` holds one
row per chart (its key, its title, the function that lays it out), and a chart is a list of
:class:`Line` — plain text in segments, each segment naming its style (``"heading"``, ``"note"``,
``"mark"``, ``"strong"``, or ``""``: none). The statistics screen styles the segments
(:mod:`paperdeck.ui.widgets.stats_charts`); ``paperdeck stats`` prints their text.

Bars are Unicode blocks (:mod:`paperdeck.stats.bars`): characters, never colours. Area names are
data: every one goes through :func:`paperdeck.model.safe_text.one_line`. Rates read as whole
percents (``"42%"``), ``"—"`` when unknown (:func:`percent`; a table of the numbers gives one decimal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from paperdeck.model.counts import counted
from paperdeck.model.safe_text import one_line
from paperdeck.model.venue import NO_RATINGS, NO_VENUE, mean_text
from paperdeck.stats.bars import SHADES, bar, stacked_bar
from paperdeck.stats.figures import NO_AREA, Bucket, Distribution, Figures, Place, VenueFigures, number, per_paper

__all__ = ["CHARTS", "PROGRESS_PARTS", "Chart", "Line", "Style", "chart_lines", "ordinal", "percent", "scale_label"]

#: What a segment of a line is: a heading, a note (read as an aside), the highlighted paper's
#: mark, a figure that stands out, or plain text (``""``).
Style = Literal["", "heading", "note", "mark", "strong"]

#: The statuses a progress bar stacks, in the order of :data:`~paperdeck.stats.bars.SHADES`;
#: unseen is the rest.
PROGRESS_PARTS = ("read", "skimmed", "to-read", "dismissed")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a chart: ``(text, style)`` segments, in order (none: an empty line)."""

    segments: tuple[tuple[str, Style], ...] = ()

    @property
    def text(self) -> str:
        """The line's text, unstyled."""
        return "".join(text for text, _ in self.segments)


#: Lays a chart out: ``(figures, width, place, highlighting, bars)`` → its lines (see :func:`chart_lines`).
LayOut = Callable[[Figures, int, Place | None, bool, bool], list[Line]]


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart: its ``key`` (stable), its ``title`` (a tab of the screen) and its layout."""

    key: str
    title: str
    lay_out: LayOut


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``, ``100th``."""
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def percent(rate: float | None, places: int = 0) -> str:
    """A rate (0–1) as a percent, whole (``"42%"``) or to ``places`` decimals (a table's
    ``"41.7%"``); ``"—"`` for ``None``."""
    return "—" if rate is None else f"{100 * rate:.{places}f}%"


def _cut(text: str, cells: int) -> str:
    text = one_line(text)
    return text if len(text) <= cells else text[: max(cells - 1, 0)] + "…"


def _clip(text: str, cells: int) -> str:
    """``text``, already shown safe (its parts through :func:`_cut`), cut to ``cells`` as
    :func:`_cut` cuts, its spacing kept (a strip's blank cells are columns)."""
    return text if len(text) <= cells else text[: max(cells - 1, 0)] + "…"


def _plain(text: str) -> Line:
    return Line(((text, ""),))


def _line(*parts: str | tuple[str, Style]) -> Line:
    return Line(tuple((part, "") if isinstance(part, str) else part for part in parts))


def _heading(text: str) -> Line:
    return Line(((text, "heading"),))


def _marked(label: str, rest: str, marked: bool) -> Line:
    """A chart line: its label marked and a ``◀`` at its end when ``marked`` (the highlighted
    paper's bucket)."""
    if not marked:
        return _plain(label + rest)
    return _line((label, "mark"), rest, (" ◀", "strong"))


def _room(width: int, used: int, bars: bool) -> int:
    """Cells for a bar on a line of ``width`` cells after ``used`` (0: no bars are drawn)."""
    return max(width - used, 4) if bars else 0


def _distribution(
    title: str, figure: Distribution, what: str, width: int, bars: bool, ratings: bool = False
) -> list[Line]:
    """A histogram under its heading, which gives its mean: a mean rating as every mean rating is
    written (:func:`~paperdeck.model.venue.mean_text`) when the values are ``ratings``."""
    mean = mean_text(figure.mean) if ratings else number(figure.mean)
    lines = [_heading(f"{title} · {counted(figure.total, what)} · mean {mean}")]
    if not figure.counts:
        return [*lines, _plain("  none")]
    largest = max(count for _, count in figure.counts)
    room = _room(width, 17, bars)
    for value, count in figure.counts:
        lines.append(_plain(f"{number(value):>5} │{bar(count, largest, room).ljust(room)} {count:>8,}"))
    return lines


def _per_venue(
    chart: Callable[[Figures, int, Place | None, bool, bool], list[Line]],
    figures: Figures,
    width: int,
    bars: bool,
    place: Place | None = None,
    highlighting: bool = False,
) -> list[Line] | None:
    """``chart`` drawn for each rated venue apart, each under its name and scale, when the figures
    hold more than one (ratings of different scales are never pooled); ``None`` otherwise. The
    highlighted paper's ``place`` (within its venue: :attr:`Place.venue`) is marked in its own
    venue's chart; ``highlighting`` without a place says under the first that it has no rating."""
    venues = figures.rated_venues
    if len(venues) < 2:
        return None
    lines = [_line(("  each venue apart, on its own scale", "note"))]
    for venue in venues:
        own = place if place is not None and place.venue == venue.venue else None
        lines += [Line(), _heading(f"▌ {_venue_title(venue)}"), *chart(venue.figures, width, own, False, bars)]
    if place is None and highlighting:
        lines.append(_plain("  the highlighted paper has no rating"))
    return lines


def scale_label(venue: VenueFigures) -> str:
    """What a venue shows where its scale goes: ``"1–10"``, ``"0, 2, 4, 6, 8, 10"``; ``"no ratings"``
    (:data:`~paperdeck.model.venue.NO_RATINGS`) when none of its papers has a rating, whatever
    scale the venue is known to rate on; ``"unknown"`` for ratings on no known scale."""
    from paperdeck.model.venue import Scale

    if not venue.figures.reviewed:
        return NO_RATINGS
    scale = Scale.parse(venue.scale)
    return scale.label if scale is not None else "unknown"


def _venue_title(venue: VenueFigures) -> str:
    label = scale_label(venue)
    return f"{one_line(venue.name)} · {label if label == NO_RATINGS else f'scale {label}'}"


def _ratings(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    apart = _per_venue(_ratings, figures, width, bars, place, highlighting)
    if apart is not None:
        return apart
    lines = [_heading(f"Papers' mean ratings · {figures.reviewed:,} of {figures.papers:,} rated "
                      f"· mean {mean_text(figures.mean_of_means)}")]  # fmt: skip
    if not figures.reviewed:
        lines.append(_plain("  no paper in the view has a rating"))
    else:
        largest = max(b.count for b in figures.mean_ratings)
        room = _room(width, 19, bars)
        for index, bucket in enumerate(figures.mean_ratings):
            marked = place is not None and place.bucket == index
            drawn = f" │{bar(bucket.count, largest, room).ljust(room)} {bucket.count:>8,}"
            lines.append(_marked(f"{bucket.label:>5}", drawn, marked))
    if place is not None:
        lines.append(
            _line("  this paper ", (mean_text(place.mean), "strong"), f": {_standing(place, figures.reviewed)} ◀")
        )  # fmt: skip
    elif highlighting:
        lines.append(_plain("  the highlighted paper has no rating"))
    return lines + _distribution("Every review's rating", figures.review_ratings, "review", width, bars, True)


def _standing(place: Place, reviewed: int) -> str:
    """Where a paper's mean stands: ``"93rd percentile, top 8% of these 1,234"``; the top share
    rounded up to 1% at the least, the percentile down to 99th unless it is the highest alone
    (``"the highest of these 489"``; ``"the only paper rated"``)."""
    among = _among(place, reviewed)
    as_high = round(place.top * reviewed)  # rated as high or higher, itself included
    if as_high <= 1:
        return f"the only paper {_rated(place)}" if reviewed == 1 else f"the highest of {among}"
    top = max(1, round(place.top * 100))
    return f"{ordinal(min(99, round(place.percentile)))} percentile, top {top}% of {among}"


def _rated(place: Place) -> str:
    """``"rated"``, or ``"rated in COLM 2025"`` within its venue: the only rated paper's place."""
    return "rated" if place.venue is None else f"rated in {one_line(place.venue or NO_VENUE)}"


def _among(place: Place, reviewed: int) -> str:
    """Whom a paper's place is among: ``"these 1,234"``, or ``"the 1,234 rated in COLM 2025"``
    within its venue (a view of several venues)."""
    if place.venue is None:
        return f"these {reviewed:,}"
    return f"the {reviewed:,} rated in {one_line(place.venue or NO_VENUE)}"


def _areas(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    """Decisions by primary area; where the figures mix venues, each venue's areas apart under its
    name, each on its own decisions (an area of one venue is not another's: ICLR 2017's papers
    have none)."""
    if len(figures.venues) > 1:
        lines = [_heading("Decisions by primary area"), _line(("  each venue apart", "note"))]
        for venue in figures.venues:
            lines += [Line(), _heading(f"▌ {one_line(venue.name)}"), *_area_rows(venue.figures, width, bars)]
        return lines
    return [_heading("Decisions by primary area"), *_area_rows(figures, width, bars)]


def _area_rows(figures: Figures, width: int, bars: bool) -> list[Line]:
    """The rates' note and the table of :func:`_areas` for one set of figures."""
    lines = _basis_lines(figures, width)
    longest = max((len(one_line(area.area)) for area in figures.by_area), default=4)
    # Wide screens give the names room to differ (three areas begin "applications to"), narrow
    # ones keep room for the bars.
    cells = max(min(width - 42, 34 if width < 120 else max(34, min(longest, width - 80))), 12)
    # the workshop track's papers (ICLR 2017's), decided but not accepted: a column when some area has them
    workshop = any(area.workshop for area in figures.by_area)
    room = _room(width, cells + 27 + (7 if workshop else 0), bars)
    wksp = f" {'wksp.':>6}" if workshop else ""
    lines.append(_plain(f"{'area':<{cells}} {'papers':>7} {'acc.':>6}{wksp} {'rate':>5} "))
    for area in figures.by_area:
        drawn = bar(area.rate or 0, 1, room) if area.rate is not None else ""
        wksp = f" {area.workshop:>6,}" if workshop else ""
        lines.append(_plain(f"{_cut(area.area, cells):<{cells}} {area.papers:>7,} {area.accepted:>6,}{wksp} "
                            f"{percent(area.rate):>5} {drawn}"))  # fmt: skip
    return lines


def _basis_lines(figures: Figures, width: int) -> list[Line]:
    """How the rates below are taken (:attr:`Figures.basis_note`), as notes fitted to ``width``."""
    import textwrap

    note = figures.basis_note
    return [_line((f"  {part}", "note")) for part in textwrap.wrap(note, max(width - 2, 20))] if note else []


def _left_out_lines(rows: Sequence[tuple[str, tuple[tuple[str, int], ...]]], width: int) -> list[Line]:
    """What an acceptance table does not count, as notes fitted to ``width``: the rated papers of
    its ``rows`` (each row's label, ``""`` for none, and its papers left out by decision) neither decided nor
    undecided, by decision, and when the rows are labelled, how many in each row
    (``not counted: 19 withdrawn (rose 0, fell 4, still 15)``); none when every paper counts."""
    import textwrap

    total: Counter[str] = Counter()
    for _, left_out in rows:
        total.update(dict(left_out))
    if not total:
        return []
    named = ", ".join(f"{count:,} {decision}" for decision, count in sorted(total.items(), key=lambda i: (-i[1], i[0])))
    each = ", ".join(f"{label} {sum(n for _, n in left_out):,}" for label, left_out in rows if label)
    papers = "paper" if sum(total.values()) == 1 else "papers"
    text = f"not counted: {named} {papers}" + (f" ({each})" if each else "") + ", neither decided nor undecided"
    return [_line((f"  {part}", "note")) for part in textwrap.wrap(text, max(width - 2, 20))]


def _acceptance(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    apart = _per_venue(_acceptance, figures, width, bars, place) if figures.decisions_known else None
    if apart is not None:
        return apart
    lines = [_heading("Acceptance rate by mean rating")]
    if not figures.decisions_known:
        return [*lines, _plain("  no decisions: no paper of the view is accepted or rejected")]
    lines += _basis_lines(figures, width)
    lines += _left_out_lines([("", row.left_out) for row in figures.acceptance_by_rating], width)
    room = _room(width, 43, bars)
    lines.append(_plain(f"{'rating':>6} {'decided':>8} {'accepted':>9} {'undecided':>10} {'rate':>5}"))
    for index, bucket in enumerate(figures.acceptance_by_rating):
        drawn = bar(bucket.rate or 0, 1, room) if bucket.rate is not None else ""
        text = (f"{bucket.label:>6} {bucket.decided:>8,} {bucket.accepted:>9,} {bucket.undecided:>10,} "
                f"{percent(bucket.rate):>5} {drawn}")  # fmt: skip
        marked = place is not None and place.bucket == index
        lines.append(_marked(text[:6], text[6:], marked))
    return lines


def _reviews(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    lines = _distribution("Reviews per paper", figures.reviews_per_paper, "rated paper", width, bars)
    confidence = _distribution("Every review's confidence", figures.confidence, "review", width, bars)
    return [*lines, Line(), *confidence]


def _progress(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    progress = figures.progress
    said = " · ".join(f"{status} {count:,}" for status, count in progress.statuses)
    lines = [
        _heading(f"My progress · {counted(progress.papers, 'paper')} · ★ {progress.starred:,} starred"),
        _plain(f"  {said}"),
    ]
    if bars:
        key = "  ".join(f"{shade} {status}" for shade, status in zip(SHADES, PROGRESS_PARTS, strict=True))
        parts = [progress.count(status) for status in PROGRESS_PARTS]
        lines.append(_plain(f"  {key}  (blank: unseen)"))
        lines.append(_plain(f"  {stacked_bar(parts, progress.papers, max(width - 2, 4) - 2)}"))
    lines.append(_heading("By area"))
    cells = max(min(width - 40, 34), 12)
    room = _room(width, cells + 22, bars)
    for group in figures.progress_by_area:
        parts = [group.count(status) for status in PROGRESS_PARTS]
        done = sum(parts)
        drawn = stacked_bar(parts, group.papers, room).ljust(room)
        counts = f"{done:>5,}/{group.papers:<6,} ★{group.starred:<3}"
        lines.append(_plain(f"{_cut(group.label, cells):<{cells}} {drawn} {counts}"))
    return lines


def _moves(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    """How the ratings moved; where the figures mix rated venues, each venue's moves apart under
    its name and scale (:func:`_per_venue`: a first and a current rating, a step, are of a scale)."""
    apart = _per_venue(_moves, figures, width, bars)
    if apart is not None:
        return apart
    moves = figures.moves
    if moves.reviews and not moves.reviews_moved:
        return _no_history(moves.reviews, width)
    lines = [
        _heading(f"Rating moves · {moves.reviews_moved:,} of {counted(moves.reviews, 'review')} moved"),
        _plain(f"  reviews, first to now: ↑ {moves.reviews_up:,} up · ↓ {moves.reviews_down:,} down"),
        _line("  papers' means: ", (f"↑ {moves.papers_up:,} rose", "strong"), " · ",
              (f"↓ {moves.papers_down:,} fell", "strong"), f" of {moves.papers:,}"),
        _plain(f"  {counted(moves.papers_review_moved, 'paper')} with a review that moved"),
    ]  # fmt: skip
    back = moves.reviews_moved - moves.reviews_up - moves.reviews_down
    if back > 0:  # moved, then came back to the first rating: moved, but neither up nor down
        lines.insert(2, _plain(f"  {back:,} moved and came back"))
    if not moves.reviews:
        return [*lines, _plain("  no paper in the view has rated reviews")]
    lines += [Line(), _heading("Each review's rating, first and now")]
    now = dict(figures.review_ratings.counts)
    first = dict(moves.first_ratings.counts)
    values = sorted(set(now) | set(first))
    largest = max([*now.values(), *first.values(), 1])
    room = _room(width, 36, bars) // 2
    lines.append(_plain(f"{'rating':>6} {'first':>8} {'':<{room}} {'now':>8} "))
    for value in values:
        was, is_ = first.get(value, 0), now.get(value, 0)
        lines.append(_plain(f"{number(value):>6} {was:>8,} {bar(was, largest, room).ljust(room)} {is_:>8,} "
                            f"{bar(is_, largest, room)}"))  # fmt: skip
    steps = (("Reviews moved by (now − first)", moves.review_steps, "reviews"),
             ("Means moved by (to ½ point)", moves.paper_steps, "papers"))  # fmt: skip
    for title, figure, what in steps:
        lines += [Line(), *_steps(title, figure, what, width, bars)]
    if moves.by_direction:
        labels = {"up": "rose", "down": "fell", "none": "still"}
        left_out = _left_out_lines([(labels[row.direction], row.left_out) for row in moves.by_direction], width)
        lines += [Line(), _heading("Acceptance by the mean's move"), *_basis_lines(figures, width), *left_out,
                  _plain(f"{'mean':>6} {'decided':>8} {'accepted':>9} {'undecided':>10} {'rate':>5}")]  # fmt: skip
        room = _room(width, 43, bars)
        for row in moves.by_direction:
            label = labels[row.direction]
            drawn = bar(row.rate or 0, 1, room) if row.rate is not None else ""
            lines.append(_plain(f"{label:>6} {row.decided:>8,} {row.accepted:>9,} {row.undecided:>10,} "
                                f"{percent(row.rate):>5} {drawn}"))  # fmt: skip
    lines += [Line(), _heading("By area")]
    cells = max(min(width - 34, 40), 12)
    lines.append(_plain(f"{'area':<{cells}} {'rated':>7} {'↑ rose':>7} {'↓ fell':>7} {'moved':>7}"))
    lines += [
        _plain(f"{_cut(a.area, cells):<{cells}} {a.papers:>7,} {a.up:>7,} {a.down:>7,} {a.papers_review_moved:>7,}")
        for a in moves.by_area
    ]
    return lines


def _steps(title: str, figure: Distribution, what: str, width: int, bars: bool) -> list[Line]:
    """A distribution of signed steps (``+2``, ``-0.5``): as :func:`_distribution`, the sign shown."""
    lines = [_heading(f"{title} · {figure.total:,} {what}")]
    if not figure.counts:
        return [*lines, _plain("  none")]
    largest = max(count for _, count in figure.counts)
    room = _room(width, 17, bars)
    for value, count in figure.counts:
        shown = ("+" if value > 0 else "") + number(value)
        lines.append(_plain(f"{shown:>5} │{bar(count, largest, room).ljust(room)} {count:>8,}"))
    return lines


def _no_history(reviews: int, width: int) -> list[Line]:
    """The moves of rated reviews none of which has an earlier rating: what the source holds is
    each review's final rating only (a Paper Copilot list), not a history to count moves in, so
    no "0 rose · 0 fell" is drawn as if ratings had been watched and stayed."""
    import textwrap

    text = (
        f"No rating history: {'this review has no' if reviews == 1 else f'none of these {reviews:,} reviews has an'} "
        f"earlier rating. {'Its' if reviews == 1 else 'Their'} source holds final "
        "ratings only (a Paper Copilot list does); OpenReview reviews imported with their versions show how "
        "ratings moved."
    )
    parts = textwrap.wrap(text, max(width - 2, 20))
    return [_heading("Rating moves · no rating history"), *(_plain(f"  {part}") for part in parts)]


def _venues(figures: Figures, width: int, place: Place | None, highlighting: bool, bars: bool) -> list[Line]:
    """Venues side by side: papers, rated papers, mean rating on the venue's scale, acceptance
    rate and reviews per paper; then each venue's mean ratings over its own scale, a count per
    rating point (with bars, a strip before them: a cell per point, darker for more papers); then
    each venue's acceptance by area."""
    from paperdeck.model.venue import Scale

    venues = figures.venues
    lines = [_heading(f"Venues · {len(venues):,} · each on its own rating scale")]
    if not venues:
        return [*lines, _plain("  no papers")]
    rows = []
    for venue in venues:
        scale = Scale.parse(venue.scale)
        mean = venue.figures.mean_of_means
        rows.append({
            "scale": scale_label(venue).replace(", ", ",").replace("unknown", "—"),
            "papers": f"{venue.figures.papers:,}",
            "mean": mean_text(mean, scale),
            "acc.": percent(venue.acceptance_rate),
            "rated": f"{venue.figures.reviewed:,}",
            "rev/paper": per_paper(venue.reviews_per_paper),
        })  # fmt: skip
    # (label, cells) of the columns after the venue's, each as wide as its label and values (up to
    # its most), two cells apart; the last ones dropped on a narrow screen
    most = [("scale", 16), ("papers", 7), ("mean", 8), ("acc.", 5), ("rated", 6), ("rev/paper", 9)]
    columns = [(label, min(c, max(len(label), *(len(row[label]) for row in rows)))) for label, c in most]
    while len(columns) > 3 and 8 + sum(c + 2 for _, c in columns) > width:
        columns.pop()
    used = sum(c + 2 for _, c in columns)
    cells = max(min(max(len(one_line(v.name)) for v in venues), 24, width - used), 8)
    lines.append(_plain(f"{'venue':<{cells}}" + "".join(f"  {label:>{c}}" for label, c in columns)))
    for venue, values in zip(venues, rows, strict=True):
        lines.append(_plain(f"{_cut(venue.name, cells):<{cells}}"
                            + "".join(f"  {_cut(values[label], c):>{c}}" for label, c in columns)))  # fmt: skip
    lines += _rate_notes(venues, width)
    rated = figures.rated_venues
    if rated:
        lines += [Line(), _heading("Mean ratings side by side, low to high")]
        low = min(v.figures.mean_ratings[0].low for v in rated)
        high = max(v.figures.mean_ratings[-1].high for v in rated)
        if bars:
            lines.append(_line((_clip(f"{'':<{cells}} {_strip_axis(low, high)}  {_STRIP_KEY}", width), "note")))
        for venue in rated:
            buckets = venue.figures.mean_ratings
            counts = f"{buckets[0].low}–{buckets[-1].high}: " + " ".join(f"{b.count:,}" for b in buckets)
            line = f"{_cut(venue.name, cells):<{cells}} {_strip(buckets, low, high) + ' ' if bars else ''}{counts}"
            lines.append(_plain(_clip(line, width) if bars else line))
    with_areas = [v for v in venues if v.figures.decisions_known and any(a.area != NO_AREA for a in v.figures.by_area)]
    for venue in with_areas:
        lines += [Line(), _heading(f"{one_line(venue.name)} · acceptance by area")]
        area_cells = max(min(width - 30, 40), 12)
        for area in venue.figures.by_area[:12]:
            lines.append(_plain(f"  {_cut(area.area, area_cells):<{area_cells}} {area.papers:>6,} "
                                f"{percent(area.rate):>5}"))  # fmt: skip
    return lines


#: What the venues table says of the venues whose rate is not taken on their decided papers alone.
_RATE_NOTES = {
    "accepted list": "acc. counts papers without a decision as not accepted (only accepted papers have one)",
    "accepted only": "acc. — : only accepted papers listed",
    "none": "acc. — : no decisions",
}


def _rate_notes(venues: tuple[VenueFigures, ...], width: int) -> list[Line]:
    """A note for each basis but ``"decided"`` some venue's rate is on, naming those venues."""
    import textwrap

    lines = []
    for basis, note in _RATE_NOTES.items():
        names = [one_line(v.name) for v in venues if v.figures.basis == basis]
        if names:
            text = f"{note}: {', '.join(names)}"
            lines += [_line((f"  {part}", "note")) for part in textwrap.wrap(text, max(width - 2, 20))]
    return lines


#: A strip's cell for none to the most papers (a dot, then the bars' shades, lightest first).
_STRIP = ("·", *reversed(SHADES))
#: What the strips' cells say, after their axis.
_STRIP_KEY = "a cell per rating point; · none, darker more"


def _strip(buckets: tuple[Bucket, ...], low: int, high: int) -> str:
    """A venue's mean ratings as a strip on the axis ``low``–``high`` shared by the venues side by
    side: a cell per rating point, so that a column is the same ratings in every venue's strip;
    the venue's whole scale drawn (a point without papers a dot), the points outside it blank.
    The darkest cell is the venue's most papers."""
    largest = max(b.count for b in buckets)
    shades = len(_STRIP) - 1
    cells = "".join(_STRIP[min(shades, -(-shades * b.count // largest))] for b in buckets)
    return " " * (buckets[0].low - low) + cells + " " * (high - buckets[-1].high)


def _strip_axis(low: int, high: int) -> str:
    """The strips' axis, as wide as a strip (:func:`_strip`): ``low`` at its left and ``high`` at
    its right (``0       10``); ``low–high`` when the strip is too narrow for both apart."""
    left, right = str(low), str(high)
    cells = high - low
    if len(left) + len(right) < cells:
        return left + " " * (cells - len(left) - len(right)) + right
    return f"{left}–{right}".ljust(cells)


#: The charts, in the order the screen's ``n`` / ``p`` (or ``→`` / ``←``) go through them and
#: ``paperdeck stats`` prints them.
CHARTS: tuple[Chart, ...] = (
    Chart("ratings", "Ratings", _ratings),
    Chart("areas", "Areas", _areas),
    Chart("acceptance", "Acceptance", _acceptance),
    Chart("reviews", "Reviews", _reviews),
    Chart("moves", "Rating moves", _moves),
    Chart("progress", "My progress", _progress),
    Chart("venues", "Venues", _venues),
)
_BY_KEY = {chart.key: chart for chart in CHARTS}


def chart_lines(
    key: str, figures: Figures, width: int, place: Place | None = None, highlighting: bool = False, bars: bool = True
) -> list[Line]:
    """Chart ``key`` (of :data:`CHARTS`) of ``figures``, laid out for ``width`` cells.

    Args:
        key: the chart's key.
        figures: what it draws.
        width: the cells a line may take (bars are fitted to what is left of them).
        place: the highlighted paper's place, marked on the ratings and acceptance charts.
        highlighting: whether a paper may be highlighted (the screen): without one (``place`` is
            ``None``), the ratings chart says the highlighted paper has no rating.
        bars: draw the bars (``False``: the same lines without them, nor their key).

    Raises:
        KeyError: no chart has ``key``.
    """
    return _BY_KEY[key].lay_out(figures, width, place, highlighting, bars)
