"""Matched words in titles: the spans the list highlights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paperdeck.search.highlight import highlight_terms, title_spans


def marked(title: str, *words: str) -> list[str]:
    return [title[start:end] for start, end in title_spans(title, highlight_terms(words))]


def test_a_query_word_marks_the_title_words_it_starts() -> None:
    assert marked("Diffusion Models Beat GANs on Image Synthesis", "diff", "gan") == ["Diff", "GAN"]


def test_only_word_starts_match_not_substrings() -> None:
    assert marked("Exploration with LoRA adapters", "lora") == ["LoRA"]
    assert marked("Exploration with LoRA adapters", "ora") == []


def test_case_and_accents_fold() -> None:
    assert marked("Privacy attacks by Tramèr et al.", "tramer") == ["Tramèr"]
    assert marked("Privacy attacks by Tramer et al.", "TRAMÈR") == ["Tramer"]


def test_single_letters_and_empty_queries_mark_nothing() -> None:
    assert marked("A survey of graphs", "a") == []
    assert marked("A survey of graphs") == []


def test_a_hyphenated_query_word_marks_each_part() -> None:
    assert marked("Graph-based retrieval", "graph-based") == ["Graph", "based"]


@given(st.text(max_size=60), st.lists(st.text(max_size=8), max_size=4))
def test_spans_are_in_order_inside_the_title_and_never_overlap(title: str, words: list[str]) -> None:
    spans = title_spans(title, highlight_terms(words))
    at = 0
    for start, end in spans:
        assert at <= start < end <= len(title)
        at = end


def test_typo_matches_are_marked_as_whole_words() -> None:
    terms = highlight_terms(["difusion"], ["diffusion"])
    assert [t[s:e] for t in ["Denoising Diffusion Models"] for s, e in title_spans(t, terms)] == ["Diffusion"]


def test_the_index_gives_the_words_a_query_word_matched_with_a_typo_only() -> None:
    from paperdeck.model.paper import Paper
    from paperdeck.search.index import SearchIndex

    papers = [Paper(id=f"p:{n}", title=title, abstract="") for n, title in
              enumerate(["Diffusion models", "Diffusions everywhere", "Difference equations"])]  # fmt: skip
    index = SearchIndex(papers)
    assert "diffusion" in index.typo_words("difusion")
    assert index.typo_words("diffusion") == ()  # matched as typed and as a prefix: no typo
    assert index.typo_words("") == ()


def test_the_words_of_text_terms_are_marked_but_not_negated_or_inner_ones() -> None:
    from paperdeck.search.highlight import marked_words
    from paperdeck.search.query import parse_query

    query = parse_query('diffusion title:lora "weak baseline" -abstract:survey title:*ora (graph OR author:smith)')
    assert marked_words(query) == ["diffusion", "lora", "weak baseline", "graph", "smith"]
    terms = highlight_terms(marked_words(query))
    assert "survey" not in terms and "ora" not in terms and {"weak", "baseline", "lora"} <= set(terms)


class _ReadWords(list[str]):
    """A vocabulary whose slices read are counted (their words)."""

    read = 0

    def __getitem__(self, at: Any) -> Any:
        if isinstance(at, slice):
            _ReadWords.read += len(range(*at.indices(len(self))))
        return super().__getitem__(at)


def test_the_typo_words_are_the_expansion_s_words_that_do_not_start_the_query_word(
    data_dir: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """:meth:`Vocabulary.typos_of` (what the highlighting marks as typos) is the expansion's words
    that do not start with the query word, for every start of the seed's words and typos of them;
    the thousands of words a short word starts are skipped as a range, not read one by one."""
    from paperdeck.search.index import SearchIndex
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers)
    vocabulary = index._vocabulary
    queries = {"difu", "difusion", "transfomer", "graf", "reinforcment"}
    for word in vocabulary.words[::40]:
        queries.update(word[:n] for n in range(1, len(word) + 1))
        queries.add(word[1:] + word[:1])
    for query in sorted(queries):
        expected = sorted(w for w in vocabulary.expand(query).vocabulary if not w.startswith(query))
        assert sorted(vocabulary.typos_of(query)) == expected, query
        assert index.typo_words(query) == tuple(expected), query
    starting = sum(1 for w in vocabulary.words if w.startswith("d"))
    monkeypatch.setattr(vocabulary, "words", _ReadWords(vocabulary.words))
    vocabulary.typos_of("d")
    assert starting > 100 and _ReadWords.read < starting / 10
