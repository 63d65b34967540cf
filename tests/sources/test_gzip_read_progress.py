"""Reading a gzip file tells how far it is, by the compressed bytes read.

The fourteenth round: a review part (``iclr2026_reviews_reviewtracker.part1of3.jsonl.gz``, 29.6 MB
compressed, 108.6 MB of JSON Lines) was decompressed whole in one call, one still step of ~2 s in
the import bar. It is read a piece of :data:`~paperdeck.sources.base.GZIP_PIECE` bytes at a time
now, each piece told to :func:`~paperdeck.sources.base.telling_bytes`; a file read ahead (in the
read-ahead thread) is told as far as that thread is while the import waits for it. The files are
the review sample of tests/data (its origin: tests/data/README.md), gzip-compressed here. Counted,
not timed (the wait below is for an event, not a clock)."""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import base
from paperdeck.sources.base import read_bytes, reading_ahead, telling_bytes
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import ReviewSample

PIECE = 4096


def _gz(source: Path, folder: Path) -> tuple[Path, bytes]:
    raw = source.read_bytes()
    path = folder / f"{source.name}.gz"
    path.write_bytes(gzip.compress(raw, compresslevel=1))
    return path, raw


def test_a_gzip_file_is_told_a_piece_at_a_time(
    tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "GZIP_PIECE", PIECE)
    path, raw = _gz(review_sample.notes_file, tmp_path)
    size = path.stat().st_size
    told: list[tuple[int, int]] = []
    with telling_bytes(lambda done, whole: told.append((done, whole))):
        assert read_bytes(path) == raw
    assert size > 8 * PIECE
    assert len(told) == -(-(size - 2) // PIECE) + 1  # each piece after the magic, then the end seen
    assert all(whole == size for _, whole in told)
    dones = [done for done, _ in told]
    assert dones == sorted(dones) and dones[0] == PIECE + 2 and dones[-1] == size


def test_members_padding_and_a_truncated_end_read_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "GZIP_PIECE", 7)  # members and padding across pieces
    path = tmp_path / "two.gz"
    path.write_bytes(gzip.compress(b"first member, ") + b"\x00" * 20 + gzip.compress(b"second"))
    assert read_bytes(path) == b"first member, second"
    path.write_bytes(gzip.compress(b"cut short " * 50)[:-9])
    with pytest.raises(SourceError, match="truncated gzip data"):
        read_bytes(path)


def test_a_file_read_ahead_is_told_while_it_is_waited_for(
    tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "GZIP_PIECE", PIECE)
    path, raw = _gz(review_sample.notes_file, tmp_path)
    seen = threading.Event()
    tell = base._Ahead.tell

    def held(self: base._Ahead, done: int, size: int) -> None:
        tell(self, done, size)
        if done < size:
            seen.wait(60)  # the read-ahead thread waits part way until the waiting import tells it

    monkeypatch.setattr(base._Ahead, "tell", held)
    told: list[tuple[int, int]] = []

    def waited(done: int, size: int) -> None:
        told.append((done, size))
        if 0 < done < size:
            seen.set()

    with reading_ahead() as ahead, telling_bytes(waited):
        ahead(path)
        assert read_bytes(path) == raw
    assert seen.is_set() and any(0 < done < size for done, size in told)


def test_an_import_tells_each_gzip_file_after_naming_it(
    data_dir: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(base, "GZIP_PIECE", PIECE)
    papers, _ = _gz(review_sample.papers_file, tmp_path)
    notes, _ = _gz(review_sample.notes_file, tmp_path)
    events: list[tuple[str, int, int]] = []
    import_files(
        Store(data_dir),
        [papers, notes],
        progress=lambda index, count, path: events.append(("file", index, count)),
        told=lambda done, size: events.append(("bytes", done, size)),
    )
    assert events[0] == ("file", 0, 2)
    second = events.index(("file", 1, 2))
    first_told = [(done, size) for kind, done, size in events[1:second] if kind == "bytes"]
    assert first_told and first_told[-1] == (papers.stat().st_size, papers.stat().st_size)
    # the second file is read ahead: told while it is waited for, if it is not read by then
    assert all(kind == "bytes" and size == notes.stat().st_size for kind, _, size in events[second + 1 :])
