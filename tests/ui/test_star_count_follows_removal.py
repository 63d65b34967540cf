"""The header's ``★ N`` counts the starred papers in the store: a removed paper's star is kept
(for when it comes back) but not counted, and an undo that brings the paper back counts it again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen

from tests.helpers import fixture
from tests.ui.helpers import SIZE, counts, highlighted, main_screen, settle
from tests.waits import wait_for


def test_the_store_counts_the_stars_of_its_papers_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [fixture("iclr2023_submissions_number_title.tsv")])
    a, b = store.paper_ids[:2]
    store.set_star(a, True)
    store.set_star(b, True)
    store.set_status(b, "read")
    assert store.user_counts()[0] == 2 and store.user_counts()[1]["read"] == 1
    store.remove_papers([b])
    starred, statuses = store.user_counts()
    assert starred == 1 and statuses["read"] == 0
    assert store.user_data(b).starred  # kept for when it comes back
    store.undo_last_change()
    assert store.user_counts()[0] == 2 and store.user_counts()[1]["read"] == 1


async def test_the_header_star_count_follows_a_removal_and_its_undo(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("s")
        await wait_for(pilot, lambda: "★ 1" in counts(app), what=lambda: counts(app))
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: target not in main_screen(app).view_ids(), what="the paper gone")
        await wait_for(pilot, lambda: "★" not in counts(app), what=lambda: counts(app))
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        await pilot.press("y")
        await wait_for(pilot, lambda: target in main_screen(app).view_ids(), what="the paper back")
        await wait_for(pilot, lambda: "★ 1" in counts(app), what=lambda: counts(app))
