"""The detail pane and the list's tally keep following the list after other screens came and went.

A tester's long session (a full store, 200×60) ended with the detail pane showing a paper the list
no longer held, and the list's border tally stuck on ``23,614 unseen``, for every query typed;
``j``/``k`` brought the pane back, a fresh app was fine. Both wait for the query gate
(:class:`~paperdeck.ui.query_gate.QueryGate`) while the filter bar has the focus, and the gate had
stopped opening: it asked for its look with ``call_after_refresh``, which Textual runs on the screen
on top *then* (the session had the too-small notice, the venue picker, the statistics, the note
editor in front in turn) and drops with that screen when it closes before its next refresh. The
gate, its look asked, never asked again. It now asks in the main screen's own queue.

Under a dialog or a full screen the gate also looked again every frame and opened only once that
screen closed: Textual counts the main screen current there (a background) and keeps it asking
for a repaint it does not draw.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.venues import venue_name, venue_of
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.query_gate import QueryGate
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual import events
from textual.screen import Screen
from textual.widgets import Static

from tests.ui.helpers import main_screen, settle, static_text
from tests.waits import wait_for


class _ClosedUnpainted(Screen[None]):
    """A screen closed before it paints a frame: what Textual was to run after its refresh never
    runs (a dialog dismissed, the too-small notice popped, by keys or a resize in a burst on a
    loaded machine). Its idle turn and its update timer do nothing here, so the test does not
    depend on that race."""

    def compose(self) -> Any:
        yield Static("in front")

    async def _on_idle(self, event: events.Idle) -> None:
        event.prevent_default()  # Screen._on_idle would run the callbacks after a refresh

    def _on_timer_update(self) -> None:
        pass  # no frame: nor the callbacks Textual runs after it


def _look_handed_to(in_front: Screen[None], gate: QueryGate) -> bool:
    """Whether the gate's look waits among the callbacks ``in_front`` runs after its refresh."""
    return any(getattr(callback, "func", None) == gate._look for callback, _ in in_front._callbacks)


def _seen(screen: MainScreen) -> str:
    detail = screen.query_one(PaperDetail)
    gate = screen.query_gate
    return (
        f"list {screen.paper_list.highlighted_id!r}, detail {detail.shown_id!r} (waiting {detail.waiting}), "
        f"gate quiet {gate.quiet}, answers {screen.list_filter.answers_filter()}"
    )


async def _detail_follows(pilot: Any, screen: MainScreen) -> None:
    """Once the list answers the filter and the gate is open, the pane shows the highlighted paper."""

    def settled() -> bool:
        detail = screen.query_one(PaperDetail)
        return screen.list_filter.answers_filter() and screen.query_gate.quiet and not detail.waiting

    await wait_for(pilot, settled, what=lambda: "the list settled: " + _seen(screen))
    assert screen.query_one(PaperDetail).shown_id == screen.paper_list.highlighted_id, _seen(screen)


async def test_the_detail_follows_typing_after_a_screen_closed_unpainted(make_app: Callable[[], PaperApp]) -> None:
    """A change of list while another screen is in front (here the gate told so directly, as a
    list shown after another process's import tells it), that screen closed before it painted:
    then a query typed. The gate's look had gone with that screen: the detail pane kept the paper
    shown before, and the tally its count, for every query after."""
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        gate = screen.query_gate
        in_front = _ClosedUnpainted()
        app.push_screen(in_front)
        await wait_for(pilot, lambda: app.screen is in_front and in_front.is_mounted, what="the screen in front")
        gate.busy()
        # The look run (the gate opens: the main screen paints nothing now), or handed to the
        # screen in front (Textual's call_after_refresh from a screen not on top).
        await wait_for(pilot, lambda: gate.quiet or _look_handed_to(in_front, gate), what="the gate's look taken")
        app.pop_screen()
        await wait_for(pilot, lambda: app.screen is screen, what="the main screen back")
        await settle(pilot)
        before = screen.paper_list.highlighted_id
        await pilot.press("slash", *"fourier")
        await wait_for(pilot, lambda: screen.applied_filter == ("fourier", False), what="the query's list")
        assert screen.paper_list.highlighted_id != before  # the top result is another paper
        await _detail_follows(pilot, screen)


async def test_held_work_runs_while_a_full_screen_is_in_front(make_app: Callable[[], PaperApp]) -> None:
    """With the statistics in front, work the gate holds (the check for another process's stars,
    the catalogue's) runs once the list shown answers the filter, not only once the statistics
    close: the main screen paints nothing meanwhile, its frame is not waited for."""
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        gate = screen.query_gate
        await pilot.press("A")
        await wait_for(pilot, lambda: app.screen is not screen, what="the statistics in front")
        await settle(pilot)
        ran: list[str] = []
        gate.busy()  # a change of list (another process's star shown)
        gate.when_quiet(lambda: ran.append("held work"))
        await wait_for(pilot, lambda: ran, what=lambda: f"the held work run, gate quiet {gate.quiet}")
        assert app.screen is not screen and gate.quiet


# -- the pane's contract: after any list shown, the highlighted paper (or none) ------------------

#: Two venues, so that a scope can keep the highlighted paper (cut as in test_scope_elsewhere).
_PAPERS = [
    Paper(id="openreview:A", title="Graph diffusion", abstract="x", venue="COLM", year=2025),
    Paper(id="openreview:B", title="Diffusion kernels", abstract="y", venue="ICLR", year=2026),
    Paper(id="openreview:C", title="Diffusion agents", abstract="z", venue="ICLR", year=2026),
    Paper(id="openreview:D", title="Web agents", abstract="w", venue="COLM", year=2025),
]


def _two_venues(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(_PAPERS)
    return store


async def _pane_on_another_paper(pilot: Any, screen: MainScreen) -> str:
    """The pane made to show a paper the list does not highlight (what a follow lost left), the
    list focused; returns the highlighted paper's id."""
    await settle(pilot)
    highlighted = screen.paper_list.highlighted_id
    assert highlighted is not None
    other = next(pid for pid in screen.store.paper_ids if pid != highlighted)
    screen._show_detail(other)
    assert screen.query_one(PaperDetail).shown_id == other
    return highlighted


@pytest.mark.parametrize(("query", "shown"), [("id:{id}", "highlighted"), ("zzzqqqxx", "none")])
async def test_new_rows_put_the_highlighted_paper_in_the_pane(tmp_path: Path, query: str, shown: str) -> None:
    """A query whose list keeps the same paper highlighted (no highlight message: the highlight
    did not change) or lists nothing: the pane shows that paper, or says none is highlighted."""
    app = PaperApp(store=_two_venues(tmp_path))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = main_screen(app)
        highlighted = await _pane_on_another_paper(pilot, screen)
        screen.list_filter.show_query(query.format(id=highlighted))
        await _detail_follows(pilot, screen)
        assert screen.paper_list.highlighted_id == (highlighted if shown == "highlighted" else None)
        if shown == "none":
            assert "no paper is highlighted" in static_text(screen.query_one(PaperDetail))


async def test_a_venue_scope_puts_the_highlighted_paper_in_the_pane(tmp_path: Path) -> None:
    """A venue scope picked that keeps the highlighted paper: the pane shows it."""
    app = PaperApp(store=_two_venues(tmp_path))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = main_screen(app)
        highlighted = await _pane_on_another_paper(pilot, screen)
        venue = venue_name(venue_of(screen.store, highlighted))
        screen.list_filter.set_scope([venue])
        await wait_for(pilot, lambda: screen.list_filter.scope, what="the scope picked")
        await _detail_follows(pilot, screen)
        assert screen.paper_list.highlighted_id == highlighted


async def test_a_reload_puts_the_highlighted_paper_in_the_pane(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogue read again after another process's import (the highlighted paper kept):
    the pane shows it, as it reads now."""
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 0.0)  # the other store saves no search index
    app = PaperApp(store=_two_venues(tmp_path))
    async with app.run_test(size=(200, 60)) as pilot:
        screen = main_screen(app)
        highlighted = await _pane_on_another_paper(pilot, screen)
        Store(tmp_path / "data").import_papers(  # another paperdeck
            [Paper(id="openreview:E", title="Kernel agents", abstract="v", venue="ICLR", year=2026)]
        )
        app.check_catalogue()
        await wait_for(pilot, lambda: "openreview:E" in screen.view_ids(), what="the list read again")
        await _detail_follows(pilot, screen)
        assert screen.paper_list.highlighted_id == highlighted
