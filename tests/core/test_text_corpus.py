"""Text terms answered from the prepared corpus give exactly what the paper-by-paper check gives,
field boundaries and notes included."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.model.paper import Paper, UserData
from paperdeck.search.corpus import TextCorpus
from paperdeck.search.query import parse_query
from paperdeck.sources import read_source

PAPERS = [
    Paper(id="p:1", title="Graph neural networks", abstract="We study message passing.", keywords=("gnn", "graphs")),
    Paper(id="p:2", title="Message", abstract="passing graphs neural", authors=("Ada Smith", "Bo Li")),
    Paper(id="p:3", title="Large language models", abstract="Large language models reason.", primary_area="NLP"),
    Paper(id="p:4", title="", abstract="", authors=("Smith",)),
]


def slow(text: str, papers: list[Paper], users: dict[str, UserData]) -> list[str]:
    query = parse_query(text)
    return [p.id for p in papers if query.matches(p, users.get(p.id))]  # no corpus: paper by paper


def fast(text: str, papers: list[Paper], users: dict[str, UserData]) -> list[str]:
    corpus = TextCorpus(papers)
    query = parse_query(text)
    required = query.required_ids(users, corpus)
    keep = [p for p in papers if required is None or p.id in required]
    return [p.id for p in keep if query.matches(p, users.get(p.id), corpus)]


@pytest.mark.parametrize(
    "text",
    [
        "title:graph", "abstract:passing", "keyword:gnn", "author:smith", "area:nlp", '"message passing"',
        '"neural networks"', '"networks gnn"', "title:message", '"language models" -title:large',
        "(graph OR smith) -abstract:passing", '"my own words"', "abstract:graphs neural",
    ],
)  # fmt: skip
def test_the_corpus_agrees_with_the_paper_by_paper_check(text: str) -> None:
    users = {"p:4": UserData("p:4", note="My own words here")}
    assert fast(text, PAPERS, users) == slow(text, PAPERS, users)


def test_a_field_match_never_spills_into_the_next_field() -> None:
    corpus = TextCorpus(PAPERS)
    assert corpus.matching("title", b"networks gnn") == frozenset()  # title end + keyword start
    assert corpus.matching("phrase", b"networks") == frozenset({0})
    assert corpus.matching("author", b"smith") == frozenset({1, 3})


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdegilmnoprstuw \"-:", min_size=1, max_size=12))
def test_any_needle_on_the_seeds(text: str) -> None:
    papers = seed_papers()
    assert fast(f"abstract:{text!r}", papers, {}) == slow(f"abstract:{text!r}", papers, {})
    assert fast(f"title:{text}", papers, {}) == slow(f"title:{text}", papers, {})


_SEEDS: list[Paper] = []


def seed_papers() -> list[Paper]:
    if not _SEEDS:
        for path in sorted((Path(__file__).resolve().parents[2] / "seeds").iterdir()):
            _SEEDS.extend(read_source(path).papers)
    return _SEEDS


@pytest.mark.parametrize("text", ["title:graph", '"message passing"', 'abstract:passing "neural"', "author:smith"])
def test_run_query_answers_text_only_filters_from_the_scan_alone(tmp_path: Path, text: str) -> None:
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query
    from paperdeck.store.store import Store

    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_note("p:4", "message passing")
    query = parse_query(text)
    assert query.only_text_terms
    users = store.all_user_data
    searcher = Searcher(store)
    assert run_query(searcher, query, "list") == slow(text, store.papers, users)
    assert searcher.index.built is None  # no words: the search index was not needed


@pytest.mark.parametrize("check_each_below", [0, 10_000])
@pytest.mark.parametrize(
    "text",
    [
        '"message passing" author:smith', 'abstract:neural title:message', '"my own words" author:smith',
        'title:large "language models" abstract:reason', '"language models" author:nobody', 'abstract:graphs "neural"',
    ],
)  # fmt: skip
def test_several_text_terms_agree_scanned_or_checked_paper_by_paper(
    monkeypatch: pytest.MonkeyPatch, check_each_below: int, text: str
) -> None:
    """After the first term, the next ones scan every paper (0) or check the papers left one by
    one (10,000): the same papers either way, notes included."""
    import paperdeck.search.query as query_module

    monkeypatch.setattr(query_module, "CHECK_EACH_BELOW", check_each_below)
    users = {"p:4": UserData("p:4", note="My own words here"), "p:2": UserData("p:2", note="message passing")}
    assert fast(text, PAPERS, users) == slow(text, PAPERS, users)


def test_the_shortest_scan_goes_first_and_no_paper_left_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[str] = []
    matching = TextCorpus.matching

    def spy(self: TextCorpus, field: str, needle: bytes) -> frozenset[int]:
        scanned.append(field)
        return matching(self, field, needle)

    monkeypatch.setattr(TextCorpus, "matching", spy)
    corpus = TextCorpus(PAPERS)
    assert parse_query('"language models" author:nobody').required_ids({}, corpus) == set()
    assert scanned == ["author"]  # the phrase's scan over every abstract is never needed
    assert parse_query('abstract:reason title:large').required_ids({}, corpus) == {"p:3"}
    assert scanned[1:] == ["title"]  # one paper left: the abstract is checked for it alone
