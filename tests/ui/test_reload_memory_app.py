"""The app reading the catalogue again (another process imported) holds one search index: the
one built for the papers replaced is freed as it is replaced, not left to the cycle collector."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import FIXED_TIME, SIZE, main_screen, settle


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
