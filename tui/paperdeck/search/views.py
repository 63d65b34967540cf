"""Saved views: named queries in the filter bar's language, bound to digit keys.

Six come built in (Starred, To read, Unseen, With notes, Like my stars, What changed); the user's own are kept
(:class:`paperdeck.store.settings.Settings` ``views``: name → query, in the order saved; and
``view_sorts``: the sort each was saved with). Digits ``1``–``9``
open the views in :func:`all_views` order: the built-in ones first, then the user's.
"""

from __future__ import annotations

from collections.abc import Mapping

from paperdeck.model.safe_text import one_line
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import LikeError, liked_ids, run_query
from paperdeck.values import FrozenValue

#: Longest view name, characters.
NAME_MAX = 40


class View(FrozenValue):
    """A named query (a :class:`~paperdeck.values.FrozenValue`: made as the filter bar's first
    query imports this module).

    Attributes:
        name: what the user calls it (≤ :data:`NAME_MAX` characters).
        query: filter-bar text, e.g. ``"decision:oral rating>=6"``.
        builtin: true for the views paperdeck ships.
        sort: the sort order it opens in (:data:`~paperdeck.store.settings.SORTS`), the one in
            effect when it was saved; ``""``: none kept, its query ranks it as any query.
    """

    __slots__ = ("builtin", "name", "query", "sort")
    FIELDS = ("name", "query", "builtin", "sort")

    name: str
    query: str
    builtin: bool
    sort: str

    def __init__(self, name: str, query: str, builtin: bool = False, sort: str = "") -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "query", query)
        object.__setattr__(self, "builtin", builtin)
        object.__setattr__(self, "sort", sort)


BUILTIN_VIEWS = (
    View("Starred", "is:starred", builtin=True),
    View("To read", "status:to-read", builtin=True),
    View("Unseen", "status:unseen", builtin=True),
    View("With notes", "has:note", builtin=True),
    View("Like my stars", "like:starred", builtin=True),
    View("What changed", "is:changed", builtin=True),
)


def all_views(saved: Mapping[str, str], sorts: Mapping[str, str] | None = None) -> list[View]:
    """The built-in views, then the user's ``saved`` (name → query) in their order, each with its
    sort from ``sorts`` (name → sort order; a view not named there has none).

    A saved view with a built-in's name (any case) replaces it in place (so the user can redefine
    "Starred"). Names are cleaned (:func:`clean_name`; unusable ones are left out) and queries put
    on one line with control characters made visible (``␛``), as config.json may have been edited
    by hand.
    """
    mine: dict[str, View] = {}  # by folded name: names from config.json are cleaned, junk dropped
    sorted_by = {name.casefold(): order for name, order in (sorts or {}).items()}
    for name, query in saved.items():
        try:
            cleaned = clean_name(name)
        except ValueError:
            continue
        sort = sorted_by.get(name.casefold(), "")
        mine[cleaned.casefold()] = View(cleaned, one_line(query), sort=sort)  # control characters shown, never sent
    views = [mine.pop(v.name.casefold(), v) for v in BUILTIN_VIEWS]
    return views + list(mine.values())


def clean_name(text: str) -> str:
    """A view name from what the user typed: whitespace collapsed, control characters dropped.

    Raises:
        ValueError: nothing is left, or it is longer than :data:`NAME_MAX` characters (the message
            is a hint for the user).
    """
    name = " ".join("".join(ch for ch in text if ch.isprintable() or ch.isspace()).split())
    if not name:
        raise ValueError("a view needs a name")
    if len(name) > NAME_MAX:
        raise ValueError(f"a view name has at most {NAME_MAX} characters")
    return name


def check_query(text: str) -> str:
    """``text`` stripped, when it is a query worth saving.

    Raises:
        ValueError: empty, or malformed (the parser's hint).
    """
    text = text.strip()
    if not text:
        raise ValueError("type a query in the filter bar first")
    error = parse_query(text).error
    if error is not None:
        raise ValueError(error)
    return text


def view_count(
    searcher: Searcher, view: View, *, build: bool = False, scope: frozenset[str] = frozenset()
) -> int | None:
    """How many papers ``view`` shows now, within the venue ``scope`` (empty: all); ``None`` when
    its query is malformed, or has words while the search index is not built and ``build`` is
    false, or its ``like:`` names no paper
    (or ``like:starred`` and nothing is starred). Text terms build the searcher's corpus if need
    be, and with ``build`` the search index too (call this in a thread).

    A ``like:`` view is counted without the similarity index (which would take memory and, the
    first time, seconds): likeness only orders the papers, and leaves out the papers it is ranked
    by (:func:`~paperdeck.search.selection.liked_ids`: the starred ones for ``like:starred``, the
    paper itself for ``like:ID``), so the count is what its other terms keep but those, as the
    list shows."""
    query = parse_query(view.query)
    if query.error is not None:
        return None
    if query.words and searcher.index.built is None and not build:
        return None
    try:
        if not query.like:
            return len(run_query(searcher, query, "list", scope))
        left_out = set(liked_ids(searcher.store, query.like))  # raises LikeError for a bad like:
        unranked = query.replaced(like=[])
        return sum(1 for pid in run_query(searcher, unranked, "list", scope) if pid not in left_out)
    except LikeError:
        return None
