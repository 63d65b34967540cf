"""A read ahead of a saved index that failed (no file yet) raises its error where the sections are
taken, once, and holds nothing of the frames it was raised through: what they held (an index built
then) is freed when they end, not left to the cycle collector."""

from __future__ import annotations

import contextlib
import gc
import weakref
from pathlib import Path

import pytest
from paperdeck.search.index_file import ReadAhead


class _Held:
    """Stands for what a frame the error passes holds (the index a build makes)."""


def test_the_error_of_a_read_ahead_keeps_no_frame_alive(tmp_path: Path) -> None:
    path = tmp_path / "search-index.bin"
    ahead = ReadAhead(path)
    refs: list[weakref.ref[_Held]] = []

    def build() -> None:
        held = _Held()
        refs.append(weakref.ref(held))
        with contextlib.suppress(FileNotFoundError):  # as the index's load does: a build follows
            ahead.sections(path)

    gc.disable()
    try:
        build()
        assert refs[0]() is None
    finally:
        gc.enable()
    with pytest.raises(FileNotFoundError):  # asked again: read again, the same error
        ahead.sections(path)
