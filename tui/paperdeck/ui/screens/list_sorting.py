"""The sort order of the main screen's list: the saved one, a query's own, the counts' note on
it, and whether a sort asked for is still being applied.

:class:`ListSorting` is a part of :class:`~paperdeck.ui.screens.list_filter.ListFilter` (its base):
the state of the list filter it reads is declared here. A sort other than relevance or list order
runs in the filter worker (it sorts every paper of the list), which may take seconds on a loaded
machine: from the key to the sorted list the counts say ``sorting…`` rather than name a sort the
list does not show yet, and the list is stale (dimmed, its row keys held, as for a search).
"""

from __future__ import annotations

from paperdeck.store.settings import SORT_LABELS, SORT_SHORT_LABELS, SORTS, SettingsFile
from paperdeck.store.store import Store

#: How the counts name a sort order other than relevance.
_ORDER_NOTES = {
    order: {"list": "in list order", "changed": "changed first"}.get(order, f"by {SORT_LABELS[order]}")
    for order in SORTS
    if order != "relevance"
}
#: The counts' short forms of the sort orders, for a label with no room for :data:`_ORDER_NOTES`.
SHORT_ORDER_NOTES = {order: SORT_SHORT_LABELS[order] for order in SORTS if order != "relevance"}
#: What the counts say while a sort asked for is applied, and while a query runs.
SORTING, SEARCHING = "sorting…", "searching…"


class ListSorting:
    """The list filter's sort orders (see the module)."""

    settings: SettingsFile
    store: Store
    _filter_text: str
    #: The sort picked while the bar holds a query (:attr:`order`), until the bar is blank.
    _query_order: str | None
    _ranks_for: tuple[str, bool]  # a filter text, and whether words rank it
    #: A sort was asked for (:meth:`sort_query`, :meth:`sort_saved`) and its list is not shown yet.
    sort_pending = False
    #: A sort was asked for and the list it shows is to open at its top (:meth:`take_sort_asked`).
    _sort_asked = False

    def refilter(self, after_change: bool = False) -> None:
        raise NotImplementedError  # the list filter's

    @property
    def pending_note(self) -> str:
        """What the counts say while the list shown does not answer yet: ``sorting…`` for a sort
        asked for, else ``searching…``."""
        return SORTING if self.sort_pending else SEARCHING

    @property
    def chosen_order(self) -> str:
        """The sort order saved (``SORTS``): the blank bar's, and a query's without words."""
        return self.settings.settings.sort

    @property
    def order(self) -> str:
        """The sort order in effect (``SORTS``). The rule: a query with words to rank by (or a
        ``like:``) ranks by relevance whatever sort is saved, unless a sort was picked while the
        bar held a query (:meth:`sort_query`): that one holds, through edits of the query, until
        the bar is blank again; the blank bar, and a query of field terms alone, use the saved
        sort (:attr:`chosen_order`)."""
        if self._query_order is not None and self._filter_text.strip():
            return self._query_order
        return "relevance" if self._query_ranks() else self.chosen_order

    @property
    def sorting_query(self) -> bool:
        """Whether a sort picked now is the query's own (:meth:`sort_query`): the bar holds a query."""
        return bool(self._filter_text.strip())

    def sort_label(self, order: str) -> str:
        """How the sort ``order`` (``SORTS``) is named when picked: relevance is likeness for a
        query ranked by a ``like:`` term (``most alike first``), else the sort's label."""
        if order == "relevance" and self._filter_text.strip():
            from paperdeck.search.query import parse_query

            if parse_query(self._filter_text).like:
                return "likeness, most alike first"
        return SORT_LABELS[order]

    def sort_query(self, order: str) -> None:
        """Sort the current query's list by ``order`` (``SORTS``), not saved: it holds until the bar
        is blank (:attr:`order`)."""
        self._query_order = order
        self.sort_saved()

    def sort_saved(self) -> None:
        """Show the list in the sort order now in effect (one just saved, or :meth:`sort_query`'s):
        ``sorting…`` until it is shown, then at its top: the first paper highlighted (as a new
        query's list is), not the one highlighted before somewhere in the middle."""
        self.sort_pending = True
        self._sort_asked = True
        self.refilter()

    def take_sort_asked(self) -> bool:
        """Whether the list about to be shown is a sort just asked for (:meth:`sort_saved`), which
        opens at its top; asked once (a re-filter for another reason keeps the highlighted paper)."""
        asked, self._sort_asked = self._sort_asked, False
        return asked

    def _query_ranks(self) -> bool:
        """Whether the bar's query has words (or a top-level phrase, or a ``like:``) to rank by
        (:attr:`Query.ranks`)."""
        text = self._filter_text
        if self._ranks_for[0] != text:
            from paperdeck.search.query import parse_query

            query = parse_query(text) if text.strip() else None
            self._ranks_for = (text, query is not None and query.ranks)
        return self._ranks_for[1]

    def _order_note(self) -> str:
        """The counts' note on the sort in effect: ``"by rating"``; ``"by relevance"`` when a query
        ranks so while another sort is saved; ``""`` for relevance (or list order) alone."""
        order = self.order
        if order == "relevance" and self.chosen_order != "relevance" and self._filter_text.strip():
            return "by relevance"
        return _ORDER_NOTES.get(order, "")

    def _sorted(self, ids: list[str]) -> list[str]:
        from paperdeck.search.selection import sort_ids

        return sort_ids(self.store, ids, self.chosen_order)


__all__ = ["SEARCHING", "SHORT_ORDER_NOTES", "SORTING", "ListSorting"]
