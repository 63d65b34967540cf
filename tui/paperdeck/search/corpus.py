"""The folded texts of many papers laid end to end, field by field, so a text term
(``abstract:protein``, ``"large language"``) is found by scanning bytes at C speed instead of
calling a Python predicate per paper.

A paper's text has five parts — area, authors, title, keywords, abstract — each folded as a
bare word is (:func:`~paperdeck.search.words.fold_named`: case, accents, NFKC, a lone Greek letter
its name; the title rendered as shown) and UTF-8 encoded, and so is a term's value; each part of all papers
is one bytes object, the papers' texts separated by ``\x00``, one paper's authors (keywords) by ``\n``.

How a text term matches (:func:`pattern`): at the start of a word (``lora`` finds "LoRA",
"LoRA-based", "Low-rank (LoRA)", not "Exploration"), or, in the substring form, anywhere (``*lora``
finds "Exploration" too). A word starts where a letter or digit follows anything but an ASCII
letter or digit (after accent folding, the letters a paper's words are nearly all made of).

A value of several words (``"weak baseline"``, ``gpt-4``) is a phrase, as in the review text
(:meth:`WordIndex.phrase_forums <paperdeck.store.review_words.WordIndex.phrase_forums>`): its words
(runs of letters and digits of the folded text) one after another in one title, author, keyword or
abstract, anything but letters, digits and line breaks between them; the first a whole word (in the
substring form, a word ending with it), the middle ones whole words, the last a word starting with
it: ``"weak baseline"`` finds "weak baselines" and "weak, baseline", not "weaker baseline" nor
"weak and baseline". A byte pattern finds the candidates (:func:`pattern`), the exact rule
(:func:`phrase_pattern`) checks each.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from paperdeck.search.words import fold_named, search_title

if TYPE_CHECKING:  # the papers' module, not imported for the first query (its class costs its making)
    import numpy as np

    from paperdeck.model.paper import Paper

#: Field → the parts (0 area, 1 authors, 2 title, 3 keywords, 4 abstract) it looks in; a plain word
#: or phrase looks in several (a word: authors to abstract; a phrase: title to abstract).
SPANS = {"area": (0, 1), "author": (1, 2), "title": (2, 3), "keyword": (3, 4), "abstract": (4, 5)}
SPANS |= {"word": (1, 5), "phrase": (2, 5)}

#: A word: a run of letters and digits (as :func:`paperdeck.store.review_words.review_words` splits).
_WORD = re.compile(r"[^\W_]+")

#: Candidates below which a text term is looked for paper by paper rather than by a scan of every
#: paper's text (:meth:`TextCorpus.mask`'s ``within``).
CHECK_EACH_BELOW = 2_000


@lru_cache(maxsize=256)
def pattern(text: str, inner: bool = False) -> re.Pattern[bytes] | None:
    """The pattern a text term's ``text`` is found by in folded UTF-8 text: the folded text at the
    start of a word (when it starts with a letter or digit), or anywhere (``inner``, or when it
    starts with another character); ``None`` when it folds to nothing. The pattern starts with the
    text itself, so that a search skips along at the speed of a plain ``bytes.find``."""
    folded = fold_named(text)
    if not folded:
        return None
    words = _WORD.findall(folded)
    if len(words) > 1:  # a phrase: what the exact rule keeps and a few more (phrase_pattern)
        first, *rest = (re.escape(word.encode("utf-8", "surrogatepass")) for word in words)
        head = first if inner else first + rb"(?<![a-z0-9]" + first + rb")"
        return re.compile(head + b"".join(rb"[^a-z0-9\n]+" + word for word in rest))
    literal = re.escape(folded.encode("utf-8", "surrogatepass"))
    if inner or not folded[0].isalnum():
        return re.compile(literal)
    return re.compile(literal + rb"(?<![a-z0-9]" + literal + rb")")


@lru_cache(maxsize=256)
def phrase_pattern(text: str, inner: bool = False) -> re.Pattern[str] | None:
    """The exact rule for a value of several words (see the module docstring), over folded text
    (``str``); ``None`` for a value of one word or none (:func:`pattern` alone decides)."""
    words = _WORD.findall(fold_named(text))
    if len(words) < 2:
        return None
    head = "" if inner else r"(?<![^\W_])"
    return re.compile(head + r"(?:[^\w\n]|_)+".join(map(re.escape, words)))


def folded_parts(paper: Paper) -> list[bytes]:
    """The five folded UTF-8 parts of a paper's text (see the module docstring); the title as the
    word index reads it (:func:`~paperdeck.search.words.search_title`: shown, ``C$^3$`` → ``c3``)."""
    parts = [fold_named(paper.primary_area), "\n".join(map(fold_named, paper.authors))]
    title = fold_named(search_title(paper.title))
    parts += [title, "\n".join(map(fold_named, paper.keywords)), fold_named(paper.abstract)]
    return [part.encode("utf-8", "surrogatepass") for part in parts]


def text_has(text: str, term: str, *, inner: bool = False) -> bool:
    """Whether ``text`` (a note, say) has ``term`` as a text term finds it (see :func:`pattern`)."""
    found = pattern(term, inner)
    folded = fold_named(text)
    if found is None or found.search(folded.encode("utf-8", "surrogatepass")) is None:
        return False
    exact = phrase_pattern(term, inner)
    return exact is None or exact.search(folded) is not None


class TextCorpus:
    """The texts of ``papers``, for :meth:`matching` and :meth:`mask`. Building takes a while at
    tens of thousands of papers (do it in a worker); read-only afterwards, and safe across threads.

    Args:
        papers: the papers; positions are indices into this sequence.
    """

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = list(papers)
        chunks: list[list[bytes]] = [[], [], [], [], []]
        for paper in self._papers:
            for part, text in zip(chunks, folded_parts(paper), strict=True):
                part.append(text)
        self._blobs: list[bytes] = []
        self._starts: list[list[int]] = []  # per part: where each paper's text starts in its blob
        for part in chunks:
            starts, at = [], 0
            for text in part:
                starts.append(at)
                at += len(text) + 1
            starts.append(at)  # the end, past the last separator
            self._starts.append(starts)
            self._blobs.append(b"\x00".join(part) + b"\x00")

    def __len__(self) -> int:
        return len(self._papers)

    def holds(self, papers: Sequence[Paper]) -> bool:
        """Whether the corpus was made of exactly these paper objects, in this order."""
        return len(papers) == len(self._papers) and all(map(operator.is_, papers, self._papers))  # at C speed

    def matching(self, field: str, text: str, inner: bool = False) -> frozenset[int]:
        """Positions of the papers whose ``field`` (a key of :data:`SPANS`) has ``text`` as a text
        term finds it (:func:`pattern`): one scan of each part's bytes, and a step per paper
        found (a scan of the abstracts, the longest part, is the slow case)."""
        found = pattern(text, inner)
        if found is None:
            return frozenset()
        search = found.search
        exact = phrase_pattern(text, inner)
        low, high = SPANS[field]
        hits: set[int] = set()
        for part in range(low, high):
            blob, starts = self._blobs[part], self._starts[part]
            match = search(blob)
            while match is not None:
                n = bisect.bisect_right(starts, match.start()) - 1
                if exact is None or exact.search(blob[starts[n] : starts[n + 1] - 1].decode("utf-8", "surrogatepass")):
                    hits.add(n)
                match = search(blob, starts[n + 1])  # the next paper's text: one hit is enough
        return frozenset(hits)

    def contains(self, position: int, field: str, text: str, inner: bool = False) -> bool:
        """Whether the paper at ``position`` has ``text`` in ``field`` (see :meth:`matching`)."""
        found = pattern(text, inner)
        if found is None:
            return False
        exact = phrase_pattern(text, inner)
        low, high = SPANS[field]
        for part in range(low, high):
            starts, blob = self._starts[part], self._blobs[part]
            if found.search(blob, starts[position], starts[position + 1] - 1) is None:
                continue
            part_text = blob[starts[position] : starts[position + 1] - 1].decode("utf-8", "surrogatepass")
            if exact is None or exact.search(part_text) is not None:
                return True
        return False

    def mask(self, field: str, text: str, *, inner: bool = False, within: np.ndarray | None = None) -> np.ndarray:
        """One bool per position: whether the paper's ``field`` has ``text`` (see :meth:`matching`).

        ``within`` (one bool per position): only these papers need be right, the others may be
        ``False`` whatever their text; fewer than :data:`CHECK_EACH_BELOW` are checked one by one
        instead of scanning every paper's text."""
        import numpy as np

        found = np.zeros(len(self._papers), dtype=bool)
        candidates = np.flatnonzero(within) if within is not None else None
        if candidates is not None and len(candidates) < CHECK_EACH_BELOW:
            contains = self.contains
            for n in candidates.tolist():
                if contains(n, field, text, inner):
                    found[n] = True
            return found
        positions = self.matching(field, text, inner)
        if positions:
            found[np.fromiter(positions, dtype=np.int64, count=len(positions))] = True
        return found
