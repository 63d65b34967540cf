"""The main screen's marking keys on the paper a full-screen view shows: the reader and the
reviews screen star it (``s``), mark it read (``r``) and edit its note (``n``) as the list does,
through the main screen beneath them, so each change is one undoable step there and the list
shows it once the user comes back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.ui.screens.reading import ReadingScreen


class MarksPaperShown(Screen[None]):
    """A screen showing one paper (``paper``) that takes the marking keys to it. Subclasses call
    :meth:`marks_shown` again when they show the user's data (the reader's detail)."""

    paper: Paper

    def _reading_screen(self) -> ReadingScreen | None:
        """The main screen beneath (whose store, history and list the change goes through)."""
        from paperdeck.ui.screens.reading import ReadingScreen

        return next((s for s in reversed(self.app.screen_stack) if isinstance(s, ReadingScreen)), None)

    def action_toggle_star(self) -> None:
        """Star or unstar the paper shown."""
        main = self._reading_screen()
        if main is None:
            return
        label = main.toggle_star_of([self.paper.id])
        self.notify("Starred." if label == "star" else "Unstarred.")
        self.marks_shown()

    def action_status(self, status: str) -> None:
        """Give the paper shown the reading status (again: back, as on the list)."""
        main = self._reading_screen()
        if main is None:
            return
        given = main.set_status_of([self.paper.id], status)
        self.notify(f"Marked {given}.")
        self.marks_shown()

    def action_edit_note(self) -> None:
        """Edit the note of the paper shown (the note editor opens over this screen)."""
        main = self._reading_screen()
        if main is not None:
            main.edit_note_of(self.paper.id)

    def on_screen_resume(self) -> None:
        self.marks_shown()  # back from the note editor: the note may have changed

    def marks_shown(self) -> None:
        """Show the user's data of the paper again, where this screen shows it (default: nowhere)."""
