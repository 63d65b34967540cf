"""The filter bar takes field terms too: they filter, words rank; a malformed query shows a hint
and keeps the last good result."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from tests.ui.conftest import SIZE, counts, main_screen, paper_list
from tui.app import PaperApp
from tui.core.paper import Paper, Ratings
from tui.core.store import Store
from tui.widgets.filter_bar import FilterBar

PAPERS = [
    Paper(id="openreview:A", title="Diffusion sampling fast", abstract="a", decision="oral", ratings=Ratings(7.0)),
    Paper(id="openreview:B", title="Diffusion sampling slow", abstract="b", decision="poster", ratings=Ratings(5.0)),
    Paper(id="openreview:C", title="Graph networks", abstract="c", decision="oral", ratings=Ratings(6.5)),
    Paper(id="openreview:D", title="Diffusion without reviews", abstract="d", decision="withdrawn"),
]


async def typed(pilot: Pilot[None], text: str) -> list[str]:
    await pilot.press("slash", "ctrl+a", "ctrl+k", *text)
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return list(main_screen(pilot.app).view_ids())  # type: ignore[arg-type]


async def test_fields_filter_and_words_rank(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert await typed(pilot, "difusion decision:oral") == ["openreview:A"]
        assert await typed(pilot, "decision:oral rating>=6.6") == ["openreview:A"]
        assert set(await typed(pilot, "difusion -decision:withdrawn")) == {"openreview:A", "openreview:B"}
        assert await typed(pilot, "(graph OR fast) rating:6..8") in (
            ["openreview:A", "openreview:C"],
            ["openreview:C", "openreview:A"],
        )
        good = await typed(pilot, "decision:oral")
        main_screen(app).query_one(FilterBar).value = "decision:oral rating>=abc"  # pasted at once
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert main_screen(app).view_ids() == good  # the last good result stays
        assert "rating needs a number" in counts(app)
        assert paper_list(app).row_count == len(good)
