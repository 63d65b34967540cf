"""A keystroke in the filter bar repaints the bar, the counts and the list's changed lines without
laying out the screen (a layout cost ~4 ms of each keystroke's frame at 19,630 papers), and what a
layout used to update still follows: the list's scrollbar, the bar's sideways scroll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_detail import PaperDetail
from rich.segment import Segment
from rich.style import Style
from textual.widget import Widget
from textual.widgets import Static

from tests.ui.helpers import main_screen, paper_list, settle
from tests.waits import laid_out

AppFactory = Callable[..., PaperApp]


def layouts_asked(widget: Widget) -> list[bool]:
    """Spy on ``widget.refresh``: one entry per call, whether it asked for a layout."""
    calls: list[bool] = []
    refresh = widget.refresh

    def spy(*regions: Any, **options: Any) -> Widget:
        calls.append(bool(options.get("layout")))
        return refresh(*regions, **options)

    widget.refresh = spy  # type: ignore[method-assign]
    return calls


async def test_typing_and_reranking_ask_for_no_layout(make_app: AppFactory) -> None:
    app = make_app()
    # Side by side, 3 rows: the scrollbar stays (its coming and going lays out).
    async with app.run_test(size=(160, 9)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        bar, papers = screen.query_one(FilterBar), paper_list(app)
        counts = screen.query_one("#counts", CountsLabel)
        await pilot.press("slash", "d")
        await settle(pilot)
        bar_layouts, list_layouts, counts_layouts = layouts_asked(bar), layouts_asked(papers), layouts_asked(counts)
        shown = papers.row_count
        await pilot.press("i", "f")  # the list's length changes, the counts' width not
        assert papers.row_count != shown
        assert papers.show_vertical_scrollbar
        assert bar_layouts and list_layouts and counts_layouts  # each repainted
        assert not any(bar_layouts + list_layouts + counts_layouts)


async def test_the_counts_ask_for_a_layout_when_their_width_changes(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        counts = main_screen(app).query_one("#counts", CountsLabel)
        counts.update("12 of 37")
        asked = layouts_asked(counts)
        counts.update(" 9 of 37")
        counts.update(" 9 of 37")  # the same text: nothing to do
        counts.update("Starred:  9 of 37")
        assert asked == [False, True]
        await laid_out(pilot)  # a pause alone ended before the screen handled the layout (loaded machine)
        assert counts.size.width == len("Starred:  9 of 37")


async def test_a_change_of_the_counts_width_lays_out_the_screen_once(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        counts = main_screen(app).query_one("#counts", CountsLabel)
        asked = layouts_asked(counts)
        counts.update("Starred: 9 of 37")
        await settle(pilot)  # the layout gives the label its new size: that asks for no second one
        await laid_out(pilot)
        assert counts.size.width == len("Starred: 9 of 37")
        assert sum(asked) == 1


async def test_the_scrollbar_follows_a_new_ranking(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        assert papers.show_vertical_scrollbar  # 37 papers in 10 rows
        assert papers.vertical_scrollbar.window_virtual_size == 37
        asked = layouts_asked(papers)
        await pilot.press("slash", *"difusion")
        await settle(pilot)
        assert papers.row_count < 10 and papers.max_scroll_y == 0
        # Nothing to scroll: the bar stays (its going would lay out the screen), drawn as the
        # gutter Textual leaves without one: blank, in the list's background.
        assert papers.show_vertical_scrollbar
        base, background = papers.background_colors
        gutter = Style.from_color(bgcolor=(base + background).rich_color)
        bar = papers.vertical_scrollbar
        assert [list(line) for line in bar.render_lines(bar.size.region)] == [[Segment(" ", gutter)]] * bar.size.height
        await pilot.press("ctrl+a", "ctrl+k", *"the")
        await settle(pilot)
        assert papers.row_count > 10
        assert papers.show_vertical_scrollbar
        assert not any(asked)  # the list grew past its height and shrank under it: no layout
        assert list(bar.render_lines(bar.size.region)[0]) != [Segment(" ", gutter)]  # the thumb again
        assert papers.vertical_scrollbar.window_virtual_size == papers.row_count
        assert papers.max_scroll_y == papers.row_count - papers.scrollable_content_region.height


async def test_a_long_filter_scrolls_the_bar_to_its_cursor(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 16)) as pilot:
        await settle(pilot)
        bar = main_screen(app).query_one(FilterBar)
        await pilot.press("slash", *("graph " * 20))
        await settle(pilot)
        assert bar.scroll_x > 0
        # The cursor: on screen, in the bar (at the end of the text it is the cell after it).
        assert bar.content_region.x <= bar.cursor_screen_offset.x <= bar.content_region.right


async def test_a_paper_shown_in_the_detail_pane_lays_out_the_screen_once(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:  # the detail pane below the list, scrolling
        await settle(pilot)
        screen = main_screen(app)
        ids = screen.view_ids()
        reflows: list[object] = []
        reflow = screen._compositor.reflow

        def counted(*args: Any) -> Any:
            reflows.append(args)
            return reflow(*args)

        screen._compositor.reflow = counted  # type: ignore[method-assign]
        detail = screen.query_one(PaperDetail)
        for paper_id in ids[:4]:  # bodies of other heights: their virtual sizes change
            reflows.clear()
            screen._show_detail(paper_id)
            await settle(pilot)
            assert len(reflows) == 1, paper_id
        body = detail.query_one("#detail-body", Static)
        assert body.size.height == body.virtual_size.height  # the body placed at its text's height
        assert detail.virtual_size.height >= body.size.height
