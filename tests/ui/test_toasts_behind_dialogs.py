"""A toast raised before a dialog opened waits behind it, hidden until it closes (a tester's find:
at 80×24 the error of a refused config.json, which stays until dismissed, covered the name field
of ``w``'s dialog); a toast the dialog raises itself shows."""

from __future__ import annotations

import pytest
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.views import SaveViewPrompt
from textual.widgets import Input
from textual.widgets._toast import Toast

from tests.ui.helpers import main_screen, settle
from tests.waits import wait_for


@pytest.fixture(autouse=True)
def _toasts_stay() -> None:
    """The product's own timeouts: the error stays until dismissed."""


def shown_toasts(app: PaperApp) -> list[Toast]:
    return [toast for toast in app.screen.query(Toast) if toast.display and toast.visible]


async def test_a_sticky_error_does_not_cover_the_save_view_dialog(seeded_store: Store) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text('{"theme": "nope", "list_width": 500}', "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: bool(shown_toasts(app)), what="the refused settings' error")
        main_screen(app).query_one("#filter", Input).value = "decision:oral"
        await settle(pilot)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveViewPrompt), what="the save-view dialog")
        await pilot.pause()
        await pilot.pause()
        dialog = app.screen.query_one("#save-view-dialog").region  # its name field and its hints
        assert app.screen.query_one("#view-name", Input).region in dialog
        assert not [t for t in shown_toasts(app) if t.region.overlaps(dialog)]
        assert any(n.severity == "error" for n in app._notifications)  # kept, not dismissed
        app.screen.notify("Raised by the dialog", markup=False)
        await wait_for(pilot, lambda: len(shown_toasts(app)) == 1, what="the dialog's own toast")
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: any("refused" in str(t._notification.title) for t in shown_toasts(app)),
            what="the error again",
        )
