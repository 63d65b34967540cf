"""Lines put together without Textual's per-line styling, where that styling would only add the
cells around the content (a border's and padding's): the list's rows are boxed once and the boxed
strip reused, and the ANSI-to-truecolor line filter is skipped for lines drawn in truecolor.

Relies on how Textual 8.2.8 styles a widget's content line (``Widget.render_lines`` through
``StylesCache``): the content's own segments, unchanged, between a prefix and a suffix of cells
when none of the styles :func:`plain_box` checks is set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.segment import Segment
from textual.filter import ANSIToTruecolor, LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

#: How Textual boxes a content line: the segments before it, those after it, and its width.
Box = tuple[list[Segment], list[Segment], int]


def plain_box(widget: Widget) -> bool:
    """Whether Textual's styling of ``widget``'s lines only adds its border and padding cells around
    them (or nothing): no opacity, tint, text opacity, hatch, outline, content alignment, text
    selection or line filter changes the content's segments."""
    styles = widget.styles
    return (
        not widget.get_line_filters()
        and widget.opacity == 1
        and styles.tint.a == 0
        and styles.text_opacity == 1
        and not (styles.has_rule("hatch") and styles.hatch != "none")
        and not any(edge for edge, _ in styles.outline)
        and styles.content_align == ("left", "top")
        and widget.text_selection is None
    )


def without_truecolor(filters: Sequence[LineFilter]) -> list[LineFilter]:
    """``filters`` without Textual's ANSI-to-truecolor one, for lines drawn only in the theme's
    colours (truecolor unless the theme is an ANSI one, which turns the filter off anyway) and
    without ``dim``: there it changes nothing, yet runs over every new line of each frame."""
    return [f for f in filters if not isinstance(f, ANSIToTruecolor)]


def find_box(line: Strip, content: Strip) -> Box | None:
    """How Textual boxed ``content`` into ``line`` (what it drew for it): the segments it put
    before and after the content's own (a border's and padding's cells), or ``None`` when the
    content's segments are not found unchanged in the line."""
    segments, inner = list(line), list(content)
    for start in range(min(4, len(segments) - len(inner) + 1)):
        if segments[start : start + len(inner)] == inner:
            return segments[:start], segments[start + len(inner) :], content.cell_length
    return None


class RowBoxer:
    """Boxes a widget's content lines as Textual does, once per content strip.

    Textual draws the border lines and the first content line, which shows what its styling adds
    around a content line (:func:`find_box`); every other content line is that box around it.
    Textual's styling of a line, and the compositor's cutting and encoding of a new line, are
    then paid once per content strip: a strip shown again, at any place, gives the same line.
    """

    #: Boxed lines kept (by content strip) before the cache is emptied.
    LIMIT = 1024

    def __init__(self) -> None:
        self._box: Box | None = None
        self._boxed: dict[int, tuple[Strip, Strip]] = {}

    def lines(
        self, widget: Widget, crop: Region, textual: Callable[[Region], list[Strip]], content: Callable[[int], Strip]
    ) -> list[Strip] | None:
        """The lines of ``crop`` of ``widget`` as ``textual`` (Textual's ``render_lines``) draws them,
        the content lines (``content(y)``, ``y`` from the top of the content) boxed here. ``None``
        (let Textual draw all) where that does not hold: styles that change the content itself
        (:func:`plain_box`), a crop of part of a line, content lines of another width."""
        region = widget.region
        if crop.column_span != (0, region.width) or not plain_box(widget):
            return None
        top = widget.styles.gutter.top
        first, last = max(crop.y, top), min(crop.bottom, top + widget.content_region.height)
        if first >= last:
            return None
        lines = textual(Region(0, crop.y, region.width, first + 1 - crop.y))
        box = find_box(lines.pop(), content(first - top))
        if box is None:
            return None
        if box != self._box:
            self._box, self._boxed = box, {}
        elif len(self._boxed) > self.LIMIT:
            self._boxed.clear()
        prefix, suffix, content_width = box
        for y in range(first, last):
            line = content(y - top)
            if line.cell_length != content_width:
                return None
            cached = self._boxed.get(id(line))
            if cached is None or cached[0] is not line:
                cached = self._boxed[id(line)] = (line, Strip([*prefix, *line, *suffix], region.width))
            lines.append(cached[1])
        if last < crop.bottom:
            lines += textual(Region(0, last, region.width, crop.bottom - last))
        return lines
