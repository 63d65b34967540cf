"""A one-line label's line drawn straight, where that gives the segments Textual's content
visual draws for it (``Widget.render_line`` through ``Visual.to_strips``): its one segment of
text under the widget's ``VisualStyle``."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget


def straight_line(widget: Widget, text: str, y: int) -> Strip | None:
    """Line ``y`` of ``widget`` showing plain ``text`` (never markup) as Textual draws it, or
    ``None`` where the shortcut does not hold (then Textual must draw it): text of printable
    one-cell characters exactly as wide as the widget, aligned left, no line padding, not
    selected."""
    width, styles = widget.size.width, widget.styles
    if (
        len(text) != width
        or not text.isprintable()
        or cell_len(text) != width
        or styles.text_align not in ("start", "left")
        or styles.line_pad
        or styles.content_align != ("left", "top")
        or widget.text_selection is not None
    ):
        return None
    style = widget.visual_style
    if y == 0:
        return Strip([Segment(text, style.rich_style_with_offset(0, 0))], width)
    return Strip.blank(width, style.rich_style)
