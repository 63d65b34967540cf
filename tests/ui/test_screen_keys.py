"""Every key of every screen is a row of the command table: no ``Binding`` is made outside it, so
each has an id, is on the help screen and in the keys page, and a user's keymap remaps it (the
reader, the reviews, the statistics and the dialogs as well as the main screen)."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path

import paperdeck.ui
from paperdeck.model.review import REVIEW, Review
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.command_help import keys_markdown
from paperdeck.ui.commands import BY_ID, COMMANDS, SECTIONS, SUMMARIES
from paperdeck.ui.keymap import CHAINS, check_keymap
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.screens.reviews import ReviewsScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Static

from tests.ui.helpers import SIZE, highlighted, main_screen, settle

UI = Path(paperdeck.ui.__file__).parent


def _binding_calls(path: Path) -> list[int]:
    """The lines of ``path`` that call ``Binding(...)`` (by name or as ``textual.binding.Binding``)."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "Binding":
                lines.append(node.lineno)
    return lines


def test_no_binding_is_made_outside_the_command_table() -> None:
    """A ``Binding(...)`` written in a screen or widget has no row: no id to remap it by, not on
    the help screen. Only the table's own module makes them (a row's binding; a key's display)."""
    made = {str(path.relative_to(UI)): lines for path in sorted(UI.rglob("*.py")) if (lines := _binding_calls(path))}
    assert set(made) == {"commands.py"}, made
    assert len(made["commands.py"]) == 2  # Command.binding and key_display


def _ui_classes() -> list[type[object]]:
    """The ui package's Textual classes, and the plain classes a screen is made of that declare
    keys (``ReadingScreen``: its ``BINDINGS`` merged into the main screen's)."""
    classes: list[type[object]] = []
    for module_info in pkgutil.walk_packages(paperdeck.ui.__path__, "paperdeck.ui."):
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and (issubclass(cls, DOMNode) or "BINDINGS" in vars(cls)):
                classes.append(cls)
    return classes


def test_every_binding_of_every_screen_and_widget_is_a_table_row() -> None:
    """Each class of the ui package binds only rows of the table (with their ids, keys, actions,
    flags), and each row with keys is bound by exactly one class."""
    bound: list[str] = []
    for cls in _ui_classes():
        for binding in vars(cls).get("BINDINGS", []):
            where = f"{cls.__module__}.{cls.__name__}"
            assert isinstance(binding, Binding), f"{where}: {binding!r} is no Binding"
            assert binding.id in BY_ID, f"{where}: {binding.key} → {binding.action} has no id of the table"
            assert binding == BY_ID[binding.id].binding(), where
            bound.append(binding.id)
    assert sorted(bound) == sorted(c.id for c in COMMANDS if c.keys)


def test_every_owner_is_in_a_binding_chain_and_every_listed_key_in_a_section() -> None:
    owners = {c.owner for c in COMMANDS}
    assert owners <= set().union(*CHAINS)
    sections = {key for key, _ in SECTIONS}
    assert {c.section for c in COMMANDS if c.section} <= sections
    assert {s.section for s in SUMMARIES} <= sections
    for command in COMMANDS:
        if command.keys and command.owner not in ("app", "reading", "main", "list", "note"):
            assert command.section is not None or command.summary is not None, command.id  # on the help screen


def test_the_keymap_check_knows_the_screens_and_dialogs_ids() -> None:
    check = check_keymap({"reviews.next": "l", "stats.table": "T", "reader.close": "b", "follows.unfollow": "u"})
    assert check.problems == ()
    assert check.keys["reviews.next"] == "l" and check.keys["stats.table"] == "T"
    assert {"reviews.next", "stats.table", "reader.close", "follows.unfollow"} <= set(check.applied)
    # A key another command of the same screen has by default stays that command's.
    clash = check_keymap({"reviews.next": "left_curly_bracket", "export.write": "space"})
    assert clash.keys["reviews.next"] == "right_curly_bracket" and clash.keys["export.write"] == "enter"
    assert len(clash.problems) == 2 and "Previous review [reviews.previous]" in clash.problems[0]
    # The main screen's keys are not live on the reviews screen: no clash with main.follow_author's a.
    assert check_keymap({"reviews.next": "a"}).problems == ()
    # q and ? stay Quit and Help; a dialog keeps the q it closes with by default.
    assert check_keymap({"views.close": "escape,c,q", "help.close": "escape,question_mark"}).problems == ()
    refused = check_keymap({"reviews.close": "escape,q", "stats.next": "tab"})
    assert refused.keys["reviews.close"] == "escape" and refused.keys["stats.next"] == "right,n"
    assert "'q' stays Quit [app.quit]" in refused.problems[0] and "Textual's own key" in refused.problems[1]


async def test_a_remapped_key_takes_effect_on_the_reviews_screen_and_the_reader(seeded_store: Store) -> None:
    keymap = {"reviews.next": "l", "reviews.close": "b", "reader.close": "b"}
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"keymap": keymap}), "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = highlighted(app)
        reviews = [
            Review(f"note{n}", "forum", "forum", REVIEW, f"Reviewer_{n}", sections=(("summary", f"Text {n}."),))
            for n in range(3)
        ]
        screen = ReviewsScreen(paper, reviews, None, None)
        app.push_screen(screen)
        await settle(pilot)
        await pilot.press("right_curly_bracket")  # no longer the next review
        await pilot.pause()
        assert not screen.query(".note.current")
        await pilot.press("l")
        await pilot.pause()
        assert len(screen.query(".note.current")) == 1
        await pilot.press("escape")  # reviews.close is b alone now
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("b")
        await settle(pilot)
        assert app.screen is main_screen(app)
        await pilot.press("enter")
        await settle(pilot)
        reader = app.screen
        assert isinstance(reader, PaperReader)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is reader
        await pilot.press("b")
        await settle(pilot)
        assert app.screen is main_screen(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = str(app.screen.query_one("#help-body", Static).render()).splitlines()
        for key, ident in (("l", "reviews.next"), ("b", "reviews.close"), ("b", "reader.close")):
            assert any(line.split()[:1] == [key] and line.rstrip().endswith(f"[{ident}]") for line in lines), ident


async def test_the_help_screen_lists_the_screens_and_dialogs_keys_in_their_sections(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-body", Static).render())
        headings = [heading for _, heading in SECTIONS]
        assert [line for line in text.splitlines() if line in headings] == headings
        reviews = text[text.index("The reviews (R)") : text.index("The statistics (A)")]
        assert re.search(r"^\s+\}\s+Next note .*\[reviews\.next\]$", reviews, re.M)
        assert re.search(r"^\s+n\s+Edit the paper's note .*\[reviews\.note\]$", reviews, re.M)
        assert re.search(r"^\s+\]\s+Next section\s+\[reviews\.next_section\]$", reviews, re.M)
        stats = text[text.index("The statistics (A)") : text.index("The views list")]
        assert re.search(r"^\s+→ / n\s+Next chart\s+\[stats\.next\]$", stats, re.M)
        assert re.search(r"^\s+0…9\s+Open a view", stats, re.M)
        assert "[export.toggle]" in text and "[help.close]" in text and "[confirm.yes]" in text


def test_the_keys_page_has_a_section_per_help_section_and_a_row_per_key() -> None:
    page = keys_markdown()
    assert page.startswith("# Keys\n") and page.endswith("|\n") and not page.endswith("\n\n")
    assert all(line == line.rstrip() for line in page.splitlines())
    headings = re.findall(r"^## (.+)$", page, re.M)
    assert headings == [heading for _, heading in SECTIONS] + ["Only in the command palette (`ctrl+p`)"]
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| keys")]
    ids = {ident for row in rows for ident in re.findall(r"`([a-z_]+\.[a-z_0-9]+)`", row)}
    assert ids >= {c.id for c in COMMANDS if c.section is not None}
    assert "| `}` | Next note (review, meta-review, decision, comment) | `reviews.next` |" in rows
    assert "| `→` / `n` | Next chart | `stats.next` |" in rows
    assert "| `1`…`9` | Open view 1–9 (v lists them) | `main.view_1`…`main.view_9` |" in rows
    assert "| `ctrl+p` | Command palette | — |" in rows
    assert "| Back up my data | Write every star, note, status and tag to a JSON file |" in rows
    assert "| Sort by … | One command for each sort order |" in rows
    for row in rows:
        assert row.count(" | ") == (2 if row.count("|") == 4 else 1), row  # no stray | in a cell


async def test_scroll_keys_typed_faster_than_a_frame_each_move_a_line(seeded_store: Store) -> None:
    """Keys pressed before the screen repaints (a key held down, fast typing) each scroll a line:
    a deferred scroll read the same position each time and moved one line for all of them."""
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 12)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        reader = app.screen
        assert isinstance(reader, PaperReader)
        body = reader.query_one(PaperDetail)
        assert body.max_scroll_y >= 4
        for _ in range(4):  # four keys handled before any repaint
            reader.action_scroll(1)
        await pilot.pause()
        assert body.scroll_y == 4


async def test_j_k_g_and_G_scroll_the_help_and_its_footer_says_so(seeded_store: Store) -> None:
    """``j`` / ``k`` scroll the help as they do the full screens (they did nothing there), ``g`` /
    ``G`` go to its top and end, and its footer shows the scroll and close keys."""
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        dialog = screen.query_one("#help-dialog")
        assert dialog.max_scroll_y > 3
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert dialog.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert dialog.scroll_y == 2
        await pilot.press("G")
        await pilot.pause()
        assert dialog.scroll_y == dialog.max_scroll_y
        await pilot.press("g")
        await pilot.pause()
        assert dialog.scroll_y == 0
        shown = {binding.action for _, binding, _, _ in screen.active_bindings.values() if binding.show}
        assert {"scroll(1)", "scroll(-1)", "close"} <= shown
        assert screen.query("PaperFooter")
