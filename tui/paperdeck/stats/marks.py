"""The user's marks as the statistics count them (``paperdeck stats``, its ``--json`` and the
statistics screen's progress tab), in one place so that they agree: only the records of papers
the store holds count. A removed paper's record is kept (it follows the paper back when it is
imported again) but is no paper of the store: its star, note and status are not counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from paperdeck.stats.tally import NO_AREA

if TYPE_CHECKING:
    from paperdeck.store.store import Store

__all__ = ["UserMarks", "user_marks"]


@dataclass(frozen=True, slots=True)
class UserMarks:
    """The user's records of the papers counted: ``marks``, the ``(area, status, starred)`` of each
    paper with a reading status or a star (``area`` :data:`NO_AREA` for none, as
    :meth:`~paperdeck.stats.figures.Figures.with_progress` takes them); how many are ``starred``;
    how many have a note (``notes``)."""

    marks: tuple[tuple[str, str, bool], ...]
    starred: int
    notes: int


def user_marks(store: Store, within: Callable[[str], bool] | None = None) -> UserMarks:
    """The user's marks on the papers ``store`` holds (and, given ``within``, those of them it
    is true for, by paper id): a record of a paper not in the store is left out. The areas are
    the parsed catalogue's when it is loaded, else the rows cache's (nothing parsed).

    Raises:
        StoreError: the catalogue cannot be read.
    """
    marks: list[tuple[str, str, bool]] = []
    starred = notes = 0
    loaded = store.loaded
    for paper_id, user in store.all_user_data.items():
        if not (user.starred or user.note or user.status != "unseen"):
            continue
        if within is not None and not within(paper_id):
            continue
        if loaded:
            paper = store.paper(paper_id)
            if paper is None or paper.id != paper_id:
                continue
            area = paper.primary_area
        else:
            row = store.row(paper_id)
            if row is None:
                continue
            area = row.area
        starred += user.starred
        notes += bool(user.note)
        if user.starred or user.status != "unseen":
            marks.append((area or NO_AREA, user.status, user.starred))
    return UserMarks(tuple(marks), starred, notes)
