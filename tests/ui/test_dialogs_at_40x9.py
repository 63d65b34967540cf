"""At the smallest size the app works at (``PaperApp.MIN_SIZE``, 40×9) the dialogs fit: the note
editor shows the text typed into it, the help some of its keys (a tester's find: the note editor
showed only its frame, the help only its title)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import TextArea

from tests.ui.helpers import settle
from tests.ui.test_small_terminal import screen_text
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


@asynccontextmanager
async def _opened_at_min_size(
    make_app: AppFactory, key: str, dialog: type[Screen[Any]]
) -> AsyncIterator[tuple[PaperApp, Pilot[None]]]:
    """The app at ``PaperApp.MIN_SIZE`` once ``key`` has opened ``dialog`` on its main screen."""
    app = make_app()
    async with app.run_test(size=PaperApp.MIN_SIZE) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, dialog), what=dialog.__name__)
        yield app, pilot


async def test_the_note_editor_shows_what_is_typed(make_app: AppFactory) -> None:
    async with _opened_at_min_size(make_app, "n", NoteEditor) as (app, pilot):
        await pilot.press(*"xylophone")
        await pilot.pause()
        await wait_for(pilot, lambda: "xylophone" in screen_text(app), what=lambda: screen_text(app))
        assert app.screen.query_one(TextArea).content_region.height >= 1


async def test_the_help_shows_some_keys(make_app: AppFactory) -> None:
    async with _opened_at_min_size(make_app, "question_mark", HelpScreen) as (app, pilot):

        def rows_shown() -> int:
            dialog = app.screen.query_one_optional("#help-dialog")
            return dialog.scrollable_content_region.height if dialog is not None else 0

        await wait_for(
            pilot, lambda: "paperdeck — keys" in screen_text(app) and rows_shown() >= 5, what=lambda: screen_text(app)
        )
        text = screen_text(app)
        assert "paperdeck — keys" in text
        dialog = app.screen.query_one("#help-dialog")
        assert dialog.scrollable_content_region.height >= 5, text
