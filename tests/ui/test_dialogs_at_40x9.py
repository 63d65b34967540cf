"""At the smallest size the app works at (``PaperApp.MIN_SIZE``, 40×9) the dialogs fit: the note
editor shows the text typed into it, the help some of its keys (a tester's find: the note editor
showed only its frame, the help only its title)."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from textual.widgets import TextArea

from tests.ui.helpers import settle
from tests.ui.test_small_terminal import screen_text
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


async def test_the_note_editor_shows_what_is_typed(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=PaperApp.MIN_SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor), what="the note editor")
        await pilot.press(*"xylophone")
        await pilot.pause()
        await wait_for(pilot, lambda: "xylophone" in screen_text(app), what=lambda: screen_text(app))
        assert app.screen.query_one(TextArea).content_region.height >= 1


async def test_the_help_shows_some_keys(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=PaperApp.MIN_SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "paperdeck — keys" in text
        dialog = app.screen.query_one("#help-dialog")
        assert dialog.scrollable_content_region.height >= 5, text
