"""A key gate: each key is handled before the next one is handed on, so that no key is dropped.

Textual 8.2.8's ``App.on_event`` checks a key against the priority bindings, then only *posts* it
to ``app.focused or app.screen`` (``Widget._forward_event``). The key then bubbles up, one message
queue at a time (``MessagePump._on_message``: ``Message._bubble_to`` the parent, the screen's
parent being the app), and its non-priority bindings run only once it is back in the app's own
queue (``App._on_key``), behind every key that came in meanwhile. Keys sent in a burst (a terminal
multiplexer, a slow machine) were therefore handed to the old focused widget before the key that
opens a prompt had opened it (and ran as keys of the screen below), or, once the prompt was on the
stack but before its input had focus, to the prompt screen itself (and were dropped).

:class:`KeyGate` keeps Textual's forwarding and holds the app's message loop (which takes the next
key only once ``on_event`` returns) until the key has been handled: it follows the key from queue
to queue (a callback posted after it, to each widget it bubbles to), handles it at once when it
comes back to the app (:meth:`KeyGate.came_back`, called from the app's ``post_message``), and
when the screen stack changed, waits for the top screen to be composed and its focus set. Every
wait is bounded (:attr:`KeyGate.bound_s`): past it, the next key is handed on as Textual would
have, and a key still on its way is left to Textual.

A printable key sent to a focused ``Input`` (which inserts it and stops it there) is not waited
for, so that typing in a text box is not slowed; the next key that is not such a key first waits
for the input to have handled those (a priority Enter reads the text typed before it).

Textual internals touched: ``App.on_event``'s forwarding of a key (copied as its target),
``Message._stop_propagation``, ``MessagePump._parent``, ``MessagePump.is_parent_active`` and
``is_attached`` as ``MessagePump._on_message`` checks them before bubbling, a key bubbled back to
the app arriving through ``App.post_message``. Pinned by ``tests/ui/test_keys_in_a_burst.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.screen import Screen


class KeyGate:
    """Hands the app's keys on one at a time, each once the one before it has been handled.

    Args:
        app: the app whose keys pass the gate.
        bound_s: the longest a key is held for the one before it (a guard: a key whose handling
            takes longer is handed on then, as Textual would have).
    """

    def __init__(self, app: App[Any], bound_s: float = 2.0) -> None:
        self._app = app
        self.bound_s = bound_s
        self._key: events.Key | None = None  # the key being followed
        self._back: asyncio.Future[None] | None = None  # set when it bubbles back to the app
        self._typed_into: MessagePump | None = None  # an input sent keys not waited for

    def came_back(self, message: Message) -> bool:
        """Whether ``message`` is the key being followed, bubbled back to the app: the app's
        ``post_message`` then does not queue it (the gate handles it at once, where it is)."""
        if message is not self._key or self._back is None or self._back.done():
            return False
        self._back.set_result(None)
        return True

    async def pass_key(self, event: events.Key, forward: Callable[[events.Key], Awaitable[None]]) -> None:
        """Handle ``event``, a key not forwarded yet: ``forward`` is Textual's ``App.on_event``
        (priority bindings, then the post to the focused widget); it is awaited once more, on the
        forwarded key, when the key bubbles back to the app. Returns once the key has been handled
        and the screen it leaves on top is ready for the next key (or the bound has passed)."""
        app = self._app
        if not app.screen_stack:  # no screen yet to hand it to: as Textual does
            await forward(event)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.bound_s
        target: MessagePump = app.focused or app.screen
        screen = app.screen
        if event.is_printable and isinstance(target, Input):
            await forward(event)
            if event.is_forwarded:
                self._typed_into = target  # handled in the input's queue, in the order typed
        else:
            if self._typed_into is not None:
                typed_into, self._typed_into = self._typed_into, None
                await self._round_trip(typed_into, deadline)
            self._key, self._back = event, loop.create_future()
            try:
                await forward(event)
                if event.is_forwarded and await self._follow(event, target, deadline):
                    await forward(event)  # its non-priority bindings, as App._on_key runs them
            finally:
                self._key, self._back = None, None
        if (top := self._top()) is not None and top is not screen:
            await self._screen_ready(top, deadline)

    def _top(self) -> Screen[object] | None:
        """The screen on top; ``None`` with none left (the app closing)."""
        stack = self._app.screen_stack
        return stack[-1] if stack else None

    async def _follow(self, event: events.Key, hop: MessagePump, deadline: float) -> bool:
        """Follow ``event`` up from ``hop``, queue by queue, until it is stopped (False) or comes
        back to the app (True); False too once the deadline passes."""
        back = self._back
        assert back is not None
        while not back.done():
            if not await self._round_trip(hop, deadline, back):
                return back.done()
            if back.done():
                break
            parent = hop._parent
            bubbled = event.bubble and not event._stop_propagation and hop.is_parent_active and hop.is_attached
            if not bubbled or parent is None or parent is self._app:
                return False
            hop = parent
        return True

    async def _round_trip(self, pump: MessagePump, deadline: float, back: asyncio.Future[None] | None = None) -> bool:
        """Wait for ``pump`` to handle what is in its queue now (a callback posted behind it), or
        for ``back``; False when the pump takes no callback or the deadline passes first."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def handled() -> None:
            if not done.done():
                done.set_result(None)

        if not pump.call_later(handled):
            return False
        waits: set[asyncio.Future[None]] = {done} if back is None else {done, back}
        timeout = max(0.0, deadline - loop.time())
        finished, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not done.done():
            done.cancel()
        return bool(finished)

    async def _screen_ready(self, screen: Screen[object], deadline: float) -> None:
        """Wait for ``screen`` (now on top) to be composed and resumed, its focus set (a prompt's
        input): what it was posted so far handled, until it has focus or nothing more comes."""
        while screen.focused is None and self._top() is screen:
            was_mounted = screen.is_mounted
            if not await self._round_trip(screen, deadline) or was_mounted:
                return
