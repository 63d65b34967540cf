"""The file a search index is saved in (:meth:`paperdeck.search.index.SearchIndex.save`): one raw
file of sections — the index's arrays and texts — laid out so that each is read back in place through
``mmap`` (no copy of the posting lists), under a small JSON header that names the sections and holds a
CRC-32 of the rest.

Layout, in order: :data:`MAGIC`; the header's length in bytes (uint32, little-endian); the header
(JSON, padded with spaces to a multiple of 8 bytes); the sections, each at a multiple of 8 bytes
(:data:`SECTIONS` says their names, order and item types; machine byte order, named in the header).
Written atomically (:func:`paperdeck.store.atomic.atomic_write_bytes`): a reader sees the old file or
the new one, whole.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import stat
import sys
import threading
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperdeck.store.file_stamp import FileStamp

#: The search index saved beside the catalogue (:func:`paperdeck.search.searcher.build_index`).
INDEX_FILE = "search-index.bin"
#: The first bytes of a saved index file (:func:`write_sections`).
MAGIC = b"PDSEARCH"
#: Sections start at multiples of this many bytes (so that each can be cast in place).
_ALIGN = 8
#: Bytes read at once where a saved file is read through (its CRC checked, its sections copied).
_CHUNK = 1 << 20
#: The sections of a saved index, in file order, with the type of their items (``array`` codes:
#: ``B`` a UTF-8 text, lone surrogates kept; ``q`` int64, ``I`` uint32, ``H`` uint16).
SECTIONS: dict[str, str] = {
    "ids": "B", "vocabulary": "B", "starts": "q", "postings": "I", "titles": "B", "keywords": "B",
    "authors": "B", "title_sizes": "H", "initials": "B",
    "letters0": "B", "bucket_starts0": "q", "bucket_words0": "I",
    "letters1": "B", "bucket_starts1": "q", "bucket_words1": "I",
    "ranked_queries": "B", "ranked_starts": "q", "ranked_positions": "I",
}  # fmt: skip


def write_sections(path: Path, header: Mapping[str, Any], sections: Mapping[str, Any]) -> None:
    """Write a saved index file to ``path`` atomically: :data:`MAGIC`, the length of the header
    (uint32, little-endian), the header (JSON: ``header``'s entries plus ``byteorder``, the
    ``sections`` table — name, item type, item size, offset, length in bytes, in
    :data:`SECTIONS` order — and ``crc``, the CRC-32 of that table's JSON and of every byte after
    the header), then each section's bytes (machine byte order), each at a multiple of 8 bytes.

    ``sections`` maps each name of :data:`SECTIONS` to a buffer (``bytes``, ``array``,
    ``memoryview``) of that item type.

    Raises:
        StoreError: the file cannot be written.
        KeyError: a section is missing.
    """
    from paperdeck.store.atomic import atomic_write_bytes

    table: list[list[Any]] = []
    parts: list[bytes | memoryview] = []
    offset = 0
    for name, code in SECTIONS.items():
        data = memoryview(sections[name]).cast("B")
        table.append([name, code, array(code).itemsize, offset, len(data)])
        pad = -len(data) % _ALIGN
        parts += [data, bytes(pad)]
        offset += len(data) + pad
    crc = _crc(table, parts)
    start = _start({**header, "byteorder": sys.byteorder, "sections": table, "crc": crc})
    # Written piece by piece: the sections are not copied into one buffer as large as the file.
    atomic_write_bytes(path, [start, *parts])  # type: ignore[list-item]  # memoryviews: bytes-like


def _start(header: Mapping[str, Any]) -> bytes:
    """:data:`MAGIC`, the header's length and the header (JSON padded to a multiple of 8 bytes)."""
    head = json.dumps(header).encode()
    head += b" " * (-(len(MAGIC) + 4 + len(head)) % _ALIGN)
    return MAGIC + len(head).to_bytes(4, "little") + head


def restamp_sections(path: Path, changes: Mapping[str, Any], keep: Callable[[dict[str, Any]], bool]) -> bool:
    """Replace the file :func:`write_sections` wrote at ``path`` with the same file, its header's
    entries updated by ``changes`` (not ``sections``, ``crc`` or ``byteorder``), when
    ``keep(header)`` (its header as it is) holds; whether it was replaced (False: no such file,
    not a saved index, or ``keep`` refused it).

    The sections are copied as they lie, in chunks of :data:`_CHUNK` bytes read from one open
    file (the file as it was opened, even if another process replaces it meanwhile), never mapped
    into memory: what this costs in memory does not grow with the file. Their CRC, which does not
    cover the header's other entries, still holds. Written atomically, as :func:`write_sections`.

    Raises:
        StoreError: the file cannot be written.
    """
    from paperdeck.store.atomic import atomic_write_bytes

    try:
        file = path.open("rb")
    except OSError:
        return False
    with file:
        start = file.read(len(MAGIC) + 4)
        if len(start) < len(MAGIC) + 4 or not start.startswith(MAGIC):
            return False
        try:
            header = json.loads(file.read(int.from_bytes(start[len(MAGIC) :], "little")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return False
        if not isinstance(header, dict) or not keep(header):
            return False
        fixed = {key: header[key] for key in ("byteorder", "sections", "crc") if key in header}

        def pieces() -> Iterator[bytes]:
            yield _start({**header, **changes, **fixed})
            while chunk := file.read(_CHUNK):
                yield chunk

        atomic_write_bytes(path, pieces())
    return True


#: The longest header :func:`saved_stamp` reads (a header names 18 sections: a few KB).
_HEADER_MAX = 1 << 20


def saved_stamp(path: Path) -> list[int] | None:
    """The ``stamp`` entry of the header of the file :func:`write_sections` wrote at ``path``
    (what the index was built from: the catalogue's ``[size in bytes, mtime in ns]``); ``None``
    when there is no such file, it is not one, or its header holds no list of whole numbers
    there. Reads the header alone (at most :data:`_HEADER_MAX` bytes): no mapping, no CRC; the
    caller reading the index itself checks the rest."""
    try:
        with path.open("rb") as file:
            start = file.read(len(MAGIC) + 4)
            size = int.from_bytes(start[len(MAGIC) :], "little")
            if len(start) < len(MAGIC) + 4 or not start.startswith(MAGIC) or size > _HEADER_MAX:
                return None
            header = json.loads(file.read(size))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    stamp = header.get("stamp") if isinstance(header, dict) else None
    if not isinstance(stamp, list) or not all(type(value) is int for value in stamp):
        return None
    return stamp


def read_sections(path: Path) -> tuple[dict[str, Any], dict[str, memoryview]]:
    """The header and the sections of a file :func:`write_sections` wrote, each section a
    ``memoryview`` of its items cast in place over the file mapped into memory (not copied).

    Raises:
        FileNotFoundError: there is no file.
        OSError: it cannot be read or mapped.
        ValueError: it is not such a file, was written on a machine of another byte order or
            with other item sizes, is truncated, or its bytes do not match its CRC.
    """
    header, sections, crc_holds = read_sections_unchecked(path)
    if not crc_holds():
        raise ValueError(CRC_MISMATCH)
    return header, sections


#: Why a saved file whose bytes do not match their CRC is refused (:func:`read_sections`).
CRC_MISMATCH = "its contents do not match their CRC (edited?)"


def read_sections_unchecked(
    path: Path,
) -> tuple[dict[str, Any], dict[str, memoryview], Callable[[], bool]]:
    """What :func:`read_sections` gives, every check made but the CRC's, which is left to the
    third item: a callable that reads the same mapping through (every byte, the file as it was
    opened even if another has been put in its place since) and says whether its bytes match
    their CRC. Nothing past the header is read until it is called (the sections' bytes are read
    where a query reads them).

    Raises:
        as :func:`read_sections`, but for a CRC that does not match.
    """
    with path.open("rb") as file:
        start = file.read(len(MAGIC) + 4)
        if len(start) < len(MAGIC) + 4 or not start.startswith(MAGIC):
            raise ValueError("not a saved search index")
        size = int.from_bytes(start[len(MAGIC) :], "little")
        try:
            header = json.loads(file.read(size))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ValueError("its header is not readable") from None
        data_start = len(MAGIC) + 4 + size
        length = file.seek(0, 2)
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) if length > data_start else b""
    if not isinstance(header, dict) or header.get("byteorder") != sys.byteorder:
        raise ValueError("it was written on a machine of another byte order")
    table = header.get("sections")
    if not isinstance(table, list):
        raise ValueError("its sections table is not readable")
    whole = memoryview(mapped)[data_start:]
    sections: dict[str, memoryview] = {}
    end = 0
    try:
        for (name, code, itemsize, offset, size), (wanted, wanted_code) in zip(table, SECTIONS.items(), strict=True):
            if (name, code, itemsize) != (wanted, wanted_code, array(wanted_code).itemsize):
                raise ValueError(f"its section {wanted} is of another kind")
            if offset != end + (-end % _ALIGN) or size % itemsize or offset + size > len(whole):
                raise ValueError(f"its section {name} is out of place (truncated?)")
            sections[name] = whole[offset : offset + size].cast(code)
            end = offset + size
    except (TypeError, ValueError) as exc:
        raise ValueError(str(exc) if isinstance(exc, ValueError) else "its sections table is not readable") from None
    if end + (-end % _ALIGN) != len(whole):
        raise ValueError("it is longer than its sections")
    crc = header.get("crc")

    def crc_holds() -> bool:
        return crc == _mapped_crc(table, mapped, data_start)

    return header, sections, crc_holds


def _mapped_crc(table: list[list[Any]], mapped: mmap.mmap | bytes, start: int) -> int:
    """:func:`_crc` of a sections table and of ``mapped`` from ``start``, read :data:`_CHUNK`
    bytes at a time, each chunk's pages let go from this process once read
    (``MADV_DONTNEED``; the page cache keeps them): the check never holds the whole file
    resident, only what the queries later read stays."""
    crc = zlib.crc32(json.dumps(table).encode())
    drop = isinstance(mapped, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED")
    with memoryview(mapped) as view:
        while start < len(view):
            end = min((start // _CHUNK + 1) * _CHUNK, len(view))  # chunks end on page boundaries
            crc = zlib.crc32(view[start:end], crc)
            if drop:
                page = start - start % mmap.PAGESIZE
                with contextlib.suppress(OSError):
                    mapped.madvise(mmap.MADV_DONTNEED, page, end - page)  # type: ignore[union-attr]
            start = end
    return crc


def _crc(table: list[list[Any]], parts: Iterable[bytes | memoryview]) -> int:
    """The CRC-32 of a sections table (as JSON) and of the sections' bytes."""
    crc = zlib.crc32(json.dumps(table).encode())
    for part in parts:
        crc = zlib.crc32(part, crc)
    return crc


class ReadAhead:
    """A saved index file read in a thread of its own
    (:meth:`paperdeck.search.searcher.Searcher.read_ahead`, :func:`start_read_ahead`), for the
    index's build to take (:meth:`sections`) while the file is the one read.

    ``check_later``: the CRC is not checked by the read (:func:`read_sections_unchecked`: the
    file's header and section table only, no byte of the sections read) but by
    :meth:`crc_holds`, later, on the same mapping; every other check is made by the read."""

    def __init__(self, path: Path, *, check_later: bool = False) -> None:
        self.path = path
        self.check_later = check_later
        self._file = _file_key(path)  # before the read: a file put in its place since is told apart
        self._read: tuple[dict[str, Any], dict[str, memoryview]] | BaseException | None = None
        self._crc_holds: Callable[[], bool] | None = None  # given check_later, once read
        self._mapped: FileStamp | None = None  # given check_later: the stamp of the file mapped
        #: Whether :meth:`sections` handed out this read (not a file read again in its place).
        self.taken = False
        #: Set by :func:`~paperdeck.search.searcher.build_index`: the index it returned is this read's.
        self.used = False
        self._thread = threading.Thread(target=self._run, name="index-read-ahead", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self.check_later:
                header, sections, self._crc_holds = read_sections_unchecked(self.path)
                self._read = header, sections
                # The same stamp before and after: the file mapped is the one stamped.
                if _file_key(self.path) == self._file:
                    self._mapped = self._file
            else:
                self._read = read_sections(self.path)
        except BaseException as error:  # raised where the sections are taken
            self._read = error

    def checked_before(self) -> bool:
        """Given ``check_later``, once :meth:`sections` handed out this read: whether the very
        file it mapped was read through and found whole by an earlier check
        (:func:`checked_before`; its stamp unchanged since, the same before and after this read
        mapped it). :meth:`crc_holds` need not read it again then."""
        self._thread.join()
        return self._mapped is not None and checked_before(self.path, self._mapped)

    def note_checked(self) -> None:
        """Record that the file this read mapped was found whole (:func:`note_checked`), for the
        next start's :meth:`checked_before`; nothing when it could not be told apart from another
        put in its place meanwhile."""
        self._thread.join()
        if self._mapped is not None:
            note_checked(self.path, self._mapped)

    def crc_holds(self) -> bool:
        """Given ``check_later``, once :meth:`sections` handed out this read: whether the bytes of
        the file it mapped match their CRC (every byte read through, once; the answer kept).
        True otherwise (the read checked it, or raised)."""
        self._thread.join()
        check, self._crc_holds = self._crc_holds, None
        if check is None:
            return True
        holds = check()
        self._crc_holds = (lambda: holds) if not holds else None
        return holds

    def sections(self, path: Path) -> tuple[dict[str, Any], dict[str, memoryview]]:
        """What :func:`read_sections` gives for ``path``: the read ahead's (or its error), once it
        is done, if ``path`` is the file read ahead and no other file has been put in its place
        since; else read now."""
        self._thread.join()
        read = self._read
        if path != self.path or read is None or _file_key(path) != self._file:
            return read_sections(path)
        self.taken = not isinstance(read, BaseException)
        if isinstance(read, BaseException):
            # Raised once, and held by nothing here once raised: its traceback holds the frames
            # it passes (their locals, a search index built meanwhile), and a reference back to it
            # from this object or this frame would keep them all until the cycle collector ran.
            self._read = None
            try:
                raise read
            finally:
                del read
        return read


def _file_key(path: Path) -> FileStamp | None:
    """What tells a file at ``path`` apart from another put in its place (``None``: no file)."""
    from paperdeck.store.file_stamp import file_stamp

    return file_stamp(path)


#: Added to a saved index file's name, the file beside it that says which version of it was last
#: read through and found whole (:func:`note_checked`): a JSON list of the five fields of its
#: :class:`~paperdeck.store.file_stamp.FileStamp`. A cache: lost, spoilt or of another version of
#: the file, it only costs the next start one more check.
CHECKED_SUFFIX = ".checked"


def checked_path(path: Path) -> Path:
    """Where :func:`note_checked` records the check of the saved index file ``path``."""
    return path.with_name(path.name + CHECKED_SUFFIX)


def checked_before(path: Path, stamp: FileStamp | None) -> bool:
    """Whether the file :func:`note_checked` wrote beside ``path`` names ``stamp`` (not ``None``):
    that very version of the file (its device, inode, size, mtime and ctime all the same) was
    read through and found whole once. False when there is no such file, it cannot be read, or
    it holds anything but five whole numbers (it is not trusted: read as hostile)."""
    if stamp is None:
        return False
    try:  # not blocking on a FIFO put there, nor reading a device: a regular file only
        fd = os.open(checked_path(path), os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                return False
            fields = json.loads(file.read(_HEADER_MAX))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    if not isinstance(fields, list) or len(fields) != 5 or not all(type(value) is int for value in fields):
        return False
    from paperdeck.store.file_stamp import FileStamp

    return FileStamp(*fields) == stamp


def note_checked(path: Path, stamp: FileStamp) -> None:
    """Record beside the saved index file ``path`` that its version ``stamp`` was read through and
    found whole (:func:`checked_before` then says so until the file changes). Written atomically;
    failing to write is not an error (the next start checks the file again), and a symbolic link
    or anything but a regular file in its place is left as it is (nothing written through it)."""
    from paperdeck.model.errors import PaperdeckError
    from paperdeck.store.atomic import atomic_write_bytes

    target = checked_path(path)
    if target.is_symlink():
        return
    fields = [stamp.device, stamp.inode, stamp.size, stamp.mtime_ns, stamp.ctime_ns]
    with contextlib.suppress(OSError, PaperdeckError):  # PaperdeckError: atomic_write_bytes's StoreError
        atomic_write_bytes(target, json.dumps(fields).encode())


#: The read :func:`start_read_ahead` started and no :func:`take_read_ahead` took yet.
_started: list[ReadAhead] = []


def start_read_ahead(path: Path) -> None:
    """Start reading the saved index file ``path`` in a thread (:class:`ReadAhead`) before the
    store it belongs to is opened (the command line: before it imports the command's modules),
    for the next :func:`take_read_ahead` of that path; it replaces one started before and not
    taken. ``path`` may turn out not to be the file the search reads (a guess from the arguments
    before they are parsed): nothing takes the read then, and :func:`drop_read_ahead` lets it go."""
    _started[:] = [ReadAhead(path)]


def take_read_ahead(path: Path) -> ReadAhead | None:
    """The read :func:`start_read_ahead` started of ``path``, taken (a second call gives
    ``None``); ``None`` when none of that path is waiting."""
    for ahead in _started:
        if ahead.path == path:
            _started.remove(ahead)
            return ahead
    return None


def drop_read_ahead() -> None:
    """Let go of a read :func:`start_read_ahead` started that nothing took (the command is done)."""
    _started.clear()
