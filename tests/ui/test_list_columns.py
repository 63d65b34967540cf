"""The list's columns: headings over the columns they name, the area column when there is room,
the title taking the rest, and the query's words marked in titles."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.contrast import contrast, triplet
from paperdeck.ui.widgets.row_cells import AREA_FROM, TITLE_MIN, column_layout

from tests.ui.helpers import paper_list, settle
from tests.ui.test_row_contrast import store_of_every_kind


@pytest.mark.parametrize("width", range(8, 200, 7))
def test_the_title_keeps_most_of_the_row(width: int) -> None:
    layout = column_layout(width, True, True, True)
    assert layout.title >= min(TITLE_MIN, width - 5) or layout.title == 0
    assert bool(layout.area) == (width >= AREA_FROM)
    if width >= 40:
        assert layout.title > width / 2


async def test_headings_sit_over_their_columns(tmp_path: Path) -> None:
    app = PaperApp(store=store_of_every_kind(tmp_path))
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        width = papers.scrollable_content_region.width
        header = papers.header(width)
        row = papers.render_line(0).text
        assert len(header) == len(row) == width
        assert row[header.index("Dec.") :].startswith("ORAL")
        assert row[header.index("Title") :].startswith("Diffusion paper 0")
        assert row[header.index("Area") :].startswith("reinforcement lear")
        rating_end = header.index("Rating") + len("Rating")
        assert row[:rating_end].endswith("7.5")  # the means end under the heading's end
        top_border = papers.render_lines(papers.region.reset_offset)[0].text  # the headings' line
        assert top_border[1 + header.index("Title") : 1 + header.index("Title") + 5] == "Title"
        assert top_border[1 + header.index("Area") : 1 + header.index("Area") + 4] == "Area"


async def test_the_query_words_are_marked_in_titles(tmp_path: Path) -> None:
    app = PaperApp(store=store_of_every_kind(tmp_path))
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"graph diff", "enter")
        await settle(pilot)
        papers = paper_list(app)
        for y in (0, 1):  # highlighted, and not
            marked = [s.text for s in papers.render_line(y) if s.style is not None and s.style.underline]
            assert marked == ["Diff", "graph"], y
        await pilot.press("escape")  # the filter cleared: nothing marked
        await settle(pilot)
        assert not [s for s in papers.render_line(1) if s.style is not None and s.style.underline]


async def test_a_new_word_marks_rows_already_on_screen(tmp_path: Path) -> None:
    """The same rows under a query with one more word: the lines on screen are drawn again."""
    app = PaperApp(store=store_of_every_kind(tmp_path))
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"paper")
        await settle(pilot)
        papers = paper_list(app)
        shown = papers.row_count

        def marked_on_screen() -> list[str]:
            line = app.screen._compositor.render_strips()[papers.region.y + 2]  # the second row
            return [s.text for s in line if s.style is not None and s.style.underline]

        assert marked_on_screen() == ["paper"]
        await pilot.press(*" on")
        await settle(pilot)
        assert papers.row_count == shown
        assert marked_on_screen() == ["paper", "on"]


async def test_muted_parts_recede_from_the_title(tmp_path: Path) -> None:
    """The area and a rejected paper's badge are drawn in the theme's muted colour, not the
    title's (a partial style left ``$text-muted`` unresolved: white)."""
    app = PaperApp(store=store_of_every_kind(tmp_path))
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        line = list(paper_list(app).render_line(1))  # not highlighted: a rejected paper

        def strength(start: str) -> float:
            style = next(s.style for s in line if s.text.strip().startswith(start) and s.style is not None)
            assert style.color is not None and style.bgcolor is not None
            return contrast(triplet(style.color, foreground=True), triplet(style.bgcolor, foreground=False))

        assert strength("REJ") < strength("Diffusion")
        assert strength("reinforcement") < strength("Diffusion")


@pytest.mark.parametrize("height", [12, 40])  # a scrollbar (13 papers in 12 lines), and none
@pytest.mark.parametrize("width", [80, 110, 200])
async def test_rows_line_up_with_the_headings_with_or_without_a_scrollbar(
    tmp_path: Path, width: int, height: int
) -> None:
    app = PaperApp(store=store_of_every_kind(tmp_path))
    async with app.run_test(size=(width, height)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        assert papers.show_vertical_scrollbar  # always (drawn as the gutter where nothing scrolls)
        assert (papers.max_scroll_y > 0) == (height == 12)
        lines = papers.render_lines(papers.region.reset_offset)
        top, first = lines[0].text, lines[1].text
        assert "Rating" in top, top
        rating_end = top.index("Rating") + len("Rating")
        assert first[:rating_end].endswith("7.5"), (top, first)
        assert papers.columns == column_layout(papers.scrollable_content_region.width, True, True, True)
        if height == 40:
            await pilot.press("slash", *'"paper 0 on"')
            await settle(pilot)
            assert papers.row_count == 1
            lines = papers.render_lines(papers.region.reset_offset)
            assert lines[0].text == top and lines[1].text[:rating_end].endswith("7.5"), (top, lines[1].text)


def test_a_moved_rating_keeps_its_arrow_where_venues_mix_scales() -> None:
    """Found by trying the product: in a store of several venues the list showed ``4.0/10`` and
    dropped the move (``3.3 ↑4.0`` in a store of one venue); then a tester: the narrow rows'
    moved ``4.0↑`` lacked the ``/10`` the others show. Every rating keeps its scale and its move."""
    from paperdeck.model.venue import Scale
    from paperdeck.ui.widgets.row_cells import MOVE_CELLS, SCALED_RATING_CELLS, rating_cell

    ten = Scale.parse("1-10")
    cells = SCALED_RATING_CELLS
    wide, narrow = cells + MOVE_CELLS, cells
    assert rating_cell(4.0, 3.33, True, ten, cells) == "  3.3 " + " 4.0/10↑".rjust(narrow)
    assert rating_cell(4.0, 3.33, False, ten, cells) == " 4.0/10↑".rjust(narrow)
    assert rating_cell(3.0, 4.5, False, ten, cells) == " 3.0/10↓".rjust(narrow)
    assert rating_cell(6.5, None, True, ten, cells) == "6.5/10 ".rjust(wide)
    assert rating_cell(6.5, 6.5, False, ten, cells) == " 6.5/10 "
    assert len(rating_cell(10.0, 2.0, True, ten, cells)) == wide


def test_every_rating_has_a_space_before_it_and_first_sits_over_the_first_means() -> None:
    """Found by a tester: ``datasets and benchma…5.3↑7.3/10``, the rating run into the title, and
    ``first`` heading no values. The widest ratings keep a space before them; the first mean ends
    where its heading does, as the mean ends where ``Rating`` does (the arrow's cell after it)."""
    from paperdeck.model.venue import Scale
    from paperdeck.ui.widgets.paper_list import PaperList
    from paperdeck.ui.widgets.row_cells import MOVE_CELLS, RATING_CELLS, SCALED_RATING_CELLS, rating_cell

    ten = Scale.parse("1-10")
    for wide in (False, True):
        scaled = [
            rating_cell(7.3, 5.3, wide, ten, SCALED_RATING_CELLS),
            rating_cell(10.0, 2.0, wide, ten, SCALED_RATING_CELLS),
            rating_cell(9.9, 2.0, wide, ten, SCALED_RATING_CELLS),
            rating_cell(6.5, None, wide, ten, SCALED_RATING_CELLS),
            rating_cell(None, None, wide, None, SCALED_RATING_CELLS),
        ]
        for cell in scaled:
            assert len(cell) == SCALED_RATING_CELLS + MOVE_CELLS * wide and cell[0] == " ", cell
        cells = [rating_cell(10.0, None, wide), rating_cell(5.5, 6.0, wide), rating_cell(None, None, wide)]
        for cell in cells:
            assert len(cell) == RATING_CELLS + MOVE_CELLS * wide and cell[0] == " ", cell
    papers = PaperList.__new__(PaperList)
    papers._columns = (False, True, False, False)
    papers._has_moves = True
    for scale, cells in ((ten, SCALED_RATING_CELLS), (None, RATING_CELLS)):
        papers._scales = {"openreview:A": scale} if scale is not None else {}
        header = papers.header(200)
        cell = rating_cell(7.3, 5.3, True, scale, cells)
        start = 200 - len(cell) - 4  # the cell's start in a row: the spread's 4 cells after it
        assert cell[: header.index("first") + len("first") - start].endswith(" 5.3")
        row_end = start + len(cell)
        assert header.index("Rating") + len("Rating") + 1 == row_end


@pytest.mark.parametrize("scaled", [False, True])
@pytest.mark.parametrize("width", [36, 60, 120])
def test_moved_and_unmoved_means_end_in_one_column_a_cell_off_the_scroll_bar(width: int, scaled: bool) -> None:
    """A README-only tester: a moved ``5.0/10↑`` stood a cell left of `` 3.3/10``, and at 40
    columns its arrow touched the scroll bar (``5.0/10↑▄│``). The arrow has a cell of its own,
    blank when the mean did not move, and a rating that ends the row leaves its last cell blank."""
    from paperdeck.model.venue import Scale
    from paperdeck.ui.widgets.row_cells import RATING_CELLS, SCALED_RATING_CELLS, rating_cell

    ten = Scale.parse("1-10") if scaled else None
    layout = column_layout(width, True, True, False, moves=True, scaled=scaled)
    cells = SCALED_RATING_CELLS if scaled else RATING_CELLS
    moved, still = (rating_cell(v, first, layout.moves, ten, cells) for v, first in ((5.0, 3.0), (3.3, None)))
    assert len(moved) == len(still)
    assert moved[:-1].endswith("5.0/10" if scaled else "5.0") and moved.endswith("↑")
    assert still[:-1].endswith("3.3/10" if scaled else "3.3") and still.endswith(" ")
    if not layout.spread:  # the rating ends the row: one more blank cell is kept for it
        used = 5 + 5 * layout.badge + layout.title + cells + 1
        assert used == width, layout
