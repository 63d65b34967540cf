"""The "My schedule" screen (``P`` on the list, or the palette): the papers the user starred or
marked to-read that have events in an imported programme, by day, then session, then poster
position (:func:`paperdeck.reading.plan.build_plan`), each time in the user's zone with the
venue's beside it; an event whose time overlaps another chosen one in another session is marked
``⚠ clash`` (in reverse video too, readable without colour). The plan is made in a thread.
``j`` / ``k`` scroll, ``escape`` comes back.
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
from paperdeck.store.store import Store
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.footer import PaperFooter

if TYPE_CHECKING:
    from paperdeck.reading.plan import Plan

__all__ = ["ScheduleScreen"]


class ScheduleScreen(Screen[None]):
    """The user's plan (see the module docstring).

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
        self.plan = plan
        self._draw()

    def _draw(self) -> None:
        """Lay the plan out to the screen's width (:func:`~paperdeck.reading.plan.plan_lines`): days
        bold and underlined, sessions bold, clashes in reverse video."""
        if not self.is_mounted or self.plan is None:
            return
        from paperdeck.reading.plan import CLASH_GUTTER, plan_lines

        plan = self.plan
        count = len(plan.items)
        title = f"My schedule · {counted(count, 'event')}"
        if plan.clashes:
            title += f" · {plan.clashes:,} clashing"
        self.query_one("#schedule-title", Static).update(Content(title))
        width = max(self.size.width - 4, 30)
        lines = plan_lines(plan, width)[1:]  # the title says the rest
        shown = []
        for line in lines:
            if line.startswith(CLASH_GUTTER):
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

    def action_scroll(self, lines: int) -> None:
        self.query_one("#schedule-body", VerticalScroll).scroll_relative(y=lines, animate=False, immediate=True)

    def action_scroll_to_end(self, bottom: int) -> None:
        """The plan's top (``0``) or end (``1``), as the list's ``g`` / ``G``."""
        scroll_to_end(self.query_one("#schedule-body", VerticalScroll), bottom)
