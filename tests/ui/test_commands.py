"""The command table: binding ids and default keys stay as users' keymaps know them; the help
screen, the command palette and the README are built from (or checked against) the same table."""

from __future__ import annotations

from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.export import ExportPrompt
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.screens.prompts import LinkChooser, TagPrompt
from paperdeck.ui.screens.reading import ReadingScreen
from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen
from paperdeck.ui.widgets.paper_list import PaperList
from textual.binding import Binding, BindingType

#: Every class's own bindings as (id, default keys, action, show, priority), in declared order
#: (the order is the footer's): pinned as they were before the command table, so that no
#: binding id, default key, action, footer entry or priority changed with it. Binding ids are the
#: keys of the users' ``keymap`` in config.json: change none of them.
PINNED: dict[str, list[tuple[str | None, str, str, bool, bool]]] = {
    "PaperApp": [
        ("app.quit", "q", "quit", True, False),
        ("app.help", "question_mark", "help", True, False),
    ],
    "MainScreen": [
        ("main.filter", "slash", "focus_filter", True, True),
        ("main.clear_filter", "escape", "escape", False, True),
        ("filter.to_list", "enter", "leave_filter", False, True),
        ("filter.down", "down", "leave_filter", False, True),
        ("main.starred_only", "S", "toggle_starred_only", True, False),
        ("main.sort", "O", "cycle_sort", False, False),
        ("main.detail", "D", "toggle_detail", False, False),
        ("main.narrower", "less_than_sign", "list_width(-1)", False, False),
        ("main.wider", "greater_than_sign", "list_width(1)", False, False),
        ("main.similar", "m", "more_like_this", True, False),
        ("main.export", "E", "export", False, False),
        ("main.views", "v", "views", True, False),
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
    ],
    "LinkChooser": [
        ("links.cancel", "escape", "cancel", True, False),
    ],
    "ViewsScreen": [
        ("views.close", "escape,v,q", "close", True, False),
        ("views.delete", "d,delete", "delete", True, False),
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
    "SaveViewPrompt": [
        ("save_view.cancel", "escape", "cancel", True, False),
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
        SaveViewPrompt,
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
