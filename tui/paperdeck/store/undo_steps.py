"""The app's undo steps of the user's changes kept beside the user data, so that ``u`` can take a
change back after the app was closed (a hang-up, a crash, a quit).

Layout, inside the data directory::

    user/undo-steps.json   {"meta": {"1": {...}},
                            "steps": [{"id", "label", "at", "session", "changes": [[before, after], …]}, …],
                            "undone": [id, …]}

    user/undo-steps.journal  one line per edit since the file was last written whole:
                            {"id", "step": {...}} a step added or put back, {"id", "undone": true}
                            a step undone, {"id"} a step taken off

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

A change writes in proportion to its step: its edit is one line appended to the journal (the
transaction's append, replayed from its offset by a roll forward), not the file rewritten whole
(up to 4 MB for one star). The steps are the file's, then the journal's lines applied in order
(each line the same applied twice: a reader between a compaction's two renames reads the same),
then bounded. Past :data:`MAX_JOURNAL_LINES` lines or :data:`MAX_JOURNAL_BYTES` the edit writes
the file whole instead and removes the journal, in the same transaction (compacted). A file
written before the journal (no journal beside it) is read as it is; an older paperdeck reads the
file alone (the steps since its last compaction are not undoable there).

A file or journal that cannot be read (cut short, not JSON, another program's, a newer
paperdeck's) is never overwritten: its steps are ignored, the new steps are kept in the session only, and
:attr:`UndoSteps.problem` says so in one line naming it.
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
from paperdeck.store.atomic import atomic_write_bytes, malformed, staged_path, write_failure
from paperdeck.store.file_stamp import FileStamp, file_stamp
from paperdeck.store.lock import FileLock
from paperdeck.store.schema import check_schema, meta

__all__ = [
    "MAX_BYTES",
    "MAX_JOURNAL_BYTES",
    "MAX_JOURNAL_LINES",
    "MAX_STEPS",
    "MAX_UNDONE",
    "UNDO_JOURNAL_FILE",
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
#: The journal of the edits since the file was written whole, inside ``user/``.
UNDO_JOURNAL_FILE = "undo-steps.journal"
#: Lines the journal holds at most: the edit that would add one more writes the file whole.
MAX_JOURNAL_LINES = 64
#: Bytes the journal holds at most: the edit that would go past them writes the file whole.
MAX_JOURNAL_BYTES = 1024 * 1024

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
    """The kept steps of one store (``user/undo-steps.json`` and its journal).

    Args:
        directory: the ``user/`` directory.
        now: clock for the steps' times.
    """

    def __init__(self, directory: Path, now: Any) -> None:
        self.path = directory / UNDO_STEPS_FILE
        self.journal = directory / UNDO_JOURNAL_FILE
        self._now = now
        self._lock = FileLock(directory / ".lock", timeout=10.0)
        #: The stamps of the file and the journal as last read or written (or the transaction
        #: that wrote them, until it commits), and the steps then, each with its JSON text (as
        #: read: the document, made into bytes at the first write).
        self._held: tuple[object, list[tuple[KeptStep, _Text]]] | None = None
        #: The ids of the steps undone lately, as last read or written, oldest first.
        self._undone: list[str] = []
        #: The journal's lines and bytes, as last read or written.
        self._journal: tuple[int, int] = (0, 0)
        #: Why the file is ignored (one line naming it), ``None`` while it reads.
        self.problem: str | None = None

    def steps(self) -> list[KeptStep]:
        """The kept steps, oldest first (none when the file is missing or cannot be read:
        :attr:`problem` says why)."""
        return [step for step, _ in self._read()]

    def undone(self) -> list[str]:
        """The ids of the steps undone lately, oldest first (read with :meth:`steps`)."""
        self._read()
        return list(self._undone)

    def _stamps(self) -> tuple[FileStamp | None, FileStamp | None]:
        return file_stamp(staged_path(self.path)), file_stamp(self.journal)

    def _read(self) -> list[tuple[KeptStep, _Text]]:
        held = self._held
        if held is not None and held[0] is _transaction():
            return held[1]  # written in this transaction: its journal's line is not appended yet
        stamps = self._stamps()
        if held is not None and held[0] == stamps and stamps != (None, None):
            return held[1]
        if stamps == (None, None):
            self._held, self.problem, self._undone, self._journal = (stamps, []), None, [], (0, 0)
            return []
        at = self.path
        try:
            steps: list[tuple[KeptStep, _Text]] = []
            undone: list[str] = []
            if stamps[0] is not None:
                data = orjson.loads(staged_path(self.path).read_bytes())
                if not isinstance(data, dict):
                    raise TypeError("not a JSON object")
                check_schema(data, self.path)
                steps = [(_step_of(doc), doc) for doc in data["steps"]]
                undone = data.get("undone", [])
                if not isinstance(undone, list) or not all(isinstance(step_id, str) for step_id in undone):
                    raise TypeError("the undone steps are not a list of ids")
            at = self.journal
            lines, size = (0, 0) if stamps[1] is None else _replay(self.journal.read_bytes(), steps, undone)
        except StoreError as error:
            return self._unreadable(str(error.reason), at)
        except OSError as error:
            return self._unreadable(f"cannot be read ({error.strerror or error})", at)
        except orjson.JSONDecodeError:
            return self._unreadable("is not valid JSON (cut short?)", at)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            return self._unreadable(f"is not paperdeck's undo steps ({malformed(error)})", at)
        # each step's text made bytes once: the bounds count them at every edit
        texts: list[tuple[KeptStep, _Text]] = [(step, _raw(text)) for step, text in steps]
        self._held, self.problem, self._undone = (stamps, _bounded(texts)), None, undone[-MAX_UNDONE:]
        self._journal = (lines, size)
        return self._held[1]

    def _unreadable(self, why: str, path: Path) -> list[tuple[KeptStep, _Text]]:
        self._held = None
        self.problem = (
            f"{file_name(path)}: {why}; the undo steps of earlier sessions are ignored and this session's"
            " are not kept in it (paperdeck leaves it as it is: move it aside to keep them again)"
        )
        return []

    def edit(self, edit: StepEdit, changes: list[Change]) -> None:
        """Add, take off or put back a step as ``edit`` says, in the transaction of the change
        (``changes``: what it wrote), under the user data's lock: one line appended to the
        journal, or the file written whole and the journal removed once the journal is at its
        bounds. Nothing is written when the file or the journal cannot be read (neither is ever
        overwritten) or the edit changes nothing.

        Raises:
            StepUndoneElsewhere: ``edit`` takes off a step another window already undid (the
                change's transaction is given up: nothing is changed).
            StoreError: the file cannot be written (the change's transaction fails with it).
        """
        from paperdeck.store.transaction import transaction
        from paperdeck.store.user_data import LockGuard

        with transaction(self.path.parent.parent) as txn, LockGuard(self._lock, self.path.parent):
            held = list(self._read())
            if self.problem is not None:
                return
            kept: list[tuple[KeptStep, _Text]] = [(step, text) for step, text in held if step.id != edit.id]
            undone = [step_id for step_id in self._undone if step_id != edit.id]
            line = b'{"id":' + orjson.dumps(edit.id)
            if not edit.undone:
                made = edit.changes if edit.changes is not None else tuple(changes)
                if not made:
                    if len(kept) == len(held) and len(undone) == len(self._undone):
                        return
                else:
                    step = KeptStep(edit.id, edit.label, self._now(), tuple(made), edit.session)
                    text = _bytes_of(step)
                    kept.append((step, text))
                    line += b',"step":' + text
            elif len(kept) == len(held):
                if edit.id in self._undone:
                    raise StepUndoneElsewhere(self.path, "this step was already undone in another window")
                return
            else:
                undone = [*undone, edit.id][-MAX_UNDONE:]
                line += b',"undone":true'
            line += b"}\n"
            kept = _bounded(kept)
            lines, size = self._journal
            if lines + 1 > MAX_JOURNAL_LINES or size + len(line) > MAX_JOURNAL_BYTES:
                self._write_whole(kept, undone)
                txn.stage_removal(self.journal)
                lines, size = 0, 0
            else:
                try:
                    txn.stage_append(self.journal, line)
                except OSError as exc:
                    raise StoreError(self.journal, write_failure(exc)) from None
                lines, size = lines + 1, size + len(line)
            self._held, self._undone, self._journal = (txn, kept), undone, (lines, size)
            txn.after_commit(lambda: self._keep(kept))

    def _write_whole(self, kept: list[tuple[KeptStep, _Text]], undone: list[str]) -> None:
        """The file written whole with ``kept`` and ``undone`` (staged in the transaction)."""
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

    def _keep(self, steps: list[tuple[KeptStep, _Text]]) -> None:
        """Hold ``steps`` as the file's and the journal's, once the transaction that wrote them is
        committed (still under the user data's lock: nobody wrote between), with their stamps
        then: read as they are, not parsed again."""
        self._held = (self._stamps(), steps)


def _transaction() -> object:
    """The transaction of this context (``None``: none)."""
    from paperdeck.store.transaction import current

    return current()


def _replay(raw: bytes, steps: list[tuple[KeptStep, _Text]], undone: list[str]) -> tuple[int, int]:
    """Apply the journal's lines ``raw`` to ``steps`` and ``undone`` (in place), in order; a last
    line cut short (no newline: a write cut off outside a transaction) is left out. Returns the
    journal's lines and bytes.

    Raises:
        orjson.JSONDecodeError, KeyError, TypeError, ValueError: a line is not an edit.
    """
    body = raw if raw.endswith(b"\n") or not raw else raw[: raw.rfind(b"\n") + 1]
    lines = 0
    for text in body.splitlines():
        if not text.strip():
            continue
        lines += 1
        line = orjson.loads(text)
        step_id = line["id"]
        if not isinstance(step_id, str):
            raise TypeError("a step's id is not text")
        steps[:] = [(step, doc) for step, doc in steps if step.id != step_id]
        undone[:] = [other for other in undone if other != step_id]
        if "step" in line:
            doc = line["step"]
            step = _step_of(doc)
            if step.id != step_id:
                raise ValueError("a line's step is not its id's")
            steps.append((step, doc))
        elif line.get("undone") is True:
            undone.append(step_id)
    return lines, len(body)


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
