"""Which parts of a text a query's words match: what the list (titles), the detail pane and the
reader (title, authors, abstract) highlight, all through :func:`text_spans`.

UI-free: the screens ask for spans and style them. A word of the text matches when a term, folded
the same way (case and accents: ``Tramèr`` ~ ``tramer``), is the word or starts it (``diff``
marks ``Diffusion``). The terms are the query's words and the words the search matched them to
with a typo (``difusion`` marks "Diffusion": :meth:`SearchIndex.typo_words
<paperdeck.search.index.SearchIndex.typo_words>`), so that a highlight shows why a paper was found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperdeck.search.query import Query
    from paperdeck.search.query_terms import Node

_WORD = re.compile(r"[^\W_]+")

#: Query words shorter than this mark nothing (a single letter would mark half the title).
MIN_TERM = 2


def fold(word: str) -> str:
    """``word`` case-folded with its accents dropped (``"Tramèr"`` → ``"tramer"``)."""
    if word.isascii():
        return word.casefold()
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


#: The terms whose words are marked (words under ``OR``, and text terms of the texts shown).
_MARKED_FIELDS = frozenset({"word", "phrase", "title", "author", "keyword", "area", "abstract"})


def marked_words(query: Query) -> list[str]:
    """The words a query found papers by, to mark: its plain words, then the words of its text
    terms (``title:lora``, a phrase's each word) that are not negated, in the order typed; not
    those of the substring form (``title:*ora``: inside words, which a mark at a word start would
    miss)."""
    found = list(query.words)

    def walk(node: Node) -> None:
        from paperdeck.search.query_terms import Group

        if isinstance(node, Group):
            if node.kind != "NOT":
                for child in node.children:
                    walk(child)
        elif node.field in _MARKED_FIELDS and not node.value.startswith("*"):
            found.append(node.value)

    if query.tree is not None:
        walk(query.tree)
    return found


def highlight_terms(words: Iterable[str], typo_words: Iterable[str] = ()) -> tuple[str, ...]:
    """The folded words to look for, from a query's plain words (each may hold several:
    ``"graph-based"`` gives ``graph`` and ``based``) and the words the search matched them to with
    a typo (``typo_words``), longest first, without duplicates or words shorter than ``MIN_TERM``."""
    found = {fold(part) for word in (*words, *typo_words) for part in _WORD.findall(word)}
    return tuple(sorted((t for t in found if len(t) >= MIN_TERM), key=lambda t: (-len(t), t)))


def text_spans(text: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    """The ``(start, end)`` character spans of ``text`` to highlight: each word that one of
    ``terms`` (as :func:`highlight_terms` gives them) starts, from the word's start to the end of
    the matched part; a term in a script written without spaces (:func:`~paperdeck.search.words.unspaced`:
    CJK, Thai…) wherever it is inside a word, as the search finds it. In order, never
    overlapping; ``[]`` when nothing matches."""
    if not terms:
        return []
    from paperdeck.search.words import unspaced

    inside = tuple(term for term in terms if unspaced(term))
    spans: list[tuple[int, int]] = []
    for match in _WORD.finditer(text):
        word = match.group()
        folded = fold(word)
        for term in terms:
            if folded.startswith(term):
                spans.append((match.start(), match.start() + _original_length(word, len(term))))
                break
        else:
            if inside and not word.isascii():
                start = match.start()
                spans += [(start + low, start + high) for low, high in _inside_spans(word, folded, inside)]
    return spans


def _inside_spans(word: str, folded: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    """The spans of ``word`` (folded: ``folded``) where ``terms`` occur inside it, longest term
    first at each place, in order, never overlapping."""
    found: list[tuple[int, int]] = []
    at = 0
    while at < len(folded):
        term = next((term for term in terms if folded.startswith(term, at)), None)
        if term is None:
            at += 1
            continue
        low = _original_length(word, at) if at else 0
        found.append((low, _original_length(word, at + len(term))))
        at += len(term)
    return found


#: The list's name for :func:`text_spans` (it highlights titles).
title_spans = text_spans


def _original_length(word: str, folded_length: int) -> int:
    """How many characters of ``word`` fold to its first ``folded_length`` folded characters."""
    if word.isascii():
        return folded_length
    for end in range(1, len(word) + 1):
        if len(fold(word[:end])) >= folded_length:
            return end
    return len(word)
