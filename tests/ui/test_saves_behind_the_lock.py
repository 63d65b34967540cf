"""Saves wait for the store's lock behind the UI: while another paperdeck holds it, the keys typed
go where they were typed (a tag's Enter does not block the next keys), the marks show at once,
"saving…" says a save waits, and once the lock is free every save is on disk in the order made;
a save that cannot get the lock in time is one line, and taken back from the screen."""

from __future__ import annotations

import threading

import pytest
from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.prompts import TagPrompt
from textual._context import active_app

from tests.ui.helpers import SIZE, counts, highlighted, main_screen, paper_list, settle
from tests.waits import GUARD_S, LOCK_WAIT_S, wait_for


@pytest.fixture(autouse=True)
def _saves_at_once() -> None:
    """The UI's own wait for a save (``SaveQueue.AT_ONCE_S``): these tests hold the store's lock
    while they type, and wait for each save they assert on."""


def _lock(store: Store) -> FileLock:
    """The store's user-data lock, as another paperdeck takes it (a file lock of its own)."""
    store.user_dir.mkdir(mode=0o700, exist_ok=True)
    return FileLock(store.user_dir / ".lock", timeout=1.0)


async def test_keys_typed_while_the_store_is_locked_land_where_typed_and_saves_keep_their_order(
    seeded_store: Store,
) -> None:
    # The saves wait for the lock as long as the test holds it (its 10 s ran out while a loaded
    # machine typed the keys: the first save failed and was taken back).
    seeded_store._user._lock.timeout = LOCK_WAIT_S
    app = PaperApp(store=seeded_store)
    other = _lock(seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        ids = [paper_list(app).highlighted_id]
        other.acquire()
        try:
            await pilot.press("T", *"ujt", "enter")  # a tag on the first paper…
            await pilot.press("j", "T", *"tui8", "enter")  # …the next keys: the next paper, its own tag
            ids.append(highlighted(app).id)
            await pilot.press("j", "s", "s", "s", "r")  # the third: star, unstar, star, read
            ids.append(highlighted(app).id)
            await pilot.pause()
            assert not isinstance(app.screen, TagPrompt) and app.screen is screen
            assert len(set(ids)) == 3
            # Shown at once, though nothing is written yet.
            shown = [screen.user_data_shown(pid) for pid in ids]
            assert [s.tags for s in shown[:2]] == [("ujt",), ("tui8",)]
            assert shown[2].starred and shown[2].status == "read"
            assert all(not seeded_store.user_data(pid).tags for pid in ids)
            assert not seeded_store.user_data(ids[2]).starred
            await wait_for(pilot, lambda: "saving…" in counts(app), what=lambda: f"saving… in {counts(app)!r}")
        finally:
            other.release()
        await wait_for(pilot, lambda: not screen.saves.pending, what="the saves written")
        await settle(pilot)
        on_disk = Store(seeded_store.data_dir)
        assert [on_disk.user_data(pid).tags for pid in ids[:2]] == [("ujt",), ("tui8",)]
        record = on_disk.user_data(ids[2])
        assert record.starred and record.status == "read"  # star, unstar, star: in that order
        assert "saving…" not in counts(app)
        assert not [n for n in app._notifications if n.severity == "error"]
        await pilot.press("u", "u")  # each save is a step of its own: read, then the last star
        await wait_for(pilot, lambda: not screen.saves.pending, what="the undos written")
        record = seeded_store.user_data(ids[2])
        assert not record.starred and record.status == "unseen"


async def test_a_save_that_cannot_get_the_lock_is_one_line_and_taken_back(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = seeded_store._user._lock
    lock.timeout = 1.5  # another paperdeck holds the lock for longer than this
    # The save gives up only once the test has seen the star shown (a loaded machine ran the
    # 1.5 s out before the keys were handled: the star was already taken back).
    may_give_up = threading.Event()
    acquire = lock.acquire

    def acquire_or_give_up_when_told() -> None:
        try:
            acquire()
        except LockTimeout:
            may_give_up.wait(GUARD_S)
            raise

    monkeypatch.setattr(lock, "acquire", acquire_or_give_up_when_told)
    app = PaperApp(store=seeded_store)
    other = _lock(seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        paper = highlighted(app).id
        other.acquire()
        try:
            await pilot.press("s", "j")
            assert screen.user_data_shown(paper).starred  # shown at once
            may_give_up.set()
            await wait_for(
                pilot,
                lambda: any(n.severity == "error" for n in app._notifications),
                what="the failure said",
            )
        finally:
            other.release()
        await settle(pilot)
        errors = [str(n.message) for n in app._notifications if n.severity == "error"]
        assert len(errors) == 1 and "\n" not in errors[0] and "locked" in errors[0]
        assert not screen.user_data_shown(paper).starred and not seeded_store.user_data(paper).starred
        assert highlighted(app).id != paper  # the key after it moved on


async def test_a_save_written_behind_the_ui_is_told_inside_the_app(seeded_store: Store) -> None:
    """The outcome of a save the writing thread finishes is told on the event loop in the app's
    context: what it runs may look the app up and set a timer that fires (from the thread's empty
    context, Textual's lookup failed and such a timer died at its first tick)."""
    app = PaperApp(store=seeded_store)
    other = _lock(seeded_store)
    told: list[object] = []
    fired: list[bool] = []

    def finished(changes: object, error: object) -> None:
        told.append(active_app.get())
        app.set_timer(0.01, lambda: fired.append(True))

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        paper = highlighted(app).id
        other.acquire()
        try:
            screen.saves.submit([paper], lambda record: record.replaced(starred=True), finished)
            assert not told  # held by the lock: told later, from the thread
        finally:
            other.release()
        await wait_for(pilot, lambda: fired, what=lambda: f"the timer set when told (told: {told})")
        assert told == [app]
        assert Store(seeded_store.data_dir).user_data(paper).starred
