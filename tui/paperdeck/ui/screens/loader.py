"""The main screen's start-up: the catalogue parsed and the search index read or built after the
first frame, in a worker thread that waits for pauses in the typing; and a key's action that needs
the whole paper, kept until the catalogue is parsed.

:class:`Loader` is a plain object the main screen owns (not a widget).
"""

from __future__ import annotations

import contextlib
import string
import threading
from collections.abc import Callable
from functools import partial
from time import monotonic
from typing import TYPE_CHECKING

from textual.worker import Worker, get_current_worker

from paperdeck import runtime
from paperdeck.model.errors import StoreError
from paperdeck.store.store import Store
from paperdeck.ui._lines.frames import after_first_frame
from paperdeck.ui.no_paper import say_no_paper
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.screen import Screen

    from paperdeck.model.paper import Paper
    from paperdeck.search.searcher import Searcher
    from paperdeck.stats.figures import Figures
    from paperdeck.ui.query_gate import QueryGate

#: Queries the search index ranks ahead as it is built: each the first keystroke of a search.
_WARM = string.ascii_lowercase + string.digits
#: Seconds between looks, while the start-up worker waits, at whether the app is closing.
_CANCEL_CHECK_S = 0.05


class Loader:
    """Reads the catalogue and the search index once the main screen's first frame is drawn.

    Args:
        screen: the screen whose list is painted first; the worker runs there.
        store: the store whose catalogue is parsed (unless it is already).
        searcher: whose search index is read (a saved one) or built.
        catalogue_loaded: called on the event loop once the catalogue is parsed (before a key's
            action waiting for it runs).
        index_built: called on the event loop once the search index is read or built.
        index_replaced: called on the event loop when the saved index turned out damaged once its
            CRC was checked (after the first queries ranked on it) and was built again: the
            query shown is to be ranked again.
        mount_footer: mounts the footer (once the list a saved index ranked first is painted).
        parse_after_input_s: seconds without a key or mouse event before the catalogue is parsed
            once the search index is read: parsing holds the interpreter for a while, and a query
            typed first shows first.
        scope_ids: gives the ids of the venue scope's papers (the list of a blank filter bar,
            which the statistics screen counts first); ``None``: every paper of the store.
        scope: gives the venue scope (empty: every venue); in one, only its papers' review
            summaries are read (:meth:`ReviewStore.summaries_among
            <paperdeck.store.reviews.ReviewStore.summaries_among>`).
        gate: says whether a query typed is under way: every step after the index is handed
            over (the footer's mount, the CRC, the warming, the parse, the counts) waits until
            its result is painted, as well as for a pause in the typing.
    """

    #: Seconds the start-up worker waits for the first frame at most (it is there in a fraction).
    FIRST_FRAME_WAIT_S = 5.0

    def __init__(
        self,
        screen: Screen[None],
        store: Store,
        searcher: Searcher,
        *,
        catalogue_loaded: Callable[[], None],
        index_built: Callable[[], None],
        index_replaced: Callable[[], None] | None = None,
        mount_footer: Callable[[], None],
        parse_after_input_s: float,
        scope_ids: Callable[[], list[str]] | None = None,
        scope: Callable[[], frozenset[str]] = frozenset,
        gate: QueryGate | None = None,
    ) -> None:
        self._screen = screen
        self._store = store
        self._searcher = searcher
        self._catalogue_loaded = catalogue_loaded
        self._index_built = index_built
        self._index_replaced = index_replaced or index_built
        self._mount_footer = mount_footer
        self._parse_after_input_s = parse_after_input_s
        self._scope_ids = scope_ids
        self._scope = scope
        self._gate = gate
        #: The statistics of every paper, counted ahead (the statistics screen's first view
        #: without the user's marks), with what they were counted for; ``None`` until counted.
        self.stats_figures: tuple[object, Figures] | None = None
        #: A key's action waiting for the catalogue to be parsed: the paper highlighted when the
        #: key was pressed and what to do with it (:meth:`with_highlighted_paper`).
        self._after_catalogue: tuple[str, Callable[[Paper], object]] | None = None
        #: Set when such an action waits: the catalogue is parsed at once, not once typing pauses.
        self._catalogue_wanted = threading.Event()
        #: Set once the search index is there and the list it ranked first (a query typed as the
        #: list showed) is painted: work that waits for it (:meth:`wait_for_a_pause`) never
        #: shares the interpreter with that first query.
        self._ranked_painted = threading.Event()

    def start(self) -> None:
        """Start the worker (from the screen's ``on_mount``). It starts now and waits (started
        from the first frame, it would wait for a turn of the event loop, then for its thread),
        then reads the index; the footer is mounted once the list the index ranked first is
        painted (a saved index), else after the first frame."""
        screen = self._screen
        first_frame = threading.Event()
        rows_only = not self._store.loaded
        screen.run_worker(
            partial(self._load_and_index, rows_only, first_frame),
            name="_load_and_index",
            group="index",
            description=f"_load_and_index({rows_only!r}, {first_frame!r})",
            exclusive=True,
            thread=True,
        )
        after_first_frame(screen, first_frame.set)
        screen.call_after_refresh(first_frame.set)
        from paperdeck.search.searcher import INDEX_FILE  # loaded with the searcher

        if not (self._store.data_dir / INDEX_FILE).is_file():  # else by the worker, once its list is painted
            after_first_frame(screen, self._mount_footer_when_quiet)
            screen.call_after_refresh(self._mount_footer_when_quiet)

    def _mount_footer_when_quiet(self) -> None:
        """Mount the footer now, or once a query under way is painted."""
        if self._gate is None:
            self._mount_footer()
        else:
            self._gate.when_quiet(self._mount_footer)

    def check_now(self) -> None:
        """A query met an error in the saved search index read unchecked: check its CRC now,
        not once the typing pauses (the catalogue is then parsed at once too, as a build needs it)."""
        self._catalogue_wanted.set()

    def with_highlighted_paper(self, use: Callable[[Paper], object]) -> None:
        """Call ``use`` with the highlighted paper: at once when the catalogue is parsed, else as
        soon as it is (its parse then starts at once, not once the typing pauses), with the paper
        highlighted now, unless another screen is in front by then. A key pressed right after
        start-up is never dropped for the catalogue still being read; pressed again meanwhile,
        only the last such action waits. Nothing highlighted: said, and ``use`` is not called."""
        screen = self._screen
        paper_id = screen.query_one(PaperList).highlighted_id
        if paper_id is None:
            say_no_paper(screen)
            return
        if not self._store.loaded:
            self._after_catalogue = (paper_id, use)
            self._catalogue_wanted.set()
            screen.notify("Reading the catalogue…")
            return
        if (paper := self._store.paper(paper_id)) is not None:
            use(paper)

    def _load_and_index(self, rows_only: bool, first_frame: threading.Event) -> None:
        """Once ``first_frame`` is set (the list painted), take the search index and parse the
        catalogue (if only its rows were read: ``rows_only``), off the event loop. A saved index
        is read first (it needs no parsed catalogue: the first query filters the whole store at
        once), the footer mounted once the list it ranked first is painted (without a saved
        index, :meth:`start` has it mounted after the first frame), and the index warmed once the
        typing pauses; one to be built is built after the catalogue is
        parsed, so that the detail pane fills first. Once the app is closing (its workers
        cancelled) no further step starts: quitting right after start-up does not wait for a
        parse or a count that nothing will show."""
        from paperdeck.search.searcher import INDEX_FILE

        worker = get_current_worker()
        if not _waited(first_frame, self.FIRST_FRAME_WAIT_S, worker):
            return
        app = self._screen.app
        saved = (self._store.data_dir / INDEX_FILE).is_file()
        if not saved:
            _prepare_queries()
        if saved:
            index = self._searcher.index.get()
            if worker.is_cancelled:
                return
            # (rapidfuzz, for a word's typos, is imported by the warming, once the typing pauses:
            # a word of four letters, as the first query often is, needs none.)
            app.call_from_thread(self._index_built)
            painted = threading.Event()  # the list the index ranked painted first
            app.call_from_thread(self._screen.call_after_refresh, painted.set)
            if not _waited(painted, self._parse_after_input_s * 5, worker):
                return
            self._ranked_painted.set()
            app.call_from_thread(self._mount_footer_when_quiet)
            _prepare_queries()  # unless a query typed at once did
            # Once the typing pauses: a query typed meanwhile need not share the interpreter
            # with the warming (which, with notes, ranks every letter) to rank and paint.
            if not self._wait_for_a_pause(self._catalogue_wanted):
                return
            # The saved file's CRC, read ahead unchecked (the first query ranked without reading
            # it through): checked now; a bad file is said, built again and the query ranked anew.
            try:
                checked = self._searcher.check_saved()
            except StoreError:
                checked = True  # the catalogue unreadable: said where the papers are read
            if not checked:
                index = self._searcher.index.get()
                if worker.is_cancelled:
                    return
                app.call_from_thread(self._index_replaced)
            index.warm(_WARM)
        # And the typing paused, unless a key's action waits for the papers.
        if saved and rows_only and not self._wait_for_a_pause(self._catalogue_wanted):
            return
        if worker.is_cancelled:
            return
        if saved:  # the slowest two-letter queries, whose saved rankings notes hide
            index.warm(index.notes_hide_saved)
        if rows_only:
            # The review summaries first (the detail pane shows them): their parse's peak then
            # falls before the catalogue's papers are held, not on top of them.
            # In a venue scope, its papers' alone, once they are parsed (the other venues' are not
            # built: the statistics ahead and the main screen's moves read them).
            if not self._scope():
                with contextlib.suppress(StoreError):  # said where the summaries are shown
                    self._store.reviews.summaries()
            self._store.load()  # unless a query's build (wait_built) parsed it meanwhile
            with contextlib.suppress(StoreError):  # the programmes' events, for the detail pane
                self._read_events()
            if worker.is_cancelled:
                return
            app.call_from_thread(self._loaded)
        if not saved:
            index = self._searcher.index.get()
            if worker.is_cancelled:
                return
            index.warm(_WARM)
            app.call_from_thread(self._index_built)
            self._ranked_painted.set()
        if self._count_statistics_ahead():
            # What the parses and the counts freed (every paper's document, the reviews' shards)
            # goes back to the system: resident memory is then what is held, not the peak.
            runtime.release_freed_memory()
            app.call_from_thread(runtime.loaded)  # what is loaded now lives as long as the app

    def _read_events(self) -> None:
        """Make the programmes' events ahead of the detail pane (:meth:`Store.events_by_paper
        <paperdeck.store.store.Store.events_by_paper>`) when one of them names a paper of the
        venue scope: a library holding another venue's programme makes none of its events for a
        scope without one (the detail pane asks :meth:`Store.events_of
        <paperdeck.store.store.Store.events_of>`, which makes them only for a paper they name).

        Raises:
            StoreError: the schedule file is malformed.
        """
        named = self._store.event_papers()
        if named and (self._scope_ids is None or not named.isdisjoint(self._scope_ids())):
            self._store.events_by_paper()

    def _count_statistics_ahead(self) -> bool:
        """In the worker, once the catalogue is parsed and typing pauses: count the statistics of
        the venue scope's papers (what the statistics screen shows first, unfiltered), so that
        its first opening only adds the user's marks. False when the app is closing (nothing counted)."""
        store = self._store
        if self.stats_figures is not None or not store.loaded:
            return True
        from paperdeck.search.venues import scope_forums
        from paperdeck.stats.figures import figures_of

        if not self._wait_for_a_pause():
            return False
        ids = list(store.paper_ids) if self._scope_ids is None else self._scope_ids()
        papers = [paper for paper_id in ids if (paper := store.paper(paper_id)) is not None]
        try:  # a venue scope's papers' summaries only (the other venues' read when it widens)
            forums = scope_forums(store, self._scope())
            summaries = store.reviews.summaries() if forums is None else store.reviews.summaries_among(forums)
        except StoreError:
            return True  # said where the summaries are shown
        key = (store.catalogue_generation, summaries, ids)
        if self.stats_figures is None:
            self.stats_figures = (key, figures_of(papers, summaries, {}))
        return True

    def wait_for_a_pause(self, since: float | None = None) -> bool:
        """In a thread worker of the screen: wait until the user has not typed for
        ``parse_after_input_s``, counted from ``since`` at the earliest (a ``time.monotonic()``;
        ``None``: from the last key, or the app's start before any); False when that worker was
        cancelled meanwhile (the app is closing). Given ``since``, the search index's first
        ranked list is waited for first (up to :attr:`FIRST_FRAME_WAIT_S`): a query typed as soon
        as the list shows ranks and paints before the waiting work starts."""
        if since is not None and not _waited(self._ranked_painted, self.FIRST_FRAME_WAIT_S, get_current_worker()):
            return False
        return self._wait_for_a_pause(since=since)

    def _wait_for_a_pause(self, unless: threading.Event | None = None, since: float | None = None) -> bool:
        """In the worker: wait until the user has not typed for ``parse_after_input_s`` (counted
        from ``since`` at the earliest), or until ``unless`` is set; False when the worker was
        cancelled instead (the app is closing)."""
        worker = get_current_worker()
        unless = unless if unless is not None else threading.Event()  # never set
        gate = self._gate
        while True:
            while (last := getattr(self._screen.app, "last_input_at", None)) is not None:
                if since is not None:
                    last = max(last, since)
                wait = self._parse_after_input_s - (monotonic() - last)
                if wait <= 0 or unless.is_set():
                    break
                if not _waited(unless, wait, worker):
                    return False
            # A pause in wall time is not the end of the query typed before it (a slow or loaded
            # machine's ranking and frame outlast it): its result is painted first.
            if gate is None or gate.quiet or unless.is_set():
                break
            if not gate.wait_quiet(lambda: worker.is_cancelled, unless):
                return False
        return not worker.is_cancelled

    def _loaded(self) -> None:
        """On the event loop, the catalogue parsed: tell the screen, then run the key's action
        that waited for it (unless another screen is in front now)."""
        self._catalogue_loaded()
        waiting, self._after_catalogue = self._after_catalogue, None
        screen = self._screen
        if waiting is not None and screen.is_current and (paper := self._store.paper(waiting[0])) is not None:
            waiting[1](paper)


def _prepare_queries() -> None:
    """Import what the first query typed takes (its parse, its selection, its titles' marks), so
    that its first key does not wait for the imports."""
    import paperdeck.search.highlight
    import paperdeck.search.selection  # noqa: F401


def _waited(event: threading.Event, seconds: float, worker: Worker[object]) -> bool:
    """In a thread worker: wait up to ``seconds`` for ``event``; False when ``worker`` was
    cancelled meanwhile (looked at every ``_CANCEL_CHECK_S``)."""
    deadline = monotonic() + seconds
    while not worker.is_cancelled:
        left = deadline - monotonic()
        if left <= 0 or event.wait(min(left, _CANCEL_CHECK_S)):
            return True
    return False
