"""The detail pane: everything about the highlighted paper, abstract rendered, note shown."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from paperdeck.model.changes import PaperChange
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.review import ReviewSummary
from paperdeck.model.safe_text import one_line
from paperdeck.store.rows import PaperRow


class PaperDetail(VerticalScroll, can_focus=True):
    """Scrollable detail of one paper; ``show`` replaces what it shows."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-body", markup=False)

    def show_loading(self, row: PaperRow | None) -> None:
        """Show the title while the catalogue is still being read."""
        body = self.query_one("#detail-body", Static)
        title = one_line(row.title) if row is not None else ""
        body.update(Content("\n").join([Content.styled(title, "bold"), Content.styled("Loading…", "dim")]))

    def show(
        self,
        paper: Paper | None,
        user: UserData | None,
        summary: ReviewSummary | None = None,
        rank: float | None = None,
        changes: Sequence[PaperChange] = (),
        *,
        followed: str = "",
    ) -> None:
        """Show ``paper`` with the user's data (``None``: nothing is highlighted), and its reviews'
        scores and its recorded changes (oldest first) when given, and why it is followed
        (``followed``: ``"following author Jane Doe"``)."""
        body = self.query_one("#detail-body", Static)
        if paper is None or user is None:
            body.update(Content.styled("Nothing to show: no paper is highlighted.", "dim"))
        else:
            # Deferred: the LaTeX renderer is not needed for the first paint.
            from paperdeck.ui.widgets.detail_content import detail_content

            body.update(detail_content(paper, user, summary, rank, changes, followed=followed))
        self.scroll_home(animate=False)
