"""A refused text-entry action: its reason in a small dialog, in place of the dialog it would
have opened, so that what the user types next (a view's name, a tag, a note) goes nowhere
instead of running as the list's keys (``s`` starring, ``enter`` opening a paper…).

Every action that opens a text-entry dialog (save view ``w``, tags ``t``, the note ``n``, export
``E``) says its refusal through :func:`refuse_entry`, never a toast alone."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Label

from paperdeck.model.safe_text import visible
from paperdeck.paths import dialog_style_sheets
from paperdeck.ui.commands import bindings


class _KeySink(Widget, can_focus=True):
    """Takes the characters typed while the reason is shown: they run no key of any screen
    (nor the app's ``q``)."""

    DEFAULT_CSS = "_KeySink { height: 0; }"

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isprintable()

    def on_key(self, event: events.Key) -> None:
        if event.character is not None and event.character.isprintable():
            event.stop()
            event.prevent_default()


class RefusedDialog(ModalScreen[None]):
    """``title`` and ``reason`` (one line each, shown as text); ``enter`` or ``escape`` closes it,
    every character typed meanwhile is dropped."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("refused")
    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    def __init__(self, title: str, reason: str) -> None:
        super().__init__()
        self._title = title
        self._reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="refused-dialog", classes="prompt"):
            yield Label(visible(self._title), markup=False, classes="prompt-title")
            yield Label(visible(self._reason), markup=False, id="refused-reason")
            yield _KeySink()
            yield Label("enter or escape closes · nothing typed here is kept", classes="prompt-help")

    def on_mount(self) -> None:
        self.query_one(_KeySink).focus()

    def action_close(self) -> None:
        self.dismiss(None)


def refuse_entry(screen: Screen[Any], title: str, reason: str) -> None:
    """Refuse an action that would open a text-entry dialog: :class:`RefusedDialog` with
    ``reason`` (``title``: what was refused, as the dialog would have been headed)."""
    screen.app.push_screen(RefusedDialog(title, reason))
