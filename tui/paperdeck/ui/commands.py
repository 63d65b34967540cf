"""Every command of the browser, declared once: the ``BINDINGS`` of the app and of every screen,
widget and dialog, the command palette, the help screen and the keys page (``docs/keys.md``) are all
built from ``COMMANDS`` (the help screen's lines and the keys page by
:mod:`paperdeck.ui.command_help`).

A row (:class:`Command`) is one command: its stable ``id`` (the binding id, which users' keymaps
in config.json name: never change one), its default ``keys`` (comma-separated Textual key names;
``""`` for a palette-only command, which is no binding and no keymap key), the ``action`` run in
its owner's namespace, the ``description`` the footer and the help screen show (the help screen
says ``about`` instead where it is set), where it belongs (``owner``: whose ``BINDINGS`` it is in),
its help ``section``, its palette ``title`` and ``palette_help``, and the binding flags ``show``
(in the footer), ``priority`` and ``tooltip``.

The palette rule: a row whose keys the help screen lists is a palette command (``title`` set),
shown with the keys in effect as a hint ("Star / unstar (s)"), unless it is a pure navigation or
editing key, which means nothing once the palette has taken the focus: the list's moves
(``list.*``), the filter bar's way back to the list (``filter.*``), the note editor's keys
(``note.*``), ``ctrl+c`` (copy, else quit), all named by ``NAVIGATION``, and the keys Textual binds itself (``ctrl+p``,
``tab``). A palette command is offered only when its owner's ``check_action`` allows it at that
moment. Parameterised palette commands are expanded from one row: ``main.sort_by`` gives "Sort
by LABEL" for each of ``SORTS``, and ``main.open_view`` gives "View: NAME" for each view, with
the digit key of ``main.view_N`` as the hint for views 1–9 (so those rows need no title).

The help screen lists, section by section, each row with a ``section`` on a line of its own
(keys in effect, description, ``[id]``), then the section's summary lines (``SUMMARIES``): one
line for several rows (the digits ``1…9``), or for a row's meaning in a second place (``escape``
in the filter bar). A summary line shows no id.

The other screens (the reader, the reviews, the statistics) and the dialogs (confirmation,
prompts, the views list, the follows, the help screen itself) are rows too, each owned by its
screen (or widget), so their keys are on the help screen with their ids and a user's keymap remaps
them as it does the main screen's. They are no palette commands: the palette offers the commands
of :data:`PALETTE_OWNERS` only (a dialog's key means nothing once the palette has the focus).
No ``Binding`` is made anywhere else in the ui package (a test scans for one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from textual.binding import Binding, BindingType

from paperdeck.values import TupleValue

if TYPE_CHECKING:
    from textual.app import App

#: Whose ``BINDINGS`` a row is in: the app, the reading-list base of the main screen, the main
#: screen itself, the paper list, the note editor; the reader, the reviews and the statistics
#: screens; the dialogs (help, confirmation, export prompt and its tick box, tags prompt, link
#: chooser, views list, venue picker, save-view prompt, follows list, author picker, keyword prompt,
#: the refusal shown in place of a text-entry dialog).
Owner = Literal[
    "app",
    "reading",
    "main",
    "list",
    "note",
    "reader",
    "reviews",
    "stats",
    "schedule",
    "help",
    "confirm",
    "export",
    "tickbox",
    "tags",
    "links",
    "views",
    "venues",
    "save_view",
    "follows",
    "follow_author",
    "follow_keyword",
    "refused",
]

#: The owners whose rows are palette commands (when their ``title`` is set): the app's, and the
#: main screen's (with its reading-list base) when it is the screen.
PALETTE_OWNERS: frozenset[Owner] = frozenset({"app", "reading", "main"})

#: The screens that scroll (owner, help section, what scrolls): each takes the list's top and end
#: keys (``g`` / ``home``, ``G`` / ``end``) to its ``action_scroll_to_end`` (rows made once, at the
#: table's end).
_SCROLLING: tuple[tuple[Owner, str, str], ...] = (
    ("reader", "reader", "the paper"),
    ("reviews", "reviews", "the reviews"),
    ("stats", "stats", "the chart"),
    ("schedule", "schedule", "the plan"),
    ("help", "dialogs", "the help"),
)

#: The help screen's sections: key, heading (in this order).
SECTIONS: tuple[tuple[str, str], ...] = (
    ("find", "Finding papers"),
    ("reading", "Your reading list (marked papers, else the highlighted one)"),
    ("list", "Moving in the list"),
    ("filter", "In the filter bar"),
    ("note", "In the note editor"),
    ("reader", "Reading a paper full screen (enter on the list)"),
    ("reviews", "The reviews (R)"),
    ("stats", "The statistics (A)"),
    ("schedule", "My schedule (P)"),
    ("views", "The views list (v) and saving a view (w)"),
    ("venues", "The venue picker (c)"),
    ("follows", "Following (F), following an author (a) or a keyword (K)"),
    ("dialogs", "In the other dialogs"),
    ("anywhere", "Anywhere"),
)


class Command(TupleValue):
    """One command (see the module docstring for what each field drives); a tuple, as are the
    other records of this module (made at import: tuples are the cheapest to make), with named
    items as the named tuple it was (:class:`~paperdeck.values.TupleValue`: no class generated
    before the first paint)."""

    __slots__ = ()
    FIELDS = (
        "id",
        "keys",
        "action",
        "description",
        "owner",
        "section",
        "title",
        "palette_help",
        "show",
        "priority",
        "summary",
        "tooltip",
        "about",
        "rows",
    )

    def __new__(
        cls,
        id: str,  # the binding's id, Textual's name
        keys: str,
        action: str,
        description: str,
        owner: Owner,
        section: str | None = None,
        title: str | None = None,
        palette_help: str = "",
        show: bool = False,
        priority: bool = False,
        summary: str | None = None,
        tooltip: str = "",
        about: str = "",
        rows: bool = False,
    ) -> Command:
        return tuple.__new__(
            cls,
            (id, keys, action, description, owner, section, title, palette_help, show, priority, summary, tooltip,
             about, rows),
        )  # fmt: skip

    @property
    def id(self) -> str:
        """The binding's id (``owner.name``), what the keymap names."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def keys(self) -> str:
        """The keys, comma-separated Textual key names (``""``: none)."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def action(self) -> str:
        """The action the keys run."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def description(self) -> str:
        """The footer's short description."""
        return self[3]  # type: ignore[no-any-return]

    @property
    def owner(self) -> Owner:
        """Which screen or widget binds it."""
        return self[4]  # type: ignore[no-any-return]

    @property
    def section(self) -> str | None:
        """The help screen's section (``None``: not listed)."""
        return self[5]  # type: ignore[no-any-return]

    @property
    def title(self) -> str | None:
        """The palette's title (``None``: not in the palette)."""
        return self[6]  # type: ignore[no-any-return]

    @property
    def palette_help(self) -> str:
        """The palette's help line."""
        return self[7]  # type: ignore[no-any-return]

    @property
    def show(self) -> bool:
        """Whether the footer shows the key."""
        return self[8]  # type: ignore[no-any-return]

    @property
    def priority(self) -> bool:
        """Whether the binding has Textual's priority."""
        return self[9]  # type: ignore[no-any-return]

    @property
    def summary(self) -> str | None:
        """The ``SUMMARIES`` line (by key) that lists this row too."""
        return self[10]  # type: ignore[no-any-return]

    @property
    def tooltip(self) -> str:
        """The footer's tooltip for the binding (``""``: none)."""
        return self[11]  # type: ignore[no-any-return]

    @property
    def about(self) -> str:
        """What the help screen and the keys page say the row does, when the footer's short
        ``description`` ("Cancel", "Down") needs its dialog to make sense (``""``: the description)."""
        return self[12]  # type: ignore[no-any-return]

    @property
    def rows(self) -> bool:
        """The command acts on the list's highlighted row, its marks or its papers (star, status,
        mark, remove, export…): while the list does not answer the typed query yet (a search
        pending), its key is held and run once the results are shown (:data:`HELD_ACTIONS`)."""
        return self[13]  # type: ignore[no-any-return]

    def binding(self) -> Binding:
        """The Textual binding of this row (only rows with keys have one)."""
        return Binding(
            self.keys,
            self.action,
            self.description,
            show=self.show,
            priority=self.priority,
            tooltip=self.tooltip,
            id=self.id,
        )

    @property
    def help_text(self) -> str:
        """What the row does, as the help screen and the keys page say it."""
        return self.about or self.description


class Summary(TupleValue):
    """A help line standing for several rows (or for one row's meaning in a second section).

    ``keys`` is set only for a key Textual binds itself (no row of ours, not remappable by id).
    A tuple ``(key, section, description, keys)``, as :class:`Command` is.
    """

    __slots__ = ()
    FIELDS = ("key", "section", "description", "keys")

    def __new__(cls, key: str, section: str, description: str, keys: str = "") -> Summary:
        return tuple.__new__(cls, (key, section, description, keys))

    @property
    def key(self) -> str:
        """The line's key, which rows name as their ``summary``."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def section(self) -> str:
        """The help screen's section."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def description(self) -> str:
        """What the line says."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def keys(self) -> str:
        """The keys Textual binds itself (``""``: the rows' keys)."""
        return self[3]  # type: ignore[no-any-return]


def _status(status: str, key: str, description: str) -> Command:
    return Command(
        f"main.status_{status.replace('-', '_')}",
        key,
        f"status('{status}')",
        description,
        "reading",
        "reading",
        f"Mark {status}",
        f"Set the reading status to {status}",
        rows=True,
    )


# fmt: off
COMMANDS: tuple[Command, ...] = (
    # -- the app ---------------------------------------------------------------------------
    Command("app.quit", "q", "quit", "Quit", "app", "anywhere", "Quit", "Quit paperdeck", show=True),
    Command("app.help", "question_mark", "help", "Help", "app", "anywhere", "Help: keys", "Show every key", show=True),
    Command(
        "app.dismiss_messages", "", "dismiss_messages", "Dismiss messages", "app", None, "Dismiss messages",
        "Take away the messages shown (an error stays longest, then goes)",
    ),
    Command(
        "app.theme", "", "change_theme", "Theme", "app", None, "Theme",
        "Change the colour theme (kept in config.json for the next start)",
    ),
    Command(
        "app.interrupt", "ctrl+c", "interrupt", "Copy the selected text; with none, quit", "app", "anywhere",
        priority=True,
    ),
    # -- the reading list (ReadingScreen, the main screen's base) ---------------------------
    Command(
        "main.star", "s", "toggle_star", "Star", "reading", "reading", "Star / unstar",
        "Star the marked papers, else the highlighted one", show=True, rows=True,
    ),
    Command(
        "main.note", "n", "edit_note", "Note", "reading", "reading", "Edit note",
        "Edit the note of the highlighted paper", show=True, rows=True,
    ),
    Command(
        "main.note_editor", "N", "edit_note_externally", "Note in $EDITOR", "reading", "reading",
        "Edit note in $EDITOR", "Open the note in your editor", rows=True,
    ),
    _status("read", "r", "Read"),
    _status("to-read", "t", "To read"),
    _status("skimmed", "i", "Skimmed"),
    _status("dismissed", "x", "Dismiss"),
    _status("unseen", "U", "Unseen"),
    Command(
        "main.next_unseen", "right_square_bracket", "next_unseen", "Next unseen", "reading", "reading",
        "Next unseen", "Jump to the next unseen paper", rows=True,
    ),
    Command("main.tags", "T", "tags", "Tags", "reading", "reading", "Tags", "Add or remove tags", rows=True),
    Command(
        "main.mark", "space", "mark", "Mark", "reading", "reading", "Mark / unmark",
        "Mark the highlighted paper and move on", rows=True,
    ),
    Command(
        "main.mark_range", "V", "mark_range", "Mark range", "reading", "reading", "Mark range",
        "Mark from the last mark to the highlighted paper", rows=True,
    ),
    Command(
        "main.mark_all", "M", "mark_all", "Mark all in view", "reading", "reading", "Mark all in view",
        "Mark every paper in the current view (again: unmark)", rows=True,
    ),
    Command("main.undo", "u", "undo", "Undo", "reading", "reading", "Undo", "Undo the last change", show=True),
    Command("main.redo", "ctrl+r", "redo", "Redo", "reading", "reading", "Redo", "Redo the last undone change"),
    Command(
        "main.copy", "y", "copy", "Copy title + link", "reading", "reading", "Copy title and link",
        "Copy to the clipboard (OSC 52)", rows=True,
    ),
    Command(
        "main.copy_bibtex", "Y", "copy_bibtex", "Copy the BibTeX entry", "reading", "reading", "Copy BibTeX",
        "Copy the paper's BibTeX entry (its source's, else one made from its fields) (OSC 52)", rows=True,
    ),
    Command(
        "main.open", "o", "open_link", "Open link", "reading", "reading", "Open link",
        "Open the paper's link in the browser (no browser: copy it)", rows=True,
    ),
    # -- the main screen ---------------------------------------------------------------------
    # Priority bindings run as the key arrives, before later keys are routed: "/REAP" typed in
    # one burst must all land in the filter bar, "⏎s" must star, not type "s".
    Command(
        "main.filter", "slash", "focus_filter", "Filter", "main", "find", "Filter", "Focus the filter bar",
        show=True, priority=True,
    ),
    Command(
        "main.clear_filter", "escape", "escape", "Clear marks / filter", "main", "find", "Clear marks / filter",
        "Drop the keys waiting for a search, else clear the marks, else the filter, else starred-only",
        priority=True, summary="filter.clear",
    ),
    Command(
        "filter.to_list", "enter", "leave_filter", "Back to the list", "main", "find",
        priority=True, summary="filter.back",
    ),
    Command(
        "filter.down", "down", "newer_query", "Newer query / back to the list", "main", "filter",
        about="A newer query of the history (↑ went back), else back to the list, keeping the filter",
        priority=True,
    ),
    Command(
        "filter.up", "up", "older_query", "Older query", "main", "filter",
        about="The query run before: the filter's history, kept across restarts (escape's query first)",
        priority=True,
    ),
    Command(
        "main.read", "enter", "read", "Read the paper full screen", "main", "find", "Read the paper",
        "Show the highlighted paper full screen (escape comes back)",
    ),
    Command(
        "main.reviews", "R", "reviews", "Reviews", "main", "find", "Reviews",
        "Read the highlighted paper's reviews, meta-review, decision and comments",
    ),
    Command(
        "main.statistics", "A", "statistics", "Statistics", "main", "find", "Statistics",
        "Charts of the view: ratings, decisions by area, acceptance, reviews, your progress",
    ),
    Command(
        "main.schedule", "P", "schedule", "My schedule", "main", "find", "My schedule",
        "The starred and to-read papers' sessions and posters by day, in walking order; clashes flagged; "
        "enter shows an event's paper in the list, s unstars it",
    ),
    Command(
        "main.remove", "X", "remove_papers", "Remove from the store", "main", "find", "Remove papers",
        "Remove the marked papers, else the highlighted one, from the store (your marks on them stay)", rows=True,
    ),
    Command(
        "main.undo_import", "Z", "undo_import", "Undo the last import or removal", "main", "find",
        "Undo the last import or removal", "Take back the last import or removal (paperdeck import --undo)",
    ),
    Command(
        "main.starred_only", "S", "toggle_starred_only", "Starred only", "main", "find", "Starred only / all",
        "Show only starred papers, or all", show=True,
    ),
    Command(
        "main.sort", "O", "cycle_sort", "Sort order (cycles)", "main", "find", "Sort order: next",
        "Cycle the sort order (with a query in the bar: that query's own, until the bar is blank)",
    ),
    Command(
        "main.sort_by", "", "sort_by('{value}')", "Sort by {label}", "main", None, "Sort by {label}",
        "Order the list: {about}",
    ),
    Command(
        "main.detail", "D", "toggle_detail", "Show / hide the detail pane", "main", "find",
        "Show / hide the detail pane", "Show or hide the abstract beside the list",
    ),
    Command(
        "main.narrower", "less_than_sign", "list_width(-1)", "Narrower list", "main", "find", "Narrower list",
        "Make the list pane narrower",
    ),
    Command(
        "main.wider", "greater_than_sign", "list_width(1)", "Wider list", "main", "find", "Wider list",
        "Make the list pane wider",
    ),
    Command(
        "main.similar", "m", "more_like_this", "More like this", "main", "find", "More like this",
        "Rank the list by likeness to the highlighted paper", show=True, rows=True,
    ),
    Command(
        "main.export", "E", "export", "Export view / marked", "main", "find", "Export",
        "Write the view, or the marked papers, as BibTeX, RIS, CSL-JSON, Markdown, CSV or JSON", rows=True,
    ),
    Command(
        "main.refresh", "", "refresh", "Refresh from OpenReview", "main", None, "Refresh from OpenReview",
        "Fetch the store's venue again (paperdeck fetch), the list usable meanwhile",
    ),
    Command(
        "main.back_up", "", "back_up", "Back up my data", "main", None, "Back up my data",
        "Write every star, note, status and tag to a JSON file",
    ),
    Command(
        "main.views", "v", "views", "Views", "main", "find", "Views", "List the views with their counts", show=True
    ),
    Command(
        "main.venues", "c", "venues", "Venues", "main", "find", "Venues: pick the scope",
        "Pick the venues shown (one, several or all), with their paper counts",
    ),
    Command(
        "main.mark_all_seen", "C", "mark_all_seen", "Mark all changes seen", "main", "find", "Mark all changes seen",
        "Empty What changed: every change recorded so far is seen (u undoes it)",
    ),
    Command(
        "main.save_view", "w", "save_view", "Save the filter as a view", "main", "find", "Save view",
        "Save the filter as a named view",
    ),
    Command(
        "main.view_0", "0", "open_view(0)", "All papers (no view)", "main", None, "All papers (no view)",
        "Leave the view: show every paper", summary="views.all",
    ),
    *(
        Command(f"main.view_{n}", str(n), f"open_view({n})", f"Open view {n}", "main", summary="views.digits")
        for n in range(1, 10)
    ),
    Command("main.open_view", "", "open_view({number})", "View: {name}", "main", None, "View: {name}", "{query}"),
    Command(
        "main.follow_author", "a", "follow_author", "Follow an author", "main", "find", "Follow an author",
        "Follow one of the highlighted paper's authors: their papers are marked ◆", rows=True,
    ),
    Command(
        "main.follow_keyword", "K", "follow_keyword", "Follow a keyword", "main", "find", "Follow a keyword",
        "Follow a keyword: papers with it in the title, keywords or abstract are marked ◆",
    ),
    Command(
        "main.follow_query", "", "follow_query", "Follow the filter's query", "main", None,
        "Follow the filter's query", "Mark ◆ the papers the filter's query selects, now and after each import",
    ),
    Command(
        "main.follows", "F", "follows", "Following: see and unfollow", "main", "find", "Following",
        "List what you follow, with how many papers each matches; enter shows its papers, d unfollows",
    ),
    # -- the paper list ----------------------------------------------------------------------
    Command("list.down", "down,j", "cursor_down", "Down", "list", "list"),
    Command("list.up", "up,k", "cursor_up", "Up", "list", "list"),
    Command("list.first", "g,home", "first", "First", "list", "list"),
    Command("list.last", "G,end", "last", "Last", "list", "list"),
    Command("list.page_down", "pagedown,ctrl+d", "page_down", "Page down", "list", "list"),
    Command("list.page_up", "pageup,ctrl+u", "page_up", "Page up", "list", "list"),
    # -- the note editor ---------------------------------------------------------------------
    # Not priority bindings: they must wait behind the characters typed before them, or a fast
    # "…claim⌃s" would save the note without its last letters.
    Command("note.save", "ctrl+s", "save", "Save", "note", "note", show=True),
    Command("note.cancel", "escape", "cancel", "Cancel", "note", "note", show=True),
    # -- the reader (PaperReader: enter on the list) -----------------------------------------
    Command(
        "reader.close", "escape,backspace", "close", "Back", "reader", "reader",
        show=True, tooltip="Back to the list", about="Back to the list",
    ),
    Command("reader.down", "j", "scroll(1)", "Down", "reader", "reader", about="Scroll down"),
    Command("reader.up", "k", "scroll(-1)", "Up", "reader", "reader", about="Scroll up"),
    Command("reader.reviews", "R", "reviews", "Reviews", "reader", "reader", show=True, about="The paper's reviews"),
    Command(
        "reader.star", "s", "toggle_star", "Star", "reader", "reader", show=True, about="Star / unstar the paper shown"
    ),
    Command(
        "reader.status_read", "r", "status('read')", "Read", "reader", "reader",
        about="Mark the paper shown read (again: back to unseen)",
    ),
    Command("reader.note", "n", "edit_note", "Note", "reader", "reader", show=True, about="Edit the paper's note"),
    # -- the reviews (ReviewsScreen: R on the list or in the reader) -------------------------
    Command(
        "reviews.close", "escape,backspace", "close", "Back", "reviews", "reviews",
        show=True, about="Back to the list or the reader",
    ),
    Command(
        "reviews.next", "right_curly_bracket", "jump('note', 1)", "Next review", "reviews", "reviews",
        show=True, about="Next note (review, meta-review, decision, comment)",
    ),
    Command(
        "reviews.previous", "left_curly_bracket", "jump('note', -1)", "Previous review", "reviews", "reviews",
        show=True, about="Previous note",
    ),
    Command(
        "reviews.next_section", "right_square_bracket", "jump('section', 1)", "Next section", "reviews", "reviews",
        show=True,
    ),
    Command(
        "reviews.previous_section", "left_square_bracket", "jump('section', -1)", "Previous section", "reviews",
        "reviews",
    ),
    Command("reviews.down", "j", "scroll(1)", "Down", "reviews", "reviews", about="Scroll down"),
    Command("reviews.up", "k", "scroll(-1)", "Up", "reviews", "reviews", about="Scroll up"),
    Command(
        "reviews.star", "s", "toggle_star", "Star", "reviews", "reviews",
        show=True, about="Star / unstar the paper shown",
    ),
    Command(
        "reviews.status_read", "r", "status('read')", "Read", "reviews", "reviews",
        about="Mark the paper shown read (again: back to unseen)",
    ),
    Command("reviews.note", "n", "edit_note", "Note", "reviews", "reviews", show=True, about="Edit the paper's note"),
    # -- the statistics (StatsScreen: A on the list) -----------------------------------------
    Command("stats.close", "escape,backspace", "close", "Back", "stats", "stats", show=True, about="Back to the list"),
    Command("stats.next", "right,n", "chart(1)", "Next chart", "stats", "stats", show=True),
    Command("stats.previous", "left,p", "chart(-1)", "Previous chart", "stats", "stats"),
    Command(
        "stats.table", "t", "toggle_table", "Table / chart", "stats", "stats",
        show=True, about="The chart's numbers as a table, or the chart again",
    ),
    Command("stats.down", "j", "scroll(1)", "Down", "stats", "stats", about="Scroll down"),
    Command("stats.up", "k", "scroll(-1)", "Up", "stats", "stats", about="Scroll up"),
    *(
        Command(f"stats.view_{n}", str(n), f"open_view({n})", f"View {n}", "stats", summary="stats.views")
        for n in range(10)
    ),
    # -- my schedule (ScheduleScreen: P on the list) ------------------------------------------
    Command(
        "schedule.close", "escape,backspace", "close", "Back", "schedule", "schedule", show=True,
        about="Back to the list",
    ),
    Command("schedule.down", "j,down", "move(1)", "Down", "schedule", "schedule", about="Highlight the next event"),
    Command("schedule.up", "k,up", "move(-1)", "Up", "schedule", "schedule", about="Highlight the previous event"),
    Command(
        "schedule.show", "enter", "show_in_list", "Show in list", "schedule", "schedule", show=True,
        about="Show the highlighted event's paper in the list",
    ),
    Command(
        "schedule.star", "s", "toggle_star", "Star/unstar", "schedule", "schedule", show=True,
        about="Star / unstar the highlighted event's paper (unstarred, it leaves the plan)",
    ),
    Command(
        "schedule.undo", "u", "history_step(1)", "Undo", "schedule", "schedule", show=True,
        about="Undo the list's last change (a star here is one), the plan made again",
    ),
    Command(
        "schedule.redo", "ctrl+r", "history_step(0)", "Redo", "schedule", "schedule",
        about="Redo the list's last undone change, the plan made again",
    ),
    # -- the views list (ViewsScreen: v) and the save-view prompt (SaveViewPrompt: w) --------
    Command("views.close", "escape,v,q", "close", "Close", "views", "views", show=True, about="Close the views list"),
    Command("views.delete", "d,delete", "delete", "Delete the view", "views", "views", show=True),
    Command(
        "views.rename", "r", "rename", "Rename the view", "views", "views", show=True,
        about="Rename one of your views: it keeps its digit, query and sort",
    ),
    Command("views.down", "j", "move(1)", "Down", "views", "views", about="Down in the views list"),
    Command("views.up", "k", "move(-1)", "Up", "views", "views", about="Up in the views list"),
    *(
        Command(f"views.open_{n}", str(n), f"open({n})", f"Open view {n}", "views", summary="views.open")
        for n in range(1, 10)
    ),
    # -- the venue picker (VenuesScreen: c) --------------------------------------------------
    Command(
        "venues.close", "escape,c,q", "close", "Close", "venues", "venues", show=True,
        about="Close the venue picker, the scope unchanged",
    ),
    Command(
        "venues.tick", "space", "tick", "Tick", "venues", "venues", show=True,
        about="Tick or untick the highlighted venue (on All venues: all or none)",
    ),
    Command(
        "venues.only", "o", "only", "Only this", "venues", "venues", show=True,
        about="Show the highlighted venue alone",
    ),
    Command("venues.down", "j", "move(1)", "Down", "venues", "venues", about="Down in the venue picker"),
    Command("venues.up", "k", "move(-1)", "Up", "venues", "venues", about="Up in the venue picker"),
    Command(
        "save_view.cancel", "escape", "cancel", "Cancel", "save_view", "views",
        show=True, about="Close the save-view prompt, saving nothing",
    ),
    # -- the follows list (FollowsScreen: F), the author picker (a), the keyword prompt (K) ---
    Command(
        "follows.close", "escape,F,q", "close", "Close", "follows", "follows", show=True, about="Close the follows list"
    ),
    Command(
        "follows.unfollow", "d,delete", "unfollow", "Unfollow", "follows", "follows",
        show=True, about="Unfollow the highlighted author, keyword or query",
    ),
    Command("follows.down", "j", "move(1)", "Down", "follows", "follows", about="Down in the follows list"),
    Command("follows.up", "k", "move(-1)", "Up", "follows", "follows", about="Up in the follows list"),
    Command(
        "follow_author.cancel", "escape", "cancel", "Cancel", "follow_author", "follows",
        show=True, about="Close the author picker, following no one",
    ),
    Command(
        "follow_author.down", "j,down", "move(1)", "Down", "follow_author", "follows",
        about="Down in the author picker (down only while typing in its filter)",
    ),
    Command(
        "follow_author.up", "k,up", "move(-1)", "Up", "follow_author", "follows",
        about="Up in the author picker (up only while typing in its filter)",
    ),
    Command(
        "follow_keyword.cancel", "escape", "cancel", "Cancel", "follow_keyword", "follows",
        show=True, about="Close the keyword prompt, following nothing",
    ),
    # -- the other dialogs -------------------------------------------------------------------
    Command(
        "confirm.yes", "y", "answer(True)", "Yes", "confirm", "dialogs", show=True, about="Yes, to a question asked"
    ),
    Command(
        "confirm.no", "n,escape", "answer(False)", "No", "confirm", "dialogs",
        show=True, about="No, to a question asked",
    ),
    Command(
        "refused.close", "enter,escape", "close", "Close", "refused", "dialogs",
        show=True, about="Close the reason a dialog was refused (the keys typed meanwhile are dropped)",
    ),
    Command(
        "export.cancel", "escape", "cancel", "Cancel", "export", "dialogs",
        show=True, about="Close the export prompt, writing nothing",
    ),
    Command(
        "export.toggle", "space", "toggle_button", "Toggle", "tickbox", "dialogs",
        about="Tick or untick the export prompt's \"include the reviews\"",
    ),
    Command(
        "export.write", "enter", "submit", "Write", "tickbox", "dialogs",
        about="Write the export (on its tick box, as in its file name)",
    ),
    Command(
        "tags.cancel", "escape", "cancel", "Cancel", "tags", "dialogs",
        show=True, about="Close the tags prompt, changing nothing",
    ),
    Command(
        "tags.apply", "enter", "apply", "Apply", "tags", "dialogs", priority=True,
        about="Apply the tags typed (at once: the keys typed after it go to the list)",
    ),
    Command(
        "links.cancel", "escape", "cancel", "Cancel", "links", "dialogs",
        show=True, about="Close the link chooser, opening nothing",
    ),
    Command("links.down", "j", "move(1)", "Down", "links", "dialogs", about="Down in the link chooser"),
    Command("links.up", "k", "move(-1)", "Up", "links", "dialogs", about="Up in the link chooser"),
    Command(
        "help.close", "escape,q,question_mark", "close", "Close", "help", "dialogs", show=True, about="Close this help"
    ),
    Command("help.down", "j", "scroll(1)", "Down", "help", "dialogs", show=True, about="Scroll the help down"),
    Command("help.up", "k", "scroll(-1)", "Up", "help", "dialogs", show=True, about="Scroll the help up"),
    # -- the top and the end of every scrolling screen, as the list's g / G, home / end -------
    *(
        command
        for owner, section, what in _SCROLLING
        for command in (
            Command(
                f"{owner}.first", "g,home", "scroll_to_end(0)", "Top", owner, section, about=f"To the top of {what}"
            ),
            Command(
                f"{owner}.last", "G,end", "scroll_to_end(1)", "Bottom", owner, section, about=f"To the end of {what}"
            ),
        )
    ),
)
# fmt: on

#: The help screen's summary lines, in the order they follow a section's own lines.
SUMMARIES: tuple[Summary, ...] = (
    Summary("views.digits", "find", "Open view 1–9 (v lists them)"),
    Summary("views.all", "find", "All papers: leave the view"),
    Summary("filter.back", "filter", "Back to the list, keep the filter"),
    Summary("filter.clear", "filter", "Clear the filter, back to the list"),
    Summary("stats.views", "stats", "Open a view (0: all papers): the charts follow"),
    Summary("views.open", "views", "Open view 1–9 of the list"),
    Summary("textual.palette", "anywhere", "Command palette", keys="ctrl+p"),
    Summary("textual.focus_next", "anywhere", "Next pane", keys="tab"),
)

BY_ID: dict[str, Command] = {command.id: command for command in COMMANDS}

#: The actions (their names, without arguments) of the main screen's rows that act on the list's
#: rows or marks (:attr:`Command.rows`): held while the list does not answer the typed query yet.
HELD_ACTIONS: frozenset[str] = frozenset(
    command.action.split("(", 1)[0] for command in COMMANDS if command.rows and command.owner in ("reading", "main")
)

#: The ids (by prefix) of the pure navigation and editing keys: listed on the help screen, no
#: palette commands (the module docstring's rule).
NAVIGATION: tuple[str, ...] = ("list.", "filter.", "note.", "app.interrupt")


def bindings(owner: Owner) -> list[BindingType]:
    """The ``BINDINGS`` of ``owner``: its rows that have keys, in table order (the footer's)."""
    return [command.binding() for command in COMMANDS if command.owner == owner and command.keys]


def key_display(app: App[Any], key: str) -> str:
    """How ``app`` shows ``key`` (a Textual key name) in the footer: ``"?"``, ``"^r"``, ``"⏎"``."""
    return app.get_key_display(Binding(key, ""))


def keys_in_effect(command: Command, keymap: Mapping[str, str]) -> list[str]:
    """The keys that run ``command`` now: the keymap's for its id, else its defaults (Textual
    key names; ``[]`` for a palette-only row)."""
    keys = keymap.get(command.id, command.keys) if command.keys else ""
    return [key.strip() for key in keys.split(",") if key.strip()]
