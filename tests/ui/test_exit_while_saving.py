"""Quitting while a save is still to be written (another paperdeck holds the store's lock): the
app's end waits for it (``ReadingScreen.on_unmount`` flushes the saves), so the star pressed
before ``q`` is on disk once the app is gone, the shard is whole (old or new, never missing) and
the app ends without an error. Textual does not join thread workers at exit; the saves' thread is
waited for by the app itself."""

from __future__ import annotations

import threading

import pytest
from paperdeck.store.lock import FileLock
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for
from paperdeck.ui.app import PaperApp
from paperdeck.ui.save_queue import SaveQueue

from tests.ui.helpers import SIZE, main_screen, paper_list, settle
from tests.waits import GUARD_S, LOCK_WAIT_S, wait_for


@pytest.fixture(autouse=True)
def _saves_at_once() -> None:
    """The UI's own wait for a save (``SaveQueue.AT_ONCE_S``): this test holds the store's lock
    while it types, so its save is left to the thread, as a real one behind a lock is."""


async def test_a_save_waiting_for_the_lock_when_the_app_quits_is_written_before_it_ends(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded_store._user._lock.timeout = LOCK_WAIT_S  # the save waits for the lock as long as the test holds it
    seeded_store.user_dir.mkdir(mode=0o700, exist_ok=True)
    other = FileLock(seeded_store.user_dir / ".lock", timeout=1.0)  # another paperdeck's
    flushing = threading.Event()
    flush = SaveQueue.flush

    def flush_seen(self: SaveQueue, timeout: float | None = None) -> bool:
        flushing.set()
        return flush(self, timeout)

    monkeypatch.setattr(SaveQueue, "flush", flush_seen)

    def release_once_flushing() -> None:  # the other paperdeck lets go while the app is ending
        flushing.wait(GUARD_S)
        other.release()

    app = PaperApp(store=seeded_store)
    releaser = threading.Thread(target=release_once_flushing, daemon=True)
    other.acquire()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            paper_id = paper_list(app).highlighted_id
            assert paper_id is not None
            await pilot.press("s")
            screen = main_screen(app)
            await wait_for(pilot, lambda: screen.saves.pending, what="the star waiting for the lock")
            assert not seeded_store.user_data(paper_id).starred
            releaser.start()
            await pilot.press("q")  # the app ends as the context does: once its screens are unmounted
    finally:
        releaser.join(GUARD_S)
        other.release()
    assert flushing.is_set()
    assert app.return_code == 0
    assert app._exception is None
    shard = seeded_store._user.shard_path(doc_id_for(paper_id) % SHARDS)
    assert shard.is_file()
    assert Store(seeded_store.data_dir).user_data(paper_id).starred
