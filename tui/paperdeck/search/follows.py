"""Which papers the user's follows match, and what is new for them after an import.

A follow (:class:`paperdeck.store.follows.Follow`) matches a paper by its kind:

* ``author``: one of the paper's authors has that name, compared folded as every search compares
  text (:func:`~paperdeck.search.words.fold_text`: case, accents and spacing never matter:
  ``author jose garcia`` follows "José García");
* ``keyword``: the keyword as a phrase from a word start in the title, the keywords or the
  abstract (the query ``keyword:"X" OR title:"X" OR abstract:"X"``);
* ``query``: the papers the filter-bar query selects (:func:`~paperdeck.search.selection.run_query`).

The query term ``is:followed`` is the set of papers any follow matches (:func:`followed_ids`).
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from paperdeck.model.paper import Paper
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import LikeError, PaperLookups, run_query
from paperdeck.search.views import all_views, check_query
from paperdeck.search.words import fold_text, words
from paperdeck.store.follows import FOLLOW_KINDS, Follow, clean_value
from paperdeck.store.store import Store

#: Paper id → the follows that match it, in the order followed (papers no follow matches are absent).
Matches = Mapping[str, tuple[Follow, ...]]


def check_follow(kind: str, value: str, saved_views: Mapping[str, str] | None = None) -> tuple[str, str]:
    """``(kind, value)`` cleaned, when worth following; a ``query`` that names a saved view (any
    case, :func:`~paperdeck.search.views.all_views`) is that view's query.

    Raises:
        ValueError: an unknown kind, a value with no letter or digit, too long, or a malformed
            query, or one using ``is:followed`` (the message is one line, a hint).
    """
    if kind not in FOLLOW_KINDS:
        raise ValueError(f"cannot follow a {kind!r}: follow an author, a keyword or a query")
    cleaned = clean_value(value.replace('"', " ") if kind == "keyword" else value)
    if kind == "query":
        named = {view.name.casefold(): view.query for view in all_views(saved_views or {})}
        cleaned = check_query(named.get(cleaned.casefold(), cleaned))
        if parse_query(cleaned).uses_followed:
            raise ValueError("a followed query cannot use is:followed (it would follow itself)")
    elif not words(cleaned):
        raise ValueError(f"an {kind} to follow needs a letter or digit" if kind == "author" else
                         f"a {kind} to follow needs a letter or digit")  # fmt: skip
    return kind, cleaned


def author_key(name: str) -> str:
    """An author's name as follows compare it: folded (case, accents), white space collapsed."""
    return " ".join(fold_text(name).split())


def matches(searcher: Searcher, follows: Sequence[Follow], within: Iterable[str] | None = None) -> dict[str, tuple[Follow, ...]]:
    """The papers of ``searcher``'s store each follow matches (see the module docstring): paper id
    → its follows in ``follows`` order. ``within``: only these paper ids are looked at (``None``: all).

    Builds the indexes a keyword or query follow needs (the text corpus; the search index for a
    query with words): call this in a worker thread unless they are built. A query follow that
    is malformed (a file edited by hand), uses ``is:followed`` or ranks by ``like:`` with nothing
    to rank by matches nothing.
    """
    store = searcher.store
    papers = store.papers
    keep = None if within is None else set(within)
    found: dict[str, list[Follow]] = {}

    def add(follow: Follow, ids: Iterable[str]) -> None:
        for paper_id in ids:
            if keep is None or paper_id in keep:
                found.setdefault(paper_id, []).append(follow)

    by_author = [f for f in follows if f.kind == "author"]
    if by_author:
        wanted: dict[str, list[Follow]] = {}
        for follow in by_author:
            wanted.setdefault(author_key(follow.value), []).append(follow)
        for paper in papers if keep is None else [p for p in papers if p.id in keep]:
            for follow in _authors_followed(paper, wanted):
                found.setdefault(paper.id, []).append(follow)
    lookups = PaperLookups.of(searcher, followed=_nothing)
    for follow in follows:
        if follow.kind == "keyword":
            phrase = follow.value.replace('"', " ")
            query = parse_query(f'keyword:"{phrase}" OR title:"{phrase}" OR abstract:"{phrase}"')
            mask = query.mask(lookups)
            if mask is not None and query.error is None:
                add(follow, (papers[n].id for n in np.flatnonzero(mask)))
        elif follow.kind == "query":
            parsed = parse_query(follow.value)
            if parsed.error is not None or parsed.uses_followed:
                continue
            try:
                add(follow, run_query(searcher, parsed, "list"))
            except LikeError:
                continue
    order = {follow: n for n, follow in enumerate(follows)}
    return {pid: tuple(sorted(dict.fromkeys(fs), key=order.__getitem__)) for pid, fs in found.items()}


def _authors_followed(paper: Paper, wanted: Mapping[str, list[Follow]]) -> list[Follow]:
    return [follow for name in paper.authors for follow in wanted.get(author_key(name), ())]


def _nothing() -> frozenset[str]:
    return frozenset()


_cache: weakref.WeakKeyDictionary[Store, tuple[tuple[int, int, int], dict[str, tuple[Follow, ...]]]] = (
    weakref.WeakKeyDictionary()
)
_cache_lock = threading.Lock()


def followed_matches(searcher: Searcher) -> dict[str, tuple[Follow, ...]]:
    """:func:`matches` of every follow of the store over all its papers, computed again only when
    the catalogue, the follows or the user's data changed (see :func:`matches` for the threads)."""
    store = searcher.store
    follows = store.follows.all()
    stamp = (store.catalogue_generation, store.follows.version, store.user_version)
    with _cache_lock:
        cached = _cache.get(store)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found = matches(searcher, follows) if follows else {}
    with _cache_lock:
        _cache[store] = (stamp, found)
    return found


def followed_ids(searcher: Searcher) -> frozenset[str]:
    """The ids of the papers any follow matches: what ``is:followed`` keeps."""
    return frozenset(followed_matches(searcher))


def reason(follows: Sequence[Follow]) -> str:
    """Why a paper is marked: ``"following author Jane Doe, keyword diffusion"``."""
    return "following " + ", ".join(follow.label for follow in follows)


def new_for_follows(found: Matches, new_ids: Iterable[str]) -> tuple[int, Counter[Follow]]:
    """Of the papers ``new_ids`` (an import's), how many some follow matches, and how many each
    follow matches (a paper matched by two follows counts once in the first, once for each)."""
    papers = 0
    by_follow: Counter[Follow] = Counter()
    for paper_id in dict.fromkeys(new_ids):
        follows = found.get(paper_id)
        if follows:
            papers += 1
            by_follow.update(follows)
    return papers, by_follow


def new_for_follows_line(found: Matches, new_ids: Iterable[str]) -> str | None:
    """``"followed: 3 new papers (author Jane Doe 2, keyword diffusion 1)"``, or ``None`` when no
    new paper matches a follow."""
    papers, by_follow = new_for_follows(found, new_ids)
    if not papers:
        return None
    parts = ", ".join(f"{follow.label} {count}" for follow, count in by_follow.most_common())
    return f"followed: {papers} new paper{'' if papers == 1 else 's'} ({parts})"


__all__ = [
    "Matches", "author_key", "check_follow", "followed_ids", "followed_matches", "matches", "new_for_follows",
    "new_for_follows_line", "reason",
]  # fmt: skip
