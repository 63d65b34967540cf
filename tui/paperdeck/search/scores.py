"""Match qualities and sort-key scores of the search (:mod:`paperdeck.search.index`), and the words of
the user's notes, matched once per query word rather than note by note."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping

#: A note's weight, as a field's (title 10, keywords 6, authors 5.5, abstract 1).
NOTE_WEIGHT = 5.0
PREFIX_QUALITY = 0.85
#: A query word in a script written without spaces (:func:`~paperdeck.search.words.unspaced`) found
#: inside a longer word, or at its start: as a prefix would rank, told apart from one (a prefix of
#: one or two letters is looked for in a few fields only; such a word everywhere).
INSIDE_QUALITY = 0.84
FUZZY_QUALITY = 0.8
#: Where the score sits in a sort key (the tie-breaks fill the bits below; see the search).
SCORE_SHIFT = 16


def fuzzy_cutoff(length: int) -> float | None:
    """The ``fuzz.ratio`` a vocabulary word needs to count as a typo of a query word this long."""
    if length < 4:
        return None
    if length < 9:
        return 80.0  # one typo: "difusion"/"diffusion" 94, "grpah"/"graph" 80; "decision" 75
    return 78.0


def typo_near(word: str, candidate: str) -> bool:
    """Whether ``candidate`` (a word past :func:`fuzzy_cutoff` for ``word``) is near enough to be
    ``word`` with a typo: at most one edit (a letter added, left out or changed, or two neighbours
    swapped: the optimal string alignment distance) for a word of up to 8 letters, two up to 12,
    three from 13. The ratio alone lets three edits through at 8 letters (``bearcubs``/``bartcus``:
    80; ``agents``/``augments``: two at 6), other words rather than typos; ``difusion``/``diffusion``
    and ``grpah``/``graph`` are one edit, ``supermartingale``/``submartingale`` three at 15."""
    size = len(word)
    if size < 9:  # one edit, told apart without importing rapidfuzz (a typed /REAP needs none)
        return _one_edit_apart(word, candidate)
    from rapidfuzz.distance import OSA  # deferred, as the ratio's: a query without typos needs none

    most = 2 if size < 13 else 3
    return OSA.distance(word, candidate, score_cutoff=most) <= most


def _one_edit_apart(word: str, candidate: str) -> bool:
    """Whether the optimal string alignment distance of the two is at most 1: equal, one letter
    added, left out or changed, or two neighbours swapped (``rapidfuzz.distance.OSA`` ≤ 1)."""
    if word == candidate:
        return True
    size, other = len(word), len(candidate)
    if abs(size - other) > 1:
        return False
    start = 0
    shortest = min(size, other)
    while start < shortest and word[start] == candidate[start]:
        start += 1
    if size == other:
        if word[start + 1 :] == candidate[start + 1 :]:  # one letter changed
            return True
        return (  # two neighbours swapped
            start + 1 < size
            and word[start] == candidate[start + 1]
            and word[start + 1] == candidate[start]
            and word[start + 2 :] == candidate[start + 2 :]
        )
    if size < other:  # a letter added
        return word[start:] == candidate[start + 1 :]
    return word[start + 1 :] == candidate[start:]  # a letter left out


def score_key(score: float) -> int:
    """``score`` in 1/100, in the high bits of a sort key."""
    return round(score * 100.0) << SCORE_SHIFT


class NoteWords:
    """The words of all notes, each with the positions whose note has it: a query word is
    matched against them once, not note by note. Never changed once made (a plain class: no
    dataclass's generated methods to compile at import, none being used)."""

    __slots__ = ("positions", "words")

    def __init__(self, words: list[str], positions: dict[str, list[int]]) -> None:
        self.words = words  # sorted
        self.positions = positions

    @classmethod
    def of(cls, notes: Mapping[int, frozenset[str]]) -> NoteWords:
        positions: dict[str, list[int]] = {}
        for position, note_words in notes.items():
            for word in note_words:
                positions.setdefault(word, []).append(position)
        return cls(sorted(positions), positions)

    def scores(self, word: str) -> dict[int, int]:
        """Score keys by position of a query word in the notes: per note, its best word: the word
        itself (1), a word it starts (0.85), else its closest typo (at most 0.8), times 5."""
        quality: dict[int, float] = {}

        def found(note_word: str, value: float) -> None:
            for position in self.positions[note_word]:
                if value > quality.get(position, 0.0):
                    quality[position] = value

        start = bisect_left(self.words, word)
        for note_word in self.words[start : bisect_left(self.words, word + "\U0010ffff", start)]:
            found(note_word, 1.0 if note_word == word else PREFIX_QUALITY)
        from paperdeck.search.words import unspaced

        if unspaced(word):  # no word starts in such a script: inside a note's word too
            for note_word in self.words:
                if word in note_word and not note_word.startswith(word):
                    found(note_word, INSIDE_QUALITY)
        cutoff = fuzzy_cutoff(len(word))
        if cutoff is not None and self.words:
            from rapidfuzz import fuzz, process  # deferred: a search without notes needs none

            for note_word, score, _ in process.extract(
                word, self.words, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None
            ):
                if typo_near(word, note_word):
                    found(note_word, FUZZY_QUALITY * score / 100.0)
        return {position: score_key(value * NOTE_WEIGHT) for position, value in quality.items()}
