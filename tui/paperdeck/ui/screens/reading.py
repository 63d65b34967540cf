"""The reading-list actions of the main screen: star, reading status, tags, notes (in the app or
in ``$EDITOR``), marks and bulk actions, undo/redo, copy and open.

Every change is shown at once and saved behind the UI, in order (:class:`~paperdeck.ui.save_queue.SaveQueue`:
a key pressed while another paperdeck holds the store's lock is never lost), then goes into the
session's history, so ``u`` undoes it and ``ctrl+r`` redoes it — a bulk change as one step.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import SuspendNotSupported
from textual.binding import BindingsMap, BindingType
from textual.screen import Screen

from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.model.user import UserData, clean_tag, missing_tags, no_tag_said, with_tags
from paperdeck.reading.marks import CONFIRM_OVER, Marks
from paperdeck.store.store import Store
from paperdeck.ui._lines.part_bindings import merge_part_bindings
from paperdeck.ui.commands import bindings
from paperdeck.ui.no_paper import NO_PAPER, say_no_paper
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from paperdeck.reading.history import History, Step
    from paperdeck.ui.save_failures import SaveFailures
    from paperdeck.ui.save_queue import SaveQueue
    from paperdeck.ui.screens.note_editor import NoteEditor


def editor_command(environ: Mapping[str, str]) -> tuple[list[str], str | None]:
    """The user's editor as an argument list (``$VISUAL``, else ``$EDITOR``, else ``vi``; split
    like a shell splits words, never run by one), and ``None``, or ``[]`` and a sentence saying why
    it cannot be started (not set, unbalanced quotes, not found or not executable)."""
    name = "VISUAL" if environ.get("VISUAL", "").strip() else "EDITOR" if environ.get("EDITOR", "").strip() else ""
    value = environ[name] if name else "vi"
    where = f"${name}" if name else "the default: neither $VISUAL nor $EDITOR is set"
    import shlex  # deferred: only the external editor needs it

    try:
        command = shlex.split(value)
    except ValueError as error:
        return [], f"Cannot read {where} {value!r}: {error}"
    if not command:
        return [], f"{where} names no editor"
    if shutil.which(command[0]) is None:
        return [], f"Cannot start the editor {command[0]!r} ({where}): not found or not executable"
    return command, None


def run_editor(command: list[str], *, terminal: bool) -> subprocess.CompletedProcess[bytes] | OSError:
    """Run the editor and wait for it; an editor that cannot be started is returned as its error,
    never raised (raised inside :meth:`App.suspend`, it would leave the terminal suspended).
    Without ``terminal`` its input is closed."""
    try:
        if terminal:
            return subprocess.run(command, check=False)
        return subprocess.run(command, check=False, stdin=subprocess.DEVNULL)
    except OSError as error:
        return error


#: The line between the text saved from the editor and the note another paperdeck wrote while
#: the editor was open (both kept).
NOTE_CHANGED_ELSEWHERE = "— written elsewhere while this note was being edited —"


if TYPE_CHECKING:
    _ScreenPart = Screen[None]
else:
    _ScreenPart = object  # a plain class at run time: see ReadingScreen


class ReadingScreen(_ScreenPart):
    """Base of the main screen: the user's marks on papers. Subclasses provide the list, the
    store, and ``refresh_user_data`` (repaint after a change).

    A plain class laid before ``Screen`` in the main screen's bases, not a Textual class of its
    own: Textual makes each of those with its bindings merged and its names listed (~2.5 M
    instructions before the first frame, docs/performance.md). Its ``BINDINGS`` are merged into
    the screen's by :func:`~paperdeck.ui._lines.part_bindings.merge_part_bindings`, as a screen
    base's are; its handlers (``on_unmount``) are found along the screen's MRO as a base's are."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("reading")  # star, status, tags, notes, marks, undo, copy

    @classmethod
    def _merge_bindings(cls) -> BindingsMap:
        """The screen's bindings, these among them (Textual merges only its own classes')."""
        return merge_part_bindings(cast("type[DOMNode]", cls))

    store: Store

    def __init__(self) -> None:
        super().__init__()
        self.marks = Marks()
        self._history: History | None = None
        self._saves: SaveQueue | None = None
        self._failures: SaveFailures | None = None

    @property
    def history(self) -> History:
        """The undo history of the user's changes made on this screen, on its store: made at
        first use (nothing is changed before the first frame, which it is not needed for)."""
        if self._history is None:
            from paperdeck.reading.history import History

            self._history = History(self.store)
        return self._history

    @property
    def saves(self) -> SaveQueue:
        """The saves of this screen's changes, written in order behind the UI: made at first use."""
        if self._saves is None:
            from paperdeck.ui.save_queue import SaveQueue

            self._saves = SaveQueue(self, self.store, self.saving)
        return self._saves

    @property
    def failures(self) -> SaveFailures:
        """The "Not saved" toasts of this screen's changes, each taken away by a later save of its
        kind that succeeds: made at first use."""
        if self._failures is None:
            from paperdeck.ui.save_failures import SaveFailures

            self._failures = SaveFailures(self.app)
        return self._failures

    def on_unmount(self) -> None:
        """The screen goes (the app ends): a change to many papers being written is finished
        first (:func:`~paperdeck.ui.screens.list_actions.wait_for_bulk_change`), then the saves
        not written yet are written."""
        from paperdeck.ui.screens.list_actions import wait_for_bulk_change

        wait_for_bulk_change(self.app)
        if self._saves is not None and self._saves.pending:
            self._saves.flush(timeout=15.0)

    def user_data_shown(self, paper_id: str) -> UserData:
        """The paper's record as the user made it: with the saves not written yet (what the list
        and the detail show)."""
        saves = self._saves
        return saves.shown(paper_id) if saves is not None else self.store.user_data(paper_id)

    def saving(self, waiting: bool) -> None:
        """Say that a save waits for the store's lock (``False``: every save is written)."""
        if waiting:
            self.notify("saving… (another paperdeck holds the store)")

    def show_user_data(self, paper_ids: list[str]) -> None:
        """Repaint what shows these papers' marks, with the saves not written yet (the subclass
        knows how; by default as after a change)."""
        self.refresh_user_data(paper_ids)

    @property
    def marked(self) -> set[str]:
        """The marked paper ids."""
        return self.marks.ids

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    def refresh_user_data(self, paper_ids: list[str]) -> None:
        """Repaint what shows the user's data of these papers (the subclass knows how)."""
        raise NotImplementedError

    def view_ids(self) -> list[str]:
        """The paper ids in the current view, in order."""
        raise NotImplementedError

    # -- applying a change -------------------------------------------------------------------

    def _targets(self) -> list[str]:
        """The marked papers, else the highlighted one (:meth:`Marks.targets`)."""
        return self.marks.targets(self.view_ids(), self.paper_list.highlighted_id)

    def apply(
        self,
        label: str,
        change: Callable[[UserData], UserData],
        targets: list[str] | None = None,
        kind: str | None = None,
    ) -> None:
        """Apply ``change`` to the targets (asking first for more than ``CONFIRM_OVER``), write it
        through, and make it one undoable step. ``kind`` (``label`` when not given): the kind of
        save (:class:`~paperdeck.ui.save_failures.SaveFailures`) whose earlier failure's toast a
        success takes away."""
        ids = targets if targets is not None else self._targets()
        # marked papers the filter hides, said in the toast (marks are kept across filters)
        hidden = len(self.marks.ids.intersection(ids).difference(self.view_ids())) if self.marks else 0
        if not ids:
            say_no_paper(self)
            return
        if self._busy():
            return

        step = self.history.keeping(label)  # counted when said, by the papers it changed

        def go(confirmed: bool | None = True) -> None:
            if not confirmed:
                return
            if len(ids) > CONFIRM_OVER:  # long enough to want its progress shown, off the event loop
                from paperdeck.ui.screens.list_actions import change_in_steps

                # after the saves queued before it, written by another thread
                self.saves.when_idle(lambda: change_in_steps(self, self.store, label, ids, change, finished, step=step))
                return
            self.saves.submit(ids, change, finished, step=step)  # written behind the UI, shown at once
            self.show_user_data(ids)

        def finished(changes: list[tuple[UserData, UserData]], error: StoreError | None) -> None:
            if changes:
                self.history.record(step.label, changes, step.id)
                self.refresh_user_data([after.paper_id for _, after in changes])
            elif error is not None and len(ids) <= CONFIRM_OVER:
                self.refresh_user_data(ids)  # the change shown at once is taken back
            if error is not None:  # nothing changed (a bulk change is one transaction)
                self.failures.failed(kind or label, str(error))
                return
            self.failures.saved(kind or label)
            if hidden:
                self.notify(
                    f"{label}: {len(changes):,} of {len(ids):,} marked papers changed ({hidden:,} not in this view;"
                    " escape clears the marks) (u undoes)",
                    timeout=5,
                )
            elif len(ids) > 1:
                self.notify(f"{label}: {len(changes):,} of {len(ids):,} papers changed (u undoes)")

        if len(ids) > CONFIRM_OVER:
            from paperdeck.ui.screens.confirm import ConfirmScreen

            unseen = f" ({hidden:,} not in this view)" if hidden else ""
            self.app.push_screen(
                ConfirmScreen(f"{label}: change {len(ids):,} papers{unseen}?", "Change them", "Cancel"), go
            )
        else:
            go()

    # -- star, status, tags ------------------------------------------------------------------

    def action_toggle_star(self) -> None:
        self.toggle_star_of(self._targets())

    def toggle_star_of(self, ids: list[str]) -> str:
        """Star ``ids`` (unstar them when all are starred): one undoable step. Returns
        ``"star"`` or ``"unstar"``."""
        star = not all(self.user_data_shown(pid).starred for pid in ids)
        label = "star" if star else "unstar"
        self.apply(label, lambda r: r.replaced(starred=star), ids, kind="star")
        return label

    def action_status(self, status: str) -> None:
        self.set_status_of(self._targets(), status)

    def set_status_of(self, ids: list[str], status: str) -> str:
        """Give ``ids`` the reading status ``status`` (when all have it already: back, as
        :func:`~paperdeck.reading.status.status_after` says): one undoable step. Returns the
        status given."""
        from paperdeck.reading.status import status_after  # deferred: a key's, never the first frame's

        status = status_after(status, [self.user_data_shown(pid).status for pid in ids])
        self.apply(f"mark {status}", lambda r: r.replaced(status=status), ids, kind="status")
        return status

    def action_next_unseen(self) -> None:
        view = self.view_ids()
        if not view:
            return
        from paperdeck.reading.status import next_unseen  # deferred: a key's, never the first frame's

        row = next_unseen(view, self.paper_list.cursor, lambda pid: self.store.user_data(pid).status)
        if row is None:
            self.notify("No unseen paper left in this view.")
        else:
            self.paper_list.cursor = row

    def action_tags(self) -> None:
        ids = self._targets()
        if not ids:
            from paperdeck.ui.screens.refused import refuse_entry

            refuse_entry(self, "Tags", NO_PAPER)
            return
        from paperdeck.ui.screens.prompts import TagPrompt

        current = sorted({tag for pid in ids for tag in self.user_data_shown(pid).tags})
        row = self.store.row(ids[0])
        what = f"{len(ids):,} marked papers" if len(ids) > 1 else one_line(row.title if row else ids[0])

        def done(answer: tuple[list[str], list[str]] | None) -> None:
            if answer is None:
                return
            add, remove = answer
            if missing := missing_tags(remove, current):  # no marked paper holds it: said, not silent
                rest = bool(add) or len(missing) < len({clean_tag(tag) for tag in remove})
                where = "this paper" if len(ids) == 1 else f"the {len(ids):,} marked papers"
                self.notify(one_line(no_tag_said(missing, where, rest_done=rest)), markup=False)
                if not rest:
                    return
            self.apply("tag", lambda r: with_tags(r, add, remove), ids)

        self.app.push_screen(TagPrompt(what, current, self.store.all_tags, ids), done)

    # -- notes -------------------------------------------------------------------------------

    def action_edit_note(self) -> None:
        self.edit_note_of(self.paper_list.highlighted_id)

    def edit_note_of(self, paper_id: str | None) -> None:
        """Open the note editor on ``paper_id``'s note (the reader and the reviews screen ask for
        the paper they show); saved as one undoable step."""
        row = self.store.row(paper_id) if paper_id else None
        if paper_id is None or row is None:
            from paperdeck.ui.screens.refused import refuse_entry

            refuse_entry(self, "Note", NO_PAPER)
            return

        base = self.user_data_shown(paper_id).note  # what the editor starts from

        def save(text: str | None) -> None:
            if text is None or text == self.user_data_shown(paper_id).note:
                return
            self._save_note_later(paper_id, text, base, reopen)

        def reopen(text: str) -> None:  # never lose what the user wrote: the editor again, with it
            self.app.push_screen(self._note_editor(paper_id, row.title, text), save)

        self.app.push_screen(self._note_editor(paper_id, row.title), save)

    def _save_note_later(self, paper_id: str, text: str, base: str, reopen: Callable[[str], None]) -> None:
        """Save ``text`` as the paper's note behind the UI (shown at once, in order with the other
        saves); when it fails, say so and ``reopen`` the editor with the text. ``base``: as for
        :meth:`_save_note`."""
        note = text if text.strip() else ""
        kept, edited = self._note_change(note, base)
        step = self.history.keeping("note")

        def finished(changes: list[tuple[UserData, UserData]], error: StoreError | None) -> None:
            if error is not None:
                self.failures.failed("note", str(error), title="Note not saved")
                self.refresh_user_data([paper_id])
                reopen(text)
                return
            self._note_saved(paper_id, note, changes, kept, step.id)

        self.saves.submit([paper_id], edited, finished, shown=lambda record: record.replaced(note=note), step=step)
        self.show_user_data([paper_id])

    def _note_change(self, note: str, base: str | None) -> tuple[list[str], Callable[[UserData], UserData]]:
        """The change saving ``note`` (edited from ``base``, ``None``: unknown) makes to a record as
        the store holds it just before writing, and the list that then holds the note another
        paperdeck wrote meanwhile (both texts are kept)."""
        kept: list[str] = []

        def edited(record: UserData) -> UserData:
            kept.clear()
            if base is not None and record.note not in (base, note) and record.note.strip():
                kept.append(record.note)
                return record.replaced(note=f"{note}\n\n{NOTE_CHANGED_ELSEWHERE}\n{record.note}".strip())
            return record.replaced(note=note)

        return kept, edited

    def _note_saved(
        self, paper_id: str, note: str, changes: list[tuple[UserData, UserData]], kept: list[str], key: str
    ) -> None:
        self.failures.saved("note")
        self.history.record("note", changes, key)
        self.refresh_user_data([paper_id])
        if kept:
            self.notify("The note was changed elsewhere meanwhile: both texts are kept.", severity="warning", timeout=6)
        else:
            self.notify("Note saved." if note else "Note deleted.")

    def _note_editor(self, paper_id: str, title: str, draft: str | None = None) -> NoteEditor:
        """The note editor for a paper, starting from ``draft`` (unsaved) or the saved note; text
        left in it when the terminal closes is saved."""
        from paperdeck.ui.screens.note_editor import NoteEditor  # deferred, like every dialog: start-up time

        saved = self.store.user_data(paper_id).note
        return NoteEditor(title, saved, draft, keep=lambda text: self._save_note(paper_id, text))

    def _save_note(self, paper_id: str, text: str, base: str | None = None) -> bool:
        """Save ``text`` as the paper's note. ``base``: the note the text was edited from; when
        another paperdeck (the CLI, a second window) changed the note since, both texts are kept,
        the other one under a line saying so (read as the store holds it, just before writing)."""
        note = text if text.strip() else ""
        kept, edited = self._note_change(note, base)
        if self._saves is not None:
            self._saves.flush()  # after the saves queued before it
        step = self.history.keeping("note")
        try:
            changes = self.store.change([paper_id], edited, step=step)
        except StoreError as error:
            self.failures.failed("note", str(error), title="Note not saved")
            return False
        self._note_saved(paper_id, note, changes, kept, step.id)
        return True

    def action_edit_note_externally(self) -> None:
        """Edit the note in ``$VISUAL`` / ``$EDITOR`` (an argument list, never a shell).

        The editor is looked up before the app hands the terminal over: one that is not set, not
        found or not executable gets one message and the app stays as it was, the note unchanged.
        """
        from paperdeck.reading.note_file import note_from_file, note_template

        paper_id = self.paper_list.highlighted_id
        paper = self.store.paper(paper_id) if paper_id else None
        if paper_id is None or paper is None:
            say_no_paper(self)
            return
        command, problem = editor_command(os.environ)
        if problem is not None:
            self.notify(f"{problem}; the note was not changed.", title="No editor", severity="error", markup=False)
            return
        base = self.store.user_data(paper_id).note
        with tempfile.TemporaryDirectory(prefix="paperdeck-note-") as folder:
            path = Path(folder) / "note.md"
            path.write_text(note_template(paper, base), "utf-8")
            path.chmod(0o600)
            try:
                with self.app.suspend():
                    result = run_editor([*command, str(path)], terminal=True)
            except SuspendNotSupported:  # no terminal to hand over (headless, web)
                result = run_editor([*command, str(path)], terminal=False)
            if isinstance(result, OSError):
                self.notify(
                    f"Cannot run the editor {command[0]!r}: {result}; the note was not changed.",
                    title="No editor",
                    severity="error",
                    markup=False,
                )
                return
            text = note_from_file(path.read_text("utf-8", errors="replace"))
        if result.returncode != 0:
            self.notify(
                f"The editor exited with status {result.returncode}; the note was not changed.", severity="warning"
            )
            return
        if text != self.store.user_data(paper_id).note and not self._save_note(paper_id, text, base):
            # Never lose what the user wrote: keep it open in the app's editor.
            def retry(again: str | None) -> None:
                if again is not None:
                    self._save_note(paper_id, again)

            self.app.push_screen(self._note_editor(paper_id, paper.title, text), retry)

    # -- marks -------------------------------------------------------------------------------

    def action_mark(self) -> None:
        paper_id = self.paper_list.highlighted_id
        if paper_id is None:
            say_no_paper(self)
            return
        self.marks.toggle(paper_id, self.paper_list.cursor)
        self.paper_list.cursor += 1
        self._marks_changed()

    def action_mark_range(self) -> None:
        self.marks.mark_range(self.view_ids(), self.paper_list.cursor)
        self._marks_changed()

    def action_mark_all(self) -> None:
        self.marks.toggle_all(self.view_ids())
        self._marks_changed()

    def clear_marks(self) -> bool:
        """Drop every mark; True when there were some."""
        had = self.marks.clear()
        if had:
            self._marks_changed()
        return had

    def _marks_changed(self) -> None:
        self.paper_list.refresh()
        self.refresh_user_data([])

    # -- undo --------------------------------------------------------------------------------

    def action_undo(self) -> None:
        self._history_step(undo=True)

    def action_redo(self) -> None:
        self._history_step(undo=False)

    def _history_step(self, *, undo: bool) -> None:
        """Undo (or redo) the last step: at once when it is small, else in a worker under the
        progress screen (:func:`~paperdeck.ui.screens.list_actions.change_in_steps`)."""
        history = self.history
        if self._busy():
            return
        if self._saves is not None and self._saves.pending:  # the step of a save not written yet
            self._saves.when_idle(lambda: self._history_step(undo=undo))
            return
        step = history.next_step(undo=undo)
        if step is None:
            self.notify("Nothing to undo." if undo else "Nothing to redo.")
            return
        if undo and step.earlier:  # made outside this session: said, and asked, first
            from paperdeck.ui.screens.confirm import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes and history.next_step(undo=True) is step:
                    self._replay_step(history, step, undo=True)

            question = f"Undo: {self._step_offer(step)} (made in another window or an earlier session)?"
            self.app.push_screen(ConfirmScreen(question, "Undo it", "Keep it"), answered)
            return
        self._replay_step(history, step, undo=undo)

    def _step_offer(self, step: Step) -> str:
        """What undoing ``step`` does, the paper named by its title (cut, one line) when the step
        changed one paper: a step of an earlier session is asked about, and "1 paper" said not
        which (:attr:`Step.offer` otherwise)."""
        ids = step.paper_ids
        if len(ids) != 1:
            return step.offer
        from paperdeck.ui.toasts import quoted

        row = self.store.row(ids[0])
        return f"{step.what} of “{quoted(one_line(row.title if row is not None else ids[0]))}”"

    def _replay_step(self, history: History, step: Step, *, undo: bool) -> None:
        """Undo (or redo) ``step``, the next in line: at once when it is small, else in a worker.
        Said with the papers the step changed counted (:attr:`Step.said`); ``Not undone`` when
        every field it touched was changed elsewhere since and kept; ``Already undone elsewhere``
        (the step dropped, not redoable) when another window undid it first."""
        kind = "undo" if undo else "redo"

        def done(changed: bool) -> str:
            if changed:
                return f"{'Undone' if undo else 'Redone'}: {step.said}"
            return f"{'Not undone' if undo else 'Not redone'}: {step.said}"

        if len(step.changes) <= CONFIRM_OVER:
            try:
                history.undo() if undo else history.redo()
            except StoreError as error:
                self.failures.failed(kind, str(error))
                return
            self.failures.saved(kind)
            self.refresh_user_data(step.paper_ids)
            if history.undone_elsewhere:
                self._say_undone_elsewhere(step)
                return
            if step.seen is not None:
                self.changes_seen_moved()
            self._say_replayed(done(history.last_changed), history.last_kept)
            return
        from paperdeck.store.undo_steps import StepUndoneElsewhere  # deferred: no step in the first frame
        from paperdeck.ui.screens.list_actions import Change, change_in_steps

        ids, replay = history.replay_of(step, undo=undo)

        def finished(changes: list[Change], error: StoreError | None) -> None:
            if isinstance(error, StepUndoneElsewhere):  # nothing changed; not redoable here
                history.drop(step)
                self.failures.saved(kind)
                self._say_undone_elsewhere(step)
            elif error is None:
                history.replayed(step, undo=undo)
                self.failures.saved(kind)
                self._say_replayed(done(bool(changes)), replay.kept_line())
            else:  # one transaction: nothing changed; the step stays where it was
                self.failures.failed(kind, str(error))
            if changes:
                self.refresh_user_data([after.paper_id for _, after in changes])

        doing = f"{'Undoing' if undo else 'Redoing'}: {step.said}"
        change_in_steps(self, self.store, doing, ids, replay, finished, what=doing, step=step.undo_edit(undo=undo))

    def _say_undone_elsewhere(self, step: Step) -> None:
        self.notify(f"Already undone elsewhere: {step.said}; nothing changed.", timeout=5, markup=False)

    def _say_replayed(self, done: str, kept: str | None) -> None:
        """Say an undo or redo was made, in one line; a warning when it left fields as another
        paperdeck wrote them since (``kept``: :meth:`~paperdeck.reading.history.Replay.kept_line`)."""
        if kept is None:
            self.notify(done)
        else:
            self.notify(f"{done}; {kept}.", severity="warning", timeout=6, markup=False)

    def changes_seen_moved(self) -> None:
        """The "every change seen" mark moved (an undo or redo of ``C``): repaint what shows the
        papers' changed marks (the subclass knows what; by default nothing)."""

    def _busy(self) -> bool:
        """True (and a short message) while a change to many papers is being written: a second
        change waits for none, it is refused until the first is done."""
        from paperdeck.ui.screens.list_actions import bulk_change_running

        if not bulk_change_running(self.app):
            return False
        self.notify("A change to many papers is still being written; try again when it is done.")
        return True

    # -- copy and open -----------------------------------------------------------------------

    def _links(self, paper_id: str) -> list[tuple[str, str]]:
        paper = self.store.paper(paper_id)
        if paper is None:
            return []
        pairs = (
            ("OpenReview", paper.openreview_url),
            ("PDF", paper.pdf_url),
            ("arXiv", paper.arxiv_url),
            ("Code", paper.code_url),
        )
        return [(label, url) for label, url in pairs if url]

    def action_copy(self) -> None:
        """Copy the title and link (OSC 52: works over SSH)."""
        paper_id = self.paper_list.highlighted_id
        paper = self.store.paper(paper_id) if paper_id else None
        if paper is None:
            say_no_paper(self)
            return
        from paperdeck.ui.toasts import quoted

        links = self._links(paper.id)
        text = one_line(paper.title) + (f"\n{links[0][1]}" if links else "")
        self.app.copy_to_clipboard(text)
        said = f"{quoted(paper.title)}\n{quoted(links[0][1])}" if links else quoted(paper.title)
        self.notify(f"Copied the title{' and link' if links else ''}:\n{said}", markup=False)

    def action_copy_bibtex(self) -> None:
        """Copy the paper's BibTeX entry: its source's, as written, else one generated from the
        paper's fields (:mod:`paperdeck.export.bibtex`, as ``paperdeck export`` writes it)."""
        paper_id = self.paper_list.highlighted_id
        paper = self.store.paper(paper_id) if paper_id else None
        if paper is None:
            say_no_paper(self)
            return
        from paperdeck.export.bibtex import bibtex_entries, source_entry  # deferred: bibtexparser
        from paperdeck.ui.toasts import quoted

        own = source_entry(paper) is not None
        entry = bibtex_entries([paper])
        self.app.copy_to_clipboard(entry)
        what = "the BibTeX entry of its source" if own else "a BibTeX entry made from its fields"
        self.notify(f"Copied {what}:\n{quoted(entry.strip().splitlines()[0] if entry.strip() else '')}", markup=False)

    def action_open_link(self) -> None:
        """Open the paper's link (a chooser when it has several) in the browser; with no browser to
        open it (none found, as over SSH), copy it to the clipboard instead and say so."""
        paper_id = self.paper_list.highlighted_id
        if paper_id is None:
            say_no_paper(self)
            return
        links = self._links(paper_id)
        if not links:
            self.notify("This paper has no link.", severity="warning")
            return
        from paperdeck.ui.links import open_or_copy

        if len(links) == 1:
            open_or_copy(self.app, links[0][1])
            return
        from paperdeck.ui.screens.prompts import LinkChooser

        def chosen(url: str | None) -> None:
            if url:
                open_or_copy(self.app, url)

        self.app.push_screen(LinkChooser(links), chosen)
