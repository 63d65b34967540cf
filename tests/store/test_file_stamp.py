"""The one stamp that says whether a file changed since it was read (``store/file_stamp.py``)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from paperdeck.store.atomic import staged_path
from paperdeck.store.file_stamp import FileStamp, file_stamp, stamp_written
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.waits import block_until


def _stat(ino: int = 7, size: int = 5, mtime_ns: int = 1_000, ctime_ns: int = 2_000, dev: int = 3) -> os.stat_result:
    # st_mode, st_ino, st_dev, st_nlink, st_uid, st_gid, st_size, then the times in seconds,
    # then (by position, past the 10 of the tuple) the float times and the times in ns.
    return os.stat_result((0o100600, ino, dev, 1, 0, 0, size, 1, 1, 2, 1.0, 1.0, 2.0, 1_000, mtime_ns, ctime_ns))


def test_a_stamp_is_device_inode_size_mtime_and_ctime() -> None:
    stamp = FileStamp.of(_stat())
    assert stamp == FileStamp(3, 7, 5, 1_000, 2_000)
    assert hash(stamp) == hash(FileStamp(3, 7, 5, 1_000, 2_000))
    assert pickle.loads(pickle.dumps(stamp)) == stamp


def test_each_part_alone_tells_two_versions_apart() -> None:
    stamp = FileStamp.of(_stat())
    for other in (_stat(ino=8), _stat(size=6), _stat(mtime_ns=1_001), _stat(ctime_ns=2_001), _stat(dev=4)):
        assert FileStamp.of(other) != stamp


def test_the_same_inode_size_and_mtime_with_another_ctime_is_a_change_renamed_alone() -> None:
    """The inode given back, the size and the mtime as before (a file replaced twice within a
    tick): the ctime differs, so the stamp does; :meth:`FileStamp.renamed` names that case."""
    stamp = FileStamp.of(_stat())
    again = FileStamp.of(_stat(ctime_ns=2_500))
    assert again != stamp
    assert stamp.renamed(again)
    assert not stamp.renamed(FileStamp.of(_stat(size=6, ctime_ns=2_500)))
    assert not stamp.renamed(None)


def test_a_file_replaced_by_one_of_the_same_size_and_mtime_with_its_inode_back(tmp_path: Path) -> None:
    """On a real file system: replaced by renames until the inode read comes back (ext4 gives a
    freed inode out again), the mtime set back with ``os.utime``: the stamp differs."""
    path = tmp_path / "file.json"
    path.write_bytes(b"first")
    before = path.stat()
    stamp = file_stamp(path)
    for n in range(64):
        other = tmp_path / f"file.{n}"
        other.write_bytes(b"other")
        os.replace(other, path)
        if path.stat().st_ino == before.st_ino:
            break

    def set_back() -> bool:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        return path.stat().st_ctime_ns != before.st_ctime_ns

    block_until(set_back, what="the file's ctime past the one read")
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert file_stamp(path) != stamp


def test_no_file_has_no_stamp(tmp_path: Path) -> None:
    assert file_stamp(tmp_path / "missing") is None


def test_a_stamp_written_in_a_transaction_is_taken_again_once_renamed_into_place(tmp_path: Path) -> None:
    """A file staged by a transaction gets a new ctime when the commit renames it into place:
    the stamp of what was written is taken again then, so the writer does not take its own write
    for another process's (the user's data read back after every bulk change)."""
    store = Store(tmp_path / "data")
    store.set_note("openreview:A", "first")
    target = store._user.shard_path(doc_id_for("openreview:A") % SHARDS)
    kept: list[FileStamp | None] = []
    with store.transaction():
        store.change(["openreview:A"], lambda record: record.replaced(starred=True))
        stamp_written(target, kept.append)
        assert kept == [file_stamp(staged_path(target))]
        assert staged_path(target) != target
    assert len(kept) == 2
    assert kept[0] is not None and kept[0].renamed(kept[1])
    assert kept[1] == file_stamp(target)
    assert not store.user_data_changed_on_disk()
    assert store.user_data("openreview:A").starred
