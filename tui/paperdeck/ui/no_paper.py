"""What a paper action says when no paper is highlighted: one place decides, for every action on
the highlighted paper (star, status, note, tags, open a link, copy, mark, remove, similar…), so
that an empty list never gets an answer about a paper ("This paper has no link.")."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

#: The one line every paper action says with no paper highlighted (an empty list, a filter that
#: matches nothing).
NO_PAPER = "No paper is highlighted."


def say_no_paper(screen: Screen[Any]) -> None:
    """Say :data:`NO_PAPER` on ``screen``, as a warning toast."""
    screen.notify(NO_PAPER, severity="warning")
