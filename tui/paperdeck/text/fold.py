"""How every search compares text: the one fold of case, accents and spacing.

The search's words and phrases (:mod:`paperdeck.search.words`, :mod:`paperdeck.search.corpus`), the
word index of the review text (:mod:`paperdeck.store.review_words`) and what tells two follows
apart (:attr:`paperdeck.store.follows.Follow.key`) all fold text with :func:`fold_text`, so that
what one finds the others find too. Its first step, :func:`normalise_text`, is also how two
abstracts are compared (a paper's ``abs:`` id, the merge's matching): :mod:`paperdeck.model.paper`
imports it from here, so there is one of each, below every room that uses them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache


@cache
def _accented() -> re.Pattern[str]:
    """Letters that may carry an accent (Latin, Greek, Cyrillic; and lone combining marks); compiled
    at the first text that is not ASCII, as :func:`_invisible` is."""
    return re.compile("[\u00c0-\u052f\u1e00-\u1fff\u0300-\u036f]")


#: The combining marks :func:`fold_text` drops (``str.translate``: to nothing).
_MARKS = dict.fromkeys(range(0x0300, 0x0370))


@cache
def _invisible() -> re.Pattern[str]:
    """The zero-width characters dropped; compiled at the first text that is not ASCII (a class of
    characters past Latin-1 is compiled into a 64K-entry map)."""
    return re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def normalise_text(text: str) -> str:
    """Return ``text`` folded for comparison: NFKC, case-folded, zero-width removed, whitespace collapsed.

    Two abstracts that differ only in case, line wrapping or spacing normalise to the same string.
    """
    if not text.isascii():
        text = _invisible().sub("", unicodedata.normalize("NFKC", text))
    return " ".join(text.split()).casefold()


def fold_text(text: str) -> str:
    """``text`` folded the way every search compares text: NFKC, case-folded, zero-width characters
    dropped, white space collapsed (:func:`normalise_text`'s fold) and accents
    dropped (``"Florian  Tramèr"`` → ``"florian tramer"``, ``"Ångström"`` → ``"angstrom"``): the
    combining marks (U+0300 to U+036F) of Latin, Greek and Cyrillic letters go, other characters stay
    (``"≠"`` stays); soft hyphens (a line-break hint inside a word: ``"Rea\\u00adsoning"``) go too.

    A compatibility character that decomposes into a space and a mark (``"¨"``) may leave a space
    at either end: split the result to compare words."""
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    text = normalise_text(text)
    if text.isascii() or not _accented().search(text):
        return text
    stripped = unicodedata.normalize("NFKD", text).translate(_MARKS)
    return unicodedata.normalize("NFC", stripped).casefold()


__all__ = ["fold_text", "normalise_text"]
