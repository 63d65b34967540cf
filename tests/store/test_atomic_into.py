"""``atomic_write_into``: a writer that makes the file itself writes it once, atomically."""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

import pytest
from paperdeck.store.atomic import TEMP_PREFIX, atomic_write_into


def test_the_writer_fills_the_file_and_may_seek(tmp_path: Path) -> None:
    path = tmp_path / "made.bin"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)

    def write(out: BinaryIO) -> None:
        out.write(b"xxxx-tail")
        out.seek(0)
        out.write(b"head")

    atomic_write_into(path, write)
    assert path.read_bytes() == b"head-tail"
    assert os.stat(path).st_mode & 0o777 == 0o640  # the permission bits kept
    assert not [name for name in os.listdir(tmp_path) if name.startswith(TEMP_PREFIX)]


def test_a_writer_that_fails_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "made.bin"
    path.write_bytes(b"old")

    def write(out: BinaryIO) -> None:
        out.write(b"half")
        raise ValueError("the writer failed")

    with pytest.raises(ValueError, match="the writer failed"):
        atomic_write_into(path, write)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["made.bin"]


def test_the_similarity_file_is_what_numpy_writes(tmp_path: Path) -> None:
    import io

    import numpy as np

    arrays = {"a": np.arange(5, dtype=np.int64), "b": np.array(["x", "yz"])}
    path = tmp_path / "made.npz"
    atomic_write_into(path, lambda out: np.savez(out, **arrays))
    aside = io.BytesIO()
    np.savez(aside, **arrays)
    assert path.read_bytes() == aside.getvalue()
