"""The list's vertical scrollbar, drawn again only when its picture changes, and then cheaply.

Re-ranking changes the list's length, and so the scrollbar's virtual size, at nearly every
keystroke, which made Textual repaint all its lines; the thumb's cells rarely change. The lines
are kept for a picture: the scrollbar's size, style (colours, hover, grab) and thumb cells, as
``ScrollBarRender`` draws them.

When the picture does change (the thumb moves), ``_bar_lines`` builds the strips straight from
``ScrollBarRender.render_bar``'s segments, each under the widget's style as Textual's pipeline
puts it, keeping their mouse ``meta`` (``@mouse.down``: grab, scroll up, scroll down) that clicks
and drags on the bar act on, instead of Textual's path through a Rich renderable, its styled
lines and the per-line box styling.

The list's bar is always shown (``overflow-y: scroll``): a bar appearing or going, as the list
grows past its height or shrinks under it while typing, lays out the whole screen. Where nothing
scrolls, the bar draws what its place shows without a bar (the gutter that
``scrollbar-gutter: stable`` keeps, in the list's background), so the screen looks as before.

:func:`vertical_scrollbar_for` installs it as a widget's vertical scrollbar, as Textual's
``Widget.vertical_scrollbar`` installs its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil
from typing import Self

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from paperdeck.ui._lines.boxing import plain_box, without_truecolor


class ListScrollBar(ScrollBar):
    """The list's scrollbar (see the module docstring)."""

    def __init__(self, *, thickness: int) -> None:
        super().__init__(vertical=True, name="vertical", thickness=thickness)
        self._drawn: tuple[Region, tuple[object, ...]] | None = None
        #: The picture last drawn whole (what the screen shows, or will at the next frame).
        self._shown: tuple[object, ...] | None = None
        self._drawn_lines: list[Strip] = []
        #: A strip per styled bar segment: lines that look alike are one object, which the
        #: compositor cuts and encodes once (its caches are per strip).
        self._strip_of: dict[Segment, Strip] = {}

    def get_line_filters(self) -> Sequence[LineFilter]:
        return without_truecolor(super().get_line_filters())

    def render_lines(self, crop: Region) -> list[Strip]:
        bar = self.render()
        picture = self._picture(bar)
        if (crop, picture) != self._drawn:
            lines = self._gutter_lines(crop) if picture[-1] == _STILL else self._bar_lines(bar, crop)
            self._drawn_lines = lines if lines is not None else super().render_lines(crop)
            self._drawn = (crop, picture)
        if crop == self.size.region:
            self._shown = picture
        return self._drawn_lines

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """Textual's, but a repaint of the whole bar is skipped when it would draw the picture
        drawn last. Re-ranking sets the bar's virtual size at nearly every keystroke, which asked
        for a repaint each time: the compositor then redrew and sent every line of the list
        (the bar's cell on each), not only the rows that changed."""
        if not (regions or layout or recompose) and self._shows_its_picture():
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _shows_its_picture(self) -> bool:
        """Whether the picture last drawn whole is the one the bar would draw now."""
        return self._shown is not None and self.parent is not None and self._shown == self._picture(self.render())

    def _picture(self, bar: object) -> tuple[object, ...]:
        """What the bar draws for ``bar`` (its renderable) at its size in the app's theme; ending in
        ``_STILL`` where nothing scrolls (then the gutter: see the module docstring)."""
        if self._still(bar):
            return (self.size, self.app.theme, self.app.ansi_color, self._gutter_style(), _STILL)
        return (self.size, self.app.theme, self.app.ansi_color, *_picture(bar, self.size))

    def _still(self, bar: object) -> bool:
        """Whether ``bar`` is a vertical bar with nothing to scroll (``ScrollBar._render_bar`` gives
        it no window then)."""
        return type(bar) is ScrollBarRender and bar.vertical and not bar.window_size

    def _gutter_style(self) -> Style:
        """The style of the gutter cells Textual draws for the list without a bar: the padding of
        its lines, in the list's background over its parent's (``StylesCache.get_inner_outer``)."""
        assert self.parent is not None
        base_background, background = self.parent.background_colors
        return Style.from_color(bgcolor=(base_background + background).rich_color)

    def _gutter_lines(self, crop: Region) -> list[Strip]:
        """The lines of ``crop`` where nothing scrolls: the list's gutter, blank in its background,
        through the list's line filters as its own lines go."""
        parent = self.parent
        assert isinstance(parent, Widget)
        _, background = parent.background_colors
        strip = Strip.blank(crop.width, self._gutter_style())
        for line_filter in parent.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        return [strip] * crop.height

    def _bar_lines(self, bar: object, crop: Region) -> list[Strip] | None:
        """The lines of ``crop`` as Textual draws them for ``bar``, built from its segments; ``None``
        where that shortcut does not hold (another renderer, a horizontal bar, a crop of part of a
        line, styles that change lines: borders, padding, opacity, tint, hatch, filters)."""
        width, height = self.size
        if (
            type(bar) is not ScrollBarRender
            or not bar.vertical
            or not isinstance(bar.style, Style)
            or width <= 0
            or height <= 0
            or crop.column_span != (0, width)
            or not plain_box(self)
        ):
            return None
        style = bar.style
        segments = ScrollBarRender.render_bar(
            size=height,
            virtual_size=bar.virtual_size,
            window_size=bar.window_size,
            position=bar.position,
            thickness=width,
            vertical=True,
            back_color=style.bgcolor or Color.parse("#555555"),  # ScrollBarRender.__rich_console__'s defaults
            bar_color=style.color or Color.parse("bright_magenta"),
        ).segments
        if len(segments) != height:
            return None
        base = self.visual_style.rich_style
        if len(self._strip_of) > 64:
            self._strip_of.clear()
        strips: list[Strip] = []
        for segment in segments[crop.y : crop.bottom]:
            strip = self._strip_of.get(segment)
            if strip is None:
                text, segment_style, _ = segment
                if len(text) != width:
                    return None
                styled = Segment(text, base + segment_style if base else segment_style)
                strip = self._strip_of[segment] = Strip([styled], width)
            strips.append(strip)
        return strips


#: The last item of the picture of a bar with nothing to scroll.
_STILL = "still"


def _picture(bar: object, size: Size) -> tuple[object, ...]:
    """What a scrollbar renderable draws: its kind and style, and where its thumb starts and
    ends, in cells and eighths (``ScrollBarRender.render_bar``'s arithmetic)."""
    if type(bar) is not ScrollBarRender:
        return (bar,)  # another renderer: never the same picture twice
    length = size.height if bar.vertical else size.width
    eighths = len(ScrollBarRender.VERTICAL_BARS if bar.vertical else ScrollBarRender.HORIZONTAL_BARS)
    virtual_size, window_size, position = bar.virtual_size, bar.window_size, bar.position
    thumb: tuple[object, ...] = ()
    if window_size and length and virtual_size and length != virtual_size:
        thumb_size = max(1, window_size / (virtual_size / length))
        start = int((length - thumb_size) * (position / (virtual_size - window_size)) * eighths)
        end = start + ceil(thumb_size * eighths)
        thumb = (divmod(max(0, start), eighths), divmod(max(0, end), eighths))
    return (bar.style, bar.vertical, bar.thickness, thumb)


def vertical_scrollbar_for(widget: Widget) -> ScrollBar:
    """``widget``'s vertical scrollbar, a :class:`ListScrollBar` created when first needed:
    Textual's ``Widget.vertical_scrollbar``, with that class."""
    bar = widget._vertical_scrollbar
    if bar is None:
        bar = widget._vertical_scrollbar = ListScrollBar(thickness=widget.scrollbar_size_vertical)
        bar.display = False
        widget.app._start_widget(widget, bar)
    return bar
