"""While a query is still searched ("searching…" beside the filter bar), the list on screen is the
last one, not the query's: a key acting on its rows (star, status, mark, remove…) is held, the list
dimmed, and the key runs on the results once they are shown. The tester's ``/"…" rating>=6``,
``⏎ space j space s`` starred three papers of the old list they had never looked at."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.commands import COMMANDS, HELD_ACTIONS
from paperdeck.ui.screens.main import MainScreen
from textual.pilot import Pilot

from tests.ui.helpers import SIZE, counts, main_screen, paper_list, settle
from tests.waits import GUARD_S, wait_for

PAPERS = [
    Paper(id="openreview:A", title="Diffusion sampling fast", abstract="a", decision="oral", ratings=Ratings(7.0)),
    Paper(id="openreview:B", title="Diffusion sampling slow", abstract="b", decision="poster", ratings=Ratings(5.0)),
    Paper(id="openreview:C", title="Graph networks", abstract="c", decision="oral", ratings=Ratings(6.5)),
    Paper(id="openreview:D", title="Graph reviews", abstract="d", decision="withdrawn"),
]
#: The query first shown (C, D), and the one searched slowly (A, B, C): text terms under OR
#: run in a thread (:meth:`ListFilter.may_be_slow`).
FIRST, SLOW = "title:reviews OR title:networks", "title:sampling OR title:networks"


@pytest.fixture
def slow_search(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The search of :data:`SLOW` waits in its thread until the event returned is set."""
    import paperdeck.search.selection as selection

    release = threading.Event()
    run_query = selection.run_query

    def held(searcher, query, *args):  # type: ignore[no-untyped-def]
        if query.text == SLOW:
            release.wait(GUARD_S)
        return run_query(searcher, query, *args)

    monkeypatch.setattr(selection, "run_query", held)
    return release


def _app(tmp_path: Path) -> PaperApp:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return PaperApp(store=store)


@contextlib.asynccontextmanager
async def _running(tmp_path: Path) -> AsyncIterator[tuple[PaperApp, Pilot[None], MainScreen]]:
    """The app on :data:`PAPERS`, settled: the app, its pilot and its main screen."""
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        yield app, pilot, main_screen(app)


async def _search_slowly(pilot: Pilot[None], screen: MainScreen) -> None:
    """Type :data:`SLOW` in the filter bar (over what it held), ``enter``, and wait for the
    search to be under way."""
    await pilot.press("slash", "ctrl+a", "ctrl+k", *SLOW, "enter")
    await wait_for(pilot, lambda: screen.list_filter.stale, what="the slow search under way")


def _starred(app: PaperApp) -> set[str]:
    return {pid for pid, record in app.store.all_user_data.items() if record.starred}


async def test_row_keys_typed_while_searching_wait_for_the_results(
    tmp_path: Path, slow_search: threading.Event
) -> None:
    async with _running(tmp_path) as (app, pilot, screen):
        await pilot.press("slash", *FIRST, "enter")
        await settle(pilot)
        assert screen.view_ids() == ["openreview:C", "openreview:D"]
        await _search_slowly(pilot, screen)
        await pilot.press("space", "j", "space", "s")
        await pilot.pause()
        # Nothing acted on the old list: the keys wait, the list is dimmed, and it is said.
        assert not screen.marked and not _starred(app)
        assert paper_list(app).stale
        assert any("Still filtering" in notice.message for notice in app._notifications)
        assert screen.applied_filter[0] != SLOW  # a prefix's list (quick: ranked at its key)
        slow_search.set()
        await wait_for(pilot, lambda: _starred(app), what="the held star")
        await settle(pilot)
        assert screen.view_ids() == ["openreview:A", "openreview:B", "openreview:C"]
        # space j space: the first and the third result, as if typed after the results came
        assert screen.marked == {"openreview:A", "openreview:C"}
        assert _starred(app) == {"openreview:A", "openreview:C"}
        assert not paper_list(app).stale and not screen.list_filter.stale


async def test_escape_drops_the_held_keys_and_a_changed_filter_too(
    tmp_path: Path, slow_search: threading.Event
) -> None:
    async with _running(tmp_path) as (app, pilot, screen):
        await _search_slowly(pilot, screen)
        await pilot.press("s", "escape")  # the star is dropped, the marks and the filter stay
        await pilot.pause()
        assert any("dropped: escape" in notice.message for notice in app._notifications)
        assert screen.filter_text == SLOW
        slow_search.set()
        await settle(pilot)
        assert screen.view_ids() == ["openreview:A", "openreview:B", "openreview:C"]
        assert not _starred(app)
        # Held for one query, the keys never land on another's list.
        slow_search.clear()
        await pilot.press("slash", "ctrl+a", "ctrl+k", *FIRST, "enter")
        await settle(pilot)
        await _search_slowly(pilot, screen)
        await pilot.press("x", "slash", "ctrl+a", "ctrl+k", *FIRST)
        slow_search.set()
        await settle(pilot)
        assert screen.view_ids() == ["openreview:C", "openreview:D"]
        assert all(record.status == "unseen" for record in app.store.all_user_data.values())
        assert any("the filter changed" in notice.message for notice in app._notifications)


async def test_moves_stay_live_and_the_reading_rows_are_held() -> None:
    """Keys that only move or read run at once on a stale list; every reading-list command that
    changes or takes the rows (status, star, tags, marks, note) is held."""
    assert {"cursor_down", "cursor_up", "read", "reviews", "focus_filter", "leave_filter"}.isdisjoint(HELD_ACTIONS)
    changing = [c for c in COMMANDS if c.owner == "reading" and c.id.startswith(("main.status_", "main.mark"))]
    assert changing and all(c.rows for c in changing)
    assert {"toggle_star", "tags", "edit_note", "remove_papers", "export", "more_like_this"} <= HELD_ACTIONS


@pytest.fixture
def slow_sort(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A sort other than relevance or list order waits in its thread until the event returned is set."""
    import paperdeck.search.selection as selection

    release = threading.Event()
    sort_ids = selection.sort_ids

    def held(store, ids, order):  # type: ignore[no-untyped-def]
        if order not in ("relevance", "list"):
            release.wait(GUARD_S)
        return sort_ids(store, ids, order)

    monkeypatch.setattr(selection, "sort_ids", held)
    return release


async def test_a_sort_under_way_says_sorting_and_holds_the_row_keys(tmp_path: Path, slow_sort: threading.Event) -> None:
    """The tester's ``O`` under load: the counts named the new sort at once while the list kept the
    old order for seconds. They say ``sorting…`` until the list is sorted, and the row keys wait
    for it, as behind a search."""
    async with _running(tmp_path) as (app, pilot, screen):
        assert screen.view_ids() == ["openreview:A", "openreview:B", "openreview:C", "openreview:D"]
        await pilot.press("O", "O", "O")  # relevance → list, title, rating
        await wait_for(pilot, lambda: counts(app).startswith("sorting…"), what="sorting… in the counts")
        assert "by rating" in counts(app) and paper_list(app).stale
        await pilot.press("s", "j", "s")
        await pilot.pause()
        assert not _starred(app)
        assert any("Still sorting" in notice.message for notice in app._notifications)
        slow_sort.set()
        await wait_for(pilot, lambda: len(_starred(app)) == 2, what="the held stars")
        await settle(pilot)
        assert screen.list_filter.order == "rating", counts(app)
        assert screen.view_ids() == ["openreview:A", "openreview:C", "openreview:B", "openreview:D"]
        assert _starred(app) == {"openreview:A", "openreview:C"}, "the first and second rows of the sorted list"
        assert not counts(app).startswith("sorting…") and "by rating" in counts(app)
        # A query's own sort says so too; a query typed meanwhile says searching….
        slow_sort.clear()
        await pilot.press("slash", *"graph", "enter")
        await settle(pilot)
        await pilot.press("O", "O")  # the query ranks by relevance: its own sort, list order, then title
        await wait_for(pilot, lambda: counts(app).startswith("sorting…"), what="the query's sort under way")
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"diffusion")
        await wait_for(pilot, lambda: not counts(app).startswith("sorting…"), what="the new query")
        slow_sort.set()
        await settle(pilot)
        assert not counts(app).startswith(("sorting…", "searching…"))
