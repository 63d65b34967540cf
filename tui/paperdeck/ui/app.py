"""The paperdeck Textual application."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePath
from time import monotonic
from typing import ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.screen import Screen
from textual.theme import Theme
from textual.worker import WorkerFailed

from paperdeck import runtime
from paperdeck.model.errors import PaperdeckError
from paperdeck.paths import styles_dir
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui.commands import bindings, help_sections
from paperdeck.ui.saving import save_settings
from paperdeck.ui.screens.main import MainScreen


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
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")

    #: Seconds without a key or mouse event after which the user counts as idle.
    IDLE_S: ClassVar[float] = 1.0

    def __init__(self, store: Store, messages: Sequence[str] = (), settings: SettingsFile | None = None) -> None:
        super().__init__()
        self.store = store
        self.settings = settings if settings is not None else SettingsFile(store.data_dir)
        self._messages = list(messages)
        #: The error that ended the app, when the store turned out unreadable while it ran (the
        #: catalogue is parsed after the first paint): ``paperdeck`` prints it as the CLI would.
        self.failure: PaperdeckError | None = None
        self._last_input = monotonic()
        chosen = self.settings.settings
        # Before the first frame: a theme set once the app is mounted styles the screen twice.
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

    def _handle_exception(self, error: Exception) -> None:
        """A store found unreadable once the app runs (a worker parsing the catalogue raised a
        :class:`PaperdeckError`) ends the app with that one line (:attr:`failure`, exit status 2),
        as the CLI does, instead of a traceback; any other error is Textual's to report."""
        cause = error.error if isinstance(error, WorkerFailed) else error
        if isinstance(cause, PaperdeckError):
            if self.failure is None:
                self.failure = cause
            self.exit(return_code=2)
            return
        super()._handle_exception(error)

    def get_default_screen(self) -> Screen[None]:
        """The main screen is the app's first screen: not pushed over Textual's empty default
        screen, which would be composed, styled and laid out for nothing before it."""
        return MainScreen(self.store, self.settings)

    def _theme_changed(self, theme: Theme) -> None:
        """Remember the theme picked (command palette: "Change theme")."""
        if theme.name != self.settings.settings.theme:
            self.save_settings(theme=theme.name)

    def save_settings(self, **changes: object) -> None:
        """Change and persist settings; a failure to write is a message, not a crash."""
        save_settings(self, self.settings, **changes)

    def on_app_focus(self) -> None:
        """Back in the terminal: pick up what another paperdeck wrote meanwhile."""
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.check_external_changes()

    def action_help(self) -> None:
        from paperdeck.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_sections(self.settings.settings.keymap)))

    def action_open_link(self, url: str) -> None:
        """Open ``url`` in the browser (``webbrowser``: an argument list, never a shell)."""
        if url.startswith(("http://", "https://")):
            self.open_url(url)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands (its "Quit" replaced by ours, which shows its key), then ours, from
        the command table (:mod:`paperdeck.ui.palette`)."""
        from paperdeck.ui.palette import palette_commands

        yield from (command for command in super().get_system_commands(screen) if command.title != "Quit")
        yield from palette_commands(self, screen, self.settings.settings.keymap)
