"""The rows cache (``rows-cache.json`` beside the catalogue): what the list shows of each paper,
read at start-up instead of parsing the whole catalogue (~0.5 s at 19,630 papers).

Shape: ``{"catalogue": [size in bytes, mtime in ns], "rows": [[id, title, ...], ...]}`` (each row
is :meth:`PaperRow.to_list`), valid only for the catalogue file with that size and time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from operator import itemgetter
from pathlib import Path
from typing import Any

import orjson

from tui.core.errors import StoreError
from tui.core.paper import Paper, PaperRow
from tui.core.storage import atomic_write_bytes


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """``(inode, mtime_ns, size)`` of a file (each write replaces it), ``None`` when missing."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def read_rows_cache(rows_path: Path, catalogue_path: Path) -> dict[str, PaperRow | list[Any]] | None:
    """The cached rows by paper id, in catalogue order, each a list as read (the store replaces
    it by its :class:`PaperRow` when first shown), or ``None`` when the cache is missing, broken
    or made for another catalogue file (then the catalogue must be read)."""
    try:
        stat = catalogue_path.stat()
        data = orjson.loads(rows_path.read_bytes())
        if data.get("catalogue") != [stat.st_size, stat.st_mtime_ns]:
            return None
        items = data["rows"]
        # Checked here (in C: maps over the 19,630 rows), built into PaperRows only when shown.
        ids = list(map(itemgetter(0), items))
        if not (
            type(items) is list
            and set(map(type, items)) <= {list}
            and set(map(len, items)) <= {5}
            and set(map(type, ids)) <= {str}
            and set(map(type, map(itemgetter(1), items))) <= {str}
        ):
            return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None
    return dict(zip(ids, items, strict=True))


def write_rows_cache(
    rows_path: Path, catalogue_path: Path, stamp: tuple[int, int, int], papers: Iterable[Paper]
) -> None:
    """Write the rows of ``papers``, read from or written to the catalogue file when it had
    ``stamp`` (:func:`file_stamp`). A failure only costs speed; if the file has changed since
    (another process's import), no cache is left."""
    try:
        stat = catalogue_path.stat()
        if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != stamp:
            return
        payload = {
            "catalogue": [stat.st_size, stat.st_mtime_ns],
            "rows": [PaperRow.of(paper).to_list() for paper in papers],
        }
        atomic_write_bytes(rows_path, orjson.dumps(payload))
        if file_stamp(catalogue_path) != stamp:  # replaced while writing
            rows_path.unlink()
    except (OSError, StoreError):
        with contextlib.suppress(OSError):
            rows_path.unlink()
