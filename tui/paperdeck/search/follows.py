"""Which papers the user's follows match, and what is new for them after an import.

A follow (:class:`paperdeck.store.follows.Follow`) matches a paper by its kind:

* ``author``: one of the paper's authors has that name, compared folded as every search compares
  text (:func:`~paperdeck.text.fold.fold_text`: case, accents and spacing never matter:
  ``author jose garcia`` follows "José García");
* ``keyword``: the keyword as a phrase from a word start in the title, the keywords or the
  abstract (the query ``keyword:"X" OR title:"X" OR abstract:"X"``);
* ``query``: the papers the filter-bar query keeps: its words as the search finds them, and its
  terms (a ``like:`` term, which only ranks, cannot be followed).

The query term ``is:followed`` is the set of papers any follow matches
(:func:`paperdeck.search.selection.followed_by`). Matching runs on lookups whose ``is:followed``
is empty (:func:`paperdeck.search.selection.follow_lookups`): a follow never follows itself.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from paperdeck.model.paper import Paper
from paperdeck.search.query import Lookups, parse_query
from paperdeck.search.words import words
from paperdeck.store.follows import FOLLOW_KINDS, Follow, clean_value
from paperdeck.store.store import Store
from paperdeck.text.fold import fold_text

if TYPE_CHECKING:
    import numpy as np

#: Paper id → the follows that match it, in the order followed (papers no follow matches are absent).
Matches = Mapping[str, tuple[Follow, ...]]


def check_follow(kind: str, value: str, views: Mapping[str, str] | None = None) -> tuple[str, str]:
    """``(kind, value)`` cleaned, when worth following; a ``query`` that names one of ``views``
    (name → query, any case: :func:`paperdeck.search.views.all_views`) is that view's query.

    Raises:
        ValueError: an unknown kind, a value with no letter or digit, too long, or a malformed
            query, or one using ``is:followed`` or ``like:`` (the message is one line, a hint).
    """
    if kind not in FOLLOW_KINDS:
        raise ValueError(f"cannot follow a {kind!r}: follow an author, a keyword or a query")
    cleaned = clean_value(value.replace('"', " ") if kind == "keyword" else value)
    if kind == "query":
        named = {name.casefold(): query for name, query in (views or {}).items()}
        cleaned = clean_value(named.get(cleaned.casefold(), cleaned))
        query = parse_query(cleaned)
        if query.error is not None:
            raise ValueError(query.error)
        if query.like:
            raise ValueError("like: ranks the list and keeps every paper: follow words or terms instead")
        if query.uses_followed:
            raise ValueError("a followed query cannot use is:followed (it would follow itself)")
        if not query.words and not query.has_filter:
            raise ValueError("a followed query needs a word or a term, e.g. decision:oral")
    elif not words(cleaned):
        raise ValueError(f"an {kind} to follow needs a letter or digit" if kind == "author" else
                         f"a {kind} to follow needs a letter or digit")  # fmt: skip
    return kind, cleaned


def author_key(name: str) -> str:
    """An author's name as follows compare it: folded (case, accents), white space collapsed."""
    return " ".join(fold_text(name).split())


def matches(
    lookups: Lookups, follows: Sequence[Follow], within: Iterable[str] | None = None
) -> dict[str, tuple[Follow, ...]]:
    """The papers of ``lookups`` each follow matches (see the module docstring): paper id → its
    follows in ``follows`` order. ``within``: only these paper ids are looked at (``None``: all).

    Asks ``lookups`` for the indexes a keyword or query follow needs (the text corpus; the search
    index for a query with words), which may build them: call this in a worker thread unless
    they are built. A query follow that is malformed (a file edited by hand), or uses
    ``is:followed`` or ``like:``, matches nothing.
    """
    papers = lookups.papers
    keep = None if within is None else set(within)
    found: dict[str, list[Follow]] = {}
    by_author = [f for f in follows if f.kind == "author"]
    if by_author:
        wanted: dict[str, list[Follow]] = {}
        for follow in by_author:
            wanted.setdefault(author_key(follow.value), []).append(follow)
        for paper in papers if keep is None else [p for p in papers if p.id in keep]:
            for follow in _authors_followed(paper, wanted):
                found.setdefault(paper.id, []).append(follow)
    for follow in follows:
        mask = _mask(follow, lookups) if follow.kind != "author" else None
        if mask is None:
            continue
        for n in mask.nonzero()[0].tolist():
            paper_id = papers[n].id
            if keep is None or paper_id in keep:
                found.setdefault(paper_id, []).append(follow)
    order = {follow: n for n, follow in enumerate(follows)}
    return {pid: tuple(sorted(dict.fromkeys(fs), key=order.__getitem__)) for pid, fs in found.items()}


def follow_query(follow: Follow) -> str:
    """The filter-bar query that lists a follow's papers (the Following list's ``enter``): a
    query follow's own query; a keyword's ``keyword:"X" OR title:"X" OR abstract:"X"``, which is
    how it matches; an author's ``author:"X"``, which keeps the author's papers (and those of a
    longer name holding the name at a word start, ``Mary Jane Doe`` for ``Jane Doe``)."""
    if follow.kind == "query":
        return follow.value
    phrase = " ".join(follow.value.replace('"', " ").split())
    if follow.kind == "author":
        return f'author:"{phrase}"'
    return f'keyword:"{phrase}" OR title:"{phrase}" OR abstract:"{phrase}"'


def _mask(follow: Follow, lookups: Lookups) -> np.ndarray | None:
    """The papers a keyword or query follow matches, one bool each; ``None``: none can."""
    if follow.kind == "keyword":
        query = parse_query(follow_query(follow))
        return query.mask(lookups) if query.error is None else None
    query = parse_query(follow.value)
    if query.error is not None or query.uses_followed or query.like:
        return None
    found = lookups.words(" ".join(query.words)) if query.words else None
    if not query.has_filter:
        return found
    kept = query.mask(lookups, within=found)
    return kept if found is None or kept is None else kept & found


def _authors_followed(paper: Paper, wanted: Mapping[str, list[Follow]]) -> list[Follow]:
    return [follow for name in paper.authors for follow in wanted.get(author_key(name), ())]


_cache: weakref.WeakKeyDictionary[Store, tuple[tuple[int, int, int], dict[str, tuple[Follow, ...]]]] = (
    weakref.WeakKeyDictionary()
)
_cache_lock = threading.Lock()


def followed_matches(store: Store, lookups: Callable[[], Lookups]) -> dict[str, tuple[Follow, ...]]:
    """:func:`matches` of every follow of ``store`` over all its papers (``lookups`` gives the
    store's lookups, asked only when there is something to match), computed again only when the
    catalogue, the follows or the user's data changed (see :func:`matches` for the threads).

    Raises:
        StoreError: the follows cannot be read.
    """
    follows = store.follows.all()
    stamp = (store.catalogue_generation, store.follows.version, store.user_version)
    with _cache_lock:
        cached = _cache.get(store)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found = matches(lookups(), follows) if follows and not store.is_empty else {}
    with _cache_lock:
        _cache[store] = (stamp, found)
    return found


def reason(follows: Sequence[Follow]) -> str:
    """Why a paper is marked: ``"following author Jane Doe, keyword diffusion"``."""
    return "following " + ", ".join(follow.label for follow in follows)


def new_for_follows(found: Matches, new_ids: Iterable[str]) -> tuple[int, list[tuple[Follow, int]]]:
    """Of the papers ``new_ids`` (an import's), how many some follow matches, and how many each
    follow matches (a paper matched by two follows counts once in the first, once for each),
    most first, then authors, keywords, queries, each by value."""
    papers = 0
    by_follow: Counter[Follow] = Counter()
    for paper_id in dict.fromkeys(new_ids):
        follows = found.get(paper_id)
        if follows:
            papers += 1
            by_follow.update(follows)
    ranked = sorted(by_follow.items(), key=lambda item: (-item[1], FOLLOW_KINDS.index(item[0].kind), item[0].key))
    return papers, ranked


def new_for_follows_line(found: Matches, new_ids: Iterable[str]) -> str | None:
    """``"followed: 3 new papers (author Jane Doe 2, keyword diffusion 1)"``, or ``None`` when no
    new paper matches a follow."""
    papers, by_follow = new_for_follows(found, new_ids)
    if not papers:
        return None
    parts = ", ".join(f"{follow.label} {count}" for follow, count in by_follow)
    return f"followed: {papers} new paper{'' if papers == 1 else 's'} ({parts})"


__all__ = [
    "Matches", "author_key", "check_follow", "followed_matches", "matches", "new_for_follows",
    "new_for_follows_line", "reason",
]  # fmt: skip
