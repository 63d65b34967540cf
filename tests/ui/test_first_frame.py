"""The main screen's first frame: what it shows, and what waits until after it.

The first frame (the list of a store whose catalogue is not parsed yet, the filter bar, the detail
pane's frame, the footer's row) is drawn before anything else; the footer's keys, the detail
pane's body, the dialogs' modules and styles, the undo history come after it. Checked in a fresh process, where
nothing was imported by an earlier test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from paperdeck.store.store import Store

#: Runs the app headless on the store at argv[1]; prints, as JSON, what the first frame held and
#: what was mounted once the app settled.
PROBE = r"""
import asyncio, json, sys
from textual._compositor import Compositor
from textual.dom import DOMNode
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

seen = {}
render_update = Compositor.render_update


def made_classes(cls):  # the DOM classes paperdeck made, under cls
    for sub in cls.__subclasses__():
        if sub.__module__.startswith("paperdeck."):
            yield sub.__name__
        yield from made_classes(sub)


def ours(widget):  # not Textual's own (its toasts' rack, its tooltip)
    return not (widget.id or "textual-").startswith("textual-")


def first_frame(self, *args, **kwargs):
    update = render_update(self, *args, **kwargs)
    if update is not None and not seen:
        app = Probe.instance
        screen = app.screen
        visible = {getattr(w, "id", None) or type(w).__name__ for w in self.visible_widgets}
        seen.update(
            screen=type(screen).__name__,
            visible=sorted(v for v in visible if v),
            footer_keys=len(screen.query("FooterKey")),
            widgets=[f"{type(w).__name__}#{w.id}" for w in screen.walk_children() if ours(w)],
            detail_children=len(screen.query_one("#paper-detail").children),
            modules=sorted(m for m in sys.modules if m.startswith(("paperdeck.", "tinydb"))),
            sources=sorted(what for _, what in app.stylesheet.source),
            source_paths=sorted(app.stylesheet.source),
            dom_classes=sorted(set(made_classes(DOMNode))),
        )
    return update


Compositor.render_update = first_frame


class Probe(PaperApp):
    instance = None

    def on_mount(self) -> None:
        super().on_mount()
        self.set_timer(0.05, self.wait_and_leave)

    async def wait_and_leave(self) -> None:
        await self.workers.wait_for_complete()
        typed_needs = ("paperdeck.search.query", "paperdeck.search.selection", "paperdeck.search.highlight")

        def settled() -> bool:
            return bool(
                self.screen.query_one("#footer-row").children
                and self.screen.query_one("#paper-detail").children
                and all(name in sys.modules for name in typed_needs)
            )

        for _ in range(1500):  # until settled; 30 s at most, a guard (the test then says what was missing)
            if settled():
                break
            await asyncio.sleep(0.02)
        seen["settled_footer"] = [type(w).__name__ for w in self.screen.query_one("#footer-row").children]
        seen["settled_detail_children"] = len(self.screen.query_one("#paper-detail").children)
        seen["settled_modules"] = sorted(m for m in sys.modules if m.startswith("paperdeck."))
        self.exit()


app = Probe(Store(sys.argv[1], lazy=True))
Probe.instance = app
app.run(headless=True, size=(150, 40))
print(json.dumps(seen))
"""


def test_the_first_frame_shows_the_list_and_its_frames_and_defers_the_rest(seeded_store: Store) -> None:
    data_dir = seeded_store.data_dir
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(data_dir)], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == "MainScreen"
    # What the user sees at once: the filter bar, the counts, the list, the detail pane's frame,
    # the footer's row.
    assert {"filter", "counts", "paper-list", "paper-detail", "footer-row"} <= set(seen["visible"])
    # What waits for the frame after: the footer, the detail pane's body, the dialogs.
    # Each widget is mounted, styled, laid out and placed before the first frame (a container
    # ~9 M instructions): the top bar is the first row of the screen's grid, no container.
    assert seen["widgets"] == [
        "FilterBar#filter", "CountsLabel#counts", "Horizontal#panes", "PaperList#paper-list",
        "PaperDetail#paper-detail", "Horizontal#footer-row",
    ]  # fmt: skip
    assert seen["footer_keys"] == 0
    assert seen["detail_children"] == 0
    modules = set(seen["modules"])
    for deferred in (
        "paperdeck.ui.widgets.footer",
        "paperdeck.ui.screens.follow_dialogs",
        "paperdeck.ui.screens.confirm",
        "paperdeck.ui.screens.note_editor",
        "paperdeck.ui.screens.help",
        "paperdeck.ui.command_help",
        "paperdeck.ui.palette",
        "paperdeck.reading.history",
        # The dialogs' one-line input, the export prompt's path field, the detail pane's body
        # (none in the first frame).
        "paperdeck.ui.widgets.one_line_input",
        "paperdeck.ui.widgets.path_input",
        "paperdeck.ui.widgets.detail_body",
        # The follows' marks (none before the catalogue is matched), the keys held while a
        # query runs (none before a key), the changed marks (the change log is read after the
        # first frame): each part made at its first use.
        "paperdeck.ui.screens.follows",
        "paperdeck.ui.screens.held_keys",
        "paperdeck.ui.screens.change_marks",
        # The records of the papers, their reviews and their changes: read after the first frame.
        "paperdeck.model.paper",
        "paperdeck.model.review",
        "paperdeck.model.changes",
        # The undo steps kept across sessions (two frozen dataclasses, ~9 M instructions to make):
        # read at the first undo or change, after the first frame.
        "paperdeck.store.undo_steps",
        # The toasts' own rules: for a dialog's toasts (none in the first frame).
        "paperdeck.ui.toasts",
        # TinyDB writes the store's files: reading them needs none.
        "tinydb",
        # Modules whose code only a key, a query, a toast or a write after the first frame runs
        # (~0.3 M instructions each to find, read and unmarshal): imported where they are used.
        "paperdeck.ui.saving",
        "paperdeck.ui.screens.built_once",
        "paperdeck.reading.status",
        "paperdeck.ui._lines.notifications",
        "paperdeck.store.span_read",
        "paperdeck.store.rows_pieces",
    ):
        assert deferred not in modules
    # Each Textual class is made with its bindings merged and its attributes listed (costly, see
    # docs/performance.md): the first frame makes those it draws, the app and the screen's base.
    # The dialogs' one-line input, the export prompt's path field and the detail pane's body are
    # made at their first use (the filter bar has the one-line paste without a class between it
    # and Input).
    # The main screen's reading-list actions are a plain class among its bases, not a Textual
    # class of their own (ReadingScreen: ~2.5 M instructions to make).
    assert seen["dom_classes"] == [
        "CountsLabel", "FilterBar", "ListScrollBar", "MainScreen", "PaperApp", "PaperDetail", "PaperList",
    ]  # fmt: skip
    dialogs = ("NoteEditor", "HelpScreen", "ConfirmScreen", "LinkChooser", "ViewsScreen", "FollowsScreen")
    assert not [source for source in seen["sources"] if source.startswith(("Footer.", "PaperFooter.", *dialogs))]
    assert not [path for path, _ in seen["source_paths"] if Path(path).name == "dialogs.tcss"]
    # Once settled: the footer is in its row (its keys: tests/ui/test_small_terminal.py), the
    # detail pane has its body.
    assert seen["settled_footer"] == ["PaperFooter"]
    assert seen["settled_detail_children"] == 1
    # And what the first query typed takes, imported while no key was typed.
    assert {"paperdeck.search.query", "paperdeck.search.selection", "paperdeck.search.highlight"} <= set(
        seen["settled_modules"]
    )


def test_the_dialogs_styles_are_no_stylesheet_of_the_app() -> None:
    """Each dialog's rules live in its own DEFAULT_CSS, the ones they share in dialogs.tcss (each
    dialog's CSS_PATH): both parsed when the first dialog opens, not in a stylesheet the app reads
    before its first frame."""
    from paperdeck.paths import dialog_style_sheets, styles_dir
    from paperdeck.ui.app import PaperApp
    from paperdeck.ui.screens.choices import ChoiceDialog
    from paperdeck.ui.screens.confirm import ConfirmScreen
    from paperdeck.ui.screens.export import ExportPrompt
    from paperdeck.ui.screens.follow_dialogs import AuthorPicker, FollowsScreen, KeywordPrompt
    from paperdeck.ui.screens.help import HelpScreen
    from paperdeck.ui.screens.note_editor import NoteEditor
    from paperdeck.ui.screens.progress import ProgressScreen
    from paperdeck.ui.screens.prompts import LinkChooser, TagPrompt
    from paperdeck.ui.screens.refused import RefusedDialog
    from paperdeck.ui.screens.venues import VenuesScreen
    from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen

    names = sorted(Path(path).name for path in PaperApp.CSS_PATH)
    assert names == ["app.tcss", "main.tcss"]
    assert sorted(path.name for path in styles_dir().glob("*.tcss")) == ["app.tcss", "dialogs.tcss", "main.tcss"]
    dialogs = (ChoiceDialog, ConfirmScreen, ExportPrompt, AuthorPicker, FollowsScreen, KeywordPrompt, HelpScreen,
               NoteEditor, LinkChooser, TagPrompt, VenuesScreen, SaveViewPrompt, ViewsScreen,
               RefusedDialog, ProgressScreen)  # fmt: skip
    assert {tuple(dialog.CSS_PATH) for dialog in dialogs} == {tuple(dialog_style_sheets())}
    # The shared sheet names exactly these dialogs.
    shared = (styles_dir() / "dialogs.tcss").read_text(encoding="utf-8")
    named = shared.split("{", 1)[0].rsplit("*/", 1)[-1]
    assert {name.strip() for name in named.split(",")} == {
        dialog.__name__ for dialog in dialogs if dialog is not ChoiceDialog
    }


def test_the_app_sheets_rules_each_declare_something_of_their_own() -> None:
    """The sheets the app parses before its first frame (app.tcss, main.tcss) hold no two rule
    sets with the same declarations: such rules are one rule set with several selectors. Textual
    tokenizes a sheet in Python before the first frame, ~23 K instructions a token
    (docs/performance.md, "First paint, sixteenth round"), so a rule written twice is paid for
    twice: main.tcss had 30 rule sets, four of them the same `color: $text-muted` and two the
    same focused border; 26 then, and the toasts' three rules since (their width, their place
    when the detail pane is below the list)."""
    from paperdeck.ui.app import PaperApp

    rule_sets: dict[str, list[str]] = {}
    for path in PaperApp.CSS_PATH:
        text = re.sub(r"/\*.*?\*/", "", Path(path).read_text(encoding="utf-8"), flags=re.S)
        for selectors, declarations in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
            said = " ".join(sorted(" ".join(line.split()) for line in declarations.split(";") if line.strip()))
            rule_sets.setdefault(said, []).append(" ".join(selectors.split()))
    assert {said: selectors for said, selectors in rule_sets.items() if len(selectors) > 1} == {}
    assert sum(len(selectors) for selectors in rule_sets.values()) == 31  # app.tcss 3, main.tcss 28
