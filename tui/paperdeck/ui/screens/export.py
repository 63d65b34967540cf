"""The export prompt (``E``, or the palette): where to write the view, the marked papers or a backup.

The file name's ending picks the format (``.bib``, ``.ris``, ``.csl.json``, ``.md``, ``.csv``,
``.json``: :func:`~paperdeck.export.formats.format_for_path`; ``.ics``: the events of the papers
starred or to-read among them, as a calendar); the writing
itself runs in a worker of the main screen (a BibTeX export of a whole conference takes seconds).
:data:`ZOTERO_WORD` typed instead of a file name sends the papers to a running Zotero
(:mod:`paperdeck.fetch.zotero`, at the ``zotero_url`` setting), in a worker too; a notification
says what Zotero imported, or in one line why not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path, PurePath
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Checkbox, Input, Label

from paperdeck.export.formats import CALENDAR, export_target_problem, format_for_path, inside_data_dir
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import Paper
from paperdeck.paths import dialog_style_sheets
from paperdeck.store.store import Store, utc_now
from paperdeck.ui.commands import bindings
from paperdeck.ui.widgets.one_line_input import closed_if_empty, keep_drafts
from paperdeck.ui.widgets.path_input import PathInput

#: Typed instead of a file name (any case): send the papers to a running Zotero.
ZOTERO_WORD = "zotero"
_FORMAT_HELP = (
    "the ending picks the format: .bib BibTeX · .md Markdown reading list · .csv · .json · "
    "for Zotero: .ris RIS, .csl.json CSL-JSON, or type zotero to send them to a running Zotero · "
    ".ics the conference schedule of the starred and to-read papers among them"
)


class TickBox(Checkbox):
    """A check box whose box is empty until ticked: Textual's draws the same ``X`` in both states
    and tells them apart by colour alone, so an unticked box read as ticked in a monochrome
    terminal, a screen reader or a copied screen. ``space`` ticks it; ``enter`` submits the
    prompt's file name, as the prompt says ("enter writes"), instead of ticking it again."""

    inherit_bindings = False  # Checkbox's enter toggles
    BINDINGS: ClassVar[list[BindingType]] = bindings("tickbox")

    async def action_submit(self) -> None:
        """Submit the prompt's file name (its ``Input``), as ``enter`` there does."""
        await self.screen.query_one(Input).action_submit()

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button


class ExportPrompt(ModalScreen[Path | None]):
    """Ask for the file to write ``what`` to; dismisses with the path (``~`` expanded, relative to
    the working directory), or ``None`` on escape.

    Args:
        what: what will be written, for the title (``"the 42 papers of the view"``).
        suggested: the file name offered.
        backup: a user-data backup (any ending; JSON) rather than a paper export.
        reviews: offer to include the papers' reviews (a Markdown export); whether the user
            chose to is :attr:`with_reviews` once dismissed.
        data_dir: the store's directory: a name inside it is refused in the dialog, as are a
            folder and a folder that does not exist (:func:`export_target_problem`), so the name
            typed stays to be mended.
        paper_ids: the papers written: a path typed and left with escape comes back when the
            prompt opens on the same papers again (:mod:`paperdeck.ui.drafts`).
    """

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    BINDINGS: ClassVar[list[BindingType]] = bindings("export")

    DEFAULT_CSS = """
    ExportPrompt #export-reviews { border: none; height: 1; width: 100%; padding: 0 1; background: transparent; }
    ExportPrompt #export-reviews:focus { background: $boost; }
    """

    def __init__(
        self,
        what: str,
        suggested: str,
        backup: bool = False,
        reviews: bool = False,
        data_dir: Path | None = None,
        paper_ids: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._draft = ("backup",) if backup else ("export", hash(tuple(paper_ids)), len(paper_ids))
        self._data_dir = data_dir
        self._reviews = reviews
        #: Whether the export includes the reviews (the check box, ticked with space).
        self.with_reviews = False
        #: Whether :data:`ZOTERO_WORD` was typed: the papers go to Zotero, not to the path dismissed with.
        self.to_zotero = False
        self._what = what
        self._suggested = suggested
        self._backup = backup
        self._replace: Path | None = None  # a file that exists, once the user was told

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog", classes="prompt"):
            yield Label(f"Export {self._what}", markup=False, classes="prompt-title")
            yield PathInput(self._suggested, placeholder="file name", id="export-path", draft=self._draft)
            help_text = "a JSON file you can restore with paperdeck import" if self._backup else _FORMAT_HELP
            yield Label(help_text, classes="prompt-help prompt-about")
            if self._reviews:
                yield TickBox("include the reviews (a .md file; tab, then space)", id="export-reviews")
            yield Label(f"in {Path.cwd()} unless the path says otherwise · enter writes · escape cancels",
                        id="export-hint", classes="prompt-help", markup=False)  # fmt: skip

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if closed_if_empty(self, event.value, "No file name typed: nothing exported."):
            return
        typed = event.value.strip()
        hint = self.query_one("#export-hint", Label)
        if not self._backup and typed.casefold() == ZOTERO_WORD:
            if self._reviews and self.query_one("#export-reviews", Checkbox).value:
                self._warn(hint, "⚠ the reviews go into a Markdown file only, not to Zotero: untick them")
                return
            self.to_zotero = True
            self.dismiss(Path(ZOTERO_WORD))
            return
        path = Path(typed).expanduser()
        problem = export_target_problem(path, self._data_dir)
        if problem is not None:
            self._warn(hint, f"⚠ {problem}")
            return
        calendar = format_for_path(path) == CALENDAR
        if not self._backup and format_for_path(path) is None and not calendar:
            self._warn(hint, "⚠ end the name with .bib, .ris, .csl.json, .md, .csv, .json or .ics")
            return
        if self._reviews and self.query_one("#export-reviews", Checkbox).value:
            if format_for_path(path) != "markdown":
                self._warn(hint, "⚠ the reviews go into Markdown only: end the name with .md")
                return
            self.with_reviews = True
        path = path.absolute()
        if path.exists() and path != self._replace:
            self._replace = path
            self._warn(hint, "⚠ that file exists: enter again replaces it")
            return
        self.dismiss(path)

    def _warn(self, hint: Label, text: str) -> None:
        """Say ``text`` in the key line's place, scrolled into view on a short screen."""
        hint.update(text)
        self.call_after_refresh(hint.scroll_visible, animate=False)

    def action_cancel(self) -> None:
        keep_drafts(self)
        self.dismiss(None)


def export_papers_to_file(screen: Screen[Any], store: Store, paper_ids: Sequence[str], what: str) -> None:
    """Ask where, then write ``paper_ids`` (in order) there in a worker; tell the user how it went."""
    ids = list(paper_ids)

    prompt = ExportPrompt(what, "paperdeck-export.bib", reviews=True, data_dir=store.data_dir, paper_ids=ids)

    def write(path: Path) -> str:
        from paperdeck.export.formats import export_chunks, write_export

        if not prompt.with_reviews and format_for_path(path) == CALENDAR:
            return _write_calendar(store, ids, path)
        papers = [paper for pid in ids if (paper := store.paper(pid)) is not None]
        if prompt.to_zotero:
            return _send_to_zotero(store, papers)
        fmt = format_for_path(path) or "json"
        users = store.all_user_data
        reviews = store.reviews.reviews_of if prompt.with_reviews else None
        told = _progress_told(screen)
        try:
            write_export(path, export_chunks(papers, users, fmt, reviews, told), data_dir=store.data_dir)
        finally:
            told(0, 0)
        with_reviews = " with their reviews" if reviews is not None else ""
        return f"Exported {len(papers):,} paper{'' if len(papers) == 1 else 's'}{with_reviews} to {path}."

    _ask_then_write(screen, prompt, write)


def _write_calendar(store: Store, ids: Sequence[str], path: Path) -> str:
    """Write the events of the papers ``ids`` the user starred or marked to-read as an iCalendar
    file (:func:`paperdeck.export.ics.write_calendar`; the plan's order and UIDs); in a worker.
    Returns what to tell the user.

    Raises:
        PaperdeckError: the calendar would hold no event (nothing is written: an export of nothing
            keeps the file it would replace, as ``paperdeck export`` and ``plan --ics`` do), or the
            file cannot be written.
    """
    from paperdeck.export.ics import empty_calendar_reason, write_calendar
    from paperdeck.reading.plan import build_plan, time_zone

    wanted = set(ids)
    papers = {pid: paper for pid in wanted if (paper := store.paper(pid)) is not None}
    zone, name = time_zone(None)
    plan = build_plan(papers, store.events_by_paper(), store.all_user_data, zone, name)
    if (empty := empty_calendar_reason(plan.items)) is not None:
        from paperdeck.export import nothing_written

        raise PaperdeckError(f"{empty}; {nothing_written(path, path.name)}")
    left_out = write_calendar(path, plan.items, data_dir=store.data_dir)
    written = len(plan.items) - left_out
    return f"Wrote {written:,} event{'' if written == 1 else 's'} of your schedule to {path}."


def _send_to_zotero(store: Store, papers: Sequence[Paper]) -> str:
    """Send ``papers`` as RIS to the Zotero at the ``zotero_url`` setting (in a worker thread);
    the line to show.

    Raises:
        ZoteroError: as :func:`paperdeck.fetch.zotero.push_to_zotero` raises it.
    """
    from paperdeck.export.ris import ris_records
    from paperdeck.fetch.zotero import push_to_zotero
    from paperdeck.store.settings import SettingsFile

    url = SettingsFile(store.data_dir).settings.zotero_url  # read now: another paperdeck may have changed it
    pushed = push_to_zotero(ris_records(papers, store.all_user_data), len(papers), url)
    return pushed.line[0].upper() + pushed.line[1:] + "."


#: Seconds between two showings of an export's progress.
_PROGRESS_EVERY = 0.25


def _progress_told(screen: Screen[Any]) -> Callable[[int, int], None]:
    """A progress callback for an export written in a thread: ``"exporting 42 %"`` beside the
    counts (a main screen's ``set_export_note``), at most every :data:`_PROGRESS_EVERY` seconds;
    ``(0, 0)`` takes it away."""
    import time

    shown = [0.0]
    set_note = getattr(screen, "set_export_note", None)

    def told(done: int, total: int) -> None:
        now = time.monotonic()
        if set_note is None or (total and now - shown[0] < _PROGRESS_EVERY):
            return
        shown[0] = now
        note = f"exporting {100 * done // total} %" if total else ""
        screen.app.call_from_thread(set_note, note)

    return told


def back_up_to_file(screen: Screen[Any], store: Store) -> None:
    """Ask where, then write a backup of all the user's data (stars, notes, statuses, tags) there."""

    def write(path: Path) -> str:
        from paperdeck.store.backup import write_backup

        if inside_data_dir(path, store.data_dir):
            raise PaperdeckError(f"{path}: inside the data directory; choose a file outside it")
        count = write_backup(store, path)
        return f"Backed up {count:,} record{'' if count == 1 else 's'} to {path} (restore: paperdeck import FILE)."

    stamp = utc_now()[:10]
    what = "a backup of your stars, notes, statuses and tags"
    prompt = ExportPrompt(what, f"paperdeck-backup-{stamp}.json", backup=True, data_dir=store.data_dir)
    _ask_then_write(screen, prompt, write)


def _ask_then_write(screen: Screen[Any], prompt: ExportPrompt, write: Callable[[Path], str]) -> None:
    def chosen(path: Path | None) -> None:
        if path is None:
            return
        zotero = prompt.to_zotero
        screen.notify("Sending to Zotero…" if zotero else f"Writing {path}…", markup=False)

        def work() -> None:
            try:
                message = write(path)
            except PaperdeckError as error:
                title = "Not sent" if zotero else "Not written"
                screen.app.call_from_thread(screen.notify, str(error), title=title, severity="error", markup=False)
                return
            screen.app.call_from_thread(screen.notify, message, timeout=5, markup=False)

        screen.run_worker(work, thread=True, group="export")

    screen.app.push_screen(prompt, chosen)
