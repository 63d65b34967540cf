"""The app on a lean store (``Store(lean=True)``, as ``paperdeck`` opens it: issue 32): its papers
are held without their texts, the list, the detail pane and a field query show the same as on a
full store, and the texts read are those of the papers shown, not the catalogue's."""

from __future__ import annotations

import gc

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store import lean_papers
from paperdeck.store.lean_papers import CACHED_PAPERS, LeanPaper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import Static

from tests.ui.helpers import SIZE, counts, highlighted, main_screen, settle
from tests.waits import wait_for


def _detail_text(app: PaperApp) -> str:
    return str(main_screen(app).query_one(PaperDetail).query_one("#detail-body", Static).render())


async def test_the_app_on_a_lean_store_shows_the_papers_and_reads_only_their_texts(seeded_store: Store) -> None:
    orals = [
        Paper(id=f"openreview:Oral{n}", title=f"An oral paper {n}", abstract=f"Oral abstract {n}.", decision="oral")
        for n in range(2)
    ]
    seeded_store.import_papers(orals)
    full = {paper.id: paper for paper in seeded_store.papers}
    store = Store(seeded_store.data_dir, lazy=True, user_records=False, lean=True)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: store.loaded, what="the catalogue loaded")
        await settle(pilot)
        papers = store.papers
        assert all(type(paper) is LeanPaper for paper in papers) and len(papers) == len(full) == 39
        shown = highlighted(app)
        assert shown == full[shown.id]
        await wait_for(pilot, lambda: shown.title[:20] in _detail_text(app), what="the detail pane")
        text = object.__getattribute__(papers[0], "_text")
        assert 0 < text.reads <= CACHED_PAPERS  # the papers shown, not every paper of a larger store
        reads = text.reads
        await pilot.press("slash", *"decision:oral")
        await settle(pilot)
        assert counts(app).split()[0] == "2"
        assert text.reads - reads <= 2  # the rows of the two papers kept, at most: no paper's text for the query


async def test_the_app_on_a_lean_store_holds_a_full_paper_only_for_those_shown(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lean_papers, "CACHED_PAPERS", 4)  # the file's cache of papers read: 4 here
    full = {paper.id: paper for paper in seeded_store.papers}
    gc.collect()
    # Papers of these ids that other tests of this process left alive are not the app's: held
    # here (so that none of their addresses is taken by a paper the app makes) and left out.
    before = [obj for obj in gc.get_objects() if type(obj) is Paper]
    kept = {id(obj) for obj in before}
    store = Store(seeded_store.data_dir, lazy=True, user_records=False, lean=True)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: store.loaded, what="the catalogue loaded")
        await settle(pilot)
        shown = highlighted(app)
        await wait_for(pilot, lambda: shown.title[:20] in _detail_text(app), what="the detail pane")
        await app.workers.wait_for_complete()  # the steady state: no index build under way
        await settle(pilot)
        gc.collect()
        # Full papers alive that the app made: those the cache keeps and the screens show, not one a paper.
        made = [obj for obj in gc.get_objects() if type(obj) is Paper and obj.id in full and id(obj) not in kept]
        assert len(made) <= 8 < len(full) == 37
        assert len(before) >= len(full)  # the test's own full papers were seen, so left out
