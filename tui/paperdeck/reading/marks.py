"""Marks on papers: which papers a bulk action takes, and how marks, ranges and "mark all" toggle.

A view is the list of paper ids shown, in order; a row is a position in it. Marks are paper ids,
so they survive re-filtering: a mark outside the current view still counts.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Bulk changes over this many papers ask first.
CONFIRM_OVER = 50


class Marks:
    """The marked papers of a session, and the row the last mark was made on (a range's anchor)."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        """The marked paper ids (the list reads it to draw ``▌``)."""
        self.anchor: int | None = None
        """The row of the last mark toggled or range marked, ``None`` before any or after :meth:`clear`."""

    def __bool__(self) -> bool:
        return bool(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def toggle(self, paper_id: str, row: int) -> None:
        """Mark ``paper_id`` (at ``row``), or unmark it if it was marked; ``row`` becomes the anchor."""
        self.ids.symmetric_difference_update({paper_id})
        self.anchor = row

    def mark_range(self, view: Sequence[str], row: int) -> None:
        """Mark every paper from the anchor to ``row`` (both included; just ``row`` without an
        anchor); ``row`` becomes the anchor. Rows past the view's end mark nothing more."""
        low, high = sorted((self.anchor if self.anchor is not None else row, row))
        self.ids.update(view[max(low, 0) : high + 1])
        self.anchor = row

    def toggle_all(self, view: Sequence[str]) -> None:
        """Mark every paper of ``view``; when all of them are marked already, unmark them."""
        if view and all(pid in self.ids for pid in view):
            self.ids.difference_update(view)
        else:
            self.ids.update(view)

    def clear(self) -> bool:
        """Drop every mark and the anchor; ``True`` when there were marks."""
        had = bool(self.ids)
        self.ids.clear()
        self.anchor = None
        return had

    def targets(self, view: Sequence[str], highlighted: str | None) -> list[str]:
        """What a star, status or tag change applies to: every marked paper, shown in ``view`` or
        not (marks are kept across filters; :meth:`everything`'s order), else the highlighted
        paper, else nothing."""
        if self.ids:
            return self.everything(view)
        return [highlighted] if highlighted else []

    def hidden(self, view: Sequence[str]) -> int:
        """How many marked papers ``view`` does not show."""
        return len(self.ids.difference(view))

    def everything(self, view: Sequence[str]) -> list[str]:
        """Every marked paper: those in ``view`` in its order, then the others sorted (what an
        export of the marked papers writes)."""
        shown = [pid for pid in view if pid in self.ids]
        return shown + sorted(self.ids.difference(shown))
