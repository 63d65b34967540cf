"""Waits on a condition instead of a fixed pause: a test goes on as soon as what it waits for is
true, however loaded the machine is.

The timeouts are deadlock guards, not wall-clock assertions: generous (30 s by default), they only
turn a hang into a failure that says what never came. A time bound that is itself the point of a
test belongs to a test marked ``perf`` (``make test-perf``, run alone).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from textual.pilot import Pilot

#: Seconds before a wait gives up: a guard against a hang, far above any loaded machine's delay.
GUARD_S = 30.0

#: Seconds between two looks at the condition.
STEP_S = 0.02

#: Seconds the app's saves wait for the store's lock in a test that holds it while it types (the
#: store's own 10 s ran out on a loaded machine): longer than all the waits of such a test, each
#: of :data:`GUARD_S` at most, and the test lets the lock go in a ``finally``.
LOCK_WAIT_S = 20 * GUARD_S


def _failure(what: str | Callable[[], object] | None, timeout: float) -> str:
    told = what() if callable(what) else what
    return f"waited {timeout:g} s" + (f" for {told}" if told else " for a condition that never held")


async def wait_for(
    pilot: Pilot[Any],
    condition: Callable[[], object],
    *,
    timeout: float = GUARD_S,
    what: str | Callable[[], object] | None = None,
    step: float = STEP_S,
) -> None:
    """Let the app run (pauses of ``step`` seconds) until ``condition()`` is true.

    Raises ``AssertionError`` naming ``what`` (a string, or a callable giving one: the state seen
    when it failed) once ``timeout`` seconds pass without it.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(_failure(what, timeout))
        await pilot.pause(step)


async def wait_until(
    condition: Callable[[], object],
    *,
    timeout: float = GUARD_S,
    what: str | Callable[[], object] | None = None,
    step: float = STEP_S,
) -> None:
    """:func:`wait_for` without an app: sleeps ``step`` seconds on the running event loop."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(_failure(what, timeout))
        await asyncio.sleep(step)


async def screen_settled(pilot: Pilot[Any]) -> None:
    """Let workers finish (as ``settle`` does), then wait for what the main screens on the stack
    do once the typing pauses (the detail pane following the top result, the list counted by
    status: timers of ``DETAIL_WHILE_TYPING_S``) and for their footer (mounted after the first
    frame), then for the screen laid out and painted (:func:`laid_out`): a screenshot taken
    before those, on a loaded machine, showed an older screen."""
    from paperdeck.ui.screens.main import MainScreen
    from paperdeck.ui.widgets.footer import PaperFooter
    from paperdeck.ui.widgets.paper_detail import PaperDetail

    async def workers_done() -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    await workers_done()
    screens = [screen for screen in pilot.app.screen_stack if isinstance(screen, MainScreen)]

    def quiet() -> bool:
        return all(
            not screen.query_one(PaperDetail).waiting
            and not screen.list_filter.tally_pending
            and screen.query(PaperFooter)
            for screen in screens
        )

    await wait_for(pilot, quiet, what="the main screen's detail pane, tally and footer")
    await workers_done()
    await laid_out(pilot)


def _unsettled(app: Any) -> list[str]:
    """What of the app's screen is still to be handled, laid out or painted: a widget with a
    message queued (an ``Idle`` turns its asked layout into the screen's ``Layout`` message), a
    layout or a repaint asked for and not done. Empty once what the screen shows is drawn."""
    screen = app.screen
    left = [
        f"{node!r}: a message" for node in (app, screen, *screen.walk_children()) if not node._message_queue.empty()
    ]
    left += [
        f"{widget!r}: {what}"
        for widget in (screen, *screen.walk_children())
        for what in ("layout", "repaint")
        if getattr(widget, f"_{what}_required", False)
    ]
    if screen._dirty_widgets:
        left.append(f"{screen!r}: widgets to paint")
    return left


async def laid_out(pilot: Pilot[Any]) -> None:
    """Wait until the screen has laid out and painted what its widgets show (:func:`_unsettled`):
    each look's pause applies a layout the screen was asked for. Pilot's ``pause()`` returns once
    the process looks idle, and a process the loaded machine did not run looks idle: the counts'
    label, narrower than the "searching…" it showed, was drawn in the wider box of its last
    layout (an SVG snapshot one cell off), its ``Layout`` message not yet handled."""
    await wait_for(
        pilot, lambda: not _unsettled(pilot.app), what=lambda: f"the screen laid out: {_unsettled(pilot.app)}"
    )


def block_until(
    condition: Callable[[], object],
    *,
    timeout: float = GUARD_S,
    what: str | Callable[[], object] | None = None,
    step: float = STEP_S,
) -> None:
    """:func:`wait_for` for code outside an event loop (a process, a thread, a terminal):
    ``time.sleep(step)`` between looks; ``AssertionError`` naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(_failure(what, timeout))
        time.sleep(step)


def steady_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text cursors that do not blink (a focused ``Input`` or ``TextArea`` draws its cursor at
    all times) for the rest of the test: a screenshot shows the cursor whenever it is taken,
    not only within half a second of the last key (a loaded machine took it later, cursor off)."""
    from textual.widgets import Input, TextArea

    for widget in (Input, TextArea):
        monkeypatch.setattr(widget.__dict__["cursor_blink"], "_default", False)


#: Seconds of each look Pilot takes for an idle process (``textual._wait``: 1/50 in Textual).
IDLE_LOOK_S = 1 / 200


def quick_idle_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot's ``press`` and ``pause()`` wait for the process to look idle: a look of 20 ms (two
    per key) in which it used under 1 ms of CPU. Most of a Pilot test's time was these looks,
    asleep. Looks of ``IDLE_LOOK_S`` (with the same share of CPU for idle) keep what they tell;
    a test that needs a state waits for it (:func:`wait_for`), never for an idle look."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", IDLE_LOOK_S)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", IDLE_LOOK_S / 20)


def saves_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A save nothing holds up (no save before it, the store's lock free) is on disk before the
    next key however long the write takes: the UI waits for it up to :data:`GUARD_S` instead of
    ``SaveQueue.AT_ONCE_S`` (a quarter of a second, which a loaded machine's write outlasted, and
    the save was then written behind the UI, after the key the test asserted on the disk).
    Not for a test that holds the store's lock while it types: its first save would hold the
    event loop until the lock's timeout."""
    from paperdeck.ui.save_queue import SaveQueue

    monkeypatch.setattr(SaveQueue, "AT_ONCE_S", GUARD_S)
