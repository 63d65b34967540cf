"""An action that would open a text-entry dialog and is refused (save view with a settings file
that could not be read, or nothing to save; tags or a note with no paper; export of an empty
view) shows its reason in a dialog that takes the keys typed next: the name the user types runs
none of the list's keys (it opened a paper and set a status). And while the settings file is
broken, a change that cannot be saved (sort, detail pane) says so once."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.no_paper import NO_PAPER
from paperdeck.ui.screens.refused import RefusedDialog
from textual.widgets import Label

from tests.ui.helpers import SIZE, main_screen, paper_list, settle

#: What the user types after the refused key: a name, as they would in the dialog.
TYPED = [*"MyView", "enter"]


def _said(app: PaperApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def _refused_then_typed(app: PaperApp, pilot: object, keys: list[str], reason: str) -> None:
    """Press ``keys`` (the refused action) and check the reason is shown in a dialog; type a
    name and enter: the dialog closes, and nothing of the list changed."""
    before = (app.store.all_user_data, paper_list(app).cursor)
    await pilot.press(*keys)  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    assert isinstance(app.screen, RefusedDialog)
    assert str(app.screen.query_one("#refused-reason", Label).render()).startswith(reason)
    await pilot.press(*TYPED)  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    assert app.screen is main_screen(app), "the dialog closed on enter; no paper opened"
    assert (app.store.all_user_data, paper_list(app).cursor) == before
    assert not _said(app), "the reason is the dialog's, not a toast too"


async def test_saving_a_view_with_a_broken_settings_file_takes_the_typed_name(
    seeded_store: Store, make_app: Callable[..., PaperApp]
) -> None:
    (seeded_store.data_dir / "config.json").write_text("{not json", "utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.clear_notifications()
        await pilot.press("slash", *"modulation", "enter")
        await settle(pilot)
        assert paper_list(app).highlighted_id is not None
        await _refused_then_typed(app, pilot, ["w"], "Views cannot be saved: the settings file could not be read.")


async def test_saving_an_empty_filter_as_a_view_takes_the_typed_name(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.clear_notifications()
        await _refused_then_typed(app, pilot, ["w"], "Nothing to save: ")


@pytest.mark.parametrize(
    ("key", "reason"), [("T", NO_PAPER), ("n", NO_PAPER), ("E", "Nothing to export: the view is empty.")]
)
async def test_a_text_entry_refused_with_no_paper_takes_the_typed_text(
    make_app: Callable[..., PaperApp], key: str, reason: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zzqxjvwk", "enter")
        await settle(pilot)
        assert paper_list(app).highlighted_id is None
        app.clear_notifications()
        await _refused_then_typed(app, pilot, [key], reason)


async def test_a_change_a_broken_settings_file_cannot_keep_says_so_once(
    seeded_store: Store, make_app: Callable[..., PaperApp]
) -> None:
    config = seeded_store.data_dir / "config.json"
    config.write_text("{not json", "utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.clear_notifications()
        await pilot.press("O")
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        said = [line for line in _said(app) if "could not be read at start" in line]
        assert len(said) == 1, _said(app)
        assert config.read_text("utf-8") == "{not json"
    with pytest.raises(ValueError):
        json.loads(config.read_text("utf-8"))
