"""``R`` on a paper whose ratings came from a list without review texts (Paper Copilot) says so,
with the ratings it holds, instead of asking for a reviews file that does not exist."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen

from tests.ui.helpers import SIZE, settle

COPILOT = Paper(
    id="openreview:0JzWiigkUy", title="BEARCUBS", abstract="A benchmark for computer-using web agents.",
    venue="COLM", year=2025, sources=("papercopilot_colm2025.json",), openreview_id="0JzWiigkUy",
    ratings=Ratings(5.75, 0.433, 5.0, 6.0, 4, "1-10"),
)  # fmt: skip


async def said_on_r(tmp_path: Path, paper: Paper) -> list[str]:
    store = Store(tmp_path / "data")
    store.import_papers([paper])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # no reviews screen to open
        return [str(notification.message) for notification in app._notifications]


async def test_r_on_paper_copilot_ratings_says_there_are_no_review_texts(tmp_path: Path) -> None:
    said = await said_on_r(tmp_path, COPILOT)
    assert said == [
        "4 ratings from Paper Copilot (5.8/10 ± 0.43, 5–6) — no review texts in this list; "
        "paperdeck fetch colm2025 brings them from OpenReview."
    ]


async def test_r_without_an_openreview_paper_names_no_fetch(tmp_path: Path) -> None:
    paper = Paper(
        id="abs:x", title="X", abstract="An abstract.", venue="Somewhere", year=2025,
        sources=("papercopilot_x.json",), ratings=Ratings(6.0, None, None, None, 2),
    )  # fmt: skip
    said = await said_on_r(tmp_path, paper)
    assert said == ["2 ratings from Paper Copilot (6.0) — no review texts in this list."]


async def test_r_without_ratings_or_reviews_asks_for_a_reviews_file(tmp_path: Path) -> None:
    paper = Paper(id="abs:y", title="Y", abstract="An abstract.", venue="ICLR", year=2026)
    said = await said_on_r(tmp_path, paper)
    assert said == ["No reviews imported for this paper (paperdeck import REVIEWS.jsonl.gz)."]
