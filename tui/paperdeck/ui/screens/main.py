"""The main screen: filter bar, list pane, detail pane, and the layout of the panes.

Its state lives in parts it owns: a :class:`~paperdeck.ui.screens.list_filter.ListFilter` (the
filter, the query run, the sort order, the counts and hints), a
:class:`~paperdeck.ui.screens.loader.Loader` (the catalogue and the search index read after the
first frame), a :class:`~paperdeck.ui.screens.follows.Following`, the
:class:`~paperdeck.ui.screens.held_keys.HeldKeys` and a
:class:`~paperdeck.ui.screens.change_marks.ChangeMarks` (the rows' "what changed" marks, the
papers seen), these three made at their first use, after the first frame; the detail pane
holds its own wait for a pause in the typing. The screen wires them together and forwards its
keys to them.

State flows down (the screen tells the list which ids to show and the detail pane which paper);
messages flow up (the list reports the highlighted paper, the filter bar reports its text).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Container, Sequence
from functools import cached_property, partial
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Input

from paperdeck.model.errors import StoreError
from paperdeck.store.settings import (
    LIST_WIDTH_MAX,
    LIST_WIDTH_MIN,
    LIST_WIDTH_STEP,
    SORT_LABELS,
    SORTS,
    SettingsFile,
)
from paperdeck.store.store import Store
from paperdeck.ui._lines.frames import after_first_frame, forget_repaints_of_first_frame, paint_waits
from paperdeck.ui._lines.timers import one_shot
from paperdeck.ui.commands import bindings
from paperdeck.ui.no_paper import say_no_paper
from paperdeck.ui.query_gate import QueryGate
from paperdeck.ui.screens.list_filter import ListFilter
from paperdeck.ui.screens.loader import Loader
from paperdeck.ui.screens.reading import ReadingScreen
from paperdeck.ui.screens.view_columns import scope_columns
from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.model.review_summary import Rank, ReviewSummary
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.views import View
    from paperdeck.stats.figures import Figures
    from paperdeck.ui.screens.change_marks import ChangeMarks
    from paperdeck.ui.screens.follows import Following
    from paperdeck.ui.screens.held_keys import HeldKeys
    from paperdeck.ui.screens.query_recall import QueryRecall

#: The papers marked changed before the change marks are made (none).
_NONE_CHANGED: frozenset[str] = frozenset()

#: Screen widths (cells): from ``SIDE_BY_SIDE_FROM`` the detail pane is beside the list; from
#: ``LIST_ONLY_BELOW`` up to that, below it; narrower, the list is alone (``enter`` reads a paper).
SIDE_BY_SIDE_FROM, LIST_ONLY_BELOW = 140, 60
#: Screen rows from which the detail pane below the list shows a few lines of the paper (and the
#: list a few rows): on fewer, the list is alone, as on a narrow screen.
STACKED_FROM_ROWS = 16


class MainScreen(ReadingScreen, Screen[None]):
    """Browse, filter, star and annotate the papers of a store."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("main")  # filter, sort, layout, export, views

    #: The list has the focus from the start: focused as the screen is composed, not moved there
    #: in ``on_mount`` (which restyled the screen once more before the first frame).
    AUTO_FOCUS = "#paper-list"

    # The screen's timings, handed to its parts as it is made.

    #: Seconds of typing pause before the detail pane follows the top result, and before a long
    #: filtered list is counted by status (:class:`ListFilter`).
    DETAIL_WHILE_TYPING_S: ClassVar[float] = 0.15

    #: Seconds a query hint cut beside the filter bar stays before it is shown whole in a toast.
    HINT_TOAST_S: ClassVar[float] = 1.0

    #: Seconds between looks for stars and notes written by another paperdeck on the same store.
    EXTERNAL_CHECK_S: ClassVar[float] = 2.0
    #: Seconds a query that may be slow (:meth:`ListFilter.may_be_slow`) waits for a next key
    #: before it starts.
    SLOW_QUERY_WAIT_S: ClassVar[float] = 0.08
    #: Seconds without a key or mouse event before the catalogue is parsed once the search index
    #: is read (:class:`Loader`): parsing holds the interpreter for a while, and a query typed
    #: first shows first.
    PARSE_AFTER_INPUT_S: ClassVar[float] = 0.4

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
        #: The list shown: the filter, its query, the sort order, the counts and the hints.
        self.list_filter = ListFilter(
            self, self.marks, store, self.settings, searcher, slow_query_wait_s=self.SLOW_QUERY_WAIT_S,
            tally_after_s=self.DETAIL_WHILE_TYPING_S, hint_toast_s=self.HINT_TOAST_S,
            scope_changed=self.scope_changed,
        )  # fmt: skip
        #: Holds the work due after start-up while a query typed is under way (until its result
        #: is painted): the footer's mount, the interval checks, the start-up worker's steps.
        self.query_gate = QueryGate(self, self._answers_filter, self._paint_waits)
        self.list_filter.changed = self.query_gate.busy
        self.list_filter.list_shown = self.list_shown
        self.list_filter.counts.hold = self.query_gate.when_quiet
        #: The catalogue and the search index, read after the first frame.
        self.loader = Loader(
            self, store, searcher, catalogue_loaded=self._catalogue_loaded, index_built=self._index_built,
            index_replaced=self._index_replaced, mount_footer=self._mount_footer,
            parse_after_input_s=self.PARSE_AFTER_INPUT_S, scope_ids=self.list_filter.scope_ids,
            scope=lambda: self.list_filter.scope, gate=self.query_gate,
        )  # fmt: skip
        self.list_filter.index_suspect = self.loader.check_now
        #: The mean of each review's first rating of the papers whose mean moved since, by paper id
        #: (the list marks them ``5.3 ↑6.0``); filled once the review summaries are read.
        self._first_means: dict[str, float] = {}
        self.list_filter.first_means = self._first_means
        self._moves_of: object = None  # the summaries they were found in
        self._moves_reading = False  # a read _review_scores started is under way
        #: The venue scope whose papers the scales and the moves were last found over (``None``:
        #: not yet; empty: every venue), see scope_changed.
        self._read_for_scope: frozenset[str] | None = None
        self._resumed = False  # the screen has been shown (ScreenResume) once
        self._first_look_asked = False  # ChangeMarks.first_look, once, after the first frame
        # A highlight lost makes the held keys' part (which then takes the list filter's calls);
        # until a key is held, a result has none to run.
        self.list_filter.highlight_lost = lambda paper_id: self.held_keys.highlight_moved(paper_id)

    @cached_property
    def change_marks(self) -> ChangeMarks:
        """The rows' "what changed" marks and the papers seen: made after the first frame (the
        change log is read then, the first frame shows no mark), or at a paper opened before it."""
        from paperdeck.ui.screens.change_marks import ChangeMarks

        return ChangeMarks(
            self.list_filter, self.loader, show_detail=self._show_detail,
            record_seen=lambda label, before, after: self.history.record_seen(label, before, after),
        )  # fmt: skip

    def _changed_papers(self) -> Container[str]:
        """The list's changed marks: none before :attr:`change_marks` is made."""
        marks = self.__dict__.get("change_marks")
        return _NONE_CHANGED if marks is None else marks.changed()

    def _changes_after_first_frame(self) -> None:
        """After the first frame: the store's first look recorded and the undo steps of earlier
        sessions read in a thread (once each), then the change log read
        (:meth:`ChangeMarks.read_changes`, itself once)."""
        marks = self.change_marks
        if not self._first_look_asked:
            self._first_look_asked = True
            marks.first_look()
            self._read_undo_steps()
        marks.read_changes()

    @cached_property
    def following(self) -> Following:
        """The papers the user's follows match (marked in the list, named in the detail pane):
        made at first use, after the first frame (none are matched before the catalogue is)."""
        from paperdeck.ui.screens.follows import Following

        return Following(self.list_filter, self.loader, changed=self.follows_changed)

    @cached_property
    def held_keys(self) -> HeldKeys:
        """The row and mark keys typed while the list does not answer the typed query yet: made
        at the first key an action runs for, or the first highlight another process took away."""
        from paperdeck.ui.screens.held_keys import HeldKeys

        return HeldKeys(self, self.list_filter)

    def _is_followed(self, paper_id: str) -> bool:
        """The list's follow mark: none before :attr:`following` is made."""
        following = self.__dict__.get("following")
        return following is not None and following.is_followed(paper_id)

    def compose(self) -> ComposeResult:
        # The top bar is the first row of the screen's grid (main.tcss): the filter bar, then the counts.
        yield FilterBar(id="filter")
        yield CountsLabel(id="counts")
        with Horizontal(id="panes"):
            yield PaperList(
                self.store.row, self.user_data_shown, self.marked.__contains__, self._changed_papers,
                headings=True, id="paper-list", followed=self._is_followed, moved=self._first_means.get,
                venue_at=self._venue_at, row_in=self.store.row,
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
        if row.children or not row.is_attached:  # mounted already, or the app is closing (a quit at once)
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
        """How the panes are arranged at the screen's size: ``"side-by-side"``, ``"stacked"``
        (detail below the list) or ``"list-only"`` (``SIDE_BY_SIDE_FROM``, ``LIST_ONLY_BELOW``,
        ``STACKED_FROM_ROWS``)."""
        width = self.size.width or self.app.size.width
        if width >= SIDE_BY_SIDE_FROM:
            return "side-by-side"
        height = self.size.height or self.app.size.height
        return "stacked" if width >= LIST_ONLY_BELOW and height >= STACKED_FROM_ROWS else "list-only"

    def _apply_layout(self) -> None:
        chosen = self.settings.settings
        mode = self.layout_mode
        self.set_class(mode == "stacked", "-stacked")
        self.set_class(mode == "list-only", "-list-only")
        self.query_one(PaperDetail).display = chosen.show_detail and mode != "list-only"
        beside = chosen.show_detail and mode == "side-by-side"
        self.paper_list.styles.width = f"{chosen.list_width}%" if beside else "1fr"

    def on_resize(self) -> None:
        self._apply_layout()  # nothing changes while the size stays in one mode
        self.update_counts()  # fitted to the width

    def with_highlighted_paper(self, use: Callable[[Paper], object]) -> None:
        """Call ``use`` with the highlighted paper, now or once the catalogue is parsed
        (:meth:`Loader.with_highlighted_paper`)."""
        self.loader.with_highlighted_paper(use)

    def action_read(self) -> None:
        """Show the highlighted paper full screen (:class:`PaperReader`); escape comes back."""
        self.with_highlighted_paper(self._read)

    def _read(self, paper: Paper) -> None:
        from paperdeck.ui.screens.reader import PaperReader

        self.app.push_screen(PaperReader(paper, self.store.user_data(paper.id), self.store, self.list_filter.terms))
        self.change_marks.looked_at(paper.id)

    def _venue_at(self, paper_id: str) -> str:
        """A paper's venue, as the list's venue column shows it."""
        from paperdeck.search.venues import venue_name, venue_of

        return venue_name(venue_of(self.store, paper_id))

    def action_mark_all_seen(self) -> None:
        """Every change recorded so far is seen (:meth:`ChangeMarks.mark_all_seen`)."""
        self.change_marks.mark_all_seen()

    def changes_seen_moved(self) -> None:
        """The "every change seen" mark moved (``C``, or its undo): :meth:`ChangeMarks.seen_moved`."""
        self.change_marks.seen_moved()

    def action_toggle_detail(self) -> None:
        self._save(show_detail=not self.settings.settings.show_detail)
        if self.layout_mode == "list-only":
            state = "on" if self.settings.settings.show_detail else "off"  # saved: it applies once wider
            where = f"{LIST_ONLY_BELOW} columns and {STACKED_FROM_ROWS} rows"
            self.notify(f"Detail pane {state} from {where}; here, enter reads a paper.")

    def action_list_width(self, direction: int) -> None:
        width = self.settings.settings.list_width + direction * LIST_WIDTH_STEP
        self._save(list_width=max(LIST_WIDTH_MIN, min(LIST_WIDTH_MAX, width)))
        if self.layout_mode != "side-by-side":
            self.notify(f"Below {SIDE_BY_SIDE_FROM} columns the list takes the whole width.")

    def _save(self, **changes: object) -> None:
        """Change and persist settings, then lay the panes out again; a failure to write is a
        message, not a crash."""
        from paperdeck.ui.saving import save_settings  # deferred: no setting changes before the first frame

        save_settings(self, self.settings, **changes)
        self._apply_layout()

    def on_mount(self) -> None:
        list_filter = self.list_filter
        # The saved index's file, while the first frame is made: its header and table only, its
        # CRC checked once the typing pauses (the loader), not before the first query ranks.
        self.searcher.read_ahead(list_filter.typed_words, check_later=True)
        self._apply_layout()
        self.paper_list.set_columns(*scope_columns(self.store, list_filter.scope))  # the first paint has them
        list_filter.show_first()
        # Each change of the filter bar's text re-ranks the list in the step that handles it, so
        # both show in one frame (Input.Changed arrives a frame later); a burst of keys, once.
        self.watch(self.query_one(FilterBar), "value", self._filter_typed, init=False)
        if self.store.loaded:  # its columns are set above
            self._show_detail(self.paper_list.highlighted_id)
            self._find_scales()
        if not self.store.loaded:  # a view of the scope reads its venues' papers only
            self.store.defer_outside(list_filter.scope)
        # Parse the catalogue and index it only once the list is on screen: right after the first
        # frame (a query typed at once finds the index on its way), else once the screen is idle.
        self.loader.start()
        forget_repaints_of_first_frame(self)  # the first frame is drawn whole: not twice
        after_first_frame(self, self._changes_after_first_frame)  # the rows' changed marks, then
        self.call_after_refresh(self._changes_after_first_frame)
        # At the latest (an index rebuilt, a failure); neither it nor the checks come between a
        # key and the list answering it painted (timers keep wall time: a slow machine's query
        # outlasts them).
        gate = self.query_gate
        one_shot(self, self.FOOTER_BY_S, partial(gate.when_quiet, self._mount_footer))
        self.set_interval(self.EXTERNAL_CHECK_S, partial(gate.when_quiet, self.check_external_changes))

    def _answers_filter(self) -> bool:
        """Whether the list answers the filter as it stands and no key waits to be handled (the
        rest of a burst: the query typed after ``/``)."""
        return self.list_filter.answers_filter() and not getattr(self.app, "keys_waiting", False)

    def _paint_waits(self) -> bool:
        """Whether the list's or the filter bar's state is still to be painted, or keys typed
        into the bar wait to be handled (:func:`~paperdeck.ui._lines.frames.paint_waits`); never
        while another screen is in front (this one paints nothing then). ``is_active``, not
        ``is_current``: under a dialog or a full screen (the statistics, the reviews) Textual
        counts this one current, as a background, and keeps it asking for a repaint it never
        draws: the gate looked again every frame and held its work until that screen closed."""
        return self.is_active and paint_waits(self, self.paper_list, self.query_one(FilterBar))

    def _index_notice(self, line: str) -> None:
        """Say that the saved search index could not be used (from the thread building it)."""
        try:
            self.app.call_from_thread(self.app.notify, line, severity="warning", timeout=8)
        except RuntimeError:  # on the event loop already
            self.app.notify(line, severity="warning", timeout=8)

    def _catalogue_loaded(self) -> None:
        self.paper_list.set_columns(*scope_columns(self.store, self.list_filter.scope))
        self._find_scales()
        self.following.refresh()  # the follows are matched over the papers: a saved index came first
        self._show_detail(self.paper_list.highlighted_id)

    def _index_built(self) -> None:
        self.following.refresh()
        self.list_filter.index_built()

    def _index_replaced(self) -> None:
        """The saved search index failed its CRC check and was built again: the query shown,
        ranked on the damaged file, is ranked again."""
        self.following.refresh()
        self.list_filter.update_counts()
        if self.filter_text.strip():
            self.list_filter.refilter()

    def catalogue_reloaded(
        self, new_ids: Sequence[str] = (), highlight: str | None = None, by_this_app: bool = False
    ) -> None:
        """Show the papers as the store holds them now (it read the catalogue again: another
        paperdeck imported meanwhile): the same query, sort and starred-only, the highlighted
        paper kept (under its new id when the import merged it into a better-known record); one
        that is gone leaves the highlight on its nearest neighbour still listed, and the screen
        says so (:meth:`HeldKeys.highlight_moved
        <paperdeck.ui.screens.held_keys.HeldKeys.highlight_moved>`: the keys pressed for it are
        dropped, not run on the neighbour). ``new_ids``: the papers the catalogue gained; a notice
        says which a follow matches. ``highlight``: the paper to highlight instead (the next one,
        after this app's own removal). ``by_this_app``: this app made the change (its removal or
        undo, which says what it did): a highlighted paper gone is not said to be another
        paperdeck's doing."""
        self.following.refresh(new_ids)
        resolve = self.store.resolve
        highlighted = highlight or self.paper_list.highlighted_id
        kept = resolve(highlighted) if highlighted else None
        # The rows around the highlighted one as listed before, each under its id now (read
        # lazily, up to the first one still listed).
        nearby = map(resolve, self.list_filter.nearby_rows()) if highlight is None else ()
        self.paper_list.set_columns(*scope_columns(self.store, self.list_filter.scope))
        self._find_scales()
        must_keep = kept if highlight is None and not by_this_app else None
        self.list_filter.refilter_later(kept, reloaded=True, nearby=nearby, must_keep=must_keep)

    # -- filtering (ListFilter) -----------------------------------------------------------------

    @property
    def filter_text(self) -> str:
        """The filter text (:attr:`ListFilter.filter_text`)."""
        return self.list_filter.filter_text

    @property
    def starred_only(self) -> bool:
        """Whether only starred papers are shown (:attr:`ListFilter.starred_only`)."""
        return self.list_filter.starred_only

    @property
    def applied_filter(self) -> tuple[str, bool]:
        """The (filter text, starred-only) whose result the list shows now (benchmarks wait on it)."""
        return self.list_filter.applied_filter

    @property
    def query_hint(self) -> str | None:
        """A hint about a malformed query (shown instead of the counts), else ``None``."""
        return self.list_filter.query_hint

    @property
    def refresh_note(self) -> str:
        """How far a refresh has got (:mod:`paperdeck.ui.refresh`), ``""`` when none runs."""
        return self.list_filter.counts.refresh_note

    @property
    def chosen_order(self) -> str:
        """The sort order chosen (``SORTS``)."""
        return self.list_filter.chosen_order

    def update_counts(self) -> None:
        """Repaint the counts beside the filter bar (:meth:`ListFilter.update_counts`)."""
        self.list_filter.update_counts()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        """Take the bar's text as it is now (already done by :meth:`_filter_typed`: then nothing
        happens). Not the message's value: keys typed in a burst (pasted, or typed while the
        screen was busy) each leave a message that arrives after the last key, and its value,
        set back, would rank every shorter text once more."""
        self.list_filter.filter_text = event.input.value

    @on(FilterBar.Pasted)
    def _pasted(self, event: FilterBar.Pasted) -> None:
        """A paste into the bar: an id the query language would not read as one (a bare id in
        another case, an older alias) but every command taking ids reads as a paper's is looked
        up (in a thread) and put in as that paper's ``id:`` term."""
        self._look_up_pasted(event.text)

    @work(thread=True, exclusive=True, group="undo-steps")
    def _read_undo_steps(self) -> None:
        """Read the undo steps kept from earlier sessions off the event loop (``u`` then finds
        them read); one that cannot be read is said once (its steps are ignored, the file kept)."""
        undo_steps = self.store.undo_steps
        undo_steps.steps()
        if undo_steps.problem is not None:
            with contextlib.suppress(RuntimeError):  # the app has ended meanwhile
                self.app.call_from_thread(
                    self.notify, undo_steps.problem, title="Undo steps", severity="warning", timeout=10, markup=False
                )

    @work(thread=True, exclusive=True, group="pasted-id")
    def _look_up_pasted(self, pasted: str) -> None:
        from paperdeck.search.selection import pasted_paper_term

        try:
            term = pasted_paper_term(self.store, pasted)
        except StoreError:
            return  # the text stays as pasted: a word to search for
        if term:
            self.app.call_from_thread(self._name_pasted, pasted, term)

    def _name_pasted(self, pasted: str, term: str) -> None:
        """Put ``term`` where ``pasted`` stands alone in the bar (left as it is when the user
        changed it meanwhile)."""
        import re

        bar = self.query_one(FilterBar)
        value, count = re.subn(rf"(?<!\S){re.escape(pasted)}(?!\S)", lambda _: term, bar.value, count=1)
        if count:
            bar.value = value
            bar.cursor_position = len(value)

    def _filter_typed(self, value: str) -> None:
        """A change of the bar's text (:meth:`ListFilter.typed`); the detail waits for a pause."""
        self.list_filter.typed(value)
        self.query_one(PaperDetail).keep_waiting()

    def action_cycle_sort(self) -> None:
        self.sort_by(SORTS[(SORTS.index(self.list_filter.order) + 1) % len(SORTS)])

    def action_sort_by(self, order: str) -> None:
        self.sort_by(order)

    def sort_by(self, order: str) -> None:
        """Order the list by ``order`` (``SORTS``): with a query in the bar, that query's list until
        the bar is blank (:attr:`ListFilter.order`); else the saved sort, remembered."""
        if self.list_filter.sorting_query:
            self.notify(f"Sorted by {self.list_filter.sort_label(order)} for this query; the saved sort is "
                        f"{SORT_LABELS[self.chosen_order]}.")  # fmt: skip
            self.list_filter.sort_query(order)
            return
        self._save(sort=order)
        self.notify(f"Sorted by {SORT_LABELS[order]}.")
        self.list_filter.sort_saved()

    def _filter_focused(self) -> bool:
        return isinstance(self.focused, FilterBar)

    def action_focus_filter(self) -> None:
        """Into the filter bar, its query selected whole: what is typed next replaces it (a new
        search after ``m``'s ``like:…``), while ← → ``home`` ``end`` keep it to edit."""
        if self._filter_focused():
            raise SkipAction  # "/" is text in the filter bar
        filter_bar = self.query_one(FilterBar)
        self.set_focus(filter_bar)
        filter_bar.select_all()  # after the focus: the bar keeps no selection it was given unfocused

    def action_leave_filter(self) -> None:
        """Back to the list, keeping the filter (enter or ↓ in the filter bar); not while the
        query typed could not run (a hint beside the counts): the list, dimmed, is the last good
        query's, and a row key there would act on papers the query never found."""
        if not self._filter_focused():
            raise SkipAction  # the key belongs to the focused widget
        list_filter = self.list_filter
        if list_filter.query_hint is not None and list_filter.applied_filter == (
            list_filter.filter_text,
            list_filter.starred_only,
        ):
            self.app.bell()
            self.notify(
                f"The query did not run ({list_filter.query_hint}): the dimmed list is the last one that did. "
                "Fix the query, or escape clears it.",
                severity="warning",
                timeout=6,
            )
            return
        self.query_recall.keep(list_filter.filter_text)
        # set_focus, not focus(): focus() is applied later, and keys typed meanwhile would go to
        # the widget being left ("prun⏎j" must not filter for "prunj").
        self.set_focus(self.paper_list)

    @cached_property
    def query_recall(self) -> QueryRecall:
        """The filter bar's recall of past queries (made at first need)."""
        from paperdeck.ui.screens.query_recall import QueryRecall

        return QueryRecall(self, self.store.data_dir)

    def action_older_query(self) -> None:
        """In the filter bar: the query run before the one shown (``Up``, as in a shell)."""
        if not self._filter_focused():
            raise SkipAction  # the list's own up
        if not self.query_recall.older(self.query_one(FilterBar)):
            self.app.bell()

    def action_newer_query(self) -> None:
        """In the filter bar: the query run after the one shown, at last the text typed; with no
        recall under way, back to the list (``Down``)."""
        if self._filter_focused() and self.query_recall.newer(self.query_one(FilterBar)):
            return
        self.action_leave_filter()

    def action_escape(self) -> None:
        """In the filter bar: clear it (the query kept in the bar's history: ``Up`` recalls it)
        and go back to the list. Elsewhere: drop the keys held for a
        search still running (:class:`~paperdeck.ui.screens.held_keys.HeldKeys`), else clear the
        marks, else the filter, else starred-only."""
        filter_bar = self.query_one(FilterBar)
        if self._filter_focused():
            self.query_recall.keep(filter_bar.value)  # ↑ in the bar brings it back
            filter_bar.value = ""
            self.set_focus(self.paper_list)
        elif self.held_keys.drop("escape") or self.clear_marks():
            return
        elif filter_bar.value:
            self.query_recall.keep(filter_bar.value)
            filter_bar.value = ""
        elif self.starred_only:
            self.list_filter.starred_only = False
        else:
            raise SkipAction

    def action_toggle_starred_only(self) -> None:
        self.list_filter.starred_only = not self.starred_only

    def action_export(self) -> None:
        """Write the marked papers, else the papers of the view, to a file (the ending picks the format)."""
        from paperdeck.ui.screens.export import export_papers_to_file
        from paperdeck.ui.screens.list_actions import export_selection

        if (chosen := export_selection(self.list_filter)) is not None:
            export_papers_to_file(self, self.store, *chosen)

    def action_refresh(self) -> None:
        """Fetch the store's venue again in a worker (:mod:`paperdeck.ui.refresh`)."""
        from paperdeck.ui.refresh import start_refresh

        start_refresh(self.app, self.store, self.list_filter.counts.set_refresh_note)

    def set_export_note(self, text: str) -> None:
        """Show ``text`` (an export's progress; ``""``: none) beside the counts."""
        self.list_filter.counts.set_export_note(text)

    def action_remove_papers(self) -> None:
        """Remove the marked papers, else the highlighted one, from the store, after asking."""
        from paperdeck.ui.screens.removing import remove_papers

        remove_papers(self)

    def action_undo_import(self) -> None:
        """Take back the last import or removal, after asking."""
        from paperdeck.ui.screens.removing import undo_last_change

        undo_last_change(self)

    def action_back_up(self) -> None:
        from paperdeck.ui.screens.export import back_up_to_file

        back_up_to_file(self, self.store)

    def action_more_like_this(self) -> None:
        """Rank the whole list by likeness to the highlighted paper (``like:ID``, field terms kept)."""
        paper_id = self.paper_list.highlighted_id
        if paper_id is None:
            say_no_paper(self)
            return
        from paperdeck.search.query import more_like

        self.list_filter.show_query(more_like(self.filter_text, paper_id))

    # -- saved views (paperdeck.ui.screens.list_actions) ----------------------------------------------

    @property
    def views(self) -> list[View]:
        """The views in digit order: built-in, then the user's (the palette lists them)."""
        return self.list_filter.views

    def action_open_view(self, number: int) -> None:
        from paperdeck.ui.screens.list_actions import open_view_number

        open_view_number(self.list_filter, number)

    def action_venues(self) -> None:
        """Pick the venues shown (:class:`~paperdeck.ui.screens.venues.VenuesScreen`)."""
        from paperdeck.ui.screens.venues import pick_venues

        pick_venues(self.list_filter)

    def action_views(self) -> None:
        from paperdeck.ui.screens.list_actions import show_views

        show_views(self.list_filter)

    def action_save_view(self) -> None:
        from paperdeck.ui.screens.list_actions import save_view

        save_view(self.list_filter)

    def check_external_changes(self) -> None:
        """Show stars and notes another paperdeck (app or CLI) wrote to this store meanwhile
        (called every ``EXTERNAL_CHECK_S`` and when the terminal regains focus; not while a bulk
        change or a save is writing). Free while the user's data is unchanged on disk: its
        shards are stat'ed, and only when one changed are the records copied and read again."""
        from paperdeck.ui.screens.list_actions import bulk_change_running

        if bulk_change_running(self.app) or (self._saves is not None and self._saves.pending):
            return  # read once the writes are done
        self.following.check_file()
        try:
            if not self.store.user_data_changed_on_disk():
                self.failures.saved("read")  # the data as last read: readable (again)
                return  # the shards stat'ed: nothing read, no record copied
            noted = {pid for pid, record in self.store.all_user_data.items() if record.note}
            changed = self.store.reload_user_data()
        except StoreError as error:
            # One toast while the data cannot be read, replaced by the next check's, gone once one reads.
            self.failures.failed("read", str(error), title="Cannot read your data")
            return
        self.failures.saved("read")
        if not changed:
            return
        self.searcher.notes_changed(noted | set(self.store.all_user_data))
        self.paper_list.refresh()
        self._show_detail(self.paper_list.highlighted_id)
        self.update_counts()
        if self.list_filter.list_reads_user_data():  # tag:x, is:starred…: the list follows the other's change
            self.list_filter.refilter(after_change=True, must_keep=self.paper_list.highlighted_id)

    # -- the highlighted paper ---------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _highlighted(self, event: PaperList.Highlighted) -> None:
        """The list's highlighted paper changed: the detail pane follows it
        (:meth:`_follow_highlighted`), unless it shows it already and nothing waits (a list shown
        had it follow the paper first: :meth:`list_shown`)."""
        detail = self.query_one(PaperDetail)
        if detail.waiting or not detail.shows(self.paper_list.highlighted_id):
            self._follow_highlighted()

    def list_shown(self, again: bool = False) -> None:
        """The one place a list shown (:meth:`ListFilter._show_filtered
        <paperdeck.ui.screens.list_filter.ListFilter._show_filtered>`: new rows, the venue scope's,
        the catalogue read again) tells the detail pane: unless it shows the list's highlighted
        paper already (or says none is highlighted, for an empty list) and nothing waits, it
        follows it (:meth:`_follow_highlighted`). The list's message alone left the pane on
        another paper whenever the highlighted one stayed the same (the message is sent on a
        change). ``again``: the paper is shown again, its text read anew (a reload) or other
        words marked."""
        detail = self.query_one(PaperDetail)
        if again or detail.waiting or not detail.shows(self.paper_list.highlighted_id):
            self._follow_highlighted()

    def _follow_highlighted(self) -> None:
        """The detail pane follows the list's highlighted paper: at once or, while the filter bar
        has the focus, once the typing pauses. Either way it shows the paper the list highlights
        when it is shown (:meth:`_show_highlighted`), not the one highlighted when asked: a list
        changed again meanwhile highlights another."""
        detail = self.query_one(PaperDetail)
        detail.stop_waiting()
        if self._filter_focused():
            # While typing, the top result changes with every key: lay out its abstract only once
            # the typing pauses (each key restarts the wait), so a keystroke costs the list's
            # repaint, not the detail's (the costlier of the two).
            detail.show_after_pause(self._show_highlighted, self.DETAIL_WHILE_TYPING_S, self.query_gate.when_quiet)
        else:
            self._show_highlighted()

    def _show_detail(self, paper_id: str | None) -> None:
        detail = self.query_one(PaperDetail)
        if paper_id is not None and not self.store.loaded:
            detail.show_loading(self.store.row(paper_id))
            return
        paper = self.store.paper(paper_id) if paper_id else None
        user = self.user_data_shown(paper_id) if paper_id else None
        summary, rank = self._review_scores(paper)
        try:
            changes = self.store.paper_history(paper_id) if paper_id else []
        except StoreError:
            changes = []
        followed = self.following.reason(paper_id) if paper_id else ""
        try:  # read ahead by the loader: a look-up in memory
            events = self.store.events_of(paper.id) if paper is not None else ()
        except StoreError:
            events = ()
        detail.show(paper, user, summary, rank, changes, followed=followed, terms=self.list_filter.terms, events=events)

    def _review_scores(self, paper: Paper | None) -> tuple[ReviewSummary | None, Rank | None]:
        """A paper's review summary and rank (:meth:`~paperdeck.store.reviews.ReviewStore.paper_rank`),
        when the summaries are read (else they are read in a worker, and the detail shown again)."""
        forum = paper.openreview_id if paper is not None else ""
        reviews = self.store.reviews
        if not forum:
            return None, None
        try:
            # Not read, or read anew: read (and the moves found) in a thread, unless one started
            # here is under way (shown again as the typing goes on).
            current = reviews.summaries_current(self._moves_of)
            if not current and not self._moves_reading:
                self._moves_reading = True
                self._read_review_summaries()
            if not current and not reviews.summary_held(forum):
                return None, None
            return reviews.summary(forum), reviews.paper_rank(paper) if paper is not None else None
        except StoreError:
            return None, None

    @work(thread=True, exclusive=True, group="venue-scales")
    def _find_scales(self) -> None:
        """In a thread, the catalogue parsed: when its rated papers are on more than one scale
        (several venues), have the list show each rating with its scale's top (``6.5/10``) in
        the views that mix scales (the venue scope's, the query's)."""
        from paperdeck.search.venue_ranks import scales_of_venues, scales_shown
        from paperdeck.search.venues import papers_of_scope

        try:
            # The scope's papers: a view lies within it (scope_changed finds them again for more).
            scope = self._read_for_scope = self.list_filter.scope
            papers = papers_of_scope(self.store, scope)
            scales = scales_shown(papers)
            venue_scales = scales_of_venues(papers, scales)
        except StoreError:
            return  # said where the catalogue is read
        self.app.call_from_thread(self.list_filter.set_scales, scales, venue_scales)

    @work(thread=True, exclusive=True, group="review-summaries")
    def _read_review_summaries(self) -> None:
        from paperdeck.search.query_fields import first_means_of  # deferred: no query needs it at start
        from paperdeck.search.venues import papers_of_scope, scope_forums

        try:
            # In a venue scope, its papers' summaries alone (the others' read when it widens).
            reviews = self.store.reviews
            scope = self._read_for_scope = self.list_filter.scope
            forums = scope_forums(self.store, scope)
            summaries = reviews.summaries() if forums is None else reviews.summaries_among(forums)
            first_means = first_means_of(papers_of_scope(self.store, scope), summaries)
        except StoreError as error:
            self.app.call_from_thread(self._moves_failed, str(error))
            return
        self.app.call_from_thread(self._moves_read, summaries, first_means)
        self.app.call_from_thread(self._show_highlighted)

    def _show_highlighted(self) -> None:
        """Show the highlighted paper's detail again (on the event loop: the list is looked up
        there, never from a worker's thread); nothing once the screen has lost its list (the app
        is closing)."""
        from textual.css.query import NoMatches

        try:
            highlighted = self.paper_list.highlighted_id
        except NoMatches:
            return
        self._show_detail(highlighted)

    def scope_changed(self) -> None:
        """The venue scope changed: its columns shown; its scales and moves found when new to them."""
        read, scope = self._read_for_scope, self.list_filter.scope
        self.paper_list.set_columns(*scope_columns(self.store, scope))
        if read is None or not read or (scope and scope <= read):
            return
        if self.store.loaded:
            self._find_scales()
        if self._moves_of is not None:  # read once: the new scope's papers' are read
            self._read_review_summaries()

    def _moves_failed(self, error: str) -> None:
        self._moves_reading = False
        self.notify(error, severity="error")

    def _moves_read(self, summaries: object, first_means: dict[str, float]) -> None:
        self._moves_reading = False
        self._moves_of = summaries
        if first_means != self._first_means:
            self._first_means.clear()
            self._first_means.update(first_means)
            self.list_filter.show_moves()

    def action_reviews(self) -> None:
        """Show the highlighted paper's reviews full screen (:class:`ReviewsScreen`)."""
        self.with_highlighted_paper(self._open_reviews)

    def _open_reviews(self, paper: Paper) -> None:
        from paperdeck.ui.screens.reviews import open_reviews

        if open_reviews(self.app, self.store, paper):
            self.change_marks.looked_at(paper.id)

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
        if paper_ids and self.list_filter.list_reads_user_data():
            self.list_filter.refilter(after_change=True)
        elif self.stats_listener is not None:
            self.stats_listener()
        from paperdeck.ui.screens.paper_marks import MarksPaperShown

        if isinstance(self.app.screen, MarksPaperShown):  # the reader or the reviews of a paper, on top
            self.app.screen.marks_shown()

    def view_ids(self) -> list[str]:
        """The paper ids in the current view, in order."""
        return self.list_filter.view_ids()

    def show_user_data(self, paper_ids: list[str]) -> None:
        """Repaint the rows and the detail of these papers with the saves not written yet (the
        list is filtered again once they are: :meth:`refresh_user_data`)."""
        paper_list = self.paper_list
        for paper_id in paper_ids[: paper_list.size.height + 1]:
            paper_list.refresh_paper(paper_id)
        if paper_list.highlighted_id in paper_ids:
            self._show_detail(paper_list.highlighted_id)

    def saving(self, waiting: bool) -> None:
        """ "saving…" beside the counts while a save waits for the store's lock."""
        self.list_filter.counts.set_save_note("saving…" if waiting else "")

    # -- statistics (paperdeck.ui.screens.stats) --------------------------------------------------

    def highlighted_paper_id(self) -> str | None:
        """The paper highlighted in the list, ``None`` for none."""
        return self.paper_list.highlighted_id

    def view_label(self) -> str:
        """How the statistics name the view (:meth:`ListFilter.view_label`)."""
        return self.list_filter.view_label()

    @property
    def stats_listener(self) -> Callable[[], None] | None:
        """Told when the view or the user's marks change (the statistics screen, while it is open)."""
        return self.list_filter.stats_listener

    @stats_listener.setter
    def stats_listener(self, listener: Callable[[], None] | None) -> None:
        self.list_filter.stats_listener = listener

    @property
    def stats_figures(self) -> tuple[object, Figures] | None:
        """The statistics of the view without the user's marks, as last counted (ahead by the
        :class:`Loader`, then by the statistics screen)."""
        return self.loader.stats_figures

    @stats_figures.setter
    def stats_figures(self, figures: tuple[object, Figures] | None) -> None:
        self.loader.stats_figures = figures

    def action_statistics(self) -> None:
        """Show the statistics of the view (:class:`~paperdeck.ui.screens.stats.StatsScreen`)."""
        from paperdeck.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self))

    def action_schedule(self) -> None:
        """Show the user's conference plan (:class:`~paperdeck.ui.screens.schedule.ScheduleScreen`)."""
        from paperdeck.ui.screens.schedule import ScheduleScreen

        self.app.push_screen(ScheduleScreen(self.store), self._show_planned)

    def _show_planned(self, paper_id: str | None) -> None:
        """Highlight the paper chosen in the plan (``enter`` there): on its row when the list
        shows it, else the filter set to its id (``id:…``), which shows it. A paper outside the
        venue scope widens the scope to take its venue in, and one line says so (``Scope: +
        CVPR 2019``) and names the filter replaced (nothing keeps it: the line is the way back)."""
        if not paper_id:
            return
        papers = self.query_one(PaperList)
        row = papers.row_of(paper_id)
        if row is not None:
            papers.cursor = row
            papers.focus()
            return
        from paperdeck.model.safe_text import one_line
        from paperdeck.search.venues import venue_of

        said = []
        scope, venue = self.list_filter.scope, venue_of(self.store, paper_id)
        if scope and venue and venue not in scope:
            self.list_filter.set_scope([*scope, venue])
            said.append(f"Scope: + {self._venue_at(paper_id)}")
        bar = self.query_one(FilterBar)
        if bar.value.strip():
            said.append(f"the filter was: {one_line(bar.value)}")
        bar.value = f"id:{paper_id}"
        bar.cursor_position = len(bar.value)
        if said:
            line = " · ".join(said)
            self.notify(line[0].upper() + line[1:], markup=False, timeout=8)

    # -- following (paperdeck.ui.screens.follows) ---------------------------------------------

    def follows_changed(self) -> None:
        """The papers followed are others now: repaint the rows, the detail, and a filter using
        ``is:followed``. A match that lands while the app closes finds no list: nothing to do."""
        try:
            paper_list = self.paper_list
        except NoMatches:
            return
        paper_list.refresh()
        self._show_detail(paper_list.highlighted_id)
        if "followed" in self.filter_text:
            self.list_filter.refilter()

    def action_follow_author(self) -> None:
        self.following.follow_author()

    def action_follow_keyword(self) -> None:
        self.following.follow_keyword()

    def action_follow_query(self) -> None:
        self.following.follow_query()

    def action_follows(self) -> None:
        self.following.show_follows()
