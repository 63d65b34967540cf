"""A hook at the end of each frame of a screen, for measuring what a frame shows when."""

from __future__ import annotations

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
