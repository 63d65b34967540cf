"""``g`` / ``home`` and ``G`` / ``end`` go to the top and the end on every screen that scrolls, as on
the list and the help (a README-only tester: ``g`` / ``G`` did nothing in the reviews, though
``home`` / ``end`` worked there): the reader, the reviews, the statistics, the plan, the help —
their rows made once in the command table (``_SCROLLING``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.review import REVIEW, Review
from paperdeck.ui.app import PaperApp
from paperdeck.ui.commands import BY_ID
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widget import Widget

from tests.ui.helpers import settle
from tests.ui.test_schedule_screen import schedule_store
from tests.ui.test_stats_screen import stats_store
from tests.waits import wait_for

#: The key that opens each screen from the list, and what scrolls in it.
SCREENS = [
    ("reader", "enter", PaperDetail),
    ("reviews", "R", "#reviews-body"),
    ("stats", "A", "#stats-body"),
    ("schedule", "P", "#schedule-body"),
    ("help", "question_mark", "#help-dialog"),
]


@pytest.mark.parametrize(("owner", "key", "body"), SCREENS, ids=[s[0] for s in SCREENS])
async def test_g_and_shift_g_go_to_the_top_and_the_end(
    tmp_path: Path, owner: str, key: str, body: str | type[Widget]
) -> None:
    if owner in ("reviews", "stats"):  # papers with ratings and reviews
        store = stats_store(tmp_path)
        forum = store.paper(store.paper_ids[0]).openreview_id  # type: ignore[union-attr]
        long = "\n\n".join(f"Paragraph {n} of the summary." for n in range(30))
        store.import_reviews([Review(id="RLONG", forum=forum, replyto=forum, kind=REVIEW, cdate=9, tmdate=9,
                                     sections=(("summary", long),), venue_id="ICLR.cc/2026/Conference")])  # fmt: skip
    else:
        store = schedule_store(tmp_path)
        store.change(store.paper_ids, lambda record: record.replaced(starred=True))  # a long plan
    app = PaperApp(store=store)
    async with app.run_test(size=(60, 12)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        scrolling = app.screen.query_one(body)  # type: ignore[call-overload]
        await wait_for(pilot, lambda: scrolling.max_scroll_y > 0, what=f"{owner}: something to scroll")
        for end, top in (("G", "g"), ("end", "home")):
            await pilot.press(end)
            await wait_for(pilot, lambda: scrolling.scroll_y == scrolling.max_scroll_y, what=f"{owner}: {end}")
            await pilot.press(top)
            await wait_for(pilot, lambda: scrolling.scroll_y == 0, what=f"{owner}: {top}")
    assert BY_ID[f"{owner}.first"].keys == "g,home" and BY_ID[f"{owner}.last"].keys == "G,end"
