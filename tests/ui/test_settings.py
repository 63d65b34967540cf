"""Settings that stay: theme, detail pane, list width, remapped keys; a bad config file is
reported and left alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from paperdeck.store.settings import CONFIG_FILE, LIST_WIDTH_MAX, SORT_LABELS, Settings, SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.color import Color
from textual.widgets import Static

from tests.ui.helpers import SIZE, counts, highlighted, main_screen, settle

AppFactory = Callable[..., PaperApp]


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
    assert config(seeded_store) == {
        "theme": "gruvbox",
        "show_detail": True,
        "list_width": 65,
        "keymap": {},
        "sort": "relevance",
        "views": {},
        "zotero_url": "http://127.0.0.1:23119",
        "venues": [],
    }
    again = PaperApp(store=Store(seeded_store.data_dir))
    async with again.run_test(size=(160, 36)) as pilot:  # side by side: the list as wide as saved
        await settle(pilot)
        assert again.theme == "gruvbox"
        gruvbox = again.get_theme("gruvbox")
        assert gruvbox is not None and gruvbox.background is not None
        assert main_screen(again).styles.background == Color.parse(gruvbox.background)  # styled with it
        assert main_screen(again).paper_list.styles.width is not None
        assert str(main_screen(again).paper_list.styles.width) in ("65%", "65w")


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


async def test_sort_order_cycles_applies_and_persists(tmp_path: Path) -> None:
    from paperdeck.model.paper import Paper, Ratings

    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id="openreview:A", title="Beta", abstract="x", decision="poster", ratings=Ratings(5.0)),
            Paper(id="openreview:B", title="Alpha", abstract="y", decision="oral", ratings=Ratings(7.5)),
            Paper(id="openreview:C", title="Gamma", abstract="z", decision="reject"),
        ]
    )
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = []
        for _ in range(10):
            await pilot.press("O")
            await settle(pilot)
            seen.append((app.settings.settings.sort, list(main_screen(app).view_ids())))
            noted = {"list": "in list order", "changed": "changed first"}
            assert noted.get(seen[-1][0], f"by {SORT_LABELS[seen[-1][0]]}") in counts(app)  # every order said
        assert seen == [
            ("list", ["openreview:A", "openreview:B", "openreview:C"]),
            ("title", ["openreview:B", "openreview:A", "openreview:C"]),
            ("rating", ["openreview:B", "openreview:A", "openreview:C"]),
            ("spread", ["openreview:A", "openreview:B", "openreview:C"]),  # no min/max: all unrated
            ("best_lowest", ["openreview:A", "openreview:B", "openreview:C"]),
            ("decision", ["openreview:B", "openreview:A", "openreview:C"]),
            ("changed", ["openreview:A", "openreview:B", "openreview:C"]),
            ("rise", ["openreview:A", "openreview:B", "openreview:C"]),  # no reviews: no moves
            ("fall", ["openreview:A", "openreview:B", "openreview:C"]),
            ("rating_pct", ["openreview:B", "openreview:A", "openreview:C"]),  # one venue: as rating
        ]
        await pilot.press("k", "s")  # B (above A by rating_pct) changed most recently
        await pilot.press(*"O" * 8)  # round again to "changed"
        await settle(pilot)
        assert main_screen(app).view_ids()[0] == "openreview:B"
    assert config(store)["sort"] == "changed"
    again = PaperApp(store=Store(store.data_dir))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert main_screen(again).view_ids()[0] == "openreview:B"
        assert "changed first" in counts(again)


async def test_a_setting_that_cannot_be_written_is_a_message(seeded_store: Store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from paperdeck.model.errors import StoreError
    from paperdeck.ui.screens.main import MainScreen

    def fail(**changes: object) -> None:
        raise StoreError(seeded_store.data_dir / CONFIG_FILE, "cannot write (disk full)")

    assert MainScreen(seeded_store).settings.path == seeded_store.data_dir / CONFIG_FILE  # always a settings file
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert main_screen(app).settings is app.settings
        monkeypatch.setattr(app.settings, "update", fail)
        await pilot.press("D")
        await pilot.pause()
        assert any("Settings not saved" in n.title and "disk full" in n.message for n in app._notifications)
        assert main_screen(app).query_one(PaperDetail).display  # the layout follows what is saved
    assert not (seeded_store.data_dir / CONFIG_FILE).exists()


def test_settings_checked_names_every_value_refused() -> None:
    bad = {"theme": 3, "show_detail": "yes", "list_width": 300, "sort": "bogus", "keymap": [], "views": {"a": 1}}
    settings, refused = Settings.checked({**bad, "them": "gruvbox"})
    assert settings == Settings(list_width=LIST_WIDTH_MAX)
    assert len(refused) == 7 and all("\n" not in problem for problem in refused)
    for named in ("'them' is no setting", "theme 3", "show_detail 'yes'", "list_width 300", "sort 'bogus'",
                  "keymap []", "view 'a'"):  # fmt: skip
        assert any(problem.startswith(named) for problem in refused), (named, refused)
    assert Settings.checked({"list_width": True})[1] == ("list_width true is not a whole number from 20 to 80",)
    assert Settings.checked(Settings(theme="gruvbox", sort="rating").to_dict())[1] == ()


def test_a_config_naming_the_former_lowest_sort_loads_the_best_lowest_sort(tmp_path: Path) -> None:
    """``"lowest"``, the former key of the "best lowest rating" sort, is that sort, not refused."""
    assert Settings.checked({"sort": "lowest"}) == (Settings(sort="best_lowest"), ())
    (tmp_path / CONFIG_FILE).write_text('{"sort": "lowest"}', encoding="utf-8")
    settings = SettingsFile(tmp_path)
    assert settings.settings.sort == "best_lowest" and settings.refused == ()
    assert SORT_LABELS[settings.settings.sort] == "best lowest rating"


async def test_bad_settings_are_reported_with_the_keymap_in_one_notice(seeded_store: Store) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text(
        json.dumps({"theme": "nonexistent-theme", "sort": "bogus", "list_width": 5, "keymap": {"main.nope": "z"}}),
        "utf-8",
    )
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        notices = [str(n.message) for n in app._notifications if CONFIG_FILE in str(n.message)]
        assert len(notices) == 1 and "\n" not in notices[0], notices
        for named in ("4 problems", "'nonexistent-theme'", "'bogus'", "list_width 5", "keymap 'main.nope'"):
            assert named in notices[0], (named, notices[0])
        assert app.settings.settings.sort == "relevance" and app.settings.settings.list_width == 20


async def test_good_settings_give_no_notice(seeded_store: Store) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"theme": "gruvbox", "sort": "rating"}), "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert not [n for n in app._notifications if CONFIG_FILE in str(n.message)]
        assert app.theme == "gruvbox"
