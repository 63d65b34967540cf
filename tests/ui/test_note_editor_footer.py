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
        await pilot.click(FooterKey, offset=(1, 0))  # the first key: save
        await wait_for(pilot, lambda: not isinstance(app.screen, NoteEditor), what="saved by a click")
