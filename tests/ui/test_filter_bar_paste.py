"""A paste of several lines into the filter bar becomes one query (a tester's find: Textual's Input
kept the first line only, silently)."""

from __future__ import annotations

from pathlib import Path

from paperdeck.ui.widgets.filter_bar import FilterBar, one_line
from textual import events

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_query_bar import papers_app


def test_lines_are_joined_with_spaces_and_blank_lines_dropped() -> None:
    assert one_line("diffusion\n\n  decision:oral \r\nrating>=6\n") == "diffusion decision:oral rating>=6"


async def test_a_pasted_list_of_lines_is_one_query(tmp_path: Path) -> None:
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "f", "a", "s", "t", "space")
        bar = main_screen(app).query_one(FilterBar)
        bar.post_message(events.Paste("diffusion\n\ndecision:oral\n"))
        await settle(pilot)
        assert bar.value == "fast diffusion decision:oral"
        assert bar.cursor_position == len(bar.value)
        assert main_screen(app).view_ids() == ["openreview:A"]
