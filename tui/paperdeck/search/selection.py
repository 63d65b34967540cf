"""Which papers a query selects, and in what order: the one code path behind the filter bar, saved
views, ``paperdeck search`` and ``paperdeck export``.

Plain words rank (the fuzzy :class:`~paperdeck.search.index.SearchIndex`); field terms filter
(:func:`~paperdeck.search.query.parse_query`); then the chosen sort order (:data:`~paperdeck.store.settings.SORTS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import DECISIONS
from paperdeck.search.query import Query
from paperdeck.search.searcher import Searcher
from paperdeck.store.store import Store

if TYPE_CHECKING:
    from paperdeck.search.corpus import TextCorpus
    from paperdeck.search.similar import SimilarityIndex


class LikeError(PaperdeckError):
    """A ``like:`` term names no paper of the store, or there is nothing to rank by."""


def run_query(searcher: Searcher, query: Query, order: str = "relevance") -> list[str]:
    """Paper ids for a parsed query, ranked by its words (or its ``like:`` terms), filtered by its
    field terms, then sorted.

    With ``like:`` terms the list is ranked by likeness to those papers (``like:starred``: the
    starred ones, which are left out; ``like:ID``: that paper, shown first) and the words, if any,
    only filter.

    The indexes the query needs are taken from ``searcher``, built there first if they are not
    yet (seconds at tens of thousands of papers: call this in a worker thread unless
    ``searcher``'s ``index``, ``similarity`` and ``corpus`` are built, as far as the query needs
    them — words, ``like:`` terms, text terms).

    Args:
        searcher: the indexes over the store's papers, and the store (papers and user data).
        query: a query without ``error``.
        order: one of ``SORTS``; ``"relevance"`` keeps the ranking while the query has words or
            ``like:`` terms.

    Raises:
        LikeError: a ``like:`` id is not in the store, or nothing is starred for ``like:starred``.
    """
    store = searcher.store
    words = " ".join(query.words)
    ids = searcher.index.get().search_ids(words) if words else store.paper_ids
    if query.like:
        ids = _ranked_by_likeness(store, searcher.similarity.get(), query.like, set(ids) if words else None)
    answered = False  # whether a scan of the texts answered the whole filter
    corpus: TextCorpus | None = None
    if query.searches_text:
        corpus = searcher.corpus.get()
        # Without words every paper is a candidate: one scan of all the texts narrows them first
        # (words narrow them already, then each candidate is checked on its own text).
        required = None if query.words else query.required_ids(store.all_user_data, corpus)
        if required is not None:
            ids = [pid for pid in ids if pid in required]
            answered = query.only_text_terms
    if query.has_filter and not answered:
        paper, records = store.paper, store.all_user_data  # one copy; no record: None (cheaper than an empty one)
        ids = [pid for pid in ids if (p := paper(pid)) is not None and query.matches(p, records.get(pid), corpus)]
    if order == "relevance" and (query.words or query.like):
        return ids
    if order in ("relevance", "list") and not (query.words or query.like):
        return ids  # taken from store.paper_ids in its order: in list order already
    return sort_ids(store, ids, order)


def liked_ids(store: Store, like: list[str]) -> tuple[list[str], list[str]]:
    """The papers ``like:`` values name: (starred ones to leave out, ids to show first).

    Raises:
        LikeError: an id is not in the store, or ``starred`` and nothing is starred.
    """
    starred: list[str] = []
    named: list[str] = []
    for value in like:
        if value == "starred":
            starred = [pid for pid, record in store.all_user_data.items() if record.starred and store.paper(pid)]
            if not starred:
                raise LikeError("like:starred ranks by your starred papers: star some first")
            continue
        paper = store.paper(value) or store.paper(f"openreview:{value}")
        if paper is None:
            raise LikeError(f"like:{value}: no such paper in the store")
        named.append(paper.id)
    return starred, named


def _ranked_by_likeness(
    store: Store, similarity: SimilarityIndex, like: list[str], within: set[str] | None
) -> list[str]:
    starred, named = liked_ids(store, like)
    ranked = [pid for pid, _ in similarity.rank_by_liked([*starred, *named])]
    if not ranked and len(store.paper_ids) > len(set(starred) | set(named)):
        raise LikeError("like: those papers have no words to compare by (title, keywords or abstract)")
    first = [pid for pid in dict.fromkeys(named) if pid not in starred]
    ids = first + [pid for pid in ranked if pid not in first]
    return ids if within is None else [pid for pid in ids if pid in within]


def sort_ids(store: Store, ids: list[str], order: str) -> list[str]:
    """``ids`` in ``order`` (``SORTS``; relevance without words is list order); stable.

    ``rating`` puts unrated papers last, ``decision`` orals first, ``changed`` the papers the user
    changed most recently first and untouched papers after them in the given order.
    """
    if len(ids) < 2:
        return list(ids)
    if order in ("relevance", "list"):
        position = {pid: n for n, pid in enumerate(store.paper_ids)}
        return sorted(ids, key=lambda pid: position.get(pid, 0))
    row = store.row
    if order == "title":
        return sorted(ids, key=lambda pid: _title_key(r.title) if (r := row(pid)) else "")
    if order == "rating":
        return sorted(ids, key=lambda pid: -r.rating if (r := row(pid)) and r.rating is not None else 1.0)
    if order == "decision":
        rank = {decision: n for n, decision in enumerate(DECISIONS)}
        return sorted(ids, key=lambda pid: rank.get(r.decision if (r := row(pid)) else "unknown", 99))
    updated = {pid: record.updated for pid, record in store.all_user_data.items() if record.updated}
    changed = sorted((pid for pid in ids if pid in updated), key=updated.__getitem__, reverse=True)
    return changed + [pid for pid in ids if pid not in updated]


def _title_key(title: str) -> str:
    """How a title sorts: case-folded, leading marks and invisible characters (``**``, ``"``,
    a zero-width space) ignored."""
    folded = title.casefold()
    start = next((n for n, ch in enumerate(folded) if ch.isalnum()), len(folded))
    return folded[start:]
