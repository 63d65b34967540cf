"""The review word index written from what its batches put aside on disk, a bucket at a time.

:class:`paperdeck.store.review_words.WordIndexBuilder` puts each batch's folded words aside (an
unlinked temporary file) and writes the index by merging them a bucket of ranks at a time, so
that it holds one batch's or one bucket's words, not every note's. Built from the notes of the
real review parts' cuts (``tests/data/``) in batches of a few papers and buckets of a few pairs,
the index must be byte for byte the one built in one batch, with an old index to keep papers of
or without; the most it held at once is counted; a failure of the file put aside leaves the store
as it was.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.review import Review
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store import review_words
from paperdeck.store.review_words import WordIndex, WordIndexBuilder
from paperdeck.store.store import Store

from tests.helpers import review_parts
from tests.store.faults import state

PARTS = review_parts()


def _by_forum() -> dict[str, list[Review]]:
    notes: dict[str, list[Review]] = {}
    for part in PARTS:
        for review in read_source(part).reviews:
            notes.setdefault(review.forum, []).append(review)
    return notes


def _tiny(builder: WordIndexBuilder) -> WordIndexBuilder:
    """``builder`` folding a few papers a batch, merging a few pairs a bucket."""
    builder.BATCH_BYTES = 1 << 12
    builder.BATCH_PAPERS = 4
    builder.BUCKET_PAIRS = 16
    builder.RUN_ELEMENTS = 16
    return builder


def _build(directory: Path, notes: dict[str, list[Review]], old: WordIndex | None, tiny: bool) -> WordIndexBuilder:
    builder = WordIndexBuilder(old, spill_dir=directory)
    if tiny:
        _tiny(builder)
    directory.mkdir(exist_ok=True)
    for forum, reviews in notes.items():
        builder.add(forum, reviews)
    builder.write(directory, "words.g1")
    builder.close()
    return builder


def _files(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.glob("words.g1.*"))}


def test_an_index_built_in_tiny_batches_and_buckets_is_the_one_built_at_once(tmp_path: Path) -> None:
    notes = _by_forum()
    whole = _build(tmp_path / "whole", notes, None, tiny=False)
    tiny = _build(tmp_path / "tiny", notes, None, tiny=True)
    files = _files(tmp_path / "whole")
    assert len(files) == 6 and files == _files(tmp_path / "tiny")
    assert len(tiny._sequences) > 50  # many batches, many buckets: the merge was exercised
    index = WordIndex(tmp_path / "tiny", "words.g1")
    pairs, words = len(index.postings), len(index.sequence) if index.sequence is not None else 0
    most = int(np.diff(index.starts).max())  # one word's postings: a bucket holds them whole
    batch_words = max(int(lengths.sum()) for _, lengths, _, _ in tiny._sequences)
    assert tiny.largest_held <= max(tiny.BUCKET_PAIRS, most, batch_words, tiny.RUN_ELEMENTS)
    assert tiny.largest_held * 20 < min(pairs, words)
    assert whole.largest_held >= pairs  # one bucket: every pair at once
    assert not list((tmp_path / "tiny").glob(".paperdeck-words-*"))  # the file put aside is unlinked


def test_an_index_keeping_an_old_ones_papers_built_in_tiny_batches_is_the_same(tmp_path: Path) -> None:
    notes = _by_forum()
    _build(tmp_path / "old", notes, None, tiny=False)
    old = WordIndex(tmp_path / "old", "words.g1")
    forums = list(notes)
    # a third of the papers replaced (their notes in another order, the last dropped), one new
    changed = {forum: list(reversed(notes[forum]))[:-1] or notes[forum] for forum in forums[::3]}
    changed["newForum001"] = notes[forums[1]]
    for tiny in (False, True):
        _build(tmp_path / ("tiny" if tiny else "whole"), changed, old, tiny)
    assert _files(tmp_path / "whole") == _files(tmp_path / "tiny")
    index = WordIndex(tmp_path / "tiny", "words.g1")
    assert set(index.forums) == {*forums, "newForum001"}
    word = next(w for w in index.words() if len(w) > 6).decode()
    # every paper's words: those given for a changed paper, the old index's for a kept one
    assert (index.forums_with(word) - set(changed)) == (old.forums_with(word) - set(changed))


def test_a_failure_of_the_words_put_aside_leaves_the_store_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "store"
    import_files(Store(data_dir), [PARTS[0]])
    before = state(data_dir)
    calls = 0
    get = review_words._RunFile.get

    def failing(self: review_words._RunFile, *args: object, **kwargs: object) -> np.ndarray:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise StoreError(data_dir, "cannot put the review words aside: no space left on device")
        return get(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review_words._RunFile, "get", failing)
    monkeypatch.setattr(WordIndexBuilder, "BATCH_BYTES", 1 << 14)
    with pytest.raises(StoreError, match="review words aside"):
        import_files(Store(data_dir), PARTS[1:])
    assert calls >= 3
    assert state(data_dir) == before
    assert not list(data_dir.rglob(".paperdeck-words-*"))
