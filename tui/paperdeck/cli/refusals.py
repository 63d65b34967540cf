"""What the ``paperdeck`` command line refuses before any command runs (imported when one is
refused: the command line's own module imports nothing of paperdeck's errors up front)."""

from __future__ import annotations

from paperdeck.model.errors import PaperdeckError


class UnknownCommand(PaperdeckError):
    """The first word of ``paperdeck WORD …`` is neither a subcommand nor an existing file."""


class NotText(PaperdeckError):
    """An argument meant as text (a note, a tag, a query, an id) is not valid UTF-8."""
