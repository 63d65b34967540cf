"""The command table: binding ids and default keys stay as users' keymaps know them; the help
screen, the command palette and the README are built from (or checked against) the same table."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.store.settings import CONFIG_FILE, SORT_LABELS, SORTS
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.command_help import listed_on_help
from paperdeck.ui.commands import BY_ID, COMMANDS, NAVIGATION, PALETTE_OWNERS, SUMMARIES
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.export import ExportPrompt, TickBox
from paperdeck.ui.screens.follow_dialogs import AuthorPicker, FollowsScreen, KeywordPrompt
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.screens.prompts import LinkChooser, TagPrompt
from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.screens.reading import ReadingScreen
from paperdeck.ui.screens.refused import RefusedDialog
from paperdeck.ui.screens.reviews import ReviewsScreen
from paperdeck.ui.screens.schedule import ScheduleScreen
from paperdeck.ui.screens.stats import StatsScreen
from paperdeck.ui.screens.venues import VenuesScreen
from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen
from paperdeck.ui.widgets.paper_list import PaperList
from textual.binding import Binding, BindingType
from textual.command import CommandList, CommandPalette
from textual.widgets import Static

from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]
README = Path(__file__).resolve().parents[2] / "docs" / "keys.md"  # the keys page (its prose: docs/src)

#: Every class's own bindings as (id, default keys, action, show, priority), in declared order
#: (the order is the footer's): pinned as they were before the command table, so that no
#: binding id, default key, action, footer entry or priority changed with it. Binding ids are the
#: keys of the users' ``keymap`` in config.json: change none of them.
PINNED: dict[str, list[tuple[str | None, str, str, bool, bool]]] = {
    "PaperApp": [
        ("app.quit", "q", "quit", True, False),
        ("app.help", "question_mark", "help", True, False),
        ("app.interrupt", "ctrl+c", "interrupt", False, True),
    ],
    "MainScreen": [
        ("main.filter", "slash", "focus_filter", True, True),
        ("main.clear_filter", "escape", "escape", False, True),
        ("filter.to_list", "enter", "leave_filter", False, True),
        ("filter.down", "down", "newer_query", False, True),
        ("filter.up", "up", "older_query", False, True),
        ("main.read", "enter", "read", False, False),
        ("main.reviews", "R", "reviews", False, False),
        ("main.statistics", "A", "statistics", False, False),
        ("main.schedule", "P", "schedule", False, False),
        ("main.remove", "X", "remove_papers", False, False),
        ("main.undo_import", "Z", "undo_import", False, False),
        ("main.starred_only", "S", "toggle_starred_only", True, False),
        ("main.sort", "O", "cycle_sort", False, False),
        ("main.detail", "D", "toggle_detail", False, False),
        ("main.narrower", "less_than_sign", "list_width(-1)", False, False),
        ("main.wider", "greater_than_sign", "list_width(1)", False, False),
        ("main.similar", "m", "more_like_this", True, False),
        ("main.export", "E", "export", False, False),
        ("main.views", "v", "views", True, False),
        ("main.venues", "c", "venues", False, False),
        ("main.mark_all_seen", "C", "mark_all_seen", False, False),
        ("main.save_view", "w", "save_view", False, False),
        ("main.view_0", "0", "open_view(0)", False, False),
        ("main.view_1", "1", "open_view(1)", False, False),
        ("main.view_2", "2", "open_view(2)", False, False),
        ("main.view_3", "3", "open_view(3)", False, False),
        ("main.view_4", "4", "open_view(4)", False, False),
        ("main.view_5", "5", "open_view(5)", False, False),
        ("main.view_6", "6", "open_view(6)", False, False),
        ("main.view_7", "7", "open_view(7)", False, False),
        ("main.view_8", "8", "open_view(8)", False, False),
        ("main.view_9", "9", "open_view(9)", False, False),
        ("main.follow_author", "a", "follow_author", False, False),
        ("main.follow_keyword", "K", "follow_keyword", False, False),
        ("main.follows", "F", "follows", False, False),
    ],
    "ReadingScreen": [
        ("main.star", "s", "toggle_star", True, False),
        ("main.note", "n", "edit_note", True, False),
        ("main.note_editor", "N", "edit_note_externally", False, False),
        ("main.status_read", "r", "status('read')", False, False),
        ("main.status_to_read", "t", "status('to-read')", False, False),
        ("main.status_skimmed", "i", "status('skimmed')", False, False),
        ("main.status_dismissed", "x", "status('dismissed')", False, False),
        ("main.status_unseen", "U", "status('unseen')", False, False),
        ("main.next_unseen", "right_square_bracket", "next_unseen", False, False),
        ("main.tags", "T", "tags", False, False),
        ("main.mark", "space", "mark", False, False),
        ("main.mark_range", "V", "mark_range", False, False),
        ("main.mark_all", "M", "mark_all", False, False),
        ("main.undo", "u", "undo", True, False),
        ("main.redo", "ctrl+r", "redo", False, False),
        ("main.copy", "y", "copy", False, False),
        ("main.copy_bibtex", "Y", "copy_bibtex", False, False),
        ("main.open", "o", "open_link", False, False),
    ],
    "PaperList": [
        ("list.down", "down,j", "cursor_down", False, False),
        ("list.up", "up,k", "cursor_up", False, False),
        ("list.first", "g,home", "first", False, False),
        ("list.last", "G,end", "last", False, False),
        ("list.page_down", "pagedown,ctrl+d", "page_down", False, False),
        ("list.page_up", "pageup,ctrl+u", "page_up", False, False),
    ],
    "NoteEditor": [
        ("note.save", "ctrl+s", "save", True, False),
        ("note.cancel", "escape", "cancel", True, False),
    ],
    "HelpScreen": [
        ("help.close", "escape,q,question_mark", "close", True, False),
        ("help.down", "j", "scroll(1)", True, False),
        ("help.up", "k", "scroll(-1)", True, False),
        ("help.first", "g,home", "scroll_to_end(0)", False, False),
        ("help.last", "G,end", "scroll_to_end(1)", False, False),
    ],
    "ConfirmScreen": [
        ("confirm.yes", "y", "answer(True)", True, False),
        ("confirm.no", "n,escape", "answer(False)", True, False),
    ],
    "ExportPrompt": [
        ("export.cancel", "escape", "cancel", True, False),
    ],
    "TagPrompt": [
        ("tags.cancel", "escape", "cancel", True, False),
        ("tags.apply", "enter", "apply", False, True),
    ],
    "LinkChooser": [
        ("links.cancel", "escape", "cancel", True, False),
        ("links.down", "j", "move(1)", False, False),
        ("links.up", "k", "move(-1)", False, False),
    ],
    "ViewsScreen": [
        ("views.close", "escape,v,q", "close", True, False),
        ("views.delete", "d,delete", "delete", True, False),
        ("views.rename", "r", "rename", True, False),
        ("views.down", "j", "move(1)", False, False),
        ("views.up", "k", "move(-1)", False, False),
        ("views.open_1", "1", "open(1)", False, False),
        ("views.open_2", "2", "open(2)", False, False),
        ("views.open_3", "3", "open(3)", False, False),
        ("views.open_4", "4", "open(4)", False, False),
        ("views.open_5", "5", "open(5)", False, False),
        ("views.open_6", "6", "open(6)", False, False),
        ("views.open_7", "7", "open(7)", False, False),
        ("views.open_8", "8", "open(8)", False, False),
        ("views.open_9", "9", "open(9)", False, False),
    ],
    "VenuesScreen": [
        ("venues.close", "escape,c,q", "close", True, False),
        ("venues.tick", "space", "tick", True, False),
        ("venues.only", "o", "only", True, False),
        ("venues.down", "j", "move(1)", False, False),
        ("venues.up", "k", "move(-1)", False, False),
    ],
    "SaveViewPrompt": [
        ("save_view.cancel", "escape", "cancel", True, False),
    ],
    "FollowsScreen": [
        ("follows.close", "escape,F,q", "close", True, False),
        ("follows.unfollow", "d,delete", "unfollow", True, False),
        ("follows.down", "j", "move(1)", False, False),
        ("follows.up", "k", "move(-1)", False, False),
    ],
    "AuthorPicker": [
        ("follow_author.cancel", "escape", "cancel", True, False),
        ("follow_author.down", "j,down", "move(1)", False, False),
        ("follow_author.up", "k,up", "move(-1)", False, False),
    ],
    "KeywordPrompt": [
        ("follow_keyword.cancel", "escape", "cancel", True, False),
    ],
    # Bound without ids before they were rows of the table: their default keys stay as they were.
    "PaperReader": [
        ("reader.close", "escape,backspace", "close", True, False),
        ("reader.down", "j", "scroll(1)", False, False),
        ("reader.up", "k", "scroll(-1)", False, False),
        ("reader.reviews", "R", "reviews", True, False),
        ("reader.star", "s", "toggle_star", True, False),
        ("reader.status_read", "r", "status('read')", False, False),
        ("reader.note", "n", "edit_note", True, False),
        ("reader.first", "g,home", "scroll_to_end(0)", False, False),
        ("reader.last", "G,end", "scroll_to_end(1)", False, False),
    ],
    "ReviewsScreen": [
        ("reviews.close", "escape,backspace", "close", True, False),
        ("reviews.next", "right_curly_bracket", "jump('note', 1)", True, False),
        ("reviews.previous", "left_curly_bracket", "jump('note', -1)", True, False),
        ("reviews.next_section", "right_square_bracket", "jump('section', 1)", True, False),
        ("reviews.previous_section", "left_square_bracket", "jump('section', -1)", False, False),
        ("reviews.down", "j", "scroll(1)", False, False),
        ("reviews.up", "k", "scroll(-1)", False, False),
        ("reviews.star", "s", "toggle_star", True, False),
        ("reviews.status_read", "r", "status('read')", False, False),
        ("reviews.note", "n", "edit_note", True, False),
        ("reviews.first", "g,home", "scroll_to_end(0)", False, False),
        ("reviews.last", "G,end", "scroll_to_end(1)", False, False),
    ],
    "StatsScreen": [
        ("stats.close", "escape,backspace", "close", True, False),
        ("stats.next", "right,n", "chart(1)", True, False),
        ("stats.previous", "left,p", "chart(-1)", False, False),
        ("stats.table", "t", "toggle_table", True, False),
        ("stats.down", "j", "scroll(1)", False, False),
        ("stats.up", "k", "scroll(-1)", False, False),
        *((f"stats.view_{n}", str(n), f"open_view({n})", False, False) for n in range(10)),
        ("stats.first", "g,home", "scroll_to_end(0)", False, False),
        ("stats.last", "G,end", "scroll_to_end(1)", False, False),
    ],
    "ScheduleScreen": [
        ("schedule.close", "escape,backspace", "close", True, False),
        ("schedule.down", "j,down", "move(1)", False, False),
        ("schedule.up", "k,up", "move(-1)", False, False),
        ("schedule.show", "enter", "show_in_list", True, False),
        ("schedule.star", "s", "toggle_star", True, False),
        ("schedule.undo", "u", "history_step(1)", True, False),
        ("schedule.redo", "ctrl+r", "history_step(0)", False, False),
        ("schedule.first", "g,home", "scroll_to_end(0)", False, False),
        ("schedule.last", "G,end", "scroll_to_end(1)", False, False),
    ],
    "TickBox": [
        ("export.toggle", "space", "toggle_button", False, False),
        ("export.write", "enter", "submit", False, False),
    ],
}

CLASSES: dict[str, type[object]] = {
    cls.__name__: cls
    for cls in (
        PaperApp,
        MainScreen,
        ReadingScreen,
        PaperList,
        NoteEditor,
        HelpScreen,
        ConfirmScreen,
        ExportPrompt,
        TagPrompt,
        LinkChooser,
        ViewsScreen,
        VenuesScreen,
        SaveViewPrompt,
        FollowsScreen,
        AuthorPicker,
        KeywordPrompt,
        PaperReader,
        ReviewsScreen,
        StatsScreen,
        ScheduleScreen,
        TickBox,
    )
}


def _declared(bindings: list[BindingType]) -> list[tuple[str | None, str, str, bool, bool]]:
    out = []
    for binding in bindings:
        assert isinstance(binding, Binding)
        out.append((binding.id, binding.key, binding.action, binding.show, binding.priority))
    return out


def test_binding_ids_keys_actions_and_flags_are_pinned() -> None:
    assert set(CLASSES) == set(PINNED)
    for name, cls in CLASSES.items():
        assert _declared(vars(cls)["BINDINGS"]) == PINNED[name], name
    ids = [binding[0] for declared in PINNED.values() for binding in declared]
    assert None not in ids and len(ids) == len(set(ids))  # each id names one binding


def test_the_main_screen_merges_the_reading_keys_as_a_screen_base_would() -> None:
    """``ReadingScreen`` is a plain class laid before ``Screen`` in the main screen's bases (one
    Textual class fewer made before the first frame); its keys are the main screen's as they were
    when it was a ``Screen`` of its own (ui/_lines/part_bindings.py's shortcut, pinned here to
    Textual's own merge of the same keys through a screen base)."""
    from textual.dom import DOMNode
    from textual.screen import Screen

    class ReadingAsScreen(Screen[None]):
        BINDINGS = vars(ReadingScreen)["BINDINGS"]

    class MainAsBefore(ReadingAsScreen):
        BINDINGS = vars(MainScreen)["BINDINGS"]

    merged, textuals = MainScreen._merged_bindings.key_to_bindings, MainAsBefore._merged_bindings.key_to_bindings
    assert list(merged) == list(textuals)
    assert merged == textuals
    merged_ids = {binding.id for bindings in merged.values() for binding in bindings}
    assert merged_ids >= {pinned[0] for pinned in PINNED["ReadingScreen"] + PINNED["MainScreen"]}
    assert not issubclass(ReadingScreen, DOMNode)
    assert issubclass(MainScreen, ReadingScreen)


def palette_titles(app: PaperApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


def help_text(app: PaperApp) -> str:
    assert isinstance(app.screen, HelpScreen)
    return str(app.screen.query_one("#help-body", Static).render())


def hint(app: PaperApp, keys: str) -> str:
    return " / ".join(app.get_key_display(Binding(key, "")) for key in keys.split(","))


def test_the_bindings_are_the_table_rows_of_each_owner() -> None:
    owners = {"app": PaperApp, "reading": ReadingScreen, "main": MainScreen, "list": PaperList, "note": NoteEditor}
    owners |= {"reader": PaperReader, "reviews": ReviewsScreen, "stats": StatsScreen, "tickbox": TickBox}
    owners |= {"help": HelpScreen, "confirm": ConfirmScreen, "export": ExportPrompt, "tags": TagPrompt}
    owners |= {"links": LinkChooser, "views": ViewsScreen, "save_view": SaveViewPrompt, "follows": FollowsScreen}
    owners |= {"follow_author": AuthorPicker, "follow_keyword": KeywordPrompt, "schedule": ScheduleScreen}
    owners |= {"venues": VenuesScreen, "refused": RefusedDialog}
    assert set(owners) == {c.owner for c in COMMANDS}
    for owner, cls in owners.items():
        rows = [c for c in COMMANDS if c.owner == owner and c.keys]
        assert [b.id for b in vars(cls)["BINDINGS"] if isinstance(b, Binding)] == [c.id for c in rows]
    assert len(BY_ID) == len(COMMANDS)
    summaries = {summary.key for summary in SUMMARIES}
    assert {c.summary for c in COMMANDS if c.summary} <= summaries


def test_the_palette_rule_only_navigation_keys_stay_out() -> None:
    """A key on the help screen is a palette command unless it is a navigation/editing key; the
    view digits are palette commands through the "View: NAME" row. The other screens' and the
    dialogs' keys are on the help screen, never in the palette."""
    for command in listed_on_help():
        if command.owner not in PALETTE_OWNERS | {"list", "note"}:
            assert command.title is None and not command.palette_help, command.id
            continue
        navigation = command.id.startswith(NAVIGATION)
        digit = re.fullmatch(r"main\.view_[1-9]", command.id) is not None
        assert navigation == (command.title is None and not digit), command.id
    assert BY_ID["main.open_view"].title is not None
    navigation = {c.id for c in listed_on_help() if c.id.startswith(NAVIGATION)}
    assert navigation >= {"list.down", "filter.to_list", "note.save"}


async def test_every_help_key_is_a_palette_command_with_its_key_hint(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = palette_titles(app)
        views = main_screen(app).views
        for command in listed_on_help():
            if command.id.startswith(NAVIGATION) or command.owner not in PALETTE_OWNERS:
                continue
            if command.title is None:  # a view digit: "View: NAME (N)"
                number = int(command.id.removeprefix("main.view_"))
                if number <= len(views):
                    assert f"View: {views[number - 1].name} ({hint(app, command.keys)})" in titles
                continue
            assert f"{command.title} ({hint(app, command.keys)})" in titles, command.id
        assert len(views) >= 5 and f"View: {views[4].name} (5)" in titles
        await pilot.press("question_mark")
        await pilot.pause()
        shown_ids = set(re.findall(r"\[([a-z_]+\.[a-z_0-9]+)\]", help_text(app)))
        assert {c.id for c in COMMANDS if c.section is not None} <= shown_ids  # and summaries' ids
        assert shown_ids <= {c.id for c in listed_on_help()}


async def test_the_palette_is_built_from_the_table(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ours = [title for title in palette_titles(app) if title not in ("Keys", "Maximize", "Screenshot")]
        views = main_screen(app).views
        expected = []
        for command in COMMANDS:
            if command.title is None:
                continue
            if command.id == "main.sort_by":
                expected += [f"Sort by {SORT_LABELS[order]}" for order in SORTS]
            elif command.id == "main.open_view":
                expected += [f"View: {view.name} ({n})" for n, view in enumerate(views, 1)]
            else:
                expected.append(f"{command.title} ({hint(app, command.keys)})" if command.keys else command.title)
        assert ours == expected
        for kept in ("Back up my data", "Sort by rating", "View: Starred (1)", "Quit (q)", "Help: keys (?)", "Theme"):
            assert any(title == kept for title in palette_titles(app)), kept
        assert palette_titles(app).count("Quit (q)") == 1 and "Quit" not in palette_titles(app)
        sorts = {c.title: c.help for c in app.get_system_commands(app.screen) if c.title.startswith("Sort by ")}
        assert sorts["Sort by list order"] == (
            "Order the list: the order the imported lists give the papers in (the catalogue's order)"
        )
        assert all(not text.endswith(title.removeprefix("Sort by ")) for title, text in sorts.items())


async def test_a_palette_command_runs_its_action(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        assert not seeded_store.user_data(target).starred
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Star / unstar (s)")
        await settle(pilot)  # the palette's search, a worker
        commands = app.screen.query_one(CommandList)
        await wait_for(pilot, lambda: commands.highlighted is not None, what="the command found and highlighted")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, CommandPalette)
        assert Store(seeded_store.data_dir).user_data(target).starred  # on disk, as the key does
        for command in app.get_system_commands(app.screen):
            if command.title == "Sort by rating":
                await command.callback()
        await settle(pilot)
        assert main_screen(app).chosen_order == "rating"


async def test_the_palette_leaves_out_what_check_action_refuses(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def check_action(self: MainScreen, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action not in ("toggle_star", "status")

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Star / unstar (s)" in palette_titles(app) and "Mark read (r)" in palette_titles(app)
        monkeypatch.setattr(MainScreen, "check_action", check_action)
        titles = palette_titles(app)
        assert "Star / unstar (s)" not in titles
        statuses = [f"{c.title} ({c.keys})" for c in COMMANDS if c.id.startswith("main.status_")]
        assert len(statuses) == 5 and not set(statuses) & set(titles)
        assert "Undo (u)" in titles and "Back up my data" in titles and "Mark range (V)" in titles


async def test_a_remapped_key_shows_in_help_and_palette(seeded_store: Store) -> None:
    keymap = {"main.star": "f", "main.view_2": "ctrl+t", "filter.down": "ctrl+j"}
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"keymap": keymap}), "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = palette_titles(app)
        assert "Star / unstar (f)" in titles and "Star / unstar (s)" not in titles
        assert f"View: {main_screen(app).views[1].name} (^t)" in titles
        await pilot.press("question_mark")
        await pilot.pause()
        lines = help_text(app).splitlines()
        assert any(line.strip().startswith("f ") and line.rstrip().endswith("[main.star]") for line in lines)
        views_line = next(line for line in lines if "Open view 1–9" in line)
        assert views_line.split()[:3] == ["1", "/", "^t"]  # not "1…9" any more
        assert " 9 Open view 1–9" in views_line  # keys wider than their column keep a space
        assert any(line.split()[:1] == ["^j"] and "newer query" in line for line in lines)


def _readme_keys_section() -> str:
    text = README.read_text("utf-8")
    return text[text.index("## The keys in more detail") : text.index("## Settings and remapped keys")]


def _names(app: PaperApp, key: str) -> set[str]:
    """What the README may call a key: its Textual name or how the footer shows it."""
    return {key, app.get_key_display(Binding(key, ""))}


async def test_the_readme_keys_table_matches_the_command_table(make_app: AppFactory) -> None:
    """The README's Keys table is written by hand: every key in its first column is a key of the
    table, and every key the help screen lists is named somewhere in the Keys section."""
    app = make_app()
    async with app.run_test(size=SIZE):
        known: set[str] = set()
        for command in COMMANDS:
            for key in command.keys.split(",") if command.keys else []:
                known |= _names(app, key)
        known |= {name for summary in SUMMARIES if summary.keys for name in _names(app, summary.keys)}
        section = _readme_keys_section()
        rows = [line for line in section.splitlines() if line.startswith("| `")]
        assert len(rows) > 20
        for row in rows:
            for key in re.findall(r"`([^`]+)`", row.split("|")[1]):
                assert key in known, key
        named = set(re.findall(r"`([^`]+)`", section))
        for first, last in re.findall(r"`(\d)`…`(\d)`", section):  # `1`…`9`: the digits between too
            named |= {str(n) for n in range(int(first), int(last) + 1)}
        for command in listed_on_help():
            assert any(_names(app, key) & named for key in command.keys.split(",")), command.id


async def test_every_palette_entry_the_docs_name_is_in_the_palette(seeded_store: Store) -> None:
    """The pages and the README say ``ctrl+p`` → "TITLE": each TITLE is a palette entry as the
    palette shows it (keys page said "Change theme" where the entry is "Theme"; a README-only
    tester looked for it). "Sort by …" stands for the entries of every sort order."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "docs" / "src").glob("*.md"))]
    named = {title for page in pages for title in re.findall(r'ctrl\+p` → "([^"]+)"', page.read_text("utf-8"))}
    assert "Theme" in named
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [re.sub(r" \([^)]*\)$", "", title) for title in palette_titles(app)]  # the key hint off
    for title in named:
        if title.endswith("…"):
            assert any(t.startswith(title.removesuffix("…")) for t in titles), title
        else:
            assert title in titles, (title, titles)
    assert titles.count("Theme") == 1  # Textual's entry replaced by the table's row, not beside it
