"""A key pressed right after start-up is never lost.

The list paints from the rows cache; with a saved search index the catalogue is parsed only once
the typing pauses (``MainScreen.PARSE_AFTER_INPUT_S``). A key whose action needs the whole paper
(enter reads it, ``R`` shows its reviews, ``a`` follows one of its authors), pressed before that,
used to be dropped with "Still reading the catalogue…": the end-to-end test's second start lost
its enter in about one run in five. It now parses the catalogue at once and acts on the paper
highlighted when it was pressed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from paperdeck.search.searcher import build_index
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.follow_dialogs import AuthorPicker
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.reader import PaperReader

from tests.ui.helpers import SIZE, main_screen, paper_list
from tests.waits import wait_for, wait_until

#: Longer than any test here (so only the key itself can start the parse, however loaded the
#: machine): a worker still waiting for it when the app closes must stop, not wait it out.
PAUSE_S = 3600.0


@pytest.fixture
def lazy_store(seeded_store: Store) -> Store:
    """The seeded store opened as ``paperdeck`` opens it: its rows only, a search index saved."""
    build_index(seeded_store)
    store = Store(seeded_store.data_dir, lazy=True)
    assert not store.loaded
    return store


def _reading(app: PaperApp) -> bool:
    return isinstance(app.screen, PaperReader)


def _following_an_author(app: PaperApp) -> bool:
    """The author picker, or (the seed lists name no authors) the line saying there are none."""
    told = any("names no authors" in notice.message for notice in app._notifications)
    return isinstance(app.screen, AuthorPicker) or told


@pytest.mark.parametrize(("key", "acted"), [("enter", _reading), ("a", _following_an_author)])
async def test_a_key_needing_the_paper_before_the_catalogue_is_parsed_is_kept(
    lazy_store: Store, monkeypatch: pytest.MonkeyPatch, key: str, acted: Callable[[PaperApp], bool]
) -> None:
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", PAUSE_S)
    app = PaperApp(store=lazy_store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None, what="the saved index")
        assert not lazy_store.loaded  # the typing has not paused for PAUSE_S yet
        highlighted = paper_list(app).highlighted_id
        await pilot.press(key)
        await pilot.press("j")  # pressed meanwhile: the paper acted on is the one highlighted at the key
        await wait_for(pilot, lambda: acted(app), what=f"{key!r}, lost")
        assert lazy_store.loaded
        if isinstance(app.screen, PaperReader):
            assert app.screen.paper.id == highlighted


async def test_quitting_right_after_start_up_does_not_wait_for_the_deferred_parse(
    lazy_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up worker waiting for a pause in the typing (then to parse the catalogue and
    count the statistics) stops when the app closes: the process used to stay seconds after
    ``q`` for that worker thread, which Python joins at exit."""
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", PAUSE_S)
    app = PaperApp(store=lazy_store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None, what="the saved index")
        await pilot.press("q")
    loop = asyncio.get_running_loop()
    # What asyncio.run does at the end: join the worker threads. A worker still waiting for the
    # typing to pause would hold it for PAUSE_S (an hour): the guard fails the test long before.
    joined = asyncio.ensure_future(loop.shutdown_default_executor())
    await wait_until(joined.done, what="the start-up worker to stop once the app closed")
    assert not lazy_store.loaded  # nothing parsed for an app that is gone
