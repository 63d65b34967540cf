"""A library opened on a venue scope reads that scope's papers only (issue 31, "Speed and memory":
a library of venues opens and filters as fast as one venue alone). The app's store is lean and
lazy; opened on a scope it holds the other venues' papers deferred
(:meth:`Store.defer_outside <paperdeck.store.store.Store.defer_outside>`), and a query in the scope
looks up the scope's papers only (:class:`~paperdeck.search.selection.ScopedLookups`). Counted, not
timed: the papers of other venues parsed (:attr:`DeferredPaper.parsed`, :attr:`CatalogueText.deferred_reads`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher, build_index
from paperdeck.search.selection import PaperLookups, _run_query, run_query
from paperdeck.search.venues import papers_of_scope, scope_positions, within_scope
from paperdeck.store.lean_papers import DeferredPaper
from paperdeck.store.settings import SORTS
from paperdeck.store.store import Store

SCOPE = frozenset({"ICLR 2026"})
#: Queries of every kind but ``like:`` (likeness is measured over every paper).
QUERIES = ("", "graphs", "rating>=6", "decision:accept", "graphs rating>=5", "-venue:colm rating_pct>=50",
           "venue:iclr", "year:2026 has:rating", "graph* -decision:reject", "rating:2..7 OR decision:oral")  # fmt: skip


def _paper(n: int, venue: str, year: int, top: int) -> Paper:
    words = ("graphs", "diffusion", "language")[n % 3]
    return Paper(id=f"openreview:V{n}", title=f"Paper {n} on {words}", abstract=f"We study {words} {n}.",
                 venue=venue, year=year, openreview_id=f"V{n}", decision=("oral", "poster", "reject")[n % 3],
                 ratings=Ratings(float(n % top) + 1, min=1.0, max=float(top), count=3))  # fmt: skip


#: ICLR 2026 (ratings 1–10) between COLM 2025 and ICLR 2017 papers: the scope is one run of three.
PAPERS = [
    *(_paper(n, "COLM", 2025, 10) for n in range(0, 12)),
    *(_paper(n, "ICLR", 2026, 10) for n in range(12, 30)),
    *(_paper(n, "ICLR", 2017, 10) for n in range(30, 40)),
]
IN_SCOPE = 18


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("library") / "data"
    store = Store(data)
    store.import_papers(PAPERS)
    build_index(store)
    return data


def _opened(data: Path, scope: frozenset[str] = SCOPE) -> Store:
    """The store as the app opens it on ``scope``, parsed."""
    store = Store(data, lazy=True, user_records=False, lean=True)
    store.defer_outside(scope)
    store.load()
    return store


def _parsed_outside(store: Store) -> int:
    return sum(1 for p in store.papers if isinstance(p, DeferredPaper) and p.parsed)


def test_the_papers_outside_the_scope_are_held_unparsed(library: Path) -> None:
    store = _opened(library)
    deferred = [p for p in store.papers if isinstance(p, DeferredPaper)]
    assert len(deferred) == len(PAPERS) - IN_SCOPE and _parsed_outside(store) == 0
    assert [p.id for p in store.papers] == [p.id for p in PAPERS]
    text = object.__getattribute__(deferred[0], "_text")
    assert text.deferred_reads == 0
    # Read at first use, each once, as the full paper.
    assert deferred[0] == PAPERS[0] and deferred[0].decision == "oral" and deferred[0].title == PAPERS[0].title
    assert deferred[0].parsed and text.deferred_reads == 1
    assert deferred[-1].library_venue == "ICLR 2017" and hash(deferred[-1]) == hash(PAPERS[-1])
    assert text.deferred_reads == 2
    # Every venue's papers: deferred only when asked for, and never once the store is parsed.
    every = Store(library, lazy=True, user_records=False, lean=True)
    every.defer_outside(frozenset())
    assert not any(isinstance(p, DeferredPaper) for p in every.papers)


@pytest.mark.parametrize("query", QUERIES)
def test_a_query_in_the_scope_reads_no_other_venue(library: Path, query: str) -> None:
    store = _opened(library)
    searcher = Searcher(store)
    for order in SORTS:
        found = run_query(searcher, parse_query(query), order, SCOPE)
        assert {p.library_venue for p in PAPERS if p.id in set(found)} <= SCOPE
    assert _parsed_outside(store) == 0
    assert len(papers_of_scope(store, SCOPE)) == IN_SCOPE and _parsed_outside(store) == 0


@pytest.mark.parametrize("query", QUERIES)
def test_a_scoped_query_finds_what_the_whole_library_s_does_within_the_scope(library: Path, query: str) -> None:
    store = Store(library, lazy=True, user_records=False, lean=True)
    searcher = Searcher(store)
    parsed = parse_query(query)
    for scope in (SCOPE, frozenset({"COLM 2025", "ICLR 2017"}), frozenset({"ICLR 2017"})):
        for order in SORTS:
            every = _run_query(searcher, parsed, order, PaperLookups.of(searcher), store.paper_ids)
            assert run_query(searcher, parsed, order, scope) == within_scope(store, every, scope), (scope, order)


def test_the_scope_s_positions(library: Path) -> None:
    store = Store(library, lazy=True)
    positions = scope_positions(store, SCOPE)
    assert positions is not None and positions.tolist() == list(range(12, 30))
    assert scope_positions(store, frozenset()) is None
    assert scope_positions(store, frozenset({"COLM 2025", "ICLR 2026", "ICLR 2017"})) is None
    assert scope_positions(store, frozenset({"NeurIPS 2018"})).tolist() == []  # type: ignore[union-attr]


def test_a_deferred_paper_whose_document_is_gone_reads_as_its_id(library: Path, tmp_path: Path) -> None:
    """The catalogue changed in place under a deferred paper (no paperdeck does it): the paper
    reads as its id with empty fields, counted as failed, never a document of another paper."""
    data = tmp_path / "data"
    data.mkdir()
    for name in os.listdir(library):
        if (library / name).is_file():
            (data / name).write_bytes((library / name).read_bytes())
            os.utime(data / name, ns=(os.stat(library / name).st_atime_ns, os.stat(library / name).st_mtime_ns))
    store = Store(data, lazy=True, user_records=False, lean=True)
    store.defer_outside(SCOPE)
    store.load()
    first = store.papers[0]
    assert isinstance(first, DeferredPaper) and not first.parsed
    catalogue = data / "catalogue.json"
    with catalogue.open("r+b") as file:  # the first paper's document overwritten, the size kept
        start = file.read().index(b'"openreview:V0"')
        file.seek(start)
        file.write(b"x" * 40)
    text = object.__getattribute__(first, "_text")
    assert first.decision == "unknown" and first.ratings is None and first.venue == ""
    assert text.failed == 1 and text.deferred_reads == 1
    assert first.title == "openreview:V0" and text.failed == 2  # its texts as a lean paper's


def test_a_words_query_in_the_scope_looks_up_no_id_of_another_venue(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A words-only query in a scope keeps the scope's positions found, by position: no paper id
    of the whole ranking is looked up (``ids_at``, the way before), and the ids come in the
    whole library's order, cut to the scope."""
    from paperdeck.search.index import SearchIndex

    store = _opened(library)
    searcher = Searcher(store)
    every = list(_run_query(searcher, parse_query("graphs"), "relevance", PaperLookups.of(searcher), store.paper_ids))
    looked: list[int] = []
    ids_at = SearchIndex.ids_at

    def counted(self: SearchIndex, positions: list[int]) -> list[str]:
        positions = list(positions)
        looked.extend(positions)
        return ids_at(self, positions)

    monkeypatch.setattr(SearchIndex, "ids_at", counted)
    found = run_query(searcher, parse_query("graphs"), "relevance", SCOPE)
    assert list(found) == within_scope(store, every, SCOPE) and len(found) == IN_SCOPE // 3
    assert looked == []


def test_a_scoped_query_with_field_terms_makes_no_list_of_every_paper(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field terms of a query in a scope read the scope's papers taken by its venue runs
    (:meth:`Store.papers_at <paperdeck.store.store.Store.papers_at>`): no list of every paper of
    the library is made for them, at each keystroke, to pick the scope's out of (nor for
    :func:`papers_of_scope`); the same papers, the same results."""
    from paperdeck.store.catalogue import Catalogue

    store = _opened(library)
    searcher = Searcher(store)
    expected = {query: list(run_query(searcher, parse_query(query), "relevance", SCOPE)) for query in QUERIES}
    every = Catalogue.papers
    made: list[int] = []

    def counted(self: Catalogue) -> list[Paper]:
        made.append(1)
        return every.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(Catalogue, "papers", property(counted))
    for query in QUERIES:
        fresh = Searcher(store)  # (no lookups held from a query before)
        assert list(run_query(fresh, parse_query(query), "relevance", SCOPE)) == expected[query], query
    assert [p.id for p in papers_of_scope(store, SCOPE)] == [p.id for p in PAPERS[12:30]]
    assert made == [] and _parsed_outside(store) == 0


def _forum_library(tmp_path: Path) -> Path:
    """A library whose papers' forums are their ids' (``openreview:F``), held apart from their
    ids (an arXiv paper with an OpenReview forum), or none."""
    import dataclasses

    papers = [dataclasses.replace(p, openreview_id="") if n % 5 == 4 else p for n, p in enumerate(PAPERS)]
    papers += [
        dataclasses.replace(PAPERS[13], id="arxiv:2601.00001", openreview_id="APART"),  # ICLR 2026
        dataclasses.replace(PAPERS[2], id="arxiv:2501.00002", openreview_id="OTHER"),  # COLM 2025
    ]
    data = tmp_path / "forums"
    store = Store(data)
    store.import_papers(papers)
    return data


def test_the_scope_s_forums_are_answered_without_each_paper_s_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library opened on a scope answers whether a forum is the scope's (the review summaries
    asked for it, :meth:`ReviewStore.summaries_among`) from the scope's ids and the few forums
    held apart from their ids: no forum id of each of the scope's papers is made (``forums_of``
    is not called, no other venue's paper is parsed), and the answers are those of the set made."""
    import paperdeck.model.review_summary as review_summary
    from paperdeck.search.venues import ScopeForums, scope_forums

    data = _forum_library(tmp_path)
    every = Store(data).papers
    asked = {p.openreview_id for p in every} | {"nowhere", "V", "openreview:V12", "APART "}
    expected = {scope: review_summary.forums_of(p for p in every if p.library_venue in scope)
                for scope in (SCOPE, frozenset({"COLM 2025"}), frozenset({"COLM 2025", "ICLR 2017"}))}  # fmt: skip
    assert "APART" in expected[SCOPE] and "OTHER" not in expected[SCOPE] and "V14" not in expected[SCOPE]
    made = review_summary.forums_of

    def counted(papers: Iterable[Paper]) -> frozenset[str]:
        calls.append(1)
        return made(papers)

    calls: list[int] = []
    monkeypatch.setattr(review_summary, "forums_of", counted)
    store = _opened(data)
    forums = scope_forums(store, SCOPE)
    assert isinstance(forums, ScopeForums)
    assert {forum for forum in asked if forum in forums} == expected[SCOPE]
    assert calls == [] and _parsed_outside(store) == 0
    assert scope_forums(store, SCOPE) is forums  # kept
    # Listed, counted or joined, the set is made (once).
    assert set(forums) == expected[SCOPE] and len(forums) == len(expected[SCOPE]) and calls == [1]
    assert forums | {"x"} == expected[SCOPE] | {"x"} and isinstance(forums | {"x"}, frozenset)
    # A scope of a venue held deferred, or a store not parsed lean: the set made, the same answers.
    for scope in (frozenset({"COLM 2025"}), frozenset({"COLM 2025", "ICLR 2017"})):
        other = scope_forums(store, scope)
        assert other is not None and {forum for forum in asked if forum in other} == expected[scope], scope
    whole = Store(data)
    for scope, forums_made in expected.items():
        found = scope_forums(whole, scope)
        assert found is not None and {forum for forum in asked if forum in found} == forums_made, scope


def test_a_scope_s_review_summaries_are_read_with_its_forums_as_given(tmp_path: Path) -> None:
    """:meth:`ReviewStore.summaries_among` keeps the scope's forums as given (not copied into a
    ``frozenset``, which would make each one): the summaries held answer for them, asked again
    with them nothing is read."""
    from paperdeck.model.review_summary import ReviewSummary, SomeSummaries, covers
    from paperdeck.search.venues import ScopeForums, scope_forums
    from paperdeck.store.paper_index import object_bytes

    from tests.store.test_summaries_streamed import _store

    data = _forum_library(tmp_path)
    docs = {forum: ReviewSummary(count=0, comments=1, venue="X").to_dict() for forum in ("V13", "APART", "V1", "OTHER")}
    (tmp_path / "r").mkdir()
    reviews = _store(tmp_path / "r", object_bytes(docs)[0])
    store = _opened(data)
    forums = scope_forums(store, SCOPE)
    assert isinstance(forums, ScopeForums)
    some = reviews.summaries_among(forums)
    assert isinstance(some, SomeSummaries) and some.forums is forums and sorted(some) == ["APART", "V13"]
    assert covers(some, "V15") and not covers(some, "V14") and not covers(some, "V1")
    assert reviews.summaries_among(forums) is some
    # A set the caller may change afterwards is copied.
    (tmp_path / "r2").mkdir()
    asked = {"V13", "V1"}
    other = _store(tmp_path / "r2", object_bytes(docs)[0]).summaries_among(asked)
    asked.add("OTHER")
    assert isinstance(other, SomeSummaries) and other.forums == {"V13", "V1"} and not covers(other, "OTHER")


def test_scoped_lookups_pick_their_papers_when_those_given_are_not_as_many(library: Path) -> None:
    """``ScopedLookups.of``'s ``papers`` (the scope's, by its runs) are taken only when they are
    as many as the positions the masks are cut to (a catalogue parsed since the positions were
    found may not be the one they were found in); else the papers at the positions are picked."""
    from paperdeck.search.selection import ScopedLookups

    store = _opened(library)
    searcher = Searcher(store)
    positions = scope_positions(store, SCOPE)
    assert positions is not None
    given = papers_of_scope(store, SCOPE)
    assert ScopedLookups.of(searcher, positions, papers=lambda: given).papers is given
    picked = ScopedLookups.of(searcher, positions, papers=lambda: given[:-1]).papers
    assert [p.id for p in picked] == [p.id for p in given]


def test_the_papers_at_some_positions_are_those_of_every_paper_there(library: Path) -> None:
    store = _opened(library)
    every = store.papers
    for spans in ([], [(0, 0)], [(0, 12)], [(12, 30)], [(0, 3), (5, 5), (12, 30), (38, 40)], [(30, 99)]):
        assert store.papers_at(spans) == [p for start, stop in spans for p in every[start:stop]], spans
    for bad in ([(5, 3)], [(0, 10), (5, 12)]):
        with pytest.raises(ValueError, match="ascending"):
            store.papers_at(bad)
    assert _parsed_outside(store) == 0


def test_a_scope_s_papers_are_taken_once_while_the_papers_are_the_same(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scope's papers of a field term's keystroke are copied from the last ones taken, not
    walked to again past the other venues' papers (each keystroke walked the library's papers
    before the scope's run); a copy each time (changing one changes no other); once the papers
    are replaced (an import), taken again from the new ones."""
    import shutil

    from paperdeck.store import catalogue

    data = tmp_path / "data"
    shutil.copytree(library, data)
    store = _opened(data)
    walked: list[int] = []
    islice = catalogue.islice

    def counted(*args: object) -> object:
        walked.append(1)
        return islice(*args)  # type: ignore[call-overload]

    monkeypatch.setattr(catalogue, "islice", counted)
    first = papers_of_scope(store, SCOPE)
    assert walked == [1] and [p.id for p in first] == [p.id for p in PAPERS[12:30]]
    first.clear()
    again = papers_of_scope(store, SCOPE)
    assert walked == [1] and [p.id for p in again] == [p.id for p in PAPERS[12:30]]
    added = _paper(99, "ICLR", 2026, 10)
    store.import_papers([added])
    assert [p.id for p in papers_of_scope(store, SCOPE)] == [*(p.id for p in PAPERS[12:30]), added.id]
    assert len(walked) > 1  # walked again (to the scope's two runs now: the paper added is last)


def test_a_words_query_in_the_scope_imports_no_numpy(library: Path) -> None:
    """Words alone in a scope are kept by a byte per paper made from the venue runs
    (:func:`~paperdeck.search.venues.scope_bytes`): numpy's import (~0.1 s of CPU) waits for a
    query that needs it, as the unscoped query's does; the same ids as the whole ranking's
    within the scope, for every sort."""
    import subprocess
    import sys

    script = f"""
import sys
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.store.store import Store
store = Store({str(library)!r}, lazy=True, user_records=False, lean=True)
store.defer_outside(frozenset({{"ICLR 2026"}}))
ids = list(run_query(Searcher(store), parse_query("graphs"), "relevance", frozenset({{"ICLR 2026"}})))
assert ids and "numpy" not in sys.modules, sorted(m for m in sys.modules if m.startswith("numpy"))[:3]
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    store = _opened(library)
    searcher = Searcher(store)
    for order in SORTS:
        scoped = list(run_query(searcher, parse_query("graphs"), order, SCOPE))
        whole = within_scope(store, list(run_query(searcher, parse_query("graphs"), order)), SCOPE)
        assert scoped == whole, order


@pytest.mark.parametrize("code", ["I", "q", "view", "list"])
def test_the_scope_s_positions_of_a_ranking_are_cut_alike_in_numpy_and_one_by_one(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scoped words query keeps the positions of the ranking whose byte of the scope is 1, in the
    ranking's order: in numpy (a ranking of many positions held in an ``array`` or a saved
    ranking's ``memoryview``, numpy loaded) as one by one (a list; numpy not loaded)."""
    import random
    import sys
    from array import array

    import numpy  # noqa: F401  # loaded, as the app's warming loads it for a large library
    from paperdeck.search import index as search_index

    rng = random.Random(31)
    inside = bytes(rng.choice((0, 0, 1)) for _ in range(9_000))
    ranking = rng.sample(range(9_000), 6_000)
    expected = [at for at in ranking if inside[at]]
    found: object = {"I": array("I", ranking), "q": array("q", ranking), "list": ranking}.get(code)
    if code == "view":
        found = memoryview(array("I", ranking).tobytes()).cast("I")
    kept = search_index._positions_inside(found, inside)  # type: ignore[arg-type]
    assert list(kept) == expected and all(type(at) is int for at in kept[:50])
    assert isinstance(kept, list) is (code == "list")  # in numpy: an array of the same items
    monkeypatch.delitem(sys.modules, "numpy")
    assert search_index._positions_inside(found, inside) == expected  # type: ignore[arg-type]


def test_a_words_query_in_the_scope_cuts_a_saved_ranking_in_numpy(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With numpy loaded, a one-letter query's saved ranking (a ``memoryview`` of the index file)
    is cut to the scope in numpy, not a position at a time: no ``compress`` over it; the ids are
    the whole library's within the scope, for every sort."""
    import numpy  # noqa: F401
    from paperdeck.search import index as search_index

    monkeypatch.setattr(search_index, "_INSIDE_IN_NUMPY_FROM", 1)
    store = _opened(library)
    searcher = Searcher(store)
    for query in ("p", "o", "graphs"):
        for order in SORTS:
            whole = within_scope(store, list(run_query(searcher, parse_query(query), order)), SCOPE)
            assert list(run_query(searcher, parse_query(query), order, SCOPE)) == whole, (query, order)
    cut: list[int] = []
    compress = search_index.compress
    monkeypatch.setattr(search_index, "compress", lambda *a: cut.append(1) or compress(*a))
    assert list(run_query(searcher, parse_query("p"), "relevance", SCOPE)) and not cut
