"""What every importer returns, and helpers they share."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper
from paperdeck.model.review import Review
from paperdeck.model.schedule import ScheduleEvent
from paperdeck.sources.decode import decode_table_text, decode_text

if TYPE_CHECKING:  # a type only: the store's backup module is loaded when a backup is read
    from paperdeck.store.backup import UserDataBackup

#: Files larger than this are refused before they are read (bytes).
MAX_FILE_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Skip:
    """A record an importer passed over on purpose: where (``"line 12"``, ``"record 3"``) and why."""

    position: str
    reason: str


@dataclass(frozen=True, slots=True)
class SourceRead:
    """Everything read from one paper-list file.

    Attributes:
        path: the file.
        format: the format name (``"seed"``, ``"openreview"``, ``"papercopilot"``, ``"bibtex"``,
            ``"csv"``, ``"arxiv"``, …).
        papers: the papers, in file order, one per distinct id (later records of the same id merged
            into the first by the importer, or skipped with a reason).
        skipped: records passed over, with reasons (reply notes, rows without a title…).
        notice: a one-line remark for the user (e.g. "no papers in this file"), else ``None``.
        reviews: the reply notes (reviews, comments, decisions) read, in file order.
        backup: the user-data backup read, checked whole (format ``"backup"``: no papers), to be
            restored after the papers are imported; ``None`` for a paper list.
        events: the programme's events read (a schedule, or a paper list naming sessions), in
            file order; a programme's are joined to papers by the import
            (:mod:`paperdeck.store.schedule`), a paper list's name their paper already.
        dropped: values the reader left out, by reason, as ``(reason, count)`` (a review's score
            for no finite number: ``("non-finite confidence", 1)``); the import boundary
            (:func:`paperdeck.sources.validate.check_read`) counts them with the papers' own.
    """

    path: Path
    format: str
    papers: tuple[Paper, ...]
    skipped: tuple[Skip, ...] = ()
    notice: str | None = None
    reviews: tuple[Review, ...] = ()
    backup: UserDataBackup | None = None
    events: tuple[ScheduleEvent, ...] = ()
    dropped: tuple[tuple[str, int], ...] = ()


#: The first bytes of a gzip stream.
GZIP_MAGIC = b"\x1f\x8b"


#: ``told(done, size)``: ``done`` of a gzip file's ``size`` compressed bytes are read (:func:`telling_bytes`).
BytesTold = Callable[[int, int], None]
#: The compressed bytes a gzip file is read and decompressed by, one piece at a time.
GZIP_PIECE = 1024 * 1024


class _Ahead:
    """A file being read ahead: its bytes to come, and how far its reading is (set by the
    reading thread, read by the thread that waits for it)."""

    def __init__(self) -> None:
        self.done = 0
        self.size = 0
        self.future: Future[bytes] | None = None

    def tell(self, done: int, size: int) -> None:
        self.done, self.size = done, size


#: The files being read ahead in this context (:func:`reading_ahead`), by path.
_AHEAD: ContextVar[dict[Path, _Ahead] | None] = ContextVar("paperdeck_read_ahead", default=None)
#: Who is told how far a gzip file's reading is, in this context (:func:`telling_bytes`).
_TOLD: ContextVar[BytesTold | None] = ContextVar("paperdeck_bytes_told", default=None)


@contextmanager
def telling_bytes(told: BytesTold | None) -> Iterator[None]:
    """Within the body, each :func:`read_bytes` of a gzip file calls ``told(done, size)`` as it
    goes: ``done`` of the file's ``size`` compressed bytes read and decompressed, a piece of
    :data:`GZIP_PIECE` bytes at a time (a file read ahead: as far as its reading thread is, while
    it is waited for). Called in the thread that reads; ``None``: nobody is told."""
    token = _TOLD.set(told)
    try:
        yield
    finally:
        _TOLD.reset(token)


#: ``told(done, total)``: ``done`` of a file's ``total`` records are parsed (:func:`telling_records`).
RecordsTold = Callable[[int, int], None]
#: How many records a reader parses between two tellings (:func:`records_told`).
RECORDS_TOLD_EVERY = 512
#: Who is told how far the parse of a file's records is, in this context (:func:`telling_records`).
_RECORDS_TOLD: ContextVar[RecordsTold | None] = ContextVar("paperdeck_records_told", default=None)


@contextmanager
def telling_records(told: RecordsTold | None) -> Iterator[None]:
    """Within the body, a reader that parses a file's records one at a time (JSON Lines read
    lazily: a review part's 27,700 notes) calls ``told(done, total)`` before its first record, every
    :data:`RECORDS_TOLD_EVERY` records and after its last (``done == total``): the parse's own
    progress, counted, where the compressed bytes stop moving (the parse takes ~0.6 of a part's
    CPU). Called in the thread that reads; ``None``: nobody is told."""
    token = _RECORDS_TOLD.set(told)
    try:
        yield
    finally:
        _RECORDS_TOLD.reset(token)


def records_told() -> RecordsTold | None:
    """The ``told`` of :func:`telling_records` in this context, ``None`` when nobody is told."""
    return _RECORDS_TOLD.get()


@contextmanager
def reading_ahead() -> Iterator[Callable[[Path], None]]:
    """Within the body, ``ahead(path)`` starts reading a gzip-compressed ``path`` and
    decompressing it in a thread (zlib lets the reading of another file go on meanwhile); the
    next :func:`read_bytes` of ``path`` in this context takes the bytes, or raises what reading
    it raised, as it would have. Anything else (not a regular file, not gzip data) is left to be
    read when it is needed; what was read ahead and not taken is dropped at the end."""
    futures: dict[Path, _Ahead] = {}
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperdeck-read-ahead")

    def ahead(path: Path) -> None:
        try:
            if not path.is_file() or path in futures:  # a FIFO or a device is never opened here
                return
            with path.open("rb") as handle:
                head = handle.read(2)
        except OSError:
            return
        if head == GZIP_MAGIC:
            reading = futures[path] = _Ahead()
            reading.future = pool.submit(_read_bytes, path, reading.tell)

    token = _AHEAD.set(futures)
    try:
        yield ahead
    finally:
        _AHEAD.reset(token)
        for reading in futures.values():
            if reading.future is not None:
                reading.future.cancel()
        pool.shutdown(wait=True)


#: How often a wait for a file read ahead tells how far it is (seconds).
_AHEAD_TOLD_EVERY = 0.1


def read_bytes(path: Path) -> bytes:
    """The whole file's bytes; a gzip-compressed file (by its magic bytes, whatever its name) is
    decompressed, so every format may come as ``.gz``; how far that is goes to
    :func:`telling_bytes`'s ``told``.

    Raises:
        SourceError: missing, a directory, unreadable, over :data:`MAX_FILE_BYTES` (compressed
            or not), or gzip data that is corrupt or truncated.
    """
    futures = _AHEAD.get()
    told = _TOLD.get()
    reading = futures.pop(path, None) if futures is not None else None
    if reading is None or reading.future is None:
        return _read_bytes(path, told)
    while told is not None:
        try:
            return reading.future.result(timeout=_AHEAD_TOLD_EVERY)
        except TimeoutError:
            told(reading.done, reading.size)
    return reading.future.result()


def _read_bytes(path: Path, told: BytesTold | None = None) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SourceError(path, f"file too large ({size:,} bytes; at most {MAX_FILE_BYTES:,})")
        with path.open("rb") as handle:
            head = handle.read(len(GZIP_MAGIC))
            if head != GZIP_MAGIC:
                return head + handle.read()
            return gunzip(handle, path, head, size, told)
    except OSError as exc:
        raise unreadable(path, exc) from None


def gunzip(handle: BinaryIO, path: Path, head: bytes, size: int, told: BytesTold | None = None) -> bytes:
    """The decompressed bytes of the gzip data ``head`` + the rest of ``handle`` (every member of
    a multi-member file), read a piece of :data:`GZIP_PIECE` bytes at a time, ``told(done,
    size)`` after each (``size``: the file's, for the telling only).

    Raises:
        SourceError: corrupt or truncated gzip data, or more than :data:`MAX_FILE_BYTES` once
            decompressed.
        OSError: the file cannot be read.
    """
    parts: list[bytes] = []
    total = done = 0
    stream: zlib._Decompress | None = zlib.decompressobj(wbits=31)
    data = head
    while True:
        piece = handle.read(GZIP_PIECE)
        done += len(piece)
        data = data + piece if data else piece
        while data:
            if stream is None:  # a member ended: another may follow (gzip pads with NULs)
                data = data.lstrip(b"\x00")
                if not data:
                    break
                stream = zlib.decompressobj(wbits=31)
            try:
                chunk = stream.decompress(data, MAX_FILE_BYTES + 1 - total)
            except zlib.error as exc:
                raise SourceError(path, f"not valid gzip data ({exc}); is the file damaged?") from None
            total += len(chunk)
            if total > MAX_FILE_BYTES or stream.unconsumed_tail:
                raise SourceError(path, f"too large once decompressed (more than {MAX_FILE_BYTES:,} bytes)")
            parts.append(chunk)
            data = b""
            if stream.eof:
                data, stream = stream.unused_data, None
        if told is not None:
            told(done + len(head), size)
        if not piece:
            break
    if stream is not None:
        raise SourceError(path, "truncated gzip data (the file ends mid-stream); download it again")
    return b"".join(parts)


def read_head(path: Path, size: int) -> bytes:
    """Up to ``size`` bytes from the start of the file, decompressed when it is gzip data
    (corrupt or truncated data gives what could be decompressed; :func:`read_bytes` reports it).

    Raises:
        OSError: the file cannot be opened or read.
    """
    with path.open("rb") as handle:
        head = handle.read(size)
        if not head.startswith(GZIP_MAGIC):
            return head
        stream = zlib.decompressobj(wbits=31)
        out = b""
        try:
            while len(out) < size and head:
                out += stream.decompress(head, size - len(out))
                head = stream.unconsumed_tail or handle.read(65_536)
                if stream.eof:
                    break
        except zlib.error:
            pass
        return out


def unreadable(path: Path, error: OSError) -> SourceError:
    """The one-line error for a paper-list file that cannot be opened or read."""
    if isinstance(error, IsADirectoryError):
        return SourceError(path, "is a directory, not a paper list")
    if isinstance(error, FileNotFoundError):
        return SourceError(path, "no such file")
    if isinstance(error, PermissionError):
        return SourceError(path, "permission denied")
    return SourceError(path, f"cannot read: {error.strerror or error}")


def read_text(path: Path) -> str:
    """The file decoded as text (UTF-8 with/without BOM, UTF-16 with BOM, GB18030).

    Raises:
        SourceError: unreadable, binary, or in an unknown encoding.
    """
    return decode_text(read_bytes(path), path)


def read_table_text(path: Path) -> tuple[str, str | None]:
    """A table's text and the remark on its encoding (:func:`decode_table_text`: a file saved
    as Windows-1252 or Latin-1 is read as such, and said once).

    Raises:
        SourceError: unreadable or binary.
    """
    return decode_table_text(read_bytes(path), path)
