"""The app reading the catalogue again (another process imported) holds one search index: the
one built for the papers replaced is freed as it is replaced, not left to the cycle collector."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from pathlib import Path

import pytest
from paperdeck import runtime
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import FIXED_TIME, SIZE, main_screen, settle
from tests.waits import wait_for


def papers(numbers: range) -> list[Paper]:
    return [
        Paper(id=f"openreview:P{n}", title=f"Paper number {n}", authors=("Ann Lee",),
              abstract=f"An abstract about topic {n}.", openreview_id=f"P{n}")
        for n in numbers
    ]  # fmt: skip


async def test_a_reread_catalogue_leaves_one_search_index_alive(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(4)))
    app = PaperApp(store=store)
    gc.disable()  # what only the cycle collector would free stays: the app must not need it
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            searcher = main_screen(app).searcher
            built: list[weakref.ref[object]] = []
            for batch in (range(4, 6), range(6, 8)):
                Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(papers(batch))
                app.check_catalogue()
                await settle(pilot)
                await settle(pilot)
                index = searcher.index.built
                assert index is not None and store.paper_count == batch.stop
                built.append(weakref.ref(index))
                del index
            assert built[0]() is None  # replaced, and freed with it
    finally:
        gc.enable()


async def test_the_index_of_the_papers_replaced_is_let_go_before_memory_is_handed_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reload's worker lets go of the indexes built for the papers replaced before it hands
    freed memory back, not at the next build: the next index is not built while the last one's
    memory is still taken (the full-store bound: tests/store/test_reload_peak.py)."""
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(4)))
    app = PaperApp(store=store)
    held_when_released: list[bool] = []
    old_alive: list[bool] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        searcher = main_screen(app).searcher
        await wait_for(pilot, lambda: searcher.index.built is not None, what="the index built")
        # The start's work done: nothing builds an index meanwhile.
        await wait_for(pilot, lambda: not any(w.is_running for w in app.workers), what="the start's work")
        lazies = (searcher.index, searcher.corpus, searcher.similarity)
        old = weakref.ref(searcher.index.built)

        def released() -> None:
            held_when_released.append(any(lazy._made is not None for lazy in lazies))
            old_alive.append(old() is not None)

        monkeypatch.setattr(runtime, "release_freed_memory", released)
        Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(4, 6)))
        app.check_catalogue()
        # The reload's worker's, then the list's once the new index is built.
        await wait_for(pilot, lambda: len(held_when_released) == 2, what="the reload's releases of memory")
        await wait_for(pilot, lambda: not any(w.is_running for w in app.workers), what="the reload's work")
        assert store.paper_count == 6
    assert held_when_released == [False, True]  # the new index is held at the second
    # Freed then, not left to the cycle collector (the start's build read no saved index: the
    # error of its read ahead, raised, held the frames of the build and the index in them).
    assert old_alive == [False, False]


async def test_a_decisions_import_seen_by_the_app_builds_and_writes_no_search_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process rewrote the catalogue for what the search index does not hold (decisions):
    the app's reload takes the saved index, stamped anew by copying its file, without building
    an index or writing one from memory (either held beside the index read: memory twice)."""
    from paperdeck.search import index_file
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.searcher import INDEX_FILE

    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(4)))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        searcher = main_screen(app).searcher
        await wait_for(pilot, lambda: searcher.index.built is not None, what="the index built")
        await wait_for(pilot, lambda: not any(w.is_running for w in app.workers), what="the start's work")
        old_stamp = index_file.read_sections(store.data_dir / INDEX_FILE)[0]["stamp"]
        made: list[str] = []
        real_init, real_save = SearchIndex.__init__, SearchIndex.save

        def init(self: SearchIndex, *args: object, **kwargs: object) -> None:
            made.append("built")
            real_init(self, *args, **kwargs)  # type: ignore[arg-type]

        def save(self: SearchIndex, *args: object, **kwargs: object) -> None:
            made.append("written")
            real_save(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(SearchIndex, "__init__", init)
        monkeypatch.setattr(SearchIndex, "save", save)
        decided = [replace(paper, decision="oral", decision_raw="Oral") for paper in papers(range(4))]
        Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(decided)
        app.check_catalogue()
        await wait_for(pilot, lambda: store.paper(papers(range(1))[0].id).decision == "oral", what="the reload")
        await wait_for(pilot, lambda: searcher.index.built is not None, what="the index taken")
        await wait_for(pilot, lambda: not any(w.is_running for w in app.workers), what="the reload's work")
        index = searcher.index.built
        assert index is not None and index.search_ids("number 2") == ["openreview:P2"]
    assert made == []
    new_stamp = index_file.read_sections(store.data_dir / INDEX_FILE)[0]["stamp"]  # CRC still holds
    assert new_stamp == list(store.held_catalogue_stamp() or ()) != old_stamp
