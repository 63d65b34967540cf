"""A paste of several lines into the filter bar becomes one query (a tester's find: Textual's Input
kept the first line only, silently)."""

from __future__ import annotations

from pathlib import Path

from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.filter_bar import FilterBar, one_line
from textual import events

from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_query_bar import papers_app
from tests.waits import wait_for


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


async def test_the_cursor_stays_in_view_when_the_bar_narrows(tmp_path: Path) -> None:
    """A tester's find at 80 columns: the counts beside the bar grew after the query was typed,
    the bar narrowed, and its text was not scrolled: the end typed (and the cursor) hidden."""
    app = papers_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *'area:"reinforcement learning" -decision:withdrawn')
        await settle(pilot)
        bar = main_screen(app).query_one(FilterBar)
        counts = main_screen(app).query_one("#counts", CountsLabel)
        assert bar.cursor_position == len(bar.value)
        wide = bar.content_size.width
        counts.update(counts.text + " · a note 20 cells")  # the counts grow: the bar narrows
        await wait_for(pilot, lambda: bar.content_size.width < wide, what="the bar to narrow")
        await settle(pilot)
        # the cursor, after the text's last character, is in the bar's last cell at most
        assert bar.scroll_x + bar.content_size.width >= len(bar.value) + 1
