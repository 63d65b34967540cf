"""Leaving the note editor in any way with unsaved text asks first: escape, ctrl+q, the app's
quit key remapped or from the command palette — never a silent loss of the typed note."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from textual.pilot import Pilot
from textual.widgets import TextArea

from tests.ui.conftest import SIZE, highlighted, settle

AppFactory = Callable[..., PaperApp]


async def press_quit(pilot: Pilot[None], how: str) -> None:
    if how == "palette":  # what the palette's Quit and a remapped quit key run
        await pilot.app.run_action("quit")
    else:
        await pilot.press(how)
    await pilot.pause()


@pytest.mark.parametrize("how", ["ctrl+q", "palette"])
async def test_quitting_with_an_unsaved_note_asks_and_keeps_editing(
    make_app: AppFactory, seeded_store: Store, how: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("n", *"typed and not saved")
        await press_quit(pilot, how)
        assert app.is_running
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "typed and not saved"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert Store(seeded_store.data_dir).user_data(target).note == "typed and not saved"


@pytest.mark.parametrize("how", ["ctrl+q", "palette"])
async def test_quitting_with_an_unsaved_note_quits_once_the_user_says_discard(make_app: AppFactory, how: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", *"draft")
        await press_quit(pilot, how)
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("how", ["ctrl+q", "palette"])
async def test_quitting_with_the_note_unchanged_does_not_ask(make_app: AppFactory, how: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        await press_quit(pilot, how)
        assert not app.is_running


async def test_q_in_the_note_editor_is_a_letter(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "q", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor) and app.is_running
        assert app.screen.query_one(TextArea).text == "q?"
