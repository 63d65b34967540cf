"""The venue scope in the core: each paper's venue, the venues' counts, the papers of a scope
(from the rows cache as from the parsed catalogue), queries and view counts within a scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, library_venue
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.search.venues import (
    ALL,
    NO_VENUE,
    effective_scope,
    mixes_venues,
    scope_label,
    scoped_ids,
    venue_counts,
    venue_of,
    venues_of,
    within_scope,
)
from paperdeck.search.views import View, view_count
from paperdeck.store.rows import VenueRuns
from paperdeck.store.settings import Settings, SettingsFile
from paperdeck.store.store import Store


def _paper(n: int, venue: str, year: int | None, decision: str = "poster") -> Paper:
    return Paper(id=f"abs:{n:016x}", title=f"Paper {n} on graphs", abstract=f"Abstract {n}.", venue=venue,
                 year=year, decision=decision)  # fmt: skip


#: 3 ICLR 2026, 2 COLM 2025, 1 ICLR 2026 imported later, 1 TMLR, 1 without a venue.
PAPERS = [
    *(_paper(n, "ICLR", 2026, "oral" if n == 0 else "poster") for n in range(3)),
    _paper(3, "COLM", 2025, "oral"),
    _paper(4, "COLM", 2025),
    _paper(5, "ICLR", 2026),
    _paper(6, "TMLR", 2024),
    _paper(7, "", None),
]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return store


@pytest.mark.parametrize(
    ("venue", "year", "label"),
    [("COLM", 2025, "COLM 2025"), ("NeurIPS", 2018, "NeurIPS 2018"), ("TMLR", 2025, "TMLR"),
     ("arXiv", 2016, "arXiv"), ("", 2019, "2019"), ("", None, ""), ("  ICLR\n", 2017, "ICLR 2017")],
)  # fmt: skip
def test_library_venue(venue: str, year: int | None, label: str) -> None:
    assert library_venue(venue, year) == label


def test_venue_runs_round_trip_and_refuse_what_does_not_cover_the_papers() -> None:
    runs = VenueRuns.of(["A", "A", "B", "A", ""])
    assert runs == VenueRuns(("A", "B", ""), ((0, 2), (1, 1), (0, 1), (2, 1)))
    assert runs.counts() == {"A": 3, "B": 1, "": 1}
    assert VenueRuns.from_json(runs.to_json(), 5) == runs
    bad_runs = ([0, 4], [1, 5], [0], [0, 0, 0, 5], [0, 5.0])
    for bad in (None, {"labels": [1], "runs": [0, 5]}, *({"labels": ["A"], "runs": runs} for runs in bad_runs)):
        with pytest.raises(ValueError):
            VenueRuns.from_json(bad, 5)


@pytest.mark.parametrize("lazy", [False, True])
def test_counts_and_the_papers_of_a_scope(store: Store, lazy: bool) -> None:
    """The same from the rows cache (a store opened lazily, never parsed) as from the papers."""
    ids = [p.id for p in PAPERS]
    opened = Store(store.data_dir, lazy=True) if lazy else store
    assert venue_counts(opened) == {"ICLR 2026": 4, "COLM 2025": 2, "TMLR": 1, "": 1}
    assert scoped_ids(opened, frozenset({"ICLR 2026"})) == [ids[0], ids[1], ids[2], ids[5]]
    assert scoped_ids(opened, frozenset({"COLM 2025", ""})) == [ids[3], ids[4], ids[7]]
    assert scoped_ids(opened, ALL) is None
    assert scoped_ids(opened, frozenset({"ICLR 2026", "COLM 2025", "TMLR", ""})) is None  # every venue
    assert within_scope(opened, [ids[4], ids[0], ids[6]], frozenset({"COLM 2025", "TMLR"})) == [ids[4], ids[6]]
    assert within_scope(opened, ids[:2], frozenset({"NeurIPS 2018", "TMLR"})) == []
    assert venue_of(opened, ids[3]) == "COLM 2025" and venue_of(opened, "abs:nope") == ""
    assert venues_of(opened, ids[2:5]) == {"ICLR 2026": 1, "COLM 2025": 2}
    assert mixes_venues(opened, ids[2:4]) and not mixes_venues(opened, [ids[0], ids[5]])
    assert opened.loaded is not lazy


def test_a_scope_follows_an_import(store: Store) -> None:
    scope = frozenset({"COLM 2025"})
    assert len(scoped_ids(store, scope) or []) == 2
    store.import_papers([_paper(8, "COLM", 2025)])
    assert scoped_ids(store, scope) == [PAPERS[3].id, PAPERS[4].id, _paper(8, "COLM", 2025).id]


def test_the_effective_scope(store: Store) -> None:
    assert effective_scope(store, ["COLM 2025", "NeurIPS 2018"]) == frozenset({"COLM 2025"})
    assert effective_scope(store, ["NeurIPS 2018"]) == ALL  # none of the store's: every venue
    assert effective_scope(store, ["ICLR 2026", "COLM 2025", "TMLR", ""]) == ALL
    assert effective_scope(store, []) == ALL


def test_queries_and_view_counts_follow_the_scope(store: Store) -> None:
    searcher = Searcher(store)
    colm = frozenset({"COLM 2025"})
    assert run_query(searcher, parse_query("decision:oral"), "list", colm) == [PAPERS[3].id]
    assert run_query(searcher, parse_query("decision:oral"), "list") == [PAPERS[0].id, PAPERS[3].id]
    assert run_query(searcher, parse_query("graphs"), "title", colm) == [PAPERS[3].id, PAPERS[4].id]
    assert view_count(searcher, View("Orals", "decision:oral"), scope=colm) == 1
    assert view_count(searcher, View("Orals", "decision:oral")) == 2


def test_scope_labels() -> None:
    assert scope_label(ALL) == "all venues"
    assert scope_label(frozenset({"COLM 2025"})) == "COLM 2025"
    assert scope_label(frozenset({"ICLR 2026", "COLM 2025"}), ["ICLR 2026", "COLM 2025"]) == "ICLR 2026 + COLM 2025"
    assert scope_label(frozenset({"A", "B", "C"})) == "3 venues"
    assert scope_label(frozenset({"", "A\x1b[2J"})) == f"{NO_VENUE} + A␛[2J"  # sorted: "" first


def test_the_scope_is_kept_in_the_settings(tmp_path: Path) -> None:
    SettingsFile(tmp_path).update(venues=["COLM 2025", "ICLR 2026"])
    assert SettingsFile(tmp_path).settings.venues == ["COLM 2025", "ICLR 2026"]
    settings, refused = Settings.checked({"venues": ["COLM 2025", 3, "COLM 2025"]})
    assert settings.venues == ["COLM 2025"] and len(refused) == 1 and "venues" in refused[0]
    settings, refused = Settings.checked({"venues": "COLM 2025"})
    assert settings.venues == [] and refused


@pytest.mark.data
def test_the_seeds_and_colm_2025_are_two_venues_of_one_library(tmp_path: Path, seed_files: list[Path]) -> None:
    """The bundled ICLR 2026 seeds and Paper Copilot's whole COLM 2025 list in one store: each
    venue's papers, counted from the files, are its scope's (read from the rows cache as well)."""
    from paperdeck.sources.importer import import_files

    from tests.helpers import SHARED_DATA

    colm_file = SHARED_DATA / "papercopilot_colm2025.json"
    colm_ids = {record["id"] for record in json.loads(colm_file.read_bytes())}
    store = Store(tmp_path / "data")
    import_files(store, seed_files)
    seeds = store.paper_count
    import_files(store, [colm_file])
    for opened in (store, Store(store.data_dir, lazy=True)):
        assert venue_counts(opened) == {"ICLR 2026": seeds, "COLM 2025": len(colm_ids)}
        colm = scoped_ids(opened, frozenset({"COLM 2025"})) or []
        assert {pid.removeprefix("openreview:") for pid in colm} == colm_ids
        assert len(scoped_ids(opened, frozenset({"ICLR 2026"})) or []) == seeds


def test_venues_in_a_view_and_the_scales_of_each_venue(store: Store) -> None:
    from paperdeck.model.paper import Ratings
    from paperdeck.model.venue import Scale
    from paperdeck.search.venue_ranks import scales_of_venues, scales_shown
    from paperdeck.search.venues import venues_in

    ids = store.paper_ids
    assert venues_in(store, []) == frozenset()
    assert venues_in(store, [ids[0], ids[5], "abs:nosuchpaper"]) == {"ICLR 2026"}
    assert venues_in(store, ids) == {"ICLR 2026", "COLM 2025", "TMLR", ""}
    rated = [
        Paper(id="a", title="A", abstract="x", venue="COLM", year=2025, ratings=Ratings(6.5)),
        Paper(id="b", title="B", abstract="y", venue="FOO", year=2030, ratings=Ratings(3.0, scale="1-5")),
        Paper(id="c", title="C", abstract="z", venue="FOO", year=2030),
    ]  # fmt: skip
    scales = scales_shown(rated)
    assert set(scales) == {"a", "b"}
    assert scales_of_venues(rated, scales) == {"COLM 2025": {scales["a"]}, "FOO 2030": {Scale.parse("1-5")}}
    assert scales_of_venues(rated[:1], scales_shown(rated[:1])) == {}  # one scale: nothing to tell apart
