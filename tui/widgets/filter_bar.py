"""The filter bar: a one-line input whose every change re-ranks the list.

Its keys for leaving (enter, ↓, escape) are the main screen's priority bindings, so that they take
effect before any key typed after them is routed.
"""

from __future__ import annotations

from textual.widgets import Input


class FilterBar(Input):
    """Fuzzy filter input."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="Filter ( / ) — words, typos welcome; fields too: decision:oral rating>=6 -tag:done",
            id=id,
            select_on_focus=False,
        )
