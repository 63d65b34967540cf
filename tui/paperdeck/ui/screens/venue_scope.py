"""The venue scope of the main screen's list: which venues it shows (picked in this session, else
the settings'), their papers, the name the top bar and the counts give the scope, the choice
kept in the settings for the next start, and the scope's rules for the list's columns (a venue
column while a list mixes venues, each rating with its scale while the scope's venues rate on
several scales).

:class:`VenueScope` is a part of :class:`~paperdeck.ui.screens.list_filter.ListFilter`: it holds
this state and reads the store and the settings; it knows nothing of the filter, which filters
again when the scope changes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paperdeck.model.errors import StoreError
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store

if TYPE_CHECKING:
    from textual.screen import Screen

    from paperdeck.model.venue import Scale
    from paperdeck.search.views import View


class VenueScope:
    """The venues a list shows (:mod:`paperdeck.search.venues`; empty: all).

    Args:
        screen: the screen whose worker saves a choice, and which says a failure to save it.
        store: the papers (their venues).
        settings: the settings file the scope is kept in.
        still_shown: whether the list still shows a view (:meth:`say_if_view_outside`).
    """

    def __init__(
        self,
        screen: Screen[None],
        store: Store,
        settings: SettingsFile,
        still_shown: Callable[[View], bool] = lambda view: True,
    ) -> None:
        self.screen = screen
        self.store = store
        self.settings = settings
        #: Whether the list still shows a view just opened (its query in the filter bar).
        self.still_shown = still_shown
        #: The venues picked in this session (``None``: none yet, the settings' are shown), and the
        #: lock their saves take (:meth:`save`).
        self._chosen_venues: list[str] | None = None
        self._scope_saving = threading.Lock()
        #: The scales of each venue's rated papers (set once found in a worker), ``{}``: one in
        #: the store.
        self.venue_scales: dict[str, frozenset[Scale]] = {}

    @property
    def venues(self) -> frozenset[str]:
        """The venues shown (:mod:`paperdeck.search.venues`; empty: all): the scope kept in the
        settings, as far as the store holds its venues."""
        from paperdeck.search.venues import effective_scope

        chosen = self._chosen_venues
        return effective_scope(self.store, self.settings.settings.venues if chosen is None else chosen)

    def ids(self) -> list[str]:
        """Every paper of the scope, in catalogue order (the blank bar's list)."""
        from paperdeck.search.venues import scoped_ids

        scoped = scoped_ids(self.store, self.venues)
        return self.store.paper_ids if scoped is None else list(scoped)

    def note(self) -> str:
        """The scope as the top bar names it (``"COLM 2025"``, ``"all venues"``); ``""`` when the
        store holds one venue (or none)."""
        labels = self.store.venue_runs.labels
        if len(labels) < 2:
            return ""
        from paperdeck.search.venues import scope_label

        return scope_label(self.venues, labels)

    def choose(self, venues: Sequence[str]) -> None:
        """Make ``venues`` (empty: every venue) the scope, for this session (:meth:`save` keeps it
        for the next start)."""
        self._chosen_venues = list(venues)

    def save(self) -> None:
        """Write the scope to the settings for the next start, in a thread (a failure to write is
        said; the scope holds until paperdeck closes)."""
        self.screen.run_worker(self._save_scope, thread=True, group="venue-scope")

    def _save_scope(self) -> None:
        """In a thread: keep the venues chosen last in the settings file (another paperdeck's
        changes kept). Saves one at a time, each the latest choice: the last to run writes it."""
        try:
            with self._scope_saving:
                self.settings.update(venues=list(self._chosen_venues or ()))
            if self.settings.problem is not None:  # never written: said once
                from paperdeck.ui.saving import say_unsaved_once

                self.screen.app.call_from_thread(say_unsaved_once, self.screen, self.settings)
        except StoreError as error:
            message = f"{error}; the venues picked apply until paperdeck closes"
            self.screen.app.call_from_thread(self.screen.notify, message, severity="warning", markup=False)

    def say_if_view_outside(self, view: View, count: Callable[[View, frozenset[str]], int | None]) -> None:
        """Say so when ``view``, just opened, shows no paper in the scope but finds some outside it
        (``"View 'COLM orals': none of its 5 papers is in ICLR 2026 — c picks the venues
        shown"``): the scope is the app's lens, and an empty list alone would not tell why.
        ``count(view, scope)`` counts its papers within ``scope`` (empty: every venue); both
        counts are made in a thread, and nothing is said once the scope or the list's query has
        changed meanwhile."""
        scope = self.venues
        if not scope:
            return

        def counted() -> None:
            inside = count(view, scope)
            if inside != 0:
                return
            every = count(view, frozenset())
            if every:
                self.screen.app.call_from_thread(said, every)

        def said(every: int) -> None:
            from paperdeck.model.counts import counted as counted_text
            from paperdeck.model.safe_text import one_line

            if self.venues != scope or not self.still_shown(view):
                return  # another scope or query since: it would speak of a list no longer shown
            papers = "its paper is not" if every == 1 else f"none of its {counted_text(every, 'paper')} is"
            message = f"View {one_line(view.name)!r}: {papers} in {self.note()} — c picks the venues shown"
            self.screen.notify(message, markup=False)

        self.screen.run_worker(counted, thread=True, group="view-outside", exclusive=True)

    def mixes_venues(self, ids: Sequence[str]) -> bool:
        """Whether ``ids`` hold papers of several venues (the list then shows the venue column)."""
        if len(self.store.venue_runs.labels) < 2 or len(self.venues) == 1:
            return False
        from paperdeck.search.venues import mixes_venues

        return mixes_venues(self.store, ids)

    def mixes_scales(self, ids: Sequence[str]) -> bool:
        """Whether the list shows each rating with its scale (``6.5/10``): the rule is the venue
        scope's, not the rows': when the scope's venues (every venue, for no scope) rate on more
        than one scale (:attr:`venue_scales`), every list within it does, filtered or not, so a
        rating reads the same from view to view; a scope of one scale shows ratings bare. An empty
        list shows none."""
        by_venue = self.venue_scales
        if not by_venue or not ids:
            return False
        venues = self.venues or frozenset(self.store.venue_runs.labels)
        found: set[Scale] = set()
        for venue in venues:
            found |= by_venue.get(venue, frozenset())
        return len(found) > 1


__all__ = ["VenueScope"]
