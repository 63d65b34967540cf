"""What the main screen's list shows: the filter text and starred-only, the query run on each
change (at once, or in the filter worker), the sort order (its part, :mod:`.list_sorting`), the
venue scope (its part, :mod:`.venue_scope`), the saved views it opens, and the counts beside the
filter bar and the query hints (its part, :mod:`.list_counts`, painting a snapshot of this state).

:class:`ListFilter` is a plain object the main screen owns (not a widget): it holds this state and
drives the screen's list, filter bar and counts label; the screen forwards its keys to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from paperdeck import runtime
from paperdeck.model.errors import StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.reading.marks import Marks
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui.screens.list_counts import ListCounts, ListShown
from paperdeck.ui.screens.list_sorting import SHORT_ORDER_NOTES, ListSorting
from paperdeck.ui.screens.venue_scope import VenueScope
from paperdeck.ui.screens.view_columns import moves_in
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.worker import Worker

    from paperdeck.model.venue import Scale
    from paperdeck.search.query import Query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.views import View

#: The hint shown while a saved search index a query failed on is checked (and built again).
INDEX_CHECKED_HINT = "The saved search index is being checked…"


class ListFilter(ListSorting):
    """The papers the main screen lists (filter text, starred-only, sort order, venue scope:
    :attr:`venue_scope`) and the hints beside the filter bar; the counts there are its part
    :attr:`counts`, painted from a snapshot of this state (:meth:`update_counts`).

    Args:
        screen: the screen whose list (``#paper-list``), filter bar (``#filter``) and counts label
            (``#counts``) this drives; its timers and workers run there.
        marks: the papers the user marked on that screen (counted; exported, else the view).
        store: the papers and the user's data.
        settings: the settings file (the sort order, the saved views).
        searcher: the indexes queries run on.
        slow_query_wait_s: seconds a query that may be slow (:meth:`may_be_slow`) waits for a next
            key before it starts.
        tally_after_s: seconds without a change of list before a long filtered list is counted by
            reading status.
        hint_toast_s: seconds a query hint cut beside the filter bar stays before it is shown
            whole in a toast.
    """

    def __init__(
        self,
        screen: Screen[None],
        marks: Marks,
        store: Store,
        settings: SettingsFile,
        searcher: Searcher,
        *,
        slow_query_wait_s: float,
        tally_after_s: float,
        hint_toast_s: float,
        scope_changed: Callable[[], None] = lambda: None,
    ) -> None:
        self.screen = screen
        self.marks = marks
        self.store = store
        self.settings = settings
        self.searcher = searcher
        self._scope_changed = scope_changed
        self._slow_query_wait_s = slow_query_wait_s
        self._filter_text = ""
        self._starred_only = False
        self._searching = False  # a query waits for an index or runs in a thread: its result not shown yet
        self._view_ids: Sequence[str] = []
        #: How many papers the list's query finds outside the scope (:mod:`paperdeck.search.elsewhere`).
        self._elsewhere: int | None = None
        self._not_starred = 0  # the matches the starred filter leaves out (paperdeck.ui.starred_note)
        #: The counts beside the filter bar and the list's statuses, painted from this state.
        self.counts = ListCounts(
            screen, marks, store, searcher, repaint=self.update_counts, tally_after_s=tally_after_s,
            hint_toast_s=hint_toast_s,
        )  # fmt: skip
        #: The venues shown (their papers, their name, the choice saved).
        self.venue_scope = VenueScope(screen, store, settings, lambda view: self.filter_text.strip() == view.query)
        #: A filter text, whether it filters, how it was read (:attr:`Query.note`, ``""``: as typed),
        #: and whether it ranks by likeness alone (``like:…``, no word nor filtering term).
        self._filters_for: tuple[str, bool, str, bool] = ("", False, "", False)
        #: A hint about a malformed query (shown instead of the counts), else ``None``.
        self.query_hint: str | None = None
        #: The (filter text, starred-only) whose result the list shows now (benchmarks wait on it).
        self.applied_filter: tuple[str, bool] = ("", False)
        #: Told when the view or the user's marks change (the statistics screen, while it is open).
        self.stats_listener: Callable[[], None] | None = None
        #: The first mean of each paper whose mean rating moved, by paper id (the screen fills it
        #: once the review summaries are read; :meth:`show_moves`).
        self.first_means: Mapping[str, float] = {}
        self._moves_shown = False  # whether the list shows the first means' column (show_moves)
        #: Called when a query met an error in a saved search index whose CRC is not checked yet
        #: (:attr:`Searcher.unchecked`): the check is wanted at once (the screen sets it).
        self.index_suspect: Callable[[], object] | None = None
        self._typed_waits = False  # text typed into the filter bar waits to be taken (typed)
        #: The sort picked while the bar holds a query (:attr:`order`), until the bar is blank.
        self._query_order: str | None = None
        self._ranks_for: tuple[str, bool] = ("", False)  # a filter text, and whether words rank it
        #: The words the list, the detail pane and the reader mark: the shown query's words and
        #: their typo matches (:func:`paperdeck.search.highlight.highlight_terms`).
        self.terms: tuple[str, ...] = ()
        #: Whether the list shown does not answer the filter as it stands (a query, a sort or a
        #: reload waits in the ``filter`` worker): from :meth:`refilter_later` until a result is
        #: shown (:meth:`_show_filtered`). The list is dimmed meanwhile.
        self.stale = False
        #: Told once a result (True) or a hint (False) replaced a stale list (the screen runs the
        #: keys it held meanwhile, :class:`~paperdeck.ui.screens.held_keys.HeldKeys`).
        self.answered: Callable[[bool], None] = lambda _answered: None
        #: Told (with the paper's id) when a list shown after another paperdeck's change (a
        #: catalogue read again, user data another process wrote) no longer holds the paper that
        #: was highlighted, before :attr:`answered`: the highlight went to its neighbour, and the
        #: screen says so (:meth:`HeldKeys.highlight_moved
        #: <paperdeck.ui.screens.held_keys.HeldKeys.highlight_moved>`).
        self.highlight_lost: Callable[[str], None] = lambda _paper_id: None
        #: The paper whose highlight the next list shown must keep, else tell :attr:`highlight_lost`.
        self._keep_or_tell: str | None = None
        #: Told on the event loop each time a list is shown (:meth:`_show_filtered`: new rows, the
        #: venue scope's, the catalogue read again), with whether its papers may be drawn otherwise
        #: under the same ids (read again, other words marked): the screen's detail pane follows
        #: the list's highlighted paper there (:meth:`MainScreen.list_shown
        #: <paperdeck.ui.screens.main.MainScreen.list_shown>`).
        self.list_shown: Callable[[bool], None] = lambda _again: None
        #: Told on the event loop when the filter bar's text changed, its text was taken, or a
        #: result or a hint was shown (the screen's :class:`~paperdeck.ui.query_gate.QueryGate`
        #: holds the work due meanwhile until the list answering the filter is painted).
        self.changed: Callable[[], None] = lambda: None

    @property
    def paper_list(self) -> PaperList:
        """The screen's list of papers."""
        return self.screen.query_one(PaperList)

    # -- the filter -----------------------------------------------------------------------------

    @property
    def filter_text(self) -> str:
        """The filter text; set to another, the list is filtered again."""
        return self._filter_text

    @filter_text.setter
    def filter_text(self, text: str) -> None:
        if text != self._filter_text:
            self._filter_text = text
            self.sort_pending = False  # a query typed: searching…, not sorting…
            if not text.strip():
                self._query_order = None  # the query's own sort goes with it
            self.refilter()

    @property
    def starred_only(self) -> bool:
        """Whether only starred papers are shown; set to the other, the list is filtered again."""
        return self._starred_only

    @starred_only.setter
    def starred_only(self, starred_only: bool) -> None:
        if starred_only != self._starred_only:
            self._starred_only = starred_only
            self.refilter()

    # -- the venue scope --------------------------------------------------------------------------

    @property
    def scope(self) -> frozenset[str]:
        """The venues shown (:attr:`VenueScope.venues`; empty: all)."""
        return self.venue_scope.venues

    def scope_ids(self) -> list[str]:
        """Every paper of the scope, in catalogue order (the blank bar's list)."""
        return self.venue_scope.ids()

    def set_scope(self, venues: Sequence[str]) -> None:
        """Show the papers of ``venues`` (empty: every venue): the list is filtered again at once,
        and the scope written to the settings for the next start in a thread (a failure to write
        is said; the scope holds until paperdeck closes)."""
        self.venue_scope.choose(venues)
        self.refilter()
        self._scope_changed()
        self.show_moves()
        self.venue_scope.save()

    def show_moves(self) -> None:
        """Tell the list whether some paper of the view has a moved mean rating (in
        :attr:`first_means`): only then do its wide rows give the first mean a column."""
        self._moves_shown = moves_in(self.first_means, self._view_ids)
        self.paper_list.moves_changed(self._moves_shown)

    def venue_matches(self) -> dict[str, int] | None:
        """How many papers of each venue the filter bar's query selects, whatever the scope
        (starred only too); ``None`` when the bar holds no query, a malformed one, or a ``like:``
        that names no paper. May build indexes: call it in a thread."""
        text = self.filter_text
        if not text.strip() and not self.starred_only:
            return None
        from paperdeck.search.query import parse_query
        from paperdeck.search.selection import LikeError, run_query
        from paperdeck.search.venues import venues_of

        query = parse_query(text) if text.strip() else None
        if query is not None and query.error is not None:
            return None
        try:
            ids = run_query(self.searcher, query, "list") if query is not None else self.store.paper_ids
        except (LikeError, StoreError):
            return None
        except IndexError:
            if not self._index_suspected():
                raise
            return None
        if self.starred_only:
            starred = {pid for pid, record in self.store.all_user_data.items() if record.starred}
            ids = [pid for pid in ids if pid in starred]
        return venues_of(self.store, ids)

    def show_first(self) -> None:
        """Show every paper of the venue scope, as the screen is mounted (the list's columns
        set): in the catalogue's order, then in the saved sort order unless that is relevance or
        list order, at its top (its first paper highlighted, as :meth:`sort_saved` shows a sort)."""
        from paperdeck.search.venues import scoped_ids

        scoped = scoped_ids(self.store, self.scope)  # no scope: the ids past the first screen parsed when asked
        self._view_ids = self.store.ids_view() if scoped is None else list(scoped)
        self.paper_list.show(self._view_ids)
        self.paper_list.set_venue_column(self.venue_scope.mixes_venues(self._view_ids))
        self.paper_list.set_scales_mixed(self.venue_scope.mixes_scales(self._view_ids))
        if self.chosen_order not in ("relevance", "list"):
            self._sort_asked = True  # opens at its top, as a sort asked for does (not on the first paper listed)
            self.refilter()  # the saved sort order
        self.update_counts()

    def typed(self, value: str) -> None:
        """A change of the bar's text. Typed (the bar focused), it is taken once the bar has
        handled the messages waiting for it then (``call_later``: the keys typed after it, and
        its change message): a single key's text is ranked in the step that handles the key,
        before the frame that shows it; keys arriving together (pasted, or typed while the
        screen was busy) rank only the last text, once. Set by the app (the bar not focused),
        it is taken at once."""
        bar = self.screen.query_one(FilterBar)
        self.changed()
        if not bar.has_focus:
            self.filter_text = value
        elif not self._typed_waits:
            self._typed_waits = True
            bar.call_later(self._take_typed)

    def _take_typed(self) -> None:
        """Take the text typed into the bar (:meth:`typed`), as the bar holds it now."""
        self._typed_waits = False
        self.filter_text = self.screen.query_one(FilterBar).value
        self.changed()

    def answers_filter(self) -> bool:
        """Whether the list shown answers the filter as it stands: no text typed waits to be
        taken, no query waits for an index or runs in a worker, its result shown."""
        shown = self.applied_filter == (self._filter_text, self._starred_only)
        return shown and not self._typed_waits and not self.stale

    def typed_words(self) -> str:
        """The words of the query in the filter bar, as :func:`~paperdeck.search.selection.run_query`
        ranks them (``""``: none, or the query is malformed); from any thread."""
        text = self.filter_text
        if not text.strip():
            return ""
        from paperdeck.search.query import parse_query

        query = parse_query(text)
        return " ".join(query.words) if query.error is None else ""

    def show_query(self, text: str) -> None:
        """Show what the query ``text`` selects (``text`` in the filter bar; ``""``: every paper),
        starred or not, with the list focused."""
        self.screen.query_one(FilterBar).value = text
        self.starred_only = False
        self.screen.set_focus(self.paper_list)

    def view_ids(self) -> list[str]:
        """The paper ids in the current view, in order (a list of them made when the view is
        a ranking's :class:`~paperdeck.search.index.IdsAt`)."""
        ids = self._view_ids
        if not isinstance(ids, list):
            ids = self._view_ids = list(ids)
        return ids

    def list_reads_user_data(self) -> bool:
        """Whether the list shown depends on the user's stars, statuses, tags or notes: starred
        only, or a query that reads them (:attr:`Query.reads_user_data
        <paperdeck.search.query.Query.reads_user_data>`)."""
        if self.starred_only:
            return True
        if not self.filter_text.strip():
            return False
        from paperdeck.search.query import parse_query

        return parse_query(self.filter_text).reads_user_data

    def refilter(self, after_change: bool = False, must_keep: str | None = None) -> None:
        """Re-rank and filter the list for the current query.

        Plain words rank fuzzily (the search index); field terms (``decision:oral rating>=6``)
        filter. A malformed query shows a hint and keeps the last good result. Done at once, on
        the event loop (the list changes in the frame that shows the key; from a thread it took
        a second frame), unless something must be waited for (an index) or may be slow: then in
        a worker, which the next keystroke cancels.

        ``after_change``: the user's data changed under a list that reads it (``tag:x``, starred
        only): the highlighted paper stays highlighted if it is still listed, else the one after
        it (else before it) that is. ``must_keep``: the paper highlighted, when another process
        made that change: :attr:`highlight_lost` is told if the list shown no longer highlights it."""
        self.screen.workers.cancel_group(self.screen, "filter")
        text = self.filter_text
        nearby = self.nearby_rows() if after_change else ()
        self._keep_or_tell = must_keep  # a list asked for anew: the last one's is no more
        if not text.strip():
            if self.chosen_order in ("relevance", "list"):
                highlighted = None if self.take_sort_asked() else self.paper_list.highlighted_id
                self._show_filtered(text, self.starred_only, self.scope_ids(), highlighted, nearby)
            else:
                self.refilter_later(nearby=nearby, must_keep=must_keep)
            return
        from paperdeck.search.query import parse_query  # deferred: not needed for the first paint

        query = parse_query(text)
        searcher = self.searcher
        # Words alone need the index, not the parsed catalogue (rows and details read by paper).
        waits = (not self.store.loaded and query.has_filter) or (query.searches_words and searcher.index.built is None)
        waits |= bool(query.like) and searcher.similarity.built is None
        waits |= query.searches_text and searcher.corpus.built is None
        if query.error is None and (waits or self.may_be_slow(query)):
            self.refilter_later(nearby=nearby, must_keep=must_keep)
            return
        self.take_sort_asked()  # a query's list opens at its top, sorted or not
        self._show_filtered(text, self.starred_only, self._query_result(query), None, nearby)

    def nearby_rows(self) -> tuple[str, ...]:
        """The highlighted paper, then the papers after it in the list, then those before it
        (nearest first): which to highlight when a re-filter drops some."""
        ids, cursor = self._view_ids, self.paper_list.cursor
        if not ids or not 0 <= cursor < len(ids):
            return ()
        return (*ids[cursor:], *ids[cursor - 1 :: -1]) if cursor else tuple(ids)

    def refilter_later(
        self,
        keep_id: str | None = None,
        reloaded: bool = False,
        nearby: Iterable[str] = (),
        must_keep: str | None = None,
    ) -> Worker[None]:
        """What :meth:`refilter` does not do at once, in the screen's ``filter`` worker (the one
        running before is cancelled): wait for an index (then the query runs on the event loop,
        as it would have at once), or a slow query (in a thread). ``keep_id``: the paper to keep
        highlighted if it is in the result; ``reloaded``: the catalogue was read again (the index
        is built anew and every row and the detail repainted); ``nearby``: else the first of these
        papers in the result (read once, as the result is shown); ``must_keep``: a paper whose
        highlight another process's change may take away (its current id): :attr:`highlight_lost`
        is told when the result shown does not highlight it. Returns the worker."""
        if must_keep is not None:
            self._keep_or_tell = must_keep
        self._set_stale(True)
        if not self.filter_text.strip() and self.chosen_order not in ("relevance", "list"):
            self.sort_pending = True  # the blank bar's list, sorted in the worker
        return self.screen.run_worker(
            partial(self._refilter_later, keep_id, reloaded, nearby),
            name="_refilter_later",
            group="filter",
            description=f"_refilter_later({keep_id!r}, {reloaded!r}, {nearby!r})",
            exclusive=True,
        )

    async def _refilter_later(self, keep_id: str | None, reloaded: bool, nearby: Iterable[str]) -> None:
        from paperdeck.ui.screens.built_once import wait_built  # deferred: no query before the first frame

        text, starred_only = self.filter_text, self.starred_only
        sort_asked = self.order if self.sort_pending and not reloaded else None  # said once, when asked
        paper_list = self.paper_list
        to_top = self.take_sort_asked()  # a sort asked for opens at its top
        keep = keep_id or (paper_list.highlighted_id if not text.strip() and not to_top else None)
        self.query_hint = None
        self._searching = bool(text.strip()) or self.sort_pending  # the list shown is not this one: say so
        self.update_counts()  # no stale hint (a prefix's) while waiting; "finding similar papers…"
        result: Sequence[str] | str
        if text.strip():
            from paperdeck.search.query import parse_query

            query = parse_query(text)
            if self.may_be_slow(query):
                await asyncio.sleep(self._slow_query_wait_s)  # the next key cancels this one first
            if query.searches_words:  # field terms alone filter before the index is built
                await wait_built(self.screen, self.searcher.index)
            if query.like:
                await wait_built(self.screen, self.searcher.similarity)
            if query.searches_text:
                await wait_built(self.screen, self.searcher.corpus)
            if self.may_be_slow(query) or (query.has_filter and not self.store.loaded):
                result = await asyncio.to_thread(self._query_result, query)
            else:  # what refilter runs at once, now that what it waited for is there
                result = self._query_result(query)
        else:
            result = await asyncio.to_thread(self._sorted, self.scope_ids())
        unmoved = ""
        if not isinstance(result, str) and (sort_asked in ("rise", "fall") if result else text.strip()):
            unmoved = await asyncio.to_thread(self._unmoved_note, text, sort_asked, result)
        if not self.screen.is_attached or not self.screen.query(PaperList):
            return  # the screen is closing (the app ended while the query ran)
        if reloaded:
            paper_list.refresh()  # same ids, new papers: every line may have changed
        self._show_filtered(
            text, starred_only, result, keep, nearby, empty_text=unmoved if not result else "", again=reloaded
        )
        if unmoved and result:
            self.screen.notify(unmoved, markup=False)
        if reloaded:
            await wait_built(self.screen, self.searcher.index)  # the next keystroke finds it built
            self.update_counts()
            self.screen.run_worker(runtime.release_freed_memory, thread=True, group="memory")  # the index replaced

    def _unmoved_note(self, text: str, sort_asked: str | None, result: Sequence[str] | str) -> str:
        """In a thread: why the list shown says nothing of rating moves, when no rating moved
        (:func:`~paperdeck.search.selection.no_rating_moved_text`), else ``""``. For a ``rise`` or
        ``fall`` sort just asked for (``sort_asked``), the papers listed left in list order; for a
        query of rating moves (``moved:up``…) that found none, the scope's papers. Reads every
        paper of the list (or the scope): never on the event loop."""
        from paperdeck.search.selection import no_rating_moved, no_rating_moved_text

        if isinstance(result, str):
            return ""
        if result and sort_asked in ("rise", "fall"):
            return no_rating_moved_text(self.scope) if no_rating_moved(self.store, result) else ""
        if not result and text.strip():
            from paperdeck.search.query import parse_query

            if parse_query(text).reads_moves and no_rating_moved(self.store, self.scope_ids()):
                return no_rating_moved_text(self.scope, sorted_by_move=False)
        return ""

    def index_built(self) -> None:
        """The search index is there: run the query typed meanwhile, unless it waits for the index
        in its worker and shows its result itself (or has shown it already): running it here as
        well would run it twice."""
        self.update_counts()
        screen = self.screen
        waiting = any(w.node is screen and w.group == "filter" and w.is_running for w in screen.workers)
        shown = self.applied_filter == (self.filter_text, self.starred_only)
        if self.filter_text.strip() and not waiting and not shown:
            self.refilter()

    def may_be_slow(self, query: Query) -> bool:
        """Whether a query may take longer than a frame (then it runs in a thread): text terms under
        ``OR``/``-`` are checked paper by paper (``a OR b`` tries every paper); sorts sort all;
        ``review:`` terms read the reviews' word index; the rating-move terms make their columns
        the first time."""
        slow_text = (query.searches_text and not query.only_text_terms) or query.searches_reviews or query.reads_moves
        # is:followed matches the follows (a text scan per keyword, the queries) unless cached.
        return slow_text or query.uses_followed or self.order not in ("relevance", "list")

    def _query_result(self, query: Query) -> Sequence[str] | str:
        """The ids a query selects, or the hint to show instead (a malformed query, a bad ``like:``)."""
        if query.error is not None:
            return query.error
        from paperdeck.search.selection import LikeError, run_query

        try:
            return run_query(self.searcher, query, self.order, self.scope)
        except (LikeError, StoreError) as error:  # StoreError: the reviews' word index unreadable
            return str(error)
        except IndexError:
            if not self._index_suspected():
                raise
            return INDEX_CHECKED_HINT

    def _index_suspected(self) -> bool:
        """A query met an ``IndexError``: when the saved search index it ranked on is not
        checked yet (its CRC is checked once the typing pauses), or was found damaged (a query
        may still run on it), the file is taken for damaged: the check is asked for at once
        (then a bad file is said, built again and the query ranked anew) and True; else False
        (the error is the code's: raise it)."""
        if not (self.searcher.unchecked or self.searcher.found_damaged):
            return False
        if self.index_suspect is not None:
            self.index_suspect()
        return True

    def _show_filtered(
        self,
        text: str,
        starred_only: bool,
        result: Sequence[str] | str,
        keep: str | None,
        nearby: Iterable[str] = (),
        *,
        empty_text: str = "",
        again: bool = False,
    ) -> None:
        """Show the ids selected for ``text`` (keeping ``keep`` highlighted if it is among them,
        else the first of ``nearby`` that is), or, for a hint, the hint and the last good result.
        ``empty_text``: what an empty list says (``""``: how many papers the query finds outside
        the venue scope when it finds some there, else the list's own, "No papers match.").
        A paper whose highlight must be kept (:meth:`refilter_later`'s ``must_keep``, the paper
        highlighted before :meth:`refilter` after another process's change) and is not highlighted
        now is told to :attr:`highlight_lost`, before :attr:`answered`. A list shown is told to
        :attr:`list_shown` (``again``: its papers were read again, the catalogue reloaded)."""
        self._searching = self.sort_pending = False
        was_stale = self.stale
        self._set_stale(False)
        if isinstance(result, str):
            self.query_hint = result
            self._keep_or_tell = None  # the list stays as it was, dimmed: it does not answer this query
            self.paper_list.set_stale(True)
            if again:  # its papers read again
                self.list_shown(True)
        else:
            self.query_hint = None
            ids = result
            if starred_only:
                starred = {pid for pid, record in self.store.all_user_data.items() if record.starred}
                ids = [pid for pid in ids if pid in starred]
            self._view_ids = ids
            self._elsewhere = self._count_elsewhere(text, starred_only, len(ids))
            if not self._elsewhere:  # the note gone: its width starts again
                self.counts.elsewhere_gone()
            self._not_starred = len(result) - len(ids) if starred_only and text.strip() else 0
            if nearby:
                shown = set(ids)
                if keep is None or keep not in shown:
                    keep = next((pid for pid in nearby if pid in shown), keep)
            paper_list = self.paper_list
            terms, before = self._highlight_terms(text), paper_list.highlighted_id
            marks_changed, self.terms = terms != self.terms, terms
            paper_list.set_venue_column(self.venue_scope.mixes_venues(ids))
            if moves_in(self.first_means, ids) != self._moves_shown:  # the first means' column
                self.show_moves()
            paper_list.set_scales_mixed(self.venue_scope.mixes_scales(ids))
            paper_list.set_empty_text(empty_text or self._empty_in_scope(len(ids)))
            paper_list.show(ids, highlight=keep, terms=terms)  # marks compared on the lines kept
            # The same paper highlighted with other words marked is shown again.
            self.list_shown(again or (marks_changed and paper_list.highlighted_id == before))
            lost, self._keep_or_tell = self._keep_or_tell, None
            if lost is not None and paper_list.highlighted_id != lost:
                self.highlight_lost(lost)
        self.applied_filter = (text, starred_only)
        self.update_counts()
        if self.stats_listener is not None and not isinstance(result, str):
            self.stats_listener()
        if was_stale:
            self.answered(not isinstance(result, str))
        self.changed()

    def _empty_in_scope(self, shown: int) -> str:
        """What an empty list says when the query finds papers outside the venue scope
        (``"No papers match in ICLR 2026; 4 more in other venues."``), else ``""`` (the list's own)."""
        if shown or not self._elsewhere:
            return ""
        from paperdeck.search.elsewhere import elsewhere_note

        return f"No papers match in {self.venue_scope.note()}; {elsewhere_note(self._elsewhere)}."

    def _count_elsewhere(self, text: str, starred_only: bool, shown: int) -> int | None:
        """How many papers ``text`` finds outside the scope, where that is cheap to know."""
        if not self.scope:
            return None
        from paperdeck.search.elsewhere import more_elsewhere
        from paperdeck.search.query import parse_query

        query = parse_query(text) if text.strip() else None
        return more_elsewhere(self.searcher, query, self.scope, shown, starred_only=starred_only)

    def _set_stale(self, stale: bool) -> None:
        self.stale = stale
        self.paper_list.set_stale(stale)

    def set_scales(self, scales: Mapping[str, Scale], venue_scales: dict[str, frozenset[Scale]]) -> None:
        """The store's scales, found in a worker: each rated paper's (by id, ``{}`` when the store
        holds one: :func:`~paperdeck.search.venue_ranks.scales_shown`) and each venue's
        (:func:`~paperdeck.search.venue_ranks.scales_of_venues`); the list shows them while its
        view mixes scales."""
        self.venue_scope.venue_scales = venue_scales
        self.paper_list.show_scales(scales)
        self.paper_list.set_scales_mixed(self.venue_scope.mixes_scales(self._view_ids))

    def _highlight_terms(self, text: str) -> tuple[str, ...]:
        """The folded words of a query's plain words and text terms
        (:func:`~paperdeck.search.highlight.marked_words`) and, once the search index is built,
        the words it matched the plain words to with a typo: what the list, the detail pane and
        the reader mark (none for no query)."""
        if not text.strip():
            return ()
        from paperdeck.search.highlight import highlight_terms, marked_words
        from paperdeck.search.query import parse_query

        query = parse_query(text)
        words = query.words
        index = self.searcher.index.built if words else None
        typos = index.typo_words(" ".join(words)) if index is not None else ()
        return highlight_terms(marked_words(query), typos)

    # -- saved views ----------------------------------------------------------------------------

    @property
    def views(self) -> list[View]:
        """The views in digit order: built-in, then the user's."""
        from paperdeck.search.views import all_views

        settings = self.settings.settings
        return all_views(settings.views, settings.view_sorts)

    def open_view(self, view: View | None) -> None:
        """Show ``view`` (its query in the filter bar; ``None``: every paper) with the list focused,
        in the sort it was saved with (:attr:`View.sort`: the query's own sort, as ``O`` picks one;
        a view without one drops the sort the last query had), within the venue scope; a view none
        of whose papers is in the scope says so (:meth:`VenueScope.say_if_view_outside`)."""
        if view is not None:
            self._query_order = view.sort or None
            if view.query == self._filter_text:  # no change of the text to filter again
                self.sort_saved()
        self.show_query(view.query if view is not None else "")
        if view is not None:
            self.venue_scope.say_if_view_outside(view, self._count_within)

    def say_if_view_outside(self) -> None:
        """The view the list shows (its query in the filter bar), if any, says so when none of
        its papers is in the scope (a scope just picked: :meth:`VenueScope.say_if_view_outside`)."""
        text = self.filter_text.strip()
        view = next((v for v in self.views if v.query == text), None) if text else None
        if view is not None:
            self.venue_scope.say_if_view_outside(view, self._count_within)

    def _count_within(self, view: View, scope: frozenset[str]) -> int | None:
        """How many papers ``view`` shows within ``scope`` (empty: every venue); in a thread."""
        from paperdeck.search.views import view_count

        return view_count(self.searcher, view, build=True, scope=scope)

    def count_view(self, view: View) -> int | None:
        """How many papers ``view`` shows now (``None``: malformed, or naming no paper), waiting
        for the search index if its words need it; call it in a thread."""
        from paperdeck.search.views import view_count

        return view_count(self.searcher, view, build=True, scope=self.scope) if self.store.loaded else None

    def view_sort(self) -> str:
        """The sort a view saved now keeps: the query's own (picked with ``O``), else the one in
        effect unless it is relevance (``""``: none, the view's query ranks it)."""
        if self._query_order is not None:
            return self._query_order
        order = self.order
        return "" if order == "relevance" else order

    def view_label(self) -> str:
        """``"all papers"``, ``"view Orals"`` or ``"filter: diffusion"``, then the venue scope
        when it leaves venues out (``" of COLM 2025"``), then ``", starred"`` when only starred
        papers are shown (the filter text made one safe line)."""
        text = self.filter_text.strip()
        view = next((v.name for v in self.views if v.query == text), None) if text else None
        label = "all papers" if not text else f"view {view}" if view is not None else f"filter: {text}"
        scope = f" of {self.venue_scope.note()}" if self.scope else ""
        return one_line(label) + scope + (", starred" if self.starred_only else "")

    # -- the counts -----------------------------------------------------------------------------

    def _query_filters(self) -> bool:
        """Whether the filter bar's text is a query at all: not blank, nor terms that are ignored
        (no letter or digit: a lone ``-``); a malformed query counts as one."""
        text = self.filter_text
        if self._filters_for[0] != text:
            from paperdeck.search.query import parse_query

            query = parse_query(text) if text.strip() else None
            filters = query is not None and bool(query.words or query.tree or query.like or query.error)
            alike = query is not None and bool(query.like) and not (query.words or query.tree or query.error)
            self._filters_for = (text, filters, (query.note or "") if query is not None else "", alike)
        return self._filters_for[1]

    def update_counts(self) -> None:
        """Repaint the counts beside the filter bar and the list's reading-status summary
        (:meth:`ListCounts.show <paperdeck.ui.screens.list_counts.ListCounts.show>`) for the
        list as it stands now."""
        query_filters = self._query_filters()
        filtered = query_filters or self.starred_only
        view = next((v.name for v in self.views if v.query == self.filter_text.strip()), None) if filtered else None
        order_note = self._order_note()
        self.counts.show(
            ListShown(
                text=self.filter_text, starred_only=self.starred_only, query_filters=query_filters,
                query_note=self._filters_for[2], view=view, view_ids=self._view_ids,
                not_starred=self._not_starred, elsewhere=self._elsewhere, searching=self._searching,
                pending_note=self.pending_note, order_note=order_note,
                short_order_note=SHORT_ORDER_NOTES.get(self.order, order_note), query_hint=self.query_hint,
                scope=self.scope, scope_note=self.venue_scope.note(),
                alike_only=self._filters_for[3] and self.order == "relevance",  # else sorted as picked
            )
        )  # fmt: skip

    @property
    def tally_pending(self) -> bool:
        """Whether the list shown waits to be counted by status (:attr:`ListCounts.tally_pending
        <paperdeck.ui.screens.list_counts.ListCounts.tally_pending>`)."""
        return self.counts.tally_pending
