"""The filter bar: a one-line input whose every change re-ranks the list.

Its keys for leaving (enter, ↓, escape) are the main screen's priority bindings, so that they take
effect before any key typed after them is routed.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Input

from paperdeck.ui._lines.no_layout import repaint_only_virtual_size
from paperdeck.ui.widgets.one_line_paste import OneLinePaste, joined_lines

#: The bar's placeholders, longest first: the longest that fits the bar is shown (never one cut
#: mid-sentence); the last, whatever the width.
PLACEHOLDERS = (
    "Filter ( / ) — words, typos welcome; fields too: decision:oral rating>=6 -tag:done",
    "Filter ( / ) — words, typos welcome; fields: rating>=6",
    "Filter ( / ) — words or fields (rating>=6)",
    "Filter ( / ): words, fields",
    "Filter ( / )",
)


def one_line(text: str) -> str:
    """Pasted ``text`` as one query: its lines joined with single spaces, blank lines dropped
    (:class:`~paperdeck.ui.widgets.one_line_paste.OneLinePaste`'s rule)."""
    return joined_lines(text)


def placeholder_for(width: int) -> str:
    """The longest of :data:`PLACEHOLDERS` in ``width`` cells (the cursor's cell left free)."""
    return next((text for text in PLACEHOLDERS if cell_len(text) < width), PLACEHOLDERS[-1])


class FilterBar(OneLinePaste, Input):
    """Fuzzy filter input. A paste puts in its lines as one query, white space around each
    dropped (``$(xclip -o)`` ends with a newline, a copied link may start with one), and says
    what it put in when that is one word (:class:`Pasted`)."""

    class Pasted(Message):
        """One word was pasted into the bar: ``text``, as put in (stripped, not empty)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    #: Input sets its virtual size (the text's width, for scrolling it sideways) at every change
    #: of the text; as Widget's reactive that lays out the whole screen. Nothing outside the bar
    #: depends on it, so a repaint is enough.
    virtual_size: Reactive[Size] = repaint_only_virtual_size()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder=PLACEHOLDERS[0],
            id=id,
            select_on_focus=False,
        )

    def on_resize(self, event: events.Resize) -> None:
        """A placeholder that fits the bar's new width, and the cursor kept in view: Input scrolls
        its text only when the cursor moves, so a bar made narrower (the counts beside it grew)
        would hide the end of the text, cursor and all, until the next key."""
        if self.placeholder != (placeholder := placeholder_for(self.content_size.width)):
            self.placeholder = placeholder
        self.scroll_to_region(Region(self._cursor_offset, 0, width=1, height=1), force=True, animate=False)

    def watch_value(self, value: str) -> None:
        """Text the app puts into the bar (a view's query, ``like:``…, set while the bar is not
        focused) leaves the cursor at its end, where typing goes on; typed text has its cursor
        placed by the edit itself."""
        if not self.has_focus:
            self.cursor_position = len(value)

    def pasted(self, text: str) -> None:
        """A paste was put in as one query (:class:`OneLinePaste`: a paste of several lines is not
        cut to its first). One word pasted is told (:class:`Pasted`): it may be a paper's id."""
        if " " not in text:
            self.post_message(self.Pasted(text))
