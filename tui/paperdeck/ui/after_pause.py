"""An action run once a pause passes without another restart (the typing paused), on one timer.

Each keystroke restarts the waits of the detail pane and of the list's tally by status. A Textual
timer stopped and made again per key is an asyncio task cancelled and another made: here the wait
moves its deadline on, and the one timer running, when it fires early, waits out what is left.
"""

from __future__ import annotations

from collections.abc import Callable
from time import monotonic
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.timer import Timer


class AfterPause:
    """Calls ``action`` once ``pause_s`` seconds (given at each :meth:`restart`) pass without
    another :meth:`restart` or a :meth:`stop`.

    Args:
        set_timer: makes a one-shot timer that is never skipped, called with the seconds and the
            callback (:func:`~paperdeck.ui._lines.timers.one_shot_on` a widget or a screen: a
            timer Textual skips would leave the action waiting for ever).
        action: what is run after the pause, on the event loop.
        hold: given, the action due is handed to it rather than run (it runs it now or later:
            a query under way is painted first); a restart or a stop meanwhile drops it.
    """

    __slots__ = ("_action", "_due", "_fires_at", "_hold", "_set_timer", "_timer", "_waiting")

    def __init__(
        self,
        set_timer: Callable[[float, Callable[[], None]], Timer],
        action: Callable[[], None],
        hold: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self._set_timer = set_timer
        self._action = action
        #: Runs what is due now or later (:meth:`QueryGate.when_quiet
        #: <paperdeck.ui.query_gate.QueryGate.when_quiet>`: once a query under way is painted).
        self._hold = hold
        self._timer: Timer | None = None
        self._due = 0.0  # monotonic seconds
        self._fires_at = 0.0  # when the timer running fires (monotonic seconds)
        self._waiting = False

    @property
    def waiting(self) -> bool:
        """Whether the action waits to be run."""
        return self._waiting

    def restart(self, pause_s: float) -> None:
        """Run the action ``pause_s`` seconds from now (not at the deadline before)."""
        self._due = monotonic() + pause_s
        self._waiting = True
        if self._timer is not None and self._fires_at > self._due:  # a shorter pause than the timer's
            self._timer.stop()
            self._timer = None
        if self._timer is None:
            self._timer = self._set_timer(pause_s, self._fire)
            self._fires_at = self._due

    def stop(self) -> None:
        """Do not run the action (until the next :meth:`restart`). The timer running, if any, is
        left to fire and do nothing: a restart soon after (the next key) reuses it."""
        self._waiting = False

    def _fire(self) -> None:
        self._timer = None
        if not self._waiting:
            return
        left = self._due - monotonic()
        if left > 0.001:  # restarted since the timer was made: wait out the rest
            self._timer = self._set_timer(left, self._fire)
            self._fires_at = self._due
            return
        if self._hold is not None:
            self._hold(self._run_if_due)
            return
        self._waiting = False
        self._action()

    def _run_if_due(self) -> None:
        """The action, held since it was due: unless stopped or restarted meanwhile (a restart
        runs it after its own pause)."""
        if self._waiting and self._timer is None and self._due - monotonic() <= 0.001:
            self._waiting = False
            self._action()
