"""Nothing but a typed query's own work runs between its first key and the frame that paints its
result: the work due after start-up (the footer's mount, the interval checks for another
process's writes, the collector's idle pass, the saved index's read-through and warming, the
catalogue's parse, the change log) waits for that frame, however soon its timers fire (a slow
or loaded machine's query outlasts them). Counted by frames and calls, never by the clock."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from paperdeck import runtime
from paperdeck.search.index import SearchIndex
from paperdeck.search.searcher import Searcher
from paperdeck.store.store import Store
from paperdeck.ui._lines.frames import watch_frames
from paperdeck.ui.after_pause import AfterPause
from paperdeck.ui.app import PaperApp
from paperdeck.ui.query_gate import QueryGate
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.widgets.paper_list import PaperList
from textual import events

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_index_at_start import store_with_a_held_index
from tests.waits import wait_for

#: What the app does after start-up beside the queries, each recorded when it runs.
_WORK = {
    "footer": (MainScreen, "_mount_footer"),
    "external check": (MainScreen, "check_external_changes"),
    "catalogue check": (PaperApp, "check_catalogue"),
    "index read through": (Searcher, "check_saved"),
    "index warmed": (SearchIndex, "warm"),
    "catalogue parsed": (Store, "load"),
}


@pytest.mark.parametrize("burst", [False, True], ids=["keys one by one", "keys in a burst"])
async def test_work_due_after_start_waits_for_the_typed_query_painted(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch, burst: bool
) -> None:
    """Every timer due at once, the query's index held: none of that work runs until the
    frame that paints the typed query's result; all of it runs after. In a burst (``/REAP``
    sent at once, as the bench and a slow machine's terminal send it) nothing runs between
    ``/`` and the query's keys either."""
    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    for owner, name, seconds in (
        (MainScreen, "FOOTER_BY_S", 0.01),
        (MainScreen, "EXTERNAL_CHECK_S", 0.01),
        (MainScreen, "PARSE_AFTER_INPUT_S", 0.01),
        (PaperApp, "CATALOGUE_CHECK_S", 0.01),
        (PaperApp, "IDLE_S", 0.01),
    ):
        monkeypatch.setattr(owner, name, seconds)
    state = {"typing": False, "painted": False}
    shown: dict[str, MainScreen] = {}
    # (what, whether the list answered the query as typed by then), while typing: REAP's result
    # painted, or, keys one by one, the list answering the part typed so far (Pilot waits between
    # two keys, and a loaded machine may paint "R"'s list: the gate then rightly opens)
    ran: list[tuple[str, bool]] = []

    def answered() -> bool:
        screen = shown.get("screen")
        return state["painted"] or (
            not burst and screen is not None and screen.applied_filter == (screen.filter_text, False)
        )

    def recorded(what: str, method: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            if state["typing"]:
                ran.append((what, answered()))
            return method(*args, **kwargs)

        return run

    for what, (owner, name) in _WORK.items():
        monkeypatch.setattr(owner, name, recorded(what, getattr(owner, name)))
    monkeypatch.setattr(runtime, "collect_if_due", recorded("collector", runtime.collect_if_due))
    changed_since_looked = Store.changed_since_looked

    def change_log(self: Store) -> object:
        if threading.current_thread() is not threading.main_thread():
            return recorded("change log", changed_since_looked)(self)
        return changed_since_looked(self)

    monkeypatch.setattr(Store, "changed_since_looked", change_log)
    # Recorded from the query's first key posted (the burst's first key, "/"): before it, the
    # gate is open (nothing typed), and Pilot waits between two presses.
    first_key = "slash" if burst else "R"
    post_message = PaperApp.post_message

    def posted(self: PaperApp, message: Any) -> bool:
        if isinstance(message, events.Key) and message.key == first_key:
            state["typing"] = True
        return post_message(self, message)

    monkeypatch.setattr(PaperApp, "post_message", posted)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = shown["screen"] = main_screen(app)

        def painted(shown: object) -> None:
            if shown == ("REAP", False):
                state["painted"] = True

        watch_frames(screen, lambda: screen.applied_filter, painted)
        if burst:
            await pilot.pause()
            for char in "/REAP":
                app.post_message(events.Key("slash" if char == "/" else char, char))
        else:
            await pilot.press("slash", *"REAP")
        for _ in range(20):  # twenty turns of the loop, every timer due many times over
            await pilot.pause(0.01)
        assert screen.searcher.index.built is None  # still held: the query waits for it
        assert all(after for _, after in ran), ran  # (none at all but keys one by one)
        assert burst is False or ran == [], ran
        assert not screen.query_gate.quiet
        release.set()
        await wait_for(pilot, lambda: state["painted"], what="the result painted")
        await wait_for(pilot, lambda: {"footer", "index read through", "catalogue parsed"} <= {w for w, _ in ran})
        await settle(pilot)
        assert screen.query("PaperFooter")
    assert ran and all(after for _, after in ran), ran
    assert {"footer", "index read through", "index warmed", "catalogue parsed"} <= {w for w, _ in ran}


class _Screen:
    """A stand-in for a screen: its refresh is run by hand."""

    def __init__(self) -> None:
        self.after_refresh: list[Any] = []

    def call_later(self, callback: Any) -> bool:
        self.after_refresh.append(callback)
        return True

    def refresh(self) -> None:
        callbacks, self.after_refresh = self.after_refresh, []
        for callback in callbacks:
            callback()


def test_the_gate_holds_work_until_a_frame_shows_the_list_answering_the_filter() -> None:
    screen = _Screen()
    answered = [True]
    gate = QueryGate(screen, lambda: answered[0])  # type: ignore[arg-type]
    ran: list[str] = []
    gate.when_quiet(lambda: ran.append("at once"))
    assert ran == ["at once"]
    gate.busy()  # a key
    answered[0] = False  # its query waits for an index
    gate.when_quiet(footer := lambda: ran.append("footer"))
    gate.when_quiet(footer)  # held once
    screen.refresh()  # the stale list painted
    assert ran == ["at once"] and not gate.quiet
    screen.refresh()  # nothing asks again until the list changes: no look per idle turn
    assert screen.after_refresh == []
    answered[0] = True
    gate.busy()  # the result shown
    assert ran == ["at once"]
    screen.refresh()  # and painted
    assert ran == ["at once", "footer"] and gate.quiet and gate.ran_held == 1
    assert gate.wait_quiet(lambda: False)


def test_an_action_due_after_a_pause_is_dropped_when_restarted_while_held() -> None:
    held: list[Any] = []
    timers: list[Any] = []

    class _Timer:
        def stop(self) -> None:
            pass

    def set_timer(_seconds: float, callback: Any) -> _Timer:
        timers.append(callback)
        return _Timer()

    ran: list[str] = []
    pause = AfterPause(set_timer, lambda: ran.append("shown"), held.append)
    pause.restart(0.0)
    timers.pop()()  # due: handed to the gate, not run
    assert ran == [] and len(held) == 1 and pause.waiting
    pause.restart(30.0)  # another key before the gate opened
    held.pop()()  # the gate opens: the held action is not due any more
    assert ran == [] and pause.waiting
    pause.restart(0.0)
    timers[-1]()
    held.pop()()
    assert ran == ["shown"] and not pause.waiting


async def test_the_gate_waits_for_the_frame_that_paints_the_result(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen runs its callbacks after a refresh when it is idle, too: on a slow machine that
    came after the list took the result but before the list's repaint reached the screen (the
    list hands it on when it is idle itself), and the gate opened there, a frame early. Here the
    list's repaint is held back while the screen turns over: the work held for the query waits
    for it, and runs once the frame with the result is painted."""
    state = {"defer": False, "deferred": 0}
    check_refresh = PaperList._check_refresh

    def deferred(self: PaperList) -> None:
        if state["defer"] and self._repaint_required:
            state["deferred"] += 1  # kept for later: the screen is not told yet
            return
        check_refresh(self)

    monkeypatch.setattr(PaperList, "_check_refresh", deferred)
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.searcher.index.built is not None, what="the index built")
        await settle(pilot)
        ran: list[bool] = []  # whether the list's repaint was still held back when the work ran
        state["defer"] = True
        screen.list_filter.show_query("REAP")
        screen.query_gate.when_quiet(lambda: ran.append(bool(state["defer"])))
        await wait_for(pilot, lambda: screen.applied_filter == ("REAP", False), what="the result taken")
        await wait_for(pilot, lambda: state["deferred"] > 0, what="the list's repaint held back")
        for _ in range(10):  # the screen idle, its callbacks run, the list not repainted
            await pilot.pause()
        assert ran == [] and not screen.query_gate.quiet
        state["defer"] = False
        screen.paper_list.check_idle()
        await wait_for(pilot, lambda: ran, what="the held work run")
        assert ran == [False] and screen.query_gate.quiet
