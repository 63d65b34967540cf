"""Counts of one read as English: a paper with one review says ``1 review`` with no ``± 0.00``, no
``6–6`` range and no ``spread 0``, the only paper rated in its venue is called that (not ``top 100 % of 1 rated``),
the reviews screen counts ``1 note``; the statistics' place of the highest paper is ``the highest``
(not ``top 0%``), a share below 1 % is ``top 1%``."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review_summary import Rank
from paperdeck.sources.importer import import_files
from paperdeck.stats.charts import chart_lines
from paperdeck.stats.figures import figures_of
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail

from tests.ui.helpers import SIZE, open_reviews, settle, static_text

#: One record of Paper Copilot's COLM 2025 list (papercopilot_colm2025.json), cut to one review.
RECORD = {
    "id": "0JzWiigkUy", "title": "BEARCUBS: A benchmark for computer-using web agents", "status": "Poster",
    "abstract": "Modern web agents possess computer use abilities that allow them to interact with webpages.",
    "author": "Yixiao Song;Katherine Thai", "reviewers": "osWr", "site": "https://openreview.net/forum?id=0JzWiigkUy",
    "rating": "6", "confidence": "4", "rating_avg": [6.0, 0.0],
}  # fmt: skip


async def test_a_paper_with_one_review_says_it_in_the_singular(tmp_path: Path) -> None:
    path = tmp_path / "papercopilot_colm2025.json"
    path.write_text(json.dumps([RECORD]), encoding="utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [path])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = static_text(app.screen.query_one(PaperDetail))
        assert "rating 6.0/10 (1 review)" in detail, detail
        assert "±" not in detail and "6–6" not in detail and "1 reviews" not in detail, detail
        assert "Reviews: 6/4 (rating/confidence) · the only paper" in detail and "spread 0" not in detail, detail
        assert "the only paper rated in COLM 2025" in detail and "of 1 rated" not in detail, detail
        _screen, text, _heads = await open_reviews(pilot)
        assert "1 note · " in text and "1 notes" not in text, text


def test_the_rank_of_the_only_paper_rated_says_so() -> None:
    assert Rank(1.0, 1, "colmweb.org/COLM/2025/Conference").label() == "the only paper rated in COLM 2025"
    assert Rank(1.0, 1).label() == "the only paper rated"


def _standing(means: list[float], mean: float) -> str:
    papers = [
        Paper(f"p{n}", f"T {n}", "A.", venue="ICLR", year=2017, ratings=Ratings(m, count=3))
        for n, m in enumerate(means)
    ]
    figures = figures_of(papers, {}, {})
    place = figures.place(mean)
    lines = [line.text for line in chart_lines("ratings", figures, 100, place, highlighting=True)]
    return next(line for line in lines if line.startswith("  this paper"))


def test_the_statistics_say_where_the_highest_paper_stands() -> None:
    means = [5.0] * 488 + [9.75]
    assert _standing(means, 9.75) == "  this paper 9.8: the highest of these 489 ◀"
    assert _standing([5.0] * 487 + [9.0, 9.75], 9.0) == "  this paper 9.0: 99th percentile, top 1% of these 489 ◀"
    assert _standing([9.0], 9.0) == "  this paper 9.0: the only paper rated ◀"
    assert _standing([4.0, 6.0, 8.0, 2.0], 6.0) == "  this paper 6.0: 50th percentile, top 50% of these 4 ◀"
