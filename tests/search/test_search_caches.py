"""The search index's caches give the results it would compute: results ranked ahead of time
(``warm``) and the notes' words, as the notes change."""

from __future__ import annotations

import string
from pathlib import Path

import paperdeck.search.index as index_module
import pytest
from paperdeck.search.index import SearchIndex
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

QUERIES = ["d", "R", "g", "s", "t", "x", "7", "di", "diffusion", "graph n", "quokka", "quoka"]


def fresh_results(store: Store, notes: dict[str, str]) -> dict[str, list[int]]:
    index = SearchIndex(store.papers, notes)
    return {query: index.search(query).positions for query in QUERIES}


def test_warm_results_and_note_matches_are_what_a_fresh_index_ranks(data_dir: Path, seed_files: list[Path]) -> None:
    store = Store(data_dir)
    import_files(store, seed_files)
    ids = store.paper_ids
    notes = {ids[3]: "reproduce with the quokka setup", ids[5]: "diffusion baseline; graph data", ids[9]: "d"}
    index = SearchIndex(store.papers, notes)
    index.warm(string.ascii_lowercase + string.digits)
    assert {query: index.search(query).positions for query in QUERIES} == fresh_results(store, notes)
    # A changed note: the warm results and the note matches follow it.
    index.set_note(ids[9], "")
    index.set_note(ids[12], "dataset of graphs, quokka")
    changed = {ids[3]: notes[ids[3]], ids[5]: notes[ids[5]], ids[12]: "dataset of graphs, quokka"}
    assert {query: index.search(query).positions for query in QUERIES} == fresh_results(store, changed)


def test_search_ids_are_the_ranking_s_ids(data_dir: Path, seed_files: list[Path]) -> None:
    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers, {store.paper_ids[5]: "diffusion baseline"})
    for warmed in (False, True):
        if warmed:
            index.warm(string.ascii_lowercase + string.digits)
        for query in [*QUERIES, "", "zzqx"]:
            assert index.search_ids(query) == index.paper_ids(index.search(query).positions), (query, warmed)
    assert index.search_ids("") == store.paper_ids


@pytest.mark.parametrize("share", [1, 4, 1 << 30])  # a later word matched among the candidates: always, now, never
def test_queries_typed_letter_by_letter_rank_as_a_fresh_index(
    data_dir: Path, seed_files: list[Path], share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each keystroke reuses the candidates of the words typed before it: typed forwards, then
    backspaced, and across a note changed mid-query, every query ranks as on a fresh index, however
    few the candidates must be for a later word to be matched among them only."""
    monkeypatch.setattr(index_module, "_BOUNDED_SHARE", share)
    store = Store(data_dir)
    import_files(store, seed_files)
    ids = store.paper_ids
    notes = {ids[3]: "reproduce with the quokka setup", ids[5]: "diffusion baseline; graph data"}
    index = SearchIndex(store.papers, notes)
    fresh = SearchIndex(store.papers, notes)
    for typed in ["graph neural networks", "a d", "on the diffusion", "diffusion model graph", "language model agents"]:
        prefixes = [typed[:k] for k in range(1, len(typed) + 1)]
        for query in prefixes + prefixes[::-1]:
            expected = SearchIndex(store.papers, notes).search(query).positions
            assert index.search(query).positions == expected, query
    index.search("graph data")
    notes = {**notes, ids[7]: "graph data quokka"}
    index.set_note(ids[7], notes[ids[7]])
    for query in ["graph data", "graph data q", "graph data quokka"]:
        assert index.search(query).positions == SearchIndex(store.papers, notes).search(query).positions, query
    assert fresh.search("graph data").positions != index.search("graph data").positions


_WARM_PROBE = """
import sys
from paperdeck.model.paper import Paper
from paperdeck.search.index import SearchIndex

index = SearchIndex([Paper(id="a", title="Graph neural networks", abstract="")])
before = "rapidfuzz.process" in sys.modules
index.warm("g")
print(before, "rapidfuzz.process" in sys.modules)
"""


def test_warm_imports_the_typo_scorer() -> None:
    # The first four-letter query word (the first one matched for typos) must not pay the import.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _WARM_PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"], done.stderr
