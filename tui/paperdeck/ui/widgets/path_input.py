"""The export prompt's file path field: a :class:`~paperdeck.ui.widgets.one_line_input.OneLineInput`
whose paste keeps a path's lines together. A module of its own, imported with the export prompt
alone: the main screen's first frame does not make its class (see docs/performance.md, "First
paint, thirteenth round").
"""

from __future__ import annotations

from typing import ClassVar

from paperdeck.ui.widgets.one_line_input import OneLineInput


class PathInput(OneLineInput):
    """A file path (the export prompt's): the lines of a paste are joined as they are, with nothing
    between them (a path copied where the terminal wrapped it, or ending in a newline); a space
    would be a character of the path."""

    NEWLINE: ClassVar[str] = ""


__all__ = ["PathInput"]
