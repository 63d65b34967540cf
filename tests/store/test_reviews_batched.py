"""The reviews import in bounded batches: the notes read are put aside by shard as each file is
read (:class:`paperdeck.store.reviews.ReviewSpill`) and merged a batch of shards at a time.

The store written must be byte for byte the one a single batch writes, and no batch may hold every
note. The files are the committed cuts of the real dump and review parts (``tests/data/``), and a fourth
file with a newer version of a note of the first (a note read twice: its versions merged in the
batch of its shard).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store import reviews as review_store
from paperdeck.store.reviews import ReviewSpill, shard_of
from paperdeck.store.store import Store

from tests.helpers import review_parts, submission_parts

PARTS = review_parts()


def _newer_version(tmp_path: Path) -> Path:
    """A file with a newer version of the first note of the first part (other text, later tmdate)."""
    with gzip.open(PARTS[0], "rb") as handle:
        note: dict[str, Any] = json.loads(handle.readline())
    note["tmdate"] += 1000
    path = tmp_path / "newer.jsonl"
    path.write_text(json.dumps(note) + "\n", encoding="utf-8")
    return path


def _files(directory: Path) -> dict[str, bytes]:
    """The reviews directory's files and the catalogue, by name, as bytes (the summaries' span
    index by name only: it is stamped with its summaries file's inode and time)."""
    found = {
        path.name: b"" if path.name.endswith(".spans.json") else path.read_bytes()
        for path in sorted((directory / "reviews").iterdir())
        if path.is_file()
    }
    found["catalogue.json"] = (directory / "catalogue.json").read_bytes()
    return found


def test_a_batched_import_writes_what_one_batch_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = [*PARTS, _newer_version(tmp_path)]
    sizes: list[int] = []
    batches = ReviewSpill.batches

    def counted(self: ReviewSpill) -> Any:
        for batch in batches(self):
            sizes.append(len(batch))
            yield batch

    monkeypatch.setattr(ReviewSpill, "batches", counted)
    for name in ("whole", "batched"):  # the papers first: their scores are merged into the catalogue
        import_files(Store(tmp_path / name), submission_parts())
    monkeypatch.setattr(review_store, "SPILL_BATCH_BYTES", 1 << 40)  # every note in one batch
    whole = import_files(Store(tmp_path / "whole"), files)
    read = [review for path in files for review in read_source(path).reviews]
    total = len(read)
    assert sizes == [total] and whole.reviews is not None and whole.reviews.new > 500
    sizes.clear()
    monkeypatch.setattr(review_store, "SPILL_BATCH_BYTES", 1)  # one shard a batch
    batched = import_files(Store(tmp_path / "batched"), files)
    assert sum(sizes) == total and len(sizes) == len({shard_of(review.forum) for review in read})
    assert max(sizes) < total / 20  # never every note at once
    assert batched.summary() == whole.summary()
    assert batched.reviews is not None and batched.reviews.versions >= 1  # the note read twice: both versions
    assert _files(tmp_path / "batched") == _files(tmp_path / "whole")


def test_the_spill_gives_back_every_note_by_shard_in_the_order_added(tmp_path: Path) -> None:
    reviews = [review for part in PARTS for review in read_source(part).reviews]
    spill = ReviewSpill(tmp_path, batch_bytes=200_000)
    try:
        for start in range(0, len(reviews), 500):  # several adds, several flushes
            spill.add(reviews[start : start + 500])
        assert spill.count == len(reviews)
        assert spill.text_chars == sum(review.text_size() for review in reviews)
        batches = list(spill.batches())
    finally:
        spill.close()
    assert len(batches) > 1 and spill.largest_batch == max(map(len, batches)) < len(reviews)
    back = [review for batch in batches for review in batch]
    expected = sorted(reviews, key=lambda review: shard_of(review.forum))  # stable: the order added
    assert back == expected
    assert not any(path.name.startswith(".paperdeck-spill-") for path in tmp_path.iterdir())  # nothing left


def test_a_data_directory_that_cannot_take_the_spill_falls_back_to_the_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    made: list[object] = []
    temporary_file = tempfile.TemporaryFile

    def refusing(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs.get("dir"))
        if kwargs.get("dir") is not None:
            raise PermissionError(13, "Permission denied")  # a read-only data directory
        return temporary_file(*args, **kwargs)

    monkeypatch.setattr(tempfile, "TemporaryFile", refusing)
    reviews = read_source(PARTS[1]).reviews
    spill = ReviewSpill(tmp_path)
    try:
        spill.add(reviews)
        back = [review for batch in spill.batches() for review in batch]
    finally:
        spill.close()
    assert made == [tmp_path, None]
    assert sorted(back, key=lambda review: review.id) == sorted(reviews, key=lambda review: review.id)


def test_a_write_failing_after_some_batches_leaves_the_reviews_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One shard a batch, the tenth shard file's write failing: nothing of the import stays (the
    shard files written by the batches before are taken back), and the import run again whole
    writes what one batch writes."""
    from paperdeck.model.errors import StoreError

    data_dir = tmp_path / "store"
    import_files(Store(data_dir), submission_parts())
    import_files(Store(data_dir), [PARTS[0]])  # reviews stored before: a generation to keep whole
    before = _files(data_dir)
    monkeypatch.setattr(review_store, "SPILL_BATCH_BYTES", 1)
    write = review_store.atomic_write_bytes
    shard_writes: list[str] = []

    def failing(path: Path, payload: Any) -> None:
        if path.name[:2] != "su" and path.name.endswith(".json") and path.name != "index.json":
            shard_writes.append(path.name)
            if len(shard_writes) == 10:
                raise StoreError(path, "the disk is full")
        write(path, payload)

    monkeypatch.setattr(review_store, "atomic_write_bytes", failing)
    with pytest.raises(StoreError, match="the disk is full"):
        import_files(Store(data_dir), PARTS[1:])
    assert len(shard_writes) >= 10  # the writes in flight beside the failing one go on
    assert _files(data_dir) == before
    monkeypatch.setattr(review_store, "atomic_write_bytes", write)
    done = import_files(Store(data_dir), PARTS[1:])
    assert done.reviews is not None and done.reviews.new > 100
