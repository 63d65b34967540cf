"""A bulk star can be undone after the app was closed: its step is kept beside the user data, and
``u`` in the next app says what it will undo and asks first; the stars made by hand stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.reading import history
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import UNDO_STEPS_FILE
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.main import MainScreen
from textual.widgets import Label

from tests.ui.helpers import settle
from tests.waits import wait_for

PAPERS = 60  # over the count a bulk change asks first for
BY_HAND = [f"openreview:R{n:03d}" for n in (3, 17)]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"openreview:R{n:03d}", title=f"Paper {n}", abstract="Text.") for n in range(PAPERS)])
    for paper_id in BY_HAND:
        store.set_star(paper_id, True)
    return store.data_dir


def main_of(app: PaperApp) -> MainScreen:
    """The app's main screen, under the progress box or a dialog too."""
    return next(screen for screen in app.screen_stack if isinstance(screen, MainScreen))


def restarted(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> PaperApp:
    """A new app on the store, as after a restart: a new session (another process's)."""
    monkeypatch.setattr(history, "SESSION", history.new_step_id())
    return PaperApp(store=Store(data_dir))


def said(app: PaperApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def starred(data_dir: Path) -> list[str]:
    return sorted(pid for pid, record in Store(data_dir).all_user_data.items() if record.starred)


async def star_every_paper_and_quit(data_dir: Path) -> None:
    """A first app stars every paper in one bulk change (``M``, ``s``, ``y``), then ends."""
    first = PaperApp(store=Store(data_dir))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("M", "s", "y")
        await wait_for(pilot, lambda: len(starred(data_dir)) == PAPERS, what="every paper starred")
        await wait_for(pilot, lambda: main_of(first).history.can_undo, what="the step recorded")
        await settle(pilot)


async def test_a_bulk_star_is_undone_in_the_next_app_with_the_hand_made_stars_kept(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One count everywhere (the papers the step changed): the tester's star of 60 papers, 2
    starred already, said 58 in the question and 60 in "Undone" and "Redone". A step redone in
    this session is this session's: ``u`` then undoes it without asking."""
    await star_every_paper_and_quit(data_dir)

    second = restarted(monkeypatch, data_dir)  # nothing of the first app's session
    changed = PAPERS - len(BY_HAND)
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(second.screen, ConfirmScreen), what="the undo offered")
        question = str(second.screen.query_one("#confirm-question", Label).render())
        assert question == f"Undo: star of {changed} papers (made in another window or an earlier session)?"
        assert len(starred(data_dir)) == PAPERS  # asked first: nothing undone yet
        await pilot.press("y")
        await wait_for(pilot, lambda: starred(data_dir) == BY_HAND, what="the stars as before")
        await settle(pilot)
        assert not main_of(second).history.can_undo
        assert not Store(data_dir).undo_steps.steps()  # taken off with the undo: not offered again
        assert f"Undone: star ({changed} papers)" in said(second)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(starred(data_dir)) == PAPERS, what="the star redone")
        await settle(pilot)
        assert f"Redone: star ({changed} papers)" in said(second)
        await pilot.press("u")  # redone in this session: this session's, undone without asking
        await wait_for(pilot, lambda: starred(data_dir) == BY_HAND, what="the stars as before again")
        assert not isinstance(second.screen, ConfirmScreen)


async def test_an_earlier_step_not_confirmed_changes_nothing(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await star_every_paper_and_quit(data_dir)
    second = restarted(monkeypatch, data_dir)
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(second.screen, ConfirmScreen), what="the undo offered")
        await pilot.press("n")
        await settle(pilot)
        assert len(starred(data_dir)) == PAPERS
        assert main_of(second).history.can_undo
    assert len(Store(data_dir).undo_steps.steps()) == 1


async def test_a_steps_file_that_cannot_be_read_is_said_once_and_kept(data_dir: Path) -> None:
    path = data_dir / "user" / UNDO_STEPS_FILE
    path.write_bytes(b'{"meta": {"1": {"app": "paperdeck", "schema": 2}}, "steps": [{"id": "a"')
    app = PaperApp(store=Store(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        said = [str(n.message) for n in app._notifications if UNDO_STEPS_FILE in str(n.message)]
        assert len(said) == 1 and "not valid JSON" in said[0]
        await pilot.press("u")
        await settle(pilot)
        assert any(str(n.message) == "Nothing to undo." for n in app._notifications)
        await pilot.press("s")  # a change still saves; the file is left as it was
        await wait_for(pilot, lambda: len(starred(data_dir)) == len(BY_HAND) + 1, what="the star saved")
    assert path.read_bytes().endswith(b'"a"')


async def test_an_earlier_step_of_one_paper_names_it(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question of a step of one paper names it, by its title (a README-only tester was asked
    "Undo: mark to-read of 1 paper (…)?", not which)."""
    first = PaperApp(store=Store(data_dir))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("r")  # to-read, on the first paper
        await wait_for(pilot, lambda: main_of(first).history.can_undo, what="the step recorded")
        await settle(pilot)
    second = restarted(monkeypatch, data_dir)
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(second.screen, ConfirmScreen), what="the undo offered")
        question = str(second.screen.query_one("#confirm-question", Label).render())
        assert question.startswith("Undo: ") and "“Paper 0”" in question, question
        assert "1 paper" not in question
