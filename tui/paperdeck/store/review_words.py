"""The word index of the review text: which papers' reviews hold a word, for ``review:`` terms.

Built by every review import (:class:`WordIndexBuilder`) from the notes of each paper (every
kind, every text section and score label) and kept beside the shards as four files of one generation ``G``::

    words.gG.vocab       the distinct words, sorted, UTF-8, each followed by ``\\n``
    words.gG.forums      the forum ids the postings number, each followed by ``\\n``
    words.gG.starts.npy  int64, one more than the words: word ``i``'s postings are
                         ``postings[starts[i]:starts[i + 1]]``
    words.gG.postings.npy  forum numbers (uint16 up to 65,536 papers, else uint32), ascending
                         within a word
    words.gG.seq.npy     the words of each paper's review text in order, as word numbers (uint16
                         below 65,535 words, else uint32), the papers one after another in the order
                         of ``forums``; :data:`BREAK` (the dtype's largest value) between two
                         sections or notes: a phrase never spans it
    words.gG.seqstarts.npy  int64, one more than the forums: paper ``n``'s words are
                         ``seq[seqstarts[n]:seqstarts[n + 1]]``

The two ``seq`` files answer phrases (:meth:`WordIndex.forums_with`, a value of several words);
an index written before them (an older paperdeck) has none: the next review import writes the whole
index again.

A word is a run of letters and digits of the text folded as every search folds it (NFKC,
case-folded, accents of Latin, Greek and Cyrillic letters dropped: :func:`paperdeck.text.fold.fold_text`):
:func:`review_words`. The app reads the files the first time a ``review:`` term is used, the arrays
memory-mapped, so that only the postings a query needs are paged in.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import io
import itertools
import os
import re
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from paperdeck.model.errors import StoreError
from paperdeck.model.review import Review
from paperdeck.store.atomic import atomic_write_bytes, write_failure
from paperdeck.text.fold import fold_text

__all__ = ["MAX_WORD_BYTES", "SECTION_BREAK", "SPACE_LIKE", "WordIndex", "WordIndexBuilder", "review_words"]

#: A word is kept (and looked up) by its first this many bytes of UTF-8.
MAX_WORD_BYTES = 64
_WORD = re.compile(r"[^\W_]+")
#: ASCII letters lower-cased, digits kept, other ASCII bytes to spaces; non-ASCII bytes kept.
#: Put between two sections (or notes) of a paper's text: a token of its own that no word holds
#: (a private-use character), kept as a break in the word sequence, so a phrase never spans it.
SECTION_BREAK = "\ue000"
_BREAK_BYTES = SECTION_BREAK.encode()
#: The stand-in hash of a break in a batch's word sequence (real hashes are below 2**52).
_BREAK_HASH = np.uint64(1 << 52)
_ASCII_FOLD = bytes((ord(chr(b).lower()) if chr(b).isalnum() else 0x20) if b < 128 else b for b in range(256))


def review_words(text: str) -> list[str]:
    """The words of ``text`` (see the module docstring), in order, repeats kept:
    ``"Weak baselines; Ångström-scale"`` gives ``["weak", "baselines", "angstrom", "scale"]``."""
    return _WORD.findall(fold_text(text))


def _key(word: str) -> bytes:
    """How ``word`` is kept in the index: UTF-8, cut to :data:`MAX_WORD_BYTES`."""
    return word.encode("utf-8", "surrogatepass")[:MAX_WORD_BYTES]


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _powers(base: int, size: int) -> np.ndarray:
    """``base ** i`` modulo 2**64 for ``i`` in ``range(size)``, as ``uint64``: each filled
    stretch times ``base`` to its length gives the next (a few whole-array products, where a
    running product would take one step per element)."""
    out = np.ones(max(size, 1), dtype=np.uint64)
    filled = 1
    with np.errstate(over="ignore"):
        while filled < size:
            take = min(filled, size - filled)
            np.multiply(out[:take], np.uint64(pow(base, filled, 1 << 64)), out=out[filled : filled + take])
            filled += take
    return out[:size]


class _Hasher:
    """52-bit hashes of the tokens of a byte string, in numpy: one pass over the bytes whatever the
    number of tokens.

    A token is a run of bytes other than the separator, cut to its first :data:`MAX_WORD_BYTES`
    bytes; its hash is the top 52 bits of ``sum(byte[i] * B**i) + length * K`` modulo 2**64,
    from prefix sums, mixed by MurmurHash3's 64-bit finaliser (a bijection). The cut also keeps
    the polynomial away from the long inputs that make two
    strings' hashes meet modulo 2**64. Two distinct words meet by chance with a probability
    below one in a million for the whole vocabulary of a conference; they would then share one
    entry (a ``review:`` term for one also finds the other's papers).
    """

    B = np.uint64(0x100000001B3)
    K = np.uint64(0x9E3779B97F4A7C15)
    SHIFT = np.uint64(12)
    #: Bytes of the blob whose prefix sums are made at once (:meth:`tokens`).
    CHUNK_BYTES = 1 << 18

    def __init__(self) -> None:
        self._pow = np.ones(1, dtype=np.uint64)
        self._inv = np.ones(1, dtype=np.uint64)
        self._prefix = np.zeros(1, dtype=np.uint64)

    def _grow(self, n: int) -> None:
        size = n
        self._pow = _powers(int(self.B), size)
        self._inv = _powers(pow(int(self.B), -1, 1 << 64), size)
        self._prefix = np.zeros(size + 1, dtype=np.uint64)

    def tokens(self, blob: bytes, separator: int = 0x20) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(starts, ends, hashes)`` of the tokens of ``blob``, which must begin and end with
        ``separator`` (``ends`` not cut; ``hashes`` ``uint64`` below 2**52). The prefix sums are
        made a piece of :attr:`CHUNK_BYTES` (the tokens starting in it) at a time: the tables
        held are of a piece's size whatever the blob's (a token's hash does not depend on where
        it lies)."""
        data = np.frombuffer(blob, dtype=np.uint8)
        word = data != separator
        edges = np.flatnonzero(word[1:] != word[:-1]) + 1
        del word
        starts, ends = edges[0::2], edges[1::2]
        cut = np.minimum(ends, starts + MAX_WORD_BYTES)
        hashes = np.empty(len(starts), dtype=np.uint64)
        span = self.CHUNK_BYTES + MAX_WORD_BYTES
        if len(self._pow) < span:
            self._grow(span)
        first = 0
        with np.errstate(over="ignore"):
            for low in range(0, len(data), self.CHUNK_BYTES):
                last = int(np.searchsorted(starts, low + self.CHUNK_BYTES))  # tokens starting in the piece
                if last == first:
                    continue
                n = int(cut[last - 1]) - low  # at most span: a token is cut to MAX_WORD_BYTES
                prefix = self._prefix[: n + 1]
                np.multiply(data[low : low + n], self._pow[:n], out=prefix[1:])
                np.cumsum(prefix[1:], out=prefix[1:])
                at, to = starts[first:last] - low, cut[first:last] - low
                piece = hashes[first:last]
                np.subtract(prefix[to], prefix[at], out=piece)
                piece *= self._inv[at]
                piece += (to - at).astype(np.uint64) * self.K
                first = last
            # MurmurHash3's finaliser: every bit of the sum reaches the top bits kept.
            hashes ^= hashes >> np.uint64(33)
            hashes *= np.uint64(0xFF51AFD7ED558CCD)
            hashes ^= hashes >> np.uint64(33)
            hashes *= np.uint64(0xC4CEB9FE1A85EC53)
            hashes ^= hashes >> np.uint64(33)
        hashes >>= self.SHIFT
        return starts, ends, hashes


#: Non-ASCII characters that no word holds, whatever the folding (punctuation, spaces, arrows…),
#: and that fold into nothing else: written as spaces before the split, so that only words with
#: letters of other scripts go the slow way.
SPACE_LIKE = (
    "\u00a0\u00a7\u00b1\u00b7\u00d7\u2010\u2011\u2012\u2013\u2014\u2015\u2018\u2019\u201c\u201d"
    "\u2022\u2026\u2028\u2029\u202f\u2192\u2212\u2248\u2264\u2265"
)
_SPACE_CODES = {
    size: np.array(sorted(int.from_bytes(c.encode()) for c in SPACE_LIKE if len(c.encode()) == size), dtype=np.uint32)
    for size in (2, 3)
}


def _space_common_punctuation(data: np.ndarray) -> None:
    """Overwrite with spaces, in place, the UTF-8 bytes of the :data:`SPACE_LIKE` characters in
    ``data`` (a writable ``uint8`` array of UTF-8 text followed by at least two bytes)."""
    lead = np.flatnonzero((data == 0xC2) | (data == 0xC3) | (data == 0xE2))
    lead = lead[lead + 2 < len(data)]
    if not len(lead):
        return
    code = (data[lead].astype(np.uint32) << 16) | (data[lead + 1].astype(np.uint32) << 8) | data[lead + 2]
    for size, codes in _SPACE_CODES.items():
        found = lead[np.isin(code >> (8 * (3 - size)), codes)]
        for offset in range(size):
            data[found + offset] = 0x20


#: Runs of papers (:meth:`WordIndex.phrase_forums`) above which one pass over every paper's words is quicker.
_PHRASE_RUNS = 4_000
#: Bits of a (hash, paper) key left for the paper's number within a batch.
_PAPER_BITS = 12
_TABLE_MASK = np.uint64((1 << 20) - 1)


class WordIndexBuilder:
    """The word index an import writes: the papers of ``old`` (the index before it, ``None``:
    none) as they were, except those given to :meth:`add`, which are as given.

    Each :meth:`add` is a unit (a paper's text) with a number; :meth:`write` may be told which
    unit each paper has (others are dropped), so that text can be folded before it is known
    which papers an import changes (:class:`paperdeck.store.reviews.StagedWords`).

    The text is folded a batch of papers at a time: ASCII by one byte translation, then split and
    hashed in numpy (:class:`_Hasher`); only tokens holding other characters go word by word
    through :func:`review_words`. Words are told apart by their hashes; each hash's word is kept
    once, for the vocabulary file.

    What a batch folds (its (word, unit) pairs, its words in order) is put aside on disk at once
    (:class:`_RunFile`, in ``spill_dir``); :meth:`write` reads it back a batch, or a bucket of at
    most :attr:`BUCKET_PAIRS` pairs, at a time and writes the files as it goes: what is held is
    bounded by a batch and a bucket (:attr:`largest_held`), and the vocabulary, not by the
    reviews. The files are byte for byte those of one batch.
    """

    #: Bytes of text folded at once (a batch's arrays take some tens of bytes per byte of text,
    #: held beside the import's own peak when folded in its thread).
    BATCH_BYTES = 1 << 20
    BATCH_PAPERS = 1 << _PAPER_BITS
    #: Batches handed to the process and not folded yet, at most (the import reads on meanwhile;
    #: each is held here, pickled, until the process has folded it).
    PROCESS_BATCHES = 4
    #: (word, paper) pairs :meth:`write` merges at once, at most (unless one word has more).
    BUCKET_PAIRS = 1 << 20
    #: Postings or words of the old index read at once, at most (unless one word has more postings).
    RUN_ELEMENTS = 1 << 22

    def __init__(self, old: WordIndex | None, *, in_process: bool = False, spill_dir: Path | None = None) -> None:
        self._old = old
        #: Where the batches' arrays are put aside (``None``: the system's temporary directory).
        self._spill_dir = spill_dir
        #: Batches folded by a process of their own (``spawn``), the index written there too. An
        #: import does not ask for it (its interpreter and numpy would be held beside the import's
        #: peak: :class:`paperdeck.store.reviews.StagedWords`); the batches are folded in a thread.
        self._in_process = in_process
        self._child: Executor | None = None
        #: How far the process's :meth:`write` is, ``(done, total)`` parts (:func:`_child_told`).
        self._child_told: Any = None
        self._hasher = _Hasher()
        #: The paper of each unit added, by unit number.
        self._unit_forums: list[str] = []
        self._handed_over = False
        self._pending: list[bytes] = []
        self._pending_units: list[int] = []
        self._pending_bytes = 0
        #: What each batch folded, put aside on disk (:class:`_RunFile`): its (hash, unit) pairs
        #: (hashes ascending), and its words in order: the batch's distinct hashes and each word's
        #: number among them (a break: ``len(distinct)``), :meth:`_sequence`.
        self._runs = _RunFile(spill_dir)
        self._pair_runs: list[tuple[_Run, _Run]] = []
        #: Per batch, its units and the number of words of each (held: one pair of numbers a unit),
        #: and the runs of its distinct hashes and numbered words.
        self._sequences: list[tuple[np.ndarray, np.ndarray, _Run, _Run]] = []
        #: The most array elements (pairs, words) :meth:`write` held at once of what was put aside.
        self.largest_held = 0
        self._known = np.zeros(0, dtype=np.uint64)
        self._word_of: dict[int, bytes] = {}
        self._odd: dict[bytes, list[bytes]] = {}
        self._table = np.zeros(int(_TABLE_MASK) + 1, dtype=bool)
        self._slots = np.zeros(int(_TABLE_MASK) + 1, dtype=np.int32)  # for _numbered, zeros between uses
        self._thread: ThreadPoolExecutor | None = None
        self._batches: deque[Future[None]] = deque()
        self._prepared: _Prepared | None = None

    def add(self, forum: str, reviews: Iterable[Review]) -> int:
        """Fold the words of one paper's ``reviews`` (every text section and score label) as a
        new unit; returns its number. Unless :meth:`write` is told otherwise, the paper's last
        unit replaces what it had."""
        doc = f"\n{SECTION_BREAK}\n".join(
            text for review in reviews for _, text in (*review.sections, *review.score_labels)
        )
        unit = len(self._unit_forums)
        self._unit_forums.append(forum)
        self._pending.append(doc.encode("utf-8", "surrogatepass"))  # folded in the batch
        self._pending_units.append(unit)
        self._pending_bytes += len(self._pending[-1]) + 1
        if self._pending_bytes >= self.BATCH_BYTES or len(self._pending) >= self.BATCH_PAPERS:
            self._hand_over()
        return unit

    def fold_in_process(self) -> bool:
        """Fold the batches from now on in a process of their own (as ``in_process``), when
        none was handed over yet and there is a second core; returns whether they will be."""
        if not self._handed_over and (os.cpu_count() or 1) > 1:
            self._in_process = True
        return self._in_process

    def prepare(self) -> None:
        """Every unit is added (as far as known): in the process, start making what the index
        needs besides which unit each paper has (the vocabulary, each pair's word), while the
        caller goes on; a unit added after this is not lost, it only makes :meth:`write` do
        that again. Call it after :meth:`use_old`."""
        if self._in_process and self._child is not None:
            self._hand_over()
            old = None if self._old is None else self._old.location
            self._batches.append(self._child.submit(_child_prepare, len(self._unit_forums), old))

    def use_old(self, old: WordIndex | None) -> None:
        """The index as it is before this import's (read under the import lock): the papers
        not given a unit keep their words from it."""
        self._old = old

    def _hand_over(self) -> None:
        """Give the pending papers to the batch thread (at most two batches wait for it) or
        process (at most :data:`PROCESS_BATCHES`)."""
        if not self._pending:
            return
        self._handed_over = True
        if self._in_process:
            if self._child is None:
                import multiprocessing

                spawn = multiprocessing.get_context("spawn")
                self._child_told = spawn.Queue()
                # It ends with this process, however this one ends (kill -9 of an import).
                self._child = ProcessPoolExecutor(
                    max_workers=1, mp_context=spawn, initializer=_child_init, initargs=(os.getpid(), self._child_told)
                )
                self._batches.append(self._child.submit(_child_start, self._spill_dir))
            self._batches.append(self._child.submit(_child_batch, self._pending, self._pending_units))
        else:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paperdeck-review-words")
            self._batches.append(self._thread.submit(self._batch, self._pending, self._pending_units))
        self._pending, self._pending_units, self._pending_bytes = [], [], 0
        while len(self._batches) > (self.PROCESS_BATCHES if self._in_process else 2):
            self._batches.popleft().result()

    def _finish_batches(self) -> None:
        """Fold what is pending and wait for every batch (re-raising a batch's error)."""
        self._hand_over()
        try:
            while self._batches:
                self._batches.popleft().result()
        finally:
            if self._thread is not None:
                self._thread.shutdown(wait=True)
                self._thread = None

    def close(self) -> None:
        """Stop the batch thread or process without writing (an import that failed, or one
        that changed nothing); calling it again does nothing."""
        self._pending, self._pending_units, self._pending_bytes = [], [], 0
        for executor in (self._thread, self._child):
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)
        self._thread = self._child = None
        if self._child_told is not None:
            self._child_told.close()
            self._child_told = None
        self._batches.clear()
        self._runs.close()

    def _batch(self, pending: list[bytes], pending_units: list[int]) -> None:
        """Split, fold and hash the units' text into (hash, unit) pairs, each once (in the
        batch thread, one batch at a time: numpy's work there runs beside the import's)."""
        buffer = bytearray(b" ".join([b"", *pending, b""]).translate(_ASCII_FOLD))
        _space_common_punctuation(np.frombuffer(buffer, dtype=np.uint8))
        blob = bytes(buffer)
        lengths = np.fromiter((len(doc) + 1 for doc in pending), dtype=np.int64, count=len(pending))
        doc_starts = np.cumsum(lengths) - lengths
        numbers = np.array(pending_units, dtype=np.int64)
        del buffer, pending
        starts, ends, hashes = self._hasher.tokens(blob)
        per_doc = np.diff(np.searchsorted(starts, doc_starts), append=len(starts))
        local = np.repeat(np.arange(len(doc_starts), dtype=np.uint64), per_doc)
        # Tokens with a byte of a non-ASCII character: folded word by word.
        high = np.flatnonzero(np.frombuffer(blob, dtype=np.uint8) >= 0x80)
        odd = np.searchsorted(starts, high, side="right") - 1
        if len(odd):
            odd = np.sort(odd)
            odd = odd[np.concatenate(([True], odd[1:] != odd[:-1]))]
        # The breaks between sections: no word, not folded one by one either.
        data = np.frombuffer(blob, dtype=np.uint8)
        breaks = np.flatnonzero(ends - starts == len(_BREAK_BYTES))
        for offset, byte in enumerate(_BREAK_BYTES):
            breaks = breaks[data[starts[breaks] + offset] == byte]
        if len(breaks):
            odd = odd[~np.isin(odd, breaks)]
        plain = np.ones(len(starts), dtype=bool)
        plain[odd] = False
        plain[breaks] = False
        odd_words: list[bytes] = []
        odd_papers: list[int] = []
        odd_cache = self._odd
        spans = zip(starts[odd].tolist(), ends[odd].tolist(), local[odd].tolist(), strict=True)
        for token, paper in {(blob[s:e], p) for s, e, p in spans}:
            words = odd_cache.get(token)
            if words is None:
                words = odd_cache[token] = [_key(w) for w in review_words(token.decode("utf-8", "surrogatepass"))]
            odd_words += words
            odd_papers += [paper] * len(words)
        in_order = self._sequence(blob, starts, ends, hashes, odd, plain, breaks, doc_starts)
        plain_hashes = hashes[plain]
        paper_bits = np.uint64(_PAPER_BITS)
        keys = [(plain_hashes << paper_bits) | local[plain]]
        odd_hashes = np.zeros(0, dtype=np.uint64)
        if odd_words:
            _, _, odd_hashes = self._hasher.tokens(b" " + b" ".join(odd_words) + b" ")
            keys.append((odd_hashes << paper_bits) | np.array(odd_papers, dtype=np.uint64))
        key = np.concatenate(keys)
        key.sort()
        if len(key):
            key = key[np.concatenate(([True], key[1:] != key[:-1]))]
        pair_hashes = key >> paper_bits  # ascending
        runs = self._runs
        pair_units = numbers[(key & np.uint64(self.BATCH_PAPERS - 1)).astype(np.int64)]
        self._pair_runs.append((runs.put(pair_hashes), runs.put(pair_units)))
        del pair_units
        # The words first seen in this batch: their bytes, for the vocabulary.
        distinct = pair_hashes
        if len(distinct):
            distinct = distinct[np.concatenate(([True], distinct[1:] != distinct[:-1]))]
        # Each word of the order as its number among the batch's words (a break: one past them).
        lengths, sequence = in_order
        numbered = self._numbered(distinct, sequence)
        self._sequences.append((numbers, lengths, runs.put(distinct), runs.put(numbered)))
        del in_order, sequence, numbered
        known = self._known
        at = np.minimum(np.searchsorted(known, distinct), max(len(known) - 1, 0))
        new = distinct[~(known[at] == distinct)] if len(known) else distinct
        if not len(new):
            return
        word_of = self._word_of
        # The tokens of a new word: a table of the hashes' low bits first, the exact look-up after.
        table = self._table
        table[(new & _TABLE_MASK).astype(np.intp)] = True
        candidates = np.flatnonzero(table[(plain_hashes & _TABLE_MASK).astype(np.intp)])
        table[(new & _TABLE_MASK).astype(np.intp)] = False
        near = plain_hashes[candidates]
        at = np.minimum(np.searchsorted(new, near), len(new) - 1)
        hits = candidates[new[at] == near]
        by_hash = np.argsort(plain_hashes[hits], kind="stable")
        firsts = hits[by_hash]
        lead = np.ones(len(firsts), dtype=bool)
        lead[1:] = plain_hashes[firsts[1:]] != plain_hashes[firsts[:-1]]
        plain_at = np.flatnonzero(plain)[firsts[lead]]
        for h, s, e in zip(
            plain_hashes[firsts[lead]].tolist(), starts[plain_at].tolist(), ends[plain_at].tolist(), strict=True
        ):
            word_of[h] = blob[s : min(e, s + MAX_WORD_BYTES)]
        for h, word in zip(odd_hashes.tolist(), odd_words, strict=True):
            word_of.setdefault(h, word)
        self._known = np.insert(known, np.searchsorted(known, new), new)  # both sorted: merged

    def _sequence(
        self,
        blob: bytes,
        starts: np.ndarray,
        ends: np.ndarray,
        hashes: np.ndarray,
        odd: np.ndarray,
        plain: np.ndarray,
        breaks: np.ndarray,
        doc_starts: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """A batch's words in order (for phrases): each plain token is one word, each token with
        a non-ASCII byte (``odd``) the words :func:`review_words` finds in it (none, one or
        several), each :data:`SECTION_BREAK` token (``breaks``) :data:`_BREAK_HASH`. Returns
        ``(lengths, hashes)``: the ``i``-th document's words are the next ``lengths[i]`` hashes."""
        counts = np.ones(len(starts), dtype=np.int64)
        odd_words: list[list[bytes]] = []
        if len(odd):
            cache = self._odd
            odd_words = [cache[blob[s:e]] for s, e in zip(starts[odd].tolist(), ends[odd].tolist(), strict=True)]
            counts[odd] = [len(words) for words in odd_words]
        offsets = np.cumsum(counts) - counts
        total = int(counts.sum())
        sequence = np.empty(total, dtype=np.uint64)
        sequence[offsets[plain]] = hashes[plain]
        sequence[offsets[breaks]] = _BREAK_HASH
        flat = [word for words in odd_words for word in words]
        if flat:
            odd_counts = counts[odd]
            first = np.cumsum(odd_counts) - odd_counts
            at = np.repeat(offsets[odd] - first, odd_counts) + np.arange(len(flat), dtype=np.int64)
            sequence[at] = self._hasher.tokens(b" " + b" ".join(flat) + b" ")[2]
        first = np.searchsorted(starts, doc_starts)  # each document's first token
        bounds = np.full(len(first), total, dtype=np.int64)
        inside = first < len(offsets)
        bounds[inside] = offsets[first[inside]]
        lengths = np.diff(bounds, append=total)
        return lengths, sequence

    def _numbered(self, distinct: np.ndarray, sequence: np.ndarray) -> np.ndarray:
        """Each hash of ``sequence`` as its place in ``distinct`` (ascending, every hash of
        ``sequence`` but :data:`_BREAK_HASH`, which is given ``len(distinct)``), as ``uint32``: by a
        table of the hashes' low bits, a binary search for those the table cannot tell."""
        table = self._slots
        slots = (distinct & _TABLE_MASK).astype(np.intp)
        table[slots] = np.arange(len(distinct), dtype=np.int32)
        numbered = table[(sequence & _TABLE_MASK).astype(np.intp)]
        table[slots] = 0
        with_break = np.append(distinct, _BREAK_HASH)
        wrong = np.flatnonzero(with_break[numbered] != sequence)  # two words in one slot, or a break
        if len(wrong):
            numbered[wrong] = np.searchsorted(distinct, sequence[wrong])
        return numbered.astype(np.uint32, copy=False)

    def write(
        self,
        directory: Path,
        name: str,
        units: dict[str, int] | None = None,
        told: Callable[[int, int], None] | None = None,
    ) -> list[Path]:
        """Write the index as ``name`` (``"words.gG"``) into ``directory``; returns the files
        written (for the caller to remove on failure).

        Args:
            units: the unit (:meth:`add`'s number) of each paper whose words are replaced;
                the other units are left out. ``None``: each paper added, its last unit.
            told: called with ``(percent, 100)`` as the write's parts are done (each batch's
                pairs read back, each bucket of postings and each batch of the words in order
                written: :class:`_Steps`); from the process folding the batches, as its counts
                arrive (looked at every :data:`_TOLD_EVERY` seconds while this waits for it).

        Raises:
            StoreError: a file cannot be written (:func:`atomic_write_bytes`).
        """
        if units is None:
            units = {forum: unit for unit, forum in enumerate(self._unit_forums)}
        count = len(self._unit_forums)
        child = self._child  # started at the first full batch: less than one is not worth a process
        if self._in_process and child is not None:
            self._hand_over()
            try:
                while self._batches:
                    self._batches.popleft().result()
                old = None if self._old is None else self._old.location
                future = child.submit(_child_write, units, count, old, directory, name, told is not None)
                return self._waited(future, told)
            finally:
                self.close()
        self._in_process = False
        self._finish_batches()
        return self._write(directory, name, units, count, told)

    def _waited(self, future: Future[list[Path]], told: Callable[[int, int], None] | None) -> list[Path]:
        """``future``'s result (the process's write), its counts passed to ``told`` meanwhile
        and, once it is done, its last (the process sends them all before its result)."""
        while True:
            try:
                written = future.result(timeout=None if told is None else _TOLD_EVERY)
            except TimeoutError:
                self._tell_last(told)
                continue
            self._tell_last(told)
            return written

    def _tell_last(self, told: Callable[[int, int], None] | None) -> None:
        """The last of the counts the process sent since the last look, to ``told``."""
        import queue

        if told is None or self._child_told is None:
            return
        last = None
        with contextlib.suppress(queue.Empty, OSError, ValueError, EOFError):
            while True:
                last = self._child_told.get_nowait()
        if last is not None:
            told(*last)

    def _prepare(self, count: int) -> _Prepared:
        """The vocabulary of every batch folded and of the old index, and each batch's (word,
        unit) pairs as ``rank << unit_bits | unit``, sorted, put aside as a run of its own (every
        batch must be folded): one batch's pairs held at a time."""
        old = self._old
        location = None if old is None else old.location
        prepared = self._prepared
        if prepared is not None and prepared.count == count and prepared.old == location:
            return prepared
        vocabulary = [self._known]
        old_hashes = None
        if old is not None:
            old_words = old.words()
            _, _, old_hashes = self._hasher.tokens(b"\n" + b"\n".join(old_words) + b"\n", separator=0x0A)
            for h, word in zip(old_hashes.tolist(), old_words, strict=True):
                self._word_of.setdefault(h, word[:MAX_WORD_BYTES])
            vocabulary.append(old_hashes)
            del old_words
        used = np.sort(np.concatenate(vocabulary))
        if len(used):
            used = used[np.concatenate(([True], used[1:] != used[:-1]))]
        words = [self._word_of[h] for h in used.tolist()]
        by_word = sorted(range(len(words)), key=words.__getitem__)
        rank = np.empty(len(words), dtype=np.int64)
        rank[np.array(by_word, dtype=np.int64)] = np.arange(len(words), dtype=np.int64)
        unit_bits = max(count.bit_length(), 1)
        runs = self._runs
        key_runs = []
        for hashes_run, units_run in self._pair_runs:
            hashes = runs.get(hashes_run)
            self.largest_held = max(self.largest_held, len(hashes))
            key = (rank[np.searchsorted(used, hashes)] << unit_bits) | runs.get(units_run)
            del hashes
            key.sort()
            key_runs.append(runs.put(key))
            del key
        old_rank = None if old_hashes is None else rank[np.searchsorted(used, old_hashes)]
        self._prepared = _Prepared(count, location, words, by_word, key_runs, unit_bits, used, rank, old_rank)
        return self._prepared

    def _old_pairs(self, prepared: _Prepared, kept: np.ndarray, renumber: np.ndarray) -> Iterator[np.ndarray]:
        """The postings of the old index's ``kept`` papers as ``(rank, number)`` pairs (``rank <<
        32 | renumber[paper]``), ascending, at most :data:`RUN_ELEMENTS` postings read at a time
        (or one word's)."""
        old = self._old
        assert old is not None and prepared.old_rank is not None
        starts = np.asarray(old.starts)
        words = len(starts) - 1
        first = 0
        while first < words:
            end = int(np.searchsorted(starts, starts[first] + self.RUN_ELEMENTS, side="right")) - 1
            end = min(max(end, first + 1), words)
            postings = np.asarray(old.postings[starts[first] : starts[end]], dtype=np.int64)
            self.largest_held = max(self.largest_held, len(postings))
            word_rank = np.repeat(prepared.old_rank[first:end], np.diff(starts[first : end + 1]))
            keep = kept[postings]
            yield (word_rank[keep] << 32) | renumber[postings[keep]]
            first = end

    def _postings(self, prepared: _Prepared, unit_forum: np.ndarray, old_pairs: Iterable[np.ndarray],
                  forum_bits: int, step: _Steps | None = None,
                  ) -> tuple[np.ndarray, list[list[tuple[_Run, int, int]]], list[int]]:  # fmt: skip
        """Every (word, paper) pair of the index as ``rank << forum_bits | paper number``: the
        pairs of the units in ``unit_forum`` (a paper's number by unit, ``-1``: left out) and
        ``old_pairs`` (``rank << 32 | number``), put aside as sorted runs. Returns the postings
        of each rank, and the runs cut at the ranks where the buckets of at most
        :data:`BUCKET_PAIRS` pairs (or one word's) start: per bucket, its slices of the runs
        (``(run, start, stop)``), and the buckets' first ranks."""
        runs = self._runs
        counts = np.zeros(len(prepared.words), dtype=np.int64)
        forum_runs: list[_Run] = []
        unit_mask = (1 << prepared.unit_bits) - 1
        for key_run in prepared.key_runs:
            key = runs.get(key_run)
            numbers = unit_forum[key & unit_mask]
            ranks = key >> prepared.unit_bits
            del key
            if not (numbers >= 0).all():
                ranks, numbers = ranks[numbers >= 0], numbers[numbers >= 0]
            counts += np.bincount(ranks, minlength=len(counts))
            forum_runs.append(runs.put((ranks << forum_bits) | numbers))  # still in order
            del ranks, numbers
            if step is not None:
                step()
        for pairs in old_pairs:
            ranks = pairs >> 32
            counts += np.bincount(ranks, minlength=len(counts))
            forum_runs.append(runs.put((ranks << forum_bits) | (pairs & 0xFFFFFFFF)))
            del ranks
        # Buckets: consecutive ranks, each at most BUCKET_PAIRS pairs (a word with more: alone).
        total = np.cumsum(counts)
        firsts = [0]
        while firsts[-1] < len(counts):
            before = int(total[firsts[-1] - 1]) if firsts[-1] else 0
            end = int(np.searchsorted(total, before + self.BUCKET_PAIRS, side="right"))
            firsts.append(min(max(end, firsts[-1] + 1), len(counts)))
        cuts = np.array(firsts, dtype=np.int64) << forum_bits
        buckets: list[list[tuple[_Run, int, int]]] = [[] for _ in range(len(firsts) - 1)]
        for run in forum_runs:
            at = runs.search(run, cuts).tolist()
            for bucket, (start, stop) in enumerate(itertools.pairwise(at)):
                if stop > start:
                    buckets[bucket].append((run, start, stop))
        return counts, buckets, firsts

    def _write_sequence(
        self,
        prepared: _Prepared,
        number: np.ndarray,
        word_count: int,
        unit_order: list[int],
        kept: np.ndarray | None,
        step: _Steps | None = None,
    ) -> tuple[np.dtype, int, Iterator[bytes], np.ndarray] | None:
        """The ``seq`` and ``seqstarts`` arrays (see the module docstring): the papers of
        ``unit_order`` (their units, in the file's order of forums), then the papers of the old
        index ``kept`` (in its order); ``number``: each rank's word number. Returns the ``seq``
        array's dtype, length and bytes (made as they are read: one batch's words held at a time,
        or :data:`RUN_ELEMENTS` of the old index's), and ``seqstarts``. ``None`` when an old
        paper is kept and the old index has no sequence (written by an older paperdeck)."""
        old = self._old
        if old is not None and kept is not None and kept.any() and old.sequence is None:
            return None
        dtype = np.dtype(np.uint16 if word_count < 0xFFFF else np.uint32)
        brk = 0xFFFF if word_count < 0xFFFF else 0xFFFFFFFF  # the dtype's largest value
        where: dict[int, tuple[int, int, int]] = {}
        for b, (batch_units, lengths, _, _) in enumerate(self._sequences):
            offsets = (np.cumsum(lengths) - lengths).tolist()
            for unit, offset, length in zip(batch_units.tolist(), offsets, lengths.tolist(), strict=True):
                where[unit] = (b, offset, length)
        lengths_out = [where[unit][2] for unit in unit_order]
        old_runs: list[tuple[int, int]] = []
        old_starts = np.zeros(1, dtype=np.int64)
        if old is not None and kept is not None and old.sequence is not None and old.sequence_starts is not None:
            old_starts = np.asarray(old.sequence_starts)
            old_runs = _runs(np.flatnonzero(kept))
            for first, end in old_runs:
                lengths_out += np.diff(old_starts[first : end + 1]).tolist()
        starts = np.concatenate(([0], np.cumsum(np.array(lengths_out, dtype=np.int64)))).astype(np.int64)
        used, rank, runs = prepared.used, prepared.rank, self._runs

        def pieces() -> Iterator[bytes]:
            pending: list[np.ndarray] = []
            mapped_batch, mapped = -1, np.zeros(0, dtype=dtype)
            for unit in unit_order:
                b, offset, length = where[unit]
                if b != mapped_batch:
                    if pending:
                        yield np.concatenate(pending).tobytes()
                        pending = []
                    if step is not None and mapped_batch >= 0:
                        step()
                    _, _, distinct_run, inverse_run = self._sequences[b]  # inverse len(distinct): a break
                    distinct = runs.get(distinct_run)
                    at = np.minimum(np.searchsorted(used, distinct), max(len(used) - 1, 0))
                    numbers = number[rank[at]] if len(used) else np.zeros(len(distinct), dtype=np.int64)
                    numbers = np.append(numbers, brk)
                    inverse = runs.get(inverse_run)
                    self.largest_held = max(self.largest_held, len(inverse))
                    mapped, mapped_batch = numbers.astype(dtype)[inverse], b
                    del distinct, inverse, numbers
                pending.append(mapped[offset : offset + length])
            if pending:
                yield np.concatenate(pending).tobytes()
            if step is not None and mapped_batch >= 0:
                step()
            del pending, mapped
            if not old_runs:
                return
            assert old is not None and old.sequence is not None and prepared.old_rank is not None
            old_number = number[prepared.old_rank]
            old_break = np.iinfo(old.sequence.dtype).max
            for first, end in old_runs:
                for low in range(int(old_starts[first]), int(old_starts[end]), self.RUN_ELEMENTS):
                    high = min(low + self.RUN_ELEMENTS, int(old_starts[end]))
                    chunk = np.asarray(old.sequence[low:high]).astype(np.int64)
                    self.largest_held = max(self.largest_held, len(chunk))
                    is_break = chunk == old_break
                    chunk[is_break] = 0
                    out = old_number[chunk] if len(old_number) else np.zeros(len(chunk), dtype=np.int64)
                    out[is_break] = brk
                    yield out.astype(dtype).tobytes()

        return dtype, int(starts[-1]), pieces(), starts

    def _write(
        self, directory: Path, name: str, units: dict[str, int], count: int, told: Callable[[int, int], None] | None
    ) -> list[Path]:
        """:meth:`write` once every batch is folded here (``count``: units added). The pairs and
        the words in order are read back from where the batches put them, a bucket or a batch at
        a time, and written as they come (:attr:`largest_held`); ``told(done, total)`` after each
        batch's pairs, bucket of postings and batch of words in order."""
        old = self._old
        prepared = self._prepare(count)
        self._prepared = None
        words, by_word = prepared.words, prepared.by_word
        # Papers numbered in the order of their units: a (word, unit) order stays a (word, paper) one.
        by_unit = sorted(units.items(), key=lambda item: item[1])
        forum_no = {forum: number for number, (forum, _) in enumerate(by_unit)}
        unit_forum = np.full(max(count, 1), -1, dtype=np.int64)
        if by_unit:
            unit_forum[np.array([unit for _, unit in by_unit], dtype=np.int64)] = np.arange(len(by_unit))
        kept_forums = None
        old_pairs: Iterable[np.ndarray] = ()
        if old is not None:
            kept = np.fromiter((forum not in forum_no for forum in old.forums), dtype=bool, count=len(old.forums))
            renumber = np.full(len(old.forums), -1, dtype=np.int64)
            for n, forum in enumerate(old.forums):
                if kept[n]:
                    renumber[n] = forum_no.setdefault(forum, len(forum_no))
            kept_forums = kept
            old_pairs = self._old_pairs(prepared, kept, renumber)
        forum_count = max(len(forum_no), 1)
        forum_bits = max(forum_count.bit_length(), 1)
        step = _Steps(told, len(prepared.key_runs) + len(self._sequences))
        counts, buckets, _ = self._postings(prepared, unit_forum, old_pairs, forum_bits, step)
        step.total += sum(1 for bucket in buckets if bucket)  # known now
        postings_dtype = np.dtype(np.uint16 if forum_count <= 1 << 16 else np.uint32)
        forum_mask = (1 << forum_bits) - 1
        runs = self._runs

        def postings() -> Iterator[bytes]:
            yield _npy_header(postings_dtype, int(counts.sum()))
            for bucket in filter(None, buckets):  # (a bucket of words no paper has any more: empty)
                # the runs' slices in the order put (new units, then the old index): a merge
                pairs = np.concatenate([runs.get(run, start, stop) for run, start, stop in bucket])
                self.largest_held = max(self.largest_held, len(pairs))
                pairs.sort(kind="stable")
                yield (pairs & forum_mask).astype(postings_dtype).tobytes()
                step()

        held = counts > 0  # words only the replaced reviews had go
        by_word_held = by_word
        if not held.all():
            by_word_held = [n for n, keep_word in zip(by_word, held.tolist(), strict=True) if keep_word]
        starts = np.concatenate(([0], np.cumsum(counts[held]))).astype(np.int64)
        forums = sorted(forum_no, key=forum_no.__getitem__)
        files: dict[str, bytes | Iterable[bytes]] = {
            f"{name}.vocab": b"".join([words[n] + b"\n" for n in by_word_held]),
            f"{name}.forums": "".join([f"{f}\n" for f in forums]).encode("utf-8", "surrogatepass"),
            f"{name}.starts.npy": _npy(starts),
            f"{name}.postings.npy": postings(),
        }
        number = np.cumsum(held) - 1  # each rank's word number in the file
        sequence = self._write_sequence(prepared, number, len(by_word_held), [u for _, u in by_unit], kept_forums, step)
        if sequence is not None:
            dtype, length, pieces, sequence_starts = sequence
            files[f"{name}.seq.npy"] = itertools.chain((_npy_header(dtype, length),), pieces)
            files[f"{name}.seqstarts.npy"] = _npy(sequence_starts)
        written = []
        for file_name, payload in files.items():
            written.append(directory / file_name)
            atomic_write_bytes(directory / file_name, payload)
        return written


def _runs(positions: np.ndarray) -> list[tuple[int, int]]:
    """The runs of consecutive numbers in ``positions`` (ascending), as ``(first, last + 1)``."""
    if not len(positions):
        return []
    cuts = np.flatnonzero(np.diff(positions) != 1) + 1
    firsts = np.concatenate(([0], cuts))
    lasts = np.concatenate((cuts - 1, [len(positions) - 1]))
    return list(zip(positions[firsts].tolist(), (positions[lasts] + 1).tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What :meth:`WordIndexBuilder._prepare` made: for ``count`` units and the old index at
    ``old`` (its location), the ``words`` (UTF-8, by hash), ``by_word`` (their numbers in byte
    order), ``key_runs``: each batch's (word, unit) pairs as ``rank << unit_bits | unit``,
    ascending, put aside (:class:`_RunFile`)."""

    count: int
    old: tuple[Path, str] | None
    words: list[bytes]
    by_word: list[int]
    key_runs: list[_Run]
    unit_bits: int
    #: The hashes of the words (ascending), each one's rank, and each old word's rank.
    used: np.ndarray
    rank: np.ndarray
    old_rank: np.ndarray | None


#: Where :class:`_RunFile` put an array: ``(offset in bytes, elements, dtype)``.
_Run = tuple[int, int, str]


class _RunFile:
    """Arrays put aside in an unlinked temporary file (gone with the process, whatever ends it),
    read back whole or in part: what the batches of a :class:`WordIndexBuilder` folded, so that
    it holds one batch's (or bucket's) at a time, not every note's words.

    Args:
        directory: where the file is made (``None``, or a directory that cannot take it: the
            system's temporary directory).

    Raises:
        StoreError: (every method) the file cannot be made, written or read.
    """

    def __init__(self, directory: Path | None) -> None:
        self._directory = directory
        self._file: Any = None
        self._end = 0

    def _failed(self, exc: OSError) -> StoreError:
        reason = f"cannot put the review words aside: {write_failure(exc)}"
        return StoreError(self._directory or Path(tempfile.gettempdir()), reason)

    def put(self, array: np.ndarray) -> _Run:
        """Put ``array`` (one dimension) aside; returns where it is."""
        data = np.ascontiguousarray(array)
        try:
            if self._file is None:
                directory = self._directory if self._directory is not None and self._directory.is_dir() else None
                try:
                    self._file = tempfile.TemporaryFile(prefix=".paperdeck-words-", dir=directory)  # noqa: SIM115
                except OSError:
                    if directory is None:
                        raise
                    self._file = tempfile.TemporaryFile(prefix=".paperdeck-words-")  # noqa: SIM115
            view = data.data.cast("B")
            at, fd = self._end, self._file.fileno()
            while view:
                done = os.pwrite(fd, view, at)
                view, at = view[done:], at + done
        except OSError as exc:
            raise self._failed(exc) from None
        run = (self._end, len(data), data.dtype.str)
        self._end = at
        return run

    def get(self, run: _Run, start: int = 0, stop: int | None = None) -> np.ndarray:
        """Elements ``start:stop`` of the array put aside at ``run`` (a new array)."""
        offset, count, dtype = run
        stop = count if stop is None else stop
        out = np.empty(max(stop - start, 0), dtype=np.dtype(dtype))
        view = out.data.cast("B")
        at = offset + start * out.itemsize
        try:
            while view:
                done = os.preadv(self._file.fileno(), [view], at)
                if not done:
                    raise OSError(errno.EIO, "the file of the review words put aside ended early")
                view, at = view[done:], at + done
        except OSError as exc:
            raise self._failed(exc) from None
        return out

    def search(self, run: _Run, values: np.ndarray) -> np.ndarray:
        """Where ``values`` (ascending) would go in the array at ``run`` (ascending), as
        :func:`numpy.searchsorted` (left); only the pages the search looks at are read."""
        offset, count, dtype = run
        if not count:
            return np.zeros(len(values), dtype=np.int64)
        try:
            mapped = np.memmap(self._file, dtype=np.dtype(dtype), mode="r", offset=offset, shape=(count,))
        except (OSError, ValueError) as exc:
            raise self._failed(exc if isinstance(exc, OSError) else OSError(str(exc))) from None
        found = np.searchsorted(mapped, values).astype(np.int64)
        del mapped
        return found

    def close(self) -> None:
        """Drop what was put aside (the file goes); calling it again does nothing."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None
            self._end = 0


def _npy_header(dtype: np.dtype, length: int) -> bytes:
    """The header :func:`numpy.save` writes for a one-dimensional array of ``length`` ``dtype``
    elements: followed by their bytes, the file ``numpy.save`` writes, byte for byte."""
    buffer = io.BytesIO()
    header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": (length,)}
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue()


#: The builder of the process that folds batches (:class:`WordIndexBuilder` with ``in_process``).
_CHILD_BUILDER: WordIndexBuilder | None = None


#: How often a wait for the process's write looks at the counts it sent (seconds).
_TOLD_EVERY = 0.1
#: Where the process sends how far its write is (:func:`_child_init`).
_CHILD_TOLD: Any = None


class _Steps:
    """The parts of a write done, of ``total`` (a part: a batch's pairs read back, a bucket of
    postings or a batch of the words in order written: some tens at 1 ×; the buckets are added
    to ``total`` once known), told to ``told`` as a percentage ``(percent, 100)`` that never goes
    back, each percentage once."""

    def __init__(self, told: Callable[[int, int], None] | None, total: int) -> None:
        self.told = told
        self.total = total
        self.done = 0
        self.percent = 0

    def __call__(self) -> None:
        self.done += 1
        percent = max(self.percent, min(100, self.done * 100 // max(self.total, 1)))
        if percent > self.percent and self.told is not None:
            self.told(percent, 100)
        self.percent = percent


def _child_init(parent: int, told: Any) -> None:
    """The process's start: it ends with ``parent`` (:func:`paperdeck.runtime.end_with_parent`)
    and sends how far a write is to ``told`` (a queue)."""
    from paperdeck import runtime

    global _CHILD_TOLD
    _CHILD_TOLD = told
    runtime.end_with_parent(parent)


def _child_send(done: int, total: int) -> None:
    if _CHILD_TOLD is not None:
        _CHILD_TOLD.put((done, total))


def _child_start(spill_dir: Path | None) -> None:
    global _CHILD_BUILDER
    _CHILD_BUILDER = WordIndexBuilder(None, spill_dir=spill_dir)


def _child_batch(pending: list[bytes], pending_units: list[int]) -> None:
    assert _CHILD_BUILDER is not None
    _CHILD_BUILDER._batch(pending, pending_units)


def _child_prepare(count: int, old: tuple[Path, str] | None) -> None:
    assert _CHILD_BUILDER is not None
    _CHILD_BUILDER.use_old(None if old is None else WordIndex(*old))
    _CHILD_BUILDER._prepare(count)


def _child_write(
    units: dict[str, int], count: int, old: tuple[Path, str] | None, directory: Path, name: str, tell: bool = False
) -> list[Path]:
    assert _CHILD_BUILDER is not None
    _CHILD_BUILDER.use_old(None if old is None else WordIndex(*old))
    written = _CHILD_BUILDER._write(directory, name, units, count, _child_send if tell else None)
    global _CHILD_TOLD
    if _CHILD_TOLD is not None:  # every count sent before the result (the last task of the process)
        _CHILD_TOLD.close()
        _CHILD_TOLD.join_thread()
        _CHILD_TOLD = None
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
        #: Where it was read from: ``(directory, name)``.
        self.location = (directory, name)
        self._vocab = _Vocabulary((directory / f"{name}.vocab").read_bytes())
        self.forums = (directory / f"{name}.forums").read_bytes().decode("utf-8", "surrogatepass").split("\n")[:-1]
        self.starts = np.load(directory / f"{name}.starts.npy", mmap_mode="r", allow_pickle=False)
        self.postings = np.load(directory / f"{name}.postings.npy", mmap_mode="r", allow_pickle=False)
        if len(self.starts) != len(self._vocab) + 1 or (len(self.postings) and self.postings.max() >= len(self.forums)):
            raise ValueError("the word postings do not match the words and papers")
        #: The words of each paper in order, and where each paper's start (``None``: an index
        #: written before phrases were kept: see the module docstring).
        self.sequence: np.ndarray | None = None
        self.sequence_starts: np.ndarray | None = None
        if (directory / f"{name}.seq.npy").exists():
            self.sequence = np.load(directory / f"{name}.seq.npy", mmap_mode="r", allow_pickle=False)
            self.sequence_starts = np.load(directory / f"{name}.seqstarts.npy", allow_pickle=False)
            if len(self.sequence_starts) != len(self.forums) + 1 or int(self.sequence_starts[-1]) != len(self.sequence):
                raise ValueError("the word sequence does not match the papers")

    @property
    def has_phrases(self) -> bool:
        """Whether the index keeps the words in order, as a phrase needs (see the module docstring)."""
        return self.sequence is not None

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
        """The forum ids whose reviews hold ``value``: one word, a word starting with it
        (``inner``: holding it anywhere); several words, a phrase (:meth:`phrase_forums`); empty
        when ``value`` has no word.

        Raises:
            ValueError: a phrase, and the index keeps no word order (:attr:`has_phrases`).
        """
        wanted = review_words(value)
        if not wanted:
            return frozenset()
        if len(wanted) > 1:
            return self.phrase_forums(wanted, inner)
        found = np.ones(len(self.forums), dtype=bool)
        starts, postings = self.starts, self.postings
        for word in dict.fromkeys(wanted):
            numbers = self._word_range(_key(word), inner)
            hits = np.zeros(len(self.forums), dtype=bool)
            # Adjacent words' postings are adjacent: one slice per run of word numbers.
            breaks = np.flatnonzero(np.diff(numbers) != 1) + 1
            for run in np.split(numbers, breaks) if len(numbers) else ():
                hits[postings[starts[run[0]] : starts[run[-1] + 1]]] = True
            found &= hits
        forums = self.forums
        return frozenset(forums[int(n)] for n in np.flatnonzero(found))

    def _exact(self, word: str) -> np.ndarray:
        """The number of ``word`` (as an array of one), or an empty array when no review has it."""
        key = _key(word)
        at = bisect.bisect_left(self._vocab, key)
        found = at < len(self._vocab) and self._vocab[at] == key
        return np.array([at] if found else [], dtype=np.int64)

    def _ending(self, word: str) -> np.ndarray:
        """The numbers of the words that end with ``word``."""
        blob = self._vocab.blob
        hits = [m.start() for m in re.finditer(re.escape(_key(word)) + b"\n", blob)]
        return np.unique(np.searchsorted(self._vocab.at, np.array(hits, dtype=np.int64), side="right") - 1)

    def phrase_forums(self, words: list[str], inner: bool = False) -> frozenset[str]:
        """The forum ids whose review text holds ``words`` (two or more, folded as
        :func:`review_words` gives them) one after another, in one section of one note: the first
        a whole word (``inner``: a word ending with it), the middle ones whole words, the last a
        word starting with it, as a phrase in a paper's text is found (``"weak baseline"``: "weak
        baselines", "weak, baseline", not "weak and baseline", "weaker baseline"). Words are
        compared by their first :data:`MAX_WORD_BYTES` bytes.

        One pass over the word sequence (over the papers holding every word alone, when their
        words are under an eighth of all, in at most :data:`_PHRASE_RUNS` runs) for the rarest
        whole word (or the last word's range), then a look at the words around each place found.

        Raises:
            ValueError: the index keeps no word order (:attr:`has_phrases`).
        """
        sequence, bounds = self.sequence, self.sequence_starts
        if sequence is None or bounds is None:
            raise ValueError("the word index keeps no word order")
        count = len(words)
        sets: list[np.ndarray] = []
        for at, word in enumerate(words):
            if at == count - 1:
                sets.append(self._word_range(_key(word), False))
            elif at == 0 and inner:
                sets.append(self._ending(word))
            else:
                sets.append(self._exact(word))
            if not len(sets[-1]):
                return frozenset()
        starts = self.starts

        def frequency(at: int) -> int:
            numbers = sets[at]
            return int(starts[numbers[-1] + 1] - starts[numbers[0]]) if len(numbers) == 1 else 1 << 62

        anchor = min(range(count), key=frequency)
        numbers = sets[anchor]
        # Only the papers holding every word need a look: when their words are few, those alone.
        held = np.ones(len(self.forums), dtype=bool)
        for word_numbers in sets:
            hits = np.zeros(len(self.forums), dtype=bool)
            breaks = np.flatnonzero(np.diff(word_numbers) != 1) + 1
            for run in np.split(word_numbers, breaks):
                hits[self.postings[starts[run[0]] : starts[run[-1] + 1]]] = True
            held &= hits
        papers = np.flatnonzero(held)
        runs = _runs(papers)
        few = len(runs) <= _PHRASE_RUNS and int((bounds[papers + 1] - bounds[papers]).sum()) * 8 < len(sequence)

        def found_in(looked: np.ndarray) -> np.ndarray:
            if len(numbers) == 1:
                return np.flatnonzero(looked == numbers[0])
            low, high = int(numbers[0]), int(numbers[-1])  # the last word's range (or a rare set)
            found = looked >= low
            found &= looked <= high
            places = np.flatnonzero(found)
            return places if high - low + 1 == len(numbers) else places[np.isin(looked[places], numbers)]

        if few:  # the slices of the papers holding every word, run by run
            parts = [found_in(sequence[bounds[a] : bounds[b]]) + bounds[a] for a, b in runs]
            places = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        else:
            places = found_in(sequence)
        first = places - anchor
        first = first[(first >= 0) & (first + count <= len(sequence))]
        for at in range(count):
            if at == anchor or not len(first):
                continue
            values = np.asarray(sequence[first + at])
            numbers = sets[at]
            if len(numbers) == 1:
                first = first[values == numbers[0]]
            elif int(numbers[-1]) - int(numbers[0]) + 1 == len(numbers):
                first = first[(values >= numbers[0]) & (values <= numbers[-1])]
            else:
                first = first[np.isin(values, numbers)]
        paper = np.searchsorted(bounds, first, side="right") - 1
        paper = np.unique(paper[first + count <= bounds[paper + 1]])
        forums = self.forums
        return frozenset(forums[int(n)] for n in paper)
