"""Words for the search index: how titles, keywords, authors and abstracts are split and folded.

A word is a run of letters and digits, case- and accent-folded (:func:`~paperdeck.text.fold.fold_text`: ``"GNNs: a
survey"`` → ``gnns``, ``a``, ``survey``; ``Tramèr`` → ``tramer``). For speed at tens of thousands of
papers, a paper's four fields are folded in one C-level ``bytes.translate`` pass; non-ASCII words
are re-split by :func:`words`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from itertools import chain, filterfalse
from typing import Protocol

from paperdeck.text.fold import fold_text

_WORD = re.compile(r"[^\W_]+")
_FIELD_SEP = "\x1f"


class IndexedPaper(Protocol):
    """What the search and similarity indexes read of a paper: a
    :class:`~paperdeck.model.paper.Paper`, or the same fields read alone from the catalogue
    file (:class:`paperdeck.store.catalogue.IndexedText`)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def abstract(self) -> str: ...
    @property
    def title_derived(self) -> bool: ...
    @property
    def authors(self) -> Sequence[str]: ...
    @property
    def keywords(self) -> Sequence[str]: ...


def _fold_table() -> bytes:
    """A ``bytes.translate`` table for UTF-8 text: ASCII letters lower-cased, ASCII digits kept,
    other ASCII bytes (punctuation, spaces, controls) to spaces; the field separator and every
    non-ASCII byte kept (words with those are re-split by :func:`words`)."""
    table = bytearray(range(256))
    for byte in range(128):
        char = chr(byte)
        table[byte] = ord(char.lower()) if char.isalnum() else 0x20
    table[ord(_FIELD_SEP)] = ord(_FIELD_SEP)
    return bytes(table)


_FOLD = _fold_table()


def words(text: str) -> list[str]:
    """The alphanumeric words of ``text``, folded by :func:`~paperdeck.text.fold.fold_text`.

    ``"GNNs: a survey"`` gives ``["gnns", "a", "survey"]``; ``"Tramèr"`` gives ``["tramer"]``.
    """
    return _WORD.findall(fold_text(text) if not text.isascii() else text.casefold())


def fold_fields(paper: IndexedPaper) -> list[str]:
    """Title, keywords, authors and abstract, each folded to space-separated words by one
    C-level pass (non-ASCII words still to be re-split by :func:`words`)."""
    texts = (paper.title, " ; ".join(paper.keywords), " ; ".join(paper.authors), paper.abstract)
    doc = _FIELD_SEP.join(texts)
    if not doc.isascii():
        doc = unicodedata.normalize("NFKC", doc)
    folded = doc.encode("utf-8", "surrogatepass").translate(_FOLD)
    fields = folded.decode("utf-8", "surrogatepass").split(_FIELD_SEP)
    if len(fields) != len(texts):  # the separator occurs in the text itself
        fields = [" ".join(words(text)) for text in texts]
    return fields


def word_list(text: str) -> list[str]:
    """The :func:`words` of a folded field, in order."""
    tokens = text.split()
    if text.isascii():
        return tokens
    return [w for token in tokens for w in (words(token) if not token.isascii() else (token,))]


def word_set(text: str) -> set[str]:
    """The distinct :func:`words` of a folded field."""
    tokens = set(text.split())
    if not text.isascii():
        odd = list(filterfalse(str.isascii, tokens))
        tokens.difference_update(odd)
        tokens.update(chain.from_iterable(map(words, odd)))
    return tokens


__all__ = ["IndexedPaper", "fold_fields", "word_list", "word_set", "words"]
