"""While the note editor is open the footer shows the editor's keys (a README-only tester saw the
main screen's ``s Star n Note u Undo … q Quit`` under it, and clicking them did nothing), not the
app's character keys, which are text there."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.widgets.footer import PaperFooter
from textual.widgets._footer import FooterKey

from tests.ui.helpers import SIZE, settle
from tests.waits import wait_for


def _footer_actions(app: PaperApp) -> list[str]:
    footers = list(app.screen.query(PaperFooter))
    return [key.action for footer in footers for key in footer.query(FooterKey) if key.display]


def _save_key(app: PaperApp) -> FooterKey | None:
    """The footer's save key once it is laid out (a key clicked before its region is placed, as
    a loaded machine can catch it, takes the click elsewhere)."""
    keys = [key for footer in app.screen.query(PaperFooter) for key in footer.query(FooterKey)]
    return next((key for key in keys if key.action == "save" and key.display and key.region.width > 1), None)


async def test_the_note_editors_footer_shows_its_keys(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor), what="the note editor")
        await wait_for(pilot, lambda: "save" in _footer_actions(app), what=lambda: _footer_actions(app))
        actions = _footer_actions(app)
        assert "cancel" in actions
        assert not {"toggle_star", "quit", "help"} & set(actions), actions
        await wait_for(pilot, lambda: _save_key(app) is not None, what="the save key laid out")
        await pilot.click(_save_key(app), offset=(1, 0))
        await wait_for(pilot, lambda: not isinstance(app.screen, NoteEditor), what="saved by a click")
