"""The list's rating column: the mean and, where there is room, the spread (max − min rating),
readable in every theme, under its heading; rows cached before the spread are not trusted."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.row_cells import SPREAD, SPREAD_CELLS, column_layout, spread_cell

from tests.ui.helpers import main_screen, paper_list, settle
from tests.ui.test_row_contrast import unreadable


def spread_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id="openreview:A", title="Controversial diffusion", abstract="a", decision="oral",
                  ratings=Ratings.from_scores([2, 8, 6, 4]), primary_area="generative models"),
            Paper(id="openreview:B", title="Agreed graphs", abstract="b", decision="reject",
                  ratings=Ratings.from_scores([6, 6, 6])),
            Paper(id="openreview:C", title="Mean only", abstract="c", ratings=Ratings(5.5, 0.5)),
            Paper(id="openreview:D", title="Unrated", abstract="d"),
        ]
    )  # fmt: skip
    return store


@pytest.mark.parametrize(
    ("spread", "cell"), [(6.0, " ↕6 "), (10.0, " ↕10"), (0.0, " ↕0 "), (1.5, " ↕2 "), (250.0, " ↕99"), (None, "    ")]
)
def test_the_spread_cell_is_always_its_cells(spread: float | None, cell: str) -> None:
    assert spread_cell(spread) == cell and len(cell) == SPREAD_CELLS


def test_the_spread_shows_only_where_the_title_keeps_room() -> None:
    assert not column_layout(50, True, True, False).spread
    wide = column_layout(160, True, True, True)
    assert wide.spread and wide.title >= 40
    assert not column_layout(160, True, False, True).spread  # no ratings, no spread


async def test_rows_show_mean_and_spread_under_the_heading_when_wide(tmp_path: Path) -> None:
    app = PaperApp(store=spread_store(tmp_path))
    async with app.run_test(size=(200, 30)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        width = papers.scrollable_content_region.width
        assert papers.columns.spread
        lines = [papers.render_line(y).text for y in range(papers.row_count)]
        by_title = {t: r for r in lines for t in ("Controversial", "Agreed", "Mean only", "Unrated") if t in r}
        assert len(by_title) == 4, lines
        assert by_title["Controversial"].endswith("5.0  ↕6 ")  # the arrow's cell blank: the rating did not move
        assert by_title["Agreed"].endswith("6.0  ↕0 ")
        assert by_title["Mean only"].endswith("5.5 " + " " * SPREAD_CELLS)
        assert by_title["Unrated"].endswith("– " + " " * SPREAD_CELLS)
        header = papers.header(width)
        assert len(header) == width == len(by_title["Controversial"])
        assert by_title["Controversial"][header.index(SPREAD)] == SPREAD
        assert by_title["Controversial"][: header.index("Rating") + len("Rating")].endswith("5.0")


async def test_narrow_rows_keep_the_mean_alone(tmp_path: Path) -> None:
    app = PaperApp(store=spread_store(tmp_path))
    async with app.run_test(size=(50, 24)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        assert not papers.columns.spread
        assert all(SPREAD not in papers.render_line(y).text for y in range(4))


async def test_the_spread_is_readable_in_every_theme(tmp_path: Path) -> None:
    app = PaperApp(store=spread_store(tmp_path))
    async with app.run_test(size=(200, 30)) as pilot:
        await settle(pilot)
        screen, papers = main_screen(app), paper_list(app)
        problems: list[str] = []
        for name in app.available_themes:
            app.theme = name
            for focused in (papers, None):
                screen.set_focus(focused)
                for cursor in (0, 2):
                    papers.cursor = cursor
                    await pilot.pause()
                    for y in range(papers.row_count):
                        problems += unreadable(papers.render_line(y), f"{name} row {y}")
        assert not problems, "\n".join(problems[:20])


def test_a_rows_cache_from_before_the_spread_is_read_again(tmp_path: Path) -> None:
    store = spread_store(tmp_path)
    lines = store.rows_path.read_bytes().split(b"\n")
    header = orjson.loads(lines[0])
    del header["spreads"], header["spans"], header["offsets"]  # as written before: rows of six fields,
    rows = [orjson.dumps(orjson.loads(line)[:6]) for line in lines[3:-2]]  # no spans nor offsets line
    store.rows_path.write_bytes(b"\n".join([orjson.dumps(header), lines[1], *rows]) + b"\n")
    fresh = Store(store.data_dir, lazy=True)
    row = fresh.row("openreview:A")
    assert row is not None and row.spread == 6.0
