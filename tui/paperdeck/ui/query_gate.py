"""Work due after start-up that yields to a query typed: nothing but that query's own work runs
between a key and the frame that paints its result.

Timers keep wall time: on a slow or loaded machine, what is due "once typing pauses" or on an
interval (the footer's mount, the checks for another process's writes, the collector's pass when
idle) fell between a key and its painted result, and the start-up worker's steps (the saved
index's read-through, its warming, the catalogue's parse, the change log) shared the interpreter
with the query. :class:`QueryGate` says whether a query is under way (a key came, or the list
does not answer the filter bar's text yet) and holds such work until the list that answers it is
painted: on the event loop :meth:`QueryGate.when_quiet` runs a callback then, and a worker thread
waits for :meth:`QueryGate.wait_quiet`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from paperdeck.ui._lines.timers import one_shot

if TYPE_CHECKING:
    from textual.screen import Screen

#: Seconds between looks, while a worker waits for the gate, at whether it was cancelled.
_CANCEL_CHECK_S = 0.05


class QueryGate:
    """Whether a query typed is under way on ``screen``, and the work held until it is painted.

    Args:
        screen: the screen whose frames paint the list (its ``call_later`` asks for a look).
        answered: whether the list shown answers the filter as it stands (no text typed waits
            to be taken, no query waits or runs): called on the event loop.
        paint_waits: whether what the screen shows now is still to be painted (a repaint asked
            for and not yet drawn, a message still to be handled): the look runs once the
            screen has handled what was posted to it before, which comes before the frame that
            paints a result just set. While it is true the gate looks again
            :attr:`LOOK_AGAIN_S` later (not at the next idle turn: a screen that cannot paint
            would turn over and over); ``None``: never. It must be false while the screen paints
            nothing (another screen in front), else the gate stays shut until that one closes.
    """

    #: Seconds after which the gate looks again when the list answers but its frame is still to
    #: be painted (a frame at 60 Hz).
    LOOK_AGAIN_S = 1 / 60

    __slots__ = ("_answered", "_held", "_look_asked", "_paint_waits", "_quiet", "_screen", "ran_held")

    def __init__(
        self, screen: Screen[None], answered: Callable[[], bool], paint_waits: Callable[[], bool] | None = None
    ) -> None:
        self._screen = screen
        self._answered = answered
        self._paint_waits = paint_waits
        #: Set while no query is under way: from the frame that paints a query's result until
        #: the next key (cleared by :meth:`busy`).
        self._quiet = threading.Event()
        self._quiet.set()
        self._held: list[Callable[[], object]] = []
        self._look_asked = False
        #: How many held callbacks were run once a result was painted (tests count them).
        self.ran_held = 0

    @property
    def quiet(self) -> bool:
        """Whether no query is under way (from any thread)."""
        return self._quiet.is_set()

    def hold(self) -> None:
        """From any thread: a key came; nothing held runs until :meth:`busy` (its handling)
        and the frame after which the list answers the filter."""
        self._quiet.clear()

    def busy(self) -> None:
        """On the event loop: a key came, or the query or the list changed. Held work waits
        until the frame after which the list answers the filter is painted."""
        self._quiet.clear()
        if not self._look_asked:
            # In the screen's own queue, after what it was posted so far: not call_after_refresh,
            # which Textual runs on whatever screen is on top then (a dialog, the too-small
            # notice) and drops with it when that screen is closed before its next refresh; the
            # look then never came and the gate stayed shut for good (the detail pane and the
            # list's tally, held by it, stopped following the list). Whether the frame is still
            # to be painted is the look's to check (``paint_waits``).
            self._look_asked = self._screen.call_later(self._look)  # False: the screen is closing

    def _look(self) -> None:
        """After a frame: when the list it painted answers the filter, the gate opens and the
        held work runs (in the order it was held). When the list answers but its frame is still
        to be painted, the gate looks again a frame later. Else the next change asks
        again (:meth:`busy`): no looking at every idle turn while a query waits for its index."""
        self._look_asked = False
        if self._quiet.is_set() or not self._answered():
            return
        if self._paint_waits is not None and self._paint_waits():
            self._look_asked = True
            one_shot(self._screen, self.LOOK_AGAIN_S, self._look)
            return
        self._quiet.set()
        held, self._held = self._held, []
        for callback in held:
            if not self._quiet.is_set():  # a callback typed into the bar (a test), or changed the list
                self._held.append(callback)
                continue
            self.ran_held += 1
            callback()

    def when_quiet(self, callback: Callable[[], object]) -> None:
        """On the event loop: run ``callback`` now when no query is under way, else once the
        list answering it is painted; held once however often it is asked meanwhile."""
        if self._quiet.is_set():
            callback()
        elif callback not in self._held:
            self._held.append(callback)

    def wait_quiet(self, cancelled: Callable[[], bool], unless: threading.Event | None = None) -> bool:
        """In a worker thread: wait until no query is under way (or ``unless`` is set); False
        when ``cancelled()`` turned true meanwhile (the app is closing)."""
        quiet = self._quiet
        while not quiet.is_set() and (unless is None or not unless.is_set()):
            if cancelled():
                return False
            quiet.wait(_CANCEL_CHECK_S)
        return not cancelled()
