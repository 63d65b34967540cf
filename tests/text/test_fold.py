"""The one text fold (:func:`paperdeck.text.fold.fold_text`) gives what the three copies it replaced
gave: the search's, the review word index's and the follows' key (kept here, frozen, as they were)."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from paperdeck.model.paper import normalise_text
from paperdeck.search.words import words
from paperdeck.store.follows import Follow
from paperdeck.store.review_words import review_words
from paperdeck.text.fold import fold_text

from tests.helpers import SEEDS

_ACCENTED = re.compile("[\u00c0-\u052f\u1e00-\u1fff\u0300-\u036f]")
_MARKS = dict.fromkeys(range(0x0300, 0x0370))
_WORD = re.compile(r"[^\W_]+")


def _old_search_fold(text: str) -> str:
    """``paperdeck.search.words.fold_text`` before the fold had a module of its own."""
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    text = normalise_text(text)
    if text.isascii() or not _ACCENTED.search(text):
        return text
    stripped = unicodedata.normalize("NFKD", text).translate(_MARKS)
    return unicodedata.normalize("NFC", stripped).casefold()


def _old_review_fold(text: str) -> str:
    """``paperdeck.store.review_words._fold`` before."""
    text = normalise_text(text.replace("\u00ad", ""))
    if text.isascii() or not _ACCENTED.search(text):
        return text
    stripped = unicodedata.normalize("NFKD", text).translate(_MARKS)
    return unicodedata.normalize("NFC", stripped).casefold()


def _old_follow_key(value: str) -> str:
    """The value part of ``paperdeck.store.follows.Follow.key`` before."""
    decomposed = unicodedata.normalize("NFKD", normalise_text(value))
    unaccented = unicodedata.normalize("NFC", decomposed.translate(_MARKS)).casefold()
    return " ".join(unaccented.split())


#: Where the follows' key differs from before: it folded every character's marks, the search only
#: accented letters'. A negated relation (U+0338 overlaid: ``≠`` is ``=`` + U+0338) was its plain
#: relation to a follow (``p≠q`` the same follow as ``p=q``) and now is itself, as in the search.
#: (A soft hyphen too, but a follow's value never holds one: :func:`clean_value` drops it.)
FOLLOW_KEY_CHANGED = frozenset("\u00ad↚↛↮⇍⇎⇏∄∉∌∤∦≁≄≇≉≠≢≭≮≯≰≱≴≵≸≹⊀⊁⊄⊅⊈⊉⊬⊭⊮⊯⋠⋡⋢⋣⋪⋫⋬⋭")

CORPUS = [
    "",
    " ",
    "GNNs: a survey",
    "Florian  Tramèr",
    "Ångström-scale",
    "Weak baselines; Ångström-scale",
    "Rea\u00adsoning",
    "zero\u200bwidth\ufeffjoin\u200d",
    "ﬁne-tuning ＬＬＭｓ",  # a ligature, full-width letters
    "Straße İstanbul ǅemal",
    "Ελληνικά ΆΈΉ ὅτι",
    "Кириллица ёЁ й",
    "Tiếng Việt",
    "中文论文 日本語のテキスト がぎぐ 한국어",
    "emoji 🚀 and ™ ½ ² ℌ",
    "e\u0301 combining marks alone \u0300\u0301",
    "a ¨ b ´",  # compatibility characters that decompose to a space and a mark
    "p≠q and x∉A",
    "tabs\tand\nnew lines\r\n",
    "surrogate \ud800 alone",
    "Ǆ ǈ ǋ ﬀ ﬃ",
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ",
]


def _seed_texts() -> list[str]:
    texts: list[str] = []
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        texts += text.splitlines()
        texts += text.split()
    return texts


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    texts = [*CORPUS, *_seed_texts()]
    assert len(texts) > 1_000
    return texts


def test_the_fold_is_the_search_and_review_folds_on_the_corpus_and_the_seeds(corpus: list[str]) -> None:
    for text in corpus:
        folded = fold_text(text)
        assert folded == _old_search_fold(text) == _old_review_fold(text), text
        assert review_words(text) == _WORD.findall(_old_review_fold(text)), text
        assert words(text) == _WORD.findall(_old_search_fold(text) if not text.isascii() else text.casefold()), text


def test_the_follow_key_is_the_folded_value_as_before_on_the_corpus_and_the_seeds(corpus: list[str]) -> None:
    for text in corpus:
        if FOLLOW_KEY_CHANGED.isdisjoint(text):
            assert Follow("keyword", text).key == ("keyword", _old_follow_key(text)), text


def test_the_fold_is_the_old_folds_for_every_character() -> None:
    """Every assigned code point (unassigned and private-use ones have no case nor decomposition)
    alone and inside a word: the search's and the review index's folds agree with the one fold
    everywhere; the follows' key but for :data:`FOLLOW_KEY_CHANGED`."""
    changed: set[str] = set()
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        if unicodedata.category(char) in ("Cn", "Co"):
            continue
        for text in (char, f"a{char}B"):
            folded = fold_text(text)
            if folded != _old_search_fold(text) or folded != _old_review_fold(text):
                pytest.fail(f"U+{point:04X}: {folded!r}")
            if " ".join(folded.split()) != _old_follow_key(text):
                changed.add(char)
    assert changed == FOLLOW_KEY_CHANGED


def test_a_negated_relation_follows_apart_from_its_relation() -> None:
    assert Follow("keyword", "p≠q").key == ("keyword", "p≠q") != Follow("keyword", "p=q").key
    assert Follow("author", " Jane  DOÉ ").key == Follow("author", "jane doe").key
