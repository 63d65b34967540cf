"""What Textual's styling of a widget's lines does to them, for widgets that draw their lines
themselves where that is cheaper (the list and its scrollbar): only when it changes nothing but
the cells around the content can a line be put together without it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from textual.filter import ANSIToTruecolor, LineFilter
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
    without ``dim``: there it changes nothing, yet cost ~2.5 ms of each keystroke's frame, run
    over every new line. tests/ui/test_list_drawing.py checks that it changes nothing."""
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
