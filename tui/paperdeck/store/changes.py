"""The catalogue's change log: what each import changed on each paper (:mod:`paperdeck.model.changes`).

``changes.jsonl`` in the data directory, catalogue-side data (written only by imports), one
compact JSON object per paper changed per import (:meth:`PaperChange.to_dict
<paperdeck.model.changes.PaperChange.to_dict>`), oldest first. It is only ever appended to: an
import writes its lines in one ``write`` after the catalogue and the reviews are committed, and
fsyncs the file (and the directory, when it made the file). A failed import records nothing. A line
cut short by a crash is skipped on reading, and the next append starts on a line of its own.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import write_failure

if TYPE_CHECKING:  # imported where a change is read: the list asks for changes before any is recorded
    from paperdeck.model.changes import PaperChange

__all__ = ["CHANGES_FILE", "ChangeLog"]

#: The change log's file name in the data directory.
CHANGES_FILE = "changes.jsonl"


class ChangeLog:
    """The change log of a store, read whole on first need and again when the file changed.

    Args:
        path: the ``changes.jsonl`` file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The file's stamp when last read, and what it held (one tuple: threads read it at once).
        self._read: tuple[tuple[int, int, int] | None, list[PaperChange]] = (None, [])

    def stamp(self) -> tuple[int, int, int] | None:
        """``(inode, size, mtime_ns)`` of the file, ``None`` when there is none (one ``stat``)."""
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)

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

    def append(self, changes: Iterable[PaperChange]) -> int:
        """Append ``changes`` (empty ones left out) in one write, durably.

        Returns:
            how many were written.

        Raises:
            StoreError: the file cannot be written (nothing of this call is in it then, but for a
                line cut short, which :meth:`read` skips).
        """
        lines = [orjson.dumps(change.to_dict()) + b"\n" for change in changes if not change.is_empty]
        if not lines:
            return 0
        payload = b"".join(lines)
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


def _last_byte(path: Path, size: int) -> bytes:
    with path.open("rb") as handle:
        handle.seek(size - 1)
        return handle.read(1)
