"""Fuzzy ranking of papers as the user types: a word-level index over title, keywords, authors,
abstract and note.

Each query word is matched against the index's vocabulary (exactly, as a prefix, as a typo within
a rapidfuzz ``fuzz.ratio`` cutoff, or as the initials of the title), then looked up in posting
lists. A paper must match every query word. Papers are ranked by, in order:

1. the score: per query word, the best match quality (exact 1, prefix 0.85, acronym 0.75, typo
   at most 0.8) times the weight of the field it was found in (title 10, keywords 6, authors 5.5,
   note 5, abstract 1), summed over the query words, to 1/100;
2. phrase order: consecutive query words that stand next to each other in the title, 2 per pair
   in the query's order, 1 swapped (``graph neural``: "Graph Neural Networks" first);
3. title coverage: the share of the title's distinct words the query words stand for (one each,
   an acronym one per letter), so a query that is the whole title beats a long title that merely
   contains its words, and of two titles matching as many query words the shorter wins
   (``specul decod``: "Speculative Speculative Decoding" first of 89);
4. the number of query words also found in the keywords, then catalogue order (stable sort).

One- and two-letter query words match as prefixes only in titles (one letter) or titles,
keywords and authors (two letters), and exactly everywhere: as prefixes in abstracts they would
touch a large share of all postings and rank nothing better.

Speed: the build does its per-word work in C, one ``bytes.translate`` fold per paper and postings
filled by ``map(array.append, ...)``; a query scores with numpy, one dense array per query word
(posting lists are read as numpy views of their ``array`` buffers), never a Python loop per paper,
and caches the matches of the last words typed.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, chain, compress, islice, pairwise, repeat
from operator import and_, contains, itemgetter, lt
from pathlib import Path
from typing import Any

import numpy as np

from paperdeck.model.paper import Paper
from paperdeck.search.scores import FUZZY_QUALITY, PREFIX_QUALITY, NoteWords, fuzzy_cutoff, score_key
from paperdeck.search.words import fold_fields, word_list, word_set, words

#: Field codes and their weights (title > keywords > authors > abstract; a note weighs 5).
TITLE, KEYWORD, AUTHOR, ABSTRACT = 0, 1, 2, 3
_CODES = (TITLE, KEYWORD, AUTHOR, ABSTRACT)
_WEIGHT = {TITLE: 10.0, KEYWORD: 6.0, AUTHOR: 5.5, ABSTRACT: 1.0}
_INITIALS_QUALITY = 0.75
#: Typo quality factor when the query word is in the vocabulary, or starts a word of it:
#: a title typo then scores at most 4.8, under an exact keyword (6) or author (5.5) hit, so
#: ``supermartingale`` finds its keyword before the title with "Submartingale".
_KNOWN_WORD_TYPO = 0.6

#: Fields where a query word this short matches as a prefix (elsewhere it matches exactly).
_SHORT_PREFIX_FIELDS: dict[int, tuple[int, ...]] = {1: (TITLE,), 2: (TITLE, KEYWORD, AUTHOR)}

#: Sort-key layout, one int per paper: score in 1/100 | phrase order (4 bits) | title coverage
#: (8 bits) | query words also in the keywords (4 bits). Below 16 query words it stays under
#: 2**30, where CPython's int arithmetic takes its fast path.
_ORDER_SHIFT = 12
_ORDER_MAX = 15
_COVER_SHIFT = 4
_COVER_MAX = 255
_KEYWORD_MAX = 15
_MAX_ORDER_TITLES = 400  # best-scored titles checked for phrase order per query (bounds the Python-level checks)

_MAX_EXPANSIONS = 512  # cached vocabulary expansions (query words)
_MAX_MATCHES = 16  # cached per-word matches: the words of the last few keystrokes


class _Lines:
    """One text per paper: a list, or (read from a file) the texts one a line, split at first need."""

    __slots__ = ("_lines", "_text")

    def __init__(self, lines: list[str] | None = None, text: str | None = None) -> None:
        self._lines, self._text = lines, text

    def lines(self) -> list[str]:
        """The texts, one per paper (the joined text is dropped once split: held once)."""
        lines = self._lines
        if lines is None:
            assert self._text is not None
            lines = self._lines = self._text.split("\n")
            self._text = None
        return lines

    def joined(self) -> str:
        """The texts one a line."""
        text = self._text
        return text if text is not None else "\n".join(self.lines())


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Ranked positions (indices into the index's paper sequence), best first."""

    positions: list[int]
    total: int


@dataclass(frozen=True, slots=True)
class _Expansion:
    """The vocabulary words one query word matches, in bands of equal match quality in (0, 1],
    each as ranges ``(start, end)`` of vocabulary numbers (a prefix band is one range)."""

    bands: tuple[tuple[float, tuple[tuple[int, int], ...]], ...]
    vocabulary: frozenset[str]


@dataclass(frozen=True, slots=True)
class _WordMatch:
    """What one query word matches, one array entry per paper position (numpy, dense: a query's
    arithmetic over all the papers is then a few C loops); cached and shared, so never mutated."""

    scores: np.ndarray  # int64: best quality x field weight, as a sort key (score_key); 0: no match
    title_hits: np.ndarray  # int64: title words the query word stands for: 1, an acronym its letters
    keyword_hits: np.ndarray  # int64: 1 where the query word is in the keywords too
    vocabulary: frozenset[str]


class SearchIndex:
    """A word index over a fixed sequence of papers, plus the user's notes (which may change).

    Args:
        papers: the papers, in catalogue order; results are positions in this sequence.
        notes: note text by paper id.

    The build splits every paper's text into words and fills the posting lists, which takes a
    while at tens of thousands of papers: build it in a worker. A keystroke is ranked with numpy
    over dense per-word arrays rather than dicts built from the posting lists (one- and two-letter
    first words are the slowest to rank); the matches of the last ``_MAX_MATCHES`` query words are
    cached, three int64 arrays of one entry per paper each.

    ``search`` may run in a thread while ``set_note`` is called from another: notes are swapped
    whole, never mutated in place, and the caches only ever hold finished values.
    """

    def __init__(self, papers: Sequence[Paper], notes: Mapping[str, str] | None = None) -> None:
        self._set_ids([paper.id for paper in papers])
        new_posting = partial(array, "I")
        fields: list[defaultdict[str, array[int]]] = [defaultdict(new_posting) for _ in _CODES]
        title_get, keyword_get, author_get, abstract_get = (f.__getitem__ for f in fields)
        append = array.append
        first_letter = itemgetter(0)
        # Each paper's words, space-led (" graph neural networks"): for phrase order and for
        # prefix scans of one- and two-letter words.
        titles: list[str] = []
        keyword_texts: list[str] = []
        author_texts: list[str] = []
        title_sizes = array("H")
        initials: list[str] = []
        for i, paper in enumerate(papers):
            title_text, keyword_text, author_text, abstract_text = fold_fields(paper)
            title_words = word_list(title_text)
            title_set = set(title_words)
            keyword_set = word_set(keyword_text)
            author_set = word_set(author_text)
            abstract_set = word_set(abstract_text)
            abstract_set.difference_update(title_set, keyword_set, author_set)
            # map(array.append, ...) appends without a Python-level loop over the words, the
            # bulk of the build (arrays are not tracked by the GC; lists were slower).
            at = repeat(i)
            any(map(append, map(title_get, title_set), at))
            any(map(append, map(keyword_get, keyword_set), at))
            if author_set:
                any(map(append, map(author_get, author_set), at))
            any(map(append, map(abstract_get, abstract_set), at))
            titles.append(" " + " ".join(title_words))
            keyword_texts.append(" " + " ".join(keyword_set) if keyword_set else "")
            author_texts.append(" " + " ".join(author_set) if author_set else "")
            title_sizes.append(min(len(title_set), 65535))
            initials.append("".join(map(first_letter, title_words)))
        vocabulary = sorted(set().union(*fields))
        # One posting list per field, laid end to end in vocabulary order (see _Postings).
        flat: list[array[int]] = []
        sizes = array("I")
        empty = array("I")
        for field in fields:
            for posting in map(field.get, vocabulary, repeat(empty)):
                flat.append(posting)
                sizes.append(len(posting))
        del fields
        starts = np.zeros(len(_CODES) * len(vocabulary) + 1, dtype=np.int64)
        np.cumsum(np.frombuffer(sizes, dtype=np.uint32), out=starts[1:])
        postings = np.frombuffer(b"".join(flat), dtype=np.uint32) if flat else np.zeros(0, np.uint32)
        del flat
        self._adopt(
            vocabulary, starts, postings, _Lines(titles), _Lines(keyword_texts), _Lines(author_texts),
            np.frombuffer(title_sizes, dtype=np.uint16), "\n".join(initials),
        )  # fmt: skip
        self.set_notes(notes or {})

    def _set_ids(self, ids: list[str]) -> None:
        self._ids = ids
        self._positions_by_id: dict[str, int] | None = None  # made at first need: see _position
        self._id_array = np.array(ids, dtype=object)

    @property
    def _position(self) -> dict[str, int]:
        """Positions by paper id (made at the first note: a search needs none)."""
        made = self._positions_by_id
        if made is None:
            made = self._positions_by_id = {paper_id: i for i, paper_id in enumerate(self._ids)}
        return made

    def _adopt(
        self,
        vocabulary: list[str],
        starts: np.ndarray,
        postings: np.ndarray,
        titles: _Lines,
        keyword_texts: _Lines,
        author_texts: _Lines,
        title_sizes: np.ndarray,
        initials: str,
        buckets: tuple[tuple[str, np.ndarray, np.ndarray], ...] | None = None,
    ) -> None:
        """Take the index's data, built or read from a file (:meth:`load`): the sorted
        vocabulary; ``postings`` (uint32 positions) and ``starts`` (int64, ``4 × len(vocabulary)
        + 1``): field ``code``'s posting list of vocabulary word ``n`` is ``postings[starts[i] :
        starts[i + 1]]`` with ``i = code × len(vocabulary) + n``; each paper's title, keyword and
        author words, space-led; its title's distinct words (uint16); its title initials, one
        line each; the typo buckets (:func:`typo_bucket_arrays`; made here when ``None``)."""
        self._vocabulary = vocabulary
        self._starts, self._postings = starts, postings
        self._titles = titles
        self._texts = (titles, keyword_texts, author_texts)
        self._title_sizes = title_sizes.astype(np.int64)
        # Title coverage = hits x unit: the share of the title's distinct words matched, in
        # _COVER_MAX steps, precomputed so that a query needs one multiplication per paper.
        self._cover_units = (_COVER_MAX // np.maximum(self._title_sizes, 1)) << _COVER_SHIFT
        self._initials = initials
        self._initial_starts: list[int] | None = None  # made at first need: see _acronym_positions
        #: Typo candidates (:meth:`_typo_candidates`), made at first need: by first / second
        #: letter, each shortest first, with their lengths.
        self._typo_buckets: tuple[dict[str, tuple[list[str], list[int]]], ...] = ({}, {})
        self._bucket_arrays = buckets if buckets is not None else typo_bucket_arrays(vocabulary)
        self._notes: dict[int, frozenset[str]] = {}
        #: The notes' words for one snapshot of ``_notes``, and what query words found in them.
        self._note_cache: tuple[dict[int, frozenset[str]], NoteWords, dict[str, dict[int, int]]] | None = None
        #: Results ranked ahead of time (:meth:`warm`), by query words, for one snapshot of the notes.
        self._warm: tuple[dict[int, frozenset[str]], dict[tuple[str, ...], array[int]]] | None = None
        self._expansions: dict[str, _Expansion] = {}
        self._matches: dict[str, _WordMatch] = {}

    #: Format of :meth:`save` files (bumped when the layout or what is indexed changes).
    FILE_VERSION = 3

    def save(self, path: Path, stamp: Sequence[int], texts: str = "") -> None:
        """Write the index (without the notes, which are the user's and change) to ``path``
        (NumPy ``.npz``, uncompressed), atomically, with ``stamp`` — what it was built from (the
        catalogue's size and mtime) — and ``texts`` (:func:`paperdeck.search.similar.texts_fingerprint`
        of its papers) for :meth:`load`.

        Raises:
            StoreError: the file cannot be written.
        """
        import io

        from paperdeck.store.atomic import atomic_write_bytes

        out = io.BytesIO()
        buckets: dict[str, Any] = {}
        for place, (letters, bucket_starts, numbers) in enumerate(self._bucket_arrays):
            buckets |= {f"letters{place}": _text_array(letters), f"bucket_starts{place}": bucket_starts,
                        f"bucket_words{place}": numbers}  # fmt: skip
        arrays: dict[str, Any] = dict(
            ids=_text_array("\n".join(self._ids)),
            vocabulary=_text_array("\n".join(self._vocabulary)),
            starts=self._starts,
            postings=self._postings,
            titles=_text_array(self._titles.joined()),
            keywords=_text_array(self._texts[1].joined()),
            authors=_text_array(self._texts[2].joined()),
            title_sizes=self._title_sizes.astype(np.uint16),
            initials=_text_array(self._initials),
            **buckets,
        )
        np.savez(
            out,
            version=np.array([self.FILE_VERSION], np.int64),
            stamp=np.array(list(stamp), np.int64),
            texts=np.array([texts], dtype=np.str_),
            digest=np.array([saved_digest(arrays)], np.int64),
            **arrays,
        )
        atomic_write_bytes(path, out.getvalue())

    @classmethod
    def load(
        cls, path: Path, stamp: Sequence[int], ids: Sequence[str], texts: str | None = None
    ) -> SearchIndex | str | None:
        """The index :meth:`save` wrote to ``path`` with the same ``stamp`` (or, given ``texts``,
        another stamp but these texts: a catalogue rewritten for what the index does not hold,
        ratings or decisions), over papers ``ids``
        (in that order); ``None`` when there is no file; else why it cannot be used, one phrase
        (another version or stamp, truncated, not an index, inconsistent arrays: what a
        hand-edited or foreign file gives), so that the caller builds the index anew. Every
        array is checked for shape, type and range before it is used: a bad file never gives a
        wrong ranking or an error later. Much cheaper than a build."""
        import zipfile

        try:
            with np.load(path, allow_pickle=False) as saved:
                if saved["version"].tolist() != [cls.FILE_VERSION]:
                    return "it was written by another paperdeck version"
                if saved["stamp"].tolist() != list(stamp) and (
                    texts is None or "texts" not in saved.files or saved["texts"].tolist() != [texts]
                ):
                    return "it was made for another catalogue"
                arrays = {name: saved[name] for name in _SAVED_ARRAYS}
                digest = saved["digest"].tolist()
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            return f"it is not a readable search index ({type(exc).__name__})"
        if digest != [saved_digest(arrays)]:
            return "its contents do not match its digest (edited?)"
        try:
            made = _checked(arrays, list(ids))
        except (ValueError, TypeError, UnicodeDecodeError) as exc:
            return f"it is inconsistent ({exc})"
        index = cls.__new__(cls)
        index._set_ids(list(ids))
        index._adopt(*made)
        return index

    def __len__(self) -> int:
        return len(self._ids)

    def paper_ids(self, positions: Iterable[int]) -> list[str]:
        """The paper ids at ``positions`` (as returned in :class:`SearchResult`)."""
        return list(map(self._ids.__getitem__, positions))

    def set_notes(self, notes: Mapping[str, str]) -> None:
        """Make each of ``notes`` (note text by paper id) searchable, as :meth:`set_note` does
        one by one, in one swap of the notes."""
        changed = dict(self._notes)
        for paper_id, note in notes.items():
            position = self._position.get(paper_id)
            if position is None:
                continue
            if note.strip():
                changed[position] = frozenset(words(note))
            else:
                changed.pop(position, None)
        self._notes = changed

    def set_note(self, paper_id: str, note: str) -> None:
        """Make ``note`` searchable for ``paper_id`` (an empty note removes it)."""
        position = self._position.get(paper_id)
        if position is None or (position not in self._notes and not note.strip()):
            return  # no note before and none now (a bulk star or status): nothing to copy
        notes = dict(self._notes)
        if note.strip():
            notes[position] = frozenset(words(note))
        else:
            notes.pop(position, None)
        self._notes = notes

    def search(self, query: str) -> SearchResult:
        """Rank the papers for ``query``; an empty query gives every paper in catalogue order."""
        return SearchResult(self._ranked(query).tolist(), len(self._ids))

    def search_positions(self, query: str) -> np.ndarray:
        """:meth:`search`'s ranking as a numpy array of positions (not to be changed in place)."""
        return self._ranked(query)

    def ids_at(self, positions: np.ndarray) -> list[str]:
        """The paper ids at ``positions`` (a numpy array of positions)."""
        return self._id_array[positions].tolist()  # type: ignore[no-any-return]

    def search_ids(self, query: str) -> list[str]:
        """The ids of :meth:`search`'s ranking (taken by numpy, cheaper on each keystroke than
        :meth:`paper_ids` for thousands of papers)."""
        return self._id_array[self._ranked(query)].tolist()  # type: ignore[no-any-return]

    def word_mask(self, query: str) -> np.ndarray:
        """One bool per position: whether the paper matches every word of ``query`` as
        :meth:`search` matches them (exactly, as a prefix, with a typo, as title initials, in any
        field or the note): exactly the papers :meth:`search` ranks for ``query``, in any order.
        Every paper for a query without words."""
        query_words = list(dict.fromkeys(words(query)))
        found = np.ones(len(self._ids), dtype=bool)
        notes = self._notes
        for word in query_words:
            found &= _with_notes(self._match(word).scores, self._note_scores(word, notes)) > 0
        return found

    def _ranked(self, query: str) -> np.ndarray:
        """Ranked positions, best first."""
        query_words = list(dict.fromkeys(words(query)))
        total = len(self._ids)
        if not query_words:
            return np.arange(total)
        notes = self._notes  # one snapshot: set_note swaps the dict, never edits it
        warm = self._warm
        if warm is not None and warm[0] is notes:
            ranked = warm[1].get(tuple(query_words))
            if ranked is not None:
                return np.frombuffer(ranked, dtype=np.uint32)
        found: dict[str, tuple[_WordMatch, np.ndarray]] = {}
        candidates: np.ndarray | None = None  # positions matching every word so far, ascending
        # Longer words first: few candidates left bound the prefix scan of a one- or two-letter
        # word ("specul d" scans the "specul…" papers, not all of them).
        for word in sorted(query_words, key=lambda w: len(w) in _SHORT_PREFIX_FIELDS):
            bounded = candidates is not None and len(candidates) * 8 < total
            match = self._match(word, candidates.tolist() if bounded and candidates is not None else None)
            scores = _with_notes(match.scores, self._note_scores(word, notes))
            found[word] = match, scores
            candidates = np.flatnonzero(scores) if candidates is None else candidates[scores[candidates] > 0]
            if not len(candidates):
                return candidates
        assert candidates is not None
        matches = [found[word][0] for word in query_words]
        keys = found[query_words[0]][1][candidates]  # a copy: the match is cached and shared
        for word in query_words[1:]:
            keys += found[word][1][candidates]
        self._break_ties(keys, candidates, matches)
        # Candidates are in catalogue order and the sort is stable: ties keep catalogue order.
        return candidates[np.argsort(-keys, kind="stable")]

    def warm(self, queries: Iterable[str]) -> None:
        """Rank ``queries`` now and keep their results while the notes stay as they are.

        The app warms every single letter and digit (with the index build): a search starts
        with one letter, and one letter matches half the papers, so it is the slowest query to
        rank.
        """
        notes = self._notes
        ready: dict[tuple[str, ...], array[int]] = {}
        for query in queries:
            query_words = tuple(dict.fromkeys(words(query)))
            if query_words:
                ready[query_words] = array("I", self._ranked(query).tolist())
        if notes is self._notes:
            self._warm = (notes, ready)

    def _break_ties(self, keys: np.ndarray, candidates: np.ndarray, matches: list[_WordMatch]) -> None:
        """Fill the low bits of the sort ``keys`` (one per candidate position): phrase order,
        title coverage, keyword hits."""
        hits = matches[0].title_hits[candidates]
        keyword_counts = matches[0].keyword_hits[candidates]
        for match in matches[1:]:
            hits = hits + match.title_hits[candidates]
            keyword_counts = keyword_counts + match.keyword_hits[candidates]
        if len(matches) > 1:
            hits = np.minimum(hits, self._title_sizes[candidates])
        keys += hits * self._cover_units[candidates]
        keys += np.minimum(keyword_counts, _KEYWORD_MAX)
        if len(matches) > 1:
            several = np.flatnonzero(hits > 1)  # indices into candidates
            if len(several) > _MAX_ORDER_TITLES:
                best = np.argsort(-keys[several], kind="stable")[:_MAX_ORDER_TITLES]
                several = several[best]
            vocabularies = [m.vocabulary for m in matches]
            titles = self._titles.lines()
            for at, position in zip(several.tolist(), candidates[several].tolist(), strict=True):
                order = _phrase_order(titles[position].split(), vocabularies)
                if order:
                    keys[at] += min(order, _ORDER_MAX) << _ORDER_SHIFT

    def _match(self, word: str, within: list[int] | None = None) -> _WordMatch:
        """Scores and tie-break counts of one query word over every field; cached.

        ``within`` bounds the prefix scans of a one- or two-letter word to those positions
        (sorted); the other positions may or may not be in the result, which is not cached.
        """
        short = len(word) in _SHORT_PREFIX_FIELDS
        bounded = short and within is not None
        cached = None if bounded else self._matches.get(word)
        if cached is not None:
            return cached
        expansion = self._expand(word)
        groups: list[tuple[int, np.ndarray]] = []
        hit_positions: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
        for quality, ranges in expansion.bands:
            prefix = quality == PREFIX_QUALITY
            codes = _SHORT_PREFIX_FIELDS[len(word)] if prefix and short else _CODES
            for code in codes:
                score = score_key(quality * _WEIGHT[code])
                if prefix and bounded:  # a few papers left: scanning their words is faster
                    found = np.array(self._starting_with(code, word, within or []), dtype=np.int64)
                else:
                    found = self._positions(code, ranges)
                if code in (TITLE, KEYWORD):  # also counted for the tie-breaks
                    hit_positions[code].append(found)
                groups.append((score, found))
        acronym = np.array(self._acronym_positions(word), dtype=np.int64)
        if len(acronym):
            groups.append((score_key(_INITIALS_QUALITY * _WEIGHT[TITLE]), acronym))
        groups.sort(key=itemgetter(0))
        size = len(self._ids)
        scores = np.zeros(size, dtype=np.int64)
        for score, positions in groups:  # ascending: a better field or match overwrites
            scores[positions] = score
        title_hits = np.zeros(size, dtype=np.int64)
        for positions in hit_positions[TITLE]:
            title_hits[positions] = 1
        # the acronym stands for len(word) title words
        title_hits[acronym] = np.maximum(1, np.minimum(len(word), self._title_sizes[acronym]))
        keyword_hits = np.zeros(size, dtype=np.int64)
        for positions in hit_positions[KEYWORD]:
            keyword_hits[positions] = 1
        match = _WordMatch(scores, title_hits, keyword_hits, expansion.vocabulary)
        if bounded:
            return match
        if len(self._matches) >= _MAX_MATCHES:
            self._matches.clear()
        self._matches[word] = match
        return match

    def _note_scores(self, word: str, notes: dict[int, frozenset[str]]) -> dict[int, int]:
        """The note score keys of ``word`` by position, for this snapshot of the notes; cached
        (scoring every note again on every keystroke would grow with the number of notes)."""
        cache = self._note_cache
        if cache is None or cache[0] is not notes:
            cache = self._note_cache = (notes, NoteWords.of(notes), {})
        _, note_words, found = cache
        scores = found.get(word)
        if scores is None:
            scores = note_words.scores(word)
            if len(found) >= _MAX_EXPANSIONS:
                found.clear()
            found[word] = scores
        return scores

    def _positions(self, code: int, ranges: Iterable[tuple[int, int]]) -> np.ndarray:
        """The positions in field ``code``'s posting lists of the vocabulary words in ``ranges``
        (numpy views of the postings, one array)."""
        starts, postings, offset = self._starts, self._postings, code * len(self._vocabulary)
        found = [postings[starts[offset + low] : starts[offset + high]] for low, high in ranges]
        found = [part for part in found if len(part)]
        if not found:
            return np.zeros(0, dtype=np.int64)
        return found[0] if len(found) == 1 else np.concatenate(found)

    def _starting_with(self, code: int, word: str, within: list[int]) -> list[int]:
        """The positions of ``within`` with a word starting with ``word`` in the field (title,
        keywords, authors): a C-level substring scan of their words. Only for a few papers: over
        all the titles, gathering the postings of every title word with the prefix is cheaper."""
        texts, needle = self._texts[code].lines(), " " + word
        return list(compress(within, map(contains, map(texts.__getitem__, within), repeat(needle))))

    def _acronym_positions(self, word: str) -> list[int]:
        """Positions whose title initials contain ``word`` (3 to 8 letters).

        ``gnn`` finds "Graph Neural Networks for Molecules".
        """
        if not 3 <= len(word) <= 8:
            return []
        text, starts = self._initials, self._initial_starts
        if starts is None:
            starts = self._initial_starts = list(accumulate((len(s) + 1 for s in text.split("\n")), initial=0))
        found: list[int] = []
        at = text.find(word)
        while at >= 0:
            position = bisect_right(starts, at) - 1
            if not found or found[-1] != position:
                found.append(position)
            at = text.find(word, at + 1)
        return found

    def _typo_candidates(self, word: str) -> list[list[str]]:
        """Vocabulary words that may be ``word`` with a typo: within 2 letters of its length,
        starting with its first or second letter or having either as their second letter (a
        typo may fall in the first two letters, not both). A quarter of the vocabulary on
        average, so rapidfuzz scores that quarter rather than the whole vocabulary.

        Returned as up to four slices of the buckets, which may overlap: joining and
        de-duplicating them cost more than scoring a word twice."""
        low_length, high_length = len(word) - 2, len(word) + 2
        found: list[list[str]] = []
        for place in (0, 1):
            for letter in dict.fromkeys(word[:2]):
                bucket, sizes = self._typo_bucket(place, letter)
                if bucket:
                    low = bisect_left(sizes, low_length)
                    found.append(bucket[low : bisect_right(sizes, high_length, low)])
        return found

    def _typo_bucket(self, place: int, letter: str) -> tuple[list[str], list[int]]:
        """The vocabulary words with ``letter`` at ``place`` (0 or 1), shortest first (ties in
        vocabulary order), and their lengths; made at first need and kept (a race makes it twice,
        alike)."""
        cached = self._typo_buckets[place].get(letter)
        if cached is not None:
            return cached
        letters, starts, numbers = self._bucket_arrays[place]
        at = letters.find(letter) if letter else -1
        found = numbers[starts[at] : starts[at + 1]].tolist() if at >= 0 else []
        bucket = list(map(self._vocabulary.__getitem__, found))
        made = bucket, list(map(len, bucket))
        self._typo_buckets[place][letter] = made
        return made

    def _expand(self, word: str) -> _Expansion:
        """Vocabulary words matching a query word, banded by match quality; cached."""
        cached = self._expansions.get(word)
        if cached is not None:
            return cached
        vocabulary = self._vocabulary
        start = bisect_left(vocabulary, word)
        end = bisect_left(vocabulary, word + "\U0010ffff", start)
        bands: list[tuple[float, tuple[tuple[int, int], ...]]] = []
        matched: list[str] = vocabulary[start:end]
        if start < end and vocabulary[start] == word:
            bands.append((1.0, ((start, start + 1),)))
            start += 1
        if start < end:
            bands.append((PREFIX_QUALITY, ((start, end),)))
        cutoff = fuzzy_cutoff(len(word))
        if cutoff is not None:
            from rapidfuzz import fuzz, process  # deferred: a query without typos needs none

            # A word the index knows (or the start of one, as typed) is less likely a typo:
            # its typo neighbours count less.
            typo_quality = FUZZY_QUALITY * (_KNOWN_WORD_TYPO if bands else 1.0)
            typos: defaultdict[float, list[str]] = defaultdict(list)
            found = chain.from_iterable(
                process.extract(word, candidates, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
                for candidates in self._typo_candidates(word)
            )
            # A word in two slices is found twice, with the same score: once is enough.
            for vocab_word, score in {w: score for w, score, _ in found}.items():
                if not vocab_word.startswith(word):  # exact and prefix matches are banded above
                    typos[typo_quality * score / 100.0].append(vocab_word)
            for quality, typo_words in typos.items():
                numbers = (bisect_left(vocabulary, w) for w in typo_words)
                bands.append((quality, tuple((n, n + 1) for n in numbers)))
                matched += typo_words
        expansion = _Expansion(tuple(bands), frozenset(matched))
        if len(self._expansions) >= _MAX_EXPANSIONS:
            self._expansions.clear()
        self._expansions[word] = expansion
        return expansion


def typo_bucket_arrays(vocabulary: list[str]) -> tuple[tuple[str, np.ndarray, np.ndarray], ...]:
    """For places 0 and 1: the letters found there in ``vocabulary`` (in order), and the words
    (numbers into ``vocabulary``) with each letter there, shortest first (ties in vocabulary
    order), laid end to end: the words with ``letters[i]`` are ``numbers[starts[i] : starts[i + 1]]``."""
    by_length = sorted(range(len(vocabulary)), key=lambda n: len(vocabulary[n]))
    made = []
    for place in (0, 1):
        groups: dict[str, list[int]] = {}
        for n in by_length:
            word = vocabulary[n]
            if len(word) > place:
                groups.setdefault(word[place], []).append(n)
        letters = "".join(sorted(groups))
        starts = np.zeros(len(letters) + 1, dtype=np.int64)
        np.cumsum([len(groups[letter]) for letter in letters], out=starts[1:])
        numbers = np.fromiter(chain.from_iterable(groups[letter] for letter in letters), dtype=np.uint32)
        made.append((letters, starts, numbers))
    return tuple(made)


def _with_notes(scores: np.ndarray, note_scores: dict[int, int]) -> np.ndarray:
    """``scores`` with better note scores merged in (a new array only when one counts)."""
    better = {position: score for position, score in note_scores.items() if score > scores[position]}
    if not better:
        return scores
    merged = scores.copy()
    merged[list(better)] = list(better.values())
    return merged


def _phrase_order(title_words: list[str], vocabularies: list[frozenset[str]]) -> int:
    """2 for each pair of consecutive query words found side by side in the title in the query's
    order, 1 for a pair found side by side swapped."""
    # Per query word, which title words it matches: then each pair is two C-level scans.
    marks = [[word in vocabulary for word in title_words] for vocabulary in vocabularies]
    order = 0
    for first, second in pairwise(marks):
        if any(map(and_, first, second[1:])):
            order += 2
        elif any(map(and_, second, first[1:])):
            order += 1
    return order


#: The arrays of a saved index besides its version and stamp.
_SAVED_ARRAYS = (
    "ids", "vocabulary", "starts", "postings", "titles", "keywords", "authors", "title_sizes", "initials",
    "letters0", "bucket_starts0", "bucket_words0", "letters1", "bucket_starts1", "bucket_words1",
)  # fmt: skip


def saved_digest(arrays: dict[str, np.ndarray]) -> int:
    """A CRC-32 over the arrays' names, types, shapes and bytes, in :data:`_SAVED_ARRAYS` order."""
    import zlib

    crc = 0
    for name in _SAVED_ARRAYS:
        array = np.ascontiguousarray(arrays[name])
        crc = zlib.crc32(f"{name}:{array.dtype.str}:{array.shape}".encode(), crc)
        crc = zlib.crc32(array.view(np.uint8).data if array.size else b"", crc)
    return crc


def _text_array(text: str) -> np.ndarray:
    """``text`` as a uint8 array of its UTF-8 bytes (lone surrogates kept)."""
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _text(array: np.ndarray) -> str:
    """Inverse of :func:`_text_array`.

    Raises:
        TypeError: not a uint8 array.
        UnicodeDecodeError: not UTF-8.
    """
    if array.dtype != np.uint8 or array.ndim != 1:
        raise TypeError("text is not stored as bytes")
    return array.tobytes().decode("utf-8", "surrogatepass")


def _lines(array: np.ndarray, count: int, what: str) -> _Lines:
    """The ``count`` lines of a text array (one line each: no line for ``count`` 0)."""
    text = _text(array)
    lines = text.count("\n") + 1 if count else 0
    if lines != count or (not count and text):
        raise ValueError(f"{lines} {what} for {count} papers")
    return _Lines(text=text) if count else _Lines([])


def _checked(arrays: dict[str, np.ndarray], ids: list[str]) -> tuple[Any, ...]:
    """The arguments of :meth:`SearchIndex._adopt` from a saved index's arrays, each checked.

    Raises:
        ValueError, TypeError, UnicodeDecodeError: an array is not as :meth:`SearchIndex.save`
            writes it for these papers.
    """
    count = len(ids)
    if arrays["ids"].dtype != np.uint8 or arrays["ids"].tobytes() != "\n".join(ids).encode("utf-8", "surrogatepass"):
        raise ValueError("its papers are not the catalogue's")
    text = _text(arrays["vocabulary"])
    vocabulary = text.split("\n") if text else []
    if "" in vocabulary or not all(map(lt, vocabulary, islice(vocabulary, 1, None))):
        raise ValueError("its vocabulary is not sorted")
    starts, postings = arrays["starts"], arrays["postings"]
    if starts.dtype != np.int64 or postings.dtype != np.uint32 or starts.ndim != 1 or postings.ndim != 1:
        raise TypeError("its posting lists are of another type")
    if len(starts) != len(_CODES) * len(vocabulary) + 1 or starts[0] != 0 or starts[-1] != len(postings):
        raise ValueError("its posting lists do not add up")
    if len(starts) > 1 and bool((np.diff(starts) < 0).any()):
        raise ValueError("its posting lists overlap")
    if len(postings) and int(postings.max()) >= count:
        raise ValueError("a posting names no paper")
    sizes = arrays["title_sizes"]
    if sizes.dtype != np.uint16 or sizes.shape != (count,):
        raise ValueError("its title sizes are not one per paper")
    titles = _lines(arrays["titles"], count, "titles")
    keywords = _lines(arrays["keywords"], count, "keyword lines")
    authors = _lines(arrays["authors"], count, "author lines")
    initials = _text(arrays["initials"])
    if initials.count("\n") != max(count - 1, 0):
        raise ValueError("its title initials are not one line per paper")
    buckets = []
    for place in (0, 1):
        letters = _text(arrays[f"letters{place}"])
        bucket_starts, numbers = arrays[f"bucket_starts{place}"], arrays[f"bucket_words{place}"]
        if bucket_starts.dtype != np.int64 or numbers.dtype != np.uint32 or len(bucket_starts) != len(letters) + 1:
            raise ValueError("its typo buckets are of another shape")
        if bucket_starts[0] != 0 or bucket_starts[-1] != len(numbers) or bool((np.diff(bucket_starts) < 0).any()):
            raise ValueError("its typo buckets do not add up")
        if len(numbers) and int(numbers.max()) >= len(vocabulary):
            raise ValueError("a typo bucket names no word")
        buckets.append((letters, bucket_starts, numbers))
    return vocabulary, starts, postings, titles, keywords, authors, sizes, initials, tuple(buckets)
