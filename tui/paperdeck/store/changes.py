"""The catalogue's change log: what each import changed on each paper (:mod:`paperdeck.model.changes`).

``changes.jsonl`` in the data directory, catalogue-side data (written only by imports), one
compact JSON object per paper changed per import (:meth:`PaperChange.to_dict
<paperdeck.model.changes.PaperChange.to_dict>`), oldest first. It is only ever appended to (but
for an undo, which cuts it back to before the change it takes back, :meth:`ChangeLog.cut_back`): an
import writes its lines in one ``write`` after the catalogue and the reviews are committed, and
fsyncs the file (and the directory, when it made the file). A failed import records nothing. A line
cut short by a crash is skipped on reading, and the next append starts on a line of its own.

:class:`ChangeLog` is the file; :class:`ChangeHistory` reads it as the catalogue stands now (each
change under its paper's current id) and against the user's records (what changed since they last
looked: opened the paper, or marked every change seen).

"Changed" means changed since the user last looked. The user's last look at the whole store is
``changes-seen.json`` in the data directory (:class:`SeenMark`; the user's, beside the change log it
marks), the time of the latest change seen:

- the imports made before the user first opens the store in the app (the README's setup: the
  dump, the Parquet, the reviews) are its baseline: until the app sets the mark, nothing is
  changed, and the app's first open sets it to the latest change then recorded
  (:meth:`ChangeHistory.first_look`);
- "mark all seen" (:meth:`ChangeHistory.mark_all_seen`) moves it to the latest change recorded:
  every import made since the last look, with no look in between, is seen at once;
- a paper opened (its reader or its reviews) is seen up to then (its record's ``looked``).

A change is new when it was recorded after both the mark and the paper's own look.

Score moves and the reviews' histories (:mod:`paperdeck.store.review_history`) are one record: a
move already in a review's history when the user looked (imported in the baseline, or before the
look) is history, shown as the review's path and never as a change; an import after the look that
brings a newer version records the move from the version the store held then (the one the user
saw), and one that brings only an older version adds it to the history and records nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import ACTIVE, atomic_write_bytes, write_failure
from paperdeck.store.file_stamp import FileStamp, file_stamp

if TYPE_CHECKING:  # imported where a change is read: the list asks for changes before any is recorded
    from paperdeck.model.changes import PaperChange
    from paperdeck.store.catalogue import Catalogue
    from paperdeck.store.user_data import UserStore

__all__ = ["CHANGES_FILE", "SEEN_FILE", "ChangeHistory", "ChangeLog", "SeenMark"]

#: The change log's file name in the data directory.
CHANGES_FILE = "changes.jsonl"
#: The user's last look at every change, in the data directory (:class:`SeenMark`).
SEEN_FILE = "changes-seen.json"


def _stamp(path: Path) -> FileStamp | None:
    """The :class:`~paperdeck.store.file_stamp.FileStamp` of the file at ``path``, ``None`` when
    there is none (one ``stat``): what the change log and the seen mark compare to know their file
    changed."""
    return file_stamp(path)


class ChangeLog:
    """The change log of a store, read whole on first need and again when the file changed.

    Args:
        path: the ``changes.jsonl`` file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The file's stamp when last read, and what it held (one tuple: threads read it at once).
        self._read: tuple[FileStamp | None, list[PaperChange]] = (None, [])

    def stamp(self) -> FileStamp | None:
        """The file's :func:`_stamp`."""
        return _stamp(self.path)

    def read(self) -> list[PaperChange]:
        """Every recorded change, oldest first (a copy); ``[]`` when nothing was recorded.
        Malformed lines (cut short by a crash, edited by hand) are skipped.

        Raises:
            StoreError: the file exists but cannot be read.
        """
        stamp = self.stamp()
        if stamp is None:
            self._read = (None, [])
            return []
        held_stamp, held = self._read
        if stamp != held_stamp:
            try:
                raw = self.path.read_bytes()
            except OSError as exc:
                raise StoreError(self.path, f"cannot read: {exc.strerror or exc}") from None
            from paperdeck.model.changes import PaperChange

            found = []
            for line in raw.splitlines():
                try:
                    data = orjson.loads(line)
                    if isinstance(data, dict):
                        found.append(PaperChange.from_dict(data))
                except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                    continue
            self._read = (stamp, found)
            held = found
        return list(held)

    def cut_back(self, size: int) -> None:
        """Set the file back to its first ``size`` bytes, atomically (an undone import or removal:
        what it recorded is taken back with it, while nothing was recorded after it); in a
        transaction, at its commit.

        Raises:
            StoreError: the file cannot be read or written.
        """
        if not self.path.exists():
            return
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise StoreError(self.path, f"cannot read: {exc.strerror or exc}") from None
        if len(raw) > size:
            atomic_write_bytes(self.path, raw[:size])

    def append(self, changes: Iterable[PaperChange]) -> int:
        """Append ``changes`` (empty ones left out) in one write, durably.

        Returns:
            how many were written.

        Raises:
            StoreError: the file cannot be written (nothing of this call is in it then, but for a
                line cut short, which :meth:`read` skips). In a transaction
                (:mod:`paperdeck.store.transaction`) the lines are appended at its commit.
        """
        lines = [orjson.dumps(change.to_dict()) + b"\n" for change in changes if not change.is_empty]
        if not lines:
            return 0
        payload = b"".join(lines)
        txn = ACTIVE.get()
        if txn is not None and txn.covers(Path(os.path.realpath(self.path))):
            try:
                txn.stage_append(self.path, payload)  # appended at the commit
            except OSError as exc:
                raise StoreError(self.path, write_failure(exc)) from None
            return len(lines)
        existed = self.path.exists()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size and _last_byte(self.path, size) != b"\n":
                    payload = b"\n" + payload  # after a line cut short: start a line of our own
                view = memoryview(payload)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)
            if not existed:
                with contextlib.suppress(OSError):
                    directory = os.open(self.path.parent, os.O_RDONLY)
                    try:
                        os.fsync(directory)
                    finally:
                        os.close(directory)
        except OSError as exc:
            raise StoreError(self.path, write_failure(exc)) from None
        return len(lines)


class FirstSeenLeftOut(ChangeLog):
    """``log``, for the review step of an import that added papers: the changes it records on
    the papers this import first saw (``first_seen``: their ids in the catalogue now) are left
    out. Their first reviews, ratings and decision are how the import found them, not news about
    them ("– → 5", dated at the import): such a paper is *new* (the paper step's record says so,
    when it records new papers), never *changed*.
    """

    def __init__(self, log: ChangeLog, first_seen: Iterable[str]) -> None:
        super().__init__(log.path)
        self._log = log
        self._first_seen = frozenset(first_seen)

    def append(self, changes: Iterable[PaperChange]) -> int:
        """:meth:`ChangeLog.append` of ``changes`` on papers not first seen by this import."""
        return self._log.append(change for change in changes if change.paper_id not in self._first_seen)


class SeenMark:
    """When the user last saw every change: ``{"seen": "<ISO 8601 UTC>", "baseline": "<…>"}``,
    the time of the latest change recorded when they looked (``""``: none was recorded yet), and
    that time when they first opened the store in the app (the baseline: changes up to it are
    the paper's first imports, not news; :func:`~paperdeck.model.changes.in_baseline`), kept as
    the seen mark moves on. No file: the user never opened the store in the app, and every change
    recorded so far is the baseline. A file written before the baseline was kept (no
    ``"baseline"``) has its seen mark as the baseline.

    Args:
        path: the file (``changes-seen.json`` in the data directory).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The file's stamp when last read, and what it held (the seen mark, the baseline).
        self._read: tuple[FileStamp | None, tuple[str, str] | None] = (None, None)

    def stamp(self) -> FileStamp | None:
        """The file's :func:`_stamp`."""
        return _stamp(self.path)

    def read(self) -> str | None:
        """The mark; ``None`` when there is none (never set). A file that cannot be read or parsed
        counts as a mark at the start of time (every change new: none is hidden by mistake)."""
        held = self._marks()
        return held[0] if held is not None else None

    def baseline(self) -> str | None:
        """The time of the latest change recorded when the user first opened the store in the
        app; ``None`` when they never did (every change so far is the baseline)."""
        held = self._marks()
        return held[1] if held is not None else None

    def _marks(self) -> tuple[str, str] | None:
        """The seen mark and the baseline, read again only when the file changed."""
        stamp = self.stamp()
        if stamp is None:
            return None
        held_stamp, held = self._read
        if stamp == held_stamp:
            return held
        try:
            data = orjson.loads(self.path.read_bytes())
            seen = data["seen"] if isinstance(data, dict) and isinstance(data.get("seen"), str) else ""
            given = data.get("baseline") if isinstance(data, dict) else None
            baseline = given if isinstance(given, str) else seen
        except (OSError, orjson.JSONDecodeError):
            seen = baseline = ""
        self._read = (stamp, (seen, baseline))
        return seen, baseline

    def write(self, seen: str) -> None:
        """Set the mark to ``seen`` (atomic and durable); the baseline stays, or is ``seen`` when
        there was no mark.

        Raises:
            StoreError: the file cannot be written (the mark stays as it was).
        """
        baseline = self.baseline()
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write_bytes(self.path, orjson.dumps({"seen": seen, "baseline": seen if baseline is None else baseline}))


class ChangeHistory:
    """The change log read as the catalogue stands now: each change under its paper's current
    id, indexed by paper, and which papers changed since the user last looked (the module's
    docstring says when that is).

    Args:
        log: the store's change log.
        catalogue: whose aliases give each change its paper's current id.
        user: whose records say when the user last opened each paper.
        seen: when the user last saw every change (default: ``changes-seen.json`` beside the
            change log).
    """

    def __init__(self, log: ChangeLog, catalogue: Catalogue, user: UserStore, seen: SeenMark | None = None) -> None:
        self.log = log
        self.seen = seen if seen is not None else SeenMark(log.path.parent / SEEN_FILE)
        self._catalogue = catalogue
        self._user = user
        #: (the log's stamp, how many aliases) and the changes read then, in order and by paper.
        self._changes_cache: tuple[object, list[PaperChange], dict[str, list[PaperChange]]] | None = None
        #: (the log's stamp, the user data's version, how many aliases) and what changed since looked.
        self._changed_cache: tuple[object, dict[str, frozenset[str]]] | None = None

    def changes(self, since: str = "") -> list[PaperChange]:
        """Every change imports recorded at or after ``since`` (ISO 8601 text, compared as text:
        ``"2026-11-29"`` is that day's start in UTC; ``""``: all), oldest first, each under its
        paper's current id (a merge may have given it a better one since).

        Raises:
            StoreError: the change log cannot be read.
        """
        return [change for change in self._read()[0] if change.at >= since]

    def _read(self) -> tuple[list[PaperChange], dict[str, list[PaperChange]]]:
        """The change log, ids resolved, in order and by paper; read again only when the log or
        the aliases changed."""
        aliases = self._catalogue.held_aliases
        key = (self.log.stamp(), len(aliases))
        cached = self._changes_cache
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        resolve = self._catalogue.resolve
        changes = [
            replace(change, paper_id=resolve(change.paper_id)) if change.paper_id in aliases else change
            for change in self.log.read()
        ]
        by_paper: dict[str, list[PaperChange]] = {}
        for change in changes:
            by_paper.setdefault(change.paper_id, []).append(change)
        self._changes_cache = (key, changes, by_paper)
        return changes, by_paper

    def paper_changes(self, paper_id: str, since: str = "") -> list[PaperChange]:
        """The changes recorded on one paper (its id or an alias) at or after ``since``, oldest
        first (from an index by paper: cheap enough for each move of the list's cursor).

        Raises:
            StoreError: the change log cannot be read.
        """
        by_paper = self._read()[1]
        return [c for c in by_paper.get(self._catalogue.resolve(paper_id), ()) if c.at >= since]

    def changes_by_paper(self, since: str = "") -> dict[str, PaperChange]:
        """Each paper's changes at or after ``since`` as one (:func:`paperdeck.model.changes.combined`),
        by current paper id, the latest changed first.

        Raises:
            StoreError: the change log cannot be read.
        """
        grouped: dict[str, list[PaperChange]] = {}
        for change in self.changes(since):
            grouped.setdefault(change.paper_id, []).append(change)
        from paperdeck.model.changes import combined

        joined = {pid: c for pid, items in grouped.items() if (c := combined(items)) is not None}
        return dict(sorted(joined.items(), key=lambda item: item[1].at, reverse=True))

    def changed_since_looked(self) -> dict[str, frozenset[str]]:
        """The papers with a change recorded after the user last looked (after both the
        :class:`SeenMark` and the paper's own look; no mark yet: none), by current id, with what
        changed (:data:`paperdeck.model.changes.CHANGE_KINDS`). Cached until the log, the mark,
        the user data or the aliases change; a log that cannot be read counts as none."""
        baseline = self.seen.read()
        key = (self.log.stamp(), self.seen.stamp(), self._user.version, len(self._catalogue.held_aliases))
        cached = self._changed_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        if baseline is None:
            self._changed_cache = (key, {})
            return {}
        try:
            by_paper = self._read()[1]
        except StoreError:
            self._changed_cache = (key, {})
            return {}
        result: dict[str, frozenset[str]] = {}
        get = self._user.get
        for paper_id, changes in by_paper.items():
            since = max(get(paper_id).looked, baseline)
            kinds = frozenset().union(*(c.kinds for c in changes if c.at > since))
            if kinds:
                result[paper_id] = kinds
        self._changed_cache = (key, result)
        return result

    def _latest(self) -> str:
        """The time of the latest change recorded (``""``: none, or a log that cannot be read)."""
        try:
            changes = self._read()[0]
        except StoreError:
            return ""
        return max((change.at for change in changes), default="")

    def first_look(self) -> bool:
        """The user opens the store in the app: when they never did (no mark), every change
        recorded so far becomes the baseline. True when the mark was set now.

        Raises:
            StoreError: the mark cannot be written.
        """
        if self.seen.read() is not None:
            return False
        self.seen.write(self._latest())
        return True

    def seen_mark(self) -> str | None:
        """The mark (:class:`SeenMark`): when the user last saw every change; ``None``: never."""
        return self.seen.read()

    def paper_history(self, paper_id: str, rating_now: float | None = float("nan")) -> list[PaperChange]:
        """:meth:`paper_changes` of one paper as its history says them: the baseline's folded
        into one line of its first imports (:func:`~paperdeck.model.changes.with_baseline`, its
        rating left out when it is not ``rating_now``, the paper's mean rating now: NaN, not
        known), the later ones as they are.

        Raises:
            StoreError: the change log cannot be read.
        """
        from paperdeck.model.changes import with_baseline

        return with_baseline(self.paper_changes(paper_id), self.seen.baseline(), rating_now)

    def baseline(self) -> str | None:
        """:meth:`SeenMark.baseline`: changes at or before it are the paper's first imports."""
        return self.seen.baseline()

    def set_seen_mark(self, mark: str | None) -> None:
        """Put the mark back to ``mark`` (as :meth:`seen_mark` read it before a change: undoing
        :meth:`mark_all_seen`); ``None`` removes it.

        Raises:
            StoreError: the mark cannot be written (it stays as it was).
        """
        if mark is not None:
            self.seen.write(mark)
            return
        try:
            self.seen.path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(self.seen.path, write_failure(exc)) from None

    def mark_all_seen(self) -> int:
        """Every change recorded so far is seen: nothing is changed until the next import.

        Returns:
            how many papers of the catalogue were changed since the last look before this.

        Raises:
            StoreError: the mark cannot be written (nothing changed then).
        """
        held = set(self._catalogue.paper_ids)  # a paper removed since is changed for no one
        cleared = sum(1 for paper_id in self.changed_since_looked() if paper_id in held)
        self.seen.write(max(self._latest(), self.seen.read() or ""))
        return cleared


def _last_byte(path: Path, size: int) -> bytes:
    with path.open("rb") as handle:
        handle.seek(size - 1)
        return handle.read(1)
