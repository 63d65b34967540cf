"""Reading a review store's summaries file (``summaries.gG.json``, one JSON object of each
reviewed paper's :class:`~paperdeck.model.review_summary.ReviewSummary` by forum id, written as
:func:`~paperdeck.store.paper_index.object_bytes` writes it): every entry streamed one by one
(:func:`summaries_streamed`), or only some forums' entries, found by the file's span index
(:func:`summaries_by_index`: a venue scope's, the other venues' entries neither parsed nor built).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from paperdeck.model.review_summary import ReviewSummary

if TYPE_CHECKING:
    import mmap

#: Between two entries of a summaries file as :func:`~paperdeck.store.paper_index.object_bytes`
#: writes it (``},"``: a summary is a flat object). One inside a text of a summary (a decision's)
#: is found out when the piece up to it does not parse.
_NEXT_ENTRY = re.compile(rb'\},"')
#: Separators inside one entry tried before the file is taken for a broken one and parsed whole.
_ENTRY_TRIES = 64


def summaries_streamed(
    path: Path,
    keep: AbstractSet[str] | None = None,
    made: Mapping[str, ReviewSummary] | None = None,
    venues: AbstractSet[Any] = frozenset(),
    spans_to: Path | None = None,
) -> dict[str, ReviewSummary] | None:
    """Every summary of the summaries file at ``path`` (``keep``: of those forums only, and of
    any forum whose summary's venue is among ``venues``; the others' entries are parsed, not
    built), by forum id, each entry parsed alone from
    a memory map of the file (neither the file's bytes nor its parsed tree are ever held whole:
    a fraction of the memory, and none of it left behind). ``None`` when the file is not laid
    out as :func:`~paperdeck.store.paper_index.object_bytes` writes it or an entry does not parse
    (the caller then parses it whole, which names what is wrong). A summary ``made`` holds is
    taken from it, not built again.

    ``spans_to``: where to write the file's span index (:mod:`paperdeck.store.paper_index`,
    stamped with the file read) from this very pass, when the caller found none usable there (a
    store copied or restored: the index is of the file's inode); best effort, as
    :func:`~paperdeck.store.paper_index.write_paper_index`, and only once every entry has parsed.

    Raises:
        KeyError, TypeError, ValueError, AttributeError: an entry parses but is no summary.
    """
    mapped = _mapped(path)
    if mapped is None:
        return None
    data = mapped[0]
    summaries: dict[str, ReviewSummary] = {}
    spans: list[tuple[str, tuple[int, int]]] | None = [] if spans_to is not None else None
    of = ReviewSummary.from_dict
    try:
        end = data.rfind(b"}")
        if data[:2] != b'{"' or end < 0 or data[end + 1 :].strip():
            return None if data[:2].strip() != b"{}" else summaries
        start, tries = 1, 0
        for found in _NEXT_ENTRY.finditer(data, 1, end):
            try:
                entry = orjson.loads(b"{" + data[start : found.start() + 1] + b"}")
            except orjson.JSONDecodeError:
                tries += 1  # the separator was inside a text: the entry goes on
                if tries > _ENTRY_TRIES:
                    return None
                continue
            if not isinstance(entry, dict) or len(entry) != 1:
                return None
            for forum, doc in entry.items():
                if keep is None or forum in keep or (venues and _venue_of(doc) in venues):
                    summaries[forum] = made[forum] if made is not None and forum in made else of(doc)
                if spans is not None:
                    spans.append((forum, (start, found.start() + 1)))
            start, tries = found.end() - 1, 0
        try:
            entry = orjson.loads(b"{" + data[start:end] + b"}")
        except orjson.JSONDecodeError:
            return None
        if not isinstance(entry, dict) or len(entry) != 1:
            return None
        for forum, doc in entry.items():
            if keep is None or forum in keep or (venues and _venue_of(doc) in venues):
                summaries[forum] = made[forum] if made is not None and forum in made else of(doc)
            if spans is not None:
                spans.append((forum, (start, end)))
    finally:
        data.close()
    if spans_to is not None and spans is not None:
        from paperdeck.store.paper_index import write_paper_index

        write_paper_index(spans_to, mapped[1], spans, {})
    return summaries


def _key_at(data: mmap.mmap, start: int, stop: int) -> tuple[object, int]:
    """The key of the entry at ``[start, stop)`` of ``data`` and where its closing quote is: the
    text up to the first ``":`` that parses (one inside the key follows an escaped quote: that
    cut does not parse).

    Raises:
        orjson.JSONDecodeError: no cut parses.
    """
    colon = data.find(b'":', start + 1, stop)
    while True:
        if colon < 0:
            raise orjson.JSONDecodeError("no key", "", 0)
        try:
            return orjson.loads(data[start : colon + 1]), colon
        except orjson.JSONDecodeError:
            colon = data.find(b'":', colon + 1, stop)


def _venue_of(doc: object) -> Any:
    """The :attr:`~paperdeck.model.review_summary.ReviewSummary.venue` the summary ``doc`` (an entry's
    value, parsed) is built with (``""`` without one); ``None`` for no summary (built later,
    which names what is wrong)."""
    return doc.get("venue", "") if type(doc) is dict else None


def _is_regular(fd: int) -> bool:
    """Whether the open file ``fd`` is a regular file (never a FIFO or device to map)."""
    import stat

    return stat.S_ISREG(os.fstat(fd).st_mode)


def summaries_by_index(
    path: Path, index_path: Path, keep: AbstractSet[str], made: Mapping[str, ReviewSummary] | None = None
) -> dict[str, ReviewSummary] | None:
    """The summaries of the forums ``keep`` in the summaries file at ``path``, by forum id, in
    the file's order: as :func:`summaries_streamed` with ``keep`` answers, but only their entries
    parsed. Each entry is found by the file's span index at ``index_path``
    (:mod:`paperdeck.store.paper_index`, made for this very file: its stamp), its key read at its
    span's start; the other forums' entries are neither parsed nor built (they are read when
    every summary is). ``None`` when the index is not usable, its spans do not tile the file
    entry after entry as :func:`~paperdeck.store.paper_index.object_bytes` lays it out, or a key
    or a kept entry does not parse (the caller then streams the file). A summary ``made`` holds
    is taken from it, not built again.

    Raises:
        KeyError, TypeError, ValueError, AttributeError: a kept entry parses but is no summary.
    """
    from paperdeck.store.paper_index import open_index

    index = open_index(index_path, path)
    if index is None:
        return None
    try:
        spans = index.all_spans()
    except (ValueError, TypeError):
        return None
    finally:
        index.close()
    mapped = _mapped(path)
    if mapped is None:
        return None
    data, stamp = mapped
    summaries: dict[str, ReviewSummary] = {}
    of, loads = ReviewSummary.from_dict, orjson.loads
    try:
        end = data.rfind(b"}")
        if stamp != index.stamp or not spans or data[:2] != b'{"' or data[end + 1 :].strip():
            return None
        at = 1  # each entry begins where the one before ended and its comma: checked before any is read
        for start, stop in spans:
            if start != at or stop > end or data[stop : stop + 1] != (b"}" if stop == end else b","):
                return None
            at = stop + 1
        if at != end + 1:
            return None
        for start, stop in spans:
            forum, colon = _key_at(data, start, stop)
            if type(forum) is not str:
                return None
            if forum in keep:
                if made is not None and forum in made:
                    summaries[forum] = made[forum]
                else:
                    doc = loads(data[colon + 2 : stop])
                    if type(doc) is not dict:
                        return None
                    summaries[forum] = of(doc)
    except orjson.JSONDecodeError:
        return None
    finally:
        data.close()
    return summaries


def _mapped(path: Path) -> tuple[mmap.mmap, tuple[int, int, int]] | None:
    """The regular file at ``path`` memory-mapped (read only), with its ``(inode, mtime in ns,
    size)``; ``None`` when it cannot be opened, is empty or is no regular file."""
    import mmap

    try:
        # Not blocking: a FIFO put in the file's place is refused, never waited on.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
        if not stat.st_size or not _is_regular(fd):
            return None
        return mmap.mmap(fd, stat.st_size, access=mmap.ACCESS_READ), (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
