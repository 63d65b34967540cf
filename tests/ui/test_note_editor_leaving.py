"""Leaving the note editor in any way with unsaved text asks first: escape, ctrl+q, ctrl+c, the app's
quit key remapped or from the command palette — never a silent loss of the typed note; when the
terminal closes under it (no one left to ask) the text is saved."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from textual.pilot import Pilot
from textual.widgets import TextArea

from tests.ui.helpers import highlighted, started
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


async def press_quit(pilot: Pilot[None], how: str) -> None:
    if how == "palette":  # what the palette's Quit and a remapped quit key run
        await pilot.app.run_action("quit")
    else:
        await pilot.press(how)
    await pilot.pause()


@pytest.mark.parametrize("how", ["ctrl+q", "ctrl+c", "palette"])
async def test_quitting_with_an_unsaved_note_asks_and_keeps_editing(
    make_app: AppFactory, seeded_store: Store, how: str
) -> None:
    async with started(make_app()) as (app, pilot):
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
        await wait_for(
            pilot,
            lambda: Store(seeded_store.data_dir).user_data(target).note == "typed and not saved",
            what="the kept note saved",
        )


@pytest.mark.parametrize("how", ["ctrl+q", "ctrl+c", "palette"])
async def test_quitting_with_an_unsaved_note_quits_once_the_user_says_discard(make_app: AppFactory, how: str) -> None:
    async with started(make_app()) as (app, pilot):
        await pilot.press("n", *"draft")
        await press_quit(pilot, how)
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("how", ["ctrl+q", "ctrl+c", "palette"])
async def test_quitting_with_the_note_unchanged_does_not_ask(make_app: AppFactory, how: str) -> None:
    async with started(make_app()) as (app, pilot):
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        await press_quit(pilot, how)
        assert not app.is_running


async def test_q_in_the_note_editor_is_a_letter(make_app: AppFactory) -> None:
    async with started(make_app()) as (app, pilot):
        await pilot.press("n", "q", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor) and app.is_running
        assert app.screen.query_one(TextArea).text == "q?"


@pytest.mark.usefixtures("hangup_signals_at_default")
@pytest.mark.parametrize("number", [signal.SIGHUP, signal.SIGTERM])
async def test_the_terminal_closing_under_the_editor_saves_the_typed_note(
    make_app: AppFactory, seeded_store: Store, number: signal.Signals
) -> None:
    """SIGHUP (the terminal window closed), SIGTERM (the session ended): no one is left to ask,
    so the text is saved (the terminal found gone by the driver takes the same way:
    ``PaperApp.terminal_gone``)."""
    app = make_app()
    assert signal.getsignal(number) == signal.SIG_DFL
    async with started(app) as (app, pilot):
        target = highlighted(app).id
        await pilot.press("n", *"typed before the window closed")
        await pilot.pause()
        # The app has taken the signal (else it would end the test run).
        assert signal.getsignal(number) not in (signal.SIG_DFL, signal.SIG_IGN, None)
        os.kill(os.getpid(), number)
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert Store(seeded_store.data_dir).user_data(target).note == "typed before the window closed"
    assert signal.getsignal(number) == signal.SIG_DFL  # given back once the app ended


async def test_an_editor_reopened_with_unsaved_text_asks_before_quitting(make_app: AppFactory) -> None:
    """After a save that failed, the editor holds text that is not on disk: unsaved from the start."""
    async with started(make_app()) as (app, pilot):
        app.push_screen(NoteEditor("A paper", "saved note", draft="saved note and more"))
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ConfirmScreen)


async def test_ctrl_c_copies_the_selected_text_and_quits_with_none(make_app: AppFactory) -> None:
    """``ctrl+c`` as a shell user's hand expects: with text selected in the filter bar or the note,
    it copies that text and the app stays; with nothing selected, it quits (Textual's own only
    said how to quit)."""
    async with started(make_app()) as (app, pilot):
        await pilot.press("slash", *"diffusion model", "shift+home")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and app.clipboard == "diffusion model"
        await pilot.press("escape", "escape")  # the filter cleared, back in the list
        await pilot.press("n", *"a note", "shift+home", "ctrl+c")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, NoteEditor) and app.clipboard == "a note"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, NoteEditor), what="the note editor closed")
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
