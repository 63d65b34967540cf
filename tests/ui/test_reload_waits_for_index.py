"""The app reading the catalogue again waits, a bounded time, for the search index the importing
process saves after the catalogue (``paperdeck import`` saves it last): read before, the index
would be built in the app from every paper's texts (at 5 × the ICLR 2026 store, a minute of CPU
and twice the app's memory). An index nothing keeps current is not waited for."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from paperdeck.cli.caches import save_indexes
from paperdeck.model.paper import Paper
from paperdeck.search import index as index_module
from paperdeck.search.index_file import INDEX_FILE, saved_stamp
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import FIXED_TIME, SIZE, main_screen, settle
from tests.waits import wait_for


def papers(numbers: range) -> list[Paper]:
    return [
        Paper(id=f"openreview:W{n}", title=f"Waiting paper {n}", authors=("Ann Lee",),
              abstract=f"An abstract about subject {n}.", openreview_id=f"W{n}")
        for n in numbers
    ]  # fmt: skip


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each search index built from papers in this process (not read from its file): its size."""
    made: list[int] = []
    build = index_module.build

    def counted(papers: Sequence[Paper]) -> Any:
        made.append(len(papers))
        return build(papers)

    monkeypatch.setattr(index_module, "build", counted)
    return made


async def test_the_reload_waits_for_the_importers_index_and_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setattr(PaperApp, "CATALOGUE_CHECK_S", 0.05)
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(5)))
    save_indexes(store)
    app = PaperApp(store=Store(store.data_dir, lazy=True, user_records=False, lean=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.store.loaded, what="the catalogue parsed")  # else it is read as it is then
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None, what="the index read")
        builds.clear()  # the fixture's own save built one
        other = Store(store.data_dir, now=lambda: FIXED_TIME)  # another process: the catalogue first
        other.import_papers(papers(range(5, 8)))
        assert saved_stamp(store.data_dir / INDEX_FILE) != other.catalogue_stamp()
        for _ in range(10):  # twenty looks at the catalogue
            await asyncio.sleep(0.1)
            await settle(pilot)
        assert app.store.paper_count == 5  # not read while its index lags
        save_indexes(other)  # then the index, as `paperdeck import` does
        builds.clear()
        await wait_for(pilot, lambda: app.store.paper_count == 8, what="the catalogue read again")
        await settle(pilot)
        searcher = main_screen(app).searcher  # the old index may still be there a moment: its 5 papers
        await wait_for(pilot, lambda: len(searcher.index.built or ()) == 8, what="the new index")
        assert builds == []  # read from the importer's file, not built here


async def test_an_index_that_never_comes_is_waited_for_a_bounded_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PaperApp, "CATALOGUE_CHECK_S", 0.05)
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 0.5)
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(5)))
    save_indexes(store)
    app = PaperApp(store=Store(store.data_dir, lazy=True, user_records=False, lean=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.store.loaded, what="the catalogue parsed")  # else it is read as it is then
        Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(5, 7)))  # saves no index
        await wait_for(pilot, lambda: app.store.paper_count == 7, what="the catalogue read after the wait")


async def test_no_saved_index_is_not_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PaperApp, "CATALOGUE_CHECK_S", 0.05)
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 3600.0)
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(5)))
    save_indexes(store)
    app = PaperApp(store=Store(store.data_dir, lazy=True, user_records=False, lean=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.store.loaded, what="the catalogue parsed")
        await wait_for(pilot, lambda: main_screen(app).searcher.index.built is not None, what="the index read")
        (store.data_dir / INDEX_FILE).unlink()  # nothing saved to wait for
        Store(store.data_dir, now=lambda: FIXED_TIME).import_papers(papers(range(5, 8)))
        await wait_for(pilot, lambda: app.store.paper_count == 8, what="the catalogue read at once")
