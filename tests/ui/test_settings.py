"""Settings that stay: theme, detail pane, list width, remapped keys; a bad config file is
reported and left alone."""

from __future__ import annotations

import json
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Static

from tests.ui.conftest import SIZE, highlighted, main_screen
from tui.app import PaperApp
from tui.core.settings import CONFIG_FILE
from tui.core.store import Store
from tui.screens.help import HelpScreen
from tui.widgets.paper_detail import PaperDetail

AppFactory = Callable[..., PaperApp]


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def config(store: Store) -> dict[str, object]:
    return json.loads((store.data_dir / CONFIG_FILE).read_text("utf-8"))


async def test_layout_and_theme_persist(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D")
        assert not main_screen(app).query_one(PaperDetail).display
        await pilot.press("D", "greater_than_sign", "greater_than_sign")
        app.theme = "gruvbox"
        await pilot.pause()
    assert config(seeded_store) == {"theme": "gruvbox", "show_detail": True, "list_width": 50, "keymap": {}}
    again = PaperApp(store=Store(seeded_store.data_dir))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "gruvbox"
        assert main_screen(again).paper_list.styles.width is not None
        assert str(main_screen(again).paper_list.styles.width) in ("50%", "50w")


async def test_keys_remapped_by_binding_id_and_shown_in_help(seeded_store: Store) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"keymap": {"main.star": "f"}}), "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("f")
        assert Store(seeded_store.data_dir).user_data(target).starred
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-body", Static).render())
        star_line = next(
            line for line in help_text.splitlines() if "Star " in line or line.rstrip().endswith("[main.star]")
        )
        assert star_line.strip().startswith("f")


async def test_broken_config_is_reported_and_never_overwritten(seeded_store: Store) -> None:
    path = seeded_store.data_dir / CONFIG_FILE
    path.write_bytes(b'{"theme": "gruvbox",')
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any(CONFIG_FILE in str(n.message) for n in app._notifications)
        await pilot.press("D")
        assert app.is_running
    assert path.read_bytes() == b'{"theme": "gruvbox",'
