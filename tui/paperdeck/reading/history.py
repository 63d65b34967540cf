"""Undo and redo of every change to the user's data in one session, bulk changes as one step;
the "every change seen" mark (``C``) too.

Each step keeps the records before and after; undo applies the change backwards and redo forwards,
each to the record as it is on disk at that moment (re-read under the store's lock) and only to the
fields the step touched, each only while it still holds what the step left
(:func:`paperdeck.store.user_data.apply_change_told`): a note, tags, a star or a status another
paperdeck wrote meanwhile stay (a note keeps both texts), and :meth:`Replay.kept_line` says so. A
step on a paper whose id a merge has since changed goes to the paper under its current id.

The steps of the user's records outlive the session: each is kept beside the user data
(:mod:`paperdeck.store.undo_steps`) by the write that makes it, in the same transaction, and taken
off by the write that undoes it; a history opened on a store starts with the steps kept there
(``earlier``: from a session before). The "every change seen" mark's steps are the session's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperdeck.model.paper import UserData
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit, new_step_id
from paperdeck.store.user_data import apply_change_told

#: One record's change: ``(before, after)``.
Change = tuple[UserData, UserData]


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable step: a label for the user (``"star 3 papers"``) and the records it changed."""

    label: str
    changes: tuple[Change, ...]
    #: The "every change seen" mark before and after the step (:meth:`Store.seen_mark`), for a
    #: step that moved it (``C``: every change marked seen); ``None`` for the others.
    seen: tuple[str | None, str | None] | None = None
    #: The step's id where it is kept beside the user data (:mod:`paperdeck.store.undo_steps`).
    key: str = field(default_factory=new_step_id)
    #: Whether the step was made in a session before this one (read from where it is kept).
    earlier: bool = False

    @property
    def paper_ids(self) -> list[str]:
        """The papers the step touched."""
        return [after.paper_id for _, after in self.changes]

    @property
    def offer(self) -> str:
        """What undoing it does, in a few words: ``star of 2,508 papers``, ``note of 1 paper``."""
        count = len(self.changes)
        what = _PAPERS_SAID.sub("", self.label)
        return f"{what} of {count:,} paper{'' if count == 1 else 's'}" if count else what

    def undo_edit(self, *, undo: bool) -> StepEdit:
        """What undoing (or redoing) the step does where it is kept: taken off (or put back)."""
        return (
            StepEdit(self.key, self.label, undone=True)
            if undo
            else StepEdit(self.key, self.label, changes=self.changes)
        )


#: The papers counted at the end of a bulk step's label (``star (2,508 papers)``).
_PAPERS_SAID = re.compile(r" \([\d,]+ papers\)$")


#: How :meth:`Replay.kept_line` names each field the user sets.
_FIELD_NAMES = {"starred": "star", "note": "note", "status": "status", "tags": "tags"}


@dataclass(slots=True)
class Replay:
    """The change an undo (or redo) of a step writes, for :meth:`Store.change`: each record, as it
    is on disk then, gets the step's fields backwards (or forwards) by
    :func:`~paperdeck.store.user_data.apply_change_told`. Applying it twice gives what applying it
    once does, so a replay cut short by a failed write can simply be run again.

    Attributes:
        moves: ``(start, end)`` by the paper's current id.
        kept: by paper id, the fields left as another writer wrote them since the step (the
            last application's; empty when none stood against it).
    """

    moves: dict[str, Change]
    kept: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __call__(self, current: UserData) -> UserData:
        start, end = self.moves[current.paper_id]
        record, kept = apply_change_told(current, start, end)
        if kept:
            self.kept[current.paper_id] = kept
        else:
            self.kept.pop(current.paper_id, None)
        return record

    def kept_line(self) -> str | None:
        """One line saying which fields were changed elsewhere since the step and kept as they are
        (``None`` when none was): ``"the note of 1 paper was changed elsewhere since: kept as it
        is, both texts"``."""
        if not self.kept:
            return None
        names = [name for name in _FIELD_NAMES if any(name in kept for kept in self.kept.values())]
        said = ", ".join(_FIELD_NAMES[name] for name in names)
        papers = len(self.kept)
        plural = "s" if papers != 1 else ""
        line = f"the {said} of {papers} paper{plural} changed elsewhere since: kept as written there"
        if "note" in names:
            line += " (a note keeps both texts)"
        return line


class History:
    """The session's undo and redo stacks over a store.

    Args:
        store: where undo and redo write; the undo stack starts with the steps kept there
            (:attr:`Store.undo_steps`, read here), each ``earlier``.
        limit: steps kept (the oldest are forgotten past it).
    """

    def __init__(self, store: Store, limit: int = 1000) -> None:
        self._store = store
        self._limit = limit
        kept = store.undo_steps.steps()
        self._undo: list[Step] = [Step(s.label, s.changes, key=s.id, earlier=True) for s in kept][-limit:]
        self._redo: list[Step] = []
        #: Why the steps kept could not be read (one line naming the file), ``None`` when they were.
        self.problem = store.undo_steps.problem
        self._last_kept: str | None = None

    @staticmethod
    def keeping(label: str) -> StepEdit:
        """What a new change labelled ``label`` gives :meth:`Store.change` (``step``) to keep its
        step in the change's transaction; :meth:`record` it with the same ``key`` once written."""
        return StepEdit(new_step_id(), label)

    def record(self, label: str, changes: list[Change], key: str | None = None) -> Step | None:
        """Remember a change just written (nothing when it changed nothing); clears redo.
        ``key``: the id its step was kept under (:meth:`keeping`)."""
        if not changes:
            return None
        step = Step(label, tuple(changes)) if key is None else Step(label, tuple(changes), key=key)
        self._undo.append(step)
        del self._undo[: -self._limit]
        self._redo.clear()
        return step

    def record_seen(self, label: str, before: str | None, after: str | None) -> Step | None:
        """Remember that the "every change seen" mark moved from ``before`` to ``after`` (undo puts
        it back: the papers changed since ``before`` are changed again); nothing when it did not
        move. Clears redo."""
        if before == after:
            return None
        step = Step(label, (), seen=(before, after))
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
        """Take back the fields the last step changed, each only where it still holds what the
        step left (:attr:`last_kept` says which were not); ``None`` when none is left.

        Raises:
            StoreError: the records cannot be written (the step stays undoable).
        """
        return self._replay(undo=True)

    def redo(self) -> Step | None:
        """Apply again the fields of the last undone step, each only where it still holds what the
        undo left (:attr:`last_kept` says which were not); ``None`` when none is left.

        Raises:
            StoreError: the records cannot be written (the step stays redoable).
        """
        return self._replay(undo=False)

    @property
    def last_kept(self) -> str | None:
        """The line saying what the last :meth:`undo` or :meth:`redo` left as another writer
        wrote it since its step (:meth:`Replay.kept_line`); ``None`` when it overwrote nothing."""
        return self._last_kept

    def next_step(self, *, undo: bool) -> Step | None:
        """The step ``undo()`` (or ``redo()``) would apply next, without applying it."""
        source = self._undo if undo else self._redo
        return source[-1] if source else None

    def replay_of(self, step: Step, *, undo: bool) -> tuple[list[str], Replay]:
        """What undoing (or redoing) ``step`` writes: the papers' current ids and the change for
        :meth:`Store.change` (:class:`Replay`: it also tells which fields it kept as another
        writer left them)."""
        moves: dict[str, Change] = {}
        for before, after in step.changes:
            current_id = self._store.resolve(after.paper_id)
            moves[current_id] = (after, before) if undo else (before, after)
        return list(moves), Replay(moves)

    def replayed(self, step: Step, *, undo: bool) -> None:
        """Record that ``step`` was undone (or redone) in full: it moves to the redo (or undo)
        stack. Nothing happens when ``step`` is no longer the one next in line."""
        source, target = (self._undo, self._redo) if undo else (self._redo, self._undo)
        if source and source[-1] is step:
            target.append(source.pop())

    def _replay(self, *, undo: bool) -> Step | None:
        """Undo (or redo) the next step on the records as they are now, then move it to the
        other stack; the move happens only once the write succeeded."""
        self._last_kept = None
        step = self.next_step(undo=undo)
        if step is None:
            return None
        if step.seen is not None:
            self._store.set_seen_mark(step.seen[0] if undo else step.seen[1])
        if step.changes:
            ids, replay = self.replay_of(step, undo=undo)
            self._store.change(ids, replay, step=step.undo_edit(undo=undo))
            self._last_kept = replay.kept_line()
        self.replayed(step, undo=undo)
        return step
