"""Each venue's list columns (a decision, a rating, an area) are kept in the rows cache's header
beside the venue runs (issue 31, eighth round): a library opened on a venue without ratings knew
its scope's columns only by reading and decoding every row of that venue (~0.1 s of CPU for ICLR
2026's 19,630 in the nine-venue library) before its first paint. Written by the whole write and
kept by the writes in place (tests/store/test_import_in_place.py and test_review_rescore.py
compare their headers with the whole write's); a cache without them is walked, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.catalogue import ROWS_FILE
from paperdeck.store.rows import RowColumns
from paperdeck.store.store import Store
from paperdeck.ui.screens.view_columns import scope_columns


def _papers() -> list[Paper]:
    rated = [Paper(id=f"iclr:{n}", title=f"Rated {n}", abstract="x", venue="ICLR", year=2026, decision="poster",
                   ratings=Ratings(6.0, count=3)) for n in range(6)]  # fmt: skip
    unrated = [Paper(id=f"nips:{n}", title=f"Unrated {n}", abstract="y", venue="NeurIPS", year=2018,
                     primary_area="theory") for n in range(5)]  # fmt: skip
    return rated + unrated


@pytest.fixture
def library(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    store.import_papers(_papers())
    return store.data_dir


def _opened(data: Path) -> Store:
    """As the app opens a store: its rows cache read, the catalogue not parsed."""
    return Store(data, lazy=True, user_records=False, lean=True)


def _labels(store: Store) -> tuple[str, str]:
    labels = store.venue_runs.labels
    return next(x for x in labels if "ICLR" in x), next(x for x in labels if "NeurIPS" in x)


def test_the_rows_cache_holds_each_venues_columns(library: Path) -> None:
    store = _opened(library)
    iclr, nips = _labels(store)
    header = json.loads((library / ROWS_FILE).read_bytes().split(b"\n")[0])
    assert header["venue_columns"] == {iclr: [True, True, False], nips: [False, False, True]}
    assert store.catalogue.venue_columns == {iclr: RowColumns(True, True, False), nips: RowColumns(False, False, True)}


def test_a_scopes_columns_read_no_row(library: Path) -> None:
    store = _opened(library)
    iclr, nips = _labels(store)
    reads: list[str] = []
    row = store.row
    store.row = lambda pid: (reads.append(pid), row(pid))[1]  # type: ignore[method-assign]
    assert tuple(scope_columns(store, frozenset({nips}))) == (False, False, True)
    assert tuple(scope_columns(store, frozenset({iclr}))) == (True, True, False)
    assert reads == []
    store.load()  # the papers parsed from the very file: the same answer, still no row read
    assert store.catalogue.venue_columns is not None
    assert tuple(scope_columns(store, frozenset({nips, iclr}))) == (True, True, True)
    assert reads == []


def test_a_cache_without_them_walks_the_rows_as_before(library: Path) -> None:
    path = library / ROWS_FILE
    head, rest = path.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    del header["venue_columns"]
    path.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    store = _opened(library)
    assert not store.catalogue.loaded and store.catalogue.venue_columns is None
    _, nips = _labels(store)
    reads: list[str] = []
    row = store.row
    store.row = lambda pid: (reads.append(pid), row(pid))[1]  # type: ignore[method-assign]
    assert tuple(scope_columns(store, frozenset({nips}))) == (False, False, True)
    assert len(reads) == 5  # the venue walked whole: no rating found


@pytest.mark.parametrize("damaged", [[True, True], {"x": [True, True, True]}, "no", [1, 0, 1]])
def test_damaged_venue_columns_are_not_used(library: Path, damaged: object) -> None:
    path = library / ROWS_FILE
    head, rest = path.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    first = next(iter(header["venue_columns"]))
    header["venue_columns"] = (
        damaged if isinstance(damaged, dict | str) else {**header["venue_columns"], first: damaged}
    )
    path.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    store = _opened(library)
    assert not store.catalogue.loaded and store.catalogue.venue_columns is None


def test_a_paper_gaining_a_rating_in_place_updates_its_venue(library: Path) -> None:
    """A later import of papers all held (merged in place) adds its rows' columns to their venues'."""
    store = Store(library, lazy=True, rows=False, user_records=False)
    nips_paper = next(p for p in _papers() if p.id == "nips:0")
    from dataclasses import replace

    store.import_papers([replace(nips_paper, ratings=Ratings(5.0, count=2), decision="reject")])
    assert not store.catalogue.loaded  # merged in place
    reopened = _opened(library)
    _, nips = _labels(reopened)
    assert not reopened.catalogue.loaded
    assert reopened.catalogue.venue_columns is not None
    assert reopened.catalogue.venue_columns[nips] == RowColumns(True, True, True)
    assert tuple(scope_columns(reopened, frozenset({nips}))) == (True, True, True)


def test_a_gone_stores_columns_are_never_handed_to_another(library: Path) -> None:
    """CI under Python 3.12 (stop 45): the per-store caches were keyed by ``id(store)``, which
    outlives the store; a later store at the same address and generation was handed the gone one's
    venue columns (its rows never walked). Both caches now drop a store's entry with the store."""
    import gc

    from paperdeck.ui import scope_counts
    from paperdeck.ui.screens import view_columns

    store = _opened(library)
    _, nips = _labels(store)
    scope_columns(store, frozenset({nips}))
    scope_counts.scoped_user_counts(store, frozenset({nips}))
    assert store in view_columns._by_venue and store in scope_counts._held
    # Stores earlier tests of this process left to the collector (a reference cycle) go first:
    # counted below, they made this test fail when it ran after one of them.
    gc.collect()
    held = len(view_columns._by_venue), len(scope_counts._held)
    del store
    gc.collect()
    assert (len(view_columns._by_venue), len(scope_counts._held)) == (held[0] - 1, held[1] - 1)
