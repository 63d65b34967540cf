"""The counts' note of the starred filter (``S``): ``starred only``, or, when the query's words
find papers that are not starred, how many (``0 starred · 12 not starred``), so that a ``0``
under the filter is never a bare ``0``. Counted for free: the query's result before the filter
is kept, as the matches outside the venue scope are (:mod:`paperdeck.search.elsewhere`)."""

from __future__ import annotations

from collections.abc import Sequence

#: The index of the starred filter's note among the counts' notes.
STARRED_NOTE = 2


def starred_note(starred_only: bool, shown: int, not_starred: int, *, short: bool = False) -> str:
    """The note: ``""`` without the filter; ``"starred only"``; with ``not_starred`` matches left
    out by it, ``"0 starred · 12 not starred"`` (``short``: ``"12 not starred"``)."""
    if not starred_only:
        return ""
    if not not_starred:
        return "starred only"
    return f"{not_starred:,} not starred" if short else f"{shown:,} starred · {not_starred:,} not starred"


def kept_with_count(keep: Sequence[int], not_starred: int) -> tuple[int, ...]:
    """``keep`` (the counts' notes most wanted first) with the starred note moved up to second
    place when it says how many matches it leaves out: that is what a ``0`` needs beside it."""
    if not not_starred or STARRED_NOTE not in keep:
        return tuple(keep)
    rest = [index for index in keep if index != STARRED_NOTE]
    return (*rest[:2], STARRED_NOTE, *rest[2:])


__all__ = ["STARRED_NOTE", "kept_with_count", "starred_note"]
