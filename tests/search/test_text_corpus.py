"""Text terms answered from the prepared corpus give exactly what a plain paper-by-paper check of
the folded fields gives — word starts, the substring form, field boundaries and notes included —
scanned over every paper or checked for a few."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.model.paper import Paper, UserData
from paperdeck.search.corpus import TextCorpus
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import parse_query
from paperdeck.search.selection import PaperLookups
from paperdeck.search.words import fold_text
from paperdeck.sources import read_source

PAPERS = [
    Paper(id="p:1", title="Graph neural networks", abstract="We study message passing.", keywords=("gnn", "graphs")),
    Paper(id="p:2", title="Message", abstract="passing graphs neural", authors=("Ada Smith", "Bo Li")),
    Paper(id="p:3", title="Large language models", abstract="Large language models reason.", primary_area="NLP"),
    Paper(id="p:4", title="", abstract="", authors=("Smith",)),
    Paper(id="p:5", title="Exploration with LoRA-based (LoRA) adapters", abstract="Self-attention, “quoted” words."),
]


def _phrase_in(text: str, words: list[str], inner: bool) -> bool:
    """The reference for a phrase: the folded ``text``'s words (runs of letters and digits), line by
    line, hold ``words`` one after another: the first whole (``inner``: a word ending with it), the
    middle ones whole, the last a word's start."""
    count = len(words)
    for line in text.split("\n"):
        tokens = re.findall(r"[^\W_]+", line)
        for i in range(len(tokens) - count + 1):
            first = tokens[i].endswith(words[0]) if inner else tokens[i] == words[0]
            if first and tokens[i + 1 : i + count - 1] == words[1:-1] and tokens[i + count - 1].startswith(words[-1]):
                return True
    return False


def _has(text: str, value: str) -> bool:
    """The reference: ``value`` (folded, ``*``-led: anywhere) in ``text`` (folded) at a word start,
    a position not after an ASCII letter or digit, when ``value`` starts with a letter or digit; a
    value of several words is a phrase (:func:`_phrase_in`)."""
    inner, value = value.startswith("*"), fold_text(value.strip("*"))
    text = fold_text(text)
    if not value:
        return False
    if len(words := re.findall(r"[^\W_]+", value)) > 1:
        return _phrase_in(text, words, inner)
    starts = [i for i in range(len(text)) if text.startswith(value, i)]
    if inner or not value[0].isalnum():
        return bool(starts)
    return any(i == 0 or not (text[i - 1].isascii() and text[i - 1].isalnum()) for i in starts)


def _fields(paper: Paper, field: str) -> list[str]:
    texts = {"title": [paper.title], "abstract": [paper.abstract], "author": list(paper.authors)}
    texts |= {"keyword": list(paper.keywords), "area": [paper.primary_area]}
    texts["phrase"] = texts["title"] + texts["keyword"] + texts["abstract"]
    return texts[field]


def slow(field: str, value: str, papers: list[Paper], users: dict[str, UserData]) -> list[str]:
    """The papers a ``field`` term (``phrase``: a phrase, which looks in the note too) keeps, checked
    paper by paper with :func:`_has`."""
    kept = []
    for paper in papers:
        note = users[paper.id].note if paper.id in users else ""
        if any(_has(text, value) for text in _fields(paper, field)) or (field == "phrase" and _has(note, value)):
            kept.append(paper.id)
    return kept


def fast(text: str, papers: list[Paper], users: dict[str, UserData], within: np.ndarray | None = None) -> list[str]:
    index, corpus = SearchIndex(papers), TextCorpus(papers)
    mask = parse_query(text).mask(PaperLookups(lambda: papers, lambda: users, lambda: index, lambda: corpus), within)
    assert mask is not None
    return [p.id for n, p in enumerate(papers) if mask[n] and (within is None or within[n])]


TERMS = [
    ("title", "graph"), ("abstract", "passing"), ("keyword", "gnn"), ("author", "smith"), ("area", "nlp"),
    ("phrase", "message passing"), ("phrase", "neural networks"), ("phrase", "networks gnn"), ("title", "message"),
    ("title", "lora"), ("title", "*lora"), ("title", "(lora"), ("title", "ora"), ("title", "*ora"),
    ("abstract", "attention"), ("abstract", "quoted"), ("abstract", "*ttention"), ("phrase", "my own words"),
    ("author", "li"), ("author", "smith bo"),
]  # fmt: skip


def _typed(field: str, value: str) -> str:
    return f'"{value}"' if field == "phrase" else f'{field}:"{value}"'


@pytest.mark.parametrize(("field", "value"), TERMS)
def test_the_corpus_agrees_with_the_paper_by_paper_check(field: str, value: str) -> None:
    users = {"p:4": UserData("p:4", note="My own words here")}
    expected = slow(field, value, PAPERS, users)
    assert fast(_typed(field, value), PAPERS, users) == expected
    some = np.array([True, False, True, True, True])  # checked one by one
    assert fast(_typed(field, value), PAPERS, users, some) == [p for p in expected if p != "p:2"]


def test_word_starts_and_the_substring_form() -> None:
    assert fast("title:lora", PAPERS, {}) == ["p:5"]  # LoRA-based, (LoRA); not Exploration
    assert fast("title:ora", PAPERS, {}) == []
    assert fast("title:*ora", PAPERS, {}) == ["p:5"]
    assert fast("abstract:attention", PAPERS, {}) == ["p:5"]  # after the hyphen of Self-attention
    assert fast("abstract:quoted", PAPERS, {}) == ["p:5"]  # after a curly quote


def test_a_phrase_is_its_words_one_after_another_whatever_between() -> None:
    titles = ["Weak, baselines!", "weak and baseline", "weaker baseline", "a weak-baseline study",
              "Weak\u2014Baseline", "GPT 4 vs GPT-4o"]  # fmt: skip
    papers = [Paper(id=f"q:{n}", title=title, abstract="") for n, title in enumerate(titles, start=1)]
    assert fast('title:"weak baseline"', papers, {}) == ["q:1", "q:4", "q:5"]
    assert fast('"*eak baseline"', papers, {}) == ["q:1", "q:4", "q:5"]  # not "weaker"
    assert fast("title:weak-baseline", papers, {}) == ["q:1", "q:4", "q:5"]
    assert fast("title:gpt-4", papers, {}) == ["q:6"]
    assert fast('title:"baseline weak"', papers, {}) == []


def test_a_field_match_never_spills_into_the_next_field() -> None:
    corpus = TextCorpus(PAPERS)
    assert corpus.matching("title", "networks gnn") == frozenset()  # title end + keyword start
    assert corpus.matching("phrase", "networks") == frozenset({0})
    assert corpus.matching("author", "smith") == frozenset({1, 3})
    assert corpus.matching("author", "smith bo") == frozenset()  # never across two authors


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdegilmnoprstuw *-:", min_size=1, max_size=12))
def test_any_needle_on_the_seeds(text: str) -> None:
    papers = seed_papers()
    value = text.strip()
    if not fold_text(value.strip("*")) or '"' in value:
        return
    for field in ("abstract", "title"):
        assert fast(_typed(field, value), papers, {}) == slow(field, value, papers, {})


_SEEDS: list[Paper] = []


def seed_papers() -> list[Paper]:
    if not _SEEDS:
        for path in sorted((Path(__file__).resolve().parents[2] / "seeds").iterdir()):
            _SEEDS.extend(read_source(path).papers)
    return _SEEDS


@pytest.mark.parametrize("text", ["title:graph", '"message passing"', 'abstract:passing "neural"', "author:smith"])
def test_run_query_answers_text_only_filters_without_the_search_index(tmp_path: Path, text: str) -> None:
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query
    from paperdeck.store.store import Store

    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_note("p:4", "message passing")
    query = parse_query(text)
    assert query.only_text_terms
    searcher = Searcher(store)
    expected = fast(text, store.papers, store.all_user_data)
    assert run_query(searcher, query, "list") == expected
    assert searcher.index.built is None  # no words: the search index was not needed


@pytest.mark.parametrize("check_each_below", [0, 10_000])
@pytest.mark.parametrize(
    "text",
    [
        '"message passing" author:smith', 'abstract:neural title:message', '"my own words" author:smith',
        'title:large "language models" abstract:reason', '"language models" author:nobody', 'abstract:graphs "neural"',
        '-"message passing" -author:smith', '(title:graph OR "my own") -abstract:passing',
    ],
)  # fmt: skip
def test_several_text_terms_agree_scanned_or_checked_paper_by_paper(
    monkeypatch: pytest.MonkeyPatch, check_each_below: int, text: str
) -> None:
    """After the first term, the next ones scan every paper (0) or check the papers left one by
    one (10,000): the same papers either way, notes included."""
    import paperdeck.search.corpus as corpus_module

    users = {"p:4": UserData("p:4", note="My own words here"), "p:2": UserData("p:2", note="message passing")}
    monkeypatch.setattr(corpus_module, "CHECK_EACH_BELOW", 0)
    expected = fast(text, PAPERS, users)
    monkeypatch.setattr(corpus_module, "CHECK_EACH_BELOW", check_each_below)
    assert fast(text, PAPERS, users) == expected
