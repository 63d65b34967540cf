"""One change of several store files, made whole or not at all: a transaction with a journal.

Every operation that writes more than one file of the store — an import (papers, reviews, both),
a fetch, a restore, a mark on many papers, the user's records moved to new ids — runs in one
:func:`transaction`. Inside it, :func:`~paperdeck.store.atomic.atomic_write_bytes` writes each
file in full beside its target (``.paperdeck-txn-….tmp``, synced to disk) and does not rename it;
an append (the change log) is held; readers see the staged bytes through
:func:`~paperdeck.store.atomic.staged_path`. The commit then:

1. writes each held append into a staged file too, and checks every staged file is still there;
2. writes the journal ``.paperdeck-journal-<hex>.json`` in the data directory (atomically: a
   temporary file, synced, renamed): the list of renames (staged file → target) and appends
   (staged bytes → target at an offset) and removals (a file the change takes away). Once the
   journal is in place the change is made;
3. renames each staged file over its target, writes each append (truncating the target to the
   offset first, so doing it twice is doing it once), removes each file taken away (one gone
   already is done), syncs the directories;
4. removes the journal.

A failure (an error, a full disk, a kill) before step 2 leaves every target as it was: the staged
files are removed (by the failing process, or by age when it was killed). A failure after step 2
is finished by :func:`recover`, which the store runs when it opens: every journal found is
rolled forward (each step again, skipping those already done) and removed. The commit and the
recovery hold the commit lock (``.commit.lock``), so a recovery never replays a live commit.

Locks taken inside a transaction (the import lock, the user-data lock) are held until it ends,
so no other writer reads a file between the staging and the rename.

The one API::

    with transaction(data_dir) as txn:   # or Store.transaction()
        ...                                # every store write here is part of it
        txn.stage_removal(path)            # the file is removed at the commit, with the rest
        txn.before_commit(key, callback)   # runs once at the end of the block, in the transaction
        txn.after_commit(callback)         # runs once the change is made (stamps, clean-up)

Transactions on the same directory in the same context join the outer one (a fetch's import of
papers and of reviews is one). Errors: a failure before the commit raises
:class:`~paperdeck.model.errors.StoreError` whose reason says "nothing was changed"; a failure
after it (the renames) is retried once, then raises a StoreError that says the change is saved
and finished the next time paperdeck opens the store.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import (
    ACTIVE,
    atomic_write_bytes,
    fsync_directory,
    new_temp_file,
    staged_prefix,
    write_all,
    write_failure,
)
from paperdeck.store.lock import FileLock, LockTimeout

__all__ = ["COMMIT_LOCK_FILE", "JOURNAL_PREFIX", "NOT_FINISHED", "Transaction", "recover", "transaction"]

JOURNAL_PREFIX = ".paperdeck-journal-"
JOURNAL_SUFFIX = ".json"
COMMIT_LOCK_FILE = ".commit.lock"
_COMMIT_LOCK_TIMEOUT_S = 60.0
_JOURNAL_SCHEMA = 1
#: Said when a change is committed but its renames failed: true, and what happens next.
NOT_FINISHED = "the change is saved but not yet in place; paperdeck finishes it the next time it opens the store"


class Transaction:
    """The files staged for one change of the store under ``root``, and the locks it holds.
    Made by :func:`transaction`; thread-safe (the reviews are written by several threads).

    Args:
        root: the data directory; only files under it are staged (others are written at once).
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))
        self._mutex = threading.Lock()
        self._replaced: dict[Path, str] = {}  # target (real path) -> staged file
        self._appended: dict[Path, tuple[int, bytearray]] = {}  # target -> (offset, bytes)
        self._removed: dict[Path, None] = {}  # targets taken away at the commit, in order asked
        self._after: list[Callable[[], None]] = []
        self._before: dict[str, Callable[[], None]] = {}
        self._locks: dict[Path, FileLock] = {}
        self.committed = False

    def covers(self, path: Path) -> bool:
        """Whether ``path`` (a real path) lies under the transaction's directory."""
        return path.is_relative_to(self.root)

    def stage_file(self, target: Path, staged: str) -> None:
        """Take ``staged`` (a synced file beside ``target``, a real path) as the new ``target``;
        a file staged for it before is removed."""
        with self._mutex:
            old = self._replaced.get(target)
            self._replaced[target] = staged
            self._removed.pop(target, None)
        if old is not None:
            with contextlib.suppress(OSError):
                os.unlink(old)

    def stage_removal(self, target: Path) -> None:
        """Remove ``target`` at the commit, as a step of the journal (so a roll forward removes it
        too); a file staged for it before is dropped. Nothing when it is not there by then."""
        target = Path(os.path.realpath(target))
        with self._mutex:
            old = self._replaced.pop(target, None)
            self._removed[target] = None
        if old is not None:
            with contextlib.suppress(OSError):
                os.unlink(old)

    def staged(self, path: Path) -> Path | None:
        """The staged file holding ``path``'s new bytes, or ``None`` when none is staged."""
        with self._mutex:
            if not self._replaced:
                return None
            name = self._replaced.get(Path(os.path.realpath(path)))
        return Path(name) if name is not None else None

    def stage_append(self, target: Path, payload: bytes) -> None:
        """Hold ``payload`` to be appended to ``target`` at the commit (after a line cut short, a
        newline first).

        Raises:
            OSError: the target's size cannot be read.
        """
        target = Path(os.path.realpath(target))
        with self._mutex:
            held = self._appended.get(target)
            if held is not None:
                held[1].extend(payload)
                return
        try:
            size = os.stat(target).st_size
        except FileNotFoundError:
            size = 0
        prefix = b""
        if size:
            with open(target, "rb") as handle:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    prefix = b"\n"
        with self._mutex:
            self._appended[target] = (size, bytearray(prefix + payload))

    def before_commit(self, key: str, callback: Callable[[], None]) -> None:
        """Run ``callback`` at the end of the block, still in the transaction (its writes are
        part of it), once per ``key`` however often asked: work that need be done only once
        for the whole change, and that takes a lock others wait on (the user records' move
        to new ids), is left to the end. An error it raises aborts the transaction."""
        with self._mutex:
            self._before.setdefault(key, callback)

    def run_before_commit(self) -> None:
        """Run the :meth:`before_commit` callbacks, in the order first asked (a callback may ask
        for more)."""
        while True:
            with self._mutex:
                if not self._before:
                    return
                key = next(iter(self._before))
                callback = self._before.pop(key)
            callback()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the change is made (not at all when it is not); its errors are
        ignored (it is for what may be redone: stamps, removing files no one names)."""
        with self._mutex:
            self._after.append(callback)

    def holds(self, lock_path: Path) -> bool:
        """Whether the transaction holds the lock on ``lock_path``."""
        return Path(os.path.realpath(lock_path)) in self._locks

    def keep(self, lock: FileLock) -> None:
        """Hold ``lock`` (taken) until the transaction ends."""
        self._locks[Path(os.path.realpath(lock.path))] = lock

    @property
    def empty(self) -> bool:
        """Whether nothing was staged."""
        return not self._replaced and not self._appended and not self._removed

    def commit(self) -> None:
        """Make the staged change (see the module docstring).

        Raises:
            StoreError: before the journal is in place (nothing was changed then, every staged file
                removed), or after it, the renames failing twice (:data:`NOT_FINISHED`).
        """
        if self.empty:
            self.committed = True
            self._run_after()
            return
        entries: list[dict[str, Any]] = []
        for target, staged in self._replaced.items():
            entries.append({"op": "replace", "staged": self._relative(Path(staged)), "target": self._relative(target)})
        try:
            for target, (offset, data) in self._appended.items():
                fd, name = new_temp_file(target.parent, staged_prefix())
                self._replaced[Path(name)] = name  # removed with the others on abort
                try:
                    write_all(fd, bytes(data))
                    os.fsync(fd)
                finally:
                    os.close(fd)
                entry = {"op": "append", "staged": self._relative(Path(name)), "target": self._relative(target)}
                entries.append({**entry, "offset": offset})
        except OSError as exc:
            raise StoreError(exc.filename or self.root, write_failure(exc)) from None
        entries.extend({"op": "remove", "target": self._relative(target)} for target in self._removed)
        payload = orjson.dumps({"schema": _JOURNAL_SCHEMA, "app": "paperdeck", "steps": entries})
        journal = self.root / f"{JOURNAL_PREFIX}{os.urandom(8).hex()}{JOURNAL_SUFFIX}"
        with _commit_lock(self.root):
            _roll_forward_all(self.root)  # a journal a killed process left comes first
            for entry in entries:
                if entry["op"] == "remove":
                    continue
                kept = self.root / entry["staged"]
                if not kept.exists():
                    reason = f"a staged file is gone ({kept.name}); nothing was changed — try again"
                    raise StoreError(self.root, reason)
            atomic_write_bytes(journal, payload)  # raises StoreError: nothing was changed
            self.committed = True
            try:
                _roll_forward(self.root, entries)
            except KeyboardInterrupt:  # the change is made: not "nothing was changed"
                raise StoreError(self.root, f"interrupted; {NOT_FINISHED}") from None
            except OSError:
                try:  # once more: a passing fault
                    _roll_forward(self.root, entries)
                except OSError as exc:
                    raise StoreError(exc.filename or self.root, NOT_FINISHED) from None
            with contextlib.suppress(OSError):
                os.unlink(journal)
                fsync_directory(self.root)
        self._run_after()

    def abort(self) -> None:
        """Remove every staged file; the targets were never touched."""
        with self._mutex:
            staged = list(self._replaced.values())
            self._replaced.clear()
            self._appended.clear()
            self._removed.clear()
            self._after.clear()
        for name in staged:
            with contextlib.suppress(OSError):
                os.unlink(name)

    def release(self) -> None:
        """Let go of every lock held (last taken first)."""
        locks = list(self._locks.values())
        self._locks.clear()
        for lock in reversed(locks):
            lock.release()

    def _relative(self, path: Path) -> str:
        return str(Path(os.path.realpath(path)).relative_to(self.root))

    def _run_after(self) -> None:
        with self._mutex:
            callbacks = list(self._after)
            self._after.clear()
        for callback in callbacks:
            with contextlib.suppress(Exception):
                callback()


def current() -> Transaction | None:
    """The transaction this context writes in, or ``None``."""
    txn = ACTIVE.get()
    return txn if isinstance(txn, Transaction) else None


@contextlib.contextmanager
def transaction(root: Path | str) -> Iterator[Transaction]:
    """Run the block as one transaction on the store in ``root`` (see the module docstring);
    inside a transaction on the same directory, the block joins it.

    Raises:
        StoreError: the change could not be made (the reason says whether anything changed);
            an ``OSError`` raised in the block becomes one (nothing was changed).
    """
    outer = current()
    if outer is not None and outer.root == Path(os.path.realpath(root)):
        yield outer
        return
    txn = Transaction(Path(root))
    token = ACTIVE.set(txn)
    try:
        try:
            yield txn
            txn.run_before_commit()
        finally:
            ACTIVE.reset(token)
        txn.commit()
    except BaseException as exc:
        if not txn.committed:
            txn.abort()
            if isinstance(exc, OSError):
                raise StoreError(exc.filename or txn.root, write_failure(exc)) from None
        raise
    finally:
        txn.release()


def recover(root: Path) -> int:
    """Finish every change a process left committed but not in place (its journal is in
    ``root``): rolled forward, its journal removed. How many were finished; 0 at once (no lock
    taken) when there is no journal.

    Raises:
        StoreError: ``root`` cannot be listed, or a change cannot be finished (a read-only disk):
            one line naming the path.
    """
    try:
        names = [name for name in os.listdir(root) if name.startswith(JOURNAL_PREFIX)]
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StoreError(root, f"cannot list the data directory: {exc.strerror or exc}; check the disk") from None
    if not names:
        return 0
    with _commit_lock(Path(os.path.realpath(root))):
        return _roll_forward_all(Path(os.path.realpath(root)))


def _roll_forward_all(root: Path) -> int:
    """Roll forward every journal in ``root``, oldest first (the commit lock held)."""
    journals = sorted(
        (path for path in root.glob(f"{JOURNAL_PREFIX}*{JOURNAL_SUFFIX}")),
        key=lambda path: path.stat().st_mtime_ns,
    )
    finished = 0
    for journal in journals:
        try:
            data = orjson.loads(journal.read_bytes())
            steps = data["steps"]
        except FileNotFoundError:
            continue
        except (ValueError, TypeError, KeyError) as exc:  # written atomically: never half; not ours
            raise StoreError(journal, f"not a paperdeck journal ({exc}); move it aside") from None
        except OSError as exc:
            raise StoreError(journal, f"cannot read: {exc.strerror or exc}") from None
        try:
            _roll_forward(root, steps)
            os.unlink(journal)
        except OSError as exc:
            raise StoreError(exc.filename or journal, f"cannot finish the last change: {exc.strerror or exc}") from None
        fsync_directory(root)
        finished += 1
    return finished


def _roll_forward(root: Path, steps: list[dict[str, Any]]) -> None:
    """Do each step of a journal that is not done yet (a staged file still there is a step not
    done; an append is written from its offset, so redoing it is harmless; a file to remove that
    is gone is removed), then sync the directories.

    Raises:
        OSError: a rename or write failed (the journal stays: the next try goes on from there).
    """
    directories: set[Path] = set()
    for step in steps:
        target = root / str(step["target"])
        directories.add(target.parent)
        if step["op"] == "remove":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
            continue
        staged = root / str(step["staged"])
        if step["op"] == "replace":
            try:
                os.replace(staged, target)
            except FileNotFoundError:
                if os.path.lexists(staged):
                    raise
        elif step["op"] == "append":
            try:
                data = staged.read_bytes()
            except FileNotFoundError:
                continue  # done: the staged bytes are removed only once written
            fd = os.open(target, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                os.ftruncate(fd, int(step["offset"]))
                os.lseek(fd, int(step["offset"]), os.SEEK_SET)
                write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.unlink(staged)
    for directory in directories:
        fsync_directory(directory)


@contextlib.contextmanager
def _commit_lock(root: Path) -> Iterator[None]:
    lock = FileLock(root / COMMIT_LOCK_FILE, timeout=_COMMIT_LOCK_TIMEOUT_S)
    try:
        lock.acquire()
    except LockTimeout:
        raise StoreError(root, "another paperdeck has been committing a change for over a minute; try again") from None
    except OSError as exc:
        if exc.errno != errno.EROFS:
            raise StoreError(root, write_failure(exc)) from None
        yield  # a read-only disk: no one else writes
        return
    try:
        yield
    finally:
        lock.release()
