"""A query typed before the saved search index is read runs once, when the index is there, on
the event loop (no hop to a thread and back).

The filter's worker waits for the index and then runs the query; the screen, told a little later
that the index is read (the worker's wake-up and that message race), ran the same query once more:
two runs of the first query of a session, at the same time or one after the other, before or
after its list was painted.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from paperdeck.search import searcher
from paperdeck.search.query import Query
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.list_filter import ListFilter
from paperdeck.ui.screens.main import MainScreen

from tests.ui.helpers import SIZE, main_screen, paper_list, settle
from tests.waits import GUARD_S, wait_for


def store_with_a_held_index(seeded: Store, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, threading.Event]:
    """A lazy store over ``seeded`` with its search index saved (as an import leaves it), whose
    reading waits until the event returned is set (``GUARD_S`` at most)."""
    searcher.build_index(seeded)
    release = threading.Event()
    build_index = searcher.build_index

    def held_build_index(*args: Any, **kwargs: Any) -> Any:
        release.wait(GUARD_S)
        return build_index(*args, **kwargs)

    monkeypatch.setattr(searcher, "build_index", held_build_index)
    return Store(seeded.data_dir, lazy=True), release


async def test_a_query_typed_while_the_index_is_read_runs_once(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    runs: list[str] = []
    threads: list[threading.Thread] = []
    query_result = ListFilter._query_result

    def counted(self: ListFilter, query: Query) -> list[str] | str:
        runs.append(self.filter_text)
        threads.append(threading.current_thread())
        return query_result(self, query)

    monkeypatch.setattr(ListFilter, "_query_result", counted)
    index_built = MainScreen._index_built

    told: list[bool] = []

    def told_later(self: MainScreen) -> None:  # the order seen in a real start: the worker first
        def tell() -> None:
            index_built(self)
            told.append(True)

        self.set_timer(0.2, tell)

    monkeypatch.setattr(MainScreen, "_index_built", told_later)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"REAP")
        await pilot.pause()
        assert main_screen(app).searcher.index.built is None
        release.set()
        await wait_for(pilot, lambda: main_screen(app).applied_filter == ("REAP", False))
        await wait_for(pilot, lambda: told, what="the screen told the index is read")
        await settle(pilot)
        assert runs == ["REAP"]
        assert threads == [threading.main_thread()]  # ranked on the event loop, as it is once the index is there
        assert paper_list(app).row_count >= 1


async def test_after_first_frame_calls_once_and_keeps_hooks_laid_over_it() -> None:
    """The hook the screen starts reading the index with: called once, after the first frame
    rendered, and a frame hook installed over it meanwhile (the benchmark's) stays in place."""
    from paperdeck.ui._lines.frames import after_first_frame, watch_frames
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    calls: list[str] = []
    frames: list[object] = []

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("row")

        def on_mount(self) -> None:
            after_first_frame(self.screen, lambda: calls.append("called"))
            watch_frames(self.screen, lambda: "frame", frames.append)

    app = One()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert calls == ["called"] and frames
        seen = len(frames)
        app.query_one(Static).update("row again")
        await pilot.pause()
        await pilot.pause()
        assert calls == ["called"]
        assert len(frames) > seen


async def test_keys_typed_in_a_burst_rank_only_the_last_text(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys arriving together (pasted, or typed at start-up while the screen is busy) rank once,
    the last text: not every shorter text in turn (each ranked and shown before the last); the
    bar's change messages, arriving after the last key, do not set the earlier texts back."""
    searcher.build_index(seeded_store)
    store = Store(seeded_store.data_dir, lazy=True)
    ranked: list[str] = []
    refilter = ListFilter.refilter

    def counted(self: ListFilter) -> None:
        ranked.append(self.filter_text)
        refilter(self)

    monkeypatch.setattr(ListFilter, "refilter", counted)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None)
        await pilot.press("slash")
        bar = app.query_one("#filter")
        ranked.clear()
        for key in "REAP":  # one after the other, no message handled in between
            bar.insert_text_at_cursor(key)  # type: ignore[attr-defined]
        await settle(pilot)
        assert ranked == ["REAP"]
        assert main_screen(app).applied_filter == ("REAP", False)
        for key in "ER":  # typed again, one key at a time: each text ranked
            await pilot.press(key)
        await settle(pilot)
        assert ranked == ["REAP", "REAPE", "REAPER"]
        assert main_screen(app).applied_filter == ("REAPER", False)


async def test_a_key_typed_alone_is_ranked_in_the_frame_that_shows_it(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each key typed alone is ranked at once: no frame shows the bar's new text over the list
    of the text before it."""
    from paperdeck.ui._lines.frames import watch_frames

    searcher.build_index(seeded_store)
    store = Store(seeded_store.data_dir, lazy=True)
    app = PaperApp(store=store)
    frames: list[tuple[str, str]] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.searcher.index.built is not None)
        await pilot.press("slash")
        await settle(pilot)
        bar = app.query_one("#filter")
        watch_frames(screen, lambda: (bar.value, screen.applied_filter[0]), frames.append)  # type: ignore[attr-defined]
        for key in "grap":
            await pilot.press(key)
            await pilot.pause()
        await settle(pilot)
    shown = [frame for frame in frames if frame[0]]
    assert [bar_text for bar_text, _ in shown][-1] == "grap"
    assert {bar_text for bar_text, _ in shown} >= {"g", "gr", "gra", "grap"}
    assert all(bar_text == listed for bar_text, listed in shown), shown


async def test_a_saved_index_is_warmed_once_the_typing_pauses(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-letter queries (with notes, each ranked anew) are warmed once the typing pauses,
    not while the first query typed is ranked and painted."""
    from paperdeck.search.index import SearchIndex

    searcher.build_index(seeded_store)
    store = Store(seeded_store.data_dir, lazy=True)
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", 1.0)
    quiet_before: list[float] = []  # at each warming: seconds since the last key (the app's clock)
    warm = SearchIndex.warm
    app = PaperApp(store=store)

    def timed(self: SearchIndex, queries: Any) -> None:
        quiet_before.append(time.monotonic() - app.last_input_at)
        warm(self, queries)

    monkeypatch.setattr(SearchIndex, "warm", timed)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None)
        await pilot.press("slash")
        for key in "graph neural":  # a key every 0.05 s: no pause (unless the machine makes one)
            await pilot.press(key if key != " " else "space")
            await pilot.pause(0.05)
        await wait_for(pilot, lambda: quiet_before, what="the warming")
        assert quiet_before[0] >= 1.0, quiet_before  # it waited for the typing to pause
        # The start-up work ends (the catalogue parsed, the follows matched) before the app does:
        # a follows match ending while the app closes found the screen emptied (NoMatches).
        await wait_for(
            pilot, lambda: app.store.loaded and all(w.is_finished for w in app.workers), what="the start-up work"
        )


async def test_a_query_typed_while_the_index_is_read_is_ranked_before_the_index_is_handed_out(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The words typed while the saved index is read are ranked by the build itself, before the
    query waiting for the index wakes: it finds its ranking made, and it is made once."""
    from paperdeck.search.index import SearchIndex

    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    app = PaperApp(store=store)
    ranked: list[tuple[str, bool]] = []  # words, and whether the index was handed out then
    search_positions = SearchIndex.search_positions
    ranks = SearchIndex._ranked

    def recorded(self: SearchIndex, query: str) -> Any:
        ranked.append((query.lower(), main_screen(app).searcher.index.built is not None))
        return search_positions(self, query)

    made: list[str] = []

    def counted(self: SearchIndex, query: str, notes: Any = None) -> Any:
        held = self._intersections
        if held is None or tuple(query.lower().split()) not in held[2]:
            made.append(query.lower())
        return ranks(self, query, notes)

    monkeypatch.setattr(SearchIndex, "search_positions", recorded)
    monkeypatch.setattr(SearchIndex, "_ranked", counted)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"REAP")
        await pilot.pause()
        release.set()
        await wait_for(pilot, lambda: main_screen(app).applied_filter == ("REAP", False))
        await settle(pilot)
        assert ranked[0] == ("reap", False)  # by the build, before it handed the index out
        assert [words for words in made if words == "reap"] == ["reap"]
        assert paper_list(app).row_count >= 1


async def test_with_a_saved_index_the_footer_is_mounted_once_the_list_it_ranked_is_painted(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The footer (its keys) waits for the saved index's first list, a query typed at once: its
    mounting and layout do not come before that list; while the index is held, it waits for
    ``FOOTER_BY_S`` at most."""
    from paperdeck.ui.widgets.footer import PaperFooter

    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    monkeypatch.setattr(MainScreen, "FOOTER_BY_S", 30.0)
    footer_at_result: list[int] = []
    show_filtered = ListFilter._show_filtered

    def recorded(self: ListFilter, *args: Any, **kwargs: Any) -> None:
        footer_at_result.append(len(self.screen.query(PaperFooter)))
        show_filtered(self, *args, **kwargs)

    monkeypatch.setattr(ListFilter, "_show_filtered", recorded)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"REAP")
        await pilot.pause(0.2)
        assert not main_screen(app).query(PaperFooter)
        release.set()
        await wait_for(pilot, lambda: bool(main_screen(app).query(PaperFooter)))
        assert footer_at_result == [0]
        assert main_screen(app).applied_filter == ("REAP", False)


async def test_while_the_saved_index_is_held_the_footer_comes_after_footer_by_s(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.ui.widgets.footer import PaperFooter

    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    monkeypatch.setattr(MainScreen, "FOOTER_BY_S", 0.3)
    app = PaperApp(store=store)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: bool(main_screen(app).query(PaperFooter)))
            assert main_screen(app).searcher.index.built is None
    finally:
        release.set()
