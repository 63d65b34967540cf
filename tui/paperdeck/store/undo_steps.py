"""The app's undo steps of the user's changes kept beside the user data, so that ``u`` can take a
change back after the app was closed (a hang-up, a crash, a quit).

Layout, inside the data directory::

    user/undo-steps.json   {"meta": {"1": {...}},
                            "steps": [{"id", "label", "at", "session", "changes": [[before, after], …]}, …],
                            "undone": [id, …]}

Each step is one undoable step of the app's history (:class:`paperdeck.reading.history.Step`:
a label and the records before and after), oldest first. It is written by
:meth:`paperdeck.store.store.Store.change` in the same transaction as the change it undoes (a
crash leaves both or neither): a change adds its step, an undo takes its step off, a redo puts
it back. ``session`` names the app session that made (or last redid) the step, so that a session
tells its own steps from another window's or an earlier session's; ``undone`` lists the ids of the
steps undone lately (the last :data:`MAX_UNDONE`), so that a window undoing a step another one
already undid is told so (:class:`StepUndoneElsewhere`) instead of undoing it twice. The file is
bounded: the last :data:`MAX_STEPS` steps, the oldest dropped past
:data:`MAX_BYTES` too, the newest always kept whatever its size (a bulk change of every paper).

A file that cannot be read (cut short, not JSON, another program's, a newer paperdeck's) is never
overwritten: its steps are ignored, the new steps are kept in the session only, and
:attr:`UndoSteps.problem` says so in one line naming the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import file_name, one_line
from paperdeck.model.user import UserData
from paperdeck.store.atomic import atomic_write_bytes, malformed, staged_path
from paperdeck.store.file_stamp import FileStamp, file_stamp, stamp_written
from paperdeck.store.lock import FileLock
from paperdeck.store.schema import check_schema, meta

__all__ = [
    "MAX_BYTES",
    "MAX_STEPS",
    "MAX_UNDONE",
    "UNDO_STEPS_FILE",
    "KeptStep",
    "StepEdit",
    "StepUndoneElsewhere",
    "UndoSteps",
    "new_step_id",
]

#: The file of the kept steps, inside ``user/``.
UNDO_STEPS_FILE = "undo-steps.json"
#: Steps kept at most (the oldest dropped first).
MAX_STEPS = 100
#: Bytes the file may hold; past them the oldest steps are dropped, the newest always kept.
MAX_BYTES = 4 * 1024 * 1024
#: Ids of undone steps remembered at most (the oldest forgotten first).
MAX_UNDONE = 1000

#: One record's change: ``(before, after)``.
Change = tuple[UserData, UserData]


def new_step_id() -> str:
    """A new step's id: random, so that two windows on one store never give the same."""
    return os.urandom(8).hex()


@dataclass(frozen=True, slots=True)
class KeptStep:
    """A step as the file keeps it: its id, its label, when it was made, the records it changed,
    and the session that made (or last redid) it (``""`` in a file written before sessions were
    kept)."""

    id: str
    label: str
    at: str
    changes: tuple[Change, ...]
    session: str = ""


class StepUndoneElsewhere(StoreError):
    """The step an undo takes off was already undone by another window on the same store: the
    undo's transaction is given up (nothing is changed) and the step is not redoable here."""


@dataclass(frozen=True, slots=True)
class StepEdit:
    """What a change does to the kept steps, in its transaction.

    ``undone``: the step ``id`` is taken off (an undo). Otherwise the step is kept (added, or
    put back last): with ``changes`` when given (a redo: the step's own records), else with the
    changes the write made (a new change; none made: nothing kept). ``session``: the session
    making (or redoing) it.
    """

    id: str
    label: str = ""
    undone: bool = False
    changes: tuple[Change, ...] | None = None
    session: str = ""


class UndoSteps:
    """The kept steps of one store (``user/undo-steps.json``).

    Args:
        directory: the ``user/`` directory.
        now: clock for the steps' times.
    """

    def __init__(self, directory: Path, now: Any) -> None:
        self.path = directory / UNDO_STEPS_FILE
        self._now = now
        self._lock = FileLock(directory / ".lock", timeout=10.0)
        #: The file's stamp as last read or written, and its steps then, each with its JSON text
        #: (as read: the document, made into bytes at the first write).
        self._held: tuple[FileStamp | None, list[tuple[KeptStep, _Text]]] | None = None
        #: The ids of the steps undone lately, as last read or written, oldest first.
        self._undone: list[str] = []
        #: Why the file is ignored (one line naming it), ``None`` while it reads.
        self.problem: str | None = None

    def steps(self) -> list[KeptStep]:
        """The kept steps, oldest first (none when the file is missing or cannot be read:
        :attr:`problem` says why)."""
        return [step for step, _ in self._read()]

    def _read(self) -> list[tuple[KeptStep, _Text]]:
        path = staged_path(self.path)
        stamp = file_stamp(path)
        held = self._held
        if held is not None and held[0] == stamp and stamp is not None:
            return held[1]
        if stamp is None:
            self._held, self.problem, self._undone = (None, []), None, []
            return []
        try:
            data = orjson.loads(path.read_bytes())
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
            check_schema(data, self.path)
            steps = [(_step_of(doc), doc) for doc in data["steps"]]
            undone = data.get("undone", [])
            if not isinstance(undone, list) or not all(isinstance(step_id, str) for step_id in undone):
                raise TypeError("the undone steps are not a list of ids")
        except StoreError as error:
            return self._unreadable(str(error.reason))
        except OSError as error:
            return self._unreadable(f"cannot be read ({error.strerror or error})")
        except orjson.JSONDecodeError:
            return self._unreadable("is not valid JSON (cut short?)")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            return self._unreadable(f"is not paperdeck's undo steps ({malformed(error)})")
        self._held, self.problem, self._undone = (stamp, steps), None, undone
        return self._held[1]

    def _unreadable(self, why: str) -> list[tuple[KeptStep, _Text]]:
        self._held = None
        self.problem = (
            f"{file_name(self.path)}: {why}; the undo steps of earlier sessions are ignored and this session's"
            " are not kept in it (paperdeck leaves it as it is: move it aside to keep them again)"
        )
        return []

    def edit(self, edit: StepEdit, changes: list[Change]) -> None:
        """Add, take off or put back a step as ``edit`` says, in the transaction of the change
        (``changes``: what it wrote), under the user data's lock. Nothing is written when the
        file cannot be read (it is never overwritten) or the edit changes nothing.

        Raises:
            StepUndoneElsewhere: ``edit`` takes off a step another window already undid (the
                change's transaction is given up: nothing is changed).
            StoreError: the file cannot be written (the change's transaction fails with it).
        """
        from paperdeck.store.user_data import LockGuard

        with LockGuard(self._lock, self.path.parent):
            held = list(self._read())
            if self.problem is not None:
                return
            kept: list[tuple[KeptStep, _Text]] = [(step, _raw(text)) for step, text in held if step.id != edit.id]
            undone = [step_id for step_id in self._undone if step_id != edit.id]
            if not edit.undone:
                made = edit.changes if edit.changes is not None else tuple(changes)
                if not made:
                    if len(kept) == len(held) and len(undone) == len(self._undone):
                        return
                else:
                    step = KeptStep(edit.id, edit.label, self._now(), tuple(made), edit.session)
                    kept.append((step, _bytes_of(step)))
            elif len(kept) == len(held):
                if edit.id in self._undone:
                    raise StepUndoneElsewhere(self.path, "this step was already undone in another window")
                return
            else:
                undone = [*undone, edit.id][-MAX_UNDONE:]
            kept = _bounded(kept)
            payload = b"".join(
                (
                    b'{"meta":',
                    orjson.dumps({"1": meta()}),
                    b',"steps":[',
                    b",".join(_raw(text) for _, text in kept),
                    b'],"undone":',
                    orjson.dumps(undone),
                    b"}",
                )
            )
            atomic_write_bytes(self.path, payload)
            stamp_written(self.path, lambda stamp: self._keep(stamp, kept, undone))

    def _keep(self, stamp: FileStamp | None, steps: list[tuple[KeptStep, _Text]], undone: list[str]) -> None:
        """Hold ``steps`` and ``undone`` as the file's, written with the stamp ``stamp`` (again
        once renamed into place: read as they are, not parsed again)."""
        self._held = (stamp, steps)
        self._undone = undone


def _bounded(steps: list[tuple[KeptStep, _Text]]) -> list[tuple[KeptStep, _Text]]:
    """The last :data:`MAX_STEPS` steps, the oldest dropped while they hold over
    :data:`MAX_BYTES`; the newest is always kept."""
    steps = steps[-MAX_STEPS:]
    sizes = [len(_raw(text)) + 1 for _, text in steps]
    size = sum(sizes)
    start = 0
    while size > MAX_BYTES and start < len(steps) - 1:
        size -= sizes[start]
        start += 1
    return steps[start:]


#: A step's JSON text: its bytes, or the document read (dumped when the file is written).
_Text = bytes | dict[str, Any]


def _raw(text: _Text) -> bytes:
    return text if isinstance(text, bytes) else orjson.dumps(text)


def _bytes_of(step: KeptStep) -> bytes:
    return orjson.dumps(
        {
            "id": step.id,
            "label": step.label,
            "at": step.at,
            "session": step.session,
            "changes": [[before.to_dict(), after.to_dict()] for before, after in step.changes],
        }
    )


def _step_of(doc: dict[str, Any]) -> KeptStep:
    """A step of the file.

    Raises:
        KeyError, TypeError, ValueError: it is not one.
    """
    step_id, label, at, session = doc["id"], doc["label"], doc.get("at", ""), doc.get("session", "")
    if not all(isinstance(value, str) for value in (step_id, label, at, session)):
        raise TypeError("an id, a label, a time or a session is not text")
    changes = []
    for pair in doc["changes"]:
        before, after = pair
        if not isinstance(before, dict) or not isinstance(after, dict):
            raise TypeError("a record is not an object")
        changes.append((UserData.from_dict(before), UserData.from_dict(after)))
    if not changes:
        raise ValueError("a step changes no record")
    return KeptStep(step_id, one_line(label)[:_LABEL_CHARS], at, tuple(changes), session)


#: A label read from the file is cut to this (the app's are a few words).
_LABEL_CHARS = 80
