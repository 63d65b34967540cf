"""The user-data backup as an input format (a :class:`~paperdeck.sources.Reader`): a file written
by ``paperdeck export --user-data`` (:mod:`paperdeck.store.backup`), read whole and checked, restored
by :func:`paperdeck.sources.importer.import_files` after the paper lists it came with."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.errors import SourceError
from paperdeck.sources.base import SourceRead
from paperdeck.store.backup import is_backup, looks_like_backup, read_backup

NAME = "backup"


def sniff(path: Path, head: str) -> bool:
    """A JSON object whose first key is ``"paperdeck"`` (no paper list starts so)."""
    return looks_like_backup(head)


def read(path: Path) -> SourceRead:
    """The backup, checked whole (:attr:`SourceRead.backup`); no papers.

    Raises:
        SourceError: the backup is compressed (it is restored as written, uncompressed).
        BackupError: unreadable, not JSON, from a newer paperdeck, or a malformed record.
    """
    if not is_backup(path):  # recognised in its decompressed head only
        raise SourceError(path, "a compressed paperdeck user-data backup; decompress it, then `paperdeck import` it")
    return SourceRead(path, NAME, (), backup=read_backup(path))
