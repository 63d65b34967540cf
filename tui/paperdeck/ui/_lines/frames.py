"""Hooks at the end of a screen's frames: for measuring what a frame shows when, and for starting
what waits for the first frame."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.screen import Screen


def watch_frames(screen: Screen[Any], shown: Callable[[], object], painted: Callable[[object], None]) -> None:
    """Call ``painted(shown())`` at the end of each frame ``screen``'s compositor renders, ``shown``
    called as the frame starts (what it will show). The frame's update is encoded for the
    terminal first, as ``App._display`` does (a headless app skips that)."""
    compositor = screen._compositor
    render_update = compositor.render_update

    def render_and_encode(*args: Any, **kwargs: Any) -> Any:
        shows = shown()
        update: Any = render_update(*args, **kwargs)
        if update is not None:
            update.render_segments(screen.app.console)
        painted(shows)
        return update

    compositor.render_update = render_and_encode  # type: ignore[method-assign]


def after_first_frame(screen: Screen[Any], callback: Callable[[], object]) -> None:
    """Call ``callback`` on the event loop as soon as ``screen``'s compositor has rendered its
    first frame with anything in it and handed it to the terminal (``call_after_refresh`` waits
    until the screen is idle as well, which keys typed at once put off); once."""
    compositor = screen._compositor
    render_update = compositor.render_update
    called = False

    def render_then_call(*args: Any, **kwargs: Any) -> Any:
        nonlocal called
        update: Any = render_update(*args, **kwargs)
        if update is not None and not called:
            called = True
            if vars(compositor).get("render_update") is render_then_call:  # not wrapped again since
                compositor.render_update = render_update  # type: ignore[method-assign]
            asyncio.get_running_loop().call_soon(callback)  # after this frame is written
        return update

    compositor.render_update = render_then_call  # type: ignore[method-assign]
