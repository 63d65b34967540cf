"""Saved views renamed in the views dialog (``r``) and opened in the sort they were saved with
(tester round 16: the dialog offered open and delete only, and a view opened by relevance
whatever sort the list had when it was saved)."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen
from textual.widgets import Input, OptionList

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_views import make_store


async def test_a_view_opens_in_the_sort_it_was_saved_with_after_a_restart(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"diffusion", "enter")  # ranked by relevance: A, B
        await settle(pilot)
        main_screen(app).sort_by("title")  # this query's own sort
        await settle(pilot)
        await pilot.press("w", *"Diffusion by title", "enter")
        await settle(pilot)
    saved = json.loads((tmp_path / "data" / "config.json").read_text())
    assert saved["view_sorts"] == {"Diffusion by title": "title"}

    app = PaperApp(store=Store(tmp_path / "data"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.list_filter.order == "relevance"
        await pilot.press("7")
        await settle(pilot)
        assert screen.list_filter.order == "title"
        assert screen.view_ids() == ["openreview:A", "openreview:B"]  # "…fast" before "…slow"
        await pilot.press("0")  # every paper: the view's sort goes with it
        await settle(pilot)
        assert screen.list_filter.order == "relevance"


async def test_r_in_the_views_dialog_renames_a_view_in_its_place(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_store(tmp_path)
    config = {"views": {"Orals": "decision:oral", "Notes": "has:note"}, "view_sorts": {"Orals": "rating"}}
    (data / "config.json").write_text(json.dumps(config))
    app = PaperApp(store=Store(data))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        await pilot.press("r")  # the first view: built in, not renamed
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        app.screen.query_one(OptionList).highlighted = 6  # Orals
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)
        assert app.screen.query_one(Input).value == "Orals"
        await pilot.press("ctrl+u", *"Notes", "enter")  # another view's name: refused, asked again
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)
        await pilot.press("ctrl+u", *"Orals to read", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        prompts = [str(app.screen.query_one(OptionList).get_option_at_index(n).prompt) for n in (6, 7)]
        assert "Orals to read" in prompts[0] and "Notes" in prompts[1]
    saved = json.loads((data / "config.json").read_text())
    assert list(saved["views"].items()) == [("Orals to read", "decision:oral"), ("Notes", "has:note")]
    assert saved["view_sorts"] == {"Orals to read": "rating"}
