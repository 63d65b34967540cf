"""Fuzzy ranking of papers as the user types: a word-level index over title, keywords, authors,
abstract and note.

Each query word is matched against the index's vocabulary (exactly, as a prefix, as a typo within
a rapidfuzz ``fuzz.ratio`` cutoff, or as the initials of the title), then looked up in posting
lists. A paper must match every query word; its score sums, per word, the best match quality
times the weight of the field it was found in (title > keywords, authors > note > abstract).
Measured in the guide's PERFORMANCE.md: 6–9 ms a query over 20,000 papers with abstracts, where
document-level scorers take 240–1,100 ms.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from tui.core.paper import Paper

_WORD = re.compile(r"[^\W_]+")

#: Field codes (low 3 bits of a posting) and their weights.
TITLE, KEYWORD, AUTHOR, ABSTRACT = 0, 1, 2, 3
_WEIGHT = {TITLE: 10.0, KEYWORD: 6.0, AUTHOR: 6.0, ABSTRACT: 1.0}
_NOTE_WEIGHT = 5.0
_INITIALS_QUALITY = 0.75
_PREFIX_QUALITY = 0.85
_FUZZY_QUALITY = 0.8
_MAX_PREFIX_WORDS = 400


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric words of ``text`` (NFKC-folded): ``"GNNs: a survey"`` → ``["gnns", "a", "survey"]``."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _WORD.findall(text.casefold())


def _fuzzy_cutoff(length: int) -> float | None:
    """The ``fuzz.ratio`` a vocabulary word needs to count as a typo of a query word this long."""
    if length < 4:
        return None
    if length < 9:
        return 80.0  # one typo: "difusion"/"diffusion" 94, "grpah"/"graph" 80; "decision" 75
    return 78.0


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Ranked positions (indices into the index's paper sequence), best first."""

    positions: list[int]
    total: int


class SearchIndex:
    """A word index over a fixed sequence of papers, plus the user's notes (which may change).

    Args:
        papers: the papers, in catalogue order; results are positions in this sequence.
        notes: note text by paper id.

    Building over 20,000 papers with abstracts takes about a second: do it in a worker.
    ``search`` may run in a thread while ``set_note`` is called from another: notes are swapped
    whole, never mutated in place.
    """

    def __init__(self, papers: Sequence[Paper], notes: Mapping[str, str] | None = None) -> None:
        self._ids = [paper.id for paper in papers]
        self._position = {paper_id: i for i, paper_id in enumerate(self._ids)}
        postings: dict[str, list[int]] = {}
        initials: list[str] = []
        weight_order = sorted(_WEIGHT, key=lambda code: -_WEIGHT[code])
        for i, paper in enumerate(papers):
            base = i << 3
            title_words = words(paper.title)
            initials.append("".join(word[0] for word in title_words))
            seen: set[str] = set()
            for field_code in weight_order:
                if field_code == TITLE:
                    field_words: Iterable[str] = title_words
                elif field_code == KEYWORD:
                    field_words = words(" ; ".join(paper.keywords))
                elif field_code == AUTHOR:
                    field_words = words(" ; ".join(paper.authors))
                else:
                    field_words = words(paper.abstract)
                for word in set(field_words) - seen:
                    posting = postings.get(word)
                    if posting is None:
                        postings[word] = [base | field_code]
                    else:
                        posting.append(base | field_code)
                    seen.add(word)
        self._postings: dict[str, array[int]] = {w: array("I", p) for w, p in postings.items()}
        self._vocabulary = sorted(self._postings)
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for word in self._vocabulary:
            self._by_length[len(word)].append(word)
        self._initials = initials
        self._notes: dict[int, frozenset[str]] = {}
        self._expansions: dict[str, list[tuple[str, float]]] = {}
        for paper_id, note in (notes or {}).items():
            self.set_note(paper_id, note)

    def __len__(self) -> int:
        return len(self._ids)

    def paper_ids(self, positions: Iterable[int]) -> list[str]:
        """The paper ids at ``positions`` (as returned in :class:`SearchResult`)."""
        ids = self._ids
        return [ids[position] for position in positions]

    def set_note(self, paper_id: str, note: str) -> None:
        """Make ``note`` searchable for ``paper_id`` (an empty note removes it)."""
        position = self._position.get(paper_id)
        if position is None:
            return
        notes = dict(self._notes)
        if note.strip():
            notes[position] = frozenset(words(note))
        else:
            notes.pop(position, None)
        self._notes = notes

    def search(self, query: str) -> SearchResult:
        """Rank the papers for ``query``; an empty query gives every paper in catalogue order."""
        query_words = list(dict.fromkeys(words(query)))
        if not query_words:
            return SearchResult(list(range(len(self._ids))), len(self._ids))
        totals: dict[int, float] | None = None
        for word in query_words:
            scores = self._word_scores(word)
            if totals is None:
                totals = scores
            else:
                totals = {i: s + scores[i] for i, s in totals.items() if i in scores}
            if not totals:
                break
        totals = totals or {}
        ranked = sorted(totals, key=lambda i: (-totals[i], i))
        return SearchResult(ranked, len(self._ids))

    def _word_scores(self, word: str) -> dict[int, float]:
        """Best score per paper position for one query word, over every field."""
        scores: dict[int, float] = {}
        for vocab_word, quality in self._expand(word):
            for posting in self._postings[vocab_word]:
                score = quality * _WEIGHT[posting & 7]
                position = posting >> 3
                if score > scores.get(position, 0.0):
                    scores[position] = score
        if 3 <= len(word) <= 8:
            bonus = _INITIALS_QUALITY * _WEIGHT[TITLE]
            for position, initials in enumerate(self._initials):
                if word in initials and bonus > scores.get(position, 0.0):
                    scores[position] = bonus
        for position, note_words in self._notes.items():
            quality = _note_quality(word, note_words)
            if quality and quality * _NOTE_WEIGHT > scores.get(position, 0.0):
                scores[position] = quality * _NOTE_WEIGHT
        return scores

    def _expand(self, word: str) -> list[tuple[str, float]]:
        """Vocabulary words matching a query word, with match quality in (0, 1]; cached."""
        cached = self._expansions.get(word)
        if cached is not None:
            return cached
        found: dict[str, float] = {}
        if word in self._postings:
            found[word] = 1.0
        start = bisect_left(self._vocabulary, word)
        for vocab_word in self._vocabulary[start : start + _MAX_PREFIX_WORDS]:
            if not vocab_word.startswith(word):
                break
            found.setdefault(vocab_word, _PREFIX_QUALITY)
        cutoff = _fuzzy_cutoff(len(word))
        if cutoff is not None:
            candidates = [
                w for n in range(len(word) - 2, len(word) + 3) for w in self._by_length.get(n, ())
            ]
            for vocab_word, score, _ in process.extract(
                word, candidates, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
            ):
                found.setdefault(vocab_word, _FUZZY_QUALITY * score / 100.0)
        expansion = sorted(found.items(), key=lambda item: -item[1])
        if len(self._expansions) > 4096:
            self._expansions.clear()
        self._expansions[word] = expansion
        return expansion


def _note_quality(word: str, note_words: frozenset[str]) -> float:
    """How well one query word matches a note's words (0 when it does not)."""
    if word in note_words:
        return 1.0
    if any(w.startswith(word) for w in note_words):
        return _PREFIX_QUALITY
    cutoff = _fuzzy_cutoff(len(word))
    if cutoff is not None:
        best = process.extractOne(word, note_words, scorer=fuzz.ratio, score_cutoff=cutoff)
        if best is not None:
            return _FUZZY_QUALITY * best[1] / 100.0
    return 0.0
