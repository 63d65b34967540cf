"""What the main screen's list shows: the filter text and starred-only, the query run on each
change (at once, or in the filter worker), the sort order, the counts beside the filter bar and
the query hints."""

from __future__ import annotations

from paperdeck.store.settings import SORT_LABELS, SORTS

#: The counts label's padding, in cells across (styles: ``#counts``).
COUNTS_PADDING = 3
#: How the counts name a sort order other than relevance.
_ORDER_NOTES = {
    order: {"list": "in list order", "changed": "recently changed first"}.get(order, f"by {SORT_LABELS[order]}")
    for order in SORTS
    if order != "relevance"
}
#: The counts' notes (by index) most wanted first, where the label lacks room for all: marks,
#: a refresh's progress, an export's, starred only, the star count, similar papers being found, indexing,
#: the sort order.
_NOTES_KEPT = (3, 6, 7, 1, 0, 5, 4, 2)


def _highlight_terms(text: str) -> tuple[str, ...]:
    """The folded words of a query's plain words, which titles highlight (none for no query)."""
    if not text.strip():
        return ()
    from paperdeck.search.highlight import highlight_terms
    from paperdeck.search.query import parse_query

    return highlight_terms(parse_query(text).words)
