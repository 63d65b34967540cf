"""Fixtures for Pilot and snapshot tests: an app on a fresh store holding the bundled seeds (the
helpers the tests call are :mod:`tests.ui.helpers`'s)."""

from __future__ import annotations

import inspect
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from textual.message import Message
from textual.pilot import Pilot

from tests.ui.helpers import FIXED_TIME
from tests.waits import laid_out, quick_idle_waits, saves_at_once

#: Seconds a confirmation stays in the Pilot tests: longer than any test.
TOASTS_STAY_S = 3600.0


@pytest.fixture(autouse=True)
def _quick_idle_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_idle_waits(monkeypatch)


@pytest.fixture
def snap_compare(snap_compare: Callable[..., bool]) -> Callable[..., bool]:
    """pytest-textual-snapshot's ``snap_compare``, its screenshot taken once the screen is laid
    out and painted (:func:`~tests.waits.laid_out`) after the test's ``run_before``: the pauses
    the plugin makes then return as soon as the process looks idle, which on a loaded machine
    came before the last layout (a snapshot one cell off)."""

    def compare(app: Any, *args: Any, run_before: Callable[[Pilot[Any]], Any] | None = None, **kwargs: Any) -> bool:
        async def then_laid_out(pilot: Pilot[Any]) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            await laid_out(pilot)

        return snap_compare(app, *args, run_before=then_laid_out, **kwargs)

    return compare


@pytest.fixture(autouse=True)
def _saves_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a test asserts on the disk after a key holds on a loaded machine (a module that holds
    the store's lock overrides this fixture with one that does nothing)."""
    saves_at_once(monkeypatch)


@pytest.fixture(autouse=True)
def _toasts_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every confirmation stays for the test (a module that checks the product's timeouts
    overrides this fixture): a test reading ``app._notifications`` after a slow step on a loaded
    machine found the toast gone (``CONFIRM_S`` is wall time)."""
    import paperdeck.ui.toasts

    monkeypatch.setattr(paperdeck.ui.toasts, "CONFIRM_S", TOASTS_STAY_S)
    monkeypatch.setattr(paperdeck.ui.toasts, "ERROR_S", TOASTS_STAY_S)


@pytest.fixture(autouse=True)
def _notices_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A notification is in ``app._notifications`` once ``notify`` returns. Textual posts it as a
    message the app handles on a later turn of the event loop: a test that read the notifications
    right after the state it waited for (a note saved on disk, "both texts are kept") found the
    notice not there yet when the machine was loaded. Only on the app's own thread while it runs
    (from elsewhere it is posted, as Textual does)."""
    from textual.notifications import Notify

    post_message = PaperApp.post_message

    def at_once(self: PaperApp, message: Message) -> bool:
        if isinstance(message, Notify) and self.is_running and self._thread_id == threading.get_ident():
            self._on_notify(message)
            return True
        return post_message(self, message)

    monkeypatch.setattr(PaperApp, "post_message", at_once)


@pytest.fixture
def hangup_signals_at_default() -> Iterator[None]:
    """SIGHUP and SIGTERM at their default for the test, as a shell started in a terminal hands
    them to paperdeck, and as they were before afterwards: a test of how the app takes them
    asserted what the test run inherited (under ``nohup`` SIGHUP is ignored, and the app rightly
    leaves it so)."""
    numbers = PaperApp.HANGUP_SIGNALS
    before = {number: signal.signal(number, signal.SIG_DFL) for number in numbers}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


@pytest.fixture
def seeded_store(tmp_path: Path, seed_files: list[Path]) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    import_files(store, seed_files)
    return store


@pytest.fixture
def make_app(seeded_store: Store) -> Callable[..., PaperApp]:
    def make(store: Store | None = None) -> PaperApp:
        return PaperApp(store=store or seeded_store)

    return make
