"""The similarity counts split the folded text as bytes (:func:`term_counts`); they are the counts of
the text split as ``str`` (at every white space ``str.split`` knows, no-break and ideographic
spaces included), term numbers in the order the words are met included."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.search import similar_terms
from paperdeck.search.similar_terms import Vocabulary, term_counts


@dataclass(frozen=True)
class Text:
    id: str
    title: str
    abstract: str
    title_derived: bool = False
    authors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = field(default_factory=tuple)


def _counts_as_text(papers: list[Text]) -> tuple[list[list[tuple[str, int]]], list[str]]:
    """The reference: each paper's (term, count) pairs from the chunk text decoded and split as
    ``str`` (what the build did before it split bytes), and the terms in the order met."""
    chunk = similar_terms._chunk_text(papers)
    tokens = chunk.encode("utf-8", "surrogatepass").translate(similar_terms._FOLD)
    words = tokens.decode("utf-8", "surrogatepass").split()
    vocabulary = Vocabulary()
    rows: list[dict[str, int]] = [{} for _ in papers]
    weights = (similar_terms.TITLE_WEIGHT, similar_terms.KEYWORD_WEIGHT, 1)
    segment = 0
    names: dict[int, str] = {}
    for word in words:
        number = vocabulary[word.encode("utf-8", "surrogatepass")]
        if number in (similar_terms._FIELD_MARK_ID, similar_terms._PAPER_MARK_ID):
            segment += 1
            continue
        assert number != similar_terms._SPLIT_ID  # a str word holds no white space
        if number >= 0:
            names = {n: t for t, n in vocabulary.terms.items()}
            row = rows[segment // 3]
            row[names[number]] = row.get(names[number], 0) + weights[segment % 3]
    return [sorted(row.items()) for row in rows], list(vocabulary.terms)


def _counts(papers: list[Text]) -> tuple[list[list[tuple[str, int]]], list[str]]:
    vocabulary = Vocabulary()
    lengths, terms, tfs = term_counts(papers, vocabulary)
    names = list(vocabulary.terms)
    rows, at = [], 0
    for length in lengths.tolist():
        pairs = zip(terms[at : at + length].tolist(), tfs[at : at + length].tolist(), strict=True)
        rows.append(sorted((names[term], count) for term, count in pairs))
        at += length
    return rows, names


SPACES = [chr(code) for code in range(0x80, sys.maxunicode + 1) if chr(code).isspace()]


@pytest.mark.parametrize("space", SPACES)
def test_every_wide_space_splits_words_as_text_does(space: str) -> None:
    papers = [
        Text("a", f"graph{space}neural networks", f"We{space}study{space}{space}diffusion models{space}"),
        Text("b", "x", f"{space}", keywords=(f"deep{space}learning", space)),
        Text("c", f"Tramèr{space}Müller", f"naïve{space}café and graph{space}graphs", title_derived=True),
    ]
    assert _counts(papers) == _counts_as_text(papers)


ALPHABET = st.sampled_from(["a", "b", "graph", "é", "ﬁ", " ", "\u00a0", "\u3000", "\u2009", "-", "\n", "\x85", "s"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(ALPHABET, max_size=12), st.lists(ALPHABET, max_size=40)), min_size=1, max_size=6))
def test_any_text_counts_as_text_does(pieces: list[tuple[list[str], list[str]]]) -> None:
    papers = [Text(str(n), "".join(title), "".join(abstract)) for n, (title, abstract) in enumerate(pieces)]
    assert _counts(papers) == _counts_as_text(papers)
