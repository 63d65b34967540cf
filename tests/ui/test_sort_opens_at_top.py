"""A sort order asked for (``O``) shows its list from the top, the first paper highlighted, as a
new query's list does (and as fzf, ranger and harlequin do on a new order): kept on the paper
highlighted before, it showed rows from the middle of the new order, which looked unsorted. A
re-filter for another reason (a star under "starred only") still keeps the highlighted paper."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.settings import CONFIG_FILE, SORTS
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import main_screen, paper_list, settle, started

PAPERS = 80


def store_of_papers(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(  # titles in the reverse of list order: a title sort moves every paper
        [
            Paper(id=f"openreview:P{n:03d}", title=f"Paper {PAPERS - n:03d}", abstract="An abstract.")
            for n in range(PAPERS)
        ]
    )
    return store


async def test_each_sort_asked_for_opens_its_list_at_the_top(tmp_path: Path) -> None:
    async with started(PaperApp(store=store_of_papers(tmp_path)), size=(80, 24)) as (app, pilot):
        shown = paper_list(app)
        for _ in range(3):  # relevance → list (shown at once), → title and → rating (in the worker)
            await pilot.press("G", "k", "k")  # near the end of the list, scrolled down
            await settle(pilot)
            assert shown.cursor > 0 and shown.scroll_offset.y > 0
            await pilot.press("O")
            await settle(pilot)
            order = main_screen(app).list_filter.order
            assert (shown.cursor, shown.scroll_offset.y) == (0, 0), f"sorted by {order}: not at the top"
        assert order == SORTS[3]


async def test_a_refilter_after_a_sort_keeps_the_highlighted_paper(tmp_path: Path) -> None:
    async with started(PaperApp(store=store_of_papers(tmp_path)), size=(80, 24)) as (app, pilot):
        await pilot.press("O", "O")  # by title, the blank bar's list sorted in the worker
        await settle(pilot)
        await pilot.press("G", "k")
        await settle(pilot)
        shown = paper_list(app)
        highlighted = shown.highlighted_id
        main_screen(app).list_filter.refilter(after_change=True)
        await settle(pilot)
        assert shown.highlighted_id == highlighted


def _in_view(app: PaperApp) -> bool:
    """Whether the list's highlighted row is among the rows it shows."""
    shown = paper_list(app)
    top = shown.scroll_offset.y
    return top <= shown.cursor < top + shown.scrollable_content_region.height


async def test_the_saved_sort_opens_at_its_top_and_j_keeps_the_highlight_in_view(tmp_path: Path) -> None:
    """A tester's find: with a saved sort other than relevance, the app showed the top of the
    sorted list while the highlight stayed on the catalogue's first paper, off screen (the detail
    pane on it), and ``j`` moved it there unseen. It opens as a sort asked for does: at the top."""
    store = store_of_papers(tmp_path)
    (store.data_dir / CONFIG_FILE).write_text(json.dumps({"sort": "title"}), "utf-8")
    async with started(PaperApp(store=store), size=(80, 24)) as (app, pilot):
        screen = main_screen(app)
        shown = paper_list(app)
        assert screen.list_filter.order == "title"
        first = screen.view_ids()[0]
        assert first != store.paper_ids[0]  # the title sort moved the catalogue's first paper
        assert (shown.cursor, shown.scroll_offset.y) == (0, 0)
        assert shown.highlighted_id == first
        for _ in range(30):  # past the rows shown at 24 lines: the list scrolls with the highlight
            await pilot.press("j")
            await settle(pilot)
            assert _in_view(app), (shown.cursor, shown.scroll_offset.y)
        assert shown.cursor == 30
        for _ in range(30):
            await pilot.press("k")
            await settle(pilot)
            assert _in_view(app), (shown.cursor, shown.scroll_offset.y)
        assert shown.highlighted_id == first
