"""The help is longer than an 80×24 terminal shows: a line at the dialog's foot says more is
below until it is scrolled to its end; a help that fits says nothing."""

from __future__ import annotations

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.help import MORE_BELOW, HelpScreen
from textual.containers import VerticalScroll
from textual.widgets import Label

from tests.ui.helpers import settle
from tests.waits import wait_for


def _hint(screen: HelpScreen) -> str:
    return str(screen.query_one("#help-more", Label).render())


@pytest.mark.parametrize("size", [(80, 24), (200, 60), (200, 300)])
async def test_the_help_says_when_more_is_below(seeded_store: Store, size: tuple[int, int]) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        dialog = screen.query_one("#help-dialog", VerticalScroll)
        await pilot.pause()
        fits = dialog.max_scroll_y == 0
        assert fits == (size == (200, 300)), dialog.max_scroll_y  # 80×24 and 200×60 do not fit it
        assert _hint(screen) == ("" if fits else MORE_BELOW)
        await pilot.press("G")
        await pilot.pause()
        assert _hint(screen) == ""  # at the end: nothing more below
        await pilot.press("g")
        await pilot.pause()
        assert _hint(screen) == ("" if fits else MORE_BELOW)


async def test_on_a_wide_terminal_no_help_line_wraps(seeded_store: Store) -> None:
    """A tester's find at 200 columns: the dialog kept 72 cells and ``[main.undo_import]`` wrapped
    onto a line of its own; it is as wide as its widest line where there is room."""
    from rich.cells import cell_len
    from textual.widgets import Static

    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        body = app.screen.query_one("#help-body", Static)
        widest = max(cell_len(line) for line in str(body.render()).splitlines())
        await wait_for(pilot, lambda: body.content_size.width > 0, what="the help laid out")
        assert "[main.undo_import]" in str(body.render())
        assert body.content_size.width >= widest


@pytest.mark.parametrize("size", [(80, 24), (200, 60), (60, 20)])
async def test_every_help_line_fits_the_dialog_its_id_whole(seeded_store: Store, size: tuple[int, int]) -> None:
    """A tester's find at 80×24: lines wider than the dialog wrapped at its edge, ``[main.undo_import]``
    on a line of its own at the left edge, a query example's explanation under its example's start.
    Each line is wrapped to the dialog at a space, its continuation indented under its text (a key's
    under the description column); every binding id is whole on one line; and so again once the
    terminal is resized."""
    from paperdeck.ui.command_help import help_sections
    from rich.cells import cell_len
    from textual.widgets import Static

    idents = [f"[{line.ident}]" for _, lines in help_sections({}) for line in lines if line.ident]
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        body = app.screen.query_one("#help-body", Static)
        for width, height in (size, (size[0] + 23, size[1])):
            await pilot.resize_terminal(width, height)
            await wait_for(pilot, lambda: body.content_size.width > 0, what="the help laid out")
            await pilot.pause()
            lines = str(body.render()).splitlines()
            room = body.content_size.width
            assert [line for line in lines if cell_len(line) > room] == [], (size, room)
            assert all(any(ident in line for line in lines) for ident in idents)
            continued = [line for line in lines if line.startswith("                    [")]  # an id alone
            assert all(line.strip() in idents for line in continued)
