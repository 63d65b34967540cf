"""The counts beside the main screen's filter bar: how many papers the list shows of how many,
with its notes (the venue scope, the stars, the sort, marks, progress, how the query was read,
the matches elsewhere), fitted to the label's room, shorter forms first given up; a query's
hint in their place; and the list's papers by reading status (the list's border), tallied once
the typing pauses where the list is long.

:class:`ListCounts` is a part of :class:`~paperdeck.ui.screens.list_filter.ListFilter`: it holds
the state of the counts alone (the progress notes, the hint's toast, the width the note of the
matches elsewhere keeps, the status tally) and paints a :class:`ListShown`, a snapshot of the
filter's state the filter hands it at each change; it never calls into the filter, but asks it
for a new snapshot through ``repaint``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len

from paperdeck.reading.marks import Marks
from paperdeck.store.store import Store
from paperdeck.ui._lines.timers import one_shot_on
from paperdeck.ui.after_pause import AfterPause
from paperdeck.ui.query_toast import QueryToast
from paperdeck.ui.scope_counts import scoped_user_counts, star_note
from paperdeck.ui.starred_note import STARRED_NOTE, kept_with_count, starred_note
from paperdeck.ui.widgets.counts_label import CountsLabel, counts_text, cut_at_word, fitted, status_summary, wrapped
from paperdeck.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.screen import Screen

    from paperdeck.search.searcher import Searcher

#: The counts label's padding, in cells across (styles: ``#counts``).
COUNTS_PADDING = 3
#: The counts' notes (by index) most wanted first, where the label lacks room for all: marks (at
#: every width: an action takes every marked paper, shown or not), the venue scope, saves waiting,
#: the sort order in effect (a query may rank otherwise than the sort saved; its short form where
#: room is short, :attr:`ListShown.short_order_note`, so that the star count may stay beside it),
#: the star count, a refresh's progress, an export's, starred only, similar papers being found,
#: indexing.
#: How the query was read (10) comes second, then the scope (0; its short forms tried first), then
#: the matches the scope hides (11): the list is the scope's, and without its name its counts
#: mislead.
_NOTES_KEPT = (4, 10, 0, 11, 9, 3, 1, 7, 8, 2, 6, 5)
#: The same with every venue in scope: ``"all venues"`` gives way first.
_NOTES_KEPT_UNSCOPED = (4, 10, 9, 3, 1, 7, 8, 0, 2, 6, 5, 11)
#: The index of the sort order among the counts' notes.
_ORDER_NOTE = 3
#: The notes (the star count, the sort order, marks) the sort gives its short form up for.
_SHORT_ORDER_FOR = (1, 3, 4)
#: The index of a refresh's progress among the counts' notes.
_REFRESH_NOTE = 7
#: The index of the venue scope among the counts' notes.
_SCOPE_NOTE = 0
#: The index of how the query was read (:attr:`Query.note <paperdeck.search.query.Query.note>`).
_QUERY_NOTE = 10
#: The index of the matches outside the venue scope (:mod:`paperdeck.search.elsewhere`).
_ELSEWHERE_NOTE = 11
#: The index of the marks (``2 marked``) among the counts' notes.
_MARKS_NOTE = 4


def _short_marks(note: str) -> str:
    """The marks' note in short, as the rows mark a paper: ``"2 marked"`` → ``"▌ 2"``; ``""``
    stays ``""``."""
    return f"▌ {note.removesuffix(' marked')}" if note else ""


#: What gives way, one step after another, where a venue scope's counts lack room for every note
#: with the star count whole (``★ 1 (2 all)``), after the sort's short form: each step keeps what
#: the steps before gave up, so that the counts changing by a digit never bring back one note for
#: another (a tester's find at 80 columns: ``56 of 19,630 · ICLR 2026 · ★ 20 · ▌ 7``, a moment
#: later ``8 of 19,630 · ICLR… · ★ 20 · 8 marked``). A step is a note and its next form:
#: ``"elsewhere short"`` (``+2 elsewhere``); ``"scope short"``, one step per short form of the
#: scope's name (:func:`short_scope_notes`: ``ICLR 2026 +1``, ``2 venues``; ``NeurIPS…``, never
#: a prefix another venue of the library shares); ``"stars short"`` (``★ 1/2``: one of the two
#: starred papers is in the scope); ``"elsewhere"`` left out; ``"stars count"`` (``★ 1``); the
#: marks' short form (``▌ 2``); the stars left out; last the scope (a tester's find: ``185 of
#: 20,048 · ★ 5 · 2 marked``, nothing said two venues).
_GIVE_WAY = ("elsewhere short", "scope short", "stars short", "elsewhere", "stars count", "marks short", "stars",
             "scope")  # fmt: skip


#: What the counts say, instead of a count, of a list ranked by likeness alone (``like:…``).
ALIKE_NOTE = "most alike first"


def short_scope_notes(label: str, venues: int, library: Iterable[str] = ()) -> Iterator[str]:
    """Shorter forms of the venue scope's label (:func:`~paperdeck.search.venues.scope_label`),
    longest first, for counts with no room for it whole: for a scope of several venues the first
    named and how many more (``"ICLR 2026 +1"``), then ``"2 venues"``; else the venue's name cut
    at a word with an ellipsis (``"NeurIPS 2025 Datasets…"``), so that the scope stays named — but
    never cut to words another venue of ``library`` (the store's venues) begins with: with ICLR
    2017 in the library, ``"ICLR…"`` could be either (a tester's find), so ``"ICLR 2026"`` has
    no short form there."""
    if venues > 1:
        first, plus, _ = label.partition(" + ")
        if plus:
            yield f"{first} +{venues - 1}"
        yield f"{venues} venues"
        return
    others = [venue for venue in library if venue != label]
    shown = label
    for room in range(len(label) - 1, 1, -1):
        cut = cut_at_word(label, room)
        if cut != shown:
            shown = cut
            stem = cut.removesuffix("…").rstrip()
            if any(venue.startswith(stem) for venue in others):
                return  # shorter cuts are as ambiguous
            yield cut


def _scope_below(text: str, scope_note: str, venues: int, room: int) -> str:
    """``text`` with the venue scope named on the label's second line where no form of it fits
    on the first (at 40 columns ``20,048 papers`` left no room for ``ICLR 2026 +1``): the
    longest of its forms (:func:`short_scope_notes`) that fits ``room``, else the shortest cut.
    ``text`` as it is when it names the scope already, or holds two lines."""
    forms = [scope_note, *short_scope_notes(scope_note, venues)]
    if not scope_note or "\n" in text or any(form in text for form in forms):
        return text
    line = next((form for form in forms if cell_len(form) <= room), cut_at_word(forms[-1], room))
    return f"{text}\n{line}"


class ListShown:
    """What the counts tell of the list filter's state, as it stands when they are painted (a
    snapshot: nothing in it changes after it is made; a plain class, not a dataclass, as it is
    defined before the first paint).

    Args:
        text: the filter text.
        starred_only: whether only starred papers are shown.
        query_filters: whether the text is a query at all (not blank, nor terms that are ignored;
            a malformed one is).
        query_note: how the text was read (:attr:`Query.note
            <paperdeck.search.query.Query.note>`, ``""``: as typed).
        view: the saved view whose query the text is, when the list is filtered (``None``: none).
        view_ids: the ids of the list shown.
        not_starred: the matches the starred filter leaves out (:mod:`paperdeck.ui.starred_note`).
        elsewhere: how many papers the list's query finds outside the scope
            (:mod:`paperdeck.search.elsewhere`; ``None``: not counted).
        searching: whether a query waits for an index or runs in a thread (its result not shown yet).
        pending_note: what the counts say meanwhile (:attr:`ListSorting.pending_note
            <paperdeck.ui.screens.list_sorting.ListSorting.pending_note>`).
        order_note: the counts' note on the sort order in effect (``""``: none).
        short_order_note: its short form (:data:`~paperdeck.ui.screens.list_sorting.SHORT_ORDER_NOTES`).
        query_hint: a hint about a malformed query (shown instead of the counts), else ``None``.
        scope: the venues shown (empty: all).
        scope_note: the scope's name (:meth:`VenueScope.note
            <paperdeck.ui.screens.venue_scope.VenueScope.note>`).
        alike_only: the query ranks by likeness alone (``like:…``, no word nor filtering term):
            its list is every other paper, most alike first, so the counts say that, not a count
            of papers as if they matched.
    """

    __slots__ = (
        "alike_only",
        "elsewhere",
        "not_starred",
        "order_note",
        "pending_note",
        "query_filters",
        "query_hint",
        "query_note",
        "scope",
        "scope_note",
        "searching",
        "short_order_note",
        "starred_only",
        "text",
        "view",
        "view_ids",
    )

    def __init__(
        self,
        *,
        text: str,
        starred_only: bool,
        query_filters: bool,
        query_note: str,
        view: str | None,
        view_ids: Sequence[str],
        not_starred: int,
        elsewhere: int | None,
        searching: bool,
        pending_note: str,
        order_note: str,
        short_order_note: str,
        query_hint: str | None,
        scope: frozenset[str],
        scope_note: str,
        alike_only: bool = False,
    ) -> None:
        self.alike_only = alike_only
        self.text = text
        self.starred_only = starred_only
        self.query_filters = query_filters
        self.query_note = query_note
        self.view = view
        self.view_ids = view_ids
        self.not_starred = not_starred
        self.elsewhere = elsewhere
        self.searching = searching
        self.pending_note = pending_note
        self.order_note = order_note
        self.short_order_note = short_order_note
        self.query_hint = query_hint
        self.scope = scope
        self.scope_note = scope_note


def _elsewhere_note(shown: ListShown, short: bool = False) -> str:
    """The counts' note of the matches outside the scope (``""``: none, or not counted)."""
    if not (shown.elsewhere and shown.scope):
        return ""
    from paperdeck.search.elsewhere import elsewhere_note  # deferred: a bare start imports no search

    return elsewhere_note(shown.elsewhere, short=short)


def short_star_note(starred: int, starred_all: int) -> str:
    """The star count's short form where the scope leaves stars out: ``"★ 1/2"`` (of the two
    papers starred, one is in the scope; :func:`~paperdeck.ui.scope_counts.star_note` says
    ``"★ 1 (2 all)"``), else as it is whole (``"★ 2"``, ``""``)."""
    if starred_all and starred != starred_all:
        return f"★ {starred:,}/{starred_all:,}"
    return star_note(starred, starred_all)


class ListCounts:
    """The counts label (``#counts``) and the list's reading-status summary of a screen.

    Args:
        screen: the screen whose counts label and list (its border) these are; its timers run there.
        marks: the papers the user marked on that screen (counted).
        store: the papers and the user's data (the scope's stars and statuses).
        searcher: the indexes (whether they are still built: ``indexing…``).
        repaint: paints the counts again with the filter's state as it is now (a new
            :class:`ListShown` handed to :meth:`show`).
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
        searcher: Searcher,
        *,
        repaint: Callable[[], None],
        tally_after_s: float,
        hint_toast_s: float,
    ) -> None:
        self.screen = screen
        self.marks = marks
        self.store = store
        self.searcher = searcher
        self._repaint = repaint
        self._tally_after_s = tally_after_s
        #: The filter's state last painted (:meth:`show`).
        self._shown: ListShown | None = None
        #: The widest of the counts of matches elsewhere (in cells) since the note last came up
        #: (see _elsewhere_pad).
        self._elsewhere_width = 0
        #: The list shown and its ids as a set (for the status tally of a filtered list).
        self._view_id_set: tuple[Sequence[str] | None, frozenset[str] | None] = (None, frozenset())
        #: Whether the next paint tallies its list (the typing paused: :meth:`_tally`).
        self._tally_due = False
        #: The store's status counts and, for them, the reading status of each paper that has one.
        self._status_of: tuple[Counter[str] | None, dict[str, str]] = (None, {})
        self._tally_pause: AfterPause | None = None
        self._toast = QueryToast(screen, hint_toast_s)  # a hint cut beside the bar, shown whole
        #: How far a refresh has got (:mod:`paperdeck.ui.refresh`), ``""`` when none runs.
        self.refresh_note = ""
        self.export_note = ""  # an export's progress, while one is written
        self.save_note = ""  # "saving…" while a save waits for the store's lock
        #: ``"undoing…"`` while a removal or an undo is written (its star count not known yet:
        #: the bar shows none rather than the one before, :meth:`set_change_note`).
        self.change_note = ""
        #: Holds an action due once the typing pauses until a query under way is painted (the
        #: screen's :meth:`QueryGate.when_quiet <paperdeck.ui.query_gate.QueryGate.when_quiet>`).
        self.hold: Callable[[Callable[[], None]], None] | None = None

    @property
    def paper_list(self) -> PaperList:
        """The screen's list of papers."""
        return self.screen.query_one(PaperList)

    def set_refresh_note(self, text: str) -> None:
        """Show ``text`` (a refresh's progress; ``""``: none) beside the counts."""
        self.refresh_note = text
        self._repaint()

    def set_save_note(self, text: str) -> None:
        """Show ``text`` (``"saving…"`` while a save waits; ``""``: none) beside the counts."""
        self.save_note = text
        self._repaint()

    def set_change_note(self, text: str) -> None:
        """Show ``text`` (``"undoing…"``, ``"removing…"`` while the store is written; ``""``: none)
        beside the counts in place of the star count, which the change is about to make another
        (a tester's find: ``★ 21 (23 all)`` for 15 s after an undo took a starred paper away)."""
        self.change_note = text
        self._repaint()

    def set_export_note(self, text: str) -> None:
        """Show ``text`` (an export's progress; ``""``: none) beside the counts."""
        self.export_note = text
        self._repaint()

    def elsewhere_gone(self) -> None:
        """A list was shown with no matches elsewhere: their note's width starts again."""
        self._elsewhere_width = 0

    def show(self, shown: ListShown) -> None:
        """Repaint the counts beside the filter bar (fitted to the screen's width) and the
        list's reading-status summary, for the filter's state ``shown``."""
        self._shown = shown
        if self._tally_due:  # the typing paused (_tally): the list shown now is counted
            self._tally_due = False
            ids = shown.view_ids
            # No paper has a status: the tally is all unseen, without a set of every id listed.
            self._view_id_set = (ids, frozenset(ids) if self._status_of[1] else None)
        screen = self.screen
        self._toast.keep_for(shown.text)
        filtered = shown.query_filters or shown.starred_only
        view = shown.view
        starred, starred_all, statuses = scoped_user_counts(self.store, shown.scope)  # those of the scope
        if self.change_note:  # the stars as they will be are not counted yet: none said
            starred = starred_all = 0
        indexing = self.searcher.index.built is None
        finding = not indexing and "like:" in shown.text and self.searcher.similarity.built is None
        marked = self.marks.ids
        notes = [
            shown.scope_note,
            star_note(starred, starred_all),
            starred_note(shown.starred_only, len(shown.view_ids), shown.not_starred),
            shown.order_note,
            f"{len(marked):,} marked" if marked else "",
            "indexing…" if indexing else "",
            "finding similar papers…" if finding else "",
            self.refresh_note,
            self.export_note,
            self.save_note or self.change_note,
            shown.query_note if filtered else "",
            _elsewhere_note(shown) if filtered else "",
        ]
        # The label takes at most half the bar (styles: #counts), less its padding.
        room = max(1, (screen.size.width or screen.app.size.width) // 2 - COUNTS_PADDING)
        from paperdeck.search.venues import scoped_ids

        scoped = shown.scope
        library = self.store.venue_runs.labels if len(scoped) == 1 else ()  # a cut name is no other's
        keep = kept_with_count(_NOTES_KEPT if scoped else _NOTES_KEPT_UNSCOPED, shown.not_starred)
        total = self.store.paper_count if not scoped else len(scoped_ids(self.store, scoped) or ())
        count = len(shown.view_ids)

        pad = self._elsewhere_pad(shown.elsewhere) if notes[_ELSEWHERE_NOTE] else 0

        def again() -> str:  # the counts with the notes as they are now
            if shown.alike_only and not shown.starred_only:
                return fitted(f"{view}: {ALIKE_NOTE}" if view else ALIKE_NOTE, notes, room, keep)
            return counts_text(count, total, filtered=filtered, view=view, notes=notes, room=room, keep=keep,
                               pad=pad if notes[_ELSEWHERE_NOTE] else 0)  # fmt: skip

        text = again()
        if self.refresh_note and self.refresh_note not in text:  # too narrow for it: its short form
            from paperdeck.ui.refresh import short_progress

            notes[_REFRESH_NOTE] = short_progress(self.refresh_note)
            text = again()
        if notes[1] and notes[1] not in text:  # too narrow for "★ 0 (5 all)": the scope's stars alone
            notes[1] = star_note(starred, starred_all, short=True)
            text = again()
        if notes[_ORDER_NOTE] and any(notes[i] and notes[i] not in text for i in _SHORT_ORDER_FOR):
            # too narrow for the sort, the star count or the marks: the sort's short form
            notes[_ORDER_NOTE] = shown.short_order_note
            text = again()
        if notes[1] and notes[1] not in text:  # the sort's short form put back before the stars
            notes[1] = star_note(starred, starred_all, short=True)
            text = again()
        if scoped and notes[1] and notes[1] not in text and notes[_SCOPE_NOTE] in text:
            # too narrow for the stars beside the venue's name ("418 papers · COLM 2025 · as
            # listed" at 80 columns): the name's short forms first, its first word whole
            whole = notes[_SCOPE_NOTE]
            first = whole.split(" ", 1)[0]
            for short in short_scope_notes(whole, len(scoped), library):
                if len(scoped) == 1 and not short.startswith(first):
                    break
                notes[_SCOPE_NOTE] = short
                text = again()
                if notes[1] in text and short in text:
                    break
            if notes[1] not in text or notes[_SCOPE_NOTE] not in text:  # no short name fits both
                notes[_SCOPE_NOTE] = whole
                text = again()
        if shown.not_starred and notes[STARRED_NOTE] not in text:  # too narrow: its short form
            notes[STARRED_NOTE] = starred_note(True, 0, shown.not_starred, short=True)
            text = again()
        if notes[_ELSEWHERE_NOTE] and (notes[_ELSEWHERE_NOTE] not in text or notes[_SCOPE_NOTE] not in text):
            # too narrow for it (or for the scope beside it): its short form
            notes[_ELSEWHERE_NOTE] = _elsewhere_note(shown, short=True)
            text = again()
        if scoped and notes[_SCOPE_NOTE] and notes[_SCOPE_NOTE] not in text:  # too narrow: its short form
            for short in short_scope_notes(notes[_SCOPE_NOTE], len(scoped), library):
                notes[_SCOPE_NOTE] = short
                text = again()
                if short in text:
                    break
        if notes[_QUERY_NOTE] and notes[_QUERY_NOTE] not in text:  # too narrow: its short form
            from paperdeck.search.query import short_note

            if (note := notes[_QUERY_NOTE]).startswith("unknown field "):  # the fields listed in a toast
                self._tell_hint_later(note, shown.text)
            notes[_QUERY_NOTE] = short_note(note)
            text = again()
        if scoped and (stars := star_note(starred, starred_all)) and stars not in text:
            # short of room for the star count whole: the notes give way in the declared order
            before = list(notes)
            notes[1], notes[_SCOPE_NOTE] = stars, shown.scope_note
            notes[_ELSEWHERE_NOTE] = notes[_ELSEWHERE_NOTE] and _elsewhere_note(shown)
            text = self._given_way(text, before, shown, notes, again, (starred, starred_all), library)
        if shown.searching:  # never the last list's count as if it matched, nor its order as sorted
            text = fitted(shown.pending_note, notes, room, keep)
        if scoped and self.store.paper_count > total:  # the note of matches elsewhere may come
            text = self._held_wide(text, total, notes, room)
        if scoped and not shown.searching:
            text = _scope_below(text, shown.scope_note, len(scoped), room)
        if shown.query_hint:  # on the label's two lines, its end (the example) kept
            hint = f"⚠ {shown.query_hint}"
            text = wrapped(hint, room)
            if text.replace("\n", " ") != hint:
                self._tell_hint_later(shown.query_hint, shown.text)
        # query_one: Textual's cache of look-ups, not a walk of every widget of the screen per key.
        label = screen.query_one_optional("#counts", CountsLabel)
        if label is None:  # the screen is closing (the app ends while a worker reports)
            return
        label.update(text)
        if filtered:  # the list on screen (while a query runs, the last one shown)
            in_view = self._view_statuses(statuses, shown.view_ids)
            if in_view is None:
                return
            statuses = in_view
        count = len(shown.view_ids) if filtered else total
        paper_list = self.paper_list
        if paper_list.border_subtitle != (subtitle := status_summary(count, statuses)):
            paper_list.border_subtitle = subtitle

    @staticmethod
    def _given_way(
        text: str,
        before: list[str],
        shown: ListShown,
        notes: list[str],
        again: Callable[[], str],
        stars: tuple[int, int],
        library: Iterable[str] = (),
    ) -> str:
        """The counts with the notes given way step by step (:data:`_GIVE_WAY`, the sort's short
        form first, each step keeping what those before gave up): the first that shows every
        note, else the first that shows the star count at all (its shortest form), else ``text``
        (the counts fitted otherwise, of the notes ``before``); ``notes`` left as they made it.
        ``library``: the store's venues, which a single venue's cut name must not be a prefix of."""
        starred, starred_all = stars
        whole_scope, whole_elsewhere = notes[_SCOPE_NOTE], notes[_ELSEWHERE_NOTE]
        first = whole_scope.split(" ", 1)[0]  # a venue's name is cut no shorter than its first word
        shorter = short_scope_notes(whole_scope, len(shown.scope), library)
        scopes = [f for f in shorter if len(shown.scope) > 1 or f.startswith(first)]
        marks = before[_MARKS_NOTE]
        forms: dict[str, list[tuple[int, str]]] = {
            "elsewhere short": [(_ELSEWHERE_NOTE, _elsewhere_note(shown, short=True))] if whole_elsewhere else [],
            "stars short": [(1, short_star_note(starred, starred_all))],
            "elsewhere": [(_ELSEWHERE_NOTE, "")] if whole_elsewhere else [],
            "stars count": [(1, star_note(starred, starred_all, short=True))],
            "scope short": [(_SCOPE_NOTE, scope) for scope in scopes],
            "marks short": [(_MARKS_NOTE, _short_marks(marks))],
            "stars": [(1, "")],
            "scope": [(_SCOPE_NOTE, "")],
        }
        with_stars: tuple[str, list[str]] | None = None
        star_count = forms["stars count"][0][1]

        def tried() -> str | None:  # the counts as the notes are now, when every note shows
            nonlocal with_stars
            fitted_now = again()
            if all(note in fitted_now for note in notes if note):
                return fitted_now
            if with_stars is None and star_count in fitted_now:
                with_stars = (fitted_now, list(notes))
            return None

        if notes[_ORDER_NOTE]:
            notes[_ORDER_NOTE] = shown.short_order_note
            if (fits := tried()) is not None:
                return fits
        for step in _GIVE_WAY:
            for index, form in forms[step]:
                if notes[index] == form:
                    continue
                notes[index] = form
                if (fits := tried()) is not None:
                    return ListCounts._scope_back(fits, notes, [whole_scope, *scopes], tried)
        text, notes[:] = with_stars if with_stars is not None else (text, before)
        return text

    @staticmethod
    def _scope_back(fits: str, notes: list[str], scopes: list[str], tried: Callable[[], str | None]) -> str:
        """``fits`` (the counts once a step of :data:`_GIVE_WAY` made every note fit) with the
        scope's name as long again as the room the later steps made allows (``scopes``: its forms,
        longest first; ``2,454 of 19,630 · ICLR 2026 · ★ 1/2`` once the matches elsewhere went, not
        ``ICLR…``); the other notes as the steps left them."""
        shown = notes[_SCOPE_NOTE]
        if not shown or shown not in scopes:
            return fits
        for scope in scopes[: scopes.index(shown)]:
            notes[_SCOPE_NOTE] = scope
            if (longer := tried()) is not None:
                return longer
        notes[_SCOPE_NOTE] = shown
        return fits

    def _elsewhere_pad(self, elsewhere: int | None) -> int:
        """Cells the counts are padded by on the left while the note of the matches elsewhere (the
        ``elsewhere`` of the snapshot painted) is shown: its number's width up to the widest since
        the note came up, so that typing on (``diffusion``: 9,449 → 930 more) keeps the label's
        width, as the count's own padding does (a change of width lays the screen out again)."""
        digits = len(f"{elsewhere or 0:,}")
        self._elsewhere_width = max(self._elsewhere_width, digits)
        return self._elsewhere_width - digits

    def _held_wide(self, text: str, total: int, notes: Sequence[str], room: int) -> str:
        """``text`` padded on the left to the width the counts take with the note of the matches
        elsewhere at its widest (every paper outside the scope of ``total``), ``notes`` as they
        are otherwise; at most ``room``, which any count's text fits. In a venue scope that note
        comes with a query's first key and goes as the bar is cleared: the label keeps its width
        through both (each change of width lays the whole screen out again), as the count's own
        padding keeps it through the typing. A text wider already is itself."""
        from paperdeck.search.elsewhere import elsewhere_note

        widest = list(notes)
        widest[_ELSEWHERE_NOTE] = elsewhere_note(self.store.paper_count - total)
        wide = counts_text(total, total, filtered=True, view=None, notes=widest)
        return " " * (min(room, cell_len(wide)) - cell_len(text)) + text

    def _tell_hint_later(self, hint: str, text: str) -> None:
        """Show ``hint`` (the query's hint, or its note) whole in a toast (it is cut beside the filter
        bar) once the query (``text``) has stayed as it is for ``hint_toast_s``; once per hint."""
        self._toast.later(hint, text, self._hints_now)

    def _hints_now(self) -> tuple[str | None, str]:
        """The query's hint and its note, as last painted (the hints a toast may still show)."""
        shown = self._shown
        return (shown.query_hint, shown.query_note) if shown is not None else (None, "")

    @property
    def tally_pending(self) -> bool:
        """Whether the list shown waits to be counted by status (the typing has not paused)."""
        return self._tally_pause is not None and self._tally_pause.waiting

    def _tally_later(self) -> None:
        """Count the list shown by status after ``tally_after_s`` without a change of list."""
        if self._tally_pause is None:
            self._tally_pause = AfterPause(one_shot_on(self.screen), self._tally, self.hold)
        self._tally_pause.restart(self._tally_after_s)

    def _tally(self) -> None:
        self._tally_due = True
        self._repaint()

    def _view_statuses(self, statuses: Counter[str], ids: Sequence[str]) -> Counter[str] | None:
        """The papers of the list shown (``ids``) by reading status, as ``statuses`` (the store's, from
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
        status_of = self._status_of[1]
        if len(ids) <= len(status_of):
            return Counter(status for status in map(status_of.get, ids) if status is not None)
        tallied, shown = self._view_id_set
        if tallied is not ids or (shown is None and status_of):
            self._tally_later()
            return None
        if shown is None:  # tallied when no paper had a status (no set of the ids made)
            return Counter()
        return Counter(status for pid, status in status_of.items() if pid in shown)


__all__ = ["COUNTS_PADDING", "ListCounts", "ListShown", "short_scope_notes"]
