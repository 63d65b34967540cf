"""A "Not saved" toast goes once a later save of its kind succeeds (it stayed ``ERROR_S`` seconds
over the success, saying the opposite); a save of another kind leaves it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for
from paperdeck.ui.app import PaperApp
from textual.pilot import Pilot

from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


def _errors(app: PaperApp) -> list[str]:
    """The "Not saved" toasts shown (the app's reread of the user data, meeting the directory
    left where a shard should be, may say "Cannot read your data" meanwhile: another error)."""
    return [f"{n.title}: {n.message}" for n in app._notifications if n.severity == "error" and n.title == "Not saved"]


def _block_shard(store: Store, paper_id: str) -> Path:
    """A directory where the paper's user-data shard should be: its writes fail."""
    shard = store.user_dir / f"{doc_id_for(paper_id) % SHARDS:02x}.json"
    shard.parent.mkdir(parents=True, exist_ok=True)
    shard.mkdir()
    return shard


async def _star_refused(pilot: Pilot[Any], app: PaperApp, store: Store) -> tuple[str, Path]:
    """Star the highlighted paper while its shard cannot be written: the "Not saved" toast
    shows and nothing is starred. Returns the paper's id and the blocking directory."""
    paper_id = highlighted(app).id
    shard = _block_shard(store, paper_id)
    await pilot.press("s")
    await wait_for(pilot, lambda: _errors(app), what=lambda: _errors(app))
    assert any(error.startswith("Not saved") for error in _errors(app))
    assert not store.user_data(paper_id).starred
    return paper_id, shard


async def test_a_star_saved_after_a_failure_takes_its_toast_away(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper_id, shard = await _star_refused(pilot, app, seeded_store)
        shard.rmdir()  # the store can be written again: the user tries again
        await pilot.press("s")
        await wait_for(pilot, lambda: seeded_store.user_data(paper_id).starred)
        await wait_for(pilot, lambda: not _errors(app), what=lambda: _errors(app))


async def test_a_save_of_another_kind_leaves_the_toast(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper_id, shard = await _star_refused(pilot, app, seeded_store)
        shard.rmdir()
        await pilot.press("r")  # a reading status saved: the star is still not saved
        await wait_for(pilot, lambda: seeded_store.user_data(paper_id).status != "unseen")
        await pilot.pause()
        assert any(error.startswith("Not saved") for error in _errors(app))
        assert not seeded_store.user_data(paper_id).starred
        await pilot.press("s")  # the star again, saved: now the toast goes
        await wait_for(pilot, lambda: seeded_store.user_data(paper_id).starred)
        await wait_for(pilot, lambda: not _errors(app), what=lambda: _errors(app))


def _read_errors(app: PaperApp) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Cannot read your data"]


async def test_an_unreadable_shard_shows_one_toast_gone_once_read(make_app: AppFactory, seeded_store: Store) -> None:
    """The reread of the user's data (every 2 s and on focus) met a directory where a shard should
    be: one "Cannot read your data" toast at a time (four piled up), gone once a read succeeds."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shard = _block_shard(seeded_store, highlighted(app).id)
        screen = main_screen(app)
        for _ in range(4):
            screen.check_external_changes()  # what the 2 s timer does
            await pilot.pause()
        assert len(_read_errors(app)) == 1, _read_errors(app)
        assert str(shard.name) in _read_errors(app)[0]
        shard.rmdir()  # fixed: the next check reads the data
        screen.check_external_changes()
        await pilot.pause()
        assert _read_errors(app) == []
