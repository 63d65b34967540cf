"""The list's scrollbar draws its lines straight from ``ScrollBarRender.render_bar``'s segments
(tui/widgets/list_scrollbar.py): they must be the very strips Textual draws, mouse ``meta``
included, for every thumb position, size, theme and hover or grab state."""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from textual.geometry import Offset, Region
from textual.scrollbar import ScrollBar

from tests.ui.conftest import main_screen, paper_list, settle
from tui.app import PaperApp
from tui.widgets.list_scrollbar import ListScrollBar

AppFactory = Callable[..., PaperApp]


def textual_lines(scrollbar: ScrollBar, crop: Region) -> list[list[Segment]]:
    """The lines as Textual's own ``ScrollBar`` draws them (repainted first: nothing cached)."""
    scrollbar.refresh()
    return [list(strip) for strip in ScrollBar.render_lines(scrollbar, crop)]


async def test_the_scrollbar_draws_what_textual_draws(make_app: AppFactory) -> None:
    compared = 0
    metas: set[str] = set()
    for size in [(120, 16), (90, 30), (70, 9)]:
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            papers = paper_list(app)
            main_screen(app).set_focus(papers)
            scrollbar = papers.vertical_scrollbar
            assert isinstance(scrollbar, ListScrollBar)
            for theme in ["textual-dark", "solarized-light", "nord", "ansi-dark"]:
                app.theme = theme
                for row in [0, 7, papers.row_count // 2, papers.row_count - 2, 10**6]:
                    papers.cursor = row
                    for hover, grabbed in [(False, None), (True, None), (False, Offset(0, 2))]:
                        scrollbar.mouse_over, scrollbar.grabbed = hover, grabbed
                        await pilot.pause()
                        height = scrollbar.size.height
                        for crop in [Region(0, 0, scrollbar.size.width, height), Region(0, 2, 1, height - 3)]:
                            fast = scrollbar._bar_lines(scrollbar.render(), crop)
                            if fast is None:
                                assert app.current_theme.ansi  # the shortcut is for truecolor themes
                                continue
                            assert [list(strip) for strip in fast] == textual_lines(scrollbar, crop)
                            assert [strip.cell_length for strip in fast] == [1] * crop.height
                            metas.update(str(s.style.meta) for strip in fast for s in strip if s.style)
                            compared += 1
    assert compared > 200
    assert metas >= {"{'@mouse.down': 'grab'}", "{'@mouse.down': 'scroll_down'}", "{'@mouse.down': 'scroll_up'}"}


async def test_a_click_below_the_thumb_still_pages_down(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        scrollbar = papers.vertical_scrollbar
        assert papers.scroll_offset.y == 0
        await pilot.click(scrollbar, offset=(0, scrollbar.size.height - 1))
        await pilot.pause()
        assert papers.scroll_offset.y > 0
