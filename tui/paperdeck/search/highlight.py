"""Which parts of a title a query's words match: what the list highlights.

UI-free: the list asks for spans and styles them. A title word matches when a query word, folded
the same way (case and accents: ``Tramèr`` ~ ``tramer``), is the word or starts it (``diff``
marks ``Diffusion``). Only whole query words count, not typo-tolerant matches: a highlight shows
where the words typed are, never a guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+")

#: Query words shorter than this mark nothing (a single letter would mark half the title).
MIN_TERM = 2


def fold(word: str) -> str:
    """``word`` case-folded with its accents dropped (``"Tramèr"`` → ``"tramer"``)."""
    if word.isascii():
        return word.casefold()
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def highlight_terms(words: Iterable[str]) -> tuple[str, ...]:
    """The folded words to look for, from a query's plain words (each may hold several:
    ``"graph-based"`` gives ``graph`` and ``based``), longest first, without duplicates or
    words shorter than ``MIN_TERM``."""
    found = {fold(part) for word in words for part in _WORD.findall(word)}
    return tuple(sorted((t for t in found if len(t) >= MIN_TERM), key=lambda t: (-len(t), t)))


def title_spans(title: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans of ``title`` to highlight: each title word that one
    of ``terms`` (as :func:`highlight_terms` gives them) starts, from the word's start to the end
    of the matched part. In order, never overlapping; ``[]`` when nothing matches."""
    if not terms:
        return []
    spans: list[tuple[int, int]] = []
    for match in _WORD.finditer(title):
        word = match.group()
        folded = fold(word)
        for term in terms:
            if folded.startswith(term):
                spans.append((match.start(), match.start() + _original_length(word, len(term))))
                break
    return spans


def _original_length(word: str, folded_length: int) -> int:
    """How many characters of ``word`` fold to its first ``folded_length`` folded characters."""
    if word.isascii():
        return folded_length
    for end in range(1, len(word) + 1):
        if len(fold(word[:end])) >= folded_length:
            return end
    return len(word)
