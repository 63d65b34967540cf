"""A value built once in a thread: waiters during the build share it; the store's user counts
follow changes."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from paperdeck.search.searcher import Lazy
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.screens.built_once import wait_built
from textual.app import App

from tests.helpers import fixture
from tests.waits import GUARD_S, wait_until


async def test_many_waiters_share_one_build(tmp_path: Path) -> None:
    calls: list[str] = []
    release = threading.Event()

    def build(store: Store) -> str:
        calls.append(threading.current_thread().name)
        release.wait(GUARD_S)
        return "index"

    once: Lazy[str] = Lazy(Store(tmp_path / "data"), build)
    app: App[None] = App()
    async with app.run_test():
        waiters = [asyncio.create_task(wait_built(app, once)) for _ in range(5)]
        await wait_until(lambda: calls, what="the build started")
        assert once.built is None
        release.set()
        assert await asyncio.gather(*waiters) == ["index"] * 5
        assert once.built == "index" and await wait_built(app, once) == "index"
    assert len(calls) == 1 and calls[0] != threading.main_thread().name


def test_user_counts_follow_changes(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    assert store.user_counts() == (0, {})
    import_files(store, [fixture("iclr2023_submissions_number_title.tsv")])
    a, b = store.paper_ids[:2]
    store.set_star(a, True)
    store.set_status(b, "read")
    starred, statuses = store.user_counts()
    assert starred == 1 and statuses["read"] == 1
    assert store.user_counts()[1] is statuses  # the same counts until something changes
    store.set_star(a, False)
    assert store.user_counts()[0] == 0


async def test_a_cancelled_waiter_leaves_the_build_running(tmp_path: Path) -> None:
    release, started = threading.Event(), threading.Event()

    def build(store: Store) -> str:
        started.set()
        release.wait(GUARD_S)
        return "index"

    once: Lazy[str] = Lazy(Store(tmp_path / "data"), build)
    app: App[None] = App()
    async with app.run_test():
        waiter = asyncio.create_task(wait_built(app, once))
        await wait_until(started.is_set, what="the build started")
        waiter.cancel()  # as the next keystroke cancels a query waiting for an index
        await asyncio.gather(waiter, return_exceptions=True)
        assert waiter.cancelled()
        release.set()
        assert await wait_built(app, once) == "index"
        assert app.is_running  # no worker failed
