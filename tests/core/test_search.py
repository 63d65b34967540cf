"""Ranking: typos, prefixes, acronyms, notes, AND semantics, field weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.core.importer import import_files
from tui.core.paper import Paper
from tui.core.search import SearchIndex, words
from tui.core.store import Store


def p(n: int, title: str, abstract: str = "", keywords: tuple[str, ...] = ()) -> Paper:
    return Paper(id=f"id{n}", title=title, abstract=abstract or f"Abstract {n}.", keywords=keywords)


PAPERS = [
    p(0, "Fast Diffusion Sampling with Few Steps", "We sample from diffusion models quickly."),
    p(1, "Graph Neural Networks for Molecules", "A GNN for chemistry."),
    p(2, "REAP the Experts: Pruning MoE", "We propose REAP, router-weighted expert pruning."),
    p(3, "Speculative Decoding at Scale", "Draft and verify tokens."),
    p(4, "A Survey of Transformers", "Attention is discussed; diffusion is mentioned once."),
    p(5, "Reinforcement Learning from Human Feedback", "RLHF for alignment.", ("alignment",)),
]


@pytest.fixture
def index() -> SearchIndex:
    return SearchIndex(PAPERS)


def top(index: SearchIndex, query: str, n: int = 1) -> list[str]:
    return index.paper_ids(index.search(query).positions[:n])


def test_words_fold_case_and_punctuation() -> None:
    assert words("GNNs: a Survey—of Ω-nets") == ["gnns", "a", "survey", "of", "ω", "nets"]


def test_empty_query_gives_every_paper_in_order(index: SearchIndex) -> None:
    result = index.search("   ")
    assert result.positions == list(range(len(PAPERS)))
    assert result.total == len(PAPERS)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("diffusion", "id0"),  # title beats abstract
        ("difusion", "id0"),  # typo
        ("difusion samplng", "id0"),  # two typos
        ("REAP", "id2"),  # acronym, upper case
        ("specul decod", "id3"),  # word prefixes
        ("decoding speculative", "id3"),  # swapped order
        ("gnn", "id1"),  # initials of the title
        ("alignment", "id5"),  # keyword
    ],
)
def test_expected_paper_ranks_first(index: SearchIndex, query: str, expected: str) -> None:
    assert top(index, query) == [expected]


def test_every_query_word_must_match(index: SearchIndex) -> None:
    assert top(index, "diffusion transformers", 5) == ["id4"]
    assert index.search("zzzzqqq").positions == []


def test_notes_are_searchable_and_can_be_removed(index: SearchIndex) -> None:
    index.set_note("id3", "reproduce the table with the quokka setup")
    assert top(index, "quokka") == ["id3"]
    index.set_note("id3", "")
    assert index.search("quokka").positions == []


def test_markup_and_latex_in_queries_do_not_break_search(index: SearchIndex) -> None:
    for query in ["[bold]", "$\\mathbb{R}$", "[/INST]", "\x1b[31m", "%", "((("]:
        index.search(query)  # must not raise


def test_seed_acronyms_find_their_paper(data_dir: Path, seed_files: list[Path]) -> None:
    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers)
    for acronym in ["MCPMark", "HMNS", "GRACE"]:
        best = store.paper(top(index, acronym)[0])
        assert best is not None and acronym.lower() in best.abstract.lower()
