"""The paperdeck Textual application."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import PurePath
from time import monotonic
from typing import ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from paperdeck import runtime
from paperdeck.model.errors import StoreError
from paperdeck.paths import styles_dir
from paperdeck.store.settings import SORT_LABELS, SORTS, SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.reading import ReadingScreen
from paperdeck.ui.widgets.paper_list import PaperList


class PaperApp(App[None]):
    """Browse a paperdeck store. The store is injected: the app opens no files of its own.

    Args:
        store: the open store (catalogue and user data).
        messages: one-line messages to show once the app is up (e.g. import summaries).
    """

    TITLE = "paperdeck"
    CSS_PATH: ClassVar[list[str | PurePath]] = [
        str(styles_dir() / name) for name in ("app.tcss", "main.tcss", "dialogs.tcss")
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", id="app.help"),
    ]

    #: Seconds without a key or mouse event after which the user counts as idle.
    IDLE_S: ClassVar[float] = 1.0

    def __init__(self, store: Store, messages: Sequence[str] = (), settings: SettingsFile | None = None) -> None:
        super().__init__()
        self.store = store
        self.settings = settings if settings is not None else SettingsFile(store.data_dir)
        self._messages = list(messages)
        self._last_input = monotonic()
        chosen = self.settings.settings
        # Before the first frame: a theme set once the app is mounted styled the screen twice
        # (~35 ms more to start).
        if chosen.theme and chosen.theme in self.available_themes:
            self.theme = chosen.theme

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self._last_input = monotonic()
        await super().on_event(event)

    def _collect_when_idle(self) -> None:
        """Garbage cycles are collected in full while the user is idle (see paperdeck.runtime)."""
        if monotonic() - self._last_input >= self.IDLE_S:
            runtime.collect_if_due()

    def on_mount(self) -> None:
        chosen = self.settings.settings
        if chosen.keymap:
            self.set_keymap(chosen.keymap)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.set_interval(self.IDLE_S, self._collect_when_idle)
        if self.settings.problem:
            self.notify(self.settings.problem, severity="warning", markup=False, timeout=8)
        for message in self._messages:
            self.notify(message, markup=False, timeout=6)

    def get_default_screen(self) -> Screen[None]:
        """The main screen is the app's first screen: not pushed over Textual's empty default
        screen, which was composed, styled and laid out for nothing before it (~10 ms)."""
        return MainScreen(self.store, self.settings)

    def _theme_changed(self, theme: Theme) -> None:
        """Remember the theme picked (command palette: "Change theme")."""
        if theme.name != self.settings.settings.theme:
            self.save_settings(theme=theme.name)

    def save_settings(self, **changes: object) -> None:
        """Change and persist settings; a failure to write is a message, not a crash."""
        try:
            self.settings.update(**changes)
        except StoreError as error:
            self.notify(str(error), title="Settings not saved", severity="warning", markup=False)

    def on_app_focus(self) -> None:
        """Back in the terminal: pick up what another paperdeck wrote meanwhile."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.check_external_changes()

    def help_sections(self) -> list[tuple[str, Sequence[BindingType]]]:
        """What the help screen lists: the declared bindings of each place, in order."""
        from paperdeck.ui.screens.note_editor import NoteEditor

        return [
            (
                "Finding papers",
                [
                    *(b for b in MainScreen.BINDINGS if not (isinstance(b, Binding) and b.id and "view_" in b.id)),
                    Binding("1…9", "", "Open view 1–9 (v lists them)"),
                    Binding("0", "", "All papers: leave the view"),
                ],
            ),
            ("Your reading list (marked papers, else the highlighted one)", ReadingScreen.BINDINGS),
            ("Moving in the list", PaperList.BINDINGS),
            (
                "In the filter bar",
                [
                    Binding("enter,down", "", "Back to the list, keep the filter"),
                    Binding("escape", "", "Clear the filter, back to the list"),
                ],
            ),
            ("In the note editor", NoteEditor.BINDINGS),
            ("Anywhere", [*self.BINDINGS, Binding("ctrl+p", "", "Command palette"), Binding("tab", "", "Next pane")]),
        ]

    def action_help(self) -> None:
        from paperdeck.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.help_sections(), self.settings.settings.keymap))

    def action_open_link(self, url: str) -> None:
        """Open ``url`` in the browser (``webbrowser``: an argument list, never a shell)."""
        if url.startswith(("http://", "https://")):
            self.open_url(url)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help: keys", "Show every key", self.action_help)
        if isinstance(screen, MainScreen):
            yield SystemCommand("Filter", "Focus the filter bar", screen.action_focus_filter)
            yield SystemCommand("Star / unstar", "Star the highlighted paper", screen.action_toggle_star)
            yield SystemCommand("Edit note", "Edit the note of the highlighted paper", screen.action_edit_note)
            yield SystemCommand(
                "Starred only / all", "Show only starred papers, or all", screen.action_toggle_starred_only
            )
            yield SystemCommand(
                "Edit note in $EDITOR", "Open the note in your editor", screen.action_edit_note_externally
            )
            yield SystemCommand("Tags", "Add or remove tags", screen.action_tags)
            for status in ("read", "to-read", "skimmed", "dismissed", "unseen"):
                yield SystemCommand(
                    f"Mark {status}", f"Set the reading status to {status}", partial(screen.action_status, status)
                )
            for order in SORTS:
                label = SORT_LABELS[order]
                yield SystemCommand(f"Sort by {label}", f"Order the list by {label}", partial(screen.sort_by, order))
            yield SystemCommand(
                "More like this", "Rank the list by likeness to the highlighted paper", screen.action_more_like_this
            )
            yield SystemCommand(
                "Export", "Write the view, or the marked papers, as BibTeX, Markdown, CSV or JSON", screen.action_export
            )
            yield SystemCommand(
                "Back up my data", "Write every star, note, status and tag to a JSON file", screen.action_back_up
            )
            yield SystemCommand("Views", "List the views with their counts", screen.action_views)
            yield SystemCommand("Save view", "Save the filter as a named view", screen.action_save_view)
            for view in screen.views:
                yield SystemCommand(f"View: {view.name}", view.query, partial(screen.open_view, view))
            yield SystemCommand("Next unseen", "Jump to the next unseen paper", screen.action_next_unseen)
            yield SystemCommand("Mark all in view", "Mark every paper in the current view", screen.action_mark_all)
            yield SystemCommand("Undo", "Undo the last change", screen.action_undo)
            yield SystemCommand("Redo", "Redo the last undone change", screen.action_redo)
            yield SystemCommand("Copy title and link", "Copy to the clipboard (OSC 52)", screen.action_copy)
            yield SystemCommand("Open link", "Open the paper's link in the browser", screen.action_open_link)
