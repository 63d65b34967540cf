"""How many papers a query finds outside the venue scope, for the counts' hint (``12 of 19,630 ·
3 more in other venues``): the scope hides matches elsewhere, and the user should know.

Counted only where it is cheap — never a second run of the query over the other venues:

- words alone (no field terms, no ``like:``): the index matched them over every paper for the
  query just run and counted what they match (:meth:`~paperdeck.search.index.SearchIndex.found_count`;
  :func:`~paperdeck.search.selection.run_query` ranks the scope's only); that count less what
  the scope shows is the rest.
- the starred papers (the ★ filter on a blank bar, or ``is:starred`` alone, the Starred view): the
  store's star count less what the scope shows.
- the changed papers (``is:changed`` or ``changed:KIND`` alone, the What changed view): the
  papers changed since the user looked (the change log's cached answer, which the query just
  read) counted by venue, those outside the scope.

- ``venue:`` terms alone (``venue:colm``, ``venue:iclr2017 OR venue:colm``, ``-venue:iclr``): each
  venue outside the scope is matched by its name, and its papers counted (the store's counts by
  venue: no paper read).
- ``venue:`` terms with words (``venue:colm diffusion``): the words' ranking over every paper (the
  one the query just made, cached) counted in the catalogue positions of the venues outside the
  scope that the terms keep (the store's venue runs: no paper read, no term run again).

Anything else (other field terms, which would be evaluated over the other venues' papers, unparsed
as they may be) counts nothing: ``None``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from paperdeck.search.query import Query
    from paperdeck.search.query_terms import Node
    from paperdeck.search.searcher import Searcher


def more_elsewhere(
    searcher: Searcher, query: Query | None, scope: frozenset[str], shown: int, *, starred_only: bool = False
) -> int | None:
    """How many papers ``query`` (``None``: a blank bar) finds outside ``scope`` (empty: every
    venue, so none), ``shown`` being how many it shows inside; ``None`` where that is not cheap to
    know (see the module docstring), or the index is not built yet."""
    if not scope:
        return None
    if query is None or (query.tree is not None and _starred_alone(query)):
        if query is None and not starred_only:
            return None
        starred, _ = searcher.store.user_counts()
        return max(0, starred - shown)
    if not starred_only and (kinds := _changed_alone(query)):
        return _changed_elsewhere(searcher, kinds, scope)
    if starred_only or query.like or query.error is not None:
        return None
    if not query.words and query.tree is not None and (venues := _venues_alone(query.tree)) is not None:
        from paperdeck.search.venues import venue_counts

        return sum(
            count for venue, count in venue_counts(searcher.store).items() if venue not in scope and venues(venue)
        )
    if not query.words:
        return None
    if query.has_filter:
        venues = _venues_alone(query.tree) if query.tree is not None else None
        return None if venues is None else _words_in_venues(searcher, " ".join(query.words), venues, scope)
    index = searcher.index.built
    if index is None:
        return None
    words = " ".join(query.words)
    found = index.found_count(words)  # counted by the ranking just made, in the scope or not
    if found is None:
        found = len(index.search_positions(words))
    return max(0, found - shown)


def _words_in_venues(
    searcher: Searcher, words: str, venues: Callable[[str], bool], scope: frozenset[str]
) -> int | None:
    """How many papers ``words`` find (the index's ranking over every paper, the query's own,
    cached) in the venues outside ``scope`` that ``venues`` keeps; ``None`` while the index is not
    built or is not of the store's papers as the venue runs place them."""
    index = searcher.index.built
    if index is None:
        return None
    runs = searcher.store.venue_runs
    if len(index) != runs.paper_count:
        return None
    spans: list[tuple[int, int]] = []
    start = 0
    for n, count in runs.runs:
        label = runs.labels[n]
        if label not in scope and venues(label):
            spans.append((start, start + count))
        start += count
    if not spans:
        return 0
    found = index.search_positions(words)
    if not found:
        return 0
    if "numpy" in sys.modules:  # loaded by the field terms' masks the query just ran
        import numpy as np

        outside = np.zeros(runs.paper_count, dtype=np.bool_)
        for first, stop in spans:
            outside[first:stop] = True
        return int(np.count_nonzero(outside[np.asarray(found, dtype=np.int64)]))
    inside = bytearray(runs.paper_count)
    for first, stop in spans:
        inside[first:stop] = b"\x01" * (stop - first)
    return sum(map(inside.__getitem__, found))


def _venues_alone(tree: Node) -> Callable[[str], bool] | None:
    """Whether a venue (its label, ``"ICLR 2017"``) is kept by ``tree`` when ``tree`` is made of
    ``venue:`` terms alone (under ``AND``, ``OR``, ``-``); ``None`` when it holds another term."""
    from paperdeck.search.query_fields import venue_matcher
    from paperdeck.search.query_terms import Term

    if isinstance(tree, Term):
        return venue_matcher(tree.value) if tree.field == "venue" and tree.op == ":" else None
    children = [_venues_alone(child) for child in tree.children]
    if any(child is None for child in children):
        return None
    kept = [child for child in children if child is not None]
    if tree.kind == "NOT":
        return lambda venue: not kept[0](venue)
    if tree.kind == "OR":
        return lambda venue: any(child(venue) for child in kept)
    return lambda venue: all(child(venue) for child in kept)


def _starred_alone(query: Query) -> bool:
    """Whether ``query`` is ``is:starred`` and nothing else (the Starred view)."""
    from paperdeck.search.query_fields import choices
    from paperdeck.search.query_terms import Term

    tree = query.tree
    return (
        not query.words
        and not query.like
        and isinstance(tree, Term)
        and tree.field == "is"
        and choices("is", tree.value) == frozenset({"starred"})
    )


def _changed_alone(query: Query) -> frozenset[str]:
    """The kinds of change ``query`` selects when it is ``is:changed`` (every kind) or
    ``changed:KIND`` and nothing else (the What changed view); else none."""
    from paperdeck.search.query_fields import choices
    from paperdeck.search.query_terms import Term

    tree = query.tree
    if query.words or query.like or query.error is not None or not isinstance(tree, Term):
        return frozenset()
    if tree.field == "changed":
        return choices("changed", tree.value)
    if tree.field == "is" and choices("is", tree.value) == frozenset({"changed"}):
        from paperdeck.model.changes import CHANGE_KINDS

        return frozenset(CHANGE_KINDS)
    return frozenset()


def _changed_elsewhere(searcher: Searcher, kinds: frozenset[str], scope: frozenset[str]) -> int:
    """How many papers changed in one of ``kinds`` since the user looked are outside ``scope``."""
    from paperdeck.search.venues import venues_of

    store = searcher.store
    changed = (pid for pid, what in store.changed_since_looked().items() if what & kinds)
    return sum(count for venue, count in venues_of(store, changed).items() if venue not in scope)


def elsewhere_note(count: int | None, *, short: bool = False) -> str:
    """The counts' note for :func:`more_elsewhere`'s ``count``: ``"3 more in other venues"``
    (``short``: ``"+3 elsewhere"``), or ``""`` (none, or not counted)."""
    if not count:
        return ""
    return f"+{count:,} elsewhere" if short else f"{count:,} more in other venues"


__all__ = ["elsewhere_note", "more_elsewhere"]
