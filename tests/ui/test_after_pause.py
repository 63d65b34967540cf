"""The waits for a pause in the typing (the detail pane's, the tally's) run on one timer: each key
moves the deadline on rather than stopping a timer and making another (an asyncio task each)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import paperdeck.ui._lines.timers as timers
import paperdeck.ui.after_pause as after_pause_module
import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.after_pause import AfterPause
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.message_pump import MessagePump
from textual.timer import Timer

from tests.ui.helpers import SIZE, main_screen, settle
from tests.waits import wait_for


class _Timers:
    """A fake ``set_timer``: the timers made, each (seconds, callback), fired by the test."""

    def __init__(self) -> None:
        self.made: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, seconds: float, callback: Callable[[], None]) -> Any:
        self.made.append((seconds, callback))
        return self

    def stop(self) -> None:  # the timer made last, stopped
        self.made[-1] = (self.made[-1][0], lambda: None)

    def fire(self) -> None:
        _, callback = self.made[-1]
        callback()


def test_restarts_move_the_deadline_on_one_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(after_pause_module, "monotonic", lambda: now[0])
    timers, ran = _Timers(), []
    pause = AfterPause(timers, lambda: ran.append(now[0]))
    pause.restart(0.15)
    for _ in range(5):  # keys 0.1 s apart: one timer, the deadline moved on
        now[0] += 0.1
        pause.restart(0.15)
    assert len(timers.made) == 1 and pause.waiting
    now[0] += 0.05  # the first timer fires 0.15 s after it was made: 0.4 s early
    timers.fire()
    assert ran == [] and len(timers.made) == 2 and timers.made[-1][0] == pytest.approx(0.1)
    now[0] += 0.1
    timers.fire()
    assert ran == [pytest.approx(100.65)] and not pause.waiting and len(timers.made) == 2
    pause.restart(0.15)  # the last timer fired: this wait makes one
    pause.stop()  # dropped: the timer fires and does nothing
    pause.restart(0.15)
    pause.stop()  # a restart after a stop reuses the timer still running
    assert len(timers.made) == 3
    now[0] += 0.2
    timers.fire()
    assert len(ran) == 1 and not pause.waiting
    pause.restart(60.0)
    pause.restart(0.0)  # a shorter pause than the running timer's: a timer for it
    assert len(timers.made) == 5 and timers.made[-1][0] == 0.0
    timers.fire()
    assert len(ran) == 2


async def test_typing_makes_few_timers_for_the_detail_pane(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten keys typed quickly (each changing the highlighted paper) make one or two timers for the
    detail pane, not one (or two) per key; the paper highlighted last is shown once they pause."""
    store = Store(tmp_path / "data")
    store.import_papers(
        Paper(id=f"openreview:P{n}", title=f"Paper {word} number {n}", abstract="a")
        for n, word in enumerate(["alpha", "alpine", "alps", "altitude", "also", "beta"] * 2)
    )
    app = PaperApp(store=store)
    made: list[object] = []
    real = timers.one_shot

    def counted(node: MessagePump, *args: Any) -> Timer:
        if isinstance(node, PaperDetail):
            made.append(args)
        return real(node, *args)

    monkeypatch.setattr(timers, "one_shot", counted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        monkeypatch.setattr(type(screen), "DETAIL_WHILE_TYPING_S", 60.0)  # no pause while typing here
        await pilot.press("slash")
        await pilot.pause()
        made.clear()
        for key in "alpi" + "\x08" * 2 + "ti":
            await pilot.press("backspace" if key == "\x08" else key)
        await pilot.pause()
        detail = screen.query_one(PaperDetail)
        assert detail.waiting
        assert 1 <= len(made) <= 2, made
        monkeypatch.setattr(type(screen), "DETAIL_WHILE_TYPING_S", 0.01)
        await pilot.press("ctrl+a", "ctrl+k", *"beta")  # another paper highlighted, no pause asked
        await wait_for(pilot, lambda: not detail.waiting, what="the detail pane shown")
        body = str(detail.query_one("#detail-body").render())
        assert "Paper beta" in body
