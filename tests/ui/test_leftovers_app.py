"""A few seconds after the app starts, what killed imports left in its store is removed in a
thread (:meth:`Store.remove_leftovers <paperdeck.store.store.Store.remove_leftovers>`): a
tester's store kept an undo staging per ``kill -9`` until something imported again."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import SIZE, settle
from tests.waits import wait_for


async def test_the_app_removes_a_killed_imports_staging_once_started(
    make_app: Callable[..., PaperApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # the killed import's process: gone
    app = make_app()
    undo = app.store.data_dir / "undo"
    undo.mkdir(exist_ok=True)
    staged = undo / f".before-{child.pid}-0a8a5056.json"
    staged.write_bytes(b"{}")
    monkeypatch.setattr(PaperApp, "LEFTOVERS_AFTER_S", 0.05)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: not staged.exists(), what="the staging removed")
