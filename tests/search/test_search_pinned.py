"""Rankings pinned over the bundled seeds: the search ranks as it did when it was numpy's (these were
recorded from that implementation and checked against it over thousands of queries on the full dump),
through each path of the sparse ranking: a repeated word (title hits clamped to the title's words),
phrases, prefixes, an acronym, one letter (the saved rankings), a note, typos."""

from __future__ import annotations

import pytest
from paperdeck.search.index import SearchIndex
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SEEDS

PINNED = {
    "diffusion diff": (5, [33, 20, 13, 3, 21]),
    "graph neural": (2, [1, 10]),
    "llm": (9, [9, 29, 30, 5, 8, 19]),
    "lang mod": (13, [8, 2, 4, 5, 9, 11]),
    "a": (36, [1, 20, 35, 31, 7, 15]),
    "diffusion baseline": (2, [33, 3]),  # "baseline" only in paper 3's note
    "rl agents": (1, [5]),  # 17 was "augments" taken for "agents": two edits from six letters, no typo
    "specul decod": (0, []),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    store = Store(tmp_path_factory.mktemp("pinned") / "data")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    papers = store.papers
    return SearchIndex(papers, {papers[3].id: "compare with the diffusion baseline"})


@pytest.mark.parametrize("query", PINNED)
def test_the_ranking_is_the_one_pinned(index: SearchIndex, query: str) -> None:
    total, first = PINNED[query]
    positions = index.search(query).positions
    assert (len(positions), positions[:6]) == (total, first)
