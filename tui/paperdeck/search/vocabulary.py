"""The word index's vocabulary, and what one query word matches in it: the word itself, the
words it starts (a word of a script written without spaces, :func:`~paperdeck.search.words.unspaced`:
the words holding it anywhere), and (four letters or more) the words it may be with a typo, or else the words
it may start with a typo (:mod:`~paperdeck.search.prefix_typos`), in bands of match quality
(:meth:`Vocabulary.expand`).

The typo candidates of a word are found in buckets of the vocabulary by first and second letter
(:func:`typo_bucket_arrays`, saved with the index; the lists of words of one length made from
them at first need); rapidfuzz scores them (:func:`typo_scores`), but for a word whose typos can only be its
subsequences or the words holding it as one (four letters), which are looked for directly.
"""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain, combinations
from typing import TypeAlias

from paperdeck.search.packed_index import Numbers
from paperdeck.search.scores import FUZZY_QUALITY, INSIDE_QUALITY, PREFIX_QUALITY, fuzzy_cutoff, typo_near
from paperdeck.search.words import unspaced

#: Typo quality factor when the query word is in the vocabulary, or starts a word of it:
#: a title typo then scores at most 4.8, under an exact keyword (6) or author (5.5) hit, so
#: ``supermartingale`` finds its keyword before the title with "Submartingale".
_KNOWN_WORD_TYPO = 0.6

#: A word whose matches (the words it starts, its typos) have at most this many postings (papers per field,
#: added up) is rare enough that a far more common typo of a start may be what was meant
#: (:meth:`Vocabulary.expand`): ``difu``, the start of the authors' own ``Difussion`` alone.
RARE_REACH = 64
#: At most this many words started by the query word are looked at for a common neighbour.
_RARE_WORDS = 8
#: How many times more postings a typo neighbour of a rare word needs than the rare words the
#: query word starts, for the words starting like it to be added (``diffusion``'s thousands
#: against ``difussion``'s dozen).
FAR_MORE_COMMON = 50
#: The quality of those words, times that of a typo of a start (:mod:`~paperdeck.search.prefix_typos`):
#: a title's (10 × 0.68 × 0.1) then ranks below an abstract's prefix (0.85): after every match as typed.
_AFTER_MATCHES = 0.1

MAX_EXPANSIONS = 512  # cached vocabulary expansions (query words)
#: Typo buckets (:func:`typo_bucket_arrays`): per place 0 and 1, the letters, starts and word numbers.
Buckets: TypeAlias = tuple[tuple[str, Numbers, Numbers], ...]


#: Vocabulary words of one match quality: the quality, and ranges ``(start, end)`` of their numbers.
Band = tuple[float, tuple[tuple[int, int], ...]]


class Expansion:
    """The vocabulary words one query word matches, in bands of equal match quality in (0, 1],
    each as ranges ``(start, end)`` of vocabulary numbers (a prefix band is one range); cached
    and shared, so never changed. (A plain class: a dataclass's generated methods cost every
    command that imports the search their compilation, and none is used.)"""

    __slots__ = ("bands", "vocabulary")

    def __init__(self, bands: tuple[Band, ...], vocabulary: frozenset[str]) -> None:
        self.bands = bands
        self.vocabulary = vocabulary


class Vocabulary:
    """The sorted distinct words of a word index, with its typo buckets and the expansions of the
    last query words.

    Args:
        words: the vocabulary, sorted, each word once (the index's posting lists are numbered by
            it).
        buckets: the typo buckets of ``words`` (:func:`typo_bucket_arrays`; made here when
            ``None``).

    Attributes:
        words: the vocabulary.
        bucket_arrays: the typo buckets, as arrays (as saved).
        typo_groups: by place (0 or 1), letter and length, the words of that length with that
            letter there: made at first need (:meth:`typo_group`).
        reach: how many postings the words in some ranges ``(start, end)`` of vocabulary
            numbers have (papers per field, added up), set by the index that owns the
            vocabulary; ``None`` (a vocabulary alone) leaves out the rule it serves (the typos of
            a start a rare word also gets, :meth:`expand`).
    """

    def __init__(self, words: list[str], buckets: Buckets | None = None) -> None:
        self.words = words
        self.bucket_arrays: Buckets = buckets if buckets is not None else typo_bucket_arrays(words)
        self.typo_groups: dict[tuple[int, str, int], list[str]] = {}
        self._expansions: dict[str, Expansion] = {}
        self.reach: Callable[[Iterable[tuple[int, int]]], int] | None = None
        #: The words holding a letter past ASCII, one a line (``\n`` first and last): made at
        #: first need (:meth:`_holding`).
        self._wide: str | None = None

    def __len__(self) -> int:
        return len(self.words)

    def typo_candidates(self, word: str) -> list[list[str]]:
        """Vocabulary words that may be ``word`` with a typo: within 2 letters of its length,
        starting with its first or second letter or having either as their second letter (a
        typo may fall in the first two letters, not both). A quarter of the vocabulary on
        average, so rapidfuzz scores that quarter rather than the whole vocabulary.

        Returned as up to four slices of the buckets (:meth:`typo_group`'s of each length joined,
        shortest first), which may overlap: joining and de-duplicating them cost more than
        scoring a word twice. Only the groups of the lengths asked for are ever made: a
        vocabulary of the whole library is not made into lists of words for a query's few."""
        lengths = range(max(len(word) - 2, 1), len(word) + 3)
        found: list[list[str]] = []
        for place in (0, 1):
            for letter in dict.fromkeys(word[:2]):
                if self._bucket_numbers(place, letter) is not None:
                    found.append(list(chain.from_iterable(self.typo_group(place, letter, n) for n in lengths)))
        return found

    def _word_size(self, number: int) -> int:
        """The length of vocabulary word ``number``."""
        return len(self.words[number])

    def _bucket_numbers(self, place: int, letter: str) -> Numbers | None:
        """The numbers of the vocabulary words with ``letter`` at ``place`` (0 or 1), shortest
        first (ties in vocabulary order); ``None`` when there is none."""
        letters, starts, numbers = self.bucket_arrays[place]
        at = letters.find(letter) if letter else -1
        if at < 0 or starts[at] == starts[at + 1]:
            return None
        return numbers[starts[at] : starts[at + 1]]

    def typo_group(self, place: int, letter: str, length: int) -> list[str]:
        """The vocabulary words of ``length`` letters with ``letter`` at ``place`` (0 or 1), in
        vocabulary order (a run of the bucket, found by bisection on its words' lengths); made at
        first need and kept (a race makes it twice, alike)."""
        key = (place, letter, length)
        made = self.typo_groups.get(key)
        if made is None:
            numbers = self._bucket_numbers(place, letter)
            made = []
            if numbers is not None:
                size = self._word_size
                low = bisect_left(numbers, length, key=size)
                high = bisect_right(numbers, length, low, key=size)
                made = list(map(self.words.__getitem__, numbers[low:high]))
            self.typo_groups[key] = made
        return made

    def expand(self, word: str) -> Expansion:
        """Vocabulary words matching a query word, banded by match quality; cached."""
        cached = self._expansions.get(word)
        if cached is not None:
            return cached
        vocabulary = self.words
        start = bisect_left(vocabulary, word)
        end = bisect_left(vocabulary, word + "\U0010ffff", start)
        bands: list[tuple[float, tuple[tuple[int, int], ...]]] = []
        matched: list[str] = vocabulary[start:end]
        if start < end and vocabulary[start] == word:
            bands.append((1.0, ((start, start + 1),)))
            start += 1
        inside = unspaced(word)  # a script without spaces: no word starts, matched inside words
        if inside and (holding := self._holding(word)):
            matched = [word] * len(bands) + list(map(vocabulary.__getitem__, holding))  # the word, if it is one
            bands.append((INSIDE_QUALITY, _ranges(holding)))
        elif start < end:
            bands.append((PREFIX_QUALITY, ((start, end),)))
        cutoff = fuzzy_cutoff(len(word))
        if cutoff is not None:
            # A word the index knows (or the start of one, as typed) is less likely a typo:
            # its typo neighbours count less.
            typo_quality = FUZZY_QUALITY * (_KNOWN_WORD_TYPO if bands else 1.0)
            typos: defaultdict[float, list[str]] = defaultdict(list)
            # A word in two slices is found twice, with the same score: once is enough.
            for vocab_word, score in dict(typo_scores(word, self.typo_candidates(word), cutoff)).items():
                # Exact and prefix matches are banded above; a word three edits away is no typo.
                if not (word in vocab_word if inside else vocab_word.startswith(word)) and typo_near(word, vocab_word):
                    typos[typo_quality * score / 100.0].append(vocab_word)
            for quality, typo_words in typos.items():
                numbers = (bisect_left(vocabulary, w) for w in typo_words)
                bands.append((quality, tuple((n, n + 1) for n in numbers)))
                matched += typo_words
        if not bands:  # no word is it, starts with it or is it with a typo: maybe a typo of a start
            bands, matched = self._prefix_typos(word)
        elif self.reach is not None:  # rare words only, and a far more common typo of a start?
            bands, matched = self._with_common_prefix_typos(word, bands, matched)
        expansion = Expansion(tuple(bands), frozenset(matched))
        if len(self._expansions) >= MAX_EXPANSIONS:
            self._expansions.clear()
        self._expansions[word] = expansion
        return expansion

    def _holding(self, word: str) -> list[int]:
        """The numbers of the vocabulary words other than ``word`` that hold it (ascending): among
        the words with a letter past ASCII (the only ones that can hold an :func:`unspaced` word),
        laid one a line and searched at C speed."""
        words = self.words
        text = self._wide
        if text is None:
            from itertools import filterfalse

            # Sorted: the words starting past ASCII are the last; before them, those holding one.
            cut = bisect_left(words, "\x80")
            head = words[:cut]
            wide = chain(filterfalse(str.isascii, head) if head else (), words[cut:])
            text = self._wide = "\n" + "\n".join(wide) + "\n"
        found: dict[str, None] = {}
        for match in re.finditer(re.escape(word), text):
            at = match.start()
            found[text[text.rfind("\n", 0, at) + 1 : text.find("\n", at)]] = None
        found.pop(word, None)
        return sorted(bisect_left(words, holding) for holding in found)

    def typos_of(self, word: str) -> list[str]:
        """The words :meth:`expand` matches ``word`` with that do not start with it (its typos,
        the words of a typo of its start; of an :func:`unspaced` word, those not holding it), each
        once, in no set order. Read from the expansion's bands: a range of vocabulary numbers
        whose first and last words start with ``word`` is skipped whole (the vocabulary is
        sorted: every word between them does too), so the thousands of words a short word starts
        are not read one by one."""
        words = self.words
        inside = unspaced(word)  # the words holding it are matched as typed, not with a typo
        found: dict[str, None] = {}
        for _, ranges in self.expand(word).bands:
            for low, high in ranges:
                if low < high and words[low].startswith(word) and words[high - 1].startswith(word):
                    continue
                found.update(dict.fromkeys(w for w in words[low:high] if not _as_typed(word, w, inside)))
        return list(found)

    def _with_common_prefix_typos(
        self, word: str, bands: list[Band], matched: list[str]
    ) -> tuple[list[Band], list[str]]:
        """``bands`` and ``matched`` (what ``word`` matches), with the words starting like a far
        more common typo neighbour added, when ``word`` is no word but starts only rare ones.

        ``difu`` starts only the authors' own misspelling ``difussion`` (a dozen papers), so the
        typos of a start (:meth:`_prefix_typos`) were never tried and ``diffusion`` (thousands)
        was not found. Now, when the words ``word`` starts (at most :data:`_RARE_WORDS` of them)
        and its whole-word typos have at most :data:`RARE_REACH` postings, a whole-word typo neighbour of one of them
        (``diffusion`` of ``difussion``) with :data:`FAR_MORE_COMMON` times their postings, that
        starts with one of ``word``'s typos of a start (``diffu``), adds the words of that start,
        at a quality that ranks them after every match as typed. A word of the vocabulary, or
        one starting common words (``diff``, ``graph``, ``rein``), is left as it was; so is one
        whose rare words have no far more common neighbour (a rare word typed rightly)."""
        from paperdeck.search.prefix_typos import PREFIX_TYPO_LENGTHS, start_quality

        reach = self.reach
        if reach is None or len(word) not in PREFIX_TYPO_LENGTHS or bands[0][0] != PREFIX_QUALITY:
            return bands, matched  # not a word: it starts one (a typo band alone: as it was)
        (start, end), *_ = bands[0][1]
        found = reach(chain.from_iterable(ranges for _, ranges in bands))  # whole-word typos too
        if end - start > _RARE_WORDS or found > RARE_REACH:
            return bands, matched
        added: dict[str, float] = {}
        for rare in self.words[start:end]:
            for quality, ranges in self.expand(rare).bands:
                if quality in (1.0, PREFIX_QUALITY):
                    continue  # the rare word itself, or the words it starts: no typo
                for number in chain.from_iterable(range(low, high) for low, high in ranges):
                    neighbour = self.words[number]
                    if neighbour.startswith(word) or reach(((number, number + 1),)) < FAR_MORE_COMMON * max(found, 1):
                        continue  # matched already, or not far more common
                    # the longest start of the neighbour that is a typo of the word's start
                    for start_of in (neighbour[: len(word) + 1], neighbour[: len(word)]):
                        if (typo_quality := start_quality(word, start_of)) is not None:
                            added[start_of] = typo_quality
                            break
        if not added:
            return bands, matched
        vocabulary, more = self.words, list(bands)
        for start_of, typo_quality in added.items():
            low = bisect_left(vocabulary, start_of)
            high = bisect_left(vocabulary, start_of + "\U0010ffff", low)
            more.append((typo_quality * _AFTER_MATCHES, ((low, high),)))
            matched = matched + vocabulary[low:high]
        return more, matched

    def _prefix_typos(self, word: str) -> tuple[list[Band], list[str]]:
        """The bands of words ``word`` may start with a typo (:mod:`~paperdeck.search.prefix_typos`),
        one per quality, and their words."""
        from paperdeck.search.prefix_typos import prefix_typo_bands

        letters = "".join(dict.fromkeys(self.bucket_arrays[0][0] + self.bucket_arrays[1][0]))
        by_quality: defaultdict[float, list[tuple[int, int]]] = defaultdict(list)
        for quality, (start, end) in prefix_typo_bands(self.words, word, letters):
            by_quality[quality].append((start, end))
        bands = [(quality, tuple(ranges)) for quality, ranges in by_quality.items()]
        matched = [w for _, ranges in bands for start, end in ranges for w in self.words[start:end]]
        return bands, matched


def typo_scores(word: str, slices: list[list[str]], cutoff: float) -> Iterator[tuple[str, float]]:
    """The words of ``slices`` whose ``fuzz.ratio`` to ``word`` is ``cutoff`` or more, with it:
    each slice's in ``process.extract``'s order (best first, ties in the slice's order), the
    slices one after the other.

    Where only a word's subsequences and the words holding it as one can reach the cutoff
    (:func:`subsequence_scores`: a word of four letters), they are found without rapidfuzz,
    whose import (~9 ms of CPU, its package loads every metric) the first query of such a word
    would pay: a short word is typed on the way to every longer one, the first query of a
    session often is one. Once rapidfuzz is imported (the app's warming imports it), it scores
    these too: it is faster at it. Either way the words, their scores and their order are alike."""
    by_length = subsequence_scores(len(word), cutoff) if "rapidfuzz.process" not in sys.modules else None
    if by_length is not None:
        return chain.from_iterable(subsequence_typos(word, candidates, by_length) for candidates in slices)
    from rapidfuzz import fuzz, process  # deferred: a query without typos needs none

    return (
        (found, score)
        for candidates in slices
        for found, score, _ in process.extract(word, candidates, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
    )


def ratio(size: int, length: int, common: int) -> float:
    """``fuzz.ratio`` of two words of ``size`` and ``length`` letters whose longest common
    subsequence has ``common`` letters, computed as rapidfuzz does (its Indel distance, normalized)."""
    total = size + length
    return (1.0 - (total - 2 * common) / total) * 100.0 if total else 100.0


#: :func:`subsequence_scores` by word size and cutoff.
_SUBSEQUENCE_SCORES: dict[tuple[int, float], dict[int, float] | None] = {}


def subsequence_scores(size: int, cutoff: float) -> dict[int, float] | None:
    """For a word of ``size`` letters, by the length of a typo candidate (within 2 letters,
    as :meth:`Vocabulary.typo_candidates`), the ``fuzz.ratio`` a candidate of that length
    reaches when it is a subsequence of the word or holds the word as one, where that is the
    only way to reach ``cutoff`` (lengths where none can are left out); ``None`` when some
    length reaches it with fewer letters in common (the candidates must then be scored)."""
    key = (size, cutoff)
    if key not in _SUBSEQUENCE_SCORES:
        scores: dict[int, float] | None = {}
        for length in range(max(size - 2, 1), size + 3):
            most = min(size, length)
            if ratio(size, length, most - 1) >= cutoff:
                scores = None
                break
            if ratio(size, length, most) >= cutoff:
                scores[length] = ratio(size, length, most)  # type: ignore[index]
        _SUBSEQUENCE_SCORES[key] = scores
    return _SUBSEQUENCE_SCORES[key]


def subsequence_typos(word: str, candidates: list[str], by_length: dict[int, float]) -> list[tuple[str, float]]:
    """The words of ``candidates`` (shortest first) that are a subsequence of ``word`` or hold it
    as one, each with its length's score in ``by_length`` (lengths not there are not looked at),
    best first, ties in the candidates' order."""
    found: list[tuple[str, float]] = []
    size = len(word)
    for length, score in by_length.items():
        low = bisect_left(candidates, length, key=len)
        these = candidates[low : bisect_right(candidates, length, low, key=len)]
        if not these:
            continue
        if length == size:
            hits = [candidate for candidate in these if candidate == word]
        elif length < size:
            kept = {"".join(letters) for letters in combinations(word, length)}
            hits = [candidate for candidate in these if candidate in kept]
        else:  # the word's letters in order, anything between them, on one line
            pattern = "^[^\n]*?" + "[^\n]*?".join(map(re.escape, word)) + "[^\n]*$"
            hits = re.findall(pattern, "\n".join(these), re.MULTILINE)
        found += [(hit, score) for hit in hits]
    found.sort(key=_best_first)  # stable: ties keep the candidates' order (shorter first)
    return found


def _best_first(found: tuple[str, float]) -> float:
    return -found[1]


def _as_typed(word: str, found: str, inside: bool) -> bool:
    """Whether the vocabulary word ``found`` matches ``word`` as typed: starts with it, or holds it
    (``inside``: ``word`` is :func:`unspaced`)."""
    return word in found if inside else found.startswith(word)


def _ranges(numbers: list[int]) -> tuple[tuple[int, int], ...]:
    """Ascending vocabulary ``numbers`` as ranges ``(start, end)``, neighbours joined."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and ranges[-1][1] == number:
            ranges[-1][1] += 1
        else:
            ranges.append([number, number + 1])
    return tuple((low, high) for low, high in ranges)


def typo_bucket_arrays(vocabulary: list[str]) -> tuple[tuple[str, array[int], array[int]], ...]:
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
        starts = array("q", accumulate((len(groups[letter]) for letter in letters), initial=0))
        numbers = array("I", chain.from_iterable(groups[letter] for letter in letters))
        made.append((letters, starts, numbers))
    return tuple(made)


__all__ = [
    "FAR_MORE_COMMON",
    "MAX_EXPANSIONS",
    "RARE_REACH",
    "Band",
    "Buckets",
    "Expansion",
    "Vocabulary",
    "ratio",
    "subsequence_scores",
    "subsequence_typos",
    "typo_bucket_arrays",
    "typo_scores",
]
