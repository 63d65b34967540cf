"""A words query in a venue scope ranks the scope's papers only (issue 31: a library of venues
filters as fast as one venue alone): the other venues' papers it matches are counted, for the
counts' ``+N elsewhere``, not scored nor sorted; the ranking is the one the scope's venue gets
from a store of its own. Counted, not timed: the candidates :meth:`SearchIndex._break_ties` and
:meth:`SearchIndex._ranked_many` are given. The papers are made here (titles built to tell a
phrase's order apart), as in ``test_scoped_library.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search import index as search_index
from paperdeck.search.elsewhere import more_elsewhere
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher, build_index
from paperdeck.search.selection import run_query
from paperdeck.search.venues import scope_bytes
from paperdeck.store.settings import SORTS
from paperdeck.store.store import Store

SCOPE = frozenset({"ICLR 2026"})
TITLES = ("diffusion graphs", "graphs diffusion", "language graphs", "diffusion language", "graphs")


def _paper(n: int, venue: str, year: int) -> Paper:
    words = TITLES[n % len(TITLES)]
    return Paper(id=f"openreview:R{n}", title=f"Paper {n} {words}", abstract=f"We study {words} and graphs {n}.",
                 venue=venue, year=year, openreview_id=f"R{n}")  # fmt: skip


#: COLM 2025 first in catalogue order (its titles take the first phrase-order checks of equal keys
#: in a whole-library ranking), ICLR 2026 between it and ICLR 2017.
COLM = [_paper(n, "COLM", 2025) for n in range(0, 10)]
ICLR = [_paper(n, "ICLR", 2026) for n in range(11, 31)]
OLDER = [_paper(n, "ICLR", 2017) for n in range(40, 48)]
QUERIES = ("graphs", "diffusion graphs", "graphs diffusion", "diffusion", "diff", "gr", "language graphs paper")


def _store(data: Path, papers: list[Paper]) -> Store:
    store = Store(data)
    store.import_papers(papers)
    build_index(store)
    return Store(data, lazy=True, user_records=False, lean=True)


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Store]:
    """The library of three venues (opened on ICLR 2026, as the app opens it) and ICLR 2026 alone."""
    root = tmp_path_factory.mktemp("ranking")
    library = _store(root / "library", [*COLM, *ICLR, *OLDER])
    library.defer_outside(SCOPE)
    return library, _store(root / "alone", ICLR)


@pytest.mark.parametrize("checked", [400, 3])
def test_a_one_venue_scope_ranks_as_its_venue_s_store_alone(
    stores: tuple[Store, Store], checked: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every words query, every sort: the scope's ids in the order the store of ICLR 2026 alone
    gives them; with phrase order checked for 3 titles only, the scope's best three (a whole
    library's ranking cut to the scope would check COLM's, ahead of them in catalogue order)."""
    monkeypatch.setattr(search_index, "_MAX_ORDER_TITLES", checked)
    library, alone = stores
    in_library, by_itself = Searcher(library), Searcher(alone)
    for query in QUERIES:
        for order in SORTS:
            scoped = list(run_query(in_library, parse_query(query), order, SCOPE))
            assert scoped == list(run_query(by_itself, parse_query(query), order)), (query, order)


def test_the_other_venues_matches_are_counted_not_ranked(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The candidates ranked (their tie-breaks) are the scope's only; the count of every venue's
    matches is kept beside the ranking, and ``+N elsewhere`` reads it without ranking again."""
    library, _ = stores
    searcher = Searcher(library)
    index = searcher.index.get()
    inside = scope_bytes(library, SCOPE)
    assert inside is not None
    ranked: list[list[int]] = []
    break_ties = SearchIndex._break_ties

    def kept(self: SearchIndex, keys: list[int], totals: list[int], candidates: list[int], matches: list) -> None:
        ranked.append(list(candidates))
        break_ties(self, keys, totals, candidates, matches)

    monkeypatch.setattr(SearchIndex, "_break_ties", kept)
    found = run_query(searcher, parse_query("diffusion graphs"), "relevance", SCOPE)
    assert ranked and all(inside[at] for candidates in ranked for at in candidates)
    every = index.word_positions("diffusion graphs")
    assert index.found_count("diffusion graphs") == len(every) > len(found) > 0
    calls: list[str] = []
    ranked_at = SearchIndex._ranked

    def counted(self: SearchIndex, *args: object, **kwargs: object) -> object:
        calls.append("ranked")
        return ranked_at(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "_ranked", counted)
    assert more_elsewhere(searcher, parse_query("diffusion graphs"), SCOPE, len(found)) == len(every) - len(found)
    assert calls == []  # counted by the scope's ranking, none made again


def test_a_scoped_ranking_is_kept_per_scope(stores: tuple[Store, Store]) -> None:
    """The same words ranked in two scopes, then in the first again: each scope's own ranking,
    the first kept (the same object: a space or a backspace typed ranks nothing again)."""
    library, _ = stores
    index = Searcher(library).index.get()
    iclr = scope_bytes(library, SCOPE)
    colm = scope_bytes(library, frozenset({"COLM 2025"}))
    assert iclr is not None and colm is not None
    first = index.search_within("graphs", iclr)
    other = index.search_within("graphs", colm)
    whole = list(index.search_positions("graphs"))
    assert list(first) == [at for at in whole if iclr[at]] and list(other) == [at for at in whole if colm[at]]
    assert index.search_within("graphs", iclr) is first
    with pytest.raises(ValueError, match="scope bytes"):
        index.search_within("graphs", iclr[:-1])


@pytest.mark.parametrize("spans", [[(3, 9)], [(0, 2), (5, 7), (11, 40)], [], [(0, 50)]])
def test_the_candidates_in_a_scope_s_runs_are_cut_alike_in_lists_and_numpy(spans: list[tuple[int, int]]) -> None:
    import numpy as np

    candidates = [0, 1, 2, 4, 5, 6, 8, 9, 12, 20, 39, 40, 45]
    totals = [at * 10 + 1 for at in candidates]
    expected = [at for at in candidates if any(start <= at < stop for start, stop in spans)]
    inside = bytearray(50)
    for start, stop in spans:
        inside[start:stop] = b"\x01" * (stop - start)
    assert search_index._spans_inside(bytes(inside)) == spans
    listed = search_index._candidates_inside(candidates, totals, spans)
    assert listed == (expected, [at * 10 + 1 for at in expected])
    arrays = search_index._candidates_inside(np.asarray(candidates), np.asarray(totals), spans)
    assert [a.tolist() for a in arrays] == [expected, [at * 10 + 1 for at in expected]]


#: The words queries typed a key at a time in the tests below: first words, a prefix, a typo,
#: a word after others, an acronym-free word no scope paper holds.
TYPED = ("diffusion", "diff", "difusion", "graphs", "graphs diffusion", "diffusion graphs lang", "paper 4", "zzz")


@pytest.fixture
def index(stores: tuple[Store, Store]) -> tuple[SearchIndex, bytes, Store]:
    """A fresh index of the library (no cache of another test's words), the scope's bytes, and
    the library (to build another index of it)."""
    library, _ = stores
    inside = scope_bytes(library, SCOPE)
    assert inside is not None
    return build_index(library), inside, library


def _cut(index: SearchIndex, query: str, inside: bytes) -> list[int]:
    """The whole library's ranking of ``query`` cut to ``inside`` (what the scope must show)."""
    return [at for at in index.search_positions(query) if inside[at]]


@pytest.mark.parametrize("dense_from", [20_000, 1])
def test_the_first_word_is_matched_in_the_scope_s_papers_only(
    index: tuple[SearchIndex, bytes, Store], dense_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first word's posting lists are cut to the scope before its matches are scored: every
    position given to the match (a dict, or numpy arrays for long lists) is the scope's; the
    other venues' are counted only (``found_count``: every venue's papers, as the whole match)."""
    monkeypatch.setattr(search_index, "_DENSE_FROM", dense_from)
    whole, inside, library = index
    scoped = build_index(library)
    given: list[int] = []
    sparse, dense = SearchIndex._packed_sparse, SearchIndex._packed_dense

    def sparse_seen(self: SearchIndex, word: str, groups: list, *args: object) -> object:
        given.extend(at for group in groups for at in group[2])
        return sparse(self, word, groups, *args)  # type: ignore[arg-type]

    def dense_seen(self: SearchIndex, word: str, groups: list, *args: object) -> object:
        given.extend(int(at) for group in groups for at in group[2])
        return dense(self, word, groups, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "_packed_sparse", sparse_seen)
    monkeypatch.setattr(SearchIndex, "_packed_dense", dense_seen)
    for query in ("diffusion", "graphs", "difusion", "gra"):
        given.clear()
        ranked = list(scoped.search_within(query, inside))
        assert given and all(inside[at] for at in given), query
        monkeypatch.setattr(SearchIndex, "_packed_sparse", sparse)
        monkeypatch.setattr(SearchIndex, "_packed_dense", dense)
        assert ranked == _cut(whole, query, inside), query
        assert scoped.found_count(query) == len(whole.word_positions(query)), query
        monkeypatch.setattr(SearchIndex, "_packed_sparse", sparse_seen)
        monkeypatch.setattr(SearchIndex, "_packed_dense", dense_seen)


@pytest.mark.parametrize("numpy_ready", [True, False])
def test_typed_a_key_at_a_time_the_scope_ranks_and_counts_as_the_whole_library_cut(
    index: tuple[SearchIndex, bytes, Store], numpy_ready: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each prefix of each query, typed in one index (each keystroke starting from the last's
    candidates): the scope's ranking is the whole library's cut to the scope, and the count of
    every venue's matches is the whole match's; alike with numpy (the scope's postings only) and
    without it (the whole match, cut)."""
    monkeypatch.setattr(search_index, "_numpy_ready", lambda: numpy_ready, raising=False)
    whole, inside, library = index
    typing = build_index(library)
    for query in TYPED:
        for end in range(1, len(query) + 1):
            typed = query[:end]
            assert list(typing.search_within(typed, inside)) == _cut(whole, typed, inside), typed
            assert typing.found_count(typed) == len(whole.word_positions(typed)), typed


def test_a_word_typed_after_others_is_matched_alone_in_the_scope(
    index: tuple[SearchIndex, bytes, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``diffusion graphs`` after ``diffusion`` matches ``graphs`` only: the scope's candidates
    and the other venues' positions of ``diffusion`` are kept per scope for the next keystroke."""
    whole, inside, library = index
    typing = build_index(library)
    typing.search_within("diffusion", inside)
    matched: list[str] = []
    scoped_match, match = SearchIndex._scoped_match, SearchIndex._match

    def scoped_seen(self: SearchIndex, word: str, *args: object) -> object:
        matched.append(word)
        return scoped_match(self, word, *args)  # type: ignore[arg-type]

    def match_seen(self: SearchIndex, word: str, *args: object) -> object:
        matched.append(word)
        return match(self, word, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "_scoped_match", scoped_seen)
    monkeypatch.setattr(SearchIndex, "_match", match_seen)
    ranked = list(typing.search_within("diffusion graphs", inside))
    assert matched == ["graphs"]
    assert ranked == _cut(whole, "diffusion graphs", inside)
    assert typing.found_count("diffusion graphs") == len(whole.word_positions("diffusion graphs"))


def test_a_note_in_another_venue_is_counted_elsewhere_not_ranked(index: tuple[SearchIndex, bytes, Store]) -> None:
    """A note's word on a paper outside the scope adds to the count of every venue's matches,
    not to the scope's ranking; a note on a scope paper ranks it as the whole library's does."""
    whole, inside, library = index
    outside_id, inside_id = COLM[0].id, ICLR[0].id
    notes = {outside_id: "quokka", inside_id: "quokka wombat"}
    whole.set_notes(notes)
    typing = build_index(library)
    typing.set_notes(notes)
    for query in ("quokka", "wombat", "quokka graphs", "graphs quokka"):
        assert list(typing.search_within(query, inside)) == _cut(whole, query, inside), query
        assert typing.found_count(query) == len(whole.word_positions(query)), query
    assert typing.found_count("quokka") == 2 and len(typing.search_within("quokka", inside)) == 1
