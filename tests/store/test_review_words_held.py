"""What a review import holds at once for its word index, counted (issue 32: the import and the
word index process it ran beside it held ~780 MB together at 5 ×, each ~400 MB).

- The words are folded in a thread of the importing process, never in a process of its own (a
  second interpreter and numpy, held beside the import's peak).
- The hashes of a batch's tokens are made a piece of :attr:`_Hasher.CHUNK_BYTES` at a time: the
  tables held are of a piece's size however large the text (they were 24 bytes per byte of the
  largest batch, held to the end), and the hashes are those made over the whole text at once.
- What the merge freed is handed back (``release_freed_memory``) before the word index is
  written beside it.

The notes are the committed cuts of the real review parts (``tests/data/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store import review_words
from paperdeck.store import reviews as review_store
from paperdeck.store.review_words import MAX_WORD_BYTES, SECTION_BREAK, WordIndexBuilder, _Hasher, _powers
from paperdeck.store.store import Store

from tests.helpers import review_parts

PARTS = review_parts()


def _text() -> bytes:
    """The real notes' text, folded ASCII as a batch is, between spaces (about 1.5 MB)."""
    docs = [text for part in PARTS for review in read_source(part).reviews for _, text in review.sections]
    blob = b" ".join([b"", *(doc.encode("utf-8", "surrogatepass") for doc in docs), b""])
    return blob.translate(review_words._ASCII_FOLD)


def _hashes_at_once(blob: bytes) -> np.ndarray:
    """The hashes :meth:`_Hasher.tokens` made before: prefix sums over the whole blob at once."""
    data = np.frombuffer(blob, dtype=np.uint8)
    word = data != 0x20
    edges = np.flatnonzero(word[1:] != word[:-1]) + 1
    starts, ends = edges[0::2], edges[1::2]
    cut = np.minimum(ends, starts + MAX_WORD_BYTES)
    n = len(data)
    powers, inverses = _powers(int(_Hasher.B), n), _powers(pow(int(_Hasher.B), -1, 1 << 64), n)
    prefix = np.zeros(n + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        np.multiply(data, powers, out=prefix[1:])
        np.cumsum(prefix[1:], out=prefix[1:])
        hashes = (prefix[cut] - prefix[starts]) * inverses[starts]
        hashes += (cut - starts).astype(np.uint64) * _Hasher.K
        hashes ^= hashes >> np.uint64(33)
        hashes *= np.uint64(0xFF51AFD7ED558CCD)
        hashes ^= hashes >> np.uint64(33)
        hashes *= np.uint64(0xC4CEB9FE1A85EC53)
        hashes ^= hashes >> np.uint64(33)
    return hashes >> _Hasher.SHIFT


def test_the_hash_tables_held_are_a_piece_long_and_the_hashes_those_made_at_once() -> None:
    blob = _text()
    hasher = _Hasher()
    assert len(blob) > 4 * hasher.CHUNK_BYTES  # several pieces
    _, _, hashes = hasher.tokens(blob)
    assert len(hashes) > 100_000
    assert np.array_equal(hashes, _hashes_at_once(blob))
    span = hasher.CHUNK_BYTES + MAX_WORD_BYTES
    held = max(len(hasher._pow), len(hasher._inv), len(hasher._prefix))
    assert held <= span + 1 < len(blob) // 4  # one piece's, not the text's (24 bytes a byte)
    # a token longer than the cut, across a piece's end, is hashed by its first bytes alone
    long_word = b"x" * (hasher.CHUNK_BYTES + 10)
    _, _, two = hasher.tokens(b" " + long_word + b" " + long_word[:MAX_WORD_BYTES] + b" ")
    assert two[0] == two[1]
    assert max(len(hasher._pow), len(hasher._prefix)) <= span + 1


def test_an_import_folds_its_words_in_no_process_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Any] = []

    def no_process(*args: Any, **kwargs: Any) -> None:
        started.append(kwargs)
        raise AssertionError("the review words folded in a process of their own")

    monkeypatch.setattr(review_words, "ProcessPoolExecutor", no_process)
    # however much text it brings (an import of more than this chose a process before)
    monkeypatch.setattr(review_store, "_WORDS_IN_PROCESS_CHARS", 1, raising=False)
    monkeypatch.setattr(WordIndexBuilder, "BATCH_BYTES", 1 << 16)  # several batches, through the thread
    threads: list[int] = []
    batch = WordIndexBuilder._batch

    def counted(self: WordIndexBuilder, pending: list[bytes], units: list[int]) -> None:
        threads.append(len(pending))
        batch(self, pending, units)

    monkeypatch.setattr(WordIndexBuilder, "_batch", counted)
    store = Store(tmp_path / "data")
    summary = import_files(store, PARTS)
    assert started == []
    assert summary.reviews is not None and summary.reviews.new > 800
    assert len(threads) > 5  # folded a batch at a time
    index = store.reviews.word_index()
    assert index is not None and len(index.forums) == len(store.reviews.summaries())
    assert index.forums_with("baselines")


def test_the_merge_hands_back_what_it_freed_before_the_word_index_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    monkeypatch.setattr(review_store, "release_freed_memory", lambda: events.append("released"), raising=False)
    write = WordIndexBuilder.write

    def written(self: WordIndexBuilder, *args: Any, **kwargs: Any) -> list[Path]:
        events.append("words written")
        return write(self, *args, **kwargs)

    monkeypatch.setattr(WordIndexBuilder, "write", written)
    store = Store(tmp_path / "data")
    import_files(store, PARTS)
    assert events[-2:] == ["released", "words written"]
    index = store.reviews.word_index()
    assert index is not None and SECTION_BREAK.encode() not in b"".join(index.words())
