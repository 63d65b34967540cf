"""Quitting while a change to many papers is written (a bulk star over every shard): the change is
made whole, never cut short. ``q``, ``ctrl+c`` (twice, too) and a hang-up (SIGHUP) say "Saving N
papers…", wait for the write, record its undo step, then end the app; the store reopened holds
every paper starred.

The write is held at its first shard (a :class:`threading.Event` in ``UserStore._write_shard``, in
the writing thread) until the quit keys have been handled: counted events, never a sleep."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, UserStore, doc_id_for
from paperdeck.ui import save_failures
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import main_screen, settle
from tests.waits import GUARD_S, wait_for

PAPERS = 1_200  # every one of the 64 shards holds some


@pytest.fixture
def big_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(
        [Paper(id=f"openreview:Q{n:05d}", title=f"Paper number {n}", abstract="An abstract.") for n in range(PAPERS)]
    )
    assert len({doc_id_for(f"openreview:Q{n:05d}") % SHARDS for n in range(PAPERS)}) == SHARDS
    return store


class HeldWrite:
    """Holds the bulk change's first shard write (in its thread) until :meth:`release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.holding = threading.Event()
        self.released = threading.Event()
        write_shard = UserStore._write_shard

        def held(store: UserStore, *args: Any, **kwargs: Any) -> None:
            if threading.current_thread() is not threading.main_thread() and not self.holding.is_set():
                self.holding.set()
                assert self.released.wait(GUARD_S), "the held write was never released"
            write_shard(store, *args, **kwargs)

        monkeypatch.setattr(UserStore, "_write_shard", held)


def counted(monkeypatch: pytest.MonkeyPatch, name: str, times: int, then: Callable[[], None]) -> None:
    """Call ``then`` once ``PaperApp.<name>`` has run ``times`` times (after the last returns)."""
    original = getattr(PaperApp, name)
    calls = [0]

    def after(calls_seen: int) -> None:
        if calls_seen == times:
            then()

    if name == "terminal_gone":

        def wrapped_sync(self: PaperApp) -> None:
            original(self)
            calls[0] += 1
            after(calls[0])

        monkeypatch.setattr(PaperApp, name, wrapped_sync)
    else:

        async def wrapped(self: PaperApp, *args: Any) -> None:
            await original(self, *args)
            calls[0] += 1
            after(calls[0])

        monkeypatch.setattr(PaperApp, name, wrapped)


def said(app: PaperApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    messages: list[str] = []
    notify = app.notify

    def recorded(message: str, *args: Any, **kwargs: Any) -> None:
        messages.append(str(message))
        notify(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", recorded)
    show = save_failures.show_notification

    def shown(shown_by: Any, notification: Any) -> None:  # a "Not saved" toast, withdrawn by a later save
        messages.append(str(notification.message))
        show(shown_by, notification)

    monkeypatch.setattr(save_failures, "show_notification", shown)
    return messages


def starred_on_disk(store: Store) -> int:
    return sum(record.starred for record in Store(store.data_dir).all_user_data.values())


@pytest.mark.parametrize("keys", [("q",), ("q", "q"), ("ctrl+c", "ctrl+c"), ("q", "ctrl+c")])
async def test_quitting_during_a_bulk_star_saves_it_whole_and_records_its_undo_step(
    big_store: Store, monkeypatch: pytest.MonkeyPatch, keys: tuple[str, ...]
) -> None:
    held = HeldWrite(monkeypatch)
    app = PaperApp(store=big_store)
    messages = said(app, monkeypatch)
    # each quit key ends in action_quit (ctrl+c with nothing selected too)
    counted(monkeypatch, "action_quit", len(keys), held.released.set)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("M", "s", "y")
        await wait_for(pilot, held.holding.is_set, what="the bulk star's first shard write")
        for key in keys:
            await pilot.press(key)
        await wait_for(pilot, lambda: not app.is_running, what="the app to end once the star is written")
    assert held.released.is_set()
    assert starred_on_disk(big_store) == PAPERS
    assert any(message.startswith(f"Saving {PAPERS:,} papers") for message in messages), messages
    step = screen.history.next_step(undo=True)
    assert step is not None and step.said == f"star ({PAPERS:,} papers)"
    assert len(step.changes) == PAPERS
    assert app.return_code == 0


@pytest.mark.usefixtures("hangup_signals_at_default")
async def test_a_hangup_during_a_bulk_star_saves_it_whole(big_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldWrite(monkeypatch)
    app = PaperApp(store=big_store)
    counted(monkeypatch, "terminal_gone", 1, held.released.set)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("M", "s", "y")
        await wait_for(pilot, held.holding.is_set, what="the bulk star's first shard write")
        os.kill(os.getpid(), signal.SIGHUP)
        await wait_for(pilot, lambda: not app.is_running, what="the app to end once the star is written")
    assert held.released.is_set()
    assert starred_on_disk(big_store) == PAPERS
    step = screen.history.next_step(undo=True)
    assert step is not None and len(step.changes) == PAPERS


def failing_at_the_third_shard(monkeypatch: pytest.MonkeyPatch) -> HeldWrite:
    """The bulk change's shard writes: the first held (:class:`HeldWrite`), the third failing."""
    write_shard = UserStore._write_shard
    calls = [0]

    def third_fails(store: UserStore, *args: Any, **kwargs: Any) -> None:
        calls[0] += 1
        if calls[0] == 3:
            raise StoreError(store.directory, "the disk is full; nothing was changed")
        write_shard(store, *args, **kwargs)

    monkeypatch.setattr(UserStore, "_write_shard", third_fails)
    return HeldWrite(monkeypatch)


async def test_a_quit_during_a_bulk_star_that_fails_leaves_the_app_open_with_its_message(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing was changed, and the message says why: it stays on screen; the next q quits."""
    held = failing_at_the_third_shard(monkeypatch)
    app = PaperApp(store=big_store)
    messages = said(app, monkeypatch)
    counted(monkeypatch, "action_quit", 1, held.released.set)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("M", "s", "y")
        await wait_for(pilot, held.holding.is_set, what="the bulk star's first shard write")
        await pilot.press("q")
        await wait_for(pilot, lambda: any("disk is full" in m for m in messages), what="the failure said")
        await settle(pilot)
        assert app.is_running
        assert starred_on_disk(big_store) == 0
        assert main_screen(app).history.next_step(undo=True) is None
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")


@pytest.mark.usefixtures("hangup_signals_at_default")
async def test_a_hangup_after_a_quit_during_a_bulk_star_that_fails_still_ends_the_app(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The q asked to stay open on a failure; the terminal gone since, no one is left to read it."""
    held = failing_at_the_third_shard(monkeypatch)
    app = PaperApp(store=big_store)
    counted(monkeypatch, "terminal_gone", 1, held.released.set)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("M", "s", "y")
        await wait_for(pilot, held.holding.is_set, what="the bulk star's first shard write")
        await pilot.press("q")
        os.kill(os.getpid(), signal.SIGHUP)
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert starred_on_disk(big_store) == 0
