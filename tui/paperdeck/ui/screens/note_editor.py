"""The note editor: a modal multi-line editor for the note of one paper."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from paperdeck.model.safe_text import in_place, one_line
from paperdeck.paths import dialog_style_sheets
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
    ``None`` on ``escape``. Leaving with unsaved text asks first: ``escape`` here, quitting the
    app (``ctrl+q``, ``q``, the palette's Quit) through :meth:`leave`. When the terminal closes
    under the editor (no one left to ask: :meth:`keep_unsaved`), unsaved text is handed to ``keep``.

    Args:
        title: the paper's title (shown above the text).
        note: the note as saved.
        draft: the text to start from when it is not the saved note (a save that failed, an
            external editor's text): unsaved from the start.
        keep: saves text that would otherwise be lost when the terminal closes.
    """

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    DEFAULT_CSS = """
    #note-dialog {
        width: 90%;
        max-width: 110;
        height: 80%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #note-title {
        text-style: bold;
        width: 1fr;
        padding: 0 0 1 0;
    }
    #note-text {
        height: 1fr;
    }
    #note-help {
        color: $text-muted;
        padding: 1 0 0 0;
    }
    """

    # Not priority bindings (see the table): they must wait behind the characters typed before them.
    BINDINGS: ClassVar[list[BindingType]] = bindings("note")

    def __init__(
        self, title: str, note: str, draft: str | None = None, keep: Callable[[str], object] | None = None
    ) -> None:
        super().__init__()
        self._title = title
        self._original = note
        self._start = note if draft is None else draft
        self._keep = keep

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog"):
            yield Label(f"Note — {one_line(self._title)}", id="note-title", markup=False)
            yield NoteArea(self._start, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Label("ctrl+s save · escape cancel · an empty note is deleted", id="note-help")
        from paperdeck.ui.widgets.footer import PaperFooter

        yield PaperFooter(typing=True)  # the editor's keys, over the main screen's (not its keys)

    def on_mount(self) -> None:
        editor = self.query_one(TextArea)
        editor.focus()
        editor.move_cursor(editor.document.end)

    def keep_unsaved(self) -> None:
        """The terminal is going away (:meth:`paperdeck.ui.app.PaperApp.terminal_gone`): hand
        unsaved text to ``keep``; the editor then holds nothing unsaved."""
        if self.unsaved and self._keep is not None:
            self._keep(self.text)
            self._original = self.text

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
