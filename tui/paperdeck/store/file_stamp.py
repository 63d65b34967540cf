"""Whether a file changed since it was read: the one stamp every part compares.

A file's stamp is its ``(device, inode, size, mtime in ns, ctime in ns)``. Each part alone misses
changes: an mtime is as coarse as the file system's clock tick (a rewrite within it keeps it, and
``os.utime`` sets it to anything); a file replaced by a rename gets a new inode, but a second
replacement can get the inode of the first one freed (ext4 hands it out again: the inodes
alternate); two versions often have one size. The ctime cannot be set by hand and changes at each
write, rename, link or ``utime``: a file put in place by a rename carries the ctime of that rename,
so a file replaced twice within one mtime tick, of one size and with its first inode back, still
differs from the one read, unless both renames fall within one tick of the kernel's clock too.

A stamp that differs says "read it again", never "it is another file": a hard link made to the
file (an undo point kept), or a ``chmod``, change the ctime of the file they touch, and it is read
again once (only a cost in time). A file a transaction stages is renamed into place at its commit,
which sets its ctime: :func:`stamp_written` takes the stamp of what was written again then.

The keys of the caches saved beside the catalogue (the rows cache's header, the paper index's,
the search index's, the statistics cache's, an undo point's) are not stamps: they are taken of
the file a transaction stages and must still match once it is renamed into place, and a store
copied with ``cp -a`` keeps them; they are ``[size, mtime in ns]``, with the inode where the
cache is only of this very file (:mod:`paperdeck.store.paper_index`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from paperdeck.store.atomic import ACTIVE, staged_path
from paperdeck.values import FrozenValue

__all__ = ["FileStamp", "file_stamp", "stamp_written"]


class FileStamp(FrozenValue):
    """One version of a file, as :func:`os.stat` tells it apart; compared and hashed by its fields.

    Attributes:
        device: ``st_dev``, the file system it is on.
        inode: ``st_ino``.
        size: ``st_size`` in bytes.
        mtime_ns: ``st_mtime_ns``, when its bytes were last written (settable by ``os.utime``).
        ctime_ns: ``st_ctime_ns``, when the file (its bytes, its name, its links or its mode)
            last changed: a rename or a rewrite sets it; nothing sets it back.
    """

    __slots__ = ("ctime_ns", "device", "inode", "mtime_ns", "size")
    FIELDS = ("device", "inode", "size", "mtime_ns", "ctime_ns")

    device: int
    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int

    def __init__(self, device: int, inode: int, size: int, mtime_ns: int, ctime_ns: int) -> None:
        set_field = object.__setattr__
        set_field(self, "device", device)
        set_field(self, "inode", inode)
        set_field(self, "size", size)
        set_field(self, "mtime_ns", mtime_ns)
        set_field(self, "ctime_ns", ctime_ns)

    @classmethod
    def of(cls, status: os.stat_result) -> FileStamp:
        """The stamp of the file ``status`` (an ``os.stat`` or ``os.fstat`` result) describes."""
        return cls(status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)

    def __eq__(self, other: object) -> bool:
        # Field by field, the likeliest to differ first: a stamp is compared for each file at
        # each look (every shard of the user's data), and FrozenValue's lists of fields cost more.
        if not isinstance(other, FileStamp):
            return NotImplemented
        return (
            self.ctime_ns == other.ctime_ns
            and self.mtime_ns == other.mtime_ns
            and self.size == other.size
            and self.inode == other.inode
            and self.device == other.device
        )

    def __hash__(self) -> int:
        return hash((self.device, self.inode, self.size, self.mtime_ns, self.ctime_ns))

    def renamed(self, other: FileStamp | None) -> bool:
        """Whether ``other`` is this file moved by a rename and nothing else: the same device,
        inode, size and mtime (the ctime alone differs)."""
        return other is not None and (self.device, self.inode, self.size, self.mtime_ns) == (
            other.device,
            other.inode,
            other.size,
            other.mtime_ns,
        )


def file_stamp(path: str | Path) -> FileStamp | None:
    """The stamp of the file at ``path`` (a symbolic link followed), ``None`` when there is none
    or it cannot be stat'ed."""
    try:
        return FileStamp.of(os.stat(path))
    except (OSError, ValueError):
        return None


def stamp_written(path: Path, keep: Callable[[FileStamp | None], object]) -> None:
    """Hand ``keep`` the stamp of the file this process just wrote at ``path`` (as this context
    sees it: staged, in a transaction); in a transaction, once more at its commit, the file renamed
    into place (its ctime changed), unless something else was put there meanwhile (then ``keep``
    is not called again: what the commit left is not what was written)."""
    stamp = file_stamp(staged_path(path))
    keep(stamp)
    txn = ACTIVE.get()
    if stamp is None or txn is None or staged_path(path) == path:
        return

    def committed() -> None:
        now = file_stamp(path)
        if stamp.renamed(now):
            keep(now)

    txn.after_commit(committed)
