"""The paper index (``paper-index.bin`` beside the catalogue): where each paper's document lies in
``catalogue.json``, found by its id without reading anything proportional to the store.

A command that touches one paper (``show``, ``star``, ``note``, ``tag``, ``status``, ``reviews``)
looks its id up here by a binary search over a memory map (a few pages read), then reads and
parses that paper's document alone. The rows cache holds the same spans, but as JSON lines of
every id and every offset, read and parsed whole (:mod:`paperdeck.store.rows`).

Layout, every number little-endian whatever the machine (``struct``'s ``<``; a file from a
machine of either byte order or page size reads the same)::

    header   HEADER: magic b"PDPAPIDX", version, byte-order mark 0x01020304, entry size (24),
             alias entry size (16), papers N, aliases A, the catalogue's size in bytes, mtime in
             ns and inode (the file it was made for), the alias text's length in bytes, then the
             CRC-32 of all the header's bytes before it
    papers   N entries (key, start, end): ``u64`` key of the paper id (:func:`id_key`), the
             ``[start, end)`` byte span of its document in the catalogue; sorted by key
    aliases  A entries (key, offset, length): ``u64`` key of the old id, where its record lies in
             the alias text; sorted by key
    text     the alias records, each ``old id`` UTF-8, a NUL, ``id`` UTF-8

Trust: the file is hostile data. One that is missing, of another version or byte order, whose
header digest or size does not add up, or made for another catalogue file (its stamp: size,
mtime, inode, as the rows cache's) is not used (:func:`open_index` returns ``None``) and the
caller takes the slow path; nothing is read past the file's end (every entry read is inside the
size checked against the header). A key may be shared by two ids: every entry of the key is a
candidate, and a paper is trusted only once its document, read from inside the catalogue as
stamped, parses to a paper of the very id asked (the caller's check). An id the index does not
find is not taken for unknown: the caller asks the catalogue (an index made wrong would else hide
a paper).

Writing: :func:`write_paper_index`, atomically (a temporary file renamed into place: two
processes writing at once leave one whole file or the other, never a mix), inside the active
transaction when there is one (:func:`paperdeck.store.atomic.atomic_write_bytes`), beside the
rows cache (:func:`paperdeck.store.rows.write_rows_cache`), whenever the catalogue's spans are
known. A stale or broken index is rewritten silently by the next import, or by the next command
that falls back to the rows cache and finds the spans there (:meth:`paperdeck.store.store.Store.paper_named`).

The module imports only ``os``, ``struct``, ``mmap`` and ``zlib``: the one-paper commands pay for
what they use (writing the index of a large store, an import's, sorts its entries with numpy).
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path
    from typing import Any

__all__ = [
    "BARE_ID_KINDS",
    "INDEX_FILE",
    "PaperIndex",
    "id_key",
    "id_names",
    "index_bytes",
    "object_bytes",
    "open_index",
    "read_document",
    "read_entry",
    "write_paper_index",
]

#: The index's file name in the data directory.
INDEX_FILE = "paper-index.bin"
MAGIC = b"PDPAPIDX"
VERSION = 1
ORDER_MARK = 0x01020304
#: magic, version, order mark, entry size, alias entry size, papers, aliases, catalogue size,
#: mtime ns, inode, alias text bytes (the CRC-32 of these follows, :data:`_DIGEST`).
HEADER = struct.Struct("<8sIIIIIIQQQQ")
_DIGEST = struct.Struct("<I")
ENTRY = struct.Struct("<QQQ")
ALIAS = struct.Struct("<QII")
#: Header bytes in all, digest included: where the papers' entries begin.
HEADER_SIZE = HEADER.size + _DIGEST.size
#: Aliases followed at most (as the catalogue's resolve).
_ALIAS_HOPS = 8

#: ``(inode, mtime in ns, size in bytes)`` of the catalogue file (:func:`paperdeck.store.rows.file_stamp`).
Stamp = tuple[int, int, int]


def id_key(paper_id: str) -> int:
    """The 64-bit key of an id in the index: its UTF-8's CRC-32 (high half) and Adler-32 (low
    half). Not unique: the index holds every entry of a key, the reader checks what it finds."""
    data = paper_id.encode("utf-8", "surrogatepass")
    return zlib.crc32(data) << 32 | zlib.adler32(data)


def index_bytes(stamp: Stamp, spans: Iterable[tuple[str, tuple[int, int]]], aliases: Mapping[str, str]) -> bytes:
    """The index file's bytes for the catalogue file of ``stamp`` (``(inode, mtime ns, size)``),
    its papers' ``(id, (start, end))`` spans and its ``aliases`` (old id → id)."""
    listed = spans if isinstance(spans, list) else list(spans)
    table = _entries_table(listed) if len(listed) >= _ARRAY_ENTRIES else None
    entries = sorted((id_key(paper_id), start, end) for paper_id, (start, end) in listed) if table is None else []
    count = len(entries) if table is None else len(listed)
    text = bytearray()
    alias_entries = []
    for old, new in aliases.items():
        record = old.encode("utf-8", "surrogatepass") + b"\0" + new.encode("utf-8", "surrogatepass")
        alias_entries.append((id_key(old), len(text), len(record)))
        text += record
    alias_entries.sort()
    inode, mtime_ns, size = stamp
    header = HEADER.pack(MAGIC, VERSION, ORDER_MARK, ENTRY.size, ALIAS.size, count, len(alias_entries),
                         size, mtime_ns, inode, len(text))  # fmt: skip
    parts = [header, _DIGEST.pack(zlib.crc32(header))]
    if table is not None:
        parts.append(table)
    parts += [ENTRY.pack(*entry) for entry in entries]
    parts += [ALIAS.pack(*entry) for entry in alias_entries]
    parts.append(bytes(text))
    return b"".join(parts)


#: From this many papers the entries are sorted and packed by numpy (:func:`_entries_table`): a
#: large store's import, which has numpy loaded; a smaller index (a one-paper command writing it
#: again) does not import it.
_ARRAY_ENTRIES = 20_000


def _entries_table(spans: list[tuple[str, tuple[int, int]]]) -> bytes | None:
    """The papers' entries as :func:`index_bytes` packs them (``ENTRY`` each, sorted by key,
    start, end), sorted and packed by numpy; ``None`` when a span does not fit (a negative or
    too large offset: then ``struct`` says so)."""
    from itertools import chain

    import numpy as np

    count = len(spans)
    keys = np.fromiter(map(id_key, (paper_id for paper_id, _ in spans)), np.uint64, count)
    try:
        flat = np.fromiter(chain.from_iterable(span for _, span in spans), np.int64, 2 * count)
    except (OverflowError, ValueError, TypeError):
        return None
    if count and bool((flat < 0).any()):  # (not flat.min(): numpy 2.5's stubs refuse it without an axis)
        return None
    starts, ends = flat[0::2].astype(np.uint64), flat[1::2].astype(np.uint64)
    order = np.lexsort((ends, starts, keys))  # the tuples' order: key, then start, then end
    table = np.empty((count, 3), np.dtype("<u8"))
    table[:, 0], table[:, 1], table[:, 2] = keys[order], starts[order], ends[order]
    return table.tobytes()


def write_paper_index(
    path: Path, stamp: Stamp, spans: Iterable[tuple[str, tuple[int, int]]], aliases: Mapping[str, str]
) -> bool:
    """Write the index (:func:`index_bytes`) to ``path`` atomically (in the active transaction
    when there is one). A failure only costs speed: any file there is removed (a stale one would
    be refused anyway) and False is returned."""
    import contextlib

    from paperdeck.model.errors import StoreError
    from paperdeck.store.atomic import atomic_write_bytes

    try:
        atomic_write_bytes(path, index_bytes(stamp, spans, aliases))
    except (OSError, StoreError, ValueError, OverflowError, struct.error):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return False
    return True


class PaperIndex:
    """An index file opened and checked (:func:`open_index`): its entries read from a memory map.

    Attributes:
        stamp: ``(inode, mtime ns, size)`` of the catalogue file it is of.
        papers: how many papers it lists.
    """

    __slots__ = ("_aliases_at", "_map", "_text_at", "aliases", "papers", "stamp")

    def __init__(self, data: mmap.mmap | bytes, stamp: Stamp, papers: int, aliases: int) -> None:
        self._map = data
        self.stamp = stamp
        self.papers = papers
        self.aliases = aliases
        self._aliases_at = HEADER_SIZE + papers * ENTRY.size
        self._text_at = self._aliases_at + aliases * ALIAS.size

    def close(self) -> None:
        """Let go of the memory map."""
        if isinstance(self._map, mmap.mmap):
            self._map.close()

    def _first(self, key: int, at: int, count: int, item: struct.Struct) -> int:
        """The position of the first entry of ``key`` in the sorted table of ``count`` entries
        of ``item`` at byte ``at`` (``count`` when every key is lower)."""
        low, high = 0, count
        unpack, size, data = item.unpack_from, item.size, self._map
        while low < high:
            middle = (low + high) // 2
            if unpack(data, at + middle * size)[0] < key:
                low = middle + 1
            else:
                high = middle
        return low

    def spans(self, paper_id: str) -> list[tuple[int, int]]:
        """The spans listed under ``paper_id``'s key (usually one; none when it is not listed).
        Each lies inside the catalogue file as stamped (checked here); whether it holds this
        paper is for the reader to check."""
        key = id_key(paper_id)
        found = []
        position = self._first(key, HEADER_SIZE, self.papers, ENTRY)
        size = self.stamp[2]
        while position < self.papers:
            entry_key, start, end = ENTRY.unpack_from(self._map, HEADER_SIZE + position * ENTRY.size)
            if entry_key != key:
                break
            if 0 <= start < end <= size:
                found.append((start, end))
            position += 1
        return found

    def all_spans(self) -> list[tuple[int, int]]:
        """Every span the index lists, in the order they lie in the file (by start, then end):
        what each entry of a file indexed whole covers. Whether each lies inside the file and
        what it holds is for the reader to check."""
        table = self._map[HEADER_SIZE : HEADER_SIZE + self.papers * ENTRY.size]
        return sorted((start, end) for _, start, end in ENTRY.iter_unpack(table))

    def alias(self, old_id: str) -> str | None:
        """The id ``old_id`` stood for (one step), ``None`` when it is no alias listed."""
        key = id_key(old_id)
        wanted = old_id.encode("utf-8", "surrogatepass") + b"\0"
        position = self._first(key, self._aliases_at, self.aliases, ALIAS)
        end_of_text = len(self._map)
        while position < self.aliases:
            entry_key, offset, length = ALIAS.unpack_from(self._map, self._aliases_at + position * ALIAS.size)
            if entry_key != key:
                break
            start = self._text_at + offset
            if start + length <= end_of_text:
                record = bytes(self._map[start : start + length])
                if record.startswith(wanted):
                    try:
                        return record[len(wanted) :].decode("utf-8", "surrogatepass")
                    except UnicodeDecodeError:
                        return None
            position += 1
        return None

    def resolve(self, paper_id: str) -> str:
        """``paper_id`` through at most 8 aliases (as :meth:`Catalogue.resolve
        <paperdeck.store.catalogue.Catalogue.resolve>`)."""
        for _ in range(_ALIAS_HOPS):
            new = self.alias(paper_id)
            if new is None:
                break
            paper_id = new
        return paper_id


#: The kinds of id a bare id is looked up under (``a774902a887c6233`` → ``abs:a774902a887c6233``).
BARE_ID_KINDS = ("openreview", "abs", "arxiv", "doi")
_ID_KINDS = frozenset((*BARE_ID_KINDS, "title"))


def id_names(given: str) -> list[str]:
    """The ids ``given`` may name, the exact one first: a bare id (no ``kind:`` prefix) also under
    each of :data:`BARE_ID_KINDS` (a DOI case-folded, as stored). Each is one lookup, so that
    finding a paper by a bare id reads nothing proportional to the store."""
    if given.partition(":")[0] in _ID_KINDS:
        return [given]
    return [given, *(f"{kind}:{given.casefold() if kind == 'doi' else given}" for kind in BARE_ID_KINDS)]


def _catalogue_stamp(catalogue_path: Path) -> Stamp | None:
    try:
        stat = os.stat(catalogue_path)
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def open_index(path: Path, catalogue_path: Path) -> PaperIndex | None:
    """The index at ``path`` when it is whole, of this version and layout, and made for the
    catalogue file (or other file it indexes) as it is now; else ``None`` (missing, stale,
    truncated, foreign: the caller takes the slow path). Reads the header; the entries are
    mapped, read as looked up."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
        header = os.pread(fd, HEADER_SIZE, 0)
        if len(header) != HEADER_SIZE or not header.startswith(MAGIC):
            return None
        fields = HEADER.unpack_from(header)
        (digest,) = _DIGEST.unpack_from(header, HEADER.size)
        if digest != zlib.crc32(header[: HEADER.size]):
            return None
        _, version, mark, entry_size, alias_size, papers, aliases, size, mtime_ns, inode, text = fields
        if (version, mark, entry_size, alias_size) != (VERSION, ORDER_MARK, ENTRY.size, ALIAS.size):
            return None
        if stat.st_size != HEADER_SIZE + papers * ENTRY.size + aliases * ALIAS.size + text:
            return None  # truncated, or something appended
        stamp = (inode, mtime_ns, size)
        if _catalogue_stamp(catalogue_path) != stamp:
            return None  # made for another catalogue file (an import since, a copied store)
        data = mmap.mmap(fd, stat.st_size, access=mmap.ACCESS_READ) if stat.st_size else b""
    except (OSError, ValueError, struct.error):
        return None
    finally:
        os.close(fd)
    return PaperIndex(data, stamp, papers, aliases)


def read_document(catalogue_path: Path, stamp: Stamp, span: tuple[int, int]) -> bytes | None:
    """The bytes of ``span`` in the catalogue file, when the file opened is still the one of
    ``stamp`` and the span lies inside it; else ``None``."""
    start, end = span
    try:
        fd = os.open(catalogue_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
        if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != stamp or not 0 <= start < end <= stat.st_size:
            return None
        data = os.pread(fd, end - start, start)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == end - start else None


def object_bytes(docs: Mapping[str, Any]) -> tuple[bytes, list[tuple[str, tuple[int, int]]]]:
    """``orjson.dumps(docs)`` byte for byte (a JSON object keyed by text), and each key's entry
    span in it: from its key's opening quote to its value's end (index them with
    :func:`write_paper_index`, no aliases; read one back with :func:`read_entry`)."""
    import orjson

    parts = [b"{"]
    at = 1
    spans: list[tuple[str, tuple[int, int]]] = []
    for n, (key, value) in enumerate(docs.items()):
        if n:
            parts.append(b",")
            at += 1
        entry = orjson.dumps(key) + b":" + orjson.dumps(value)
        spans.append((key, (at, at + len(entry))))
        parts.append(entry)
        at += len(entry)
    parts.append(b"}")
    return b"".join(parts), spans


def read_entry(index_path: Path, file_path: Path, key: str, prefix: bytes) -> bytes | None:
    """The value of ``key``'s entry in the JSON object file ``file_path`` (as :func:`object_bytes`
    wrote it), found by its index at ``index_path``: the bytes after ``prefix`` (the key as JSON
    and a colon) of the entry that begins with it. ``None`` when the index is not usable or has
    no such entry (the caller then reads the file as it would without an index)."""
    index = open_index(index_path, file_path)
    if index is None:
        return None
    try:
        for span in index.spans(key):
            entry = read_document(file_path, index.stamp, span)
            if entry is not None and entry.startswith(prefix):
                return entry[len(prefix) :]
    finally:
        index.close()
    return None
