"""A one-shot timer that fires however late the event loop gets to it.

Textual's ``set_timer`` makes a ``Timer`` that skips the ticks it is late for (``skip=True``),
and for a one-shot timer that skip is its only tick: ``Timer._run`` reads the clock as it starts
(``start``) and again a few bytecodes later (``now``); when more than the delay passed between the
two (the process was descheduled on a loaded machine, or a worker thread held the interpreter in
a long C call), it counts the tick as missed and ends without calling back. The callback never
runs, and nothing says so. A tester's detail pane then showed another paper than the one
highlighted until a key acted on it: the wait for a typing pause (``AfterPause``) kept the dead
timer, and the query gate's look a frame later never came, so the work it held never ran.

:func:`one_shot` is ``set_timer`` with ``skip=False``: a tick that is late is made at once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.message_pump import MessagePump
from textual.timer import Timer


def one_shot(node: MessagePump, delay: float, callback: Callable[[], object]) -> Timer:
    """Call ``callback`` on ``node``'s message queue once, ``delay`` seconds from now or as soon
    after as the event loop runs (never skipped); stopped with ``node``, as ``node.set_timer``'s
    timers are. Returns the timer (its ``stop()`` cancels the call)."""
    timer = Timer(node, delay, callback=partial(node.call_next, callback), repeat=0, skip=False)
    timer._start()
    node._timers.add(timer)
    return timer


def one_shot_on(node: MessagePump) -> Callable[[float, Callable[[], object]], Timer]:
    """:func:`one_shot` on ``node``, shaped as ``node.set_timer`` is called: ``(delay, callback)``."""
    return partial(one_shot, node)
