"""A library opened on one venue reads that venue's review summaries alone (issue 31): the other
venues' are parsed, not built, until the scope widens; then they are read and the views that use
them (the detail pane's mean, the list's moves) show them. Counted, not timed: the summaries built
and the summaries file's entries parsed (the scope's alone at open)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.model.review import COMMENT, REVIEW, Review, ReviewVersion
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.stats import StatsScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import Static

from tests.store.test_summaries_by_index import EntriesParsed
from tests.ui.helpers import SIZE, main_screen, paper_list, settle
from tests.waits import wait_for

DAY = 86_400_000


def _paper(n: int, venue: str, year: int) -> Paper:
    return Paper(id=f"openreview:F{n}", openreview_id=f"F{n}", title=f"Paper {n}", abstract=f"Abstract {n}.",
                 venue=venue, year=year, decision="poster")  # fmt: skip


ICLR = [_paper(n, "ICLR", 2026) for n in range(4)]
COLM = [_paper(10 + n, "COLM", 2025) for n in range(3)]


def _notes() -> list[Review]:
    """ICLR 2026's papers: a comment each (a summary, no rating); COLM 2025's: two reviews each,
    one raised from 4 to 6 (a move)."""
    iclr = "ICLR.cc/2026/Conference"
    notes = [Review(f"F{n}-c", f"F{n}", f"F{n}", COMMENT, "Authors", cdate=DAY, tmdate=DAY,
                    sections=(("comment", "Thanks."),), venue_id=iclr) for n in range(4)]  # fmt: skip
    for paper in COLM:
        forum = paper.openreview_id
        raised = ReviewVersion(DAY, (("rating", 4.0),))
        for sig, rating, earlier in (("a", 6.0, (raised,)), ("b", 5.0, ())):
            notes.append(Review(f"{forum}-{sig}", forum, forum, REVIEW, f"Reviewer_{sig}", cdate=DAY, tmdate=2 * DAY,
                                scores=(("rating", rating),), venue_id="colmweb.org/COLM/2025/Conference",
                                earlier=earlier))  # fmt: skip
    return notes


@pytest.fixture
def library(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    store.import_papers([*ICLR, *COLM])
    store.import_reviews(_notes())
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["ICLR 2026"]}))
    return store.data_dir


def _detail(app: PaperApp) -> str:
    return "\n".join(str(static.render()) for static in main_screen(app).query_one(PaperDetail).query(Static))


async def test_the_scopes_summaries_alone_then_the_others_when_it_widens(
    library: Path, summaries_built: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made = summaries_built
    parsed = EntriesParsed(monkeypatch)
    app = PaperApp(store=Store(library, lazy=True, user_records=False, lean=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.loader.stats_figures is not None, what="the statistics ahead")
        await settle(pilot)
        assert screen.view_ids() == [p.id for p in ICLR]
        assert sorted(made) == ["ICLR.cc/2026/Conference"] * 4  # the scope's four, none of COLM's
        assert parsed.count == 4  # their entries alone parsed (by the span index): COLM's not
        assert not app.store.reviews.summaries_read
        held = app.store.reviews.summary("F0") if app.store.reviews.summary_held("F0") else None
        assert held is not None and held.comments == 1  # the scope's, answered from those read
        await pilot.press("A")  # the statistics of the scope: counted from the scope's summaries
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        await wait_for(pilot, lambda: stats.figures is not None, what="the figures counted")
        assert stats.figures is not None and stats.figures.papers == 4
        await pilot.press("escape")
        await settle(pilot)
        assert len(made) == 4 and not app.store.reviews.summaries_read
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("space", "enter")  # every venue
        await settle(pilot)
        assert len(screen.view_ids()) == 7
        await wait_for(pilot, lambda: app.store.reviews.summaries_read, what="the other venues' summaries")
        await settle(pilot)
        assert len(made) == 4 + 3  # COLM's three built, the scope's not again
        assert parsed.count == 4 + 7  # then every entry, streamed
        while paper_list(app).highlighted_id != COLM[0].id:
            await pilot.press("j")
            await pilot.pause()
        await settle(pilot)
        await wait_for(pilot, lambda: "rating 5.5/10" in _detail(app), what="COLM's mean in the detail pane")
        assert "↑" in _detail(app)  # the move found over the wider scope
