"""The reader: one paper full screen (``enter`` on the list), for a terminal too small for the
detail pane beside or below the list, or for reading an abstract at length.

The main screen stays beneath it, unchanged: ``escape`` comes back to the same highlighted row.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType

from paperdeck.model.paper import Paper, UserData
from paperdeck.store.store import Store
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.paper_marks import MarksPaperShown
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.footer import PaperFooter
from paperdeck.ui.widgets.paper_detail import PaperDetail


class PaperReader(MarksPaperShown):
    """One paper's detail, full screen: ``j`` / ``k`` and the arrow and page keys scroll it,
    ``s`` / ``r`` / ``n`` star it, mark it read and edit its note (as on the list), ``escape``
    (or ``backspace``) returns to the list."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("reader")  # back, scroll, reviews, star, read, note

    AUTO_FOCUS = "#reader-detail"

    def __init__(self, paper: Paper, user: UserData, store: Store | None = None, terms: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.paper = paper
        self.user = user
        self.store = store
        #: The words to mark (the list's query's, :mod:`paperdeck.search.highlight`).
        self.terms = terms

    def compose(self) -> ComposeResult:
        yield PaperDetail(id="reader-detail")
        yield PaperFooter()

    def on_mount(self) -> None:
        summary = rank = None
        forum = self.paper.openreview_id
        if self.store is not None and forum and self.store.reviews.summary_held(forum):
            summary = self.store.reviews.summary(forum)
            rank = self.store.reviews.paper_rank(self.paper)
        self.query_one(PaperDetail).show(self.paper, self.user, summary, rank, terms=self.terms, all_authors=True)

    def marks_shown(self) -> None:
        """Show the paper with the user's data as it is now (starred, its status, its note)."""
        if self.store is None or not self.is_mounted:
            return
        main = self._reading_screen()  # with its saves not written yet
        user = main.user_data_shown(self.paper.id) if main is not None else self.store.user_data(self.paper.id)
        if user != self.user:
            self.user = user
            self.on_mount()

    def action_reviews(self) -> None:
        """The paper's reviews (:class:`paperdeck.ui.screens.reviews.ReviewsScreen`)."""
        if self.store is not None:
            from paperdeck.ui.screens.reviews import open_reviews

            open_reviews(self.app, self.store, self.paper)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        """Scroll the paper ``lines`` down (negative: up), as the list's ``j`` / ``k`` move."""
        self.query_one(PaperDetail).scroll_relative(y=lines, animate=False, immediate=True)

    def action_scroll_to_end(self, bottom: int) -> None:
        """The paper's top (``0``) or end (``1``), as the list's ``g`` / ``G``."""
        scroll_to_end(self.query_one(PaperDetail), bottom)
