"""What says the user's data changed on disk without reading it: each shard's stamp
(size, mtimes, device and inode) against those last read or written."""

from __future__ import annotations

import os
from pathlib import Path

from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.waits import block_until


def test_a_rewrite_of_the_same_size_and_time_is_seen_by_its_inode(tmp_path: Path) -> None:
    """An atomic replace within the clock's resolution keeps size and mtime_ns: the new inode
    still says the shard changed."""
    store = Store(tmp_path / "data")
    store.set_note("openreview:A", "first")
    assert not store.user_data_changed_on_disk()
    path = store._user.shard_path(doc_id_for("openreview:A") % SHARDS)
    before = path.stat()
    other = path.with_name(path.name + ".new")
    other.write_bytes(path.read_bytes().replace(b"first", b"other"))
    os.replace(other, path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert after.st_ino != before.st_ino
    assert store.user_data_changed_on_disk()
    assert store.reload_user_data()
    assert store.user_data("openreview:A").note == "other"
    assert not store.user_data_changed_on_disk()


def test_a_shard_replaced_twice_with_its_first_inode_back_is_seen_changed(tmp_path: Path) -> None:
    """Replaced by renames, a shard can get back the inode of the one read (ext4 hands the freed
    inode out again: alternation); of the same size and with the mtime set back (``os.utime``,
    or one clock tick), only the ctime (set by the rename and the ``utime``) tells it changed."""
    store = Store(tmp_path / "data")
    store.set_note("openreview:A", "first")
    path = store._user.shard_path(doc_id_for("openreview:A") % SHARDS)
    before = path.stat()
    for n in range(64):  # each replace frees the inode before it: the first one comes back
        other = path.with_name(f"{path.name}.{n}")
        other.write_bytes(path.read_bytes().replace(b"first", b"other"))
        os.replace(other, path)
        if path.stat().st_ino == before.st_ino:
            break

    def set_back() -> bool:  # the mtime read, set back; the ctime moves on with the kernel's clock
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        return path.stat().st_ctime_ns != before.st_ctime_ns

    block_until(set_back, what="the shard's ctime past the one read")
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert store.user_data_changed_on_disk()
    assert store.reload_user_data()
    assert store.user_data("openreview:A").note == "other"
    assert not store.user_data_changed_on_disk()
