"""The word index of the review text: which papers' reviews hold a word, for ``review:`` terms.

Built by every review import (:class:`WordIndexBuilder`) from the notes of each paper (every
kind, every text section and score label) and kept beside the shards as four files of one generation ``G``::

    words.gG.vocab       the distinct words, sorted, UTF-8, each followed by ``\\n``
    words.gG.forums      the forum ids the postings number, each followed by ``\\n``
    words.gG.starts.npy  int64, one more than the words: word ``i``'s postings are
                         ``postings[starts[i]:starts[i + 1]]``
    words.gG.postings.npy  forum numbers (uint16 up to 65,536 papers, else uint32), ascending
                         within a word

A word is a run of letters and digits of the text folded as every search folds it (NFKC,
case-folded, accents of Latin, Greek and Cyrillic letters dropped): :func:`review_words`. The
app reads the files the first time a ``review:`` term is used, the arrays memory-mapped, so that
only the postings a query needs are paged in.
"""

from __future__ import annotations

import bisect
import io
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from paperdeck.model.paper import normalise_text
from paperdeck.model.review import Review
from paperdeck.store.atomic import atomic_write_bytes

__all__ = ["WordIndex", "WordIndexBuilder", "review_words", "words_of_reviews"]

_WORD = re.compile(r"[^\W_]+")
_ACCENTED = re.compile("[\u00c0-\u052f\u1e00-\u1fff\u0300-\u036f]")
_MARKS = dict.fromkeys(range(0x0300, 0x0370))
#: ASCII letters lower-cased, digits kept, other ASCII bytes to spaces; non-ASCII bytes kept.
_ASCII_FOLD = bytes(
    (ord(chr(b).lower()) if chr(b).isalnum() else 0x20) if b < 128 else b for b in range(256)
)


def _fold(text: str) -> str:
    text = normalise_text(text)
    if text.isascii() or not _ACCENTED.search(text):
        return text
    stripped = unicodedata.normalize("NFKD", text).translate(_MARKS)
    return unicodedata.normalize("NFC", stripped).casefold()


def review_words(text: str) -> list[str]:
    """The words of ``text`` (see the module docstring), in order, repeats kept:
    ``"Weak baselines; Ångström-scale"`` gives ``["weak", "baselines", "angstrom", "scale"]``."""
    return _WORD.findall(_fold(text))


def words_of_reviews(reviews: Iterable[Review]) -> set[bytes]:
    """The distinct words (:func:`review_words`, UTF-8 encoded) of every text section and score
    label of ``reviews``: ASCII folded and split by one C-level pass, the rest word by word."""
    texts = [text for review in reviews for _, text in (*review.sections, *review.score_labels)]
    doc = "\n".join(texts)
    if not doc.isascii() and not unicodedata.is_normalized("NFKC", doc):
        doc = unicodedata.normalize("NFKC", doc)
    tokens = set(doc.encode("utf-8", "surrogatepass").translate(_ASCII_FOLD).split())
    odd = [token for token in tokens if not token.isascii()]
    tokens.difference_update(odd)
    for token in odd:
        tokens.update(w.encode("utf-8", "surrogatepass") for w in review_words(token.decode("utf-8", "surrogatepass")))
    return tokens


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


class WordIndexBuilder:
    """The word index an import writes: the papers of ``old`` (the index before it, ``None``:
    none) as they were, except those given to :meth:`add`, which are as given."""

    def __init__(self, old: WordIndex | None) -> None:
        self._old = old
        self._vocab: dict[bytes, int] = {w: n for n, w in enumerate(old.words() if old is not None else ())}
        self._old_count = len(self._vocab)
        self._changed: dict[str, np.ndarray] = {}

    def add(self, forum: str, words: Iterable[bytes]) -> None:
        """Set the distinct ``words`` (UTF-8) of one paper's reviews (replacing what it had)."""
        vocab = self._vocab
        setdefault = vocab.setdefault
        self._changed[forum] = np.fromiter((setdefault(w, len(vocab)) for w in words), dtype=np.int64)

    def __contains__(self, forum: str) -> bool:
        return forum in self._changed

    def write(self, directory: Path, name: str) -> list[Path]:
        """Write the index as ``name`` (``"words.gG"``) into ``directory``; returns the files
        written (for the caller to remove on failure).

        Raises:
            StoreError: a file cannot be written (:func:`atomic_write_bytes`).
        """
        old, changed, vocab = self._old, self._changed, self._vocab
        forum_no: dict[str, int] = {}
        pairs_word: list[np.ndarray] = []
        pairs_forum: list[np.ndarray] = []
        if old is not None:
            kept = np.fromiter((forum not in changed for forum in old.forums), dtype=bool, count=len(old.forums))
            renumber = np.full(len(old.forums), -1, dtype=np.int64)
            for n, forum in enumerate(old.forums):
                if kept[n]:
                    renumber[n] = forum_no.setdefault(forum, len(forum_no))
            postings = np.asarray(old.postings, dtype=np.int64)
            word_of = np.repeat(np.arange(self._old_count, dtype=np.int64), np.diff(np.asarray(old.starts)))
            keep = kept[postings]
            pairs_word.append(word_of[keep])
            pairs_forum.append(renumber[postings[keep]])
            del postings, word_of, keep
        for forum, ids in changed.items():
            pairs_word.append(ids)
            pairs_forum.append(np.full(len(ids), forum_no.setdefault(forum, len(forum_no)), dtype=np.int64))
        words = sorted(vocab)
        rank = np.empty(len(words), dtype=np.int64)
        rank[np.fromiter((vocab[w] for w in words), dtype=np.int64, count=len(words))] = np.arange(len(words))
        forum_count = max(len(forum_no), 1)
        key = np.concatenate(pairs_word) if pairs_word else np.zeros(0, dtype=np.int64)
        key = rank[key] * forum_count
        key += np.concatenate(pairs_forum) if pairs_forum else key
        del pairs_word, pairs_forum
        key.sort()
        postings_out = (key % forum_count).astype(np.uint16 if forum_count <= 1 << 16 else np.uint32)
        starts = np.searchsorted(key // forum_count, np.arange(len(words) + 1), side="left").astype(np.int64)
        del key
        forums = sorted(forum_no, key=forum_no.__getitem__)
        files = {
            f"{name}.vocab": b"".join(w + b"\n" for w in words),
            f"{name}.forums": "".join(f"{f}\n" for f in forums).encode("utf-8", "surrogatepass"),
            f"{name}.starts.npy": _npy(starts),
            f"{name}.postings.npy": _npy(postings_out),
        }
        written = []
        for file_name, payload in files.items():
            written.append(directory / file_name)
            atomic_write_bytes(directory / file_name, payload)
        return written


class _Vocabulary:
    """The sorted words as a sequence of UTF-8 ``bytes`` (for :func:`bisect.bisect_left`)."""

    def __init__(self, blob: bytes) -> None:
        self.blob = blob
        ends = np.flatnonzero(np.frombuffer(blob, dtype=np.uint8) == 0x0A)
        self.at = np.concatenate(([0], ends + 1)).astype(np.int64)

    def __len__(self) -> int:
        return len(self.at) - 1

    def __getitem__(self, n: int) -> bytes:
        return self.blob[self.at[n] : self.at[n + 1] - 1]


class WordIndex:
    """A word index as written by :func:`write_word_index`, read from ``directory``/``name``.

    Raises:
        OSError, ValueError: a file is missing or malformed (the caller names the file).
    """

    def __init__(self, directory: Path, name: str) -> None:
        self._vocab = _Vocabulary((directory / f"{name}.vocab").read_bytes())
        self.forums = (directory / f"{name}.forums").read_bytes().decode("utf-8", "surrogatepass").split("\n")[:-1]
        self.starts = np.load(directory / f"{name}.starts.npy", mmap_mode="r", allow_pickle=False)
        self.postings = np.load(directory / f"{name}.postings.npy", mmap_mode="r", allow_pickle=False)
        if len(self.starts) != len(self._vocab) + 1 or (len(self.postings) and self.postings.max() >= len(self.forums)):
            raise ValueError("the word postings do not match the words and papers")

    def words(self) -> list[bytes]:
        """Every word, UTF-8, sorted."""
        return self._vocab.blob.split(b"\n")[:-1]

    def _word_range(self, word: bytes, inner: bool) -> np.ndarray:
        """Numbers of the words that start with ``word`` (``inner``: that hold it anywhere)."""
        vocab = self._vocab
        if not inner:
            low = bisect.bisect_left(vocab, word)
            high = bisect.bisect_left(vocab, word + b"\xff", lo=low)
            return np.arange(low, high, dtype=np.int64)
        hits = [m.start() for m in re.finditer(re.escape(word), vocab.blob)]
        return np.unique(np.searchsorted(vocab.at, np.array(hits, dtype=np.int64), side="right") - 1)

    def forums_with(self, value: str, inner: bool = False) -> frozenset[str]:
        """The forum ids whose reviews hold every word of ``value``, each from a word start
        (``inner``: anywhere inside a word); empty when ``value`` has no word."""
        wanted = review_words(value)
        if not wanted:
            return frozenset()
        found = np.ones(len(self.forums), dtype=bool)
        starts, postings = self.starts, self.postings
        for word in dict.fromkeys(wanted):
            numbers = self._word_range(word.encode("utf-8", "surrogatepass"), inner)
            hits = np.zeros(len(self.forums), dtype=bool)
            # Adjacent words' postings are adjacent: one slice per run of word numbers.
            breaks = np.flatnonzero(np.diff(numbers) != 1) + 1
            for run in np.split(numbers, breaks) if len(numbers) else ():
                hits[postings[starts[run[0]] : starts[run[-1] + 1]]] = True
            found &= hits
        forums = self.forums
        return frozenset(forums[int(n)] for n in np.flatnonzero(found))
