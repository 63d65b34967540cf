"""A change to many papers under way: what is being done, and how far it has got."""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar

from paperdeck.paths import dialog_style_sheets


class ProgressScreen(ModalScreen[None]):
    """A modal box: ``what`` (plain text, never markup) over a bar of ``total`` steps, with the
    count done so far (``1,200 of 2,295 papers``), until its owner dismisses it when the work is
    done. A key pressed meanwhile does nothing but say so (the app's quit key and its priority
    keys, such as ``ctrl+c``, still work): no change is queued behind the one under way."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # its background, dimmed

    DEFAULT_CSS = """
    #progress-dialog {
        width: 56;
        max-width: 95%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    #progress-count {
        padding: 1 0 0 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, what: str, total: int, unit: str = "papers") -> None:
        super().__init__()
        self._what = what
        self._total = total
        self._unit = unit
        self.done = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="progress-dialog"):
            yield Label(self._what, id="progress-what", markup=False)
            yield ProgressBar(total=self._total, show_eta=False, id="progress-bar")
            yield Label(self._count_text(), id="progress-count", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key in self._quit_keys():  # a modal screen hides the app's keys: this one is passed on
            self.call_next(self.app.run_action, "quit")  # it waits for the work (PaperApp.action_quit)
            return
        self.notify(f"Still working ({self._what}); press the key again when it is done.", markup=False)

    def _quit_keys(self) -> list[str]:
        """The keys of the app's quit (``app.quit`` in the app's keymap, when it has one)."""
        keymap = getattr(self.app, "keymap", None)
        keys = keymap.keys.get("app.quit", "") if keymap is not None else ""
        return [key.strip() for key in keys.split(",") if key.strip()]

    def _count_text(self) -> str:
        return f"{self.done:,} of {self._total:,} {self._unit}"

    def advance(self, steps: int) -> None:
        """``steps`` more are done."""
        self.done = min(self._total, self.done + steps)
        try:
            self.query_one(ProgressBar).update(progress=self.done)
            self.query_one("#progress-count", Label).update(self._count_text())
        except NoMatches:  # the app closed while the work went on: nothing left to show it on
            return
