"""A confirmation toast is as wide as its text: at 80×24 "Note saved." was drawn 60 cells wide
over the detail pane, on the note it confirms (a README-only tester)."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets._toast import Toast

from tests.ui.helpers import main_screen, settle
from tests.waits import wait_for


async def test_note_saved_leaves_the_detail_pane_readable(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor), what="the note editor")
        await pilot.press(*"read section 3", "ctrl+s")
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)), what="the toast")
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        assert "Note saved." in str(toast.render())
        assert toast.region.width <= len("Note saved.") + 4  # its text and padding, no more
        detail = main_screen(app).query_one(PaperDetail).region
        assert toast.region.x >= detail.x + detail.width - 20  # the pane's lines readable left of it
