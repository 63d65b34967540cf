"""Every action on the highlighted paper, with no paper highlighted (a filter that matches
nothing), says so in the one line :mod:`paperdeck.ui.no_paper` decides — `o` said "This paper has
no link.", `y`, `Y`, `N`, `T` and `space` said nothing — and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.commands import COMMANDS
from paperdeck.ui.no_paper import NO_PAPER
from paperdeck.ui.screens.refused import RefusedDialog
from textual.widgets import Label

from tests.ui.helpers import SIZE, main_screen, paper_list, settle

#: The row commands that act on one paper (the others act on the view: ``]``, ``V``, ``M``, ``E``).
ON_THE_VIEW = {"main.next_unseen", "main.mark_range", "main.mark_all", "main.export"}
#: The actions that open a text-entry dialog: refused in a dialog (:mod:`paperdeck.ui.screens.refused`).
TEXT_ENTRY = {"main.note", "main.tags"}
PAPER_ACTIONS = [c for c in COMMANDS if c.rows and c.id not in ON_THE_VIEW]


def test_the_paper_actions_are_every_row_command_on_one_paper() -> None:
    keys = {c.id for c in PAPER_ACTIONS}
    assert {"main.open", "main.copy", "main.copy_bibtex", "main.star", "main.note", "main.tags"} <= keys


@pytest.mark.parametrize("command", PAPER_ACTIONS, ids=lambda c: c.id)
async def test_a_paper_action_with_no_paper_highlighted_says_so(
    make_app: Callable[..., PaperApp], command: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zzqxjvwk")
        await settle(pilot)
        assert paper_list(app).highlighted_id is None
        before = app.store.all_user_data
        await main_screen(app).run_action(command.action)  # type: ignore[attr-defined]
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert app.store.all_user_data == before and not copied
        if command.id in TEXT_ENTRY:  # type: ignore[attr-defined]  # the reason in a dialog taking the keys typed next
            assert not said and isinstance(app.screen, RefusedDialog)
            assert str(app.screen.query_one("#refused-reason", Label).render()) == NO_PAPER
            return
        assert said == [NO_PAPER], said
        assert main_screen(app) is app.screen, "no dialog opened"
