"""Ranking: typos, prefixes, acronyms, notes, AND semantics, field weights."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.index import SearchIndex, words
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store


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
    assert words("GNNs: a Survey—of Ω-nets") == ["gnns", "a", "survey", "of", "omega", "nets"]


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


# -- tie-breaks, short prefixes, tokenisation, caches ------------------------------------------


def positions_of(index: SearchIndex, query: str) -> list[str]:
    return index.paper_ids(index.search(query).positions)


def test_a_query_that_is_the_whole_title_ranks_before_longer_titles() -> None:
    index = SearchIndex(
        [
            p(0, "Speculative Decoding for Diffusion Language Models at Scale"),
            p(1, "Fast Speculative Decoding"),
            p(2, "Speculative Decoding"),
        ]
    )
    assert positions_of(index, "specul decod") == ["id2", "id1", "id0"]
    assert positions_of(index, "speculative decoding") == ["id2", "id1", "id0"]


def test_words_side_by_side_in_query_order_rank_first() -> None:
    index = SearchIndex(
        [
            p(0, "Neural Operators on a Graph"),  # apart
            p(1, "Neural Graph Operators"),  # side by side, swapped
            p(2, "Graph Neural Operators"),  # side by side, in order
        ]
    )
    assert positions_of(index, "graph neural") == ["id2", "id1", "id0"]
    assert positions_of(index, "neural graph") == ["id1", "id2", "id0"]


def test_ties_keep_catalogue_order_and_keywords_break_them() -> None:
    index = SearchIndex(
        [
            p(0, "Pruning Experts"),
            p(1, "Pruning Layers"),
            p(2, "Pruning Heads", keywords=("pruning",)),
        ]
    )
    assert positions_of(index, "pruning") == ["id2", "id0", "id1"]


def test_field_order_title_keyword_author_abstract() -> None:
    index = SearchIndex(
        [
            p(0, "Zero", "We use quokka data."),
            Paper(id="id1", title="One", abstract="Abstract 1.", authors=("Ada Quokka",)),
            p(2, "Two", keywords=("quokka",)),
            p(3, "Quokka Three"),
        ]
    )
    assert positions_of(index, "quokka") == ["id3", "id2", "id1", "id0"]


def test_an_exact_keyword_beats_a_typo_in_a_title_when_the_word_is_known() -> None:
    index = SearchIndex(
        [
            p(0, "Submartingale Methods"),
            p(1, "Sequential Tests", keywords=("supermartingale",)),
        ]
    )
    assert positions_of(index, "supermartingale") == ["id1", "id0"]
    # Four edits from "submartingale" (typo_near): the prefix alone.
    assert positions_of(index, "supermartingal") == ["id1"]


def test_typos_in_the_first_letters_are_found() -> None:
    index = SearchIndex([p(0, "Diffusion Models"), p(1, "Graph Transformers")])
    for typo in ["difusion", "idffusion", "iffusion", "siffusion", "diffusoin"]:
        assert positions_of(index, typo) == ["id0"], typo
    assert positions_of(index, "grpah") == ["id1"]


def test_short_prefixes_match_titles_but_abstracts_only_exactly() -> None:
    index = SearchIndex(
        [
            p(0, "Zero", "Sampling with s steps."),
            p(1, "One", "Sampling again.", keywords=("sampling",)),
            p(2, "Sampling Fast"),
        ]
    )
    assert positions_of(index, "s") == ["id2", "id0"]  # title prefix; the word "s" in id0
    assert positions_of(index, "sa") == ["id2", "id1"]  # title and keyword prefixes
    assert positions_of(index, "sam") == ["id2", "id1", "id0"]  # abstracts too from 3 letters


def test_acronym_counts_for_the_title_words_it_stands_for() -> None:
    index = SearchIndex(
        [
            p(0, "Graph Neural Networks for Molecules in Chemistry and Biology"),
            p(1, "Graph Neural Networks"),
        ]
    )
    assert positions_of(index, "gnn") == ["id1", "id0"]


def test_index_words_are_the_words_function() -> None:
    """The build folds text with bytes.translate; it must split exactly like ``words``."""
    title = "\ufb01ne-Tuning Straße: Ω-nets, the model\u2019s x² naïve İstanbul"  # fi ligature
    abstract = "Tab\tand\x1fseparator, \uff27\uff2e\uff2e full-width and a lone \ud83d surrogate."
    index = SearchIndex([Paper(id="id0", title=title, abstract=abstract, authors=("José Ñúñez",))])
    for word in {*words(title), *words(abstract), *words("José Ñúñez")}:
        assert positions_of(index, word) == ["id0"], word
    assert positions_of(index, "FINE") == ["id0"]
    assert positions_of(index, "gnn") == ["id0"]


def test_a_note_counts_after_its_words_were_searched_and_cached(index: SearchIndex) -> None:
    assert index.search("quokka").positions == []  # "quokka" is now cached without the note
    index.set_note("id3", "quokka")
    assert top(index, "quokka") == ["id3"]
    assert top(index, "speculative quokka", 5) == ["id3"]
    index.set_note("id3", "")
    assert index.search("quokka").positions == []


def test_set_note_while_searching_in_another_thread() -> None:
    """Notes are swapped whole: a search running in a thread never sees a half-made change."""
    papers = [p(n, f"Paper {n} on diffusion", f"Abstract {n} on sampling.") for n in range(300)]
    index = SearchIndex(papers)
    errors: list[BaseException] = []

    def searching() -> None:
        try:
            for n in range(300):
                result = index.search(f"diffusion note{n % 7}")
                assert len(set(result.positions)) == len(result.positions)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=searching)
    thread.start()
    for n in range(600):
        index.set_note(f"id{n % 300}", f"note{n % 7}" if n % 3 else "")
    thread.join()
    assert not errors
