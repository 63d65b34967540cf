"""Below the smallest terminal the layout needs, one centred notice in place of the panes (a
broken layout was drawn at 24×8); resized up, the screens as they were: the filter text, the
highlighted paper and an open dialog kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import LIST_ONLY_BELOW, STACKED_FROM_ROWS
from paperdeck.ui.screens.prompts import TagPrompt
from paperdeck.ui.screens.too_small import TooSmallScreen
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.pilot import Pilot

from tests.ui.helpers import highlighted, main_screen, settle
from tests.ui.test_small_terminal import screen_text
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]
MIN_WIDTH, MIN_HEIGHT = PaperApp.MIN_SIZE


def notice_shown(app: PaperApp, size: tuple[int, int]) -> None:
    assert isinstance(app.screen, TooSmallScreen)
    text = " ".join(screen_text(app).split())
    assert f"Terminal too small: {size[0]}×{size[1]}, paperdeck needs at least {MIN_WIDTH}×{MIN_HEIGHT}." in text


async def notice_comes(pilot: Pilot[Any], app: PaperApp, size: tuple[int, int]) -> None:
    """Wait for the notice of ``size`` after a resize: it is drawn again for the new size on a
    later turn than the one the resize's idle look saw."""
    told = f"Terminal too small: {size[0]}×{size[1]},"

    def shown() -> bool:
        return isinstance(app.screen, TooSmallScreen) and told in " ".join(screen_text(app).split())

    await wait_for(pilot, shown, what=lambda: " ".join(screen_text(app).split()))
    notice_shown(app, size)


@pytest.mark.parametrize("size", [(24, 8), (MIN_WIDTH - 1, 24), (80, MIN_HEIGHT - 1)])
async def test_too_small_shows_the_notice_from_the_start(make_app: AppFactory, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await notice_comes(pilot, app, size)
        await pilot.press("s", "question_mark", "slash")  # no key but quitting while it is shown
        await settle(pilot)
        await notice_comes(pilot, app, size)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert main_screen(app).layout_mode == "stacked"
        assert not app.store.user_data(highlighted(app).id).starred


@pytest.mark.parametrize("size", [(MIN_WIDTH, MIN_HEIGHT), (80, 24)])
async def test_no_notice_from_the_smallest_size_up(make_app: AppFactory, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert not app.query(TooSmallScreen) and main_screen(app)
        assert "Terminal too small" not in screen_text(app)


async def test_resizing_down_and_up_keeps_the_filter_and_the_highlighted_paper(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"graph", "enter", "j")
        await settle(pilot)
        paper = highlighted(app)
        await pilot.resize_terminal(30, 8)
        await settle(pilot)
        await notice_comes(pilot, app, (30, 8))
        await pilot.resize_terminal(34, 8)  # the notice follows the size
        await settle(pilot)
        await notice_comes(pilot, app, (34, 8))
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        screen = main_screen(app)
        assert screen.query_one(FilterBar).value == "graph"
        assert highlighted(app).id == paper.id
        assert screen.layout_mode == "stacked" and screen.query_one(PaperDetail).display
        assert "graph" in screen_text(app).splitlines()[1]


async def test_an_open_dialog_is_kept_under_the_notice(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("T", *"later")
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, TagPrompt)
        await pilot.resize_terminal(24, 8)
        await settle(pilot)
        await notice_comes(pilot, app, (24, 8))
        await pilot.press("x")  # not typed into the hidden prompt
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen is prompt
        await pilot.press("y")
        assert "latery" in screen_text(app)


@pytest.mark.parametrize("height", [MIN_HEIGHT, STACKED_FROM_ROWS - 1])
async def test_a_low_terminal_shows_the_list_alone(make_app: AppFactory, height: int) -> None:
    """Under ``STACKED_FROM_ROWS`` rows the detail pane below the list had no line of the paper
    (drawn as an empty box at 60×10): the list is alone, as on a narrow terminal."""
    app = make_app()
    async with app.run_test(size=(LIST_ONLY_BELOW + 20, height)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.layout_mode == "list-only" and not screen.query_one(PaperDetail).display
        await pilot.resize_terminal(LIST_ONLY_BELOW + 20, STACKED_FROM_ROWS)
        await settle(pilot)
        detail = screen.query_one(PaperDetail)
        await wait_for(
            pilot,
            lambda: screen.layout_mode == "stacked" and detail.display and detail.content_region.height >= 3,
            what=lambda: f"{screen.layout_mode}, detail shown {detail.display}, {detail.content_region}",
        )
