"""Which papers a query selects, and in what order: the one code path behind the filter bar, saved
views, ``paperdeck search`` and ``paperdeck export``.

Plain words rank (the fuzzy :class:`~paperdeck.search.index.SearchIndex`); field terms filter
(:func:`~paperdeck.search.query.parse_query`); then the chosen sort order (:data:`~paperdeck.store.settings.SORTS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property, partial
from itertools import compress
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import AmbiguousId, NothingToDo, PaperdeckError
from paperdeck.model.safe_text import one_line
from paperdeck.search.query import Query
from paperdeck.search.searcher import Searcher
from paperdeck.store.store import Store
from paperdeck.text.fold import fold_text

if TYPE_CHECKING:  # the papers' module: a query ranked by its words needs none
    import numpy as np

    from paperdeck.model.paper import Paper, UserData
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.model.schedule import ScheduleEvent
    from paperdeck.search.corpus import TextCorpus
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.similar import SimilarityIndex
    from paperdeck.store.follows import Follow


class LikeError(PaperdeckError):
    """A ``like:`` term names no paper of the store, or there is nothing to rank by."""


class NothingStarred(LikeError, NothingToDo):
    """``like:starred`` with no paper starred: nothing to rank by, nothing to do (the command
    line's exit status 1)."""


def run_query(
    searcher: Searcher, query: Query, order: str = "relevance", scope: frozenset[str] = frozenset()
) -> Sequence[str]:
    """Paper ids for a parsed query, ranked by its words (or its ``like:`` terms), filtered by
    its field terms, then sorted (a sequence not to be changed: ranked by words, an
    :class:`~paperdeck.search.index.IdsAt` whose ids are looked up as they are read). Without
    words, relevance is the ranking of the words of the phrases every paper must contain
    (:attr:`Query.phrase_words`: ``"speculative decoding"`` ranks as ``speculative decoding``),
    else list order, but for a text term in the substring form (``title:*lora``): the papers
    matching it from a word start come first.

    With ``like:`` terms the list is ranked by likeness to those papers (``like:starred``: the
    starred ones, which are left out; ``like:ID``: that paper, left out too) when ``order`` is
    relevance (likeness is then its relevance), else it is sorted by ``order`` as any list is;
    the words, if any, only filter.

    With a ``scope`` of some of the store's venues, the field terms are looked up in the scope's
    papers only (:class:`ScopedLookups`): the papers of other venues are not read (those the
    catalogue holds deferred, :meth:`Store.defer_outside
    <paperdeck.store.store.Store.defer_outside>`, stay unparsed), but by a ``like:`` term, whose
    likeness is measured over every paper, and by a text term's corpus, built over every paper.

    The indexes the query needs are taken from ``searcher``, built there first if they are not
    yet (seconds at tens of thousands of papers: call this in a worker thread unless
    ``searcher``'s ``index``, ``similarity`` and ``corpus`` are built, as far as the query needs
    them — words (:attr:`Query.searches_words`), ``like:`` terms, text terms
    (:attr:`Query.searches_text`)).

    Args:
        searcher: the indexes over the store's papers, and the store (papers and user data).
        query: a query without ``error``.
        order: one of ``SORTS``; ``"relevance"`` keeps the ranking while the query has words.
        scope: the venues whose papers are kept (:mod:`paperdeck.search.venues`; empty: all).

    Raises:
        LikeError: a ``like:`` id is not in the store, or nothing is starred for ``like:starred``.
    """
    if scope and not query.like:
        from paperdeck.search.venues import papers_of_scope, scope_bytes, scope_positions, scoped_ids

        words_alone = " ".join(query.words) and not query.has_filter
        if words_alone and (inside := scope_bytes(searcher.store, scope)) is not None:
            return _scoped_words(searcher, query, order, inside, scope)
        positions = scope_positions(searcher.store, scope)
        if positions is not None:
            scoped = scoped_ids(searcher.store, scope)
            assert scoped is not None  # as positions
            lookups = ScopedLookups.of(searcher, positions, papers=partial(papers_of_scope, searcher.store, scope))
            return _run_query(searcher, query, order, lookups, scoped, positions)
    # Ranked words list no paper of ``paper_ids``: the store's ids are not copied for them (a
    # list of every id made, then freed, at every keystroke).
    paper_ids = [] if " ".join(query.words) and not query.like else searcher.store.paper_ids
    ids = _run_query(searcher, query, order, PaperLookups.of(searcher), paper_ids)
    if scope:
        from paperdeck.search.venues import within_scope

        ids = within_scope(searcher.store, ids, scope)
    return ids


def _run_query(
    searcher: Searcher,
    query: Query,
    order: str,
    lookups: PaperLookups,
    paper_ids: list[str],
    positions: np.ndarray | None = None,
) -> Sequence[str]:
    """:func:`run_query` over ``lookups`` (whose papers' ids are ``paper_ids``): every paper of
    the store, or those at ``positions`` of it (:class:`ScopedLookups`: the scope's, with field terms).
    ``paper_ids`` is read only for a query without words (it may be empty for one with words)."""
    store = searcher.store
    words = " ".join(query.words)
    ids: Sequence[str]
    if query.like:
        keep = query.mask(lookups)  # one bool per paper, in catalogue order; None: every paper
        within = set(searcher.index.get().search_ids(words)) if words else None
        ids = _ranked_by_likeness(store, searcher.similarity.get(), query.like, within)
        if keep is not None:
            position = lookups.position
            ids = [pid for pid in ids if (n := position(pid)) is not None and keep[n]]
        if order == "relevance":
            return ids  # likeness is the query's own order
        return sort_ids(store, ids, order)  # a sort picked: as any other list
    if words:
        index = searcher.index.get()
        found = index.search_positions(words)
        if query.has_filter:  # the field terms' masks are numpy's (the words alone need none)
            import numpy as np

            at = np.asarray(found, dtype=np.int64)
            kept = np.zeros(len(index), dtype=bool)
            if positions is None:
                kept[at] = True
                mask = query.mask(lookups, within=kept)
                assert mask is not None
                kept &= mask
            else:  # the scope's papers found, then the field terms over the scope's papers
                hit = np.zeros(len(index), dtype=bool)
                hit[at] = True
                mask = query.mask(lookups, within=hit[positions])
                kept[positions] = hit[positions] if mask is None else hit[positions] & mask
            found = list(compress(found, kept[at].tolist()))
            ids = index.ids_view(found)  # each id looked up when read
        else:
            ids = index.ids_view(found)
    elif (keep := query.mask(lookups)) is not None:
        import numpy as np

        if order == "relevance" and (phrase := " ".join(query.phrase_words)):  # ranked as its words unquoted
            holding = [pid for pid, kept in zip(paper_ids, keep.tolist(), strict=True) if kept]
            rank = {pid: n for n, pid in enumerate(searcher.index.get().search_ids(phrase))}
            return sorted(holding, key=lambda pid: rank.get(pid, len(rank)))  # stable: the rest in list order
        if order == "relevance" and (starts := query.word_start_mask(lookups)) is not None:
            keep = keep.astype(np.int8) + (keep & starts)  # 2: from a word start too, listed first
            ids = [pid for pid, kept in zip(paper_ids, keep.tolist(), strict=True) if kept == 2]
            ids += [pid for pid, kept in zip(paper_ids, keep.tolist(), strict=True) if kept == 1]
            return ids
        ids = [pid for pid, kept in zip(paper_ids, keep.tolist(), strict=True) if kept]
    else:
        ids = list(paper_ids)
    if order == "relevance" and words:
        return ids
    if order in ("relevance", "list") and not words:
        return ids  # in list order already
    return sort_ids(store, ids if isinstance(ids, list) else list(ids), order)


def _scoped_words(searcher: Searcher, query: Query, order: str, inside: bytes, scope: frozenset[str]) -> Sequence[str]:
    """:func:`_run_query` of a query of words alone (no field term, no ``like:``) in ``scope``,
    ``inside`` its byte per paper (:func:`~paperdeck.search.venues.scope_bytes`): the scope's
    papers the words find, ranked among themselves (:meth:`SearchIndex.search_within
    <paperdeck.search.index.SearchIndex.search_within>`: the other venues' only counted), by
    position, each id looked up when read (a screenful of them); no numpy, no id of another
    venue looked up."""
    store = searcher.store
    index = searcher.index.get()
    ids: Sequence[str]
    if len(inside) == len(index) == store.paper_count:  # the scope's ranked, the others counted
        ids = index.ids_view(index.search_within(" ".join(query.words), inside))
    else:  # an index not of these papers
        from paperdeck.search.venues import scope_members

        members = scope_members(store, scope)
        ids = [pid for pid in index.ids_at(index.search_positions(" ".join(query.words))) if pid in members]
    if order == "relevance":
        return ids
    return sort_ids(store, ids if isinstance(ids, list) else list(ids), order)


class PaperLookups:
    """The :class:`~paperdeck.search.query.Lookups` of some papers: words in a search index over
    them, text in a corpus of them (each asked for at first need).

    Args:
        papers: gives the papers, in the order the index and the corpus were built from.
        users: gives the user's records by paper id.
        index: gives the search index over the papers (may build it).
        corpus: gives the text corpus of the papers (may build it).
        summaries: gives the score summaries of the papers' reviews, by forum id (none by default).
        review_forums: gives the forum ids whose review text holds a value (none by default).
        followed: gives the ids of the papers the user's follows match (none by default).
        changed: gives the papers changed since the user last opened them, with what changed
            (none by default).
        events: gives the papers' programme events by paper id (none by default).

    Each is asked for once, when a term first needs it.
    """

    def __init__(
        self,
        papers: Callable[[], Sequence[Paper]],
        users: Callable[[], Mapping[str, UserData]],
        index: Callable[[], SearchIndex],
        corpus: Callable[[], TextCorpus],
        summaries: Callable[[], Mapping[str, ReviewSummary]] = dict,
        review_forums: Callable[[str, bool], frozenset[str]] = lambda value, inner: frozenset(),
        followed: Callable[[], frozenset[str]] = frozenset,
        changed: Callable[[], Mapping[str, frozenset[str]]] = dict,
        events: Callable[[], Mapping[str, Sequence[ScheduleEvent]]] = dict,
    ) -> None:
        self._events = events
        self._followed = followed
        self._changed = changed
        self._review_forums = review_forums
        self._summaries = summaries
        self._papers = papers
        self._users = users
        self._index = index
        self._corpus = corpus
        self._positions: dict[str, int] | None = None
        self._followed_ids: frozenset[str] | None = None

    @classmethod
    def of(cls, searcher: Searcher, followed: Callable[[], frozenset[str]] | None = None) -> PaperLookups:
        """The lookups of a searcher's store, with its indexes; ``followed`` (default: what the
        store's follows match, :func:`followed_by`) gives ``is:followed``."""
        store = searcher.store
        if followed is None:

            def followed() -> frozenset[str]:
                return frozenset(followed_by(searcher))

        # The reviews store is opened by the first term that reads it (a words-only query reads none).
        return cls(
            lambda: store.papers, lambda: store.all_user_data, searcher.index.get, searcher.corpus.get,
            lambda: store.reviews.summaries(), lambda value, inner: store.reviews.forums_with(value, inner),
            followed, store.changed_since_looked, store.events_by_paper,
        )  # fmt: skip

    @cached_property
    def papers(self) -> Sequence[Paper]:
        return self._papers()

    @cached_property
    def summaries(self) -> Mapping[str, ReviewSummary]:
        return self._summaries()

    @cached_property
    def events(self) -> Mapping[str, Sequence[ScheduleEvent]]:
        return self._events()

    @cached_property
    def changed(self) -> Mapping[str, frozenset[str]]:
        return self._changed()

    @cached_property
    def users(self) -> Mapping[str, UserData]:
        return self._users()

    def position(self, paper_id: str) -> int | None:
        if self._positions is None:
            self._positions = {paper.id: n for n, paper in enumerate(self.papers)}
        return self._positions.get(paper_id)

    def words(self, text: str) -> np.ndarray:
        return self._index().word_mask(text)

    def followed(self) -> frozenset[str]:
        if self._followed_ids is None:
            self._followed_ids = self._followed()
        return self._followed_ids

    def review_forums(self, value: str, inner: bool) -> frozenset[str]:
        return self._review_forums(value, inner)

    def text(self, field: str, value: str, inner: bool, within: np.ndarray | None) -> np.ndarray:
        return self._corpus().mask(field, value, inner=inner, within=within)


class ScopedLookups(PaperLookups):
    """The lookups of the papers at some positions of the store's catalogue (a venue scope's):
    :attr:`papers` holds those papers only, and the words' and texts' masks (over every paper)
    are cut down to them; :meth:`position` is a paper's place among them.

    Args:
        positions: the positions, ascending (numpy ``int64``).
        size: how many papers the store holds (the masks' length over every paper).
        others: as :class:`PaperLookups`'s arguments.
    """

    def __init__(self, positions: np.ndarray, size: int, **others: Any) -> None:
        super().__init__(**others)
        self._at = positions
        self._size = size

    @classmethod
    def of(  # type: ignore[override]
        cls,
        searcher: Searcher,
        positions: np.ndarray,
        followed: Callable[[], frozenset[str]] | None = None,
        papers: Callable[[], Sequence[Paper]] | None = None,
    ) -> ScopedLookups:
        """The lookups of ``searcher``'s store's papers at ``positions``; ``papers`` gives those
        papers (a venue scope's: :func:`~paperdeck.search.venues.papers_of_scope`, taken by
        its runs), else (or when it gives another number of papers: the catalogue parsed since
        the positions were found is not the one they were found in) they are picked out of
        every paper."""
        whole = PaperLookups.of(searcher, followed)
        store = searcher.store
        at = positions

        def picked() -> Sequence[Paper]:
            if papers is not None and len(given := papers()) == len(at):
                return given
            every = store.papers
            return [every[n] for n in at.tolist()]

        return cls(
            positions, store.paper_count, papers=picked, users=whole._users, index=whole._index,
            corpus=whole._corpus, summaries=whole._summaries, review_forums=whole._review_forums,
            followed=whole._followed, changed=whole._changed, events=whole._events,
        )  # fmt: skip

    def words(self, text: str) -> np.ndarray:
        found: np.ndarray = self._index().word_mask(text)[self._at]
        return found

    def text(self, field: str, value: str, inner: bool, within: np.ndarray | None) -> np.ndarray:
        import numpy as np

        every = None
        if within is not None:
            every = np.zeros(self._size, dtype=bool)
            every[self._at] = within
        found: np.ndarray = self._corpus().mask(field, value, inner=inner, within=every)[self._at]
        return found


def follow_lookups(searcher: Searcher) -> PaperLookups:
    """The lookups follows are matched on (:func:`paperdeck.search.follows.matches`): those of
    the searcher's store, with no paper ``is:followed``."""
    return PaperLookups.of(searcher, followed=frozenset)


def followed_by(searcher: Searcher) -> dict[str, tuple[Follow, ...]]:
    """The papers of the searcher's store the user's follows match: paper id → its follows
    (:func:`paperdeck.search.follows.followed_matches`, cached until the catalogue, the follows
    or the user's data change). May build the text corpus and the search index: call it in a
    worker thread unless they are built.

    Raises:
        StoreError: the follows cannot be read.
    """
    from paperdeck.search.follows import followed_matches  # deferred: most queries name no follow

    return followed_matches(searcher.store, lambda: follow_lookups(searcher))


def pasted_paper_term(store: Store, pasted: str) -> str:
    """The ``id:`` term of the paper ``pasted`` names as every command taking ids reads one
    (:meth:`Store.paper_named <paperdeck.store.store.Store.paper_named>`: trimmed, a link with or
    without its scheme, an older alias, an id in another case when one paper has it), when the
    query language would not read ``pasted`` as an id itself (a bare id in one case:
    ``wzn8debh4w``, an alias); ``""`` otherwise (none named, or already read as that id).

    Raises:
        StoreError: as :meth:`Store.paper_named <paperdeck.store.store.Store.paper_named>`.
    """
    from paperdeck.search.pasted_ids import bare_id, pasted_id

    text = pasted.strip()
    if not text or any(part.isspace() for part in text) or pasted_id(text) or bare_id(text):
        return ""
    try:
        paper = store.paper_named(text)
    except AmbiguousId:  # several papers have it: the words are searched as words
        return ""
    return f"id:{paper.id}" if paper is not None else ""


def liked_ids(store: Store, like: list[str]) -> list[str]:
    """The papers ``like:`` values name, each once: the starred ones for ``like:starred``, the
    paper ``like:ID`` names. The list is ranked by likeness to them and leaves them out (a paper
    is not among the papers like it): :func:`run_query` and the views' counts
    (:func:`paperdeck.search.views.view_count`) leave out these same papers.

    Raises:
        LikeError: an id is not in the store, or ``starred`` and nothing is starred.
    """
    liked: dict[str, None] = {}
    for value in like:
        if value == "starred":
            starred = [pid for pid, record in store.all_user_data.items() if record.starred and store.paper(pid)]
            if not starred:
                raise NothingStarred("like:starred ranks by your starred papers: star some first")
            liked.update(dict.fromkeys(starred))
            continue
        try:
            paper = store.paper_named(value)
        except AmbiguousId as error:
            raise LikeError(f"like:{error}") from None
        if paper is None:
            raise LikeError(f"like:{value}: no such paper in the store")
        liked[paper.id] = None
    return list(liked)


def _ranked_by_likeness(
    store: Store, similarity: SimilarityIndex, like: list[str], within: set[str] | None
) -> list[str]:
    liked = liked_ids(store, like)
    ranked = [pid for pid, _ in similarity.rank_by_liked(liked)]
    if not ranked and len(store.paper_ids) > len(liked):
        raise LikeError("like: those papers have no words to compare by (title, keywords or abstract)")
    left_out = set(liked)  # rank_by_liked leaves out those in its index; a paper missing from it too
    ids = [pid for pid in ranked if pid not in left_out]
    return ids if within is None else [pid for pid in ids if pid in within]


def sort_ids(store: Store, ids: list[str], order: str) -> list[str]:
    """``ids`` in ``order`` (``SORTS``; relevance without words is list order); stable.

    ``rating`` puts unrated papers last, ``rating_pct`` the papers highest in their own venue
    first (:func:`paperdeck.search.venue_ranks.rating_percentiles`; unrated last), ``decision`` orals
    first, ``spread`` the most controversial (largest max − min rating) first, ``best_lowest`` the
    papers whose lowest rating is highest first (both with unrated papers last), ``changed`` the
    papers the user changed most recently first and untouched papers after them in the given order;
    ``rise`` (``fall``) the largest rise (fall) of the mean rating during the discussion
    (``rating_delta``) first, papers without ratings last.
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
    if order == "rating_pct":
        from paperdeck.search.venue_ranks import rating_percentiles
        from paperdeck.search.venues import scoped_ids, venues_in

        # The percentiles within the venues of ids only: another venue's papers are not read.
        among = scoped_ids(store, venues_in(store, ids))
        papers = store.papers
        if among is not None:
            paper = store.paper
            papers = [found for pid in among if (found := paper(pid)) is not None]
        percentiles = dict(zip((p.id for p in papers), rating_percentiles(papers).tolist(), strict=True))
        return sorted(ids, key=lambda pid: -pct if (pct := percentiles.get(pid, math.nan)) == pct else math.inf)
    if order in ("spread", "best_lowest"):
        from paperdeck.search.query_fields import review_number

        name = "spread" if order == "spread" else "rating_min"
        summaries = store.reviews.summaries()

        def key(pid: str) -> float:
            paper = store.paper(pid)
            if paper is None:
                return math.inf
            value = review_number(name, paper, summaries.get(paper.openreview_id) if paper.openreview_id else None)
            return math.inf if value != value else -value  # NaN (no ratings) last

        return sorted(ids, key=key)
    if order in ("rise", "fall"):
        moves = store.reviews.summaries()
        sign = -1.0 if order == "rise" else 1.0

        def moved(pid: str) -> float:
            paper = store.paper(pid)
            summary = moves.get(paper.openreview_id) if paper is not None and paper.openreview_id else None
            delta = summary.rating_delta if summary is not None else None
            return math.inf if delta is None else sign * delta  # no ratings last

        return sorted(ids, key=moved)
    if order == "decision":
        from paperdeck.model.paper import DECISIONS

        rank = {decision: n for n, decision in enumerate(DECISIONS)}
        return sorted(ids, key=lambda pid: rank.get(r.decision if (r := row(pid)) else "unknown", 99))
    updated = {pid: record.updated for pid, record in store.all_user_data.items() if record.updated}
    changed = sorted((pid for pid in ids if pid in updated), key=updated.__getitem__, reverse=True)
    return changed + [pid for pid in ids if pid not in updated]


def no_rating_moved(store: Store, ids: Sequence[str]) -> bool:
    """Whether no paper of ``ids`` has a mean rating that moved during the discussion (a
    ``rating_delta`` other than 0): the ``rise`` and ``fall`` sorts then leave ``ids`` in list order."""
    moves = store.reviews.summaries()
    for pid in ids:
        paper = store.paper(pid)
        summary = moves.get(paper.openreview_id) if paper is not None and paper.openreview_id else None
        if summary is not None and summary.rating_delta:
            return False
    return True


def no_rating_moved_text(scope: Collection[str], *, sorted_by_move: bool = True) -> str:
    """How the app and the command line say that no rating moved (:func:`no_rating_moved`) among
    the papers of ``scope`` (venue labels; empty: the papers at hand, ``"these papers"``): where a
    ``rise`` or ``fall`` sort left them in list order (``sorted_by_move``), ``"No rating moved in
    ICLR 2026: list order."``; else (a ``moved:`` query that found nothing) ``"No rating moved in
    ICLR 2026."``. The labels are made one line each (:func:`~paperdeck.model.safe_text.one_line`)."""
    where = one_line(", ".join(sorted(scope))) if scope else "these papers"
    return f"No rating moved in {where}" + (": list order." if sorted_by_move else ".")


def _title_key(title: str) -> str:
    """How a title sorts: case- and accent-folded (:func:`~paperdeck.text.fold.fold_text`:
    "Évaluer" among the e's), leading marks and invisible characters (``**``, ``"``, a zero-width
    space) ignored."""
    folded = fold_text(title)
    start = next((n for n, ch in enumerate(folded) if ch.isalnum()), len(folded))
    return folded[start:]
