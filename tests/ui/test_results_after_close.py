"""A worker's result that reaches the event loop once the app has begun to close is dropped,
not shown on screens whose widgets are being removed (stop 45's CI: a catalogue reload that
finished while the app ended raised ``NoMatches`` for the paper list, from the worker)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp
from textual import events

from tests.ui.helpers import SIZE, main_screen, settle


async def test_a_reload_told_after_the_app_began_to_close_is_dropped(
    make_app: Callable[..., PaperApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    shown: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        monkeypatch.setattr(main_screen(app), "catalogue_reloaded", shown.append)  # it queries the widgets
        # What ``App._shutdown`` leaves while it prunes the screens: the app no longer running,
        # the main screen still on the stack (its widgets being removed).
        app._running = False
        try:
            said = await asyncio.to_thread(app.call_from_thread, app._catalogue_reloaded, True, 0, ["openreview:new"])
        finally:
            app._running = True
        assert said is None
        assert shown == []
        assert not any("The catalogue changed on disk" in str(n.message) for n in app._notifications)


async def test_a_result_told_while_the_app_runs_is_shown(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.store.paper_count
        said = await asyncio.to_thread(app.call_from_thread, app._catalogue_reloaded, True, before, [])
        await settle(pilot)
        assert said is None
        assert any("The catalogue changed on disk" in str(n.message) for n in app._notifications)


async def test_a_key_that_reaches_the_app_after_it_began_to_close_is_dropped(make_app: Callable[..., PaperApp]) -> None:
    """A key still on its way (bubbled back from the screen to the app) when the app begins to
    close is dropped: its bindings are looked up on the screens being pruned (``q`` pressed as a
    Pilot test ended, on a loaded machine: ``ScreenStackError: No screens on stack``)."""
    from paperdeck.ui.screens.help import HelpScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screens = list(app.screen_stack)
        key = events.Key("question_mark", "?")  # an app binding: the help screen
        key._set_forwarded()  # as the screen hands a key it did not take back to the app
        app._running = False  # what ``App._shutdown`` does first
        try:
            await app.on_event(key)
        finally:
            app._running = True
        assert app.screen_stack == screens and not isinstance(app.screen, HelpScreen)
