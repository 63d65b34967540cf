"""A worker's result for a screen that was dismissed while the worker ran is dropped, not shown
on the screen's removed widgets: a views count told after escape closed the views list would
look its list up (``NoMatches``) and fail the worker, which ends the app. A notification told
through the dismissed screen still shows: it is the app's."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from paperdeck.search.views import View
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.views import ViewsScreen
from textual.pilot import Pilot

from tests.ui.helpers import SIZE, settle
from tests.waits import wait_for

VIEW = View(name="Orals", query="decision:oral")


async def _dismissed(app: PaperApp, pilot: Pilot[Any]) -> ViewsScreen:
    screen = ViewsScreen([VIEW], lambda view: 1, lambda name: [VIEW])
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen, what="the views list")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not screen.is_attached, what="the list closed")
    return screen


async def test_a_count_told_after_the_views_list_closed_is_dropped(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _dismissed(app, pilot)
        said = await asyncio.to_thread(app.call_from_thread, screen._counted, VIEW.name, 3)
        assert said is None
        assert app.is_running and app._exception is None


async def test_a_notification_told_through_a_dismissed_screen_still_shows(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await _dismissed(app, pilot)
        await asyncio.to_thread(app.call_from_thread, screen.notify, "the views file could not be read")
        await wait_for(
            pilot,
            lambda: any("could not be read" in str(n.message) for n in app._notifications),
            what="the notification",
        )
