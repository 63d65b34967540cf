"""A catalogue read again after another process imported replaces what the store held; it adds
nothing beside it: unchanged papers stay the objects already held, and an index built for the
papers replaced is let go before the one for the new papers is built."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.searcher import Lazy
from paperdeck.store.store import ROWS_FILE, Store

FIXED_TIME = "2026-11-29T12:00:00+00:00"


def papers(numbers: range, keywords: tuple[str, ...] = ()) -> list[Paper]:
    return [
        Paper(id=f"openreview:P{n}", title=f"Paper number {n}", authors=("Ann Lee",),
              abstract=f"An abstract about topic {n}.", openreview_id=f"P{n}", keywords=keywords)
        for n in numbers
    ]  # fmt: skip


@pytest.mark.parametrize("rows_cache", [True, False], ids=["by-spans", "whole-file"])
def test_a_reread_catalogue_keeps_each_unchanged_paper_as_the_object_held(
    tmp_path: Path, rows_cache: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(30)))
    held = {paper.id: paper for paper in store.papers}
    other = Store(store.data_dir, now=lambda: FIXED_TIME)
    other.import_papers([*papers(range(30, 32)), *papers(range(3), ("revised",))])  # two new, three changed
    if not rows_cache:
        (store.data_dir / ROWS_FILE).unlink()  # the whole file is parsed instead
    else:  # read paper by paper where the importer's rows cache says: never one parsed tree
        monkeypatch.setattr(store.catalogue._storage, "read", lambda: pytest.fail("the whole file was parsed"))
    assert store.reload_catalogue()
    now = {paper.id: paper for paper in store.papers}
    assert len(now) == 32
    changed = [pid for pid, paper in now.items() if pid in held and paper != held[pid]]
    assert changed == ["openreview:P0", "openreview:P1", "openreview:P2"]
    kept = [pid for pid, paper in now.items() if held.get(pid) is paper]
    assert len(kept) == 27  # every paper the import left alone: one object, never a copy beside it


class _Value:
    """A built value that can be watched with a weak reference."""


def test_a_value_built_for_replaced_papers_is_let_go_before_the_next_build(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(3)))
    previous: list[weakref.ref[_Value]] = []
    alive_at_build: list[bool] = []

    def build(_store: Store) -> _Value:
        gc.collect()
        alive_at_build.append(any(ref() is not None for ref in previous))
        value = _Value()
        previous.append(weakref.ref(value))
        return value

    lazy: Lazy[_Value] = Lazy(store, build)
    first = lazy.get()
    del first
    Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(3, 5)))
    assert store.reload_catalogue()
    assert lazy.built is None  # stale: let go at once, not held until the next build
    gc.collect()
    assert previous[0]() is None
    lazy.get()
    assert alive_at_build == [False, False]
