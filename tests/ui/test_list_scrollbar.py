"""The list's scrollbar draws its lines straight from ``ScrollBarRender.render_bar``'s segments
(tui/paperdeck/ui/_lines/scrollbar.py): they must be the very strips Textual draws, mouse ``meta``
included, for every thumb position, size, theme and hover or grab state."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui._lines.scrollbar import ListScrollBar
from paperdeck.ui.app import PaperApp
from rich.segment import Segment
from textual.geometry import Offset, Region
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from tests.ui.helpers import main_screen, paper_list, settle

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


async def test_the_scrollbar_is_repainted_only_when_its_picture_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-ranking sets the bar's virtual size at nearly every keystroke; a repaint that would draw
    what is shown is skipped (else every line of the list is redrawn and sent for its one cell)."""
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"openreview:P{n}", title=f"Paper {n}", abstract=f"abs {n}") for n in range(500)])
    app = PaperApp(store=store)
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        scrollbar = papers.vertical_scrollbar
        ids = list(papers._ids)
        repaints: list[tuple[Region, ...]] = []
        refresh = Widget.refresh

        def spy(widget: Widget, *regions: Region, **options: bool) -> Widget:
            if widget is scrollbar:
                repaints.append(regions)
            return refresh(widget, *regions, **options)

        monkeypatch.setattr(Widget, "refresh", spy)
        papers.show(ids[:-1])  # 499 rows: the thumb is still one cell at the top
        papers.show(ids[:-2])
        await pilot.pause()
        assert repaints == []
        whole = Region(0, 0, scrollbar.size.width, scrollbar.size.height)
        assert [list(strip) for strip in scrollbar.render_lines(whole)] == textual_lines(scrollbar, whole)
        repaints.clear()
        papers.cursor = 300  # the thumb moves
        await pilot.pause()
        assert repaints
        assert [list(strip) for strip in scrollbar.render_lines(whole)] == textual_lines(scrollbar, whole)
        repaints.clear()
        scrollbar.mouse_over = True  # the hover colours
        assert repaints


async def test_a_click_on_a_row_highlights_that_row(make_app: AppFactory) -> None:
    """The list's top border is no row: a click on the n-th row's line highlights row n, scrolled
    or not, and a click on the border highlights nothing new."""
    app = make_app()
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        top = papers.content_region.y - papers.region.y  # the border's rows above the first row
        await pilot.click(papers, offset=(12, top + 3))
        await pilot.pause()
        assert papers.cursor == 3
        await pilot.click(papers, offset=(12, 0))  # the border
        await pilot.pause()
        assert papers.cursor == 3
        papers.scroll_to(y=5, animate=False)
        await pilot.pause()
        await pilot.click(papers, offset=(12, top))
        await pilot.pause()
        assert papers.cursor == 5
