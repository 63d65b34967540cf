"""The note editor: a modal multi-line editor for the note of one paper."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from paperdeck.model.safe_text import in_place, one_line
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.confirm import ConfirmScreen


class NoteArea(TextArea):
    """A text area that draws a note's control characters visibly (``␛``), one for one so the
    cursor stays put, while the text itself is kept as written (a note restored from a backup may
    hold an escape; it is shown, never sent to the terminal)."""

    def get_line(self, line_index: int) -> Text:
        return Text(in_place(self.document.get_line(line_index)), end="", no_wrap=True)


class NoteEditor(ModalScreen[str | None]):
    """Edit a note. Dismisses with the new text on ``ctrl+s`` (``""`` deletes the note), or with
    ``None`` on ``escape`` — after asking, when the text was changed."""

    # Not priority bindings (see the table): they must wait behind the characters typed before them.
    BINDINGS: ClassVar[list[BindingType]] = bindings("note")

    def __init__(self, title: str, note: str) -> None:
        super().__init__()
        self._title = title
        self._original = note

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog"):
            yield Label(f"Note — {one_line(self._title)}", id="note-title", markup=False)
            yield NoteArea(self._original, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Label("ctrl+s save · escape cancel · an empty note is deleted", id="note-help")

    def on_mount(self) -> None:
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    @property
    def text(self) -> str:
        """The text in the editor now."""
        return self.query_one(TextArea).text

    def action_save(self) -> None:
        self.dismiss(self.text)

    def action_cancel(self) -> None:
        if self.text == self._original:
            self.dismiss(None)
            return

        def discard(yes: bool | None) -> None:
            if yes:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("Discard the changes to this note?", "Discard", "Keep editing"), discard)
