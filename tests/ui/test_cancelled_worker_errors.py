"""An exception raised by a thread worker once it is cancelled (its dialog dismissed, the next
query's worker started) is logged in the app's log with its traceback, not lost: Textual no longer
waits for the thread (:mod:`paperdeck.ui.worker_errors`)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual import constants

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_query_bar import papers_app
from tests.waits import GUARD_S, wait_for


async def test_an_exception_of_a_cancelled_thread_worker_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "textual.log"
    monkeypatch.setattr(constants, "LOG_FILE", str(log))  # TEXTUAL_LOG=…
    app = papers_app(tmp_path)
    started, go_on = threading.Event(), threading.Event()

    def count() -> int:
        started.set()
        go_on.wait(GUARD_S)
        raise ValueError("the views moved under the count")

    def logged() -> str:
        return log.read_text(encoding="utf-8") if log.exists() else ""

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        worker = main_screen(app).run_worker(count, thread=True, group="count", name="count the views")
        await wait_for(pilot, started.is_set, what="the thread running")
        worker.cancel()  # as a dialog dismissed cancels its workers
        await wait_for(pilot, lambda: worker.is_finished, what="the worker cancelled")
        go_on.set()
        await wait_for(pilot, lambda: "the views moved under the count" in logged(), what="the exception logged")
        text = logged()
        assert "'count the views' (cancelled) raised ValueError" in text and "Traceback" in text, text
        assert app.is_running  # logged, not a crash
