"""Words for the search index: how titles, keywords, authors and abstracts are split and folded.

A word is a run of letters and digits, case- and accent-folded (:func:`~paperdeck.text.fold.fold_text`: ``"GNNs: a
survey"`` → ``gnns``, ``a``, ``survey``; ``Tramèr`` → ``tramer``). For speed at tens of thousands of
papers, a paper's four fields are folded in one C-level ``bytes.translate`` pass; non-ASCII words
are re-split by :func:`words`.

A title is indexed as it is shown (:func:`search_title`: its LaTeX rendered by the one renderer,
:func:`paperdeck.model.safe_text.shown_line`), folded as a user types it: NFKC makes ``C$^3$-Bench``'s
``C³`` the word ``c3`` and ``$A_{4}$`` ``a4``, and a Greek letter standing alone is its name
(``$\\lambda$-GRPO`` and ``λ-GRPO``: ``lambda``), in the text as in the query, so that the forms
copied from a paper or typed on a keyboard find it alike.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache
from itertools import chain, filterfalse
from typing import Protocol

from paperdeck.model.safe_text import has_markup, shown_line
from paperdeck.text.fold import fold_text

_WORD = re.compile(r"[^\W_]+")
_FIELD_SEP = "\x1f"
#: A letter of a script written without spaces between words: Thai, Lao, Myanmar, Khmer, the kana,
#: the CJK ideographs (NFKC makes half-width kana full-width first). A run of them is one "word"
#: (:func:`words`) that may hold many: a query word holding one is matched inside runs too.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\U00020000-\U0003ffff]"
)


def unspaced(word: str) -> bool:
    """Whether ``word`` holds a letter of a script written without spaces (CJK, kana, Thai…):
    such a word has no word starts to match from, so the search matches it inside words
    (``言語`` in ``大規模言語モデル``). ASCII words never do (one C-level check)."""
    return not word.isascii() and _UNSPACED.search(word) is not None


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

    ``"GNNs: a survey"`` gives ``["gnns", "a", "survey"]``; ``"Tramèr"`` gives ``["tramer"]``;
    ``"C³-Bench"`` (NFKC) ``["c3", "bench"]``; a Greek letter alone (or with digits) is its name, as
    typed on a keyboard and as a LaTeX source says it: ``"λ-GRPO"`` gives ``["lambda", "grpo"]``,
    ``"τ²"`` ``["tau2"]``.
    """
    if text.isascii():
        return _WORD.findall(text.casefold())
    return [word if word.isascii() else _named(word) for word in _WORD.findall(fold_text(text))]


@cache
def _letter_names() -> dict[str, str]:
    """Each Greek letter, folded (``λ``, ``ε``), → its LaTeX name (``lambda``, ``epsilon``): from the
    renderer's own table of symbol macros (:data:`paperdeck.text.latex_symbols.SYMBOLS`), the
    plain name before a ``var`` form; made at the first title with a Greek letter."""
    from paperdeck.text.latex_symbols import SYMBOLS

    names: dict[str, str] = {}
    pairs = (line.split("\t") for line in SYMBOLS.split("\n") if line.count("\t") == 1)
    for name, char in sorted(pairs, key=lambda pair: (pair[0].startswith("var"), len(pair[0]))):
        if len(char) == 1 and "\u0370" <= char <= "\u03ff" and name.isalpha() and name.islower():
            folded = fold_text(char)
            if len(folded) == 1 and folded.isalpha():
                names.setdefault(folded, name)
    return names


def search_title(title: str) -> str:
    """``title`` as the search indexes it: as every output shows it (LaTeX and Markdown rendered,
    :func:`~paperdeck.model.safe_text.shown_line`: ``$\\lambda$-GRPO`` → ``λ-GRPO``, ``C$^3$`` →
    ``C³``), to be folded as :func:`words` folds text (NFKC: ``C³`` → ``c3``; a Greek letter named:
    ``λ`` → ``lambda``). A title without markup is itself."""
    return shown_line(title) if has_markup(title) else title


def _named(word: str) -> str:
    """A folded word that is a Greek letter, or one and digits, with the letter's name for it
    (``λ`` → ``lambda``, ``τ2`` → ``tau2``): as a keyboard types it. Other words as they are."""
    name = _letter_names().get(word[0])
    return word if name is None or not (len(word) == 1 or word[1:].isdigit()) else name + word[1:]


def fold_named(text: str) -> str:
    """``text`` folded as every search folds it (:func:`~paperdeck.text.fold.fold_text`: NFKC, case,
    accents, spacing), and each Greek letter standing alone (or with digits) named as :func:`words`
    names it (``λ-GRPO`` → ``lambda-grpo``), the rest kept (punctuation, line breaks): the text a
    field term (``title:``, ``abstract:``, ``author:``, a phrase…) is looked for in, and the term's
    value, so that a field term folds as a bare word does."""
    folded = fold_text(text)
    return folded if folded.isascii() else _WORD.sub(_named_word, folded)


def _named_word(match: re.Match[str]) -> str:
    word = match.group()
    return word if word.isascii() else _named(word)


def fold_fields(paper: IndexedPaper) -> list[str]:
    """Title (as :func:`search_title` gives it), keywords, authors and abstract, each folded to
    space-separated words by one C-level pass (non-ASCII words still to be re-split by :func:`words`)."""
    texts = (search_title(paper.title), " ; ".join(paper.keywords), " ; ".join(paper.authors), paper.abstract)
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


__all__ = ["IndexedPaper", "fold_fields", "fold_named", "search_title", "unspaced", "word_list", "word_set", "words"]
