"""The notice shown in place of the panes while the terminal is smaller than the layout needs.

Below :attr:`PaperApp.MIN_SIZE <paperdeck.ui.app.PaperApp.MIN_SIZE>` (40×9) the filter bar and
the list no longer fit side by side with their counts (the filter bar and the counts need 28
cells, the list 30 and its borders), or the list shows fewer than three papers under the top bar
and above the footer. From there up the main screen is usable (under
:data:`~paperdeck.ui.screens.main.LIST_ONLY_BELOW` columns, or
:data:`~paperdeck.ui.screens.main.STACKED_FROM_ROWS` rows, the list alone: ``enter`` reads a
paper), and so are the full screens and the dialogs.

The notice is a screen of its own pushed over whatever is shown (the main screen, a dialog, the
reader) and popped as soon as the terminal is large enough again: nothing under it is touched,
so the filter text, the highlighted paper and an open dialog are as they were. While it is shown,
only quitting is a key (``PaperApp.check_action``): a screen opened under it would be drawn
at the size that broke the layout.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static


def too_small_text(size: Size, needed: tuple[int, int]) -> str:
    """The notice for a terminal of ``size``, ``needed`` the smallest (columns, rows)."""
    return f"Terminal too small: {size.width}×{size.height}, paperdeck needs at least {needed[0]}×{needed[1]}."


class TooSmallScreen(Screen[None]):
    """One centred line (wrapped on a narrow terminal) saying the terminal is too small, and the
    ``needed`` size (columns, rows)."""

    def __init__(self, needed: tuple[int, int]) -> None:
        super().__init__()
        self._needed = needed

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
        background: $background;
    }
    #too-small {
        width: auto;
        max-width: 100%;
        height: auto;
        text-align: center;
        color: $text-warning;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(too_small_text(self.app.size, self._needed), id="too-small", markup=False)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#too-small", Static).update(too_small_text(event.size, self._needed))


__all__ = ["TooSmallScreen", "too_small_text"]
