"""What a measurement of the app hooks into from outside ``paperdeck.ui`` (the benchmark): the end
of each frame a screen renders."""

from __future__ import annotations

from paperdeck.ui._lines.frames import watch_frames

__all__ = ["watch_frames"]
