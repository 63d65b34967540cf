"""A change to thousands of papers and its undo and redo: written in a worker under the progress
screen while the event loop keeps answering; the list repaints the rows on screen once (not one
repaint per paper); a key for another change pressed meanwhile is refused with a message, never
applied late."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.progress import ProgressScreen
from paperdeck.ui.widgets.paper_list import PaperList
from textual import events
from textual.pilot import Pilot
from textual.widgets import Label

from tests.ui.conftest import settle

PAPERS = 5_000
#: The longest the event loop may go without answering while a change is written.
ANSWERS_WITHIN_S = 0.5


@pytest.fixture
def big_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(
        [Paper(id=f"openreview:P{n:05d}", title=f"Paper number {n}", abstract="An abstract.") for n in range(PAPERS)]
    )
    return store


def starred_on_disk(store: Store) -> int:
    return sum(record.starred for record in Store(store.data_dir).all_user_data.values())


class Watch:
    """Samples the event loop every few milliseconds: the longest gap between two samples and
    whether the progress screen was up at any of them."""

    def __init__(self, app: PaperApp) -> None:
        self.app = app
        self.longest = 0.0
        self.saw_progress = False

    @asynccontextmanager
    async def watching(self) -> AsyncIterator[None]:
        self.longest, self.saw_progress = 0.0, False
        running = True

        async def sample() -> None:
            last = time.perf_counter()
            while running:
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                self.longest = max(self.longest, now - last)
                last = now
                self.saw_progress |= isinstance(self.app.screen, ProgressScreen)

        task = asyncio.create_task(sample())
        try:
            yield
        finally:
            running = False
            await task


async def star_all(pilot: Pilot[None]) -> None:
    await pilot.press("M", "s", "y")
    await settle(pilot)


async def test_bulk_star_and_its_undo_and_redo_run_under_progress_and_keep_the_loop_answering(
    big_store: Store,
) -> None:
    app = PaperApp(store=big_store)
    watch = Watch(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        async with watch.watching():
            await star_all(pilot)
        assert starred_on_disk(big_store) == PAPERS
        assert watch.saw_progress
        assert watch.longest < ANSWERS_WITHIN_S, f"the event loop stalled {watch.longest:.2f} s"
        for key, starred in (("u", 0), ("ctrl+r", PAPERS)):
            async with watch.watching():
                await pilot.press(key)
                await settle(pilot)
            assert starred_on_disk(big_store) == starred
            assert watch.saw_progress, f"{key}: no progress shown"
            assert watch.longest < ANSWERS_WITHIN_S, f"{key}: the event loop stalled {watch.longest:.2f} s"


async def test_a_bulk_change_repaints_the_rows_on_screen_once(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    repainted: list[str] = []
    monkeypatch.setattr(PaperList, "refresh_paper", lambda self, paper_id: repainted.append(paper_id))
    app = PaperApp(store=big_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await star_all(pilot)
        await pilot.press("u")
        await settle(pilot)
        assert starred_on_disk(big_store) == 0
        assert len(repainted) < 100  # not one repaint per paper changed


async def test_a_key_for_another_change_during_an_undo_is_refused_with_a_message(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = PaperApp(store=big_store)
    said: list[str] = []  # what was said, kept: on a loaded machine the undo outlasts the toast
    notify = app.notify

    def recorded(message: str, *args: Any, **kwargs: Any) -> None:
        said.append(str(message))
        notify(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", recorded)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await star_all(pilot)
        for key in ("u", "ctrl+r", "s"):  # typed at once, as a terminal delivers them: redo and star
            app.post_message(events.Key(key, None))  # arrive while the undo is written
        await settle(pilot)
        assert starred_on_disk(big_store) == 0  # the undo, and nothing after it
        assert any("when it is done" in message for message in said)
        await pilot.press("ctrl+r")  # once it is done, the redo is still there
        await settle(pilot)
        assert starred_on_disk(big_store) == PAPERS


async def test_the_progress_of_an_undo_names_the_step(big_store: Store) -> None:
    app = PaperApp(store=big_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await star_all(pilot)
        heads: list[str] = []
        app.post_message(events.Key("u", None))
        for _ in range(400):
            await asyncio.sleep(0.005)
            found = app.screen.query("#progress-what") if isinstance(app.screen, ProgressScreen) else None
            if found:
                heads.append(str(found.first(Label).render()))
                break
        await settle(pilot)
        assert heads == [f"Undoing: star ({PAPERS:,} papers)"]
