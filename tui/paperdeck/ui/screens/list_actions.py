"""What the main screen's export and saved-view keys do (``E``, ``v``, ``w``, ``0``–``9``), and a
change to many papers with its progress shown, kept out of :mod:`paperdeck.ui.screens.main` so that
it stays about browsing.

These actions take the screen's :class:`~paperdeck.ui.screens.list_filter.ListFilter` (the view,
its queries, the saved views, the counts), so this module does not import the main screen (which
imports it).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.dom import DOMNode

from paperdeck.model.errors import StoreError
from paperdeck.model.paper import UserData
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit
from paperdeck.ui.screens.list_filter import ListFilter

if TYPE_CHECKING:
    from paperdeck.search.views import View

#: What a change did to one paper's record: (before, after).
Change = tuple[UserData, UserData]
#: The worker group of :func:`change_in_steps` (while one runs, nothing else re-reads the user data).
BULK_CHANGE_GROUP = "bulk-change"


def bulk_change_running(app: App[object]) -> bool:
    """Whether a :func:`change_in_steps` is under way or about to start (its batches write the
    user data from a thread: re-reading it meanwhile could show a record as it was before its
    batch, and a second change started meanwhile could interleave with it)."""
    return any(worker.group == BULK_CHANGE_GROUP and not worker.is_finished for worker in app.workers)


def export_selection(view: ListFilter) -> tuple[list[str], str] | None:
    """What ``E`` exports: the marked papers (in view order), else the papers of the view, with a
    phrase naming them (``the 3 marked papers``); ``None`` (and a message) when the view is empty."""
    marks = view.marks
    if marks:
        ids = marks.everything(view.view_ids())
        what = f"the {len(ids):,} marked paper{'' if len(ids) == 1 else 's'}"
    else:
        ids = list(view.view_ids())
        what = f"the {len(ids):,} paper{'' if len(ids) == 1 else 's'} of the view"
    if not ids:
        from paperdeck.ui.screens.refused import refuse_entry

        refuse_entry(view.screen, "Export", "Nothing to export: the view is empty.")
        return None
    return ids, what


def open_view_number(view: ListFilter, number: int) -> None:
    """Keys ``0``–``9``: view ``number`` (``0``: every paper), or a hint when there is none yet."""
    views = view.views
    if number == 0:
        view.open_view(None)
    elif number <= len(views):
        view.open_view(views[number - 1])
    else:
        view.screen.notify(f"No view {number} yet: w saves the filter as a view.")


def show_views(shown: ListFilter) -> None:
    """The views list with live counts; the view chosen opens in ``shown``."""
    from paperdeck.ui.screens.views import ViewsScreen

    def delete(name: str) -> list[View]:
        change_views(shown, partial(shown.settings.delete_view, name))
        return shown.views

    def rename(name: str, new_name: str) -> list[View]:
        def renamed() -> None:
            try:
                shown.settings.rename_view(name, new_name)
            except ValueError as error:  # another window saved that name meanwhile
                shown.screen.notify(f"Not renamed: {error}.", markup=False)
                return
            shown.screen.notify(f"Renamed the view {name!r} to {new_name!r}.", markup=False)

        if change_views(shown, renamed):
            shown.update_counts()  # the counts name the view shown
        return shown.views

    def chosen(view: View | None) -> None:
        if view is not None:  # escape closes the list and leaves the filter as it was
            shown.open_view(view)

    scope = shown.venue_scope.note() if shown.scope else ""
    shown.screen.app.push_screen(ViewsScreen(shown.views, shown.count_view, delete, scope, rename), chosen)


def change_views(view: ListFilter, change: Callable[[], object]) -> bool:
    """Run a change of the saved views (it re-reads config.json first); False when it failed."""
    try:
        change()
    except StoreError as error:
        view.screen.notify(str(error), title="Views not saved", severity="error", markup=False)
        return False
    return True


def save_view(view: ListFilter) -> None:
    """Ask for a name, then save the filter bar's query as a view."""
    from paperdeck.search.views import check_query
    from paperdeck.ui.screens.refused import refuse_entry
    from paperdeck.ui.screens.views import SaveViewPrompt

    screen = view.screen
    try:
        query = check_query(view.filter_text)
    except ValueError as error:
        refuse_entry(screen, "Save the filter as a view", f"Nothing to save: {error}.")
        return
    settings = view.settings
    sort = view.view_sort()
    if settings.problem is not None:
        refuse_entry(screen, "Save the filter as a view", "Views cannot be saved: the settings file could not be read.")
        return

    def save(name: str | None) -> None:
        if name is None or not change_views(view, partial(settings.save_view, name, query, sort)):
            return
        number = next(n for n, saved in enumerate(view.views, 1) if saved.name.casefold() == name.casefold())
        key = f" (key {number})" if number <= 9 else ""
        screen.notify(f"Saved the view {name!r}{key}.", markup=False)
        view.update_counts()

    screen.app.push_screen(SaveViewPrompt(query, [saved.name for saved in view.views]), save)


def change_in_steps(
    node: DOMNode,
    store: Store,
    label: str,
    paper_ids: list[str],
    change: Callable[[UserData], UserData],
    done: Callable[[list[Change], StoreError | None], None],
    *,
    what: str | None = None,
    step: StepEdit | None = None,
) -> None:
    """Apply ``change`` to many papers with its progress on screen (a bulk star, status or tag,
    or the undo or redo of one), the progress box headed ``what`` (default: the label and the
    number of papers). ``step``: its undo step, kept (or taken off) in the change's transaction
    (:meth:`Store.change`).

    The papers are changed in one :meth:`Store.change`, in a worker thread: one transaction over
    every user-data shard, so they change all together or none does, a kill included (each shard
    staged in turn, then the journal's rename makes them all). A
    :class:`~paperdeck.ui.screens.progress.ProgressScreen` counts the papers of the shards staged
    (``1,200 of 2,295 papers``). Then, on the event loop, ``done(changes, error)``: the
    ``(before, after)`` of every record changed, and the :class:`StoreError` that stopped it, or
    ``None`` (on an error nothing was changed, unless its reason says the change is saved and
    finished at the next open).

    Quitting meanwhile (:func:`quit_when_written`) waits for the write, ``done`` included (so
    the undo step is recorded), then quits; an app that ends another way waits for the write in
    :func:`wait_for_bulk_change` before its screens go.
    """
    from paperdeck.ui.screens.progress import ProgressScreen

    app = node.app
    ids = list(dict.fromkeys(paper_ids))
    progress = ProgressScreen(what or f"{label}: {len(paper_ids):,} papers", len(paper_ids))
    write = BulkWrite(len(ids))

    async def run() -> None:
        loop = asyncio.get_running_loop()

        def advance(papers: int) -> None:  # in the writing thread
            with contextlib.suppress(RuntimeError):  # the event loop is closed: nothing to show it on
                loop.call_soon_threadsafe(progress.advance, papers)

        def write_all() -> tuple[list[Change], StoreError | None]:
            try:
                return store.change(ids, change, advance, step=step), None
            except StoreError as exc:
                return [], exc
            finally:
                write.written.set()

        _WRITES[app] = write  # a quit from now on waits for it
        try:
            await app.push_screen(progress)
        except BaseException:  # cancelled (the app ends) before the thread started: nothing to wait for
            write.written.set()
            raise
        try:  # no await between here and the thread's start: cancelled after, the thread runs on
            changes, error = await asyncio.to_thread(write_all)
            if app.screen is progress:
                progress.dismiss()
            done(changes, error)
        finally:
            if write.written.is_set() and _WRITES.get(app) is write:  # else waited for as the app ends
                del _WRITES[app]
        if write.quit is not None and (error is None or write.quit[1]):
            write.quit[0]()

    node.run_worker(run(), group=BULK_CHANGE_GROUP, name=f"{label} ({len(paper_ids)} papers)")


@dataclass(eq=False)
class BulkWrite:
    """A change to many papers being written by its thread (:func:`change_in_steps`)."""

    #: The papers it changes.
    papers: int
    #: Set once the thread is done (written, or failed: nothing changed).
    written: threading.Event = field(default_factory=threading.Event)
    #: The quit asked meanwhile, called on the event loop once the write is made and told, with
    #: whether it is called when the write failed too.
    quit: tuple[Callable[[], None], bool] | None = None


#: The bulk change each app is writing (one at most: a second is refused while one runs).
_WRITES: weakref.WeakKeyDictionary[App[Any], BulkWrite] = weakref.WeakKeyDictionary()


def quit_when_written(app: App[Any], quit_app: Callable[[], None], *, even_failed: bool = False) -> bool:
    """When ``app`` is writing a change to many papers: say "Saving N papers…", and call
    ``quit_app`` (once, however many times this is asked: the first asked, unless a later one
    asks ``even_failed``) after the write is made and told (its undo step recorded); True. A
    write that failed (nothing changed) is not followed by the quit, so that its message stays on
    screen, unless ``even_failed`` (no one is left to read it: the terminal is gone). False
    (nothing done) when no such change is being written."""
    write = _WRITES.get(app)
    if write is None:
        return False
    if write.quit is None or (even_failed and not write.quit[1]):
        write.quit = (quit_app, even_failed)
    app.notify(f"Saving {write.papers:,} papers… paperdeck quits once they are written.", timeout=30)
    return True


def wait_for_bulk_change(app: App[Any]) -> None:
    """Block until the change to many papers ``app`` is writing, if any, is written (the app is
    ending: the thread's one transaction is made whole before the process goes)."""
    write = _WRITES.get(app)
    if write is not None:
        write.written.wait()
