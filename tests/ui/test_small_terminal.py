"""At 80×24 and at 40 columns everything is readable: the prompts' lines wrap instead of being
cut off, the footer keeps Help and Quit, a hint leaves the query its room, the title column gets
most of the list, and a paper can be read full screen."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import LIST_ONLY_BELOW, SIDE_BY_SIDE_FROM
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.footer import PaperFooter
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Label

from tests.ui.conftest import counts, highlighted, main_screen, paper_list, settle

AppFactory = Callable[..., PaperApp]


def shown_text(widget: Widget) -> str:
    """What ``widget`` shows, its lines joined, spaces collapsed."""
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return re.sub(r"\s+", " ", " ".join(line.text for line in lines)).strip()


def screen_text(app: PaperApp) -> str:
    """The whole screen's text, as a terminal shows it."""
    return "\n".join(line.text for line in app.screen._compositor.render_strips())


@pytest.mark.parametrize("size", [(80, 24), (40, 24)])
@pytest.mark.parametrize("key", ["E", "T", "w"])
async def test_every_prompt_line_shows_whole(make_app: AppFactory, size: tuple[int, int], key: str) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if key == "w":  # saving a view needs a filter
            await pilot.press("slash", *"graph", "enter")
            await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        dialog = app.screen.query_one(".prompt")
        labels = list(dialog.query(Label))
        assert labels
        for label in labels:
            assert dialog.content_region.contains_region(label.region), str(label.render())
            assert shown_text(label) == re.sub(r"\s+", " ", str(label.render())).strip()


@pytest.mark.parametrize("width", [40, 60, 80, 100, 120, 200])
async def test_help_and_quit_are_in_the_footer_at_every_width(make_app: AppFactory, width: int) -> None:
    app = make_app()
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        line = screen_text(app).splitlines()[-1]
        assert "? Help" in line and "q Quit" in line, line
        footer = app.screen.query_one(PaperFooter)
        kept = footer.query_one("#always-shown").region
        shown = [key for key in footer.children if key.id != "always-shown" and key.display]
        assert all(key.region.right <= kept.x for key in shown), line  # no key half hidden


async def test_a_hint_leaves_the_query_room(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"decision:nonsense and a longer query")
        await settle(pilot)
        assert counts(app).startswith("⚠")
        bar = main_screen(app).query_one(FilterBar)
        assert bar.outer_size.width >= 80 // 2


@pytest.mark.parametrize(
    ("size", "mode"),
    [((SIDE_BY_SIDE_FROM, 36), "side-by-side"), ((80, 24), "stacked"), ((LIST_ONLY_BELOW - 20, 24), "list-only")],
)
async def test_the_layout_follows_the_width(make_app: AppFactory, size: tuple[int, int], mode: str) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.layout_mode == mode
        papers, detail = paper_list(app), screen.query_one(PaperDetail)
        if mode == "side-by-side":
            assert detail.region.x >= papers.region.right
        elif mode == "stacked":
            assert detail.region.y >= papers.region.bottom and papers.region.width == size[0]
        else:
            assert not detail.display and papers.region.width == size[0]
        if mode != "side-by-side":  # the list is the screen's width: the title has most of it
            assert papers.columns.title >= size[0] // 2


async def test_the_columns_have_headings(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        top = screen_text(app).splitlines()[3]
        assert "Title" in top


async def test_enter_reads_the_paper_full_screen_and_escape_comes_back(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(40, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j")
        paper = highlighted(app)
        await pilot.press("enter")
        await settle(pilot)
        reader = app.screen.query_one(PaperDetail)
        assert reader.region.width == 40
        assert paper.title.split()[0] in shown_text(reader.query_one("#detail-body"))
        await pilot.press("escape")
        await settle(pilot)
        assert highlighted(app).id == paper.id


async def test_the_reader_scrolls_with_j_and_k(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        reader = app.screen.query_one(PaperDetail)
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert reader.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert reader.scroll_y == 2


async def test_toggling_the_detail_pane_where_it_cannot_show_says_so(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(40, 24)) as pilot:
        await settle(pilot)
        await pilot.press("D")
        await pilot.pause()
        assert any("enter reads a paper" in n.message for n in app._notifications)
