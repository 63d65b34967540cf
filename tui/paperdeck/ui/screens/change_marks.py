"""What changed, in the app: the rows' marks on the papers an import changed since the user last
opened them (shown once the change log is read in a thread, after the first frame), a paper
opened (its reader, its reviews) remembered as seen, and ``C`` (every change seen, undoable).

Kept out of :mod:`paperdeck.ui.screens.main`, which holds a :class:`ChangeMarks` and sees this
module through it; the marks act through the screen's parts (its :class:`ListFilter` and
:class:`Loader`) and the callbacks it hands over, so this module does not import the main screen
(which imports it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Container
from functools import partial
from time import monotonic
from typing import TYPE_CHECKING

from paperdeck.model.errors import StoreError
from paperdeck.ui.screens.list_filter import ListFilter
from paperdeck.ui.screens.loader import Loader

if TYPE_CHECKING:
    from paperdeck.reading.history import Step


class ChangeMarks:
    """The "what changed" marks of the main screen's list, and the papers seen.

    Args:
        list_filter: the list of the screen the marks are shown on (its store, the list and the
            counts, the filter a list of the changed papers is filtered again by).
        loader: the screen's loader (the change log is read once the typing pauses there).
        show_detail: shows a paper's detail again (``None``: none highlighted).
        record_seen: records the "every change seen" mark moved from ``before`` to ``after`` as
            one undoable step (:meth:`History.record_seen
            <paperdeck.reading.history.History.record_seen>`), the step or ``None``.
    """

    #: The worker group of the change log's first read.
    GROUP = "changes"
    #: The worker group of the writes of the "every change seen" mark.
    SEEN_GROUP = "changes-seen"

    def __init__(
        self,
        list_filter: ListFilter,
        loader: Loader,
        *,
        show_detail: Callable[[str | None], None],
        record_seen: Callable[[str, str | None, str | None], Step | None],
    ) -> None:
        self._filter = list_filter
        self._loader = loader
        self._show_detail = show_detail
        self._record_seen = record_seen
        self._store = list_filter.store
        self._screen = list_filter.screen
        self._look_failed = False  # set_looked failed once (said once, see looked_at)
        #: Whether the rows show the changed marks yet (:meth:`changed`): the change log is read
        #: in a thread once the first frame is painted and the typing pauses (:meth:`read_changes`).
        self._changes_shown = False
        self._changes_asked = False  # the thread reading them is started

    def changed(self) -> Container[str]:
        """The papers an import changed since the user last opened them (the rows' mark): asked
        once per frame of the list, so a change log another process wrote shows at the next one.
        None until the change log has been read once off the event loop (:meth:`read_changes`):
        reading and resolving it is proportional to the imports recorded, not to the rows shown,
        and it is not the first frame's to pay."""
        if not self._changes_shown:
            return frozenset()
        return self._store.changed_since_looked()

    def read_changes(self) -> None:
        """After the first frame: read the change log in a thread once the typing pauses, then
        show the marks (the list repainted only when some paper has one). Once."""
        if not self._changes_asked:
            self._changes_asked = True
            painted = monotonic()  # the pause is counted from the first frame: a query typed at once ranks first
            self._screen.run_worker(
                partial(self._changes_in_thread, painted), name="_changes_in_thread", group=self.GROUP, thread=True
            )

    def _changes_in_thread(self, painted: float) -> None:
        if not self._loader.wait_for_a_pause(since=painted):
            return  # the app is closing
        changed: Container[str] = frozenset()
        with contextlib.suppress(StoreError):  # a log that cannot be read counts as none
            changed = self._store.changed_since_looked()
        self._screen.app.call_from_thread(self._changes_read, bool(changed))

    def _changes_read(self, any_changed: bool) -> None:
        self._changes_shown = True
        if any_changed:
            self._filter.paper_list.refresh()

    def looked_at(self, paper_id: str) -> None:
        """Record that the user opened the paper (its reader or its reviews): its changed mark goes.
        A store that cannot be written (read-only) says so once a session, not at each paper."""
        try:
            self._store.set_looked(paper_id)
        except StoreError as error:
            if not self._look_failed:
                self._look_failed = True
                self._screen.notify(f"{error}; papers opened are not remembered as seen", severity="warning", timeout=6)
            return
        self._filter.paper_list.refresh_paper(paper_id)
        self._filter.update_counts()
        self._changes_seen()

    def _changes_seen(self) -> None:
        """Papers left "changed" (a paper opened, every change marked seen): a list that shows
        the changed ones (``is:changed``, ``changed:``) is filtered again, so that its rows and its
        count agree with the marks."""
        if "changed" in self._filter.filter_text:
            self._filter.refilter(after_change=True)

    def mark_all_seen(self) -> None:
        """Every change recorded so far is seen: the What changed view empties (the mark is
        written in a thread); ``u`` undoes it."""
        self._screen.run_worker(
            self._mark_all_seen, name="_mark_all_seen", group=self.SEEN_GROUP, exclusive=True, thread=True
        )

    def _mark_all_seen(self) -> None:
        store, app = self._store, self._screen.app
        try:
            before = store.seen_mark()
            cleared = store.mark_all_seen()
            after = store.seen_mark()
        except StoreError as error:
            app.call_from_thread(
                self._screen.notify, str(error), title="Changes not marked seen", severity="error", markup=False
            )
            return
        app.call_from_thread(self._marked_all_seen, cleared, before, after)

    def _marked_all_seen(self, cleared: int, before: str | None, after: str | None) -> None:
        """Every change is marked seen: one undoable step (``u`` puts the mark back)."""
        step = self._record_seen("mark every change seen", before, after)
        self.seen_moved()
        were = "1 paper was" if cleared == 1 else f"{cleared:,} papers were"
        undo = " (u undoes)" if step is not None else ""
        self._screen.notify(f"Every change is seen: {were} changed{undo}.", timeout=4)

    def seen_moved(self) -> None:
        """The "every change seen" mark moved (``C``, or its undo): the rows' changed marks, the
        detail, the counts and a list of the changed papers follow."""
        paper_list = self._filter.paper_list
        paper_list.refresh()
        self._show_detail(paper_list.highlighted_id)
        self._filter.update_counts()
        self._changes_seen()

    def first_look(self) -> None:
        """The store is opened in the app: the first time, the imports made so far are the
        baseline of What changed, not news (:meth:`Store.first_look
        <paperdeck.store.store.Store.first_look>`), recorded in a thread."""
        self._screen.run_worker(
            self._first_look, name="_first_look", group=self.SEEN_GROUP, exclusive=True, thread=True
        )

    def _first_look(self) -> None:
        """Best effort: a store that cannot be written keeps no mark, and nothing is shown as
        changed there."""
        try:
            self._store.first_look()
        except StoreError:
            return
