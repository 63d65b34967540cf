"""The venue scope: which of the library's venues the app, its statistics and exports, and the
command line look at — one venue, several, or all.

A venue is :attr:`Paper.library_venue <paperdeck.model.paper.Paper.library_venue>`: ``"COLM 2025"``,
``"ICLR 2026"``, ``"TMLR"``; ``""`` for papers whose source named none (shown as
:data:`NO_VENUE`). A scope is a ``frozenset`` of venues; the empty set, :data:`ALL`, is every
venue. The papers of a scope come from the store's :class:`~paperdeck.store.rows.VenueRuns`
(never the parsed catalogue): finding them costs a slice per run, and they are kept until the
catalogue or the scope changes.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, cast

from paperdeck.model.safe_text import one_line
from paperdeck.store.store import Store

if TYPE_CHECKING:
    import numpy as np

    from paperdeck.model.paper import Paper
    from paperdeck.store.rows import VenueRuns

#: What a paper id read from OpenReview starts with (its forum id follows).
_OPENREVIEW = "openreview:"
#: The scope of every venue.
ALL: frozenset[str] = frozenset()
#: How papers without a venue are named in the picker and the top bar.
NO_VENUE = "no venue"
#: Most venues the top bar names one by one; more are counted (``"3 venues"``).
NAMED_IN_LABEL = 2


def venue_counts(store: Store) -> dict[str, int]:
    """The store's papers by venue, in the order the venues were first imported; never parses
    the catalogue."""
    return store.venue_runs.counts()


def effective_scope(store: Store, chosen: Iterable[str]) -> frozenset[str]:
    """``chosen`` (venues, as kept in the settings) as a scope of ``store``: the venues it no
    longer holds left out; :data:`ALL` when none is left or every venue of the store is chosen
    (so a scope kept from a library that has grown does not hide the new venue's papers only
    when the user chose every venue there was)."""
    held = store.venue_runs.labels
    scope = frozenset(chosen) & frozenset(held)
    return ALL if not scope or len(scope) == len(held) else scope


def _spans(store: Store, scope: frozenset[str]) -> tuple[VenueRuns, list[tuple[int, int]]] | None:
    """The store's venue runs and the ``(start, stop)`` catalogue positions of each run of
    ``scope``'s papers; ``None`` for every paper (the scope is :data:`ALL` or holds every venue)."""
    runs = store.venue_runs
    if not scope or scope >= frozenset(runs.labels):
        return None
    spans = []
    start = 0
    for n, count in runs.runs:
        if runs.labels[n] in scope:
            spans.append((start, start + count))
        start += count
    return runs, spans


def scoped_ids(store: Store, scope: frozenset[str]) -> list[str] | None:
    """The ids of the papers of ``scope``, in catalogue order; ``None`` for every paper (the
    scope is :data:`ALL` or holds every venue of the store). Kept until the catalogue or the
    scope changes: do not change the list returned."""
    return _scoped(store, scope)[0]


def scope_positions(store: Store, scope: frozenset[str]) -> np.ndarray | None:
    """Where the papers of ``scope`` are in the catalogue (ascending positions, numpy
    ``int64``), from the venue runs; ``None`` for every paper (as :func:`scoped_ids`)."""
    found = _spans(store, scope)
    if found is None:
        return None
    import numpy as np

    parts = [np.arange(start, stop, dtype=np.int64) for start, stop in found[1]]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def scope_bytes(store: Store, scope: frozenset[str]) -> bytes | None:
    """One byte per paper of the store in catalogue order: 1 for the papers of ``scope``, else 0,
    from the venue runs (no numpy: a scoped query of words alone imports none); ``None`` for
    every paper (as :func:`scoped_ids`). Kept until the catalogue or the scope changes."""
    found = _spans(store, scope)
    if found is None:
        return None
    runs, spans = found
    with _lock:
        known = _bytes.get(store)
        if known is not None and known[0] is runs and known[1] == scope:
            return known[2]
    inside = bytearray(runs.paper_count)
    for start, stop in spans:
        inside[start:stop] = b"\x01" * (stop - start)
    made = bytes(inside)
    with _lock:
        _bytes[store] = (runs, scope, made)
    return made


def papers_of_scope(store: Store, scope: frozenset[str]) -> list[Paper]:
    """The papers of ``scope`` in catalogue order (every paper for :data:`ALL`); loads the
    catalogue if needed, reads no field of another venue's papers (those it holds deferred stay
    so: :meth:`Store.defer_outside <paperdeck.store.store.Store.defer_outside>`).

    Raises:
        StoreError: as :attr:`Store.papers <paperdeck.store.store.Store.papers>`.
    """
    store.load()
    found = _spans(store, scope)  # (after the parse: the parsed papers' runs)
    if found is None:
        return store.papers
    # The runs' papers taken in C, no list of every paper of the library made (no numpy, no
    # Python step per paper).
    return store.papers_at(found[1])


def scope_forums(store: Store, scope: frozenset[str]) -> AbstractSet[str] | None:
    """The OpenReview forum ids of the papers of ``scope`` (the review summaries a view within
    it reads: :meth:`ReviewStore.summaries_among
    <paperdeck.store.reviews.ReviewStore.summaries_among>`); ``None`` for every paper (as
    :func:`scoped_ids`). A :class:`ScopeForums`: asked whether it holds a forum, it answers
    from the scope's ids, no forum id of each paper made. Loads the catalogue if needed; kept
    until the catalogue or the scope changes."""
    runs = store.venue_runs
    if not scope or scope >= frozenset(runs.labels):
        return None
    with _lock:
        known = _forums.get(store)
        if known is not None and known[0] is runs and known[1] == scope:
            return known[2]
    store.load()
    forums = ScopeForums(store, scope)
    with _lock:
        _forums[store] = (runs, scope, forums)
    return forums


class ScopeForums(AbstractSet[str]):
    """The OpenReview forum ids of the papers of a venue scope, as a set that answers ``in``
    without the forum id of each paper made and hashed (a library's review summaries are asked
    for the scope's, of which the summaries file holds a few, the scope's papers thousands): a
    forum is the scope's when ``openreview:FORUM`` is a paper of the scope with that forum, or
    when a paper of the scope holds it apart from its id (:meth:`Store.forums_apart
    <paperdeck.store.store.Store.forums_apart>`). Where the store cannot tell those apart (papers
    not of one lean parse, or of a venue it deferred), and to be listed or counted, the forum
    ids are made (:func:`~paperdeck.model.review_summary.forums_of` of the scope's papers), once.

    Args:
        store: the store, its catalogue loaded.
        scope: a venue scope of some of its venues (not :data:`ALL`).
    """

    __slots__ = ("_apart", "_made", "_members", "_scope", "_store")

    def __init__(self, store: Store, scope: frozenset[str]) -> None:
        self._store = store
        self._scope = scope
        self._members = scope_members(store, scope)
        self._apart = store.forums_apart(scope)
        self._made: frozenset[str] | None = None
        if self._apart is None:
            self._every()

    def __contains__(self, forum: object) -> bool:
        made = self._made
        if made is not None:
            return forum in made
        if type(forum) is not str or not forum:
            return False
        paper_id = _OPENREVIEW + forum
        if paper_id in self._members:
            paper = self._store.paper(paper_id)
            if paper is not None and paper.openreview_id == forum:
                return True
        apart = self._apart
        return apart is not None and not self._members.isdisjoint(apart.get(forum, ()))

    def _every(self) -> frozenset[str]:
        """Each forum id of the scope's papers, made at first need and kept."""
        made = self._made
        if made is None:
            from paperdeck.model.review_summary import forums_of

            made = self._made = forums_of(papers_of_scope(self._store, self._scope))
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())

    def __hash__(self) -> int:
        return self._hash()

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> frozenset[str]:  # type: ignore[override]
        """What ``|``, ``&`` and ``-`` with another set make: a ``frozenset``."""
        return frozenset(it)


def scope_members(store: Store, scope: frozenset[str]) -> frozenset[str]:
    """The ids of the papers of ``scope`` as a set (empty for :data:`ALL`: every paper; as
    :func:`scoped_ids`, kept until the catalogue or the scope changes)."""
    return _scoped(store, scope)[1]


def within_scope(store: Store, ids: Sequence[str], scope: frozenset[str]) -> list[str]:
    """``ids`` (in their order) less the papers outside ``scope``."""
    kept, members = _scoped(store, scope)
    if kept is None:
        return list(ids)
    if len(kept) == 0:
        return []
    return [pid for pid in ids if pid in members]


def venues_of(store: Store, ids: Iterable[str]) -> dict[str, int]:
    """How many of ``ids`` each venue holds (venues with none left out), in the store's venue
    order; an id not in the store counts for none."""
    labels = store.venue_runs.labels
    if len(labels) < 2:  # one venue (or none): every paper is of it
        count = sum(1 for _ in ids)
        return {labels[0]: count} if labels and count else {}
    venue = _venue_by_id(store)
    counts = dict.fromkeys(labels, 0)
    for pid in ids:
        label = venue.get(pid)
        if label is not None:
            counts[label] += 1
    return {label: count for label, count in counts.items() if count}


def venue_of(store: Store, paper_id: str) -> str:
    """The venue of one paper (``""``: none, or the id is not in the store)."""
    labels = store.venue_runs.labels
    if len(labels) == 1:
        return labels[0]
    return _venue_by_id(store).get(paper_id, "")


def mixes_venues(store: Store, ids: Sequence[str]) -> bool:
    """Whether ``ids`` hold papers of more than one venue (the list then shows a venue column)."""
    if len(store.venue_runs.labels) < 2 or len(ids) < 2:
        return False
    venue = _venue_by_id(store)
    first = venue.get(ids[0])
    if venue.get(ids[-1]) != first:  # most mixed lists tell at once
        return True
    return len(set(map(venue.get, ids))) > 1  # in C: a tenth of a generator's time


def venues_in(store: Store, ids: Sequence[str]) -> frozenset[str]:
    """The venues of ``ids`` (those of ids not in the store left out); from the venue runs, at C
    speed (no per-paper Python loop)."""
    labels = store.venue_runs.labels
    if not ids:
        return frozenset()
    if len(labels) < 2:
        return frozenset(labels)
    found: frozenset[str | None] = frozenset(map(_venue_by_id(store).get, ids))
    return cast("frozenset[str]", found - {None})


def venue_name(venue: str) -> str:
    """A venue as the user sees it: safe text on one line, :data:`NO_VENUE` for ``""``."""
    return one_line(venue) if venue else NO_VENUE


def scope_label(scope: frozenset[str], order: Sequence[str] = ()) -> str:
    """The scope as the top bar names it: ``"all venues"``, ``"COLM 2025"``, ``"COLM 2025 +
    ICLR 2026"``, or ``"3 venues"`` past :data:`NAMED_IN_LABEL` (named in ``order``, the store's
    venue order, when given; else sorted)."""
    if not scope:
        return "all venues"
    named = [v for v in order if v in scope] or sorted(scope)
    if len(named) > NAMED_IN_LABEL:
        return f"{len(named)} venues"
    return " + ".join(venue_name(v) for v in named)


# -- the caches -------------------------------------------------------------------------------

_lock = threading.Lock()
#: Per store: (venue runs, paper ids they cover, scope) → (the scope's ids or None, their set).
_scopes: weakref.WeakKeyDictionary[Store, tuple[object, frozenset[str], list[str] | None, frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)
#: Per store: (venue runs, scope) → the forum ids of the scope's papers.
_forums: weakref.WeakKeyDictionary[Store, tuple[object, frozenset[str], ScopeForums]] = weakref.WeakKeyDictionary()
#: Per store: (venue runs, scope) → a byte per paper, 1 for the scope's (scope_bytes).
_bytes: weakref.WeakKeyDictionary[Store, tuple[object, frozenset[str], bytes]] = weakref.WeakKeyDictionary()
#: Per store: (venue runs) → venue by paper id.
_venues: weakref.WeakKeyDictionary[Store, tuple[object, dict[str, str]]] = weakref.WeakKeyDictionary()


def _scoped(store: Store, scope: frozenset[str]) -> tuple[list[str] | None, frozenset[str]]:
    found = _spans(store, scope)
    if found is None:
        return None, frozenset()
    runs, spans = found
    with _lock:
        known = _scopes.get(store)
        if known is not None and known[0] is runs and known[1] == scope:
            return known[2], known[3]
    ids = store.paper_ids
    kept: list[str] = []
    for start, stop in spans:
        kept += ids[start:stop]
    members = frozenset(kept)
    with _lock:
        _scopes[store] = (runs, scope, kept, members)
    return kept, members


def _venue_by_id(store: Store) -> dict[str, str]:
    runs = store.venue_runs
    with _lock:
        known = _venues.get(store)
        if known is not None and known[0] is runs:
            return known[1]
    ids = store.paper_ids
    venue: dict[str, str] = {}
    start = 0
    for n, count in runs.runs:
        venue.update(dict.fromkeys(ids[start : start + count], runs.labels[n]))
        start += count
    with _lock:
        _venues[store] = (runs, venue)
    return venue
