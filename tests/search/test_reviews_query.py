"""Query fields and sorts over the review summaries, checked against numbers computed from the notes."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import pytest
from paperdeck.cli.selecting import select_ids
from paperdeck.search.query import QUERY_HELP, parse_query
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import REPO, ReviewSample


@pytest.fixture(scope="module")
def reviewed(
    tmp_path_factory: pytest.TempPathFactory, review_sample: ReviewSample
) -> tuple[Store, dict[str, list[dict[str, Any]]]]:
    """A store of the sample's 12 papers and their reviews; the official reviews' scores by forum."""
    notes = review_sample.notes()
    store = Store(tmp_path_factory.mktemp("reviews-query") / "data")
    import_files(store, [review_sample.papers_file, review_sample.notes_file])
    scores: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for note in notes:
        if note["invitations"][0].endswith("/-/Official_Review"):
            scores[note["forum"]].append({k: v["value"] for k, v in note["content"].items()})
    return store, dict(scores)


def _expected(scores: dict[str, list[dict[str, Any]]], keep: Any) -> set[str]:
    return {f"openreview:{forum}" for forum, reviews in scores.items() if keep(reviews)}


def _mean(reviews: list[dict[str, Any]], name: str) -> float:
    return sum(r[name] for r in reviews) / len(reviews)


@pytest.mark.parametrize(
    ("query", "keep"),
    [
        ("reviews>=5", lambda rs: len(rs) >= 5),
        ("reviews=3", lambda rs: len(rs) == 3),
        ("spread>=4", lambda rs: max(r["rating"] for r in rs) - min(r["rating"] for r in rs) >= 4),
        ("rating_min>=4", lambda rs: min(r["rating"] for r in rs) >= 4),
        ("rating_max<=4", lambda rs: max(r["rating"] for r in rs) <= 4),
        ("confidence>=4", lambda rs: _mean(rs, "confidence") >= 4),
        ("soundness>=2.5", lambda rs: _mean(rs, "soundness") >= 2.5),
        ("presentation<3", lambda rs: _mean(rs, "presentation") < 3),
        ("contribution:2..3", lambda rs: 2 <= _mean(rs, "contribution") <= 3),
    ],
)
def test_review_number_fields_keep_what_the_notes_say(
    reviewed: tuple[Store, dict[str, list[dict[str, Any]]]], query: str, keep: Any
) -> None:
    store, scores = reviewed
    assert set(select_ids(store, query)) == _expected(scores, keep)
    assert set(select_ids(store, f"-{query}")) == set(store.paper_ids) - _expected(scores, keep)


def test_a_review_field_without_a_number_is_a_hint() -> None:
    assert parse_query("spread>=x").error is not None
    assert parse_query("reviews>=2.5").error is not None


def test_sorts_by_spread_and_by_lowest_rating(reviewed: tuple[Store, dict[str, list[dict[str, Any]]]]) -> None:
    store, scores = reviewed

    def spread(pid: str) -> float:
        rs = scores.get(pid.removeprefix("openreview:"))
        return max(r["rating"] for r in rs) - min(r["rating"] for r in rs) if rs else -math.inf

    def lowest(pid: str) -> float:
        rs = scores.get(pid.removeprefix("openreview:"))
        return min(r["rating"] for r in rs) if rs else -math.inf

    by_spread = select_ids(store, "", "spread")
    assert [spread(pid) for pid in by_spread] == sorted(map(spread, by_spread), reverse=True)
    by_lowest = select_ids(store, "", "best_lowest")
    assert [lowest(pid) for pid in by_lowest] == sorted(map(lowest, by_lowest), reverse=True)


def test_every_review_field_and_sort_is_in_the_help_and_the_readme() -> None:
    readme = "".join((REPO / "docs" / page).read_text(encoding="utf-8") for page in ("query.md", "keys.md"))
    for name in ("reviews>=5", "spread>=4", "rating_min>=6", "confidence>=4", "soundness>=3"):
        field = name.split(">")[0]
        assert field in QUERY_HELP and f"`{field}:`" in readme, name
    assert "rating spread" in readme and "best lowest rating" in readme
