"""The top and the end of a scrolling screen (``g`` / ``home``, ``G`` / ``end``: the rows of
``ui/commands.py``'s ``_SCROLLING``), one rule for every such screen."""

from __future__ import annotations

from textual.widget import Widget


def scroll_to_end(scrolling: Widget, bottom: int) -> None:
    """Scroll ``scrolling`` to its top (``bottom`` 0) or its end (1) at once, no animation."""
    if bottom:
        scrolling.scroll_end(animate=False, immediate=True)
    else:
        scrolling.scroll_home(animate=False, immediate=True)
