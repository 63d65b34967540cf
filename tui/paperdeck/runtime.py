"""How the ``paperdeck`` process is tuned while the app runs: when Python's cycle collector runs,
and how often the GIL changes hands.

:func:`tuned` is the one place that sets and resets this state; the app launcher
(:mod:`paperdeck.cli.main`) and the benchmark run the app inside it:

- on entering, the collector is turned off (start-up allocates objects that live as long as the
  app: rows, papers, the search index; walking them while starting would delay the first paint)
  and the GIL switch interval is set to :data:`SWITCH_INTERVAL_S` (Textual writes each frame from
  a thread, which otherwise waits for the GIL while the event loop goes on);
- once what start-up loads is in memory, :func:`loaded` freezes it (never walked again) and turns
  the collector back on, a full pass left to start on its own only rarely
  (:data:`FULL_PASS_AFTER`); :func:`collect_if_due` runs the full pass that would have run by
  now, and the app calls it while the user is idle, not at a keystroke;
- on leaving, normally or by an exception, the state found on entering is restored exactly: the
  collector's enabled flag and thresholds, the switch interval, and nothing left frozen by
  :func:`loaded` — unless the caller is about to exit (``unfreeze=False``): then what was frozen
  stays frozen, so the interpreter's last collection at exit does not walk it all once more.

Outside :func:`tuned` (tests, an app embedded in another program) :func:`loaded` and
:func:`collect_if_due` are no-ops: the process keeps Python's defaults.

:func:`collector_paused` holds the collector off around one bulk job (an import reads millions of
objects, and each full pass would walk them all), in or out of :func:`tuned`; the command line
holds it off while a command imports its modules and opens the store, and calls :func:`exiting`
once the command is done.

The module imports nothing but the standard library: any room may use it.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The GIL switch interval inside :func:`tuned` (seconds; Python's default is 0.005).
SWITCH_INTERVAL_S = 0.0005
#: Gen-1 passes before the collector starts a full pass on its own once :func:`loaded` turned it
#: back on (Python's default: 10): a bound on the garbage cycles kept while the user never pauses.
FULL_PASS_AFTER = 100
#: Gen-1 passes after which :func:`collect_if_due` runs a full pass (the default's rhythm).
FULL_PASS_DUE = 10

#: Inside :func:`tuned`.
_tuned = False
#: :func:`loaded` froze what was loaded and turned the collector back on (inside :func:`tuned`).
_loaded = False
#: Bodies inside :func:`collector_paused` now, and whether the collector was on when the first began.
_pauses = 0
_resume = False
_pause_lock = threading.Lock()


@contextmanager
def tuned(switch_interval: float = SWITCH_INTERVAL_S, *, unfreeze: bool = True) -> Iterator[None]:
    """Run the body with the collector off and the GIL switch interval at ``switch_interval``
    (seconds), then restore the collector's enabled flag and thresholds and the switch interval
    found on entering, and (``unfreeze``) unfreeze what :func:`loaded` froze, even when the body
    raises.

    Raises:
        RuntimeError: already inside :func:`tuned` (the state to restore would be ambiguous).
    """
    global _tuned, _loaded
    if _tuned:
        raise RuntimeError("paperdeck.runtime.tuned() is already active")
    enabled, thresholds, interval = gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()
    gc.disable()
    try:
        sys.setswitchinterval(switch_interval)
        _tuned, _loaded = True, False
        yield
    finally:
        if _loaded and unfreeze:
            gc.unfreeze()  # Python has one frozen generation: all of it goes back to the oldest
        _tuned = _loaded = False
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
        if enabled:
            gc.enable()
        else:
            gc.disable()


def loaded() -> None:
    """Freeze what is in memory now (it lives as long as the app) and turn the collector back on,
    its full passes left to :func:`collect_if_due`. A no-op outside :func:`tuned` and after the
    first call inside it."""
    global _loaded
    if not _tuned or _loaded:
        return
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_AFTER)
    _loaded = True
    gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cycle collector off (reference counting frees objects as ever),
    then turn it back on if it was on when the first of the bodies running at once began (bodies
    in several threads nest); one turned on meanwhile (:func:`loaded`) stays on."""
    global _pauses, _resume
    with _pause_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


def held_until_exit() -> None:
    """Freeze what is in memory now: the process holds it until it exits (a command of the command
    line, once it has imported its modules and opened the store, in :func:`collector_paused`), and
    the collector, turned back on, walks only what is made after. Call it only then: what is
    frozen is never collected."""
    gc.freeze()


def exiting() -> None:
    """Freeze what is in memory: the process exits next (a command of the command line has
    printed its answer), and the interpreter's last collection need not walk it all. Call it only
    then: what is frozen is never collected."""
    gc.freeze()


def collect_if_due() -> None:
    """Run the full pass the collector would have run by now (call it while the user is idle).
    A no-op unless :func:`loaded` turned the collector back on inside :func:`tuned`."""
    if _loaded and gc.isenabled() and gc.get_count()[2] >= FULL_PASS_DUE:
        gc.collect()


def release_freed_memory() -> None:
    """Hand memory freed since back to the system where the C library allows it (glibc's
    ``malloc_trim``; a no-op elsewhere). Call it in a thread after much was freed at once (the
    catalogue read again): freed memory is otherwise kept for the process, and resident memory
    grows with each such step although nothing is held twice."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = _find_malloc_trim()
    if _malloc_trim is not False:
        _malloc_trim(0)


def _find_malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or ``False`` where there is none."""
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return False


#: glibc's ``malloc_trim`` once looked up (``False``: none here).
_malloc_trim: Any = None


#: How often a child process started by :func:`end_with_parent` looks for its parent (seconds).
PARENT_CHECK_S = 0.5


def end_with_parent(parent: int) -> None:
    """Make this process (a worker a paperdeck process started) end when its parent ``parent``
    (a pid) has ended, however it ended: a worker killed with its parent (``kill -9`` of an
    import) would otherwise wait for ever on a pipe it holds both ends of, holding its memory.

    A daemon thread looks every :data:`PARENT_CHECK_S` seconds whether the parent is still this
    process's parent (an orphan is given another) and ends the process at once (``os._exit``:
    nothing of a half-done job is written) when it is not. Meant as a process pool's
    ``initializer`` (``initargs=(os.getpid(),)``).
    """
    import os
    import time

    def parent_gone() -> bool:
        return os.getppid() != parent

    if parent_gone():  # ended before this process got here
        os._exit(1)

    def watch() -> None:
        while not parent_gone():
            time.sleep(PARENT_CHECK_S)
        os._exit(1)

    threading.Thread(target=watch, name="paperdeck-parent-watch", daemon=True).start()
