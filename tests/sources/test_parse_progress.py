"""A file's records are told as they are parsed, and the import bar moves by them: one measure.

The sixteenth round (left16): importing ``iclr2026_reviews_reviewtracker.part1of3.jsonl.gz`` the bar
moved by compressed bytes while the part was decompressed (0.33 s CPU), then stood still while its
27,700 JSON lines were parsed (0.52 s CPU, ~2 s under load); the description said ``indexing the
reviews' words 50%`` beside the bar's own 57 %, and Rich's time left was foretold from a rate over
steps of unlike lengths. A reader parsing a file's records one at a time now tells
:func:`~paperdeck.sources.base.telling_records` a batch at a time, the bar's file step moves by
them after the bytes' share, the description holds no percentage and the bar shows no time left.
The files are the review sample of tests/data (its origin: tests/data/README.md), written as JSON
Lines and gzip-compressed here. Counted, not timed."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

import pytest
from paperdeck.cli.output import GZIP_SHARE, ImportBar, import_progress
from paperdeck.sources import openreview, read_source
from paperdeck.sources.base import telling_records
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from rich.console import Console
from rich.progress import Progress, TimeRemainingColumn

from tests.helpers import ReviewSample

EVERY = 8


def _notes_lines_gz(review_sample: ReviewSample, folder: Path) -> tuple[Path, int]:
    notes = review_sample.notes()
    path = folder / "notes.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(note) + "\n" for note in notes).encode(), compresslevel=1))
    return path, len(notes)


def test_a_json_lines_files_records_are_told_a_batch_at_a_time(
    tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openreview, "RECORDS_TOLD_EVERY", EVERY)
    path, count = _notes_lines_gz(review_sample, tmp_path)
    told: list[tuple[int, int]] = []
    with telling_records(lambda done, total: told.append((done, total))):
        read = read_source(path)
    assert len(read.reviews) == count == 51
    assert told == [*((done, count) for done in range(0, count, EVERY)), (count, count)]


def test_nobody_told_reads_the_same(tmp_path: Path, review_sample: ReviewSample) -> None:
    path, _ = _notes_lines_gz(review_sample, tmp_path)
    told: list[tuple[int, int]] = []
    with telling_records(lambda done, total: told.append((done, total))), telling_records(None):
        quiet = read_source(path)
    assert told == [] and quiet.reviews == read_source(path).reviews


def test_an_import_tells_each_files_records_after_its_bytes(
    data_dir: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openreview, "RECORDS_TOLD_EVERY", EVERY)
    path, count = _notes_lines_gz(review_sample, data_dir.parent)
    events: list[tuple[str, int, int]] = []
    import_files(
        Store(data_dir),
        [path, review_sample.papers_file],  # the first file is not read ahead: its bytes are waited for
        progress=lambda index, _count, _path: events.append(("file", index, 0)),
        told=lambda done, size: events.append(("bytes", done, size)),
        records=lambda done, total: events.append(("records", done, total)),
    )
    second = events.index(("file", 1, 0))
    kinds = [kind for kind, _, _ in events[:second]]
    assert kinds[0] == "file" and kinds[1] == "bytes" and "bytes" not in kinds[kinds.index("records") :]
    records = [(done, total) for kind, done, total in events[:second] if kind == "records"]
    assert records[0] == (0, count) and records[-1] == (count, count) and len(records) > 2
    papers = [(done, total) for kind, done, total in events[second:] if kind == "records"]
    assert papers == [(0, 12), (8, 12), (12, 12)]  # the papers' file: 12 records


def _bar(files: int) -> tuple[Progress, ImportBar]:
    progress = Progress(console=Console(file=io.StringIO(), width=80, force_terminal=False), auto_refresh=False)
    return progress, ImportBar(progress, files=files)


def test_the_bar_moves_through_a_gzip_files_bytes_then_its_records() -> None:
    progress, bar = _bar(files=2)
    task = progress.tasks[0]
    seen = []
    bar.reading(1, 2, Path("reviews.jsonl.gz"))
    seen.append(task.completed)
    for done in (10, 20, 40):
        bar.read_bytes(done, 40)
        seen.append(task.completed)
    for done in (0, 512, 1024, 2000):
        bar.read_records(done, 2000)
        seen.append(task.completed)
    assert seen == pytest.approx([1, 1 + GZIP_SHARE / 4, 1 + GZIP_SHARE / 2, 1 + GZIP_SHARE, 1 + GZIP_SHARE,
                                  1 + GZIP_SHARE + (1 - GZIP_SHARE) * 512 / 2000,
                                  1 + GZIP_SHARE + (1 - GZIP_SHARE) * 1024 / 2000, 2])  # fmt: skip
    assert 0 < GZIP_SHARE < 1
    assert task.description == "reading reviews.jsonl.gz"  # no second measure beside the bar's


def test_a_file_with_no_bytes_waited_for_moves_by_its_records_alone() -> None:
    """A plain file, or a gzip file decompressed ahead: its records are the whole of its step,
    the next file's start again from its bytes."""
    progress, bar = _bar(files=2)
    task = progress.tasks[0]
    bar.reading(0, 2, Path("papers.jsonl"))
    bar.read_records(50, 100)
    assert task.completed == pytest.approx(0.5)
    bar.read_records(100, 100)
    assert task.completed == 1
    bar.reading(1, 2, Path("reviews.jsonl.gz"))
    bar.read_records(0, 100)
    assert task.completed == 1
    bar.read_records(100, 100)
    assert task.completed == 2


def test_the_word_index_says_no_percentage_of_its_own() -> None:
    progress, bar = _bar(files=1)
    task = progress.tasks[0]
    bar.merging("review words", 50, 100)
    assert task.description == "indexing the reviews' words"
    assert task.completed == pytest.approx(1.7)  # the bar's percentage says how far


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_foretells_no_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", _Terminal())
    with import_progress(1) as bar:
        assert bar is not None
        columns = bar._bar.columns
    assert not any(isinstance(column, TimeRemainingColumn) for column in columns)
    shown = [type(column).__name__ for column in columns]
    assert shown == ["TextColumn", "BarColumn", "TaskProgressColumn", "TimeElapsedColumn"]
