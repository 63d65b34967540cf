"""Titles written in LaTeX are found by the forms a user types or copies: the title as shown
(``$C^3$-Bench`` → ``C³-Bench``), folded as typed (``C3-Bench``, ``C³-Bench``), a Greek letter by
itself or by its name (``λ-GRPO``, ``lambda-GRPO``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.corpus import TextCorpus, text_has
from paperdeck.search.index import SearchIndex
from paperdeck.search.index_file import read_sections, write_sections
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import INDEX_FILE, Searcher, build_index
from paperdeck.search.selection import PaperLookups
from paperdeck.search.words import search_title, words
from paperdeck.store.store import Store


def p(n: int, title: str) -> Paper:
    return Paper(id=f"id{n}", title=title, abstract=f"Abstract number {n} of a paper.")


#: The real titles (ICLR 2026), and the papers that found their typed forms before.
PAPERS = [
    p(0, "C3-OWD: A Curriculum Cross-modal Contrastive Learning Framework for Open-World Detection"),
    p(1, "C$^3$-Bench: Evaluating and Achieving Controllable Code Completion in Code LLM"),
    p(2, "$\\text{UR}^2$: Unify RAG and Reasoning through Reinforcement Learning"),
    p(3, "GRPO-λ: Credit Assignment improves LLM Reasoning"),
    p(4, "$\\lambda$-GRPO: Unifying the GRPO Frameworks with Learnable Token Preferences"),
    p(5, "$A^{4}$-MLRM: Fourfold Attention for Adaptive Hallucination Suppression in Multimodal Large Reasoning Model"),
    p(6, "A Benchmark of Code Completion"),
    p(7, "Tramèr's $\\ell_1$ Attacks"),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C³-Bench", ["c3", "bench"]),
        ("A₄", ["a4"]),
        ("λ-GRPO", ["lambda", "grpo"]),
        ("Λ", ["lambda"]),
        ("ϵ-greedy", ["epsilon", "greedy"]),  # NFKC: the lunate form is ε
        ("τ²-bench", ["tau2", "bench"]),
        ("αβ-CROWN", ["αβ", "crown"]),  # a Greek word is a word, not letters to name
        ("Tramèr", ["tramer"]),
    ],
)
def test_words_fold_as_a_user_types(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_the_title_searched_is_the_title_shown() -> None:
    assert search_title("C$^3$-Bench: x") == "C³-Bench: x"
    assert search_title("$\\lambda$-GRPO") == "λ-GRPO"
    assert search_title("Plain title") == "Plain title"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("C3-Bench", "id1"),
        ("C³-Bench", "id1"),
        ("c3 bench", "id1"),
        ("UR2", "id2"),
        ("UR²", "id2"),
        ("λ-GRPO", "id4"),
        ("lambda-GRPO", "id4"),
        ("GRPO-λ", "id3"),
        ("grpo lambda", "id3"),
        ("A4-MLRM", "id5"),
        ("A⁴-MLRM", "id5"),
        ("l1 attacks", "id7"),
        ("ℓ1 attacks", "id7"),
    ],
)
def test_each_typed_form_finds_its_paper_first(query: str, expected: str) -> None:
    index = SearchIndex(PAPERS)
    assert index.paper_ids(index.search(query).positions[:1]) == [expected]


@pytest.mark.parametrize(
    ("query", "expected"), [("title:c3", {"id0", "id1"}), ("title:ur2", {"id2"}), ('"c3-bench"', {"id1"})]
)
def test_a_title_term_reads_the_title_shown(query: str, expected: set[str]) -> None:
    index, corpus = SearchIndex(PAPERS), TextCorpus(PAPERS)
    lookups = PaperLookups(lambda: PAPERS, dict, lambda: index, lambda: corpus)
    mask = parse_query(query).mask(lookups)
    assert mask is not None
    assert {PAPERS[n].id for n in mask.nonzero()[0]} == expected


def test_an_index_saved_before_titles_were_shown_is_rebuilt_once_with_a_notice(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.import_papers(PAPERS)
    build_index(store)
    path = tmp_path / INDEX_FILE
    header, sections = read_sections(path)
    kept = {name: header[name] for name in ("stamp", "texts")}
    write_sections(path, {"version": 5, **kept}, {name: bytes(view) for name, view in sections.items()})
    notices: list[str] = []
    index = Searcher(Store(tmp_path, lazy=True), notice=notices.append).index.get()
    assert len(notices) == 1 and str(path) in notices[0] and "another paperdeck version" in notices[0]
    assert index.search_ids("C3-Bench")[:1] == ["id1"]
    again: list[str] = []
    Searcher(Store(tmp_path, lazy=True), notice=again.append).index.get()
    assert not again


#: A paper whose every text field holds a Greek letter, an NFKC form or LaTeX: each field term
#: folds its value as a bare word does (``lambda-GRPO`` finds ``λ-GRPO``, and the other way).
FIELDS = Paper(
    id="f1",
    title="$\\lambda$-GRPO: $C^3$ preferences",
    abstract="We tune τ-GRPO and the ε² term of $\\mu$-P with ﬁne tuning.",
    keywords=["β-VAE", "$\\epsilon$-greedy"],
    authors=["Jörg Σ-Smith"],
    primary_area="δ-methods (NFKC: ﬁelds)",
)
OTHER = Paper(id="f2", title="Plain lambda calculus", abstract="GRPO alone.", keywords=["vae"], authors=["Ann Lee"])


@pytest.mark.parametrize(
    "query",
    [
        "title:lambda-GRPO", "title:λ-GRPO", "title:Λ-grpo", 'title:"lambda grpo"', "title:c3", "title:C³",
        "abstract:tau-GRPO", "abstract:τ-grpo", "abstract:epsilon2", "abstract:ε²", "abstract:mu-P", "abstract:μ-p",
        "abstract:fine", "keyword:beta-VAE", "keyword:β-vae", "keyword:epsilon-greedy", "keyword:ϵ-greedy",
        "author:sigma-smith", "author:Σ-Smith", "author:jorg", "area:delta-methods", "area:δ", "area:fields",
        '"lambda-GRPO"', '"tau-grpo and"',
    ],
)  # fmt: skip
def test_every_text_field_folds_its_value_as_a_bare_word(query: str) -> None:
    papers = [FIELDS, OTHER]
    index, corpus = SearchIndex(papers), TextCorpus(papers)
    lookups = PaperLookups(lambda: papers, dict, lambda: index, lambda: corpus)
    mask = parse_query(query).mask(lookups)
    assert mask is not None
    assert {papers[n].id for n in mask.nonzero()[0]} == {"f1"}, query


def test_a_note_and_a_venue_term_fold_alike() -> None:
    assert text_has("Read the λ-GRPO paper", "lambda-grpo") and text_has("lambda-GRPO", "λ-grpo")
    assert text_has("ﬁne", "fine") and not text_has("Plain lambda", "lambda-grpo")


@pytest.mark.parametrize(
    ("pasted", "expected"),
    [
        ("C$^3$-Bench", "id1"),  # the title's source, as copied from OpenReview's page or a BibTeX file
        ("$\\text{UR}^2$: Unify RAG", "id2"),
        ("$\\lambda$-GRPO", "id4"),
        ("$A^{4}$-MLRM", "id5"),
    ],
)
def test_a_pasted_title_source_finds_its_paper_first(pasted: str, expected: str) -> None:
    query = parse_query(pasted)
    assert query.error is None
    index = SearchIndex(PAPERS)
    assert index.paper_ids(index.search(" ".join(query.words)).positions[:1]) == [expected]


def test_pasted_math_is_shown_before_the_query_is_read() -> None:
    # Its parentheses are the formula's, shown, not a group the math left open or closed.
    query = parse_query("query complexity $\\tilde{O}(s^4)$")
    assert query.error is None
    assert query.words == ["query", "complexity", "Õ", "s⁴"]  # as the title shows it
    assert words(" ".join(query.words)) == ["query", "complexity", "o", "s4"]  # and as it is indexed
    assert parse_query("$5 and $").error is None  # a lone dollar is a word like any other
