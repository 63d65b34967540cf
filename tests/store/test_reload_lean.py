"""A lean catalogue (the app's: :mod:`paperdeck.store.lean_papers`) read again after another
process imported: a paper whose document is byte for byte the same in the new file is taken from
the columns held, not parsed again; the store then holds one generation of columns (the old ones
are freed with the old papers), answers every field as a fresh open of the new file does, and the
user's stars and notes are still there."""

from __future__ import annotations

import gc
import os
import weakref
from dataclasses import fields, replace
from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.lean_papers import DeferredPaper, LeanPaper, PaperColumns
from paperdeck.store.store import Store

FIXED_TIME = "2026-11-29T12:00:00+00:00"


def papers(numbers: range) -> list[Paper]:
    return [
        Paper(id=f"openreview:L{n}", title=f"Lean paper {n}", authors=("Ann Lee", "Bo Chen"),
              abstract=f"An abstract about topic {n}.", openreview_id=f"L{n}", venue="ICLR", year=2026,
              primary_area=f"area {n % 3}", ratings=Ratings(mean=5.0 + n % 4, count=3) if n % 2 else None,
              confidence=3.5 if n % 5 else None, number=n)
        for n in numbers
    ]  # fmt: skip


def lean(data_dir: Path) -> Store:
    store = Store(data_dir, lazy=True, user_records=False, lean=True, now=lambda: FIXED_TIME)
    store.load()
    return store


def same(a: Paper, b: Paper) -> bool:
    return all(
        getattr(a, f.name) == getattr(b, f.name) and type(getattr(a, f.name)) is type(getattr(b, f.name))
        for f in fields(Paper)
    )


@pytest.fixture
def imported(tmp_path: Path) -> tuple[Store, Store]:
    """A lean store of 40 papers (stars and a note set), then another process's import: three
    papers decided, two new."""
    data_dir = tmp_path / "data"
    Store(data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(40)))
    store = lean(data_dir)
    assert isinstance(store.paper("openreview:L7"), LeanPaper)
    store.set_star("openreview:L3", True)
    store.set_note("openreview:L4", "read this first")
    other = Store(data_dir, now=lambda: FIXED_TIME)
    changed = [replace(paper, decision="Accept (poster)") for paper in papers(range(3))]
    other.import_papers([*changed, *papers(range(40, 42))])
    return store, other


def test_unchanged_papers_are_taken_not_parsed(imported: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    store, _ = imported
    parsed: list[str] = []
    of = Paper.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Paper], data: dict[str, object]) -> Paper:
        paper = of(cls, data)
        parsed.append(paper.id)
        return paper

    monkeypatch.setattr(Paper, "from_dict", classmethod(counted))
    assert store.reload_catalogue()
    assert sorted(parsed) == ["openreview:L0", "openreview:L1", "openreview:L2", "openreview:L40", "openreview:L41"]


def test_the_reloaded_store_answers_as_a_fresh_open(imported: tuple[Store, Store]) -> None:
    store, _ = imported
    assert store.reload_catalogue()
    fresh = lean(store.data_dir)
    assert store.paper_ids == fresh.paper_ids
    for paper_id in fresh.paper_ids:
        reloaded, opened = store.paper(paper_id), fresh.paper(paper_id)
        assert reloaded is not None and opened is not None
        assert same(reloaded, opened), paper_id
    assert store.paper("openreview:L1").decision == "Accept (poster)"  # type: ignore[union-attr]
    assert store.paper("openreview:L5").decision == "unknown"  # type: ignore[union-attr]


def test_a_reload_holds_one_generation_of_columns(imported: tuple[Store, Store]) -> None:
    store, _ = imported
    held = store.paper("openreview:L9")
    assert isinstance(held, LeanPaper)
    old = weakref.ref(held._columns)
    # Columns other tests left alive (under xdist, in the same process) are not this store's.
    others = [obj for obj in gc.get_objects() if type(obj) is PaperColumns and obj is not held._columns]
    del held
    assert store.reload_catalogue()
    gc.collect()
    assert old() is None  # nothing of the new generation refers to the old columns
    alive = [obj for obj in gc.get_objects() if type(obj) is PaperColumns and not any(obj is o for o in others)]
    assert len(alive) == 1


def test_user_data_survives_the_reload(imported: tuple[Store, Store]) -> None:
    store, _ = imported
    assert store.reload_catalogue()
    assert store.user_data("openreview:L3").starred
    assert store.user_data("openreview:L4").note == "read this first"


def test_a_deferred_paper_unchanged_stays_deferred(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    Store(data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(10)))
    store = Store(data_dir, lazy=True, user_records=False, lean=True, now=lambda: FIXED_TIME)
    store.catalogue.defer_outside(frozenset({"nowhere"}))
    store.load()
    assert all(type(store.catalogue.held_papers[pid]) is DeferredPaper for pid in store.paper_ids)
    Store(data_dir, now=lambda: FIXED_TIME).import_papers([replace(papers(range(1))[0], decision="Reject")])
    assert store.reload_catalogue()
    held = store.catalogue.held_papers
    deferred = [pid for pid in store.paper_ids if isinstance(paper := held[pid], DeferredPaper) and not paper.parsed]
    assert deferred == [f"openreview:L{n}" for n in range(1, 10)]
    assert held["openreview:L5"].number == 5


def test_a_new_file_not_a_catalogue_is_refused_and_the_papers_kept(imported: tuple[Store, Store]) -> None:
    store, _ = imported
    before = list(store.paper_ids)
    path = store.data_dir / "catalogue.json"
    data = path.read_bytes()
    stat = path.stat()
    path.write_bytes(b'{"nope":' + data[8:])  # same size and time: the rows cache still names it
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(StoreError):
        store.reload_catalogue()  # not read by spans; then parsed whole, which names the fault
    assert store.paper_ids == before


def test_a_rows_cache_naming_an_id_twice_makes_the_reload_read_the_catalogue_whole(
    imported: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reload reads the rows cache's ids and spans alone (no table of them by id, which
    caught an id twice): an id twice makes the papers read by the spans fall short of the ids,
    and the catalogue is then read whole, every paper as a fresh open gives it."""
    import paperdeck.store.catalogue as catalogue_module
    from paperdeck.store.rows import read_rows_ids

    store, _ = imported
    ids, line = read_rows_ids(store.data_dir / "rows-cache.json", store.data_dir / "catalogue.json") or ([], b"")
    assert len(ids) == 42 and ids[0] == "openreview:L0" and line
    twice = [*ids[:-1], ids[0]]
    monkeypatch.setattr(catalogue_module, "read_rows_ids", lambda *_: (twice, line))
    assert store.reload_catalogue()
    fresh = lean(store.data_dir)
    assert store.paper_ids == fresh.paper_ids
    assert all(same(store.paper(i), fresh.paper(i)) for i in fresh.paper_ids)  # type: ignore[arg-type]
