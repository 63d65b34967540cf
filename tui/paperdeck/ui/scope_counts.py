"""The user's counts the top bar and the list's edge show, for the venue scope: the stars (``★ 2``,
with the library's when the scope leaves some out: ``★ 0 (5 all)``) and the records by reading
status (``388 unseen · 3 to-read``). The store counts every venue
(:meth:`~paperdeck.store.store.Store.user_counts`); under a scope of some venues, the papers of
the other venues are not counted.

Counted over the user's records (a few, beside the catalogue), those of the scope's papers
kept; the answer is the same object until the user data, the catalogue or the scope changes, so
that what is derived from it (the list's tally by status) is not made again at each key.
"""

from __future__ import annotations

import weakref
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperdeck.store.store import Store

#: The last counts, by store (weakly: an ``id()`` key outlives its store and may be handed to
#: another): (the store's statuses, the scope's ids, answer).
_held: weakref.WeakKeyDictionary[Store, tuple[object, object, tuple[int, int, Counter[str]]]] = (
    weakref.WeakKeyDictionary()
)


def scoped_user_counts(store: Store, scope: frozenset[str]) -> tuple[int, int, Counter[str]]:
    """(papers starred in ``scope``, papers starred in the store, the user records of ``scope``'s
    papers by reading status), as :meth:`Store.user_counts` counts them for every venue (which
    they are when the scope leaves no venue out)."""
    from paperdeck.search.venues import scope_members, scoped_ids

    starred, statuses = store.user_counts()
    ids = scoped_ids(store, scope) if scope else None
    if ids is None:
        return starred, starred, statuses
    held = _held.get(store)
    if held is not None and held[0] is statuses and held[1] is ids:
        return held[2]
    records = store.all_user_data
    inside = scope_members(store, scope)  # (made with ids, kept)
    shown = 0
    by_status = Counter[str]()
    for pid, record in records.items():  # a few records, not every paper of the scope
        if pid in inside:
            shown += record.starred
            by_status[record.status] += 1  # every record given is a non-empty one
    answer = (shown, starred, by_status)
    _held[store] = (statuses, ids, answer)
    return answer


def star_note(shown: int, total: int, *, short: bool = False) -> str:
    """The top bar's star count: ``"★ 2"``, ``"★ 0 (5 all)"`` when the scope leaves stars out
    (``short``: ``"★ 0"``), ``""`` when nothing is starred."""
    if not total:
        return ""
    if shown == total or short:
        return f"★ {shown:,}"
    return f"★ {shown:,} ({total:,} all)"


__all__ = ["scoped_user_counts", "star_note"]
