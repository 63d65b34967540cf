"""The app's export prompt can include the reviews (a check box, Markdown only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from textual.widgets import Checkbox, Input, Label

from tests.ui.helpers import SIZE, settle
from tests.ui.test_reviews_screen import reviewed_store  # noqa: F401  (the fixture)


async def _export(pilot: Any, path: Path, with_reviews: bool) -> ExportPrompt:
    await pilot.press("E")
    await settle(pilot)
    prompt = pilot.app.screen
    assert isinstance(prompt, ExportPrompt)
    prompt.query_one(Input).value = str(path)
    if with_reviews:
        await pilot.press("tab", "space")  # to the check box, ticked: enter there writes, as in the path
        assert prompt.query_one(Checkbox).value
    await pilot.press("enter")
    await settle(pilot)
    await pilot.app.workers.wait_for_complete()
    return prompt


async def test_the_export_prompt_includes_the_reviews_when_ticked(
    reviewed_store: tuple[Store, list[dict[str, Any]]],  # noqa: F811
    tmp_path: Path,
) -> None:
    store, notes = reviewed_store
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _export(pilot, tmp_path / "plain.md", with_reviews=False)
        assert "**Reviews**" not in (tmp_path / "plain.md").read_text()
        await _export(pilot, tmp_path / "reviewed.md", with_reviews=True)
        text = (tmp_path / "reviewed.md").read_text()
        assert text.count("**Reviews**") == len({n["forum"] for n in notes})
        prompt = await _export(pilot, tmp_path / "reviewed.csv", with_reviews=True)
        assert app.screen is prompt and not (tmp_path / "reviewed.csv").exists()  # Markdown only: said so
        assert "Markdown only" in str(prompt.query_one("#export-hint", Label).render())


async def test_the_reviews_box_is_empty_until_ticked(
    reviewed_store: tuple[Store, list[dict[str, Any]]],  # noqa: F811
) -> None:
    """The box shows an ``X`` only when ticked: not the same glyph in both states, told apart by colour."""
    store, _ = reviewed_store
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        box = app.screen.query_one(Checkbox)
        assert not box.value and "X" not in box.render().plain
        await pilot.press("tab", "space")
        await settle(pilot)
        assert box.value and "X" in box.render().plain
        await pilot.press("space")
        await settle(pilot)
        assert not box.value
