"""The detail pane shows the paper the list highlights, once the list settles, whatever the order in
which the keys, the results and the timers came.

A tester (the bundled seeds, a machine at load ~20) typed ``/tag:must-read⏎``: the list's one row
was UniHand, the detail pane showed another paper, and it stayed so through ``escape g /fourier⏎``
and a resize, until ``s`` starred the right paper. The cause: Textual's one-shot timer skips its
only tick when the process stalls longer than its delay right as the timer starts (a process
descheduled, or a worker holding the interpreter): the detail pane's wait for a typing pause kept
that dead timer for good, and the query gate's look a frame later never came, so the work it held
(the detail's follow among it) never ran. Every one-shot timer of the app is now
:func:`~paperdeck.ui._lines.timers.one_shot`, which is never skipped.

The stalls are forced here: :class:`Stalls` blocks the event loop's thread between the first two
clock reads of the timers it picks, as the loaded machine did, for longer than their delay.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from paperdeck.ui.after_pause import AfterPause
from paperdeck.ui.app import PaperApp
from paperdeck.ui.query_gate import QueryGate
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.pilot import Pilot
from textual.timer import Timer

from tests.ui.helpers import main_screen, paper_list, settle
from tests.waits import GUARD_S, wait_for


class Stalls:
    """Stalls the event loop as a Textual timer starts, for the timers ``pick`` chooses (given each
    timer's callback): between the timer's first clock read and its second, the thread sleeps
    ``seconds`` (a process descheduled that long on a loaded machine)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import textual._time

        self.pick: Callable[[Callable[..., object]], float] = lambda callback: 0.0
        #: How many timers were stalled.
        self.stalled = 0
        # Keyed by the timer itself, held for the test: an ``id()`` of a timer gone is reused by
        # the next one, which then starts at the old count and is never picked (Python 3.13).
        self._reads: dict[Timer, int] = {}
        get_time = textual._time.get_time
        run_code = Timer._run.__code__

        def read_clock() -> float:
            frame = sys._getframe(1)
            if frame.f_code is run_code and threading.current_thread() is threading.main_thread():
                timer = frame.f_locals["self"]
                reads = self._reads[timer] = self._reads.get(timer, 0) + 1
                callback = getattr(timer._callback, "args", (None,))[0]
                if reads == 2 and callback is not None and (seconds := self.pick(callback)) > 0:
                    self.stalled += 1
                    time.sleep(seconds)  # the forced stall: the process is not running meanwhile
            return get_time()

        monkeypatch.setattr(textual._time, "get_time", read_clock)


def _owner(callback: Callable[..., object]) -> tuple[object, object]:
    """A bound method's function and instance (``(None, None)`` for anything else)."""
    return getattr(callback, "__func__", None), getattr(callback, "__self__", None)


def detail_pause(screen: MainScreen, seconds: float) -> Callable[[Callable[..., object]], float]:
    """Pick the timers of the detail pane's wait for a typing pause, for ``seconds``, once."""
    left = [1]

    def pick(callback: Callable[..., object]) -> float:
        function, owner = _owner(callback)
        detail = screen.query_one(PaperDetail)
        if left[0] and function is AfterPause._fire and owner is detail._pause:
            left[0] -= 1
            return seconds
        return 0.0

    return pick


@pytest.fixture
def stalls(monkeypatch: pytest.MonkeyPatch) -> Stalls:
    return Stalls(monkeypatch)


def _settled(screen: MainScreen) -> bool:
    list_filter = screen.list_filter
    return (
        list_filter.answers_filter()
        and screen.query_gate.quiet
        and not screen.query_one(PaperDetail).waiting
        and not any(worker.group == "filter" and worker.is_running for worker in screen.workers)
    )


def _seen(screen: MainScreen) -> str:
    detail = screen.query_one(PaperDetail)
    return (
        f"list {screen.paper_list.highlighted_id!r}, detail {detail.shown_id!r} (waiting {detail.waiting}), "
        f"gate quiet {screen.query_gate.quiet}, answers {screen.list_filter.answers_filter()}"
    )


async def _detail_follows(pilot: Pilot[Any], screen: MainScreen) -> None:
    """Wait for the list to settle, then the detail shows its highlighted paper."""
    await wait_for(pilot, lambda: _settled(screen), what=lambda: "the list settled: " + _seen(screen))
    assert screen.query_one(PaperDetail).shown_id == screen.paper_list.highlighted_id, _seen(screen)


async def test_the_detail_follows_a_query_when_its_pause_timer_started_late(
    make_app: Callable[[], PaperApp], stalls: Stalls
) -> None:
    """The tester's steps: ``S S /query⏎`` with the detail's wait for a pause starting on a stalled
    loop (its timer's start read the clock, then the process was off the CPU for longer than the
    pause). Textual's timer never fired: the detail showed the paper highlighted before."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        before = paper_list(app).highlighted_id
        stalls.pick = detail_pause(screen, 2 * MainScreen.DETAIL_WHILE_TYPING_S)
        await pilot.press("slash", *"fourier")
        # The pause is waited for while the filter bar has the focus: the query's list must come
        # before enter (a list shown after it, the focus on the list, is followed at once).
        await wait_for(pilot, lambda: screen.applied_filter == ("fourier", False), what="the query's list")
        await wait_for(pilot, lambda: stalls.stalled == 1, what="the detail's wait for a pause started")
        await pilot.press("enter")
        assert paper_list(app).highlighted_id != before  # the top result is another paper
        await _detail_follows(pilot, screen)
        assert stalls.stalled == 1


async def test_held_work_runs_when_the_gates_look_again_started_late(
    make_app: Callable[[], PaperApp], stalls: Stalls
) -> None:
    """The query gate looks again a frame later when the list's frame is still to be painted; when
    that look's timer started on a stalled loop, Textual never fired it and the gate stayed shut:
    the detail pane's follow (held by it) never ran, nor the footer's mount, nor the checks."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        gate = screen.query_gate
        paint_waits = gate._paint_waits
        first = [True]

        def waits_once() -> bool:  # the list's frame is still to be painted, once
            if first[0]:
                first[0] = False
                return True
            return paint_waits() if paint_waits is not None else False

        def look_again(callback: Callable[..., object]) -> float:
            function, owner = _owner(callback)
            return 2 * QueryGate.LOOK_AGAIN_S + 0.02 if function is QueryGate._look and owner is gate else 0.0

        await pilot.press("slash")
        gate._paint_waits = waits_once
        stalls.pick = look_again
        await pilot.press(*"fourier")
        await wait_for(pilot, lambda: not first[0], what="the gate's look while the frame waits")
        await _detail_follows(pilot, screen)
        assert stalls.stalled >= 1


#: The keys of the random sequences typed into the filter bar, and pressed on the list (none that
#: opens another screen or a link).
BAR_KEYS = ("enter", "escape", "backspace", "f", "o", "u", "r", "i", "e", "d", "space")
LIST_KEYS = ("slash", "escape", "O", "S", "g", "j", "space")


@pytest.fixture
def held_results(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The queries and sorts run in the filter worker's thread wait until the event is set (the test
    sets and clears it at random points); set when the test ends."""
    import paperdeck.search.selection as selection

    release = threading.Event()
    release.set()
    for name in ("run_query", "sort_ids"):
        run = getattr(selection, name)

        def held(*args: Any, _run: Callable[..., Any] = run) -> Any:
            if threading.current_thread() is not threading.main_thread():
                release.wait(GUARD_S)
            return _run(*args)

        monkeypatch.setattr(selection, name, held)
    yield release
    release.set()


@pytest.mark.parametrize("seed", range(6))
async def test_once_settled_the_detail_shows_the_highlighted_paper(
    make_app: Callable[[], PaperApp], stalls: Stalls, held_results: threading.Event, seed: int
) -> None:
    """Random keys (filter text, sort, starred only, escape, top, down, marks) with the filter worker's
    results held and let go at random points and timers started on a stalled loop at random: once
    everything is let go and the list settles, the detail shows the list's highlighted paper."""
    rng = random.Random(seed)

    def pick(callback: Callable[..., object]) -> float:
        function = _owner(callback)[0]
        if function is AfterPause._fire or function is QueryGate._look:
            return rng.choice((0.0, 0.0, 0.2))
        return 0.0

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        stalls.pick = pick
        for _ in range(3):
            for _ in range(rng.randint(4, 12)):
                if rng.random() < 0.2:
                    if held_results.is_set():
                        held_results.clear()
                    else:
                        held_results.set()
                typing = isinstance(screen.focused, FilterBar)
                await pilot.press(rng.choice(BAR_KEYS if typing else LIST_KEYS))
            held_results.set()
            await _detail_follows(pilot, screen)
