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
off by the write that undoes it; a history opened on a store starts with the steps kept there.
Each kept step names the session that made it (:data:`SESSION`, one per running app): a step of
another session (``earlier``: made in another window still running, or in a session before) is
said so and asked first; a step redone in this session is this session's. An undo of a step
another window already undid changes nothing, says so (:attr:`History.undone_elsewhere`), and the
step is dropped rather than made redoable. The "every change seen" mark's steps are the session's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from paperdeck.model.paper import UserData
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit, StepUndoneElsewhere, new_step_id
from paperdeck.store.user_data import apply_change_told
from paperdeck.store.user_fields import same_marks

#: One record's change: ``(before, after)``.
Change = tuple[UserData, UserData]

#: This app's session: kept with each step it makes or redoes, so that a later history tells its
#: own steps from those of another window or an earlier session.
SESSION = new_step_id()


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
    #: Whether the step was made outside this session (in another window, or a session before;
    #: read from where it is kept), and not redone since in this one.
    earlier: bool = False

    @property
    def paper_ids(self) -> list[str]:
        """The papers the step touched."""
        return [after.paper_id for _, after in self.changes]

    @property
    def what(self) -> str:
        """The label without any count of papers (``star``)."""
        return _PAPERS_SAID.sub("", self.label)

    @property
    def said(self) -> str:
        """The label with the papers the step changed (its changes) counted when more than one:
        ``star (36 papers)``; the same count as :attr:`offer`, live and after a restart."""
        count = len(self.changes)
        return f"{self.what} ({count:,} papers)" if count > 1 else self.what

    @property
    def offer(self) -> str:
        """What undoing it does, in a few words: ``star of 2,508 papers``, ``note of 1 paper``."""
        count = len(self.changes)
        return f"{self.what} of {count:,} paper{'' if count == 1 else 's'}" if count else self.what

    def undo_edit(self, *, undo: bool) -> StepEdit:
        """What undoing (or redoing) the step does where it is kept: taken off (or put back, as
        this session's)."""
        return (
            StepEdit(self.key, self.label, undone=True)
            if undo
            else StepEdit(self.key, self.label, changes=self.changes, session=SESSION)
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
        joined: the papers whose note was changed elsewhere since and got the step's text after
            it (both texts kept); a note kept without it (the step's text already there, or
            none to bring) is only in ``kept``.
        changed: the papers whose record the last application changed.
    """

    moves: dict[str, Change]
    kept: dict[str, tuple[str, ...]] = field(default_factory=dict)
    joined: set[str] = field(default_factory=set)
    changed: set[str] = field(default_factory=set)

    def __call__(self, current: UserData) -> UserData:
        paper_id = current.paper_id
        start, end = self.moves[paper_id]
        record, kept = apply_change_told(current, start, end)
        if kept:
            self.kept[paper_id] = kept
        else:
            self.kept.pop(paper_id, None)
        if "note" in kept and record.note != current.note:
            self.joined.add(paper_id)
        else:
            self.joined.discard(paper_id)
        if same_marks(record, current):
            self.changed.discard(paper_id)
        else:
            self.changed.add(paper_id)
        return record

    def kept_line(self) -> str | None:
        """One line saying which fields were changed elsewhere since the step and what became of
        them (``None`` when none was): ``"the note of 1 paper changed elsewhere since: both texts
        kept"`` (the step's text joined after the other), ``"the star of 2 papers changed
        elsewhere since: kept as written there"``."""
        if not self.kept:
            return None
        parts = []
        joined = len(self.joined)
        if joined:
            parts.append(f"the note of {_papers(joined)} changed elsewhere since: both texts kept")
        as_written = {
            paper_id: [name for name in fields if name != "note" or paper_id not in self.joined]
            for paper_id, fields in self.kept.items()
        }
        names = [name for name in _FIELD_NAMES if any(name in fields for fields in as_written.values())]
        papers = sum(1 for fields in as_written.values() if fields)
        if names:
            said = ", ".join(_FIELD_NAMES[name] for name in names)
            parts.append(f"the {said} of {_papers(papers)} changed elsewhere since: kept as written there")
        return "; ".join(parts)


def _papers(count: int) -> str:
    return f"{count:,} paper{'' if count == 1 else 's'}"


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
        steps = [Step(s.label, s.changes, key=s.id, earlier=s.session != SESSION) for s in kept]
        self._undo: list[Step] = steps[-limit:]
        self._redo: list[Step] = []
        #: Why the steps kept could not be read (one line naming the file), ``None`` when they were.
        self.problem = store.undo_steps.problem
        self._last_kept: str | None = None
        self._last_changed = True
        self._undone_elsewhere = False

    @staticmethod
    def keeping(label: str) -> StepEdit:
        """What a new change labelled ``label`` gives :meth:`Store.change` (``step``) to keep its
        step in the change's transaction; :meth:`record` it with the same ``key`` once written."""
        return StepEdit(new_step_id(), label, session=SESSION)

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
        step left (:attr:`last_kept` says which were not); ``None`` when none is left. A step
        another window already undid is dropped, nothing changed (:attr:`undone_elsewhere`).

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
    def last_changed(self) -> bool:
        """Whether the last :meth:`undo` or :meth:`redo` changed any record (not when every
        field it touched was changed elsewhere since and kept as it is)."""
        return self._last_changed

    @property
    def undone_elsewhere(self) -> bool:
        """Whether the last :meth:`undo` found its step already undone in another window (it
        changed nothing and the step was dropped, not made redoable)."""
        return self._undone_elsewhere

    def drop(self, step: Step) -> None:
        """Forget ``step``, the next to undo, without undoing it (another window already did:
        :class:`~paperdeck.store.undo_steps.StepUndoneElsewhere`)."""
        if self._undo and self._undo[-1] is step:
            self._undo.pop()

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
        stack (a step redone is this session's from then on). Nothing happens when ``step`` is no
        longer the one next in line."""
        source, target = (self._undo, self._redo) if undo else (self._redo, self._undo)
        if source and source[-1] is step:
            source.pop()
            target.append(step if undo or not step.earlier else replace(step, earlier=False))

    def _replay(self, *, undo: bool) -> Step | None:
        """Undo (or redo) the next step on the records as they are now, then move it to the
        other stack; the move happens only once the write succeeded."""
        self._last_kept = None
        self._last_changed = True
        self._undone_elsewhere = False
        step = self.next_step(undo=undo)
        if step is None:
            return None
        if step.seen is not None:
            self._store.set_seen_mark(step.seen[0] if undo else step.seen[1])
        if step.changes:
            ids, replay = self.replay_of(step, undo=undo)
            try:
                self._store.change(ids, replay, step=step.undo_edit(undo=undo))
            except StepUndoneElsewhere:
                self.drop(step)
                self._undone_elsewhere = True
                return step
            self._last_kept = replay.kept_line()
            self._last_changed = bool(replay.changed)
        self.replayed(step, undo=undo)
        return step
