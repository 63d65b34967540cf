"""The "My schedule" screen (``P`` on the list, or the palette): the papers the user starred or
marked to-read that have events in an imported programme, by day, then session, then poster
position (:func:`paperdeck.reading.plan.build_plan`), each time in the user's zone with the
venue's beside it; an event whose time overlaps another chosen one in another session is marked
``⚠ clash`` (in reverse video too, readable without colour). The plan is made in a thread.
One event is highlighted (``▸`` before its lines, bold): ``j`` / ``k`` move it, ``enter`` shows
its paper in the list (the screen closes), ``s`` stars or unstars it (through the list's undoable
step; the plan is made again), ``u`` / ``ctrl+r`` undo / redo the list's last step (the plan made
again), ``escape`` comes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from paperdeck.model.counts import counted
from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import shown_line
from paperdeck.store.store import Store
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.footer import PaperFooter

if TYPE_CHECKING:
    from paperdeck.model.schedule import PlanItem
    from paperdeck.reading.plan import Plan
    from paperdeck.ui.screens.reading import ReadingScreen

__all__ = ["ScheduleScreen"]


class ScheduleScreen(Screen[str | None]):
    """The user's plan (see the module docstring); dismissed with the paper id to show in the
    list (``enter``), else ``None``.

    Args:
        store: the store whose papers, events and marks are planned.
        zone_name: an IANA time zone to show the times in; ``None``: the system's.
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings("schedule")

    DEFAULT_CSS = """
    ScheduleScreen #schedule-title { padding: 0 1; text-style: bold; height: 1; }
    ScheduleScreen #schedule-body { padding: 0 1; }
    """

    AUTO_FOCUS = "#schedule-body"

    def __init__(self, store: Store, zone_name: str | None = None) -> None:
        super().__init__()
        self.store = store
        self.zone_name = zone_name
        #: The plan shown, ``None`` until it is made (tests wait on it).
        self.plan: Plan | None = None
        #: The highlighted event: its index in the plan's items.
        self.cursor = 0
        #: Each item's first line in the drawn plan (:func:`~paperdeck.reading.plan.plan_lines`).
        self._starts: list[int] = []

    def compose(self) -> ComposeResult:
        yield Static(Content("My schedule"), id="schedule-title", markup=False)
        with VerticalScroll(id="schedule-body", can_focus=True):
            yield Static(Content("planning…"), id="schedule-plan", markup=False)
        yield PaperFooter()

    def on_mount(self) -> None:
        self._make_plan()

    def on_resize(self) -> None:
        self._draw()

    @work(thread=True, exclusive=True, group="schedule")
    def _make_plan(self) -> None:
        from paperdeck.reading.plan import ZoneError, build_plan, time_zone

        store = self.store
        try:
            zone, name = time_zone(self.zone_name)
        except ZoneError as error:
            self.app.call_from_thread(self.notify, str(error), severity="warning", markup=False)
            zone, name = time_zone(None)
        try:
            store.load()
            papers = {paper.id: paper for paper in store.papers}
            plan = build_plan(papers, store.events_by_paper(), store.all_user_data, zone, name)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error", markup=False)
            return
        self.app.call_from_thread(self._planned, plan)

    def _planned(self, plan: Plan) -> None:
        highlighted = self.highlighted
        self.plan = plan
        uids = [item.uid for item in plan.items]
        if highlighted is not None and highlighted.uid in uids:  # made again: the same event
            self.cursor = uids.index(highlighted.uid)
        self.cursor = max(0, min(self.cursor, len(plan.items) - 1))
        self._draw()

    @property
    def highlighted(self) -> PlanItem | None:
        """The highlighted event, ``None`` before the plan is made or when it is empty."""
        plan = self.plan
        return plan.items[self.cursor] if plan is not None and 0 <= self.cursor < len(plan.items) else None

    def _draw(self) -> None:
        """Lay the plan out to the screen's width (:func:`~paperdeck.reading.plan.plan_lines`): days
        bold and underlined, sessions bold, clashes in reverse video."""
        if not self.is_mounted or self.plan is None:
            return
        from paperdeck.reading.plan import CLASH_GUTTER, TITLE_INDENT, plan_lines

        plan = self.plan
        count = len(plan.items)
        title = f"My schedule · {counted(count, 'event')}"
        if plan.clashes:
            title += f" · {plan.clashes:,} clashing"
        self.query_one("#schedule-title", Static).update(Content(title))
        width = max(self.size.width - 4, 30)
        starts: list[int] = []
        lines = plan_lines(plan, width, starts)[1:]  # the title says the rest
        self._starts = starts  # as shown: the title line less, the zone line more
        first = starts[self.cursor] - 1 if self.highlighted is not None else -1
        last = next((n for n in range(first, len(lines)) if lines[n].startswith(TITLE_INDENT)), first)
        shown = []
        for n, line in enumerate(lines):
            if 0 <= first <= n <= last:  # the highlighted event: its event line, its title
                style = "reverse bold" if line.startswith(CLASH_GUTTER) else "bold"
                shown.append(Content.styled("▸" + line[1:], style))
            elif line.startswith(CLASH_GUTTER):
                shown.append(Content.styled(line, "reverse bold"))
            elif line and not line.startswith(" ") and line[:1].isupper() and not line[:1].isdigit():
                shown.append(Content.styled(line, "bold underline"))  # a day
            elif line.startswith("  ") and not line.startswith("   "):
                shown.append(Content.styled(line, "bold"))  # a session and its room
            else:
                shown.append(Content(line))
        shown.insert(0, Content.styled(f"Times in {plan.zone_name}, the venue's beside them", "dim"))
        self.query_one("#schedule-plan", Static).update(Content("\n").join(shown))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll_to_end(self, bottom: int) -> None:
        """The plan's first (``0``) or last (``1``) event highlighted and the plan's top or end
        shown, as the list's ``g`` / ``G``."""
        if self.plan is not None and self.plan.items:
            self.action_move(len(self.plan.items) if bottom else -len(self.plan.items))
        scroll_to_end(self.query_one("#schedule-body", VerticalScroll), bottom)

    def action_move(self, step: int) -> None:
        """Highlight the next (``step`` 1) or previous event, its lines scrolled into view."""
        plan = self.plan
        if plan is None or not plan.items:
            return
        self.cursor = max(0, min(self.cursor + step, len(plan.items) - 1))
        self._draw()
        if self.cursor < len(self._starts):
            body = self.query_one("#schedule-body", VerticalScroll)
            top = self._starts[self.cursor]
            if top < body.scroll_y or top + 2 > body.scroll_y + body.scrollable_content_region.height:
                body.scroll_to(y=max(0, top - 2), animate=False, immediate=True)

    def action_show_in_list(self) -> None:
        """Close the plan and show the highlighted event's paper in the list."""
        if (item := self.highlighted) is not None:
            self.dismiss(item.paper_id)

    def on_screen_resume(self) -> None:
        """Back over the plan (a question of the list's undo answered): made again, as the
        papers starred may have changed meanwhile."""
        if self.plan is not None:
            self._make_plan()

    def _main(self) -> ReadingScreen | None:
        """The list beneath, whose undoable steps the plan's changes are."""
        from paperdeck.ui.screens.reading import ReadingScreen

        return next((s for s in reversed(self.app.screen_stack) if isinstance(s, ReadingScreen)), None)

    def action_history_step(self, undo: int) -> None:
        """Undo (``undo`` 1) or redo the list's last step, as ``u`` / ``ctrl+r`` there (a star
        made here is one), then make the plan again."""
        if (main := self._main()) is None:
            return
        main.action_undo() if undo else main.action_redo()
        main.saves.when_idle(self._plan_again)  # after a step waiting on the saves queued before it

    def _plan_again(self) -> None:
        self._make_plan()

    def action_toggle_star(self) -> None:
        """Star or unstar the highlighted event's paper (one undoable step of the list beneath),
        then make the plan again: an unstarred paper not to-read leaves it."""
        item = self.highlighted
        main = self._main()
        if item is None or main is None:
            return
        label = main.toggle_star_of([item.paper_id])
        self.notify(f"{'Starred' if label == 'star' else 'Unstarred'}: {shown_line(item.title)}", markup=False)
        self._make_plan()
