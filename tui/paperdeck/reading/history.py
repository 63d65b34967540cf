"""Undo and redo of every change to the user's data in one session, bulk changes as one step.

Each step keeps the records before and after; undo writes the "before" records back through the
store (at once, durably, like any change), redo the "after" ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperdeck.model.paper import UserData
from paperdeck.store.store import Store

#: One record's change: ``(before, after)``.
Change = tuple[UserData, UserData]


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable step: a label for the user (``"star 3 papers"``) and the records it changed."""

    label: str
    changes: tuple[Change, ...]

    @property
    def paper_ids(self) -> list[str]:
        """The papers the step touched."""
        return [after.paper_id for _, after in self.changes]


class History:
    """The session's undo and redo stacks over a store.

    Args:
        store: where undo and redo write.
        limit: steps kept (the oldest are forgotten past it).
    """

    def __init__(self, store: Store, limit: int = 1000) -> None:
        self._store = store
        self._limit = limit
        self._undo: list[Step] = []
        self._redo: list[Step] = []

    def record(self, label: str, changes: list[Change]) -> Step | None:
        """Remember a change just written (nothing when it changed nothing); clears redo."""
        if not changes:
            return None
        step = Step(label, tuple(changes))
        self._undo.append(step)
        del self._undo[: -self._limit]
        self._redo.clear()
        return step

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is a step to redo."""
        return bool(self._redo)

    def undo(self) -> Step | None:
        """Write back the records as they were before the last step; ``None`` when none is left.

        Raises:
            StoreError: the records cannot be written (the step stays undoable).
        """
        return self._replay(self._undo, self._redo, after=False)

    def redo(self) -> Step | None:
        """Write again the records of the last undone step; ``None`` when none is left.

        Raises:
            StoreError: the records cannot be written (the step stays redoable).
        """
        return self._replay(self._redo, self._undo, after=True)

    def _replay(self, source: list[Step], target: list[Step], *, after: bool) -> Step | None:
        """Write the top step of ``source`` (its after- or before-records), then move it to
        ``target``; the move happens only once the write succeeded."""
        if not source:
            return None
        step = source[-1]
        self._store.restore(pair[1] if after else pair[0] for pair in step.changes)
        target.append(source.pop())
        return step
