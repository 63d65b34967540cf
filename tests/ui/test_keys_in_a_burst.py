"""Keys sent in one burst (as a terminal multiplexer or a paste of keystrokes sends them: all in the
app's queue before the first is handled) each go where they were typed, lock held or not: the
keys typed after ``T`` go to the tag prompt it opens, those after the prompt's Enter to the list,
nothing is dropped and nothing typed into the prompt lands in the list."""

from __future__ import annotations

import pytest
from paperdeck.store.lock import FileLock
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from textual import events
from textual.widgets import Input

from tests.ui.helpers import SIZE, main_screen, paper_list, settle
from tests.waits import GUARD_S, LOCK_WAIT_S, wait_for

#: What the burst types: a tag on the first paper, down, a tag on the second, down, a star.
BURST = ("T", *"ujt", "enter", "j", "T", *"tui8", "enter", "j", "s")
CHARS = {"enter": "\r", "escape": "\x1b", "ctrl+s": "\x13"}


@pytest.fixture(autouse=True)
def _saves_at_once() -> None:
    """The UI's own wait for a save (``SaveQueue.AT_ONCE_S``): these tests hold the store's lock
    while they type, and wait for each save they assert on."""


def _app(store: Store) -> PaperApp:
    """The app, its key gate's bound (a guard against a key that is never handled) out of reach:
    a test passes only if no key had to wait that bound out."""
    app = PaperApp(store=store)
    app._key_gate.bound_s = GUARD_S
    return app


def _send_burst(app: PaperApp, keys: tuple[str, ...]) -> None:
    """Every key into the app's queue at once, none handled in between (``pilot.press`` waits for
    the app to be idle after each key: a person's typing, not a burst)."""
    for key in keys:
        app.post_message(events.Key(key, CHARS.get(key, key)))


@pytest.mark.parametrize("locked", [False, True], ids=["free", "locked"])
async def test_a_burst_of_keys_goes_where_it_was_typed(seeded_store: Store, locked: bool) -> None:
    app = _app(seeded_store)
    seeded_store.user_dir.mkdir(mode=0o700, exist_ok=True)
    other = FileLock(seeded_store.user_dir / ".lock", timeout=1.0)  # another paperdeck, writing
    seeded_store._user._lock.timeout = LOCK_WAIT_S  # the saves wait for it as long as the test holds it
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        rows = paper_list(app)
        start = rows.cursor
        ids = list(rows._ids[start : start + 3])
        if locked:
            other.acquire()
        try:
            _send_burst(app, BURST)

            def state() -> str:
                tags = [screen.user_data_shown(pid).tags for pid in ids]
                return f"screen {app.screen!r}, filter {screen.filter_text!r}, row {rows.cursor - start}, tags {tags}"

            await wait_for(
                pilot,
                lambda: app.screen is screen and screen.user_data_shown(ids[2]).starred,
                what=lambda: f"the burst handled: {state()}",
            )
            await settle(pilot)
            assert app.screen is screen, state()
            assert rows.cursor == start + 2, state()
            assert screen.filter_text == "", state()
            shown = [screen.user_data_shown(pid) for pid in ids]
            assert [s.tags for s in shown] == [("ujt",), ("tui8",), ()], state()
            assert [s.starred for s in shown] == [False, False, True], state()
        finally:
            if locked:
                other.release()
        await wait_for(pilot, lambda: not screen.saves.pending, what="the saves written")
        on_disk = Store(seeded_store.data_dir)
        assert [on_disk.user_data(pid).tags for pid in ids] == [("ujt",), ("tui8",), ()]
        assert on_disk.user_data(ids[2]).starred


async def test_keys_after_a_prompt_closed_by_escape_go_to_the_list(seeded_store: Store) -> None:
    """Escape closes the tags prompt (a binding run once the key is back at the app): the keys
    after it move and star in the list, the letter typed in the prompt tags nothing."""
    app = _app(seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        rows = paper_list(app)
        start = rows.cursor
        ids = list(rows._ids[start : start + 2])
        _send_burst(app, ("T", "x", "escape", "j", "s", "T", "y"))
        await wait_for(
            pilot,
            lambda: app.screen is not screen and screen.user_data_shown(ids[1]).starred,
            what=lambda: f"the burst handled: screen {app.screen!r}, row {rows.cursor - start}",
        )
        await settle(pilot)
        assert rows.cursor == start + 1
        assert [screen.user_data_shown(pid).tags for pid in ids] == [(), ()]
        assert app.screen.query_one("#tag-input", Input).value == "y"  # the second prompt has its key
        await pilot.press("escape")
        assert app.screen is screen and screen.filter_text == ""


async def test_a_note_typed_in_a_burst_is_saved_whole_and_the_keys_after_it_go_to_the_list(seeded_store: Store) -> None:
    """The characters typed into the note editor stop there (no binding sees them): ctrl+s after
    them saves them all, and the keys after it move and star in the list."""
    app = _app(seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        rows = paper_list(app)
        start = rows.cursor
        ids = list(rows._ids[start : start + 2])
        _send_burst(app, ("n", *"a note", "enter", *"two", "ctrl+s", "j", "s"))
        await wait_for(
            pilot,
            lambda: app.screen is screen and screen.user_data_shown(ids[1]).starred,
            what=lambda: f"the burst handled: screen {app.screen!r}, row {rows.cursor - start}",
        )
        await settle(pilot)
        assert rows.cursor == start + 1 and screen.filter_text == ""
        assert [screen.user_data_shown(pid).note for pid in ids] == ["a note\ntwo", ""]
