"""The note editor: a modal multi-line editor for the note of one paper."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from paperdeck.model.safe_text import one_line
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.confirm import ConfirmScreen


class NoteEditor(ModalScreen[str | None]):
    """Edit a note. Dismisses with the new text on ``ctrl+s`` (``""`` deletes the note), or with
    ``None`` on ``escape``. Leaving in any other way with unsaved text asks first: ``escape``
    here, quitting the app (``ctrl+q``, ``q``, the palette's Quit) through :meth:`leave`."""

    # Not priority bindings (see the table): they must wait behind the characters typed before them.
    BINDINGS: ClassVar[list[BindingType]] = bindings("note")

    def __init__(self, title: str, note: str) -> None:
        super().__init__()
        self._title = title
        self._original = note

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog"):
            yield Label(f"Note — {one_line(self._title)}", id="note-title", markup=False)
            yield TextArea(self._original, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Label("ctrl+s save · escape cancel · an empty note is deleted", id="note-help")

    def on_mount(self) -> None:
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    @property
    def text(self) -> str:
        """The text in the editor now."""
        return self.query_one(TextArea).text

    @property
    def unsaved(self) -> bool:
        """Whether the text differs from the note the editor opened with."""
        return self.is_mounted and self.text != self._original

    def action_save(self) -> None:
        self.dismiss(self.text)

    def action_cancel(self) -> None:
        self.leave(lambda: self.dismiss(None), "Discard the changes to this note?", "Discard")

    def leave(self, go: Callable[[], object], question: str = "", yes: str = "Discard") -> None:
        """Run ``go`` (which leaves the editor: cancel, quit) at once when nothing is unsaved,
        else only once the user said yes to ``question`` ("Keep editing" keeps the text)."""
        if not self.unsaved:
            go()
            return

        def answered(discard: bool | None) -> None:
            if discard:
                go()

        self.app.push_screen(ConfirmScreen(question, yes, "Keep editing"), answered)
