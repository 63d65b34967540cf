"""A paper row's columns and cells: which columns a width shows, each cell's text, and a row of
one-cell characters drawn straight into segments.

What the list pane (:class:`~paperdeck.ui.widgets.paper_list.PaperList`) draws in each row, apart
from the widget: the row's markers, the columns a row ``width`` cells wide has room for
(:func:`column_layout`), the rating, spread and move cells, a text fitted to its cells, and the
segments Rich's ``Text`` would render for a row, built directly (:func:`plain_row`), from the
ready styles of the row's look (:class:`RowStyles`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from paperdeck.model.venue import Scale, mean_text
from paperdeck.ui.widgets.contrast import legible
from paperdeck.values import TupleValue

STAR, NO_STAR, NOTE, NO_NOTE, MARK = "★", " ", "✎", " ", "▌"
#: The mark of a paper a follow of the user's matches (in the cell after the note mark).
FOLLOWED = "◆"
#: In the follow mark's cell (on a followed paper: after ``◆``, in the cell after the decision badge
#: when the badges are shown): an import changed the paper since the user last opened it.
CHANGED = "•"
#: Reading-status markers (one cell).
STATUS_MARKS = {"unseen": " ", "skimmed": "~", "to-read": "»", "read": "✓", "dismissed": "✗"}

#: Cells of the row's markers (mark, status, star, note) with the cell after them (a space, the
#: changed mark, or else the follow mark).
MARKS_CELLS = 5
#: Cells of the decision badge with the space after it.
BADGE_CELLS = 5
#: Cells of the rating column (right-aligned, as :func:`~paperdeck.model.venue.mean_text`
#: writes a mean): its widest value (a moved ``"4.5↑"``) with a space before it, so it never runs
#: into the title; where the list shows each rating with its scale's top, ``SCALED_RATING_CELLS``
#: (``"6.5/10"``, a moved ``"6.5/10↑"``, with the space).
RATING_CELLS, SCALED_RATING_CELLS = 7, 8
#: The least width (cells) of the rows that shows the primary area, and that column's widest.
AREA_FROM, AREA_MAX = 90, 32
#: Cells of the rating's spread after the mean (`` ↕4 ``: max − min rating), and the fewest
#: cells the title keeps with it shown.
SPREAD_CELLS, SPREAD_TITLE_MIN = 4, 40
#: The mark before the spread.
SPREAD = "↕"
#: Cells of the first mean before a moved rating (``"  5.3 "`` then the rating column's
#: ``"   6.0↑"``: right-aligned under its heading ``first``), where the title keeps
#: ``SPREAD_TITLE_MIN`` with them; narrower rows show only the mean now with its arrow (``6.0↑``).
MOVE_CELLS = 6
#: The marks of a mean rating that rose, fell during the discussion.
ROSE, FELL = "↑", "↓"
#: The fewest cells a title keeps: the rating, then the badge, give theirs up first.
TITLE_MIN = 16
#: Cells of the venue column (``"NeurIPS 2018"``), and the least width of the rows that shows it.
VENUE_CELLS, VENUE_FROM = 12, 60


class ColumnLayout(TupleValue):
    """Which columns a row shows at a width: the badge, the area (its cells, 0: none), the
    rating (in ``rating_cells``), and the rating's spread after it; the title takes the rest
    (``title`` cells, tags after it). A tuple, as the named tuple it was
    (:class:`~paperdeck.values.TupleValue`: made before the first paint)."""

    __slots__ = ()
    FIELDS = ("badge", "area", "rating", "title", "spread", "moves", "venue", "rating_cells")

    def __new__(
        cls,
        badge: bool,
        area: int,
        rating: bool,
        title: int,
        spread: bool = False,
        moves: bool = False,
        venue: int = 0,
        rating_cells: int = RATING_CELLS,
    ) -> ColumnLayout:
        return tuple.__new__(cls, (badge, area, rating, title, spread, moves, venue, rating_cells))

    @property
    def badge(self) -> bool:
        """Whether the decision's badge is shown."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def area(self) -> int:
        """The area's cells (0: no area column)."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def rating(self) -> bool:
        """Whether the rating is shown."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def title(self) -> int:
        """The title's cells (tags after it)."""
        return self[3]  # type: ignore[no-any-return]

    @property
    def spread(self) -> bool:
        """Whether the rating's spread is shown after it."""
        return self[4]  # type: ignore[no-any-return]

    @property
    def moves(self) -> bool:
        """Whether a moved rating's first mean is shown (the wide layout)."""
        return self[5]  # type: ignore[no-any-return]

    @property
    def venue(self) -> int:
        """The venue's cells (0: no venue column)."""
        return self[6]  # type: ignore[no-any-return]

    @property
    def rating_cells(self) -> int:
        """The rating column's cells."""
        return self[7]  # type: ignore[no-any-return]


def _first_cell(first: float | None, wide: bool) -> str:
    """The first mean before a moved rating in the wide layout (``"  5.3 "``, ``MOVE_CELLS``
    cells, its end a cell before the column's as its heading's), blank when it did not move;
    ``""`` in the narrow layout."""
    if not wide:
        return ""
    return f"{mean_text(first):>{MOVE_CELLS - 1}} " if first is not None else " " * MOVE_CELLS


def rating_cell(
    value: float | None, first: float | None, wide: bool, scale: Scale | None = None, cells: int = RATING_CELLS
) -> str:
    """The rating column of a row, ``cells`` wide: the mean as
    :func:`~paperdeck.model.venue.mean_text` writes it (``"    6.0"``; with ``scale``, in a view
    of several scales, its top too: ``"  6.5/10"``; ``–`` when unrated), followed by ``↑``/``↓``
    when it moved from ``first`` (the mean of each review's first rating; ``None``: it did not
    move): ``"   6.0↑"``, the mean now first so the arrow does not read as a change; with ``wide``
    (the layout's ``moves``) the first mean before it in ``MOVE_CELLS`` more: ``"  5.3    6.0↑"``.
    A moved rating keeps its scale as the others do (``" 4.0/10↑"``).

    The column's last cell is the arrow's, blank when the rating did not move (``"   6.0 "``), so
    that every mean ends in one column, moved or not (a moved ``5.0/10↑`` stood a cell left of
    `` 3.3/10``). A value wider than the column keeps its end."""
    if value is None:
        return _first_cell(None, wide) + "–".rjust(cells - 1) + " "
    shown = mean_text(value, scale)
    if first is None or first == value:
        return _first_cell(None, wide) + (shown.rjust(cells - 1) + " ")[-cells:]
    arrow = ROSE if value > first else FELL
    return _first_cell(first, wide) + (shown.rjust(cells - 1) + arrow)[-cells:]


def column_layout(
    width: int,
    decisions: bool,
    ratings: bool,
    areas: bool,
    venues: bool = False,
    moves: bool = False,
    scaled: bool = False,
) -> ColumnLayout:
    """The columns of a row ``width`` cells wide for a store whose papers have ``decisions``,
    ``ratings``, ``areas``, in a view that mixes ``venues``: the venue (``VENUE_CELLS``) only from
    ``VENUE_FROM`` cells, the area only from ``AREA_FROM`` cells (a fifth of the width, at
    most ``AREA_MAX``), and the rating then the badge dropped where the title would get fewer
    than ``TITLE_MIN`` cells; the rating's spread where the title keeps ``SPREAD_TITLE_MIN``; with
    ``moves`` (some paper's mean moved), the first mean before the rating where the title keeps
    ``SPREAD_TITLE_MIN`` after the spread and it (``MOVE_CELLS``). The rating takes
    ``SCALED_RATING_CELLS`` where it shows its scale (``scaled``), else ``RATING_CELLS``."""
    area = min(AREA_MAX, width // 5) if areas and width >= AREA_FROM else 0
    venue = VENUE_CELLS if venues and width >= VENUE_FROM else 0
    badge, rating = decisions, ratings
    cells = SCALED_RATING_CELLS if scaled else RATING_CELLS

    def title() -> int:
        return (
            width - MARKS_CELLS - BADGE_CELLS * badge - (area + 2 if area else 0) - cells * rating
            - (venue + 2 if venue else 0)
        )  # fmt: skip

    if title() < TITLE_MIN:
        rating = False
    if title() < TITLE_MIN:
        badge = False
    spread = rating and title() - SPREAD_CELLS >= SPREAD_TITLE_MIN
    moved = spread and moves and title() - SPREAD_CELLS - MOVE_CELLS >= SPREAD_TITLE_MIN
    # A rating without its spread ends the row: a blank cell after it, so that a moved one's
    # arrow does not touch the scroll bar (the spread's own cells end with one).
    left = title() - SPREAD_CELLS * spread - MOVE_CELLS * moved - (rating and not spread)
    return ColumnLayout(badge, area, rating, max(0, left), spread, moved, venue, cells)


def spread_cell(spread: float | None) -> str:
    """The spread after a rating, ``SPREAD_CELLS`` cells: ``" ↕4 "``, ``" ↕10"``, ``" ↕1.5"`` cut to
    ``" ↕2 "`` (whole numbers where the cells run out, at most 99); blank when unknown."""
    if spread is None or spread != spread or spread < 0:
        return " " * SPREAD_CELLS
    digits = SPREAD_CELLS - 2
    text = f"{spread:g}"
    if len(text) > digits:
        text = f"{min(spread, 10**digits - 1):.0f}"
    return f" {SPREAD}{text:<{digits}}"


def fit(text: str, cells: int) -> str:
    """``text`` cut (with an ellipsis) or padded to exactly ``cells`` cells."""
    if text.isascii() and text.isprintable():
        return text[: cells - 1] + "…" if len(text) > cells else text.ljust(cells)
    fitted = Text(text, no_wrap=True, end="")
    fitted.truncate(cells, overflow="ellipsis", pad=True)
    return fitted.plain


#: The fewest cells of the title a row keeps before its tags are shortened to the first
#: (``#week2 +2``); a title shorter keeps all of its own.
TAGS_TITLE_MIN = 24


def cut(text: str, cells: int) -> str:
    """``text`` cut to at most ``cells`` cells, an ellipsis ending it where it was cut (no padding)."""
    if cell_len(text) <= cells:
        return text
    if cells <= 0:
        return ""
    shown = Text(text, no_wrap=True, end="")
    shown.truncate(cells, overflow="ellipsis")
    return shown.plain


def title_and_tags(title: str, tags: Sequence[str], cells: int) -> tuple[str, str]:
    """The title and the ``#tags`` after it (``"  #a #b"``, ``""`` without tags) in the ``cells``
    a row has for both (:attr:`ColumnLayout.title`): the title gives way to the tags, cut to keep
    every tag where the title keeps ``TAGS_TITLE_MIN`` cells (or all of its own), else the first
    tag and how many more (``"  #week2 +2"``), that tag cut where even it does not fit. The
    title then takes what is left, cut with an ellipsis. ``tags`` are one-line texts already."""
    if not tags:
        return title, ""
    keep = min(cell_len(title), TAGS_TITLE_MIN, max(0, cells // 2))
    room = cells - keep  # for the tags with their two spaces
    shown = "  " + " ".join(f"#{tag}" for tag in tags)
    if cell_len(title) + cell_len(shown) <= cells or cell_len(shown) <= room:
        return cut(title, cells - cell_len(shown)), shown
    more = f" +{len(tags) - 1}" if len(tags) > 1 else ""
    first = cut(f"#{tags[0]}", room - 2 - len(more))
    if len(first) < 2:  # not even a letter of the tag: the title keeps the row
        return title, ""
    shown = f"  {first}{more}"
    return cut(title, cells - cell_len(shown)), shown


#: Characters one cell wide besides printable ASCII: the row's markers, the no-rating dash, the
#: spread's arrow and the moves'.
_ONE_CELL = frozenset(
    STAR + NOTE + MARK + FOLLOWED + CHANGED + "".join(STATUS_MARKS.values()) + "–" + SPREAD + ROSE + FELL
)


def _one_cell(char: str) -> bool:
    """Whether ``char`` is printable ASCII or one of :data:`_ONE_CELL`."""
    return char in _ONE_CELL or (char.isascii() and char.isprintable())


class RowStyles:
    """The ready styles of one look of a row (the list's plain rows, or its highlighted row, in
    one theme and focus): the row's own style, its colour made readable (:func:`legible`), and each
    component's partial style laid over it, its colour made readable on the row's background.

    Made once per look, each component's laid style at its first ask: a row is then drawn from
    ready styles, with no style combined, made readable or hashed per part. ``number`` tells
    looks apart in the keys of the rows drawn (an int, cheap to hash); it is unique per object.
    """

    __slots__ = ("_laid", "_partials", "number", "row")

    def __init__(self, number: int, row: Style, partials: Mapping[str, Style]) -> None:
        own = legible(None, row)
        #: The row's own style: its text's colour readable on its background.
        self.row = row + own if own is not None else row
        self.number = number
        #: The components' partial styles (by class name), as the widget's styles give them.
        self._partials = partials
        self._laid: dict[tuple[str, ...], Style | None] = {}

    def laid(self, *names: str) -> Style | None:
        """The style of a part styled by the components ``names`` (their partial styles added in
        order) on this row: the row's style with theirs laid over it, the colour readable; ``None``
        where they add nothing (the part is drawn in the row's own style, as its text around it)."""
        try:
            return self._laid[names]
        except KeyError:
            part = self._partials[names[0]]
            for name in names[1:]:
                part = part + self._partials[name]
            fixed = legible(part, self.row)
            laid = self._laid[names] = self.row + fixed if fixed else None
            return laid


def plain_row(
    parts: list[tuple[str, Style | None]],
    right: list[tuple[str, Style | None]],
    width: int,
    style: Style,
    *,
    laid: bool = False,
) -> list[Segment] | None:
    """The segments Rich's ``Text`` renders for a row (each part appended with its style, cut to
    the width less the ``right`` columns' with an ellipsis and padded, then the ``right`` parts,
    all cut to the width, the row style under all), built directly rather than through ``Text``,
    which is the costly part of drawing a row. ``laid``: each part's style is the row's with the
    part's laid over it already (:meth:`RowStyles.laid`), used as it is rather than added to
    ``style`` (the same segments, no style combined per part).

    Only for rows whose every character is one cell and no control code (printable ASCII, the
    row's markers, a rating's spread ``↕``), else ``None``: then a cut at a cell is a cut at a
    character.
    """
    if width < 8 or not style:
        return None
    for content, _ in [*parts, *right]:
        text = content.rstrip("…")  # a column's text cut by ``fit``
        if not (text.isascii() and text.isprintable()) and not all(map(_one_cell, text)):
            return None
    plain, spans = _appended(parts)
    if right:
        plain, spans = _cut(plain, spans, max(1, width - sum(len(content) for content, _ in right)))
        more, more_spans = _appended(right, len(plain))
        plain, spans = plain + more, spans + more_spans
    plain, spans = _cut(plain, spans, width)
    segments: list[Segment] = []
    at = 0
    for start, end, span_style in spans:  # in order, never overlapping
        if start > at:
            segments.append(Segment(plain[at:start], style))
        segments.append(Segment(plain[start:end], span_style if laid else style + span_style))
        at = end
    if at < len(plain):
        segments.append(Segment(plain[at:], style))
    return segments


def _appended(parts: list[tuple[str, Style | None]], offset: int = 0) -> tuple[str, list[tuple[int, int, Style]]]:
    """The text of ``parts`` and the spans of those with a style (``Text.append``)."""
    spans: list[tuple[int, int, Style]] = []
    at = offset
    for content, content_style in parts:
        if content and content_style:
            spans.append((at, at + len(content), content_style))
        at += len(content)
    return "".join(content for content, _ in parts), spans


def _cut(plain: str, spans: list[tuple[int, int, Style]], size: int) -> tuple[str, list[tuple[int, int, Style]]]:
    """``Text.truncate(size, overflow="ellipsis", pad=True)`` for text of one-cell characters."""
    if len(plain) > size:
        plain = plain[: size - 1] + "…"
        return plain, [(start, min(end, size), span_style) for start, end, span_style in spans if start < size]
    return plain + " " * (size - len(plain)), spans
