"""The list pane: a virtual list that renders only the rows on screen.

A Line-API ``ScrollView`` (Textualize/toolong's log view is the model): swapping 20,000 rows for
2,000 is far cheaper than through an ``OptionList`` (see the README's Performance section). The
rest of the app sees only :class:`PaperList.Highlighted` and the ``show`` / ``refresh_paper`` calls.

A keystroke in the filter bar re-ranks the list, so a repaint must be cheap: ``show`` and a cursor
move repaint only the lines whose paper (or cursor) changed, and a row is drawn straight into
segments, not through a Rich ``Text``, whenever its text is plain ASCII (:func:`~.row_cells.plain_row`; other
titles take the ``Text`` path, which gives the same segments). How its lines and its scrollbar
get past Textual's per-line styling is :mod:`paperdeck.ui._lines`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from itertools import count
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from paperdeck.model.decision import BADGES
from paperdeck.model.safe_text import one_line
from paperdeck.model.user import UserData
from paperdeck.store.rows import PaperRow
from paperdeck.ui._lines.boxing import RowBoxer, without_truecolor
from paperdeck.ui._lines.component_styles import KeptComponentStyles
from paperdeck.ui._lines.no_layout import set_virtual_size
from paperdeck.ui._lines.scrollbar import vertical_scrollbar_for
from paperdeck.ui.commands import bindings
from paperdeck.ui.widgets.row_cells import (
    CHANGED,
    FOLLOWED,
    MARK,
    MARKS_CELLS,
    MOVE_CELLS,
    NO_NOTE,
    NO_STAR,
    NOTE,
    SPREAD,
    SPREAD_CELLS,
    STAR,
    STATUS_MARKS,
    ColumnLayout,
    RowStyles,
    column_layout,
    fit,
    plain_row,
    rating_cell,
    spread_cell,
    title_and_tags,
)

if TYPE_CHECKING:  # the venues' scales are given by the main screen, once known: the first frame needs none
    from textual.css.styles import RenderStyles

    from paperdeck.model.venue import Scale

#: Laid over every row while the list does not answer the typed query yet (:meth:`PaperList.set_stale`).
_STALE_STYLE = Style(dim=True)

#: The rows' looks made so far (:attr:`RowStyles.number <paperdeck.ui.widgets.row_cells.RowStyles.number>`).
_looks_made = count(1)


def _steady(text: str) -> str:
    """``text`` for the list's fixed columns (:func:`~paperdeck.text.steady_width.steady_width`),
    imported at the first title that is not ASCII (``paperdeck.text`` is not part of a bare
    start)."""
    if text.isascii():
        return text
    from paperdeck.text.steady_width import steady_width

    return steady_width(text)


class PaperList(ScrollView, can_focus=True):
    """A keyboard-driven list of papers, one row each: mark, status, star, note and follow
    markers, title.

    Rows carry the paper id; the highlighted row is reported by :class:`Highlighted`.
    Papers are looked up through ``paper_at`` / ``user_data`` callables, so a view of 20,000 rows
    holds just their ids. ``changed`` gives the ids whose rows show the changed mark; it is asked
    once per frame (not once per row), so it may check a file.
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings("list")  # the moves

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--star",
        "paper-list--note",
        "paper-list--derived",
        "paper-list--empty",
        "paper-list--badge-accepted",
        "paper-list--badge-rejected",
        "paper-list--rating",
        "paper-list--mark",
        "paper-list--status",
        "paper-list--tags",
        "paper-list--area",
        "paper-list--venue",
        "paper-list--match",
        "paper-list--followed",
        "paper-list--changed",
    }

    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)  # watch_cursor repaints
    """Index of the highlighted row in the current view (0 when the view is empty)."""

    class Highlighted(Message):
        """The highlighted paper changed; ``paper_id`` is ``None`` when the view is empty."""

        def __init__(self, paper_id: str | None) -> None:
            super().__init__()
            self.paper_id = paper_id

    def __init__(
        self,
        row_at: Callable[[str], PaperRow | None],
        user_data: Callable[[str], UserData],
        is_marked: Callable[[str], bool] = lambda paper_id: False,
        changed: Callable[[], Container[str]] = frozenset,
        *,
        empty_text: str = "No papers match.",
        headings: bool = False,
        followed: Callable[[str], bool] = lambda paper_id: False,
        moved: Callable[[str], float | None] = lambda paper_id: None,
        venue_at: Callable[[str], str] = lambda paper_id: "",
        row_in: Callable[[str, int], PaperRow | None] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._row_at = row_at
        #: A paper's row given its position in catalogue order too (a ranking's rows past the
        #: first screen read without a map of every id: :meth:`Store.row
        #: <paperdeck.store.store.Store.row>`), used when the view knows positions.
        self._row_in = row_in
        self._user_data = user_data
        self._is_marked = is_marked
        self._followed = followed
        self._changed = changed
        self._moved = moved
        #: Whether some paper's mean rating moved (``moves_changed``): then wide rows show the first mean.
        self._has_moves = False
        self._venue_at = venue_at
        #: Whether papers have decisions, ratings, primary areas (``set_columns``), and whether
        #: the view mixes venues (``set_venue_column``).
        self._columns: tuple[bool, bool, bool, bool] = (False, False, False, False)
        #: Each rated paper's scale, when the store holds papers of several scales (``show_scales``).
        self._all_scales: Mapping[str, Scale] = {}
        #: Whether the view lists papers of several scales (``set_scales_mixed``).
        self._scales_mixed = False
        #: The scales drawn: ``_all_scales`` when the view mixes scales, else none (ratings bare).
        self._scales: Mapping[str, Scale] = {}
        #: The folded query words whose matches titles highlight (``highlight``).
        self._terms: tuple[str, ...] = ()
        self._strips: LRUCache[tuple[object, ...], Strip] = LRUCache(512)
        self._ids: Sequence[str] = ()
        self._row_of: dict[str, int] | None = None
        #: Whether ``row_of`` was asked of this view (the second ask makes ``_row_of``).
        self._row_asked = False
        self._empty_text = self._no_match_text = empty_text
        self._stale = False  # the rows do not answer the typed query yet: dimmed (set_stale)
        #: Whether the top border shows the column headings (``header``).
        self._headings = headings
        self._last_reported: str | None = None
        #: While ``show`` runs: it repaints the lines that changed itself, when it is done.
        self._showing = False
        #: What every line of a frame shares, while one is rendered (the widget's style, once).
        self._frame: _Frame | None = None
        #: The widget's style and its rows' ready styles (plain, highlighted) as the styles last
        #: applied give them, and whether it had the focus then: Textual forgets its own at each
        #: refresh. Reset when the styles are applied again (``notify_style_update``).
        self._styles: tuple[bool, Style, RowStyles, RowStyles] | None = None
        #: The widget's style and its components' partial styles the rows in ``_strips`` were drawn
        #: with (the highlighted row's own aside): the drawn rows are dropped when a look that
        #: differs from it in one of them comes (``_Partials.agrees_with``).
        self._look: _Partials | None = None
        #: The highlighted spans of titles lately shown (``_title_spans``), by title and terms.
        self._spans: LRUCache[tuple[str, tuple[str, ...]], list[tuple[int, int]]] = LRUCache(1024)
        #: The rows' lines, boxed as Textual boxes them (``_boxed_lines``).
        self._rows_boxed = RowBoxer()
        #: The components' styles, made by Textual once per look of the list's place (focused or
        #: not, under the mouse or not, per theme), then kept: a change of focus styles none.
        self.component_styles = KeptComponentStyles(self)
        #: The row look and the ready styles of the plain and the highlighted rows of each look of
        #: the list met: by the components' styles in place and the widget's style.
        self._looks_seen: LRUCache[tuple[object, Style], _Look] = LRUCache(16)
        #: The columns of the rows last drawn (``column_layout``'s arguments and answer).
        self._layout: tuple[tuple[object, ...], ColumnLayout] | None = None

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The vertical scrollbar (created when first needed): one that draws again only when
        its picture changes (``paperdeck.ui._lines.scrollbar.ListScrollBar``)."""
        return vertical_scrollbar_for(self)

    # -- what the screen calls -------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Rows in the current view."""
        return len(self._ids)

    @property
    def highlighted_id(self) -> str | None:
        """Id of the highlighted paper, or ``None`` for an empty view."""
        if 0 <= self.cursor < len(self._ids):
            return self._ids[self.cursor]
        return None

    def show(
        self, paper_ids: Sequence[str], highlight: str | None = None, terms: tuple[str, ...] | None = None
    ) -> None:
        """Replace the view with ``paper_ids``; highlight ``highlight`` if shown, else row 0; and,
        given ``terms``, mark them in titles as :meth:`highlight` does (only the lines that show
        the same row before and after are compared for their marks: the others are drawn again)."""
        before, top = self._line_keys(), int(self.scroll_offset.y)
        marked = self._terms
        if terms is not None:
            self._terms = terms
        self._ids = paper_ids
        self._row_of, self._row_asked = None, False
        size = Size(self.size.width, len(paper_ids))
        if size != self.virtual_size:
            # Not `self.virtual_size = size`: as a reactive it would also repaint every line and
            # lay out the screen. The scrollbar is updated as a layout would.
            set_virtual_size(self, size)
        row = self.row_of(highlight) if highlight is not None else None
        self._showing = True
        try:
            self.cursor = row if row is not None else 0
            if row is None:
                self.scroll_to(y=0, animate=False, immediate=True)
        finally:
            self._showing = False
        if int(self.scroll_offset.y) != top:
            self.refresh()  # scrolled: every line changed
        else:
            self._refresh_lines(before, marked)

    def set_empty_text(self, text: str = "") -> None:
        """What the empty list says: ``text`` (why nothing is listed, where the caller knows it),
        or ``""`` for the list's own (``empty_text``, ``"No papers match."``). Drawn again at once
        while the list is empty; else when it is next empty."""
        text = text or self._no_match_text
        if text != self._empty_text:
            self._empty_text = text
            if not self._ids:
                self.refresh()

    def _line_keys(self) -> list[tuple[str, bool] | None]:
        """What each line on screen shows: (paper id, highlighted), the empty-list text, or nothing."""
        ids, cursor = self._ids, self.cursor
        top = int(self.scroll_offset.y)
        height = max(0, self.scrollable_content_region.height)
        if not ids:
            return [("", False)] + [None] * (height - 1) if height else []
        return [(ids[row], row == cursor) if row < len(ids) else None for row in range(top, top + height)]

    def _refresh_lines(self, before: list[tuple[str, bool] | None], marked: tuple[str, ...]) -> None:
        """Repaint the lines that show something else than ``before`` (user data unchanged), or
        the same paper with other words marked than ``marked`` (the terms ``before`` was drawn with)."""
        after = self._line_keys()
        if len(after) != len(before):
            self.refresh()
            return
        width, terms = self.size.width, self._terms
        changed = [
            Region(0, y, width, 1)
            for y, (old, new) in enumerate(zip(before, after, strict=True))
            if old != new or (terms != marked and new is not None and self._marks_change(new[0], marked, terms))
        ]
        if changed:
            self.refresh(*changed)

    def _marks_change(self, paper_id: str, before: tuple[str, ...], after: tuple[str, ...]) -> bool:
        """Whether the words marked in this paper's title differ between the terms ``before`` and
        ``after`` (``""``: the empty list's line, never marked)."""
        if not paper_id:
            return False
        shown = self._row_at(paper_id)
        title = _steady(one_line(shown.title)) if shown is not None else ""
        return self._title_spans(title, before) != self._title_spans(title, after)

    def set_columns(self, decisions: bool, ratings: bool, areas: bool = False) -> None:
        """Show the decision badge, rating and primary-area columns (only worth their cells when
        papers have them; the area, the rating and the badge also need the width: ``column_layout``)."""
        if (decisions, ratings, areas) != self._columns[:3]:
            self._columns = (decisions, ratings, areas, self._columns[3])
            self.refresh()  # the rows drawn are cached by their columns too
            self._show_headings()

    def moves_changed(self, any_moved: bool) -> None:
        """The ``moved`` callable answers anew (the review summaries were read): draw the rows
        again; ``any_moved``: some paper's mean rating moved, so rows wide enough show its first mean."""
        self._has_moves = any_moved
        self._strips.clear()
        self.refresh()
        self._show_headings()

    def set_venue_column(self, shown: bool) -> None:
        """Show each paper's venue (``venue_at``) in a column: for a view that mixes venues (it
        also needs the width: ``column_layout``)."""
        if shown != self._columns[3]:
            self._columns = (*self._columns[:3], shown)
            self.refresh()
            self._show_headings()

    def show_scales(self, scales: Mapping[str, Scale]) -> None:
        """Each rated paper's scale (by id: :func:`paperdeck.search.venue_ranks.scales_shown`),
        ``{}``: one scale in the store. Shown with each rating (``6.5/10``) while the view mixes
        scales (:meth:`set_scales_mixed`); else every rating is bare."""
        self._all_scales = scales
        self._apply_scales()

    def set_scales_mixed(self, mixed: bool) -> None:
        """Whether the view's venue scope rates on more than one scale (its venues', not its
        rows': filtered or not, the lists of a scope show ratings alike): then each rating shows
        its scale's top (``6.5/10``), else none does."""
        self._scales_mixed = mixed
        self._apply_scales()

    def _apply_scales(self) -> None:
        scales = self._all_scales if self._scales_mixed else {}
        if scales is not self._scales and (scales or self._scales):
            self._scales = scales
            self.refresh()  # the rows drawn are cached with their scale
            self._show_headings()  # the rating column is wider with its scales

    def _show_headings(self) -> None:
        """Put the column headings in the top border (over the columns they name)."""
        if self._headings:
            width = self.scrollable_content_region.width
            # The border draws its title from the 4th cell ("╭─ " before it) to 3 cells before
            # its end: the headings' first 2 cells are left out to sit over their columns.
            title = self.header(width)[2 : width - 1].rstrip() if width > 8 else ""
            if title != self.border_title:
                self.border_title = Content(title)

    def highlight(self, terms: tuple[str, ...]) -> None:
        """Highlight in titles the words these folded query words start
        (:func:`paperdeck.search.highlight.highlight_terms`); ``()``: none."""
        if terms == self._terms:
            return
        before, self._terms = self._terms, terms
        if not self._ids:
            return
        # Only the lines whose marked words change are drawn again (most titles match neither).
        top, width = int(self.scroll_offset.y), self.size.width
        changed = [
            Region(0, y, width, 1)
            for y, row in enumerate(range(top, min(len(self._ids), top + self.scrollable_content_region.height)))
            if self._marks_change(self._ids[row], before, terms)
        ]
        if changed:
            self.refresh(*changed)

    @property
    def columns(self) -> ColumnLayout:
        """The columns the rows show at the list's width now."""
        return column_layout(self.scrollable_content_region.width, *self._columns, scaled=bool(self._scales))

    def row_of(self, paper_id: str) -> int | None:
        """The row showing ``paper_id`` in the current view, or ``None``. The first asked of a
        view is found by a C-level scan of its ids (a view shown to keep one paper highlighted
        asks once); from the second, by a map of every id made then."""
        made = self._row_of
        if made is None:
            if not self._row_asked:
                self._row_asked = True
                return _row_in(self._ids, paper_id)
            made = self._row_of = {pid: row for row, pid in enumerate(self._ids)}
        return made.get(paper_id)

    def refresh_paper(self, paper_id: str) -> None:
        """Repaint the row of ``paper_id`` (after a star or note changed)."""
        row = self.row_of(paper_id)
        if row is not None:
            self.refresh(Region(0, row - int(self.scroll_offset.y), self.size.width, 1))

    # -- cursor ------------------------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._ids) - 1)) if self._ids else 0

    def watch_cursor(self, old: int, new: int) -> None:
        top = int(self.scroll_offset.y)
        self._scroll_cursor_into_view()
        if self._showing:
            pass  # show() repaints what changed
        elif int(self.scroll_offset.y) != top:
            self.refresh()
        else:  # the two rows whose highlight changed
            width = self.size.width
            self.refresh(Region(0, old - top, width, 1), Region(0, new - top, width, 1))
        paper_id = self.highlighted_id
        if paper_id != self._last_reported:
            self._last_reported = paper_id
            self.post_message(self.Highlighted(paper_id))

    def _scroll_cursor_into_view(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = int(self.scroll_offset.y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self._ids) - 1

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 1)

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # inside the border and padding, or None
        if offset is None:
            return
        row = int(self.scroll_offset.y) + offset.y
        if 0 <= row < len(self._ids):
            self.cursor = row

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(event.size.width, len(self._ids))
        self._scroll_cursor_into_view()
        self._show_headings()

    # -- rendering ---------------------------------------------------------------------------

    @property
    def stale(self) -> bool:
        """Whether the rows are dimmed: they do not answer the typed query yet (:meth:`set_stale`)."""
        return self._stale

    def set_stale(self, stale: bool) -> None:
        """Dim every row (``True``) while the list shown does not answer the typed query yet (a
        search pending: the keys acting on rows wait for its results), or show them as usual."""
        if stale != self._stale:
            self._stale = stale
            self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._frame = self._new_frame()
        try:
            lines = self._boxed_lines(crop)
            lines = lines if lines is not None else super().render_lines(crop)
        finally:
            self._frame = None
        if self._stale:
            lines = [line.apply_style(_STALE_STYLE) for line in lines]
        return lines

    def _boxed_lines(self, crop: Region) -> list[Strip] | None:
        """The lines of ``crop`` as Textual draws them, with the rows' lines boxed by us
        (``RowBoxer``): a row shown again, at any place, is the same strip, styled and encoded
        once. ``None`` (Textual draws all) where that does not hold."""
        return self._rows_boxed.lines(self, crop, super().render_lines, self.render_line)

    def render_line(self, y: int) -> Strip:
        frame = self._frame
        if frame is None:
            frame = self._new_frame()
        width, base = frame.width, frame.base
        row = frame.top + y
        if not self._ids:
            if y == 0:
                style = self.get_component_rich_style("paper-list--empty")
                return Strip(Text(f" {self._empty_text}", style=style).render(self.app.console)).crop_extend(
                    0, width, base
                )
            return Strip.blank(width, base)
        if row >= len(self._ids):
            return Strip.blank(width, base)
        return self._render_row(row, width, frame)

    def _new_frame(self) -> _Frame:
        focused = self.has_focus
        if self._styles is None or self._styles[0] != focused:
            base = self.rich_style
            # The components' styles of a look seen before (the list focused or not, per theme)
            # are read again from it: after a change of focus, none is asked of Textual anew.
            seen_key = (self.component_styles.key, base)
            seen = self._looks_seen.get(seen_key)
            if seen is None:
                seen = self._looks_seen[seen_key] = self._new_look(base)
            look, plain, highlighted = seen
            if look is not self._look:
                if self._look is None or not look.agrees_with(self._look):
                    self._strips.clear()
                self._look = look
            self._styles = (focused, base, plain, highlighted)
        _, base, plain, highlighted = self._styles
        return _Frame(
            self.scrollable_content_region.width, int(self.scroll_offset.y), base, self._changed(), plain, highlighted
        )

    def _new_look(self, base: Style) -> _Look:
        """A look of the list (``base``: the widget's style): its components' partial styles
        (each asked of Textual when a row first needs it) and the ready styles of the plain rows
        and of the highlighted one."""
        look = _Partials(base, lambda name: self._component_style(name, True))
        plain = RowStyles(next(_looks_made), base, look)
        cursor = self._component_style("paper-list--cursor", False)
        return look, plain, RowStyles(next(_looks_made), base + cursor, look)

    def _title_spans(self, title: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
        """:func:`paperdeck.search.highlight.title_spans`, remembered for the titles lately shown."""
        key = (title, terms)
        spans = self._spans.get(key)
        if spans is None:
            from paperdeck.search.highlight import title_spans  # deferred: a bare start searches nothing

            spans = self._spans[key] = title_spans(title, terms)
        return spans

    def _component_style(self, name: str, partial: bool) -> Style:
        """A component's style; a partial one (laid over the row's) with its colour as the full
        style resolves it: a partial style leaves a colour with alpha or ``auto`` unresolved
        (``$text-muted`` came out white, as bright as the title it was to recede from)."""
        style = self.get_component_rich_style(name, partial=partial)
        if partial and style.color is not None:
            style += Style(color=self.get_component_rich_style(name, partial=False).color)
        return style

    def get_component_styles(self, *names: str) -> RenderStyles:
        """Textual's, each component styled at its first ask (``KeptComponentStyles.make``)."""
        self.component_styles.make(names)
        return super().get_component_styles(*names)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None  # the drawn rows are dropped at the next frame if they look otherwise now

    def get_line_filters(self) -> Sequence[LineFilter]:
        return without_truecolor(super().get_line_filters())

    def _render_row(self, row: int, width: int, frame: _Frame) -> Strip:
        ids = self._ids
        paper_id = ids[row]
        position = getattr(ids, "position", None)  # a ranking's (IdsAt): the paper's in catalogue order
        if position is None or self._row_in is None:
            shown = self._row_at(paper_id)
        else:
            shown = self._row_in(paper_id, position(row))
        user = self._user_data(paper_id)
        highlighted = row == self.cursor
        looks = frame.highlighted if highlighted else frame.plain
        marks = (self._is_marked(paper_id), self._followed(paper_id), paper_id in frame.changed)
        key = (
            paper_id,
            width,
            # The plain rows' look is the same while ``_look`` is (the rows are dropped when it
            # changes); the highlighted row's differs with the focus too.
            looks.number if highlighted else 0,
            marks,
            user.starred,
            bool(user.note),
            user.status,
            user.tags,
            self._columns,
            self._scales.get(paper_id),
            bool(self._scales),  # the rating column's width
            self._terms,
            shown,
            self._moved(paper_id),
            self._has_moves,
        )
        cached = self._strips.get(key)
        if cached is None:
            cached = self._strips[key] = self._draw_row(row, paper_id, user, width, looks, marks, shown)
        return cached

    def _row_layout(self, width: int) -> ColumnLayout:
        """``column_layout`` of the rows ``width`` cells wide now, worked out once for the rows of a frame."""
        args = (width, self._columns, self._has_moves, bool(self._scales))
        if self._layout is None or self._layout[0] != args:
            layout = column_layout(width, *self._columns, moves=self._has_moves, scaled=bool(self._scales))
            self._layout = (args, layout)
        return self._layout[1]

    def _draw_row(
        self,
        row: int,
        paper_id: str,
        user: UserData,
        width: int,
        looks: RowStyles,
        marks: tuple[bool, bool, bool],
        paper: PaperRow | None,
    ) -> Strip:
        """One row (``paper``: what the list shows of ``paper_id``; ``marks``: whether it is
        marked, followed, changed), drawn in ``looks``, the ready styles of the plain rows or the
        highlighted one (re-ranking mostly shows rows drawn before: they come from a cache).

        Every part's colour is readable on the row's background (``RowStyles``, through
        ``legible``): a theme's colours are chosen for the plain background, the highlighted
        row's is another."""
        part = looks.laid
        style = looks.row
        is_marked, is_followed, is_changed = marks
        layout = self._row_layout(width)
        parts: list[tuple[str, Style | None]] = [
            (MARK if is_marked else " ", part("paper-list--mark")),
            (STATUS_MARKS.get(user.status, " "), part("paper-list--status")),
            (STAR if user.starred else NO_STAR, part("paper-list--star")),
            (NOTE if user.note else NO_NOTE, part("paper-list--note")),
        ]
        followed = (FOLLOWED, part("paper-list--followed")) if is_followed else None
        changed = (CHANGED, part("paper-list--changed")) if is_changed else None
        # A followed paper that changed keeps its ◆; its • comes after it, in the cell after the
        # decision badge when there is one (so the badges stay in their column).
        parts.append(followed or changed or (" ", None))
        after = changed if followed and changed else None
        if after and not layout.badge:
            parts.append(after)
        if layout.badge:
            decision = paper.decision if paper else "unknown"
            rejected = decision in ("reject", "withdrawn", "desk-rejected")
            badge_style = "paper-list--badge-rejected" if rejected else "paper-list--badge-accepted"
            parts += [(BADGES.get(decision, "    "), part(badge_style)), after or (" ", None)]
        # Every cell as Rich counts it, in any terminal: the columns after the title stay put.
        title = _steady(one_line(paper.title if paper else paper_id))
        room = layout.title - (1 if after and not layout.badge else 0)
        title, tags = title_and_tags(title, [_steady(one_line(tag)) for tag in user.tags], room)
        is_derived = paper is not None and paper.title_derived
        derived = part("paper-list--derived") if is_derived else None
        at = 0
        if self._terms:
            match = part("paper-list--derived", "paper-list--match") if is_derived else part("paper-list--match")
            for start, end in self._title_spans(title, self._terms):
                parts += [(title[at:start], derived), (title[start:end], match)]
                at = end
        parts.append((title[at:], derived))
        if tags:  # the title gave way to them (title_and_tags)
            parts.append((tags, part("paper-list--tags")))
        right: list[tuple[str, Style | None]] = []
        if layout.venue:
            venue = _steady(one_line(self._venue_at(paper_id)))
            right += [("  ", None), (fit(venue, layout.venue), part("paper-list--venue"))]
        if layout.area:
            area = _steady(one_line(paper.area)) if paper is not None else ""
            right += [("  ", None), (fit(area, layout.area), part("paper-list--area"))]
        if layout.rating:
            value = paper.rating if paper is not None else None
            scale = self._scales.get(paper_id) if value is not None else None  # several scales: 6.5/10
            moved = self._moved(paper_id) if value is not None else None
            shown = rating_cell(value, moved, layout.moves, scale, layout.rating_cells)
            if layout.spread:
                spread = paper.spread if paper is not None and value is not None else None
                shown += spread_cell(spread)
            else:
                shown += " "  # the row's last cell blank: a moved rating's arrow off the scroll bar
            right.append((shown, part("paper-list--rating")))
        parts = [(content, content_style) for content, content_style in parts if content]
        plain = plain_row(parts, right, width, style, laid=True)
        if plain is not None:
            return Strip(plain, width)  # as wide as the row already
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        for content, content_style in parts:
            text.append(content, content_style)
        if right:
            text.truncate(max(1, width - sum(map(cell_len, (c for c, _ in right)))), overflow="ellipsis", pad=True)
            for content, content_style in right:
                text.append(content, content_style)
        text.truncate(width, overflow="ellipsis", pad=True)
        text.stylize_before(style)
        segments = list(text.render(self.app.console))
        return Strip(Segment.apply_style(segments, post_style=None), width).crop_extend(0, width, style)

    def header(self, width: int) -> str:
        """The column headings over the rows, ``width`` cells (the rows' width) of plain text."""
        layout = column_layout(width, *self._columns, moves=self._has_moves, scaled=bool(self._scales))
        text = " " * MARKS_CELLS + ("Dec. " if layout.badge else "") + "Title"
        # "Rating" ends a cell before the numbers do: the border title the headings are drawn in
        # stops there (``_show_headings``); "first" likewise over the first means.
        venue = "  " + "Venue".ljust(layout.venue) if layout.venue else ""
        right = venue + ("  " + "Area".ljust(layout.area) if layout.area else "")
        right += ("first ".rjust(MOVE_CELLS) if layout.moves else "") + (
            "Rating ".rjust(layout.rating_cells) if layout.rating else ""
        )
        if layout.rating:
            right += f" {SPREAD}".ljust(SPREAD_CELLS) if layout.spread else " "
        return (text.ljust(width - len(right)) + right)[:width]


class _Partials(dict[str, Style]):
    """The partial styles of the list's components in one look of it (``base``: the widget's
    style), each asked of the widget (``component``) at its first use: while the look is the one in
    place, as rows are drawn. A frame's rows need half the components or fewer (no venue column,
    no match…): Textual works out each one's style on its own, dearly."""

    def __init__(self, base: Style, component: Callable[[str], Style]) -> None:
        super().__init__()
        self.base = base
        self._component = component

    def __missing__(self, name: str) -> Style:
        style = self[name] = self._component(name)
        return style

    def agrees_with(self, other: _Partials) -> bool:
        """Whether rows drawn in ``other`` look the same in this look (the one in place: the
        components ``other`` gave styles of are asked of it): the same widget style, the same style
        of each of those components."""
        return self.base == other.base and all(self[name] == style for name, style in list(other.items()))


#: A look of the list (``PaperList._new_look``): its components' styles and the ready styles of the
#: plain rows and of the highlighted row.
_Look = tuple[_Partials, RowStyles, RowStyles]


class _Frame:
    """What every line of a frame of the list shares."""

    __slots__ = ("base", "changed", "highlighted", "plain", "top", "width")

    def __init__(
        self,
        width: int,
        top: int,
        base: Style,
        changed: Container[str],
        plain: RowStyles,
        highlighted: RowStyles,
    ) -> None:
        self.width, self.top, self.base = width, top, base
        #: The ready styles of the plain rows and of the highlighted row.
        self.plain, self.highlighted = plain, highlighted
        #: The ids whose rows show the changed mark (``PaperList``'s ``changed``, asked once).
        self.changed = changed


def _row_in(ids: Sequence[str], paper_id: str) -> int | None:
    """The first row of ``paper_id`` in ``ids``, or ``None``: a ranking's own look-up
    (:meth:`IdsAt.index_of <paperdeck.search.index.IdsAt.index_of>`: no id made per row), else
    the sequence's ``index`` (C-level for a list or a tuple)."""
    index_of = getattr(ids, "index_of", None)
    if index_of is not None:
        found: int | None = index_of(paper_id)
        return found
    try:
        return ids.index(paper_id)
    except ValueError:
        return None
