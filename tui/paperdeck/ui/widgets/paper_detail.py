"""The detail pane: everything about the highlighted paper, abstract rendered, note shown."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from paperdeck.model.safe_text import one_line
from paperdeck.store.rows import PaperRow
from paperdeck.ui._lines.no_layout import set_by_layout_virtual_size
from paperdeck.ui._lines.timers import one_shot_on
from paperdeck.ui.after_pause import AfterPause

if TYPE_CHECKING:  # the first frame shows none: their modules are imported once one is read
    from paperdeck.model.changes import PaperChange
    from paperdeck.model.paper import Paper
    from paperdeck.model.review_summary import Rank, ReviewSummary
    from paperdeck.model.schedule import ScheduleEvent
    from paperdeck.model.user import UserData


class PaperDetail(VerticalScroll, can_focus=True):
    """Scrollable detail of one paper; ``show`` replaces what it shows. Its body (a ``Static``,
    ``#detail-body``) is mounted when something is first shown: until then the pane is its frame
    alone (as in the main screen's first frame, drawn before the catalogue is read).

    While the user types, the pane waits for a pause before it follows the highlighted paper
    (:meth:`show_after_pause`): each key costs the list's repaint, not the detail's. It says which
    paper it shows (:attr:`shown_id`): once the list settles, the list's highlighted one.

    A paper shown lays out the screen once: the pane's and its body's virtual sizes, set by that
    layout, neither lay out nor repaint again (the scrollbar coming or going lays out on its own)."""

    virtual_size = set_by_layout_virtual_size()

    #: What shows the paper to follow once the typing pauses, and the pause in seconds; ``None``
    #: when none waits.
    _waiting: tuple[Callable[[], None], float] | None = None
    _pause: AfterPause | None = None
    #: The id of the paper shown (``None``: none, or only its title while the catalogue loads).
    shown_id: str | None = None
    #: Whether the pane shows a paper's detail or says none is highlighted (:meth:`show`), not
    #: its frame alone or a title while the catalogue loads.
    _shown = False

    def show_after_pause(
        self, show: Callable[[], None], pause_s: float, hold: Callable[[Callable[[], None]], None] | None = None
    ) -> None:
        """Call ``show()`` once ``pause_s`` seconds pass without another call here or to
        :meth:`keep_waiting` (each restarts the wait); a show waiting before is dropped. ``show``
        reads which paper to show when it runs (the list's highlighted one then), not when it was
        asked for. ``hold`` (taken at the first call): the show due is handed to it, which runs
        it now or once a query under way is painted (:meth:`QueryGate.when_quiet
        <paperdeck.ui.query_gate.QueryGate.when_quiet>`)."""
        self._waiting = (show, pause_s)
        if self._pause is None:
            self._pause = AfterPause(one_shot_on(self), self._follow, hold)
        self._pause.restart(pause_s)

    def _follow(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting[0]()

    @property
    def waiting(self) -> bool:
        """Whether a paper waits to be shown once the typing pauses."""
        return self._waiting is not None

    def keep_waiting(self) -> None:
        """Restart the wait of the paper waiting to be shown (another key was typed); nothing
        when none waits."""
        if self._waiting is not None and self._pause is not None:
            self._pause.restart(self._waiting[1])

    def stop_waiting(self) -> None:
        """Drop the paper waiting to be shown, if any (it is not shown)."""
        self._waiting = None
        if self._pause is not None:
            self._pause.stop()

    def shows(self, paper_id: str | None) -> bool:
        """Whether the pane shows ``paper_id``'s detail (``None``: says no paper is highlighted)."""
        return self._shown and self.shown_id == paper_id

    def _body(self) -> Static:
        """The body, mounted at the first call."""
        for child in self.children:
            if isinstance(child, Static) and child.id == "detail-body":
                return child
        from paperdeck.ui.widgets.detail_body import DetailBody  # deferred: no body in the first frame

        body = DetailBody(id="detail-body", markup=False)
        self.mount(body)
        return body

    def show_loading(self, row: PaperRow | None) -> None:
        """Show the title while the catalogue is still being read."""
        body = self._body()
        self.shown_id, self._shown = None, False
        title = one_line(row.title) if row is not None else ""
        body.update(Content("\n").join([Content.styled(title, "bold"), Content.styled("Loading…", "dim")]))

    def show(
        self,
        paper: Paper | None,
        user: UserData | None,
        summary: ReviewSummary | None = None,
        rank: Rank | None = None,
        changes: Sequence[PaperChange] = (),
        *,
        followed: str = "",
        terms: tuple[str, ...] = (),
        events: Sequence[ScheduleEvent] = (),
        all_authors: bool = False,
    ) -> None:
        """Show ``paper`` with the user's data (``None``: nothing is highlighted), and its reviews'
        scores and its recorded changes (oldest first) when given, and why it is followed
        (``followed``: ``"following author Jane Doe"``), the words ``terms`` matches marked
        (:func:`~paperdeck.ui.widgets.detail_content.marked`), and when and where it is presented
        (``events``); ``all_authors``: every author named (the reader), else a long list cut."""
        body = self._body()
        self.shown_id = paper.id if paper is not None and user is not None else None
        self._shown = True
        if paper is None or user is None:
            body.update(Content.styled("Nothing to show: no paper is highlighted.", "dim"))
        else:
            # Deferred: the LaTeX renderer is not needed for the first paint.
            from paperdeck.ui.widgets.detail_content import detail_content

            content = detail_content(
                paper,
                user,
                summary,
                rank,
                changes,
                followed=followed,
                terms=terms,
                events=events,
                all_authors=all_authors,
            )
            body.update(content)
        self.scroll_home(animate=False)
