"""A short word that starts no word is tried as a typo of a word's start
(:mod:`paperdeck.search.prefix_typos`): ``difu`` finds the diffusion papers ``difusion`` finds,
typo hits below the exact ones, in a bounded number of look-ups, and a query that found something
ranks as it did."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search import prefix_typos
from paperdeck.search.index import SearchIndex
from paperdeck.search.prefix_typos import PREFIX_TYPO_LENGTHS, prefix_typo_bands, variants
from paperdeck.search.vocabulary import Vocabulary
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SEEDS

PAPERS = [
    Paper(id="openreview:A", title="Fast diffusion sampling", abstract="We sample."),
    Paper(id="openreview:B", title="Diffusers for images", abstract="Images made."),
    Paper(id="openreview:C", title="A difficult benchmark", abstract="It is hard."),
    Paper(id="openreview:D", title="Graph networks", abstract="Nodes and edges."),
]


def _ids(index: SearchIndex, query: str) -> list[str]:
    return index.ids_at(index.search(query).positions)


def test_a_typo_of_a_start_finds_what_the_whole_word_with_a_typo_finds() -> None:
    index = SearchIndex(PAPERS)
    assert _ids(index, "difusion") == ["openreview:A"]
    found = _ids(index, "difu")
    # diffu… (a letter left out) before diff… (a letter changed): both one typo from the start
    assert found[0] == "openreview:A" and set(found[1:]) == {"openreview:B", "openreview:C"}
    assert "openreview:D" not in found
    assert _ids(index, "difu sampling") == ["openreview:A"]
    assert "diffusion" in index.typo_words("difu"), "highlighted as a typo"
    # Swapped neighbours, and exact hits first when another word of the query is exact.
    assert _ids(index, "grpah") == ["openreview:D"]


def test_only_a_word_that_matches_nothing_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    bands = prefix_typo_bands

    def counted(vocabulary: Sequence[str], word: str, letters: str) -> list[tuple[float, tuple[int, int]]]:
        tried.append(word)
        return bands(vocabulary, word, letters)

    monkeypatch.setattr(prefix_typos, "prefix_typo_bands", counted)
    vocabulary = Vocabulary(sorted({"diffusion", "diffusers", "difficult", "fast", "graph", "sampling"}))
    for found in ("diffusion", "diff", "difusion", "sampl", "grap"):
        assert vocabulary.expand(found).bands
    assert tried == []
    assert vocabulary.expand("difu").bands and tried == ["difu"]
    assert not vocabulary.expand("zzzz").bands and tried[-1] == "zzzz"
    assert not vocabulary.expand("zzzzzzzzzzzz").bands  # too long: no look-up at all
    assert prefix_typo_bands(vocabulary.words, "zzz", "z") == []


class _Counted(list[str]):
    """A vocabulary that counts the words read from it (a bisection reads one per step)."""

    reads = 0

    def __getitem__(self, at):  # type: ignore[no-untyped-def]
        _Counted.reads += 1
        return super().__getitem__(at)


def test_the_look_ups_are_bounded_by_the_length_and_the_letters() -> None:
    letters = "abcdefghijklmnopqrstuvwxyz0123456789αβγδ"  # about what a real vocabulary has
    longest = max(PREFIX_TYPO_LENGTHS)
    made = [variant for variant, _ in variants("q" * longest, letters)]
    assert len(made) == len(set(made)) <= (2 * longest + 1) * len(letters)
    rng = random.Random(5)
    vocabulary = _Counted(sorted({"".join(rng.choices(letters[:26], k=rng.randint(3, 12))) for _ in range(50_000)}))
    _Counted.reads = 0
    prefix_typo_bands(vocabulary, "qzqzqzqz", letters)
    steps = len(vocabulary).bit_length() + 2
    assert _Counted.reads <= (2 * longest + 1) * len(letters) * 2 * steps


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> list[Paper]:
    store = Store(tmp_path_factory.mktemp("seeds") / "data")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    return list(store.papers)


def test_rankings_of_queries_that_find_something_do_not_change(
    seeds: list[Paper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few hundred prefixes of the seeds' words, and the same with a letter left out or added,
    ranked with and without the typos of starts: the same wherever they found something."""
    index = SearchIndex(seeds)
    rng = random.Random(11)
    words = [word for word in index._vocabulary.words if word.isalpha()]
    queries = {word[:n] for word in rng.sample(words, 120) for n in (2, 3, 4, 5, 7) if len(word) >= n}
    for word in rng.sample([word for word in words if len(word) >= 6], 80):
        at = rng.randrange(1, 5)
        queries |= {(word[:at] + word[at + 1 :])[:5], (word[:at] + "x" + word[at:])[:6]}
    with_typos = {query: list(index.search(query).positions) for query in sorted(queries)}
    monkeypatch.setattr(Vocabulary, "_prefix_typos", lambda self, word: ([], []))
    before = SearchIndex(seeds)  # as the search was: no start's typos, its caches empty
    without = {query: list(before.search(query).positions) for query in sorted(queries)}
    assert len(queries) > 300
    assert [q for q in queries if without[q] and without[q] != with_typos[q]] == []
    assert [q for q in queries if not without[q] and with_typos[q]], "some found by a start's typo only"


def _library() -> list[Paper]:
    """A library where the authors of one paper misspelled ``Difussion`` (a keyword), many
    papers say ``diffusion``, and others start with ``diff``, ``graph``, ``rein``."""
    papers = [Paper(id="openreview:own", title="Code-switched speech", abstract="Speech.", keywords=["Difussion"])]
    for n in range(70):
        papers.append(Paper(id=f"openreview:d{n}", title=f"Diffusion models {n}", abstract="We sample."))
    for n, title in enumerate(("Difficult graphs", "Graph reinforcement", "Reinforcement learning", "Reins")):
        papers.append(Paper(id=f"openreview:o{n}", title=title, abstract="Different words."))
    return papers


def test_a_start_of_rare_words_also_finds_their_far_more_common_typo_neighbour() -> None:
    """``difu`` starts only ``difussion`` (one paper), a typo of ``diffusion`` (70): it finds the
    one first, then the diffusion papers; ``difusion`` finds them as a whole-word typo."""
    index = SearchIndex(_library())
    found = _ids(index, "difu")
    assert found[0] == "openreview:own", "the match as typed first"
    assert set(found[1:]) == {f"openreview:d{n}" for n in range(70)}
    assert "diffusion" in index.typo_words("difu")
    assert _ids(index, "difus")[0] == "openreview:own" and len(_ids(index, "difus")) == 71
    assert set(_ids(index, "difusion")) >= {f"openreview:d{n}" for n in range(70)}


def test_real_prefixes_and_rare_words_without_a_common_neighbour_are_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    papers = _library()
    queries = ("diff", "graph", "rein", "reins", "grap", "sampl", "diffus", "code", "speec", "difussion", "mode")
    index = SearchIndex(papers)
    now = {query: _ids(index, query) for query in (*queries, "difu")}
    monkeypatch.setattr(Vocabulary, "_with_common_prefix_typos", lambda self, word, bands, matched: (bands, matched))
    before = SearchIndex(papers)  # as the search was
    assert {query: now[query] for query in queries} == {query: _ids(before, query) for query in queries}
    assert now["difu"] != _ids(before, "difu") == ["openreview:own"]  # the rule is what changed


def test_the_rule_needs_the_neighbour_far_more_common() -> None:
    """With as many ``difussion`` papers as ``diffusion`` ones, ``difu`` finds its own only."""
    papers = [Paper(id=f"openreview:own{n}", title=f"Difussion {n}", abstract="A.") for n in range(5)]
    papers += [Paper(id=f"openreview:d{n}", title=f"Diffusion {n}", abstract="A.") for n in range(5)]
    assert set(_ids(SearchIndex(papers), "difu")) == {f"openreview:own{n}" for n in range(5)}
