"""Another paperdeck takes the highlighted paper away (an import that removes it, or a change of
the user data under a list that reads it): the highlight goes to its neighbour, a notice says so,
and a key pressed for that paper never acts on the neighbour unseen (a key held for the reloading
list, a key before the moved highlight is painted: dropped, and said)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.list_filter import ListFilter

from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import GUARD_S, wait_for

PAPERS = [Paper(id=f"abs:{n}", title=f"Paper number {n}", abstract=f"Abstract {n}.") for n in range(5)]


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every notice the app gives (a toast expires before a loaded machine's test looks)."""
    messages: list[str] = []
    notify = PaperApp.notify

    def kept(self: PaperApp, message: str, *args: Any, **kwargs: Any) -> None:
        messages.append(str(message))
        notify(self, message, *args, **kwargs)

    monkeypatch.setattr(PaperApp, "notify", kept)
    return messages


def _app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PaperApp:
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 0.0)  # the other store saves no search index
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return PaperApp(store=store)


async def _highlight_third(pilot: Any) -> None:
    await settle(pilot)
    await pilot.press("down", "down")
    await settle(pilot)
    assert highlighted(pilot.app).id == "abs:2"


async def test_a_paper_removed_elsewhere_leaves_the_highlight_on_its_neighbour_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: list[str]
) -> None:
    app = _app(tmp_path, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await _highlight_third(pilot)
        Store(tmp_path / "data").remove_papers(["abs:2"])  # another paperdeck
        app.check_catalogue()
        screen = main_screen(app)
        await wait_for(pilot, lambda: "abs:2" not in screen.view_ids(), what="the list read again")
        await settle(pilot)
        assert highlighted(app).id == "abs:3"  # its neighbour, not the first paper
        told = [m for m in said if "highlighted paper was removed by another paperdeck" in m]
        assert len(told) == 1 and "\n" not in told[0], said


async def test_a_key_pressed_for_the_removed_paper_is_dropped_not_run_on_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: list[str]
) -> None:
    app = _app(tmp_path, monkeypatch)
    go_on = threading.Event()
    sorted_ids = ListFilter._sorted

    def held_back(self: ListFilter, ids: list[str]) -> list[str]:  # the reload's list, in a thread
        go_on.wait(GUARD_S)
        return sorted_ids(self, ids)

    async with app.run_test(size=SIZE) as pilot:
        await _highlight_third(pilot)
        screen = main_screen(app)
        monkeypatch.setattr(ListFilter, "_sorted", held_back)
        Store(tmp_path / "data").remove_papers(["abs:2"])
        app.check_catalogue()
        await wait_for(pilot, lambda: screen.list_filter.stale, what="the reload's list pending")
        await pilot.press("s")  # for abs:2, still highlighted on the stale list
        go_on.set()
        await wait_for(pilot, lambda: "abs:2" not in screen.view_ids(), what="the list read again")
        await settle(pilot)
        assert not any(app.store.user_data(pid).starred for pid in app.store.paper_ids), "a paper not chosen"
        assert highlighted(app).id == "abs:3"
        assert any("removed by another paperdeck" in m and "1 key pressed for it dropped" in m for m in said), said


async def test_a_row_key_before_the_moved_highlight_is_painted_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: list[str]
) -> None:
    app = _app(tmp_path, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await _highlight_third(pilot)
        screen = main_screen(app)
        screen.held_keys.highlight_moved("abs:2")  # as the list shown after the reload tells it
        assert await app.run_action("toggle_star", screen)  # the same frame: not run
        assert not app.store.user_data("abs:2").starred
        assert any("A key was dropped" in m for m in said), said
        await settle(pilot)  # painted: the keys act again
        await pilot.press("s")
        await settle(pilot)
        assert app.store.user_data(highlighted(app).id).starred


async def test_a_paper_another_paperdeck_takes_out_of_the_list_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: list[str]
) -> None:
    app = _app(tmp_path, monkeypatch)
    for pid in ("abs:1", "abs:2", "abs:3"):
        app.store.set_star(pid, True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("slash", *"is:starred", "enter", "down")
        await settle(pilot)
        assert list(screen.view_ids()) == ["abs:1", "abs:2", "abs:3"] and highlighted(app).id == "abs:2"
        Store(tmp_path / "data").set_star("abs:2", False)  # another paperdeck
        screen.check_external_changes()  # what the 2 s timer does
        await wait_for(pilot, lambda: "abs:2" not in screen.view_ids(), what="the starred list again")
        await settle(pilot)
        assert highlighted(app).id == "abs:3"
        assert any("highlighted paper left the list: another paperdeck changed it" in m for m in said), said
        await pilot.press("s")  # painted since: the key acts, on the paper shown highlighted
        await settle(pilot)
        assert not app.store.user_data("abs:3").starred
