"""Hooks at the end of a screen's frames: for measuring what a frame shows when, and for starting
what waits for the first frame."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.screen import Screen
from textual.widget import Widget


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


def paint_waits(screen: Screen[Any], *widgets: Widget) -> bool:
    """Whether a frame of ``screen`` is still to paint what ``widgets`` show now: a repaint or a
    layout one of them asked for and not yet handed to the screen (``Widget._check_refresh``
    does that when the widget is idle), a message waiting in one's queue or the screen's (an
    ``Update``, a key typed into it), or the screen's own repaint, layout or dirty widgets, which
    its next refresh draws. The screen runs its ``call_after_refresh`` callbacks when it is idle
    too, which may come before any of these is drawn.

    Textual internals touched: ``Widget._repaint_required``, ``_layout_required``,
    ``MessagePump._message_queue``, ``Screen._dirty_widgets``, ``_layout_required``,
    ``_repaint_required``, ``_scroll_required``."""
    if screen._dirty_widgets or screen._scroll_required:
        return True
    return any(
        pump._message_queue.qsize() > 0 or pump._repaint_required or pump._layout_required
        for pump in (screen, *widgets)
    )


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


def forget_repaints_of_first_frame(screen: Screen[Any]) -> None:
    """Once ``screen``'s compositor has rendered its first frame whole (a full update: every
    widget on screen drawn as it is then), let go of the repaints those widgets asked for before
    it (``Widget._repaint_regions``; the compositor takes them only once the screen has handled
    their ``Update`` messages, which come after that frame): they would paint the same cells again,
    the whole screen, in a second frame sent before any key typed meanwhile is handled. A repaint
    asked for after that frame is kept. Once; a first frame that is not whole changes nothing."""
    from textual._compositor import LayoutUpdate

    compositor = screen._compositor
    render_update = compositor.render_update
    done = False

    def render_then_forget(*args: Any, **kwargs: Any) -> Any:
        nonlocal done
        if done:
            return render_update(*args, **kwargs)
        asked = [(widget, set(widget._repaint_regions)) for widget in screen.walk_children(Widget)]
        update: Any = render_update(*args, **kwargs)
        if update is not None:
            done = True
            if vars(compositor).get("render_update") is render_then_forget:  # not wrapped again since
                compositor.render_update = render_update  # type: ignore[method-assign]
            if isinstance(update, LayoutUpdate):
                drawn = compositor.visible_widgets
                for widget, regions in asked:
                    if widget in drawn:  # asked while it was drawn (its render_lines) stays
                        widget._repaint_regions.difference_update(regions)
        return update

    compositor.render_update = render_then_forget  # type: ignore[method-assign]
