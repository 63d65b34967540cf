"""A prompt closed with escape keeps what was typed for the next time it opens on the same
paper(s) for the same purpose, selected so that typing replaces it (a README-only tester lost a
typed tag list, view name, keyword and export path to escape). One that acts drops it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from paperdeck.ui.screens.follow_dialogs import KeywordPrompt
from paperdeck.ui.screens.prompts import TagPrompt
from paperdeck.ui.screens.venues import VenuesScreen
from paperdeck.ui.screens.views import SaveViewPrompt
from textual.screen import ModalScreen
from textual.widgets import Input

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_venue_scope import make_store
from tests.waits import wait_for

PROMPTS: list[tuple[str, type[ModalScreen[object]]]] = [
    ("T", TagPrompt),
    ("K", KeywordPrompt),
    ("w", SaveViewPrompt),
    ("E", ExportPrompt),
]


async def _open(pilot: object, app: PaperApp, key: str, prompt: type[ModalScreen[object]]) -> Input:
    await pilot.press(key)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, prompt), what=prompt.__name__)  # type: ignore[arg-type]
    return app.screen.query_one(Input)


@pytest.mark.parametrize(("key", "prompt"), PROMPTS, ids=[p[1].__name__ for p in PROMPTS])
async def test_escape_keeps_the_draft_for_the_same_prompt(
    make_app: Callable[..., PaperApp], seeded_store: Store, key: str, prompt: type[ModalScreen[object]]
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if prompt is SaveViewPrompt:  # `w` saves a filter
            main_screen(app).query_one("#filter", Input).value = "decision:oral"
            await settle(pilot)
        field = await _open(pilot, app, key, prompt)
        await pilot.press("ctrl+u", *"draft-one")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, prompt), what="closed")
        field = await _open(pilot, app, key, prompt)
        assert field.value == "draft-one"
        assert field.selected_text == "draft-one"  # typing replaces it
        await pilot.press(*"x")
        assert field.value == "x"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, prompt), what="closed")
        await pilot.press("j")  # another paper (the tags, the export: of that paper or the view)
        await settle(pilot)
        field = await _open(pilot, app, key, prompt)
        if prompt is TagPrompt:
            assert field.value == ""  # a draft for one paper is not another's
        else:
            assert field.value == "x"


async def test_the_venue_ticks_are_kept_too(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, VenuesScreen), what="the venue picker")
        picker = app.screen
        assert isinstance(picker, VenuesScreen)
        before = picker.ticked
        await pilot.press("space")  # on All venues: untick them all
        ticked = picker.ticked
        assert ticked != before
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, VenuesScreen), what="closed")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, VenuesScreen), what="the venue picker")
        assert isinstance(app.screen, VenuesScreen)
        assert app.screen.ticked == ticked
