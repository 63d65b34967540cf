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
