"""A change to thousands of papers and its undo and redo: written in a worker under the progress
screen while the event loop keeps answering; the list repaints the rows on screen once (not one
repaint per paper); a key for another change pressed meanwhile is refused with a message, never
applied late."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.progress import ProgressScreen
from paperdeck.ui.widgets.paper_list import PaperList
from textual import events
from textual.pilot import Pilot
from textual.widgets import Label

from tests.ui.helpers import settle

PAPERS = 5_000


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
    """Counts the event loop's answers while a bulk change is written: as each shard of the change
    (one :meth:`Store.change`, in its worker thread) is staged, the thread asks the event loop a
    question and waits for the answer: whether the progress screen is up, and how many papers it
    counts done. A change written on the event loop could get no answer (``call_from_thread``
    refuses to be called from the loop's own thread): counted work, not a time, so a loaded
    machine passes."""

    def __init__(self, app: PaperApp, monkeypatch: pytest.MonkeyPatch) -> None:
        self.app = app
        self.answers: list[int | None] = []  # per shard: the papers the progress screen counted done
        self.on_the_loop = 0  # changes written on the event loop's own thread
        change = Store.change

        def answered(
            store: Store,
            paper_ids: Iterable[str],
            how: Callable[[UserData], UserData],
            progress: Callable[[int], None] | None = None,
            step: StepEdit | None = None,
        ) -> Any:
            if threading.current_thread() is threading.main_thread():
                self.on_the_loop += 1
                return change(store, paper_ids, how, progress, step=step)

            def asked(papers: int) -> None:
                self.answers.append(app.call_from_thread(self._progress_done))
                if progress is not None:
                    progress(papers)

            return change(store, paper_ids, how, asked, step=step)

        monkeypatch.setattr(Store, "change", answered)

    def _progress_done(self) -> int | None:
        screen = self.app.screen
        return screen.done if isinstance(screen, ProgressScreen) else None

    @contextmanager
    def watching(self) -> Iterator[None]:
        self.answers, self.on_the_loop = [], 0
        yield
        assert self.on_the_loop == 0, f"{self.on_the_loop} changes were written on the event loop"
        assert len(self.answers) >= 2, f"the change was counted in {len(self.answers)} steps"
        assert None not in self.answers, f"the progress screen was down while the change ran: {self.answers}"
        assert self.answers == sorted(self.answers) and self.answers[-1], (
            f"the progress did not count up between batches: {self.answers}"
        )


async def star_all(pilot: Pilot[None]) -> None:
    await pilot.press("M", "s", "y")
    await settle(pilot)


async def test_bulk_star_and_its_undo_and_redo_run_under_progress_and_keep_the_loop_answering(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = PaperApp(store=big_store)
    watch = Watch(app, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        with watch.watching():
            await star_all(pilot)
        assert starred_on_disk(big_store) == PAPERS
        for key, starred in (("u", 0), ("ctrl+r", PAPERS)):
            with watch.watching():
                await pilot.press(key)
                await settle(pilot)
            assert starred_on_disk(big_store) == starred, key


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


async def test_the_progress_of_an_undo_names_the_step(big_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    app = PaperApp(store=big_store)
    heads: list[str] = []  # the head of the progress screen, as the undo's write starts
    change = Store.change

    def head_seen(
        store: Store,
        paper_ids: Iterable[str],
        how: Callable[[UserData], UserData],
        progress: Callable[[int], None] | None = None,
        step: StepEdit | None = None,
    ) -> Any:
        def head() -> str:
            found = app.screen.query("#progress-what") if isinstance(app.screen, ProgressScreen) else None
            return str(found.first(Label).render()) if found else ""

        heads.append(app.call_from_thread(head))
        return change(store, paper_ids, how, progress, step=step)

    monkeypatch.setattr(Store, "change", head_seen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await star_all(pilot)
        heads.clear()
        app.post_message(events.Key("u", None))
        await settle(pilot)
        assert heads and set(heads) == {f"Undoing: star ({PAPERS:,} papers)"}
