"""A TinyDB storage whose writes are atomic and durable.

TinyDB's stock ``JSONStorage`` rewrites its file in place: a crash mid-write (``kill -9``) can leave
it truncated. This storage writes a temporary file
in the same directory, flushes and fsyncs it, renames it over the old file with ``os.replace`` and
fsyncs the directory, so a reader sees either the old file or the new one, never a mix.

:func:`atomic_write_bytes` is the one writer of whole files (the store's files, exports, backups,
caches). A symbolic link is written through, as a shell's ``>`` would: the temporary file is made
beside the link's target and renamed over the target, so the link stays a link. The store makes
none of its own files links, but a user who links one (to keep it on another disk) keeps the link.
An existing file keeps its permission bits; a new one gets mode 0600.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from paperdeck.model.errors import StoreError

#: Prefix and suffix of the temporary files; ``clean_stray_temp_files`` removes leftovers.
TEMP_PREFIX = ".paperdeck-"
TEMP_SUFFIX = ".tmp"
#: Prefix of the files a transaction stages (:mod:`paperdeck.store.transaction`): left longer
#: by ``clean_stray_temp_files`` (a long import stages them minutes before it commits).
STAGED_PREFIX = ".paperdeck-txn-"
_STAGED_KEPT_S = 3600.0


if TYPE_CHECKING:  # a type alone: a Protocol class costs its making at every start
    from typing import Protocol

    class Staging(Protocol):
        """What the writers here ask of a transaction (:class:`paperdeck.store.transaction.Transaction`)."""

        def covers(self, path: Path) -> bool:
            """Whether ``path`` (a real path) is the transaction's to stage."""
            ...

        def staged(self, path: Path) -> Path | None:
            """The file staged for ``path``, or ``None``."""
            ...

        def stage_file(self, target: Path, staged: str) -> None:
            """Take the synced file ``staged`` as the new ``target`` at the commit."""
            ...

        def stage_append(self, target: Path, payload: bytes) -> None:
            """Append ``payload`` to ``target`` at the commit."""
            ...

        def stage_removal(self, target: Path) -> None:
            """Remove ``target`` at the commit."""
            ...

        def after_commit(self, callback: Any) -> None:
            """Run ``callback`` once the change is made."""
            ...


#: The transaction this context writes in (:func:`paperdeck.store.transaction.transaction`
#: sets it): :func:`atomic_write_bytes` stages into it the files under its directory.
ACTIVE: ContextVar[Staging | None] = ContextVar("paperdeck_transaction", default=None)


def staged_path(path: Path) -> Path:
    """Where the bytes of ``path`` are as this context sees them: the file staged for it by the
    active transaction (not yet renamed into place), else ``path`` itself. Readers that read a
    file they may have written in the same transaction (and stamps taken of it) go through this."""
    txn = ACTIVE.get()
    if txn is None:
        return path
    return txn.staged(path) or path


#: Mode of every new file written into the store: the user's notes are private.
FILE_MODE = 0o600


def shared_file_mode() -> int:
    """The mode a new file gets from ``open()`` in this process: 0666 less the umask (0644 under
    the usual 022). For files written for others to read, such as exports, as any program writes
    them; the store's own files keep :data:`FILE_MODE`. (The umask can only be read by setting it:
    it is set back at once.)"""
    mask = os.umask(0o077)
    os.umask(mask)
    return 0o666 & ~mask


class AtomicJSONStorage:
    """TinyDB storage: one JSON file, read whole, replaced whole and atomically on every write.
    It has what TinyDB asks of a storage (``read``, ``write``, ``close``) without deriving from
    TinyDB's ``Storage``: a command that only reads the store's files imports no TinyDB.

    Args:
        path: the JSON file; created (mode 0600) on the first write, not on open.

    Raises:
        StoreError: on read, when the file is not valid JSON or not a JSON object; on write,
            when the directory cannot be written (the old file is then left as it was).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        """Return the whole database (``{table: {doc_id: doc}}``), or ``None`` when there is no file
        or it is blank.

        Raises:
            StoreError: the path is a directory, cannot be read, is not valid JSON (naming the
                line) or is not a JSON object.
        """
        try:
            path = staged_path(self.path)
            check_regular_file(path)
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise StoreError(self.path, "is a directory where a store file should be; move it aside") from None
        except OSError as exc:
            reason = f"cannot read: {exc.strerror or exc}; check its permissions"
            raise StoreError(self.path, reason) from None
        if not raw.strip():
            return None
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            line = raw.count(b"\n", 0, exc.pos) + 1
            raise StoreError(
                self.path,
                f"line {line}: not valid JSON ({exc.msg}); "
                "restore it from a backup or move it aside — paperdeck will not overwrite it",
            ) from None
        if not isinstance(data, dict):
            raise StoreError(
                self.path,
                "not a paperdeck store (the top level is not a JSON object); "
                "move it aside — paperdeck will not overwrite it",
            )
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        """Replace the file with ``data`` atomically and durably (see the module docstring)."""
        atomic_write_bytes(self.path, orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS))

    def close(self) -> None:
        """Nothing to close: the file is open only during a read or a write."""


def atomic_write_bytes(path: Path, payload: bytes | Iterable[bytes], new_mode: int = FILE_MODE) -> None:
    """Write ``payload`` (bytes, or pieces of them written as they come, so that a long export
    is never held whole) to ``path`` atomically and durably. A symbolic link at ``path`` (or in
    its directories) is followed: its target is replaced and the link kept. An existing file
    keeps its permission bits; a new file gets ``new_mode`` (0600 unless said). An error raised by
    the pieces' iterator leaves ``path`` as it was, no temporary file remaining.

    An existing ``path`` is replaced only when it is a regular file its owner may write: a file
    made read-only (``chmod a-w``) is the user saying "do not change this", and a FIFO, device or
    socket is not a file to replace (callers that write into those open them themselves).

    Inside a transaction (:mod:`paperdeck.store.transaction`) that covers ``path``, the file is
    written and synced but not renamed: the transaction renames it at its commit.

    Raises:
        StoreError: ``path`` is read-only or not a regular file, or the directory cannot be
            written (full disk, read-only, permissions); ``path`` is left as it was and no
            temporary file remains.
    """

    def fill(fd: int) -> None:
        for piece in _pieces(payload):
            write_all(fd, piece)

    _atomic_write(path, fill, new_mode)


def atomic_write_into(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` as :func:`atomic_write_bytes` does, its bytes written by ``write`` into the
    temporary file (a seekable binary file, closed after it): for a writer that makes a file
    itself (``numpy.savez``), written once in place rather than made aside and copied.

    Raises:
        StoreError: as :func:`atomic_write_bytes`.
    """

    def fill(fd: int) -> None:
        with os.fdopen(fd, "wb", closefd=False) as out:
            write(out)

    _atomic_write(path, fill)


def _atomic_write(path: Path, fill: Callable[[int], None], new_mode: int = FILE_MODE) -> None:
    """:func:`atomic_write_bytes`'s work, the temporary file's descriptor filled by ``fill``; a new
    file gets ``new_mode``."""
    shown = path
    path = Path(os.path.realpath(path))  # a link's target is what is replaced
    directory = path.parent
    tmp_name: str | None = None
    try:
        current = os.stat(path)
    except OSError:
        current = None  # missing (or a dangling link): nothing to protect
    if current is not None:
        if not stat.S_ISREG(current.st_mode):
            raise StoreError(shown, f"{not_a_file(current.st_mode)}; nothing was changed — move it aside")
        if not current.st_mode & stat.S_IWUSR:
            raise StoreError(
                shown, "is read-only; nothing was changed — make it writable (chmod u+w) or write elsewhere"
            )
    txn = ACTIVE.get()
    if txn is not None and not txn.covers(path):
        txn = None
    try:
        fd, tmp_name = new_temp_file(directory, staged_prefix() if txn is not None else TEMP_PREFIX)
        try:
            fill(fd)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp_name, new_mode if current is None else stat.S_IMODE(current.st_mode))
        if txn is not None:
            txn.stage_file(path, tmp_name)
            tmp_name = None
            return
        os.replace(tmp_name, path)
        tmp_name = None
        fsync_directory(directory)
    except OSError as exc:
        raise StoreError(shown, write_failure(exc)) from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


#: How :func:`new_temp_file` opens a temporary file: created here, by this call alone, never
#: through a link (what :func:`tempfile.mkstemp` does).
_TEMP_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_TEMP_ATTEMPTS = 100


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the descriptor (``os.write`` may write less than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def new_temp_file(directory: Path, prefix: str = TEMP_PREFIX) -> tuple[int, str]:
    """A new file in ``directory``, ``prefix`` + 16 random hex digits + ``TEMP_SUFFIX``,
    mode 0600, open for writing: its descriptor and path. As :func:`tempfile.mkstemp`, without
    importing :mod:`tempfile` (and the :mod:`shutil` and :mod:`random` it brings) for one call.

    Raises:
        OSError: the directory cannot be written, or every name tried was taken.
    """
    for _ in range(_TEMP_ATTEMPTS):
        name = os.path.join(directory, f"{prefix}{os.urandom(8).hex()}{TEMP_SUFFIX}")
        try:
            return os.open(name, _TEMP_FLAGS, FILE_MODE), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no temporary file name left", str(directory))


def _pieces(payload: bytes | Iterable[bytes]) -> Iterable[bytes]:
    return (payload,) if isinstance(payload, bytes) else payload


def write_into_stream(path: Path, payload: bytes | Iterable[bytes]) -> bool:
    """Write ``payload`` (bytes, or pieces of them) into ``path`` when it is a character device or
    a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe), as a shell's ``>`` would, instead of
    replacing the node with a regular file; False (nothing done) when ``path`` is anything else or missing.

    A FIFO is opened without waiting: one that no process reads is refused, not waited on.

    Raises:
        StoreError: a FIFO no one reads, or the write fails (``/dev/full``: the disk is full).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise StoreError(path, "is a FIFO that no process is reading; nothing was written") from None
        raise StoreError(path, write_failure(exc)) from None
    try:
        os.set_blocking(fd, True)
        for piece in _pieces(payload):
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view) :]
    except OSError as exc:
        raise StoreError(path, write_failure(exc)) from None
    finally:
        os.close(fd)
    return True


def not_a_file(mode: int) -> str:
    """What a path that is not a regular file is, for a message: ``"is a FIFO, not a regular
    file"``."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    kind = next((name for test, name in kinds if test(mode)), "a special file")
    return f"is {kind}, not a regular file"


def check_regular_file(path: Path) -> None:
    """Refuse a store file that is not a regular file (reading a FIFO would wait for ever, a
    device would never end).

    Raises:
        FileNotFoundError: there is no file (the caller's "none yet").
        IsADirectoryError: a directory is there.
        StoreError: a FIFO, device or socket is there.
    """
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    if not stat.S_ISREG(mode):
        raise StoreError(path, f"{not_a_file(mode)}; move it aside — paperdeck reads only regular files")


def malformed(exc: Exception) -> str:
    """What is wrong with a record, without quoting its values (they may be the user's notes):
    ``KeyError('paper_id')`` → ``"no 'paper_id'"``, ``ValueError("unknown reading status 'x'")``
    → ``"unknown reading status"``."""
    if isinstance(exc, KeyError) and exc.args:
        return f"no {str(exc.args[0])[:40]!r}"
    text = str(exc).split("'", 1)[0].split('"', 1)[0].strip(" :(")
    return text or type(exc).__name__


def write_failure(exc: OSError) -> str:
    """Why a write failed and what to do about it, for a :class:`StoreError` (one line)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "cannot write: the disk is full; nothing was changed — free some space and try again"
    if exc.errno == errno.EROFS:
        return (
            "cannot write: the file system is read-only; nothing was changed — "
            "check how it is mounted, or pass --data-dir to use a writable copy"
        )
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "cannot write: permission denied; nothing was changed — check the permissions"
    return f"cannot write: {exc.strerror or exc}; nothing was changed — check the directory"


def fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable (no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def staged_prefix() -> str:
    """The name prefix of the files this process stages in a transaction: :data:`STAGED_PREFIX`
    and the process id, so that a file whose process is gone is known as a leftover."""
    return f"{STAGED_PREFIX}{os.getpid()}-"


def _left_by_the_dead(name: str) -> bool:
    """Whether the staged file ``name`` was staged by a process that no longer runs (its id is in
    the name: :func:`staged_prefix`; a name without one is not known to be)."""
    pid, _, _ = name[len(STAGED_PREFIX) :].partition("-")
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return False


def clean_stray_temp_files(directory: Path, older_than_s: float = 0.0, root: Path | None = None) -> int:
    """Remove temporary files a killed writer left in ``directory``; return how many were removed.

    Args:
        directory: where to look.
        older_than_s: leave files younger than this many seconds (another live paperdeck may be
            about to rename them into place); files a transaction staged are left an hour at
            least (a journal that names them renames them: see
            :func:`paperdeck.store.transaction.recover`, run first), unless the process that
            staged them is gone and no journal waits in ``root`` (a killed import's: at once).
        root: the data directory, where journals are (default: ``directory``).

    Returns:
        The number of files removed; files that cannot be removed are left and not counted.
    """
    removed = 0
    now = time.time()
    journal_waits: bool | None = None  # looked for once, at the first staged file
    for stray in directory.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            kept = older_than_s
            if stray.name.startswith(STAGED_PREFIX):
                if journal_waits is None:
                    journal_waits = any((root or directory).glob(".paperdeck-journal-*"))
                dead = not journal_waits and _left_by_the_dead(stray.name)
                kept = 0.0 if dead else max(older_than_s, _STAGED_KEPT_S)
            if now - stray.stat().st_mtime < kept:
                continue
            stray.unlink()
            removed += 1
    return removed
