"""The filter bar: a one-line input whose every change re-ranks the list.

Its keys for leaving (enter, ↓, escape) are the main screen's priority bindings, so that they take
effect before any key typed after them is routed.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

from paperdeck.ui._lines.no_layout import repaint_only_virtual_size


class FilterBar(Input):
    """Fuzzy filter input."""

    #: Input sets its virtual size (the text's width, for scrolling it sideways) at every change
    #: of the text; as Widget's reactive that lays out the whole screen. Nothing outside the bar
    #: depends on it, so a repaint is enough.
    virtual_size: Reactive[Size] = repaint_only_virtual_size()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="Filter ( / ) — words, typos welcome; fields too: decision:oral rating>=6 -tag:done",
            id=id,
            select_on_focus=False,
        )

    def watch_value(self, value: str) -> None:
        """Text the app puts into the bar (a view's query, ``like:``…, set while the bar is not
        focused) leaves the cursor at its end, where typing goes on; typed text has its cursor
        placed by the edit itself."""
        if not self.has_focus:
            self.cursor_position = len(value)
