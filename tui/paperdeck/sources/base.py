"""What every importer returns, and helpers they share."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

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


#: The files being read ahead in this context (:func:`reading_ahead`), by path.
_AHEAD: ContextVar[dict[Path, Future[bytes]] | None] = ContextVar("paperdeck_read_ahead", default=None)


@contextmanager
def reading_ahead() -> Iterator[Callable[[Path], None]]:
    """Within the body, ``ahead(path)`` starts reading a gzip-compressed ``path`` and
    decompressing it in a thread (zlib lets the reading of another file go on meanwhile); the
    next :func:`read_bytes` of ``path`` in this context takes the bytes, or raises what reading
    it raised, as it would have. Anything else (not a regular file, not gzip data) is left to be
    read when it is needed; what was read ahead and not taken is dropped at the end."""
    futures: dict[Path, Future[bytes]] = {}
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
            futures[path] = pool.submit(_read_bytes, path)

    token = _AHEAD.set(futures)
    try:
        yield ahead
    finally:
        _AHEAD.reset(token)
        for future in futures.values():
            future.cancel()
        pool.shutdown(wait=True)


def read_bytes(path: Path) -> bytes:
    """The whole file's bytes; a gzip-compressed file (by its magic bytes, whatever its name) is
    decompressed, so every format may come as ``.gz``.

    Raises:
        SourceError: missing, a directory, unreadable, over :data:`MAX_FILE_BYTES` (compressed
            or not), or gzip data that is corrupt or truncated.
    """
    futures = _AHEAD.get()
    future = futures.pop(path, None) if futures is not None else None
    return future.result() if future is not None else _read_bytes(path)


def _read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SourceError(path, f"file too large ({size:,} bytes; at most {MAX_FILE_BYTES:,})")
        raw = path.read_bytes()
    except OSError as exc:
        raise unreadable(path, exc) from None
    return gunzip(raw, path) if raw.startswith(GZIP_MAGIC) else raw


def gunzip(raw: bytes, path: Path) -> bytes:
    """The decompressed bytes of gzip data (every member of a multi-member file).

    Raises:
        SourceError: corrupt or truncated gzip data, or more than :data:`MAX_FILE_BYTES` once
            decompressed.
    """
    parts: list[bytes] = []
    total = 0
    data = raw
    while data:
        stream = zlib.decompressobj(wbits=31)
        try:
            chunk = stream.decompress(data, MAX_FILE_BYTES + 1 - total)
        except zlib.error as exc:
            raise SourceError(path, f"not valid gzip data ({exc}); is the file damaged?") from None
        total += len(chunk)
        if total > MAX_FILE_BYTES or stream.unconsumed_tail:
            raise SourceError(path, f"too large once decompressed (more than {MAX_FILE_BYTES:,} bytes)")
        if not stream.eof:
            raise SourceError(path, "truncated gzip data (the file ends mid-stream); download it again")
        parts.append(chunk)
        data = stream.unused_data.lstrip(b"\x00")  # members may follow; gzip pads with NULs
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
