"""The rebuttal lens in the query language: ``rating_initial``, ``rating_delta``, ``moved:``,
``review_moved:`` and the rise and fall sorts, over summaries made of reviews with earlier versions."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import REVIEW, Review, ReviewVersion
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.search.query import parse_query
from paperdeck.search.query_fields import rating_moves
from paperdeck.search.selection import PaperLookups, sort_ids


def _review(forum: str, n: int, rating: float, *earlier: float) -> Review:
    """An official review of ``forum`` rated ``rating`` now, ``earlier`` its ratings before (oldest first)."""
    versions = tuple(ReviewVersion(1_000 * (k + 1), (("rating", value),)) for k, value in enumerate(earlier))
    return Review(f"{forum}-r{n}", forum, forum, REVIEW, f"Reviewer_{n}", cdate=n, tmdate=10_000,
                  scores=(("rating", rating), ("confidence", 3.0)), earlier=versions)  # fmt: skip


#: Per forum: each review's ratings, oldest first (the last is the current one).
PATHS: dict[str, list[tuple[float, ...]]] = {
    "rose": [(4.0, 6.0), (6.0,), (2.0, 4.0)],  # 4 → 5.33: +1.33
    "fell": [(6.0, 4.0), (8.0,)],  # 7 → 6: −1
    "back": [(6.0, 8.0, 6.0), (4.0,)],  # a review moved and came back: the mean did not move
    "swap": [(6.0, 8.0), (8.0, 6.0)],  # one up, one down: the mean did not move
    "still": [(6.0,), (6.0,)],
    "slight": [(4.0, 6.0), (4.0,), (4.0,), (4.0,)],  # 4 → 4.5: +0.5
}


def _summaries() -> dict[str, ReviewSummary]:
    return {
        forum: ReviewSummary.of(_review(forum, n, path[-1], *path[:-1]) for n, path in enumerate(paths))
        for forum, paths in PATHS.items()
    }


def _papers() -> list[Paper]:
    rated = [
        Paper(id=forum, title=forum, abstract="", openreview_id=forum, ratings=Ratings(summary.mean or 0.0))
        for forum, summary in _summaries().items()
    ]
    return [
        *rated,
        Paper(id="unrated", title="unrated", abstract="", openreview_id="unrated"),
        Paper(id="local", title="local", abstract=""),
    ]


PAPERS = _papers()
SUMMARIES = _summaries()
ALL = {paper.id for paper in PAPERS}


def _keeps(text: str) -> set[str]:
    query = parse_query(text)
    assert query.error is None, query.error
    lookups = PaperLookups(lambda: PAPERS, dict, dict, dict, lambda: SUMMARIES)  # type: ignore[arg-type]
    mask = query.mask(lookups)
    assert mask is not None
    return {paper.id for n, paper in enumerate(PAPERS) if mask[n]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("moved:up", {"rose", "slight"}),
        ("moved:down", {"fell"}),
        ("moved:any", {"rose", "slight", "fell"}),
        ("moved:a", {"rose", "slight", "fell"}),  # a value's start, as every choice field
        ("review_moved:any", {"rose", "slight", "fell", "back", "swap"}),
        ("review_moved:up", {"rose", "slight", "swap"}),
        ("review_moved:down", {"fell", "swap"}),
        ("rating_delta>=1", {"rose"}),
        ("rating_delta>0", {"rose", "slight"}),
        ("rating_delta<0", {"fell"}),
        ("rating_delta=0", {"back", "swap", "still"}),
        ("rating_delta:0.5..1", {"slight"}),
        ("rating_initial<5", {"rose", "slight"}),  # back: (6 + 4) / 2 = 5 is not < 5
        ("rating_initial<=5", {"rose", "slight", "back"}),
        ("rating_initial>=7", {"fell", "swap"}),
        ("delta>=1", {"rose"}),  # the alias
        ("moved:up rating_initial<4.5", {"rose", "slight"}),
        ("moved:up OR moved:down", {"rose", "slight", "fell"}),
    ],
)
def test_move_fields_keep_what_the_ratings_did(text: str, expected: set[str]) -> None:
    assert _keeps(text) == expected
    assert _keeps(f"-{text}" if " " not in text else f"-({text})") == ALL - expected  # the exact complement


def test_complements_keep_unrated_papers() -> None:
    assert {"unrated", "local", "still", "back", "swap"} <= _keeps("-moved:any")
    assert "unrated" not in _keeps("moved:any") and "unrated" not in _keeps("rating_delta<=0")


def test_columns_follow_the_summary_properties() -> None:
    moves = rating_moves(PAPERS, SUMMARIES)
    for n, paper in enumerate(PAPERS):
        summary = SUMMARIES.get(paper.openreview_id)
        if summary is None:
            assert math.isnan(moves.initial[n]) and math.isnan(moves.delta[n]) and not moves.review_any[n]
        else:
            assert moves.initial[n] == pytest.approx(summary.rating_initial)
            assert moves.delta[n] == pytest.approx(summary.rating_delta)
            assert bool(moves.review_any[n]) == (summary.moved > 0)
    assert rating_moves(PAPERS, SUMMARIES) is moves  # made once for the same papers and summaries
    other = dict(SUMMARIES)
    assert rating_moves(PAPERS, other) is not moves


@pytest.mark.parametrize("text", ["moved:sideways", "review_moved:", "rating_delta>=x", "moved>=1"])
def test_bad_move_terms_are_hints(text: str) -> None:
    assert parse_query(text).error is not None


@pytest.mark.parametrize(("order", "expected"), [("rise", ["rose", "slight"]), ("fall", ["fell"])])
def test_rise_and_fall_sorts_put_the_largest_move_first(order: str, expected: list[str]) -> None:
    by_id = {paper.id: paper for paper in PAPERS}
    store = SimpleNamespace(reviews=SimpleNamespace(summaries=lambda: SUMMARIES), paper=by_id.get, row=None)
    ids = sort_ids(store, [paper.id for paper in PAPERS], order)  # type: ignore[arg-type]
    assert ids[: len(expected)] == expected
    assert set(ids[-2:]) == {"unrated", "local"}  # without ratings: last
    deltas = [SUMMARIES[pid].rating_delta for pid in ids[:-2]]
    assert deltas == sorted(deltas, reverse=order == "rise")  # type: ignore[type-var]


def test_move_terms_say_they_read_the_moves() -> None:
    assert all(parse_query(text).reads_moves for text in ("moved:up", "-review_moved:any", "x OR rating_delta>=1"))
    assert not any(parse_query(text).reads_moves for text in ("rating>=6", "diffusion", "spread>=4"))
