"""The venue picker (``c``): the library's venues with their paper counts, the ones shown ticked;
it sets the venue scope (:mod:`paperdeck.search.venues`) the list, the statistics, exports and
similar papers follow."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paperdeck.search.venues import venue_name
from paperdeck.ui.commands import bindings
from paperdeck.ui.drafts import drafts_of
from paperdeck.ui.screens.choices import ChoiceDialog
from paperdeck.ui.screens.list_filter import ListFilter

#: Cells of the venue's name in a row.
NAME_CELLS = 22
#: The option id of the first row, every venue.
ALL_ROW = "\x00all"


#: Cells of a row's tick box with the space after it (``[x] ``): a click there ticks the row.
BOX_CELLS = 4


class VenueOptions(OptionList):
    """The picker's rows: a click on a row's tick box (``[x]``, ``[ ]``) ticks it, as ``space``
    does (:class:`BoxClicked`); a click elsewhere on a row shows that venue alone, whatever is
    ticked, as ``o`` (:class:`NameClicked`; every venue on the All venues row)."""

    class BoxClicked(Message):
        """A row's tick box was clicked (the row highlighted first)."""

    class NameClicked(Message):
        """A row's name (or count) was clicked (the row highlighted first)."""

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        option = event.style.meta.get("option")
        if offset is None or not isinstance(option, int):
            return
        event.prevent_default()
        self.highlighted = option
        self.post_message(self.BoxClicked() if offset.x < BOX_CELLS else self.NameClicked())


class VenuesScreen(ChoiceDialog[list[str] | None]):
    """The venues with their paper counts (and, while the filter bar holds a query, how many of
    each it matches, counted in a thread), the venues shown ticked. Dismisses with the venues to
    show (``[]``: every venue), or ``None`` (escape: the scope unchanged, the ticks kept as the
    draft the picker opens with next time from the same scope: :mod:`paperdeck.ui.drafts`).

    Args:
        counts: papers by venue, in the store's venue order (:func:`~paperdeck.search.venues.venue_counts`).
        shown: the venues shown now (empty: every venue).
        matching: how many papers of each venue the filter's query selects, or ``None`` when the
            bar holds no query (or a malformed one); called in a thread.
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings("venues")  # close, tick, only, j / k

    def __init__(
        self,
        counts: Mapping[str, int],
        shown: frozenset[str],
        matching: Callable[[], Mapping[str, int] | None] = lambda: None,
    ) -> None:
        super().__init__()
        self._counts = dict(counts)
        self._venues = list(counts)
        self._ticked = set(shown or counts)
        self._draft_key = ("venues", shown)
        self._draft_kept = False
        self._matching = matching
        self._matches: Mapping[str, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="venues-dialog", classes="prompt"):
            yield Label("Venues", classes="prompt-title")
            yield VenueOptions(id="venues", classes="dialog-options")
            help_text = "space ticks · enter shows the ticked · o this one alone · escape closes"
            yield Label(help_text, classes="prompt-help")

    def on_mount(self) -> None:
        draft = drafts_of(self.app).get(self._draft_key)
        if isinstance(draft, frozenset):
            self._ticked = set(self._venues) & draft
        self._fill()
        self._count_matches()

    @property
    def ticked(self) -> list[str]:
        """The venues ticked, in the store's order."""
        return [venue for venue in self._venues if venue in self._ticked]

    def _fill(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted or 0
        options.clear_options()
        options.add_option(Option(self._label(None), id=ALL_ROW))
        for venue in self._venues:
            options.add_option(Option(self._label(venue)))
        options.highlighted = min(highlighted, len(self._venues))

    def _label(self, venue: str | None) -> Content:
        """A row: tick, name, papers, and the query's matches when counted."""
        if venue is None:
            ticked = len(self._ticked) == len(self._venues)
            name, count = "All venues", sum(self._counts.values())
            matches = sum(self._matches.values()) if self._matches is not None else None
        else:
            ticked = venue in self._ticked
            name, count = venue_name(venue), self._counts[venue]
            matches = self._matches.get(venue, 0) if self._matches is not None else None
        if len(name) > NAME_CELLS:
            name = name[: NAME_CELLS - 1] + "…"
        text = f"{'[x]' if ticked else '[ ]'} {name:<{NAME_CELLS}} {count:>7,} papers"
        if matches is not None:
            text += f" {matches:>7,} match"
        return Content(text)

    def _relabel(self) -> None:
        options = self.query_one(OptionList)
        options.replace_option_prompt_at_index(0, self._label(None))
        for n, venue in enumerate(self._venues, start=1):
            options.replace_option_prompt_at_index(n, self._label(venue))

    @work(thread=True, exclusive=True, group="venue-matches")
    def _count_matches(self) -> None:
        matches = self._matching()
        if matches is not None:
            self.app.call_from_thread(self._counted, matches)

    def _counted(self, matches: Mapping[str, int]) -> None:
        self._matches = matches
        self._relabel()

    def _highlighted_venue(self) -> str | None:
        """The highlighted venue; ``None`` on the All venues row (or none highlighted)."""
        index = self.query_one(OptionList).highlighted
        return self._venues[index - 1] if index else None

    def action_tick(self) -> None:
        """Tick or untick the highlighted venue; on All venues, tick all (or none, when all are)."""
        if self.query_one(OptionList).highlighted is None:
            return
        venue = self._highlighted_venue()
        if venue is None:
            self._ticked = set() if len(self._ticked) == len(self._venues) else set(self._venues)
        else:
            self._ticked ^= {venue}
        self._relabel()

    @on(VenueOptions.BoxClicked)
    def _box_clicked(self) -> None:
        self.action_tick()

    @on(VenueOptions.NameClicked)
    def _name_clicked(self) -> None:
        self.action_only()

    def action_only(self) -> None:
        """Show the highlighted venue alone (every venue on the All venues row)."""
        venue = self._highlighted_venue()
        self.dismiss([] if venue is None else [venue])

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter: show the ticked venues (every venue when all or none are ticked; with none
        ticked on a venue's row, that venue)."""
        if not self._ticked and event.option_index:
            self.dismiss([self._venues[event.option_index - 1]])
            return
        ticked = self.ticked
        self.dismiss([] if len(ticked) in (0, len(self._venues)) else ticked)

    def action_close(self) -> None:
        """Close, the scope unchanged; the ticks made kept for the next time."""
        self._draft_kept = True
        drafts_of(self.app)[self._draft_key] = frozenset(self._ticked)
        self.dismiss(None)

    def on_unmount(self) -> None:
        if not self._draft_kept:
            drafts_of(self.app).pop(self._draft_key, None)


def scope_said(scope: frozenset[str], counts: Mapping[str, int]) -> str:
    """What a change of scope says: ``"Scope: COLM 2025 — 418 papers"``, ``"Scope: all venues —
    20,048 papers"`` (the top bar's name for it, :func:`~paperdeck.search.venues.scope_label`,
    and the papers it holds, from the picker's ``counts``): at most 2 venues named, so that it
    fits a toast at 80 columns."""
    from paperdeck.model.counts import counted
    from paperdeck.model.safe_text import one_line
    from paperdeck.search.venues import scope_label

    papers = sum(count for venue, count in counts.items() if not scope or venue in scope)
    return f"Scope: {one_line(scope_label(scope, list(counts)))} — {counted(papers, 'paper')}"


def pick_venues(shown: ListFilter) -> None:
    """Open the venue picker over ``shown``'s screen; the venues picked become its scope (kept in
    the settings). A library of one venue says so instead."""
    from paperdeck.search.venues import venue_counts

    store = shown.store
    counts = venue_counts(store)
    if len(counts) < 2:
        only = venue_name(next(iter(counts), ""))
        shown.screen.notify(f"Every paper here is of one venue ({only}): import another to pick.")
        return

    def chosen(venues: list[str] | None) -> None:
        if venues is not None:  # escape leaves the scope as it was
            shown.set_scope(venues)
            shown.screen.notify(scope_said(shown.scope, counts), markup=False)
            shown.say_if_view_outside()  # a view shown that the new scope empties says so

    shown.screen.app.push_screen(VenuesScreen(counts, shown.scope, shown.venue_matches), chosen)


__all__ = ["ALL_ROW", "VenuesScreen", "pick_venues", "scope_said"]
