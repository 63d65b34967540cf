"""The main screen: filter bar, list pane, detail pane. It owns the view state.

State flows down (the screen tells the list which ids to show and the detail pane which paper);
messages flow up (the list reports the highlighted paper, the filter bar reports its text).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from collections.abc import Callable, Container, Sequence
from time import monotonic
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import get_current_worker

from paperdeck import runtime
from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.store.settings import (
    LIST_WIDTH_MAX,
    LIST_WIDTH_MIN,
    LIST_WIDTH_STEP,
    SORT_LABELS,
    SORTS,
    SettingsFile,
)
from paperdeck.store.store import Store
from paperdeck.ui._lines.frames import after_first_frame, forget_repaints_of_first_frame
from paperdeck.ui.commands import bindings
from paperdeck.ui.saving import save_settings
from paperdeck.ui.screens.built_once import wait_built
from paperdeck.ui.screens.follows import Following
from paperdeck.ui.screens.list_filter import _NOTES_KEPT, _ORDER_NOTES, COUNTS_PADDING, _highlight_terms
from paperdeck.ui.screens.loader import _WARM, _prepare_queries, _waited
from paperdeck.ui.screens.reading import ReadingScreen
from paperdeck.ui.widgets.counts_label import CountsLabel, counts_text, cut_at_word, fitted, status_summary
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.model.review import ReviewSummary
    from paperdeck.search.query import Query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.views import View
    from paperdeck.stats.figures import Figures

#: Screen widths (cells): from ``SIDE_BY_SIDE_FROM`` the detail pane is beside the list; from
#: ``LIST_ONLY_BELOW`` up to that, below it; narrower, the list is alone (``enter`` reads a paper).
SIDE_BY_SIDE_FROM, LIST_ONLY_BELOW = 140, 60


class MainScreen(ReadingScreen):
    """Browse, filter, star and annotate the papers of a store."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("main")  # filter, sort, layout, export, views

    #: The list has the focus from the start: focused as the screen is composed, not moved there
    #: in ``on_mount`` (which restyled the screen once more before the first frame).
    AUTO_FOCUS = "#paper-list"

    #: Seconds of typing pause before the detail pane follows the top result, and before a long
    #: filtered list is counted by status (:meth:`_tally_later`).
    DETAIL_WHILE_TYPING_S: ClassVar[float] = 0.15

    #: Seconds a query hint cut beside the filter bar stays before it is shown whole in a toast.
    HINT_TOAST_S: ClassVar[float] = 1.0

    #: Seconds between looks for stars and notes written by another paperdeck on the same store.
    EXTERNAL_CHECK_S: ClassVar[float] = 2.0
    #: Seconds a query that may be slow (``_may_be_slow``) waits for a next key before it starts.
    SLOW_QUERY_WAIT_S: ClassVar[float] = 0.08

    # Plain vars: the widgets showing their effect repaint themselves (a reactive would also
    # repaint the whole screen on every keystroke).
    filter_text: var[str] = var("", init=False)
    """The filter text."""

    starred_only: var[bool] = var(False, init=False)
    """Whether only starred papers are shown."""

    def __init__(self, store: Store, settings: SettingsFile | None = None, searcher: Searcher | None = None) -> None:
        """``settings``: the settings file the screen reads and changes (default: the store's
        ``config.json``); ``searcher``: the indexes queries run on (default: a new one over
        ``store``). The search index is built after the first paint; the folded texts and the
        similarity index at first need; all in threads."""
        super().__init__()
        self.store = store
        self.settings: SettingsFile = settings if settings is not None else SettingsFile(store.data_dir)
        if searcher is None:
            from paperdeck.search.searcher import Searcher  # deferred: not imported before the app runs

            searcher = Searcher(store, notice=self._index_notice)  # warmed once handed over
        self.searcher = searcher
        self._searching = False  # a query waits for an index or runs in a thread: its result not shown yet
        self._view_ids: list[str] = []
        #: The list shown and its ids as a set (for the status tally of a filtered list).
        self._view_id_set: tuple[list[str] | None, frozenset[str]] = (None, frozenset())
        #: The store's status counts and, for them, the reading status of each paper that has one.
        self._status_of: tuple[Counter[str] | None, dict[str, str]] = (None, {})
        self._tally_timer: Timer | None = None
        self._hint_timer: Timer | None = None
        self._hint_told: str | None = None  # the last hint shown whole in a toast
        self._filters_for: tuple[str, bool] = ("", False)  # a filter text, and whether it filters
        #: A hint about a malformed query (shown instead of the counts), else ``None``.
        self.query_hint: str | None = None
        #: How far a refresh has got (:mod:`paperdeck.ui.refresh`), ``""`` when none runs.
        self.refresh_note = ""
        self.export_note = ""  # an export's progress, while one is written
        self._look_failed = False  # set_looked failed once (said once, see _looked_at)
        #: The (filter text, starred-only) whose result the list shows now (benchmarks wait on it).
        self.applied_filter: tuple[str, bool] = ("", False)
        #: Told when the view or the user's marks change (the statistics screen, while it is open).
        self.stats_listener: Callable[[], None] | None = None
        #: The statistics screen's last count of the view without the user's marks (its StatsHost).
        self.stats_figures: tuple[object, Figures] | None = None
        #: The papers the user's follows match (marked in the list, named in the detail pane).
        self.following = Following(self)
        #: A key's action waiting for the catalogue to be parsed: the paper highlighted when the
        #: key was pressed and what to do with it (:meth:`with_highlighted_paper`).
        self._after_catalogue: tuple[str, Callable[[Paper], object]] | None = None
        #: Set when such an action waits: the catalogue is parsed at once, not once typing pauses.
        self._catalogue_wanted = threading.Event()
        self._resumed = False  # the screen has been shown (ScreenResume) once
        self._typed_waits = False  # text typed into the filter bar waits to be taken (_filter_typed)

    def compose(self) -> ComposeResult:
        with Horizontal(id="top-bar"):
            yield FilterBar(id="filter")
            yield CountsLabel(id="counts")
        with Horizontal(id="panes"):
            yield PaperList(
                self.store.row, self.store.user_data, self.marked.__contains__, self._changed, headings=True,
                id="paper-list", followed=self.following.is_followed,
            )  # fmt: skip
            yield PaperDetail(id="paper-detail")
        yield Horizontal(id="footer-row")  # the footer's keys are mounted into it after the first frame

    #: Seconds after the screen is mounted by which the footer is mounted at the latest.
    FOOTER_BY_S: ClassVar[float] = 1.0

    def _mount_footer(self) -> None:
        """Put the footer (the keys in effect) into its row, once: after the first frame, which
        shows the row empty (the footer's styles and keys are no part of the first paint); with
        a saved search index, once the list it ranked first (a query typed at once) is painted,
        so that its mounting and layout do not come before that list."""
        row = self.query_one("#footer-row")
        if row.children:
            return
        from paperdeck.ui.widgets.footer import PaperFooter

        row.mount(PaperFooter())

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first time the screen is shown (the app's start), Textual does not style it all
        again: each widget was styled as it was mounted, just before (this handler runs before
        Textual's own, which reads ``refresh_styles``). Every later resume restyles as usual."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    @property
    def layout_mode(self) -> str:
        """How the panes are arranged at the screen's width: ``"side-by-side"``, ``"stacked"``
        (detail below the list) or ``"list-only"`` (``SIDE_BY_SIDE_FROM``, ``LIST_ONLY_BELOW``)."""
        width = self.size.width or self.app.size.width
        if width >= SIDE_BY_SIDE_FROM:
            return "side-by-side"
        return "stacked" if width >= LIST_ONLY_BELOW else "list-only"

    def _apply_layout(self) -> None:
        chosen = self.settings.settings
        mode = self.layout_mode
        self.set_class(mode == "stacked", "-stacked")
        self.set_class(mode == "list-only", "-list-only")
        self.query_one(PaperDetail).display = chosen.show_detail and mode != "list-only"
        beside = chosen.show_detail and mode == "side-by-side"
        self.paper_list.styles.width = f"{chosen.list_width}%" if beside else "1fr"

    def on_resize(self) -> None:
        self._apply_layout()  # nothing changes while the width stays in one mode
        self.update_counts()  # fitted to the width

    def with_highlighted_paper(self, use: Callable[[Paper], object]) -> None:
        """Call ``use`` with the highlighted paper: at once when the catalogue is parsed, else as
        soon as it is (its parse then starts at once, not once the typing pauses), with the paper
        highlighted now, unless another screen is in front by then. A key pressed right after
        start-up is never dropped for the catalogue still being read; pressed again meanwhile,
        only the last such action waits. Nothing highlighted: said, and ``use`` is not called."""
        paper_id = self.paper_list.highlighted_id
        if paper_id is None:
            self.notify("No paper is highlighted.", timeout=2)
            return
        if not self.store.loaded:
            self._after_catalogue = (paper_id, use)
            self._catalogue_wanted.set()
            self.notify("Reading the catalogue…", timeout=1.5)
            return
        if (paper := self.store.paper(paper_id)) is not None:
            use(paper)

    def action_read(self) -> None:
        """Show the highlighted paper full screen (:class:`PaperReader`); escape comes back."""
        self.with_highlighted_paper(self._read)

    def _read(self, paper: Paper) -> None:
        from paperdeck.ui.screens.reader import PaperReader

        self.app.push_screen(PaperReader(paper, self.store.user_data(paper.id), self.store))
        self._looked_at(paper.id)

    def _changed(self) -> Container[str]:
        """The papers an import changed since the user last opened them (the rows' mark): asked
        once per frame of the list, so a change log another process wrote shows at the next one."""
        return self.store.changed_since_looked()

    def _looked_at(self, paper_id: str) -> None:
        """Record that the user opened the paper (its reader or its reviews): its changed mark goes.
        A store that cannot be written (read-only) says so once a session, not at each paper."""
        try:
            self.store.set_looked(paper_id)
        except StoreError as error:
            if not self._look_failed:
                self._look_failed = True
                self.notify(f"{error}; papers opened are not remembered as seen", severity="warning", timeout=6)
            return
        self.paper_list.refresh_paper(paper_id)
        self.update_counts()

    def action_toggle_detail(self) -> None:
        self._save(show_detail=not self.settings.settings.show_detail)
        if self.layout_mode == "list-only":
            state = "on" if self.settings.settings.show_detail else "off"  # saved: it applies once wider
            self.notify(f"Detail pane {state} from {LIST_ONLY_BELOW} columns; here, enter reads a paper.", timeout=3)

    def action_list_width(self, direction: int) -> None:
        width = self.settings.settings.list_width + direction * LIST_WIDTH_STEP
        self._save(list_width=max(LIST_WIDTH_MIN, min(LIST_WIDTH_MAX, width)))
        if self.layout_mode != "side-by-side":
            self.notify(f"Below {SIDE_BY_SIDE_FROM} columns the list takes the whole width.", timeout=3)

    def _save(self, **changes: object) -> None:
        """Change and persist settings, then lay the panes out again; a failure to write is a
        message, not a crash."""
        save_settings(self, self.settings, **changes)
        self._apply_layout()

    def on_mount(self) -> None:
        self.searcher.read_ahead(self._typed_words)  # the saved index's file, while the first frame is made
        self._apply_layout()
        self._view_ids = self.store.paper_ids
        self.paper_list.set_columns(*self.store.row_columns)  # from the rows cache: the first paint has them
        self.paper_list.show(self._view_ids)
        if self.chosen_order not in ("relevance", "list"):
            self._refilter()  # the saved sort order
        self.update_counts()
        # Each change of the filter bar's text re-ranks the list in the step that handles it, so
        # both show in one frame (Input.Changed arrives a frame later); a burst of keys, once.
        self.watch(self.query_one(FilterBar), "value", self._filter_typed, init=False)
        if self.store.loaded:  # its columns are set above
            self._show_detail(self.paper_list.highlighted_id)
        # Parse the catalogue and index it only once the list is on screen: right after the first
        # frame (a query typed at once finds the index on its way), else once the screen is idle.
        # Its worker starts now and waits (started from the first frame, it would wait for a turn
        # of the event loop, then for its thread), then reads the index; the footer is mounted
        # once the list the index ranked first is painted (a saved index), else after the first frame.
        first_frame = threading.Event()
        self._load_and_index(not self.store.loaded, first_frame)
        after_first_frame(self, first_frame.set)
        self.call_after_refresh(first_frame.set)
        from paperdeck.search.searcher import INDEX_FILE  # loaded with the searcher

        if not (self.store.data_dir / INDEX_FILE).is_file():  # else by the worker, once its list is painted
            after_first_frame(self, self._mount_footer)
            self.call_after_refresh(self._mount_footer)
        forget_repaints_of_first_frame(self)  # the first frame is drawn whole: not twice
        self.set_timer(self.FOOTER_BY_S, self._mount_footer)  # at the latest (an index rebuilt, a failure)
        self.set_interval(self.EXTERNAL_CHECK_S, self.check_external_changes)

    def _typed_words(self) -> str:
        """The words of the query in the filter bar, as :func:`~paperdeck.search.selection.run_query`
        ranks them (``""``: none, or the query is malformed); from any thread."""
        text = self.filter_text
        if not text.strip():
            return ""
        from paperdeck.search.query import parse_query

        query = parse_query(text)
        return " ".join(query.words) if query.error is None else ""

    def _index_notice(self, line: str) -> None:
        """Say that the saved search index could not be used (from the thread building it)."""
        try:
            self.app.call_from_thread(self.app.notify, line, severity="warning", timeout=8)
        except RuntimeError:  # on the event loop already
            self.app.notify(line, severity="warning", timeout=8)

    @work(thread=True, exclusive=True, group="index")
    def _load_and_index(self, rows_only: bool, first_frame: threading.Event) -> None:
        """Once ``first_frame`` is set (the list painted), take the search index and parse the
        catalogue (if only its rows were read: ``rows_only``), off the event loop. A saved index
        is read first (it needs no parsed catalogue: the first query filters the whole store at
        once), the footer mounted once the list it ranked first is painted (without a saved
        index, ``on_mount`` has it mounted after the first frame), and the index warmed once the
        typing pauses; one to be built is built after the catalogue is
        parsed, so that the detail pane fills first. Once the app is closing (its workers
        cancelled) no further step starts: quitting right after start-up does not wait for a
        parse or a count that nothing will show."""
        from paperdeck.search.searcher import INDEX_FILE, prepare_typo_matching

        worker = get_current_worker()
        if not _waited(first_frame, self.FIRST_FRAME_WAIT_S, worker):
            return
        saved = (self.store.data_dir / INDEX_FILE).is_file()
        if not saved:
            _prepare_queries()
        if saved:
            index = self.searcher.index.get()
            if worker.is_cancelled:
                return
            prepare_typo_matching()  # while the screen paints the keys typed meanwhile
            self.app.call_from_thread(self._index_built)
            painted = threading.Event()  # the list the index ranked painted first
            self.app.call_from_thread(self.call_after_refresh, painted.set)
            if not _waited(painted, self.PARSE_AFTER_INPUT_S * 5, worker):
                return
            self.app.call_from_thread(self._mount_footer)
            _prepare_queries()  # unless a query typed at once did
            # Once the typing pauses: a query typed meanwhile need not share the interpreter
            # with the warming (which, with notes, ranks every letter) to rank and paint.
            if not self._wait_for_a_pause(self._catalogue_wanted):
                return
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
            with contextlib.suppress(StoreError):  # said where the summaries are shown
                self.store.reviews.summaries()
            self.store.load()  # unless a query's build (wait_built) parsed it meanwhile
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self._catalogue_loaded)
        if not saved:
            index = self.searcher.index.get()
            if worker.is_cancelled:
                return
            index.warm(_WARM)
            self.app.call_from_thread(self._index_built)
        if self._count_statistics_ahead():
            self.app.call_from_thread(runtime.loaded)  # what is loaded now lives as long as the app

    def _count_statistics_ahead(self) -> bool:
        """In the worker, once the catalogue is parsed and typing pauses: count the statistics of
        every paper (what the statistics screen shows first, unfiltered), so that its first
        opening only adds the user's marks. False when the app is closing (nothing counted)."""
        if self.stats_figures is not None or not self.store.loaded:
            return True
        from paperdeck.stats.figures import figures_of

        if not self._wait_for_a_pause():
            return False
        try:
            summaries = self.store.reviews.summaries()
        except StoreError:
            return True  # said where the summaries are shown
        ids = list(self.store.paper_ids)
        papers = [paper for paper_id in ids if (paper := self.store.paper(paper_id)) is not None]
        key = (self.store.catalogue_generation, summaries, ids)
        if self.stats_figures is None:
            self.stats_figures = (key, figures_of(papers, summaries, {}))
        return True

    #: Seconds the start-up worker waits for the first frame at most (it is there in a fraction).
    FIRST_FRAME_WAIT_S: ClassVar[float] = 5.0

    #: Seconds without a key or mouse event before the catalogue is parsed once the search index
    #: is read: parsing holds the interpreter for a while, and a query typed first shows first.
    PARSE_AFTER_INPUT_S: ClassVar[float] = 0.4

    def _wait_for_a_pause(self, unless: threading.Event | None = None) -> bool:
        """In the worker: wait until the user has not typed for ``PARSE_AFTER_INPUT_S``, or until
        ``unless`` is set; False when the worker was cancelled instead (the app is closing)."""
        worker = get_current_worker()
        unless = unless if unless is not None else threading.Event()  # never set
        while (last := getattr(self.app, "last_input_at", None)) is not None:
            wait = self.PARSE_AFTER_INPUT_S - (monotonic() - last)
            if wait <= 0 or unless.is_set():
                break
            if not _waited(unless, wait, worker):
                return False
        return not worker.is_cancelled

    def _catalogue_loaded(self) -> None:
        self.paper_list.set_columns(*self.store.row_columns)
        self.following.refresh()  # the follows are matched over the papers: a saved index came first
        self._show_detail(self.paper_list.highlighted_id)
        waiting, self._after_catalogue = self._after_catalogue, None
        if waiting is not None and self.is_current and (paper := self.store.paper(waiting[0])) is not None:
            waiting[1](paper)

    def _index_built(self) -> None:
        self.following.refresh()
        self.update_counts()
        # A query typed meanwhile waits for the index in its worker and shows its result itself
        # (or has shown it already): running it here as well would run it twice.
        waiting = any(w.node is self and w.group == "filter" and w.is_running for w in self.workers)
        shown = self.applied_filter == (self.filter_text, self.starred_only)
        if self.filter_text.strip() and not waiting and not shown:
            self._refilter()

    # -- filtering ---------------------------------------------------------------------------

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        """Take the bar's text as it is now (already done by :meth:`_filter_typed`: then nothing
        happens). Not the message's value: keys typed in a burst (pasted, or typed while the
        screen was busy) each leave a message that arrives after the last key, and its value,
        set back, would rank every shorter text once more."""
        self.filter_text = event.input.value

    def _filter_typed(self, value: str) -> None:
        """A change of the bar's text. Typed (the bar focused), it is taken once the bar has
        handled the messages waiting for it then (``call_later``: the keys typed after it, and
        its change message): a single key's text is ranked in the step that handles the key,
        before the frame that shows it; keys arriving together (pasted, or typed while the
        screen was busy) rank only the last text, once. Set by the app (the bar not focused),
        it is taken at once."""
        bar = self.query_one(FilterBar)
        if not bar.has_focus:
            self.filter_text = value
        elif not self._typed_waits:
            self._typed_waits = True
            bar.call_later(self._take_typed)
        self.query_one(PaperDetail).keep_waiting()  # the detail pane waits until the typing pauses

    def _take_typed(self) -> None:
        """Take the text typed into the bar (:meth:`_filter_typed`), as the bar holds it now."""
        self._typed_waits = False
        self.filter_text = self.query_one(FilterBar).value

    def watch_filter_text(self) -> None:
        self._refilter()

    def watch_starred_only(self) -> None:
        self._refilter()

    def _refilter(self, after_change: bool = False) -> None:
        """Re-rank and filter the list for the current query.

        Plain words rank fuzzily (the search index); field terms (``decision:oral rating>=6``)
        filter. A malformed query shows a hint and keeps the last good result. Done at once, on
        the event loop (the list changes in the frame that shows the key; from a thread it took
        a second frame), unless something must be waited for (an index) or may be slow: then in
        a worker, which the next keystroke cancels.

        ``after_change``: the user's data changed under a list that reads it (``tag:x``, starred
        only): the highlighted paper stays highlighted if it is still listed, else the one after
        it (else before it) that is."""
        self.workers.cancel_group(self, "filter")
        text = self.filter_text
        nearby = self._nearby_rows() if after_change else ()
        if not text.strip():
            if self.chosen_order in ("relevance", "list"):
                highlighted = self.paper_list.highlighted_id
                self._show_filtered(text, self.starred_only, self.store.paper_ids, highlighted, nearby)
            else:
                self._refilter_later(nearby=nearby)
            return
        from paperdeck.search.query import parse_query  # deferred: not needed for the first paint

        query = parse_query(text)
        searcher = self.searcher
        # Words alone need the index, not the parsed catalogue (rows and details read by paper).
        waits = (not self.store.loaded and query.has_filter) or (query.searches_words and searcher.index.built is None)
        waits |= bool(query.like) and searcher.similarity.built is None
        waits |= query.searches_text and searcher.corpus.built is None
        if query.error is None and (waits or self._may_be_slow(query)):
            self._refilter_later(nearby=nearby)
            return
        self._show_filtered(text, self.starred_only, self._query_result(query), None, nearby)

    def _nearby_rows(self) -> tuple[str, ...]:
        """The highlighted paper, then the papers after it in the list, then those before it
        (nearest first): which to highlight when a re-filter drops some."""
        ids, cursor = self._view_ids, self.paper_list.cursor
        if not ids or not 0 <= cursor < len(ids):
            return ()
        return (*ids[cursor:], *ids[cursor - 1 :: -1]) if cursor else tuple(ids)

    @work(exclusive=True, group="filter")
    async def _refilter_later(
        self, keep_id: str | None = None, reloaded: bool = False, nearby: Sequence[str] = ()
    ) -> None:
        """What :meth:`_refilter` does not do at once: wait for an index (then the query runs on
        the event loop, as it would have at once), or a slow query (in a thread).
        ``keep_id``: the paper to keep highlighted if it is in the result; ``reloaded``: the
        catalogue was read again (the index is built anew and every row and the detail repainted);
        ``nearby``: else the first of these papers in the result."""
        text, starred_only = self.filter_text, self.starred_only
        keep = keep_id or (self.paper_list.highlighted_id if not text.strip() else None)
        self.query_hint = None
        self._searching = bool(text.strip())  # the list shown is not this query's: say so
        self.update_counts()  # no stale hint (a prefix's) while waiting; "finding similar papers…"
        result: list[str] | str
        if text.strip():
            from paperdeck.search.query import parse_query

            query = parse_query(text)
            if self._may_be_slow(query):
                await asyncio.sleep(self.SLOW_QUERY_WAIT_S)  # the next key cancels this one first
            if query.searches_words:  # field terms alone filter before the index is built
                await wait_built(self, self.searcher.index)
            if query.like:
                await wait_built(self, self.searcher.similarity)
            if query.searches_text:
                await wait_built(self, self.searcher.corpus)
            if self._may_be_slow(query) or (query.has_filter and not self.store.loaded):
                result = await asyncio.to_thread(self._query_result, query)
            else:  # what _refilter runs at once, now that what it waited for is there
                result = self._query_result(query)
        else:
            result = await asyncio.to_thread(self._sorted, self.store.paper_ids)
        self._show_filtered(text, starred_only, result, keep, nearby)
        if reloaded:
            self.paper_list.refresh()  # same ids, new papers: every line may have changed
            self._show_detail(self.paper_list.highlighted_id)
            await wait_built(self, self.searcher.index)  # the next keystroke finds it built
            self.update_counts()
            self.run_worker(runtime.release_freed_memory, thread=True, group="memory")  # the index replaced

    def catalogue_reloaded(self, new_ids: Sequence[str] = ()) -> None:
        """Show the papers as the store holds them now (it read the catalogue again: another
        paperdeck imported meanwhile): the same query, sort and starred-only, the highlighted
        paper kept (under its new id when the import merged it into a better-known record).
        ``new_ids``: the papers the catalogue gained; a notice says which a follow matches."""
        self.following.refresh(new_ids)
        highlighted = self.paper_list.highlighted_id
        self.paper_list.set_columns(*self.store.row_columns)
        self._refilter_later(self.store.resolve(highlighted) if highlighted else None, reloaded=True)

    def _may_be_slow(self, query: Query) -> bool:
        """Whether a query may take longer than a frame (then it runs in a thread): text terms under
        ``OR``/``-`` are checked paper by paper (``a OR b`` tries every paper); sorts sort all;
        ``review:`` terms read the reviews' word index."""
        slow_text = (query.searches_text and not query.only_text_terms) or query.searches_reviews
        # is:followed matches the follows (a text scan per keyword, the queries) unless cached.
        return slow_text or query.uses_followed or self.chosen_order not in ("relevance", "list")

    def _query_result(self, query: Query) -> list[str] | str:
        """The ids a query selects, or the hint to show instead (a malformed query, a bad ``like:``)."""
        if query.error is not None:
            return query.error
        from paperdeck.search.selection import LikeError, run_query

        try:
            return run_query(self.searcher, query, self.chosen_order)
        except (LikeError, StoreError) as error:  # StoreError: the reviews' word index unreadable
            return str(error)

    def _show_filtered(
        self, text: str, starred_only: bool, result: list[str] | str, keep: str | None, nearby: Sequence[str] = ()
    ) -> None:
        """Show the ids selected for ``text`` (keeping ``keep`` highlighted if it is among them,
        else the first of ``nearby`` that is), or, for a hint, the hint and the last good result."""
        self._searching = False
        if isinstance(result, str):
            self.query_hint = result
        else:
            self.query_hint = None
            ids = result
            if starred_only:
                starred = {pid for pid, record in self.store.all_user_data.items() if record.starred}
                ids = [pid for pid in ids if pid in starred]
            self._view_ids = ids
            if nearby:
                shown = set(ids)
                if keep is None or keep not in shown:
                    keep = next((pid for pid in nearby if pid in shown), keep)
            self.paper_list.highlight(_highlight_terms(text))
            self.paper_list.show(ids, highlight=keep)
        self.applied_filter = (text, starred_only)
        self.update_counts()
        if self.stats_listener is not None and not isinstance(result, str):
            self.stats_listener()

    @property
    def chosen_order(self) -> str:
        """The sort order chosen (``SORTS``)."""
        return self.settings.settings.sort

    def _sorted(self, ids: list[str]) -> list[str]:
        from paperdeck.search.selection import sort_ids

        return sort_ids(self.store, ids, self.chosen_order)

    def action_cycle_sort(self) -> None:
        self.sort_by(SORTS[(SORTS.index(self.chosen_order) + 1) % len(SORTS)])

    def action_sort_by(self, order: str) -> None:
        self.sort_by(order)

    def sort_by(self, order: str) -> None:
        """Order the list by ``order`` (``SORTS``) and remember the choice."""
        self._save(sort=order)
        self.notify(f"Sorted by {SORT_LABELS[order]}.", timeout=1.5)
        self._refilter()

    def _query_filters(self) -> bool:
        """Whether the filter bar's text is a query at all: not blank, nor terms that are ignored
        (no letter or digit: a lone ``-``); a malformed query counts as one."""
        text = self.filter_text
        if self._filters_for[0] != text:
            from paperdeck.search.query import parse_query

            query = parse_query(text) if text.strip() else None
            filters = query is not None and bool(query.words or query.tree or query.like or query.error)
            self._filters_for = (text, filters)
        return self._filters_for[1]

    def update_counts(self) -> None:
        filtered = self._query_filters() or self.starred_only
        view = next((v.name for v in self.views if v.query == self.filter_text.strip()), None) if filtered else None
        starred, statuses = self.store.user_counts()
        indexing = self.searcher.index.built is None
        finding = not indexing and "like:" in self.filter_text and self.searcher.similarity.built is None
        notes = [
            f"★ {starred:,}" if starred else "",
            "starred only" if self.starred_only else "",
            _ORDER_NOTES.get(self.chosen_order, ""),
            f"{len(self.marked):,} marked" if self.marked else "",
            "indexing…" if indexing else "",
            "finding similar papers…" if finding else "",
            self.refresh_note,
            self.export_note,
        ]
        # The label takes at most half the bar (styles: #counts), less its padding.
        room = max(1, (self.size.width or self.app.size.width) // 2 - COUNTS_PADDING)
        total = self.store.paper_count
        text = counts_text(
            len(self._view_ids), total, filtered=filtered, view=view, notes=notes, room=room, keep=_NOTES_KEPT
        )
        if self._searching:  # never the last list's count as if it matched
            text = fitted("searching…", notes, room, _NOTES_KEPT)
        if self.query_hint:
            hint = f"⚠ {self.query_hint}"
            text = cut_at_word(hint, room)
            if text != hint:
                self._tell_hint_later(self.query_hint)
        self.query_one("#counts", CountsLabel).update(text)
        if filtered:  # the list on screen (while a query runs, the last one shown)
            in_view = self._view_statuses(statuses)
            if in_view is None:
                return
            statuses = in_view
        shown = len(self._view_ids) if filtered else total
        if self.paper_list.border_subtitle != (subtitle := status_summary(shown, statuses)):
            self.paper_list.border_subtitle = subtitle

    def _tell_hint_later(self, hint: str) -> None:
        """Show ``hint`` whole in a toast (it is cut beside the filter bar) once the query has
        stayed as it is for ``HINT_TOAST_S``; once per hint."""
        if self._hint_timer is not None:
            self._hint_timer.stop()

        def tell() -> None:
            self._hint_timer = None
            if self.query_hint == hint and self._hint_told != hint:
                self._hint_told = hint
                self.notify(hint, title="Query", severity="warning", timeout=6)

        self._hint_timer = self.set_timer(self.HINT_TOAST_S, tell)

    def _tally_later(self) -> None:
        """Count the list shown by status after ``DETAIL_WHILE_TYPING_S`` without a change of list."""
        if self._tally_timer is not None:
            self._tally_timer.stop()

        def tally() -> None:
            self._tally_timer = None
            ids = self._view_ids
            self._view_id_set = (ids, frozenset(ids))
            self.update_counts()

        self._tally_timer = self.set_timer(self.DETAIL_WHILE_TYPING_S, tally)

    def _view_statuses(self, statuses: Counter[str]) -> Counter[str] | None:
        """The papers of the list shown by reading status, as ``statuses`` (the store's, from
        :meth:`Store.user_counts`) counts them all: of the user records that have a status, those in
        the list. The smaller side is walked: the list's ids looked up among those records, or those
        records looked up in the list's ids, put in a set once per list — for a list longer than
        those records that set is made once typing pauses (:meth:`_tally_later`; ``None`` until
        then: the edge keeps the last tally). The records' statuses are taken once per change of
        the user data (``statuses`` is then a new object)."""
        if self._status_of[0] is not statuses:
            self._status_of = (
                statuses,
                {pid: r.status for pid, r in self.store.all_user_data.items() if r.status != "unseen"},
            )
        status_of, ids = self._status_of[1], self._view_ids
        if len(ids) <= len(status_of):
            return Counter(status for status in map(status_of.get, ids) if status is not None)
        if self._view_id_set[0] is not ids:
            self._tally_later()
            return None
        shown = self._view_id_set[1]
        return Counter(status for pid, status in status_of.items() if pid in shown)

    def _filter_focused(self) -> bool:
        return isinstance(self.focused, FilterBar)

    def action_focus_filter(self) -> None:
        if self._filter_focused():
            raise SkipAction  # "/" is text in the filter bar
        self.set_focus(self.query_one(FilterBar))

    def action_leave_filter(self) -> None:
        """Back to the list, keeping the filter (enter or ↓ in the filter bar)."""
        if not self._filter_focused():
            raise SkipAction  # the key belongs to the focused widget
        # set_focus, not focus(): focus() is applied later, and keys typed meanwhile would go to
        # the widget being left ("prun⏎j" must not filter for "prunj").
        self.set_focus(self.paper_list)

    def action_escape(self) -> None:
        """In the filter bar: clear it and go back to the list. Elsewhere: clear the marks, else
        the filter, else starred-only."""
        filter_bar = self.query_one(FilterBar)
        if self._filter_focused():
            filter_bar.value = ""
            self.set_focus(self.paper_list)
        elif self.clear_marks():
            return
        elif filter_bar.value:
            filter_bar.value = ""
        elif self.starred_only:
            self.starred_only = False
        else:
            raise SkipAction

    def action_toggle_starred_only(self) -> None:
        self.starred_only = not self.starred_only

    def action_export(self) -> None:
        """Write the marked papers, else the papers of the view, to a file (the ending picks the format)."""
        from paperdeck.ui.screens.export import export_papers_to_file
        from paperdeck.ui.screens.list_actions import export_selection

        if (chosen := export_selection(self)) is not None:
            export_papers_to_file(self, self.store, *chosen)

    def action_refresh(self) -> None:
        """Fetch the store's venue again in a worker (:mod:`paperdeck.ui.refresh`)."""
        from paperdeck.ui.refresh import start_refresh

        start_refresh(self)

    def set_refresh_note(self, text: str) -> None:
        """Show ``text`` (a refresh's progress; ``""``: none) beside the counts."""
        self.refresh_note = text
        self.update_counts()

    def set_export_note(self, text: str) -> None:
        """Show ``text`` (an export's progress; ``""``: none) beside the counts."""
        self.export_note = text
        self.update_counts()

    def action_back_up(self) -> None:
        from paperdeck.ui.screens.export import back_up_to_file

        back_up_to_file(self, self.store)

    def action_more_like_this(self) -> None:
        """Rank the whole list by likeness to the highlighted paper (``like:ID`` in the filter bar,
        with the filter's field terms kept)."""
        paper_id = self.paper_list.highlighted_id
        if paper_id is None:
            self.notify("No paper is highlighted.", timeout=2)
            return
        from paperdeck.search.query import more_like

        self.query_one(FilterBar).value = more_like(self.filter_text, paper_id)
        self.starred_only = False
        self.set_focus(self.paper_list)

    # -- saved views (paperdeck.ui.screens.list_actions) ----------------------------------------------

    @property
    def views(self) -> list[View]:
        """The views in digit order: built-in, then the user's."""
        from paperdeck.search.views import all_views

        return all_views(self.settings.settings.views)

    def open_view(self, view: View | None) -> None:
        """Show ``view`` (its query in the filter bar; ``None``: every paper) with the list focused."""
        self.show_query(view.query if view is not None else "")

    def show_query(self, text: str) -> None:
        """Show what the query ``text`` selects (``text`` in the filter bar; ``""``: every paper),
        starred or not, with the list focused."""
        self.query_one(FilterBar).value = text
        self.starred_only = False
        self.set_focus(self.paper_list)

    def action_open_view(self, number: int) -> None:
        from paperdeck.ui.screens.list_actions import open_view_number

        open_view_number(self, number)

    def action_views(self) -> None:
        from paperdeck.ui.screens.list_actions import show_views

        show_views(self)

    def action_save_view(self) -> None:
        from paperdeck.ui.screens.list_actions import save_view

        save_view(self)

    def count_view(self, view: View) -> int | None:
        """How many papers ``view`` shows now (``None``: malformed, or naming no paper), waiting
        for the search index if its words need it; call it in a thread."""
        from paperdeck.search.views import view_count

        return view_count(self.searcher, view, build=True) if self.store.loaded else None

    def check_external_changes(self) -> None:
        """Show stars and notes another paperdeck (app or CLI) wrote to this store meanwhile
        (called every ``EXTERNAL_CHECK_S`` and when the terminal regains focus; not while a bulk
        change is writing)."""
        from paperdeck.ui.screens.list_actions import bulk_change_running

        if bulk_change_running(self.app):
            return
        self.following.check_file()
        noted = {pid for pid, record in self.store.all_user_data.items() if record.note}
        try:
            changed = self.store.reload_user_data()
        except StoreError as error:
            self.notify(str(error), title="Cannot read your data", severity="error", markup=False)
            return
        if not changed:
            return
        self.searcher.notes_changed(noted | set(self.store.all_user_data))
        self.paper_list.refresh()
        self._show_detail(self.paper_list.highlighted_id)
        self.update_counts()
        if self._list_reads_user_data():  # tag:x, is:starred…: the list follows the other's change
            self._refilter(after_change=True)

    # -- the highlighted paper ---------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _highlighted(self, event: PaperList.Highlighted) -> None:
        detail = self.query_one(PaperDetail)
        detail.stop_waiting()
        if self._filter_focused():
            # While typing, the top result changes with every key: lay out its abstract only once
            # the typing pauses (each key restarts the wait), so a keystroke costs the list's
            # repaint, not the detail's (the costlier of the two).
            detail.show_after_pause(event.paper_id, self._show_detail, self.DETAIL_WHILE_TYPING_S)
        else:
            self._show_detail(event.paper_id)

    def _show_detail(self, paper_id: str | None) -> None:
        detail = self.query_one(PaperDetail)
        if paper_id is not None and not self.store.loaded:
            detail.show_loading(self.store.row(paper_id))
            return
        paper = self.store.paper(paper_id) if paper_id else None
        user = self.store.user_data(paper_id) if paper_id else None
        summary, rank = self._review_scores(paper.openreview_id if paper else "")
        try:
            changes = self.store.paper_changes(paper_id) if paper_id else []
        except StoreError:
            changes = []
        detail.show(paper, user, summary, rank, changes, followed=self.following.reason(paper_id) if paper_id else "")

    def _review_scores(self, forum: str) -> tuple[ReviewSummary | None, float | None]:
        """A paper's review summary and rank, when the summaries are read (else they are read in a
        worker, and the detail shown again)."""
        reviews = self.store.reviews
        if not forum:
            return None, None
        if not reviews.summaries_read:
            self._read_review_summaries()
            return None, None
        try:
            return reviews.summary(forum), reviews.rank(forum)
        except StoreError:
            return None, None

    @work(thread=True, exclusive=True, group="review-summaries")
    def _read_review_summaries(self) -> None:
        try:
            self.store.reviews.summaries()
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error", timeout=6)
            return
        self.app.call_from_thread(self._show_detail, self.paper_list.highlighted_id)

    def action_reviews(self) -> None:
        """Show the highlighted paper's reviews full screen (:class:`ReviewsScreen`)."""
        self.with_highlighted_paper(self._open_reviews)

    def _open_reviews(self, paper: Paper) -> None:
        from paperdeck.ui.screens.reviews import open_reviews

        if open_reviews(self.app, self.store, paper):
            self._looked_at(paper.id)

    def refresh_user_data(self, paper_ids: list[str]) -> None:
        """Repaint rows, detail, counts and the search index's notes after a change."""
        self.searcher.notes_changed(paper_ids)
        self.following.user_data_changed()
        paper_list = self.paper_list
        if len(paper_ids) > paper_list.size.height:  # a bulk change: repaint the rows on screen, once
            paper_list.refresh()
        else:
            for paper_id in paper_ids:
                paper_list.refresh_paper(paper_id)
        if self.paper_list.highlighted_id in paper_ids:
            self._show_detail(self.paper_list.highlighted_id)
        self.update_counts()
        if paper_ids and self._list_reads_user_data():
            self._refilter(after_change=True)
        elif self.stats_listener is not None:
            self.stats_listener()

    def _list_reads_user_data(self) -> bool:
        """Whether the list shown depends on the user's stars, statuses, tags or notes: starred
        only, or a query that reads them (:attr:`Query.reads_user_data
        <paperdeck.search.query.Query.reads_user_data>`)."""
        if self.starred_only:
            return True
        if not self.filter_text.strip():
            return False
        from paperdeck.search.query import parse_query

        return parse_query(self.filter_text).reads_user_data

    def view_ids(self) -> list[str]:
        """The paper ids in the current view, in order."""
        return self._view_ids

    # -- statistics (paperdeck.ui.screens.stats) --------------------------------------------------

    def highlighted_paper_id(self) -> str | None:
        """The paper highlighted in the list, ``None`` for none."""
        return self.paper_list.highlighted_id

    def view_label(self) -> str:
        """``"all papers"``, ``"view Orals"`` or ``"filter: diffusion"``, then ``", starred"``
        when only starred papers are shown (the filter text made one safe line)."""
        text = self.filter_text.strip()
        view = next((v.name for v in self.views if v.query == text), None) if text else None
        label = "all papers" if not text else f"view {view}" if view is not None else f"filter: {text}"
        return one_line(label) + (", starred" if self.starred_only else "")

    def action_statistics(self) -> None:
        """Show the statistics of the view (:class:`~paperdeck.ui.screens.stats.StatsScreen`)."""
        from paperdeck.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self))

    # -- following (paperdeck.ui.screens.follows) ---------------------------------------------

    def follows_changed(self) -> None:
        """The papers followed are others now: repaint the rows, the detail, and a filter using
        ``is:followed``."""
        self.paper_list.refresh()
        self._show_detail(self.paper_list.highlighted_id)
        if "followed" in self.filter_text:
            self._refilter()

    def action_follow_author(self) -> None:
        self.following.follow_author()

    def action_follow_keyword(self) -> None:
        self.following.follow_keyword()

    def action_follow_query(self) -> None:
        self.following.follow_query()

    def action_follows(self) -> None:
        self.following.show_follows()
