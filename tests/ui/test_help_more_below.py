"""The help is longer than an 80×24 terminal shows: a line at the dialog's foot says more is
below until it is scrolled to its end; a help that fits says nothing."""

from __future__ import annotations

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.help import MORE_BELOW, HelpScreen
from textual.containers import VerticalScroll
from textual.widgets import Label

from tests.ui.helpers import settle


def _hint(screen: HelpScreen) -> str:
    return str(screen.query_one("#help-more", Label).render())


@pytest.mark.parametrize("size", [(80, 24), (200, 60), (200, 300)])
async def test_the_help_says_when_more_is_below(seeded_store: Store, size: tuple[int, int]) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        dialog = screen.query_one("#help-dialog", VerticalScroll)
        await pilot.pause()
        fits = dialog.max_scroll_y == 0
        assert fits == (size == (200, 300)), dialog.max_scroll_y  # 80×24 and 200×60 do not fit it
        assert _hint(screen) == ("" if fits else MORE_BELOW)
        await pilot.press("G")
        await pilot.pause()
        assert _hint(screen) == ""  # at the end: nothing more below
        await pilot.press("g")
        await pilot.pause()
        assert _hint(screen) == ("" if fits else MORE_BELOW)
