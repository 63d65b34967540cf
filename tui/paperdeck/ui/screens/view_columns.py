"""Which of the list's columns a view fills: a column blank on every row of the view says
nothing and takes the title's cells. The venue column shows where the view mixes venues
(:meth:`ListFilter._mixes_venues <paperdeck.ui.screens.list_filter.ListFilter>`), the first mean
(``first``, the moves: first rating → now) where the view holds a paper whose mean rating moved —
not where only another view, or another venue of the scope, does — and the decision badge, the
rating and the area where a paper of the venue scope has one (:func:`scope_columns`: NeurIPS 2018
picked in a library that also holds ICLR 2026 shows no rating column of dashes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from paperdeck.store.rows import RowColumns

if TYPE_CHECKING:
    from paperdeck.store.store import Store

#: The last answer of :func:`scope_columns`, by store: (scope, catalogue generation, columns).
_held: dict[int, tuple[frozenset[str], int, RowColumns]] = {}


def moves_in(first_means: Mapping[str, float], ids: Sequence[str]) -> bool:
    """Whether some paper of ``ids`` has a moved mean rating (its first mean in ``first_means``,
    which holds the moved papers only): a look-up per paper of the view, stopping at the first
    moved one (a whole ICLR 2026 view without one: well under a millisecond)."""
    return bool(first_means) and any(map(first_means.__contains__, ids))


def scope_columns(store: Store, scope: frozenset[str]) -> RowColumns:
    """Whether a paper of ``scope`` (empty: every venue) has a decision, a rating, an area: the
    store's answer (:attr:`Store.row_columns`, from the rows cache) narrowed to the scope's rows.
    The walk stops once all three are found (at the first papers of a rated, decided venue); a
    whole scope is walked only where a column stays blank (a venue without ratings). Kept until
    the catalogue or the scope changes."""
    from paperdeck.search.venues import scoped_ids

    every = store.row_columns
    ids = scoped_ids(store, scope) if scope and any(every) else None
    if ids is None:
        return every
    generation = store.catalogue_generation
    held = _held.get(id(store))
    if held is not None and held[0] == scope and held[1] == generation:
        return held[2]
    decisions = ratings = areas = False
    for pid in ids:
        row = store.row(pid)
        if row is None:
            continue
        decisions = decisions or row.decision != "unknown"
        ratings = ratings or row.rating is not None
        areas = areas or bool(row.area)
        if decisions >= every.decisions and ratings >= every.ratings and areas >= every.areas:
            break
    columns = RowColumns(decisions, ratings, areas)
    _held[id(store)] = (scope, generation, columns)
    return columns


__all__ = ["moves_in", "scope_columns"]
