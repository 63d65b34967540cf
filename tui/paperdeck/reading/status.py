"""Reading status rules: what a status key sets, and where "next unseen" goes.

Statuses are :data:`paperdeck.model.paper.STATUSES`; ``"unseen"`` is every paper's status until
the user gives it another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def status_after(pressed: str, current: Sequence[str]) -> str:
    """The status a key for ``pressed`` sets on papers whose statuses are ``current``: the same key
    again on a single paper takes it back to ``"unseen"``; on several papers it always sets
    ``pressed``."""
    if len(current) == 1 and current[0] == pressed and pressed != "unseen":
        return "unseen"
    return pressed


def next_unseen(view: Sequence[str], row: int, status_of: Callable[[str], str]) -> int | None:
    """The row of the first unseen paper after ``row`` in ``view``, wrapping around to ``row``
    itself last; ``None`` when no paper of the view is unseen."""
    count = len(view)
    for step in range(1, count + 1):
        candidate = (row + step) % count
        if status_of(view[candidate]) == "unseen":
            return candidate
    return None
