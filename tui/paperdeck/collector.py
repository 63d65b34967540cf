"""When Python's cycle collector runs in the app: never while ``paperdeck`` starts, and its full
passes only while the user is idle.

Start-up allocates ~230,000 objects that live as long as the app (rows, papers, the search index).
Walking them cost ~100 ms before the first paint, and a full collection after it 40–80 ms, at
whatever keystroke it fell on. So ``paperdeck`` starts with the collector off (:func:`pause`);
once the catalogue is indexed, what is loaded is frozen (never walked again) and the collector
turned back on (:func:`resume`), but left to start a full pass on its own only rarely: even the
~30,000 objects the UI's caches hold take ~50 ms to walk on this machine, a keystroke's whole
budget. The app calls :func:`collect_if_due` when the user has been idle a moment instead.

An app that was not started paused (tests, embedding) keeps Python's defaults: all of this is a
no-op there.
"""

from __future__ import annotations

import gc

#: Gen-1 passes before the collector starts a full pass on its own (Python's default: 10), a
#: bound on the garbage cycles kept while the user never pauses.
FULL_PASS_AFTER = 100
#: Gen-1 passes after which an idle moment is used for a full pass (the default's rhythm).
FULL_PASS_DUE = 10

_managed = False


def pause() -> None:
    """Turn the collector off while the app starts (:func:`resume` turns it back on)."""
    gc.disable()


def resume() -> None:
    """Freeze what start-up loaded and turn the collector back on, its full passes left to
    :func:`collect_if_due`. A no-op unless :func:`pause` turned it off."""
    global _managed
    if gc.isenabled():
        return
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_PASS_AFTER)
    _managed = True
    gc.enable()


def collect_if_due() -> None:
    """Run the full pass the collector would have run by now (call it while the user is idle)."""
    if _managed and gc.isenabled() and gc.get_count()[2] >= FULL_PASS_DUE:
        gc.collect()
