"""At 80×24 (the detail pane below the list) a toast shows over the list, not over the paper.

The sixteenth round (left16): with Zotero not running, ``E`` → ``zotero`` raised its error (20 s,
seven rows) at the bottom right, over the detail pane the user was reading. With the panes
stacked the toasts now go top right, under the filter bar, over the list, a row shorter above and
below their text; a click still dismisses one. Side by side (from 140 columns) they stay at the
bottom right, beside the list."""

from __future__ import annotations

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList
from textual.widgets._toast import Toast

from tests.ui.helpers import main_screen, settle
from tests.waits import wait_for

#: What the export says when no Zotero listens (``paperdeck.fetch.zotero``).
NOT_RUNNING = (
    "Zotero is not running at http://127.0.0.1:23119 (no connection): start Zotero (and allow other "
    "applications to communicate with it), or set zotero_url in config.json; nothing was sent"
)


@pytest.fixture(autouse=True)
def _toasts_stay() -> None:
    """The product's own timeouts: the error stays while it is looked at."""


def shown_toasts(app: PaperApp) -> list[Toast]:
    return [toast for toast in app.screen.query(Toast) if toast.display and toast.visible]


async def test_an_error_at_80x24_covers_the_list_not_the_detail_pane(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.layout_mode == "stacked"
        screen.notify("Sending to Zotero…", markup=False)
        screen.notify(NOT_RUNNING, title="Not sent", severity="error", markup=False)
        await wait_for(pilot, lambda: len(shown_toasts(app)) == 2, what="both toasts")
        await pilot.pause()
        detail, listed = screen.query_one(PaperDetail).region, screen.query_one(PaperList).region
        assert detail.height > 3
        for toast in shown_toasts(app):
            assert not toast.region.overlaps(detail), toast.region
            assert toast.region.overlaps(listed) and toast.region.y >= listed.y
        error = next(t for t in shown_toasts(app) if t._notification.severity == "error")
        assert error.region.height <= 6  # its title and four lines of text: no blank row above or below
        await pilot.click(error)
        await wait_for(pilot, lambda: len(shown_toasts(app)) == 1, what="the error dismissed by a click")
        assert not [n for n in app._notifications if n.severity == "error"]


async def test_side_by_side_the_toasts_stay_at_the_bottom_right(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(200, 60), notifications=True) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.layout_mode == "side-by-side"
        screen.notify(NOT_RUNNING, title="Not sent", severity="error", markup=False)
        await wait_for(pilot, lambda: len(shown_toasts(app)) == 1, what="the error")
        await pilot.pause()
        (toast,) = shown_toasts(app)
        assert toast.region.bottom > 60 - 6 and toast.region.right > 200 - 3
