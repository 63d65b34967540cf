"""At 40×12 (and the smallest size, 40×9) a dialog keeps its input, its key line and any warning
it gives on screen (a README-only tester: at 40×12 the export prompt's ``⚠ there is no folder``
and its key line were below the screen, the format help above them; only ``tab`` scrolled to
them). A short screen drops the dialogs' explanations; what is left scrolls the warning into view."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from paperdeck.ui.screens.follow_dialogs import KeywordPrompt
from paperdeck.ui.screens.prompts import TagPrompt
from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList

from tests.ui.helpers import settle
from tests.ui.test_small_terminal import screen_text
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


def fully_shown(app: PaperApp, widget: Widget) -> bool:
    """Whether every row of ``widget`` is on the screen, inside its dialog's part on view."""
    dialog = widget.parent
    assert isinstance(dialog, Widget)
    region = widget.region
    return region.height > 0 and dialog.region.contains_region(region) and app.screen.region.contains_region(region)


def key_line(app: PaperApp) -> Widget:
    """The dialog's last line: the keys (or the warning given in their place)."""
    return list(app.screen.query(".prompt-help"))[-1]


SIZES = [(40, 12), (40, 9)]


@pytest.mark.parametrize("size", SIZES)
async def test_the_export_warning_shows_where_it_is_given(make_app: AppFactory, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportPrompt), what="the export prompt")
        await pilot.pause()
        assert fully_shown(app, key_line(app)), screen_text(app)  # the key line, before anything is typed
        await pilot.press("ctrl+u", *"/nonexist/x.bib", "enter")
        hint = app.screen.query_one("#export-hint", Label)
        await wait_for(pilot, lambda: "⚠ there is no folder" in str(hint.render()), what="the warning")
        await pilot.pause()
        assert fully_shown(app, hint), screen_text(app)
        assert "/nonexist/x.bib" in screen_text(app)  # and the path to mend


PROMPTS: list[tuple[str, type[ModalScreen[object]], str]] = [
    ("T", TagPrompt, "escape cancels"),
    ("K", KeywordPrompt, "escape cancels"),
    ("w", SaveViewPrompt, "escape cancels"),
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("key", "prompt", "keys_line"), PROMPTS, ids=[p[1].__name__ for p in PROMPTS])
async def test_every_prompt_shows_its_input_and_keys(
    make_app: AppFactory, size: tuple[int, int], key: str, prompt: type[ModalScreen[object]], keys_line: str
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if key == "w":
            await pilot.press("slash", *"graph", "enter")
            await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, prompt), what=prompt.__name__)
        await pilot.press(*"zq")
        await pilot.pause()
        shown = screen_text(app)
        assert "zq" in shown and fully_shown(app, app.screen.query_one(Input)), shown
        assert fully_shown(app, key_line(app)) and keys_line in str(key_line(app).render()), shown


@pytest.mark.parametrize("size", SIZES)
async def test_a_list_dialog_keeps_its_title_and_key_line(make_app: AppFactory, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("v")  # the views: more than fit in 12 rows
        await wait_for(pilot, lambda: isinstance(app.screen, ViewsScreen), what="the views list")
        await pilot.pause()
        shown = screen_text(app)
        assert fully_shown(app, app.screen.query_one(".prompt-title", Label)), shown
        assert fully_shown(app, key_line(app)), shown
        options = app.screen.query_one(OptionList)
        assert options.region.height >= 3 and fully_shown(app, options), shown
