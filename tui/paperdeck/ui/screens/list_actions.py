"""What the main screen's export and saved-view keys do (``E``, ``v``, ``w``, ``0``–``9``), and a
change to many papers with its progress shown, kept out of :mod:`paperdeck.ui.screens.main` so that
it stays about browsing.

These actions take the screen's :class:`~paperdeck.ui.screens.list_filter.ListFilter` (the view,
its queries, the saved views, the counts), so this module does not import the main screen (which
imports it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.app import App
from textual.dom import DOMNode

from paperdeck.model.errors import StoreError
from paperdeck.model.paper import UserData
from paperdeck.store.store import Store
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

    def chosen(view: View | None) -> None:
        if view is not None:  # escape closes the list and leaves the filter as it was
            shown.open_view(view)

    scope = shown.venue_scope.note() if shown.scope else ""
    shown.screen.app.push_screen(ViewsScreen(shown.views, shown.count_view, delete, scope), chosen)


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
    if settings.problem is not None:
        refuse_entry(screen, "Save the filter as a view", "Views cannot be saved: the settings file could not be read.")
        return

    def save(name: str | None) -> None:
        if name is None or not change_views(view, partial(settings.save_view, name, query)):
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
) -> None:
    """Apply ``change`` to many papers with its progress on screen (a bulk star, status or tag,
    or the undo or redo of one), the progress box headed ``what`` (default: the label and the
    number of papers).

    The papers are changed one user-data shard at a time (each batch one read and one write, as
    one :meth:`Store.change` would do), each batch in a worker thread, under a
    :class:`~paperdeck.ui.screens.progress.ProgressScreen` that counts them (``1,200 of 2,295
    papers``). Then, on the event loop, ``done(changes, error)``: the ``(before, after)`` of every
    record changed (those of the batches written before a failure too: they are on disk), and the
    :class:`StoreError` that stopped it, or ``None``.
    """
    from paperdeck.store.user_data import SHARDS, doc_id_for
    from paperdeck.ui.screens.progress import ProgressScreen

    def in_batches() -> list[list[str]]:
        batches: dict[int, list[str]] = {}
        for paper_id in dict.fromkeys(paper_ids):
            batches.setdefault(doc_id_for(paper_id) % SHARDS, []).append(paper_id)
        return list(batches.values())

    progress = ProgressScreen(what or f"{label}: {len(paper_ids):,} papers", len(paper_ids))

    async def run() -> None:
        await node.app.push_screen(progress)
        changes: list[Change] = []
        error: StoreError | None = None
        try:
            for batch in await asyncio.to_thread(in_batches):
                try:
                    changes += await asyncio.to_thread(store.change, batch, change)
                except StoreError as exc:
                    error = exc
                    break
                progress.advance(len(batch))
        finally:
            if node.app.screen is progress:
                progress.dismiss()
        done(changes, error)

    node.run_worker(run(), group=BULK_CHANGE_GROUP, name=f"{label} ({len(paper_ids)} papers)")
