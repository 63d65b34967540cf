"""The app's check for another process's edits (every 2 s, and on focus) reads and copies nothing
while the user's data is unchanged on disk: its shards are stat'ed (size, mtime_ns, inode), and
only a changed one makes the records copied and read again. Counted, not timed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.store.store import Store
from paperdeck.store.user_data import UserStore
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import highlighted, main_screen, settle, started

AppFactory = Callable[..., PaperApp]


class _Counts:
    """How often the records were copied and a shard's file read."""

    def __init__(self) -> None:
        self.copies = 0
        self.reads = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> _Counts:
    counts = _Counts()
    records = UserStore.records
    read = UserStore._shard_documents
    assert isinstance(records, property) and records.fget is not None
    copy = records.fget

    def copied(self: UserStore) -> object:
        counts.copies += 1
        return copy(self)

    def documents(self: UserStore, path: Path) -> object:
        counts.reads += 1
        return read(self, path)

    monkeypatch.setattr(UserStore, "records", property(copied))
    monkeypatch.setattr(UserStore, "_shard_documents", documents)
    return counts


async def test_an_unchanged_file_is_neither_read_nor_copied(
    make_app: AppFactory, seeded_store: Store, counted: _Counts
) -> None:
    async with started(make_app()) as (app, pilot):
        target = highlighted(app).id
        await pilot.press("s")  # our own write: its stamp is taken, so it is no change from elsewhere
        await settle(pilot)
        assert app.store.user_data(target).starred
        screen = main_screen(app)
        counted.copies = counted.reads = 0
        for _ in range(5):
            screen.check_external_changes()  # what the 2 s timer does
        assert (counted.copies, counted.reads) == (0, 0)
        Store(seeded_store.data_dir).set_note(target, "written elsewhere")  # another paperdeck
        counted.copies = counted.reads = 0  # its own reads, as it opened
        screen.check_external_changes()
        await pilot.pause()
        assert counted.reads == 1 and counted.copies  # the one shard written, read once
        assert app.store.user_data(target).note == "written elsewhere"
        counted.copies = counted.reads = 0
        screen.check_external_changes()
        assert (counted.copies, counted.reads) == (0, 0)
