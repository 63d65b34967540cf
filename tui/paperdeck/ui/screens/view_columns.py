"""Which of the list's columns a view fills: a column blank on every row of the view says
nothing and takes the title's cells. The venue column shows where the view mixes venues
(:meth:`VenueScope.mixes_venues <paperdeck.ui.screens.venue_scope.VenueScope.mixes_venues>`),
the first mean (``first``, the moves: first rating → now) where the view holds a paper whose mean
rating moved — not where only another view, or another venue of the scope, does — and the
decision badge, the rating and the area where a paper of the venue scope has one
(:func:`scope_columns`: NeurIPS 2018 picked in a library that also holds ICLR 2026 shows no
rating column of dashes).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from paperdeck.store.rows import RowColumns, VenueRuns

if TYPE_CHECKING:
    from paperdeck.store.store import Store

#: Each venue's columns, by store: (catalogue generation, venue → its columns), made at first need.
#: Keyed by the store itself, weakly: an ``id()`` key outlives its store, and a later store given
#: the same address (and the same generation) was handed the gone one's columns.
_by_venue: weakref.WeakKeyDictionary[Store, tuple[int, dict[str, RowColumns]]] = weakref.WeakKeyDictionary()


def moves_in(first_means: Mapping[str, float], ids: Sequence[str]) -> bool:
    """Whether some paper of ``ids`` has a moved mean rating (its first mean in ``first_means``,
    which holds the moved papers only): a look-up per paper of the view, stopping at the first
    moved one (a whole ICLR 2026 view without one: well under a millisecond)."""
    return bool(first_means) and any(map(first_means.__contains__, ids))


def scope_columns(store: Store, scope: frozenset[str]) -> RowColumns:
    """Whether a paper of ``scope`` (empty: every venue) has a decision, a rating, an area: the
    store's answer (:attr:`Store.row_columns`, from the rows cache) narrowed to the scope's venues,
    each venue's own answer found once per catalogue generation (:func:`_venue_columns`), so that
    switching between scopes walks no venue twice."""
    every = store.row_columns
    runs = store.venue_runs
    if not scope or not any(every) or scope >= frozenset(runs.labels):
        return every
    generation = store.catalogue_generation
    held = _by_venue.get(store)
    if held is None or held[0] != generation:
        held = _by_venue[store] = (generation, {})
    known = held[1]
    found = [False, False, False]
    for venue in scope & frozenset(runs.labels):
        columns = known.get(venue)
        if columns is None:
            columns = known[venue] = _venue_columns(store, runs, venue, every)
        found = [a or b for a, b in zip(found, columns, strict=True)]
    return RowColumns(*found)


def _venue_columns(store: Store, runs: VenueRuns, venue: str, every: RowColumns) -> RowColumns:
    """``venue``'s columns: the rows cache's, written with them (no row read: the library opened on
    a venue without ratings reads none of its rows for it); else its rows walked until all that
    ``every`` (the library's) has are found, a whole venue only where a column stays blank."""
    known = store.catalogue.venue_columns
    if known is not None and (columns := known.get(venue)) is not None:
        return columns
    ids = store.paper_ids
    decisions = ratings = areas = False
    start = 0
    for n, count in runs.runs:
        if runs.labels[n] == venue:
            for pid in ids[start : start + count]:
                row = store.row(pid)
                if row is None:
                    continue
                decisions = decisions or row.decision != "unknown"
                ratings = ratings or row.rating is not None
                areas = areas or bool(row.area)
                if decisions >= every.decisions and ratings >= every.ratings and areas >= every.areas:
                    return RowColumns(decisions, ratings, areas)
        start += count
    return RowColumns(decisions, ratings, areas)


__all__ = ["moves_in", "scope_columns"]
