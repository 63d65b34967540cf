"""The nodes of a parsed filter-bar query (:mod:`paperdeck.search.query`), and what its terms are
looked up in (:class:`Lookups`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias

from paperdeck.values import FrozenValue

if TYPE_CHECKING:  # the masks are numpy's, imported where a term is evaluated: parsing needs none
    import numpy as np

    from paperdeck.model.paper import Paper, UserData
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.model.schedule import ScheduleEvent


class Lookups(Protocol):
    """What a query's terms are looked up in, for one sequence of papers: a term's answer is one
    bool per paper, by position in :attr:`papers` (``numpy`` arrays)."""

    @property
    def papers(self) -> Sequence[Paper]:
        """The papers selected from, in catalogue order."""

    @property
    def users(self) -> Mapping[str, UserData]:
        """The user's records by paper id (a paper without one has none)."""

    def position(self, paper_id: str) -> int | None:
        """Where the paper ``paper_id`` is in :attr:`papers`, ``None`` when it is not there."""

    def words(self, text: str) -> np.ndarray:
        """The papers matching every word of ``text`` as the fuzzy search does (see
        :meth:`SearchIndex.word_mask <paperdeck.search.index.SearchIndex.word_mask>`)."""

    @property
    def summaries(self) -> Mapping[str, ReviewSummary]:
        """The score summaries of the papers' reviews, by OpenReview forum id."""

    def followed(self) -> frozenset[str]:
        """The ids of the papers a follow of the user's matches (:mod:`paperdeck.search.follows`)."""

    @property
    def changed(self) -> Mapping[str, frozenset[str]]:
        """The papers an import changed since the user last opened them, by paper id, with what
        changed (:data:`paperdeck.model.changes.CHANGE_KINDS`; see :meth:`Store.changed_since_looked
        <paperdeck.store.store.Store.changed_since_looked>`)."""

    @property
    def events(self) -> Mapping[str, Sequence[ScheduleEvent]]:
        """The papers' programme events by paper id (:meth:`Store.events_by_paper
        <paperdeck.store.store.Store.events_by_paper>`); a paper without any has none."""

    def review_forums(self, value: str, inner: bool) -> frozenset[str]:
        """The OpenReview forum ids whose review text holds every word of ``value`` from a word
        start, or anywhere in a word when ``inner`` (:meth:`ReviewStore.forums_with
        <paperdeck.store.reviews.ReviewStore.forums_with>`)."""

    def text(self, field: str, value: str, inner: bool, within: np.ndarray | None) -> np.ndarray:
        """The papers whose ``field`` (``"phrase"``, ``"title"``, ``"author"``, ``"keyword"``,
        ``"area"``, ``"abstract"``) has ``value`` from a word start, or anywhere when ``inner``
        (see :func:`paperdeck.search.corpus.pattern`); right at least for the papers ``within``
        (``None``: all), the others may be ``False``."""


class QueryError(Exception):
    """A malformed query; the message is the hint shown to the user (never raised out of
    :func:`paperdeck.search.query.parse_query`)."""


class Term(FrozenValue):
    """One term. ``field``: ``"word"``, ``"phrase"`` or a field name (``"title"``, ``"rating"``…);
    ``op``: ``":"`` or, for rating and year, ``">="``, ``">"``, ``"<="``, ``"<"``, ``"="``, ``".."``;
    ``value``: as typed, unquoted (``"5..7"`` for a range). A frozen value
    (:class:`~paperdeck.values.FrozenValue`: made at a query's first key, where a dataclass's
    generated methods cost more than the parse)."""

    __slots__ = ("field", "op", "value")
    FIELDS = ("field", "value", "op")

    field: str
    value: str
    op: str

    def __init__(self, field: str, value: str, op: str = ":") -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "op", op)

    def __str__(self) -> str:
        if self.field == "word":
            return self.value
        quote = self.field == "phrase" or not self.value or any(c.isspace() or c in '()"' for c in self.value)
        value = f'"{self.value}"' if quote else self.value
        return value if self.field == "phrase" else f"{self.field}{':' if self.op == '..' else self.op}{value}"


class Group(FrozenValue):
    """``kind`` ``"AND"`` (all of) or ``"OR"`` (any of) two or more ``children``, none of them a
    group of the same kind; or ``"NOT"`` (none of) one child, not a ``"NOT"``. A frozen value, as
    :class:`Term` is."""

    __slots__ = ("children", "kind")
    FIELDS = ("kind", "children")

    kind: str
    children: tuple[Node, ...]

    def __init__(self, kind: str, children: tuple[Node, ...]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "children", children)

    def __str__(self) -> str:
        if self.kind == "NOT":
            return f"-{self.children[0]}"
        return f"({(' OR ' if self.kind == 'OR' else ' ').join(map(str, self.children))})"


Node: TypeAlias = Term | Group


__all__ = ["Group", "Lookups", "Node", "QueryError", "Term"]
