"""The search index's caches give the results it would compute: results ranked ahead of time
(``warm``) and the notes' words, as the notes change."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import paperdeck.search.index as index_module
import pytest
from paperdeck.search import packed_index
from paperdeck.search.index import SearchIndex
from paperdeck.search.packed_index import Lines
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import FIXTURES, SUBMISSION_PART_NAMES

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


class _CountedFinds(bytes):
    """The index's initials, counting the scans for a word (``find``)."""

    finds = 0
    counts = 0

    def find(self, *args: object) -> int:  # type: ignore[override]
        _CountedFinds.finds += 1
        return super().find(*args)  # type: ignore[arg-type]

    def count(self, *args: object) -> int:  # type: ignore[override]
        _CountedFinds.counts += 1
        return super().count(*args)  # type: ignore[arg-type]


def test_a_word_extending_the_last_acronym_looks_only_where_that_one_occurred(
    data_dir: Path, seed_files: list[Path]
) -> None:
    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers)
    fresh = SearchIndex(store.papers)
    index._initials = _CountedFinds(index._initials)
    typed = ["gra", "grap", "graph", "sp", "spe", "spec", "lor", "lo", "lora", "ma", "mas", "mask"]
    for word in typed:
        _CountedFinds.finds = 0
        found = index._acronym_positions(word)
        fresh._acronym_hits = None  # looked for from scratch
        assert found == fresh._acronym_positions(word), word
        # No scan of the initials for an extension (nor for a word too short for an acronym).
        scanned = word not in ("grap", "graph", "sp", "spec", "lo", "lora", "ma", "mask")
        assert (_CountedFinds.finds > 0) == scanned, word
    assert sum(map(len, map(fresh._acronym_positions, typed))) > 0  # some occur in the seeds' titles


def test_a_word_matched_in_numpy_arrays_matches_as_in_dicts(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word of long posting lists is matched in numpy arrays (``_DENSE_FROM``): the same
    scores, title hits and keyword hits as the dicts give, over every paper or bounded to some,
    and the same rankings typed letter by letter."""
    import numpy  # noqa: F401  # loaded, as in the app: the arrays are used only then

    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])  # keywords, authors
    ids = store.paper_ids
    notes = {ids[3]: "reproduce with the quokka setup", ids[5]: "diffusion baseline; graph data"}
    in_dicts, in_arrays = SearchIndex(store.papers, notes), SearchIndex(store.papers, notes)
    dense = []
    real = SearchIndex._packed_dense

    def counted(self: SearchIndex, *args: Any) -> Any:
        dense.append(self is in_arrays)
        return real(self, *args)

    monkeypatch.setattr(SearchIndex, "_packed_dense", counted)

    def with_arrays(on: bool) -> None:
        monkeypatch.setattr(index_module, "_DENSE_FROM", 0 if on else 1 << 62)

    vocabulary = in_dicts._vocabulary.words
    words = sorted({word[:size] for word in vocabulary for size in (1, 2, 3, 4, 6, len(word))} | {"difusion", "gnn"})
    within = list(range(0, len(ids), 3))
    for word in words:
        for bound in (None, within):
            with_arrays(False)
            expected = in_dicts._match(word, bound)
            with_arrays(True)
            got = in_arrays._match(word, bound)
            assert (got.packed, got.keyword_hits, got.vocabulary) == (
                expected.packed, expected.keyword_hits, expected.vocabulary), (word, bound is None)  # fmt: skip
    for typed in ["graph neural networks", "a d", "on the diffusion", "difusion samplng", "gnn agents"]:
        for query in [typed[:k] for k in range(1, len(typed) + 1)]:
            with_arrays(False)
            expected_ranking = in_dicts.search(query).positions
            with_arrays(True)
            assert in_arrays.search(query).positions == expected_ranking, query
    assert dense and all(dense)  # the arrays were used, by the index given them only
    assert any(in_arrays._match(word).keyword_hits for word in ("graph", "diffusion", "model"))


def test_a_ranking_s_ids_read_lazily_are_its_ids(data_dir: Path, seed_files: list[Path]) -> None:
    """:class:`IdsAt` (a keystroke's ids, looked up as the list reads them) gives what turning
    every position into an id gives: by row, by slice, iterated, and a paper's row."""
    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers)
    index.warm(string.ascii_lowercase + string.digits)
    for query in [*QUERIES, "", "zzqx", "learning", "graph neural networks"]:
        positions = index.search_positions(query)
        eager, lazy = index.ids_at(positions), index.ids_view(positions)
        assert len(lazy) == len(eager) and list(lazy) == eager and lazy == eager, query
        assert [lazy[row] for row in range(len(lazy))] == eager
        assert lazy[2:7] == eager[2:7] and lazy[::-1] == eager[::-1] and lazy[5:1:-1] == eager[5:1:-1]
        for row, paper_id in enumerate(eager):
            assert lazy.index_of(paper_id) == row and lazy.index(paper_id) == row and paper_id in lazy
        missing = (
            next(pid for pid in store.paper_ids if pid not in set(eager)) if len(eager) < len(store.paper_ids) else None
        )
        if missing is not None:
            assert lazy.index_of(missing) is None and missing not in lazy
            with pytest.raises(ValueError):
                lazy.index(missing)


def test_a_first_word_matched_in_numpy_ranks_there_as_in_dicts(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query's first word matched in numpy arrays is ranked from them (a stable sort there), no
    dict of its matches made unless a later word or a note needs one: the rankings are those of
    the dicts, for every prefix of many queries typed letter by letter, with and without notes."""
    import numpy  # noqa: F401  # loaded, as in the app

    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])
    ids = store.paper_ids
    vocabulary = SearchIndex(store.papers)._vocabulary.words
    typed = [*vocabulary[::7], "graph neural networks", "difusion samplng", "gnn agents", "reinforcement learning"]
    for notes in ({}, {ids[3]: "graph reinforcement quokka", ids[5]: "diffusion baseline"}):
        in_dicts, in_arrays = SearchIndex(store.papers, notes), SearchIndex(store.papers, notes)
        for query in (text[:k] for text in typed for k in range(1, len(text) + 1)):
            monkeypatch.setattr(index_module, "_DENSE_FROM", 1 << 62)
            expected = in_dicts.search(query).positions
            monkeypatch.setattr(index_module, "_DENSE_FROM", 0)
            assert in_arrays.search(query).positions == expected, (query, bool(notes))
    # Without notes, a one-word query's match keeps no dict: its ranking came from the arrays.
    in_arrays = SearchIndex(store.papers)
    for word in ("graph", "diffusion", "lear", "mod"):
        in_arrays.search(word)
        match = in_arrays._matches[word]
        assert match.dense is not None and match._packed is None, word


@pytest.mark.parametrize("short_share", [2, 8])
def test_many_candidates_ranked_in_numpy_rank_as_in_lists(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, short_share: int
) -> None:
    """From ``_SORT_IN_NUMPY_FROM`` candidates a ranking's keys, tie-breaks (title hits clamped,
    phrase order of the best ``_MAX_ORDER_TITLES`` titles) and sort are made in numpy: every
    prefix of many queries typed letter by letter ranks as in lists, with notes or not, with few
    titles checked for phrase order (so that which titles are checked is tested too), and with
    a short later word matched among the candidates from a half or an eighth of the papers."""
    import numpy  # noqa: F401  # loaded, as in the app

    monkeypatch.setattr(index_module, "_BOUNDED_SHORT_SHARE", short_share)
    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])
    ids = store.paper_ids
    vocabulary = SearchIndex(store.papers)._vocabulary.words
    typed = [
        *(f"{a} {b}" for a, b in zip(vocabulary[::29], vocabulary[13::31], strict=False)),
        "graph neural networks", "large language model agents", "a d", "on the diffusion", "gnn gnn gnn",
    ]  # fmt: skip
    many: list[bool] = []
    real = SearchIndex._ranked_many

    def counted(self: SearchIndex, *args: Any) -> Any:
        many.append(True)
        return real(self, *args)

    monkeypatch.setattr(SearchIndex, "_ranked_many", counted)
    for notes in ({}, {ids[3]: "graph reinforcement quokka", ids[5]: "diffusion baseline"}):
        for order_titles in (index_module._MAX_ORDER_TITLES, 3):
            monkeypatch.setattr(index_module, "_MAX_ORDER_TITLES", order_titles)
            in_lists, in_numpy = SearchIndex(store.papers, notes), SearchIndex(store.papers, notes)
            for query in (text[:k] for text in typed for k in range(1, len(text) + 1)):
                monkeypatch.setattr(index_module, "_SORT_IN_NUMPY_FROM", 1 << 62)
                expected = in_lists.search(query).positions
                monkeypatch.setattr(index_module, "_SORT_IN_NUMPY_FROM", 0)
                assert in_numpy.search(query).positions == expected, (query, bool(notes), order_titles)
    assert len(many) > 100


def test_candidates_of_words_matched_in_numpy_stay_arrays_to_the_sort(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Words matched in numpy arrays keep their candidates and sums as arrays from the match
    through the intersections to the numpy sort (no list of every candidate made and read back
    at each keystroke): the rankings are those of the dicts and lists, for every prefix of many
    queries typed letter by letter, with notes or not."""
    import numpy as np

    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])
    ids = store.paper_ids
    vocabulary = SearchIndex(store.papers)._vocabulary.words
    typed = [
        *(f"{a} {b}" for a, b in zip(vocabulary[::23], vocabulary[11::37], strict=False)),
        "graph neural networks", "difusion samplng", "a d", "gnn agents", "on the diffusion model",
    ]  # fmt: skip

    def in_numpy(on: bool) -> None:
        monkeypatch.setattr(index_module, "_DENSE_FROM", 0 if on else 1 << 62)
        monkeypatch.setattr(index_module, "_SORT_IN_NUMPY_FROM", 0 if on else 1 << 62)

    for notes in ({}, {ids[3]: "graph reinforcement quokka", ids[5]: "diffusion baseline"}):
        in_lists, in_arrays = SearchIndex(store.papers, notes), SearchIndex(store.papers, notes)
        for query in (text[:k] for text in typed for k in range(1, len(text) + 1)):
            in_numpy(False)
            expected = in_lists.search(query).positions
            in_numpy(True)
            assert in_arrays.search(query).positions == expected, (query, bool(notes))
    in_arrays = SearchIndex(store.papers)
    in_arrays.search("graph neural")
    assert in_arrays._intersections is not None
    held = in_arrays._intersections[1]
    for words in ({"graph"}, {"graph", "neural"}):
        candidates, totals, _ = held[frozenset(words)]
        assert isinstance(candidates, np.ndarray) and isinstance(totals, np.ndarray), words


def test_an_acronym_s_lines_are_found_without_counting_line_breaks(data_dir: Path, seed_files: list[Path]) -> None:
    """Once the index is warmed, each hit of a word in the title initials is turned into its
    paper's position by a binary search of where the lines start (made once), not by counting
    the line breaks before it (a scan of the text up to the last hit, per keystroke); before (a
    query typed as the list first shows), by counting them, which once costs less than making
    the table. Either way the positions are the papers whose initials hold the word, each once,
    in catalogue order."""
    store = Store(data_dir)
    import_files(store, seed_files)
    index = SearchIndex(store.papers)
    lines = bytes(index._initials).decode().split("\n")
    index._initials = _CountedFinds(index._initials)
    words = sorted({line[at : at + size] for line in lines for at in range(len(line)) for size in (3, 4, 8)})
    words = [word for word in words if 3 <= len(word) <= 8]
    assert len(words) > 100
    for warmed in (False, True):
        if warmed:
            index._initial_lines()  # as warm() makes it
        _CountedFinds.counts = 0
        for word in words:
            index._acronym_hits = None  # looked for from scratch
            expected = [n for n, line in enumerate(lines) if word in line]
            assert index._acronym_positions(word) == expected, word
        assert (_CountedFinds.counts == 0) is warmed


@pytest.mark.parametrize("dense_from", [0, 1 << 62])
def test_a_short_later_word_matched_through_its_postings_ranks_as_scanned(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, dense_from: int
) -> None:
    """With numpy loaded, a one- or two-letter word matched among the candidates only reads its
    prefixes' posting lists through the candidates (a mask, or a set when few) rather than
    scanning the candidates' title, keyword and author words for its prefix: every prefix of
    many queries typed letter by letter ranks as with the scan, with notes or not, whatever the
    share of candidates a later word is bounded from."""
    import numpy  # noqa: F401  # loaded, as in the app

    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])
    ids = store.paper_ids
    vocabulary = SearchIndex(store.papers)._vocabulary.words
    words = zip(vocabulary[::41], vocabulary[7::37], vocabulary[3::43], strict=False)
    typed = [
        *(f"{a} {b[:2]} {c[:1]}" for a, b, c in words),
        "reinforcement learning from human feedback", "graph neural n", "a d", "diffusion mo x", "on the di",
    ]  # fmt: skip
    monkeypatch.setattr(index_module, "_DENSE_FROM", dense_from)
    scans = [0]
    real = SearchIndex._starting_with

    def counted(self: SearchIndex, *args: Any) -> Any:
        scans[0] += 1
        return real(self, *args)

    monkeypatch.setattr(SearchIndex, "_starting_with", counted)
    for share in (1, 4):
        monkeypatch.setattr(index_module, "_BOUNDED_SHARE", share)
        monkeypatch.setattr(index_module, "_BOUNDED_SHORT_SHARE", share)
        for notes in ({}, {ids[3]: "graph reinforcement quokka", ids[5]: "diffusion baseline"}):
            scanned, read = SearchIndex(store.papers, notes), SearchIndex(store.papers, notes)
            for query in (text[:k] for text in typed for k in range(1, len(text) + 1)):
                monkeypatch.setattr(SearchIndex, "_scans_prefixes", lambda self, word, *_: len(word) < 3)
                expected = scanned.search(query).positions
                monkeypatch.setattr(SearchIndex, "_scans_prefixes", lambda self, word, *_: False)
                before = scans[0]
                assert read.search(query).positions == expected, (query, share, bool(notes))
                assert scans[0] == before, query
    assert scans[0] > 50


def test_largest_first_is_a_stable_descending_argsort() -> None:
    """The one sort of packed ints that ranks many candidates gives the order of a stable
    ``argsort`` of the negated keys: ties in index order, any count, a range too wide to pack."""
    import numpy as np

    rng = np.random.default_rng(32)
    cases = [np.zeros(0, dtype=np.int64), np.array([5], dtype=np.int64), np.array([1 << 61, 0, 1 << 61])]
    cases += [rng.integers(0, top, size, dtype=np.int64) for top in (2, 50, 1 << 30) for size in (2, 7, 1000, 70_000)]
    for keys in cases:
        expected = np.argsort(-keys, kind="stable")
        assert index_module._largest_first(keys).tolist() == expected.tolist(), (len(keys), keys[:5])


def test_phrase_orders_of_many_titles_at_once_are_each_title_s(data_dir: Path) -> None:
    """With numpy loaded, the phrase order of the titles a ranking checks is found for all of them
    at once (their words end to end): each title's is what :func:`_phrase_order` gives it alone,
    for two to five query words, titles without words among them."""
    import numpy  # noqa: F401  # loaded, as in the app

    store = Store(data_dir)
    import_files(store, [FIXTURES / name for name in SUBMISSION_PART_NAMES])
    index = SearchIndex(store.papers)
    titles = list(index._titles.lines())
    titles[1] = ""  # a title without words, among the others
    index._titles = Lines(titles)
    vocabulary = index._vocabulary.words
    positions = list(range(0, len(titles), 3))
    queries = [vocabulary[n : n + size] for size in (2, 3, 5) for n in range(0, len(vocabulary), 97)]
    in_titles = [title.split() for title in titles[::11]]
    starts = [words[at : at + 3] for words in in_titles for at in (0, 2) if len(words) > at + 1]
    queries += [[word[:4] for word in words] for words in starts]
    queries += [words[1::-1] for words in in_titles if len(words) > 1]  # swapped
    queries += [["graph", "neural", "networks"], ["neural", "graph"], ["lear", "mo"], ["diffusion", "models"]]
    ordered = 0
    for query in queries:
        vocabularies = [index._vocabulary.expand(word).vocabulary for word in query]
        expected = [index_module._phrase_order(titles[p].split(), vocabularies) for p in [1, *positions]]
        assert index._phrase_orders([1, *positions], vocabularies) == expected, query
        ordered += sum(map(bool, expected))
    assert ordered > 20


@pytest.mark.parametrize("numpy_loaded", [False, True])
def test_lines_held_encoded_read_as_the_texts(numpy_loaded: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """:class:`Lines` holds the texts encoded and gives each back as it was, by position, slice,
    ``take`` and ``containing``, built from texts or read from their bytes, with or without numpy
    loaded to find the line starts (lone surrogates and wide characters kept)."""
    import sys

    if numpy_loaded:
        import numpy  # noqa: F401

        monkeypatch.setattr(packed_index, "_CHUNK", 5)  # lines across the chunks searched at a time
    else:
        monkeypatch.delitem(sys.modules, "numpy", raising=False)
    texts = [" graph neural", "", " ünïcode wörds", " \ud800 lone", " 中文 title", ""]
    for lines in (Lines(texts), Lines(raw=Lines(texts).encoded())):
        assert list(lines.lines()) == texts and len(lines) == len(texts)
        assert [lines[at] for at in range(-len(texts), 0)] == texts
        assert lines[1:5] == texts[1:5] and lines[::2] == texts[::2]
        assert lines.take([4, 0, 2]) == [texts[4], texts[0], texts[2]]
        assert lines.containing(range(len(texts)), " wö") == [2]
        assert lines.containing([4, 3, 0], " ") == [4, 3, 0]
        assert lines.containing(range(len(texts)), "title") == [4]
        with pytest.raises(IndexError):
            lines[len(texts)]
    empty = Lines([])
    assert len(empty) == 0 and list(empty) == [] and empty.encoded() == b""
    assert list(Lines([""])) == [""]
