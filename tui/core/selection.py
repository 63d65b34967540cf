"""Which papers a query selects, and in what order: the one code path behind the filter bar, saved
views, ``paperdeck search`` and ``paperdeck export``.

Plain words rank (the fuzzy :class:`~tui.core.search.SearchIndex`); field terms filter
(:func:`~tui.core.query.parse_query`); then the chosen sort order (:data:`~tui.core.settings.SORTS`).
"""

from __future__ import annotations

from tui.core.paper import DECISIONS
from tui.core.query import Query
from tui.core.search import SearchIndex
from tui.core.store import Store


def run_query(store: Store, index: SearchIndex | None, query: Query, order: str = "relevance") -> list[str]:
    """Paper ids for a parsed query, ranked by its words, filtered by its field terms, then sorted.

    Args:
        store: the loaded store (papers and user data).
        index: the search index over ``store.papers``; only needed when the query has words.
        query: a query without ``error``.
        order: one of ``SORTS``; ``"relevance"`` keeps the ranking while the query has words.

    Raises:
        ValueError: the query has words but no index was given.
    """
    words = " ".join(query.words)
    if words:
        if index is None:
            raise ValueError("a query with words needs a search index")
        ids = index.paper_ids(index.search(words).positions)
    else:
        ids = store.paper_ids
    if query.has_filter:
        paper, user = store.paper, store.user_data
        ids = [pid for pid in ids if (p := paper(pid)) is not None and query.matches(p, user(pid))]
    if order == "relevance" and query.words:
        return ids
    return sort_ids(store, ids, order)


def sort_ids(store: Store, ids: list[str], order: str) -> list[str]:
    """``ids`` in ``order`` (``SORTS``; relevance without words is list order); stable.

    ``rating`` puts unrated papers last, ``decision`` orals first, ``changed`` the papers the user
    changed most recently first and untouched papers after them in the given order.
    """
    if order in ("relevance", "list"):
        position = {pid: n for n, pid in enumerate(store.paper_ids)}
        return sorted(ids, key=lambda pid: position.get(pid, 0))
    row, user = store.row, store.user_data
    if order == "title":
        return sorted(ids, key=lambda pid: r.title.casefold() if (r := row(pid)) else "")
    if order == "rating":
        return sorted(ids, key=lambda pid: -r.rating if (r := row(pid)) and r.rating is not None else 1.0)
    if order == "decision":
        rank = {decision: n for n, decision in enumerate(DECISIONS)}
        return sorted(ids, key=lambda pid: rank.get(r.decision if (r := row(pid)) else "unknown", 99))
    changed = [pid for pid in ids if user(pid).updated]
    changed.sort(key=lambda pid: user(pid).updated, reverse=True)
    untouched = [pid for pid in ids if not user(pid).updated]
    return changed + untouched


def build_index(store: Store) -> SearchIndex:
    """A search index over the store's papers and the user's notes (seconds at 20,000 papers)."""
    notes = {pid: record.note for pid, record in store.all_user_data.items() if record.note}
    return SearchIndex(store.papers, notes)
