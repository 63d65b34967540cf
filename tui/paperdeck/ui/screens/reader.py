"""The reader: one paper full screen (``enter`` on the list), for a terminal too small for the
detail pane beside or below the list, or for reading an abstract at length.

The main screen stays beneath it, unchanged: ``escape`` comes back to the same highlighted row.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from paperdeck.model.paper import Paper, UserData
from paperdeck.ui.widgets.footer import PaperFooter
from paperdeck.ui.widgets.paper_detail import PaperDetail


class PaperReader(Screen[None]):
    """One paper's detail, full screen: ``j`` / ``k`` and the arrow and page keys scroll it,
    ``escape`` (or ``backspace``) returns to the list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,backspace", "close", "Back to the list", show=True),
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
    ]

    AUTO_FOCUS = "#reader-detail"

    def __init__(self, paper: Paper, user: UserData) -> None:
        super().__init__()
        self.paper = paper
        self.user = user

    def compose(self) -> ComposeResult:
        yield PaperDetail(id="reader-detail")
        yield PaperFooter()

    def on_mount(self) -> None:
        self.query_one(PaperDetail).show(self.paper, self.user)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        """Scroll the paper ``lines`` down (negative: up), as the list's ``j`` / ``k`` move."""
        self.query_one(PaperDetail).scroll_relative(y=lines, animate=False)
