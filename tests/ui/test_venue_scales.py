"""Where the papers listed are rated on different scales (several venues), the list shows each
rating with its scale's top (``6.5/10``, ``3.0/5``); papers of one scale keep bare ratings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import paper_list, settle
from tests.waits import wait_for


def _store(tmp_path: Path, papers: list[Paper]) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(papers)
    return store


def _row(app: PaperApp, row: int) -> str:
    return paper_list(app).render_line(row).text


async def test_ratings_of_several_scales_show_their_scale(tmp_path: Path) -> None:
    store = _store(tmp_path, [
        Paper(id="openreview:A", title="Alpha", abstract="x", venue="COLM", year=2025, ratings=Ratings(6.5)),
        Paper(id="openreview:B", title="Beta", abstract="y", venue="FOO", year=2030, ratings=Ratings(3.0, scale="1-5")),
        Paper(id="openreview:C", title="Gamma", abstract="z", venue="ICLR", year=2026, ratings=Ratings(10.0)),
        Paper(id="openreview:D", title="Delta", abstract="w", venue="CVPR", year=2019),
    ])  # fmt: skip
    app = PaperApp(store=store)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "/10" in _row(app, 0), what="the scales shown")
        rows = [_row(app, n) for n in range(4)]
        assert rows[0].rstrip().endswith("6.5/10") and rows[1].rstrip().endswith("3.0/5"), rows
        assert rows[2].rstrip().endswith("10/10") and rows[3].rstrip().endswith("–"), rows


async def test_ratings_of_one_scale_stay_bare(tmp_path: Path) -> None:
    store = _store(tmp_path, [
        Paper(id="openreview:A", title="Alpha", abstract="x", venue="COLM", year=2025, ratings=Ratings(6.5)),
        Paper(id="openreview:B", title="Beta", abstract="y", venue="ICLR", year=2017, ratings=Ratings(5.25)),
    ])  # fmt: skip
    app = PaperApp(store=store)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        rows = [_row(app, n) for n in range(2)]
        assert rows[0].rstrip().endswith(" 6.5") and rows[1].rstrip().endswith(" 5.2"), rows
        assert not any("/" in row for row in rows)


MIXED = [
    Paper(id="openreview:A", title="Alpha graphs", abstract="x", venue="COLM", year=2025, ratings=Ratings(6.5)),
    Paper(id="openreview:B", title="Beta kernels", abstract="y", venue="FOO", year=2030,
          ratings=Ratings(3.0, scale="1-5")),
    Paper(id="openreview:C", title="Gamma graphs", abstract="z", venue="COLM", year=2025, ratings=Ratings(7.0)),
]  # fmt: skip


async def test_the_scale_follows_the_venue_scope_not_the_query(tmp_path: Path) -> None:
    """Found by a tester: a filtered list showed ``6.5`` where the unfiltered one showed ``6.5/10``.
    The scope (every venue here) mixes scales, so every list within it shows them."""
    from paperdeck.ui.widgets.filter_bar import FilterBar

    from tests.ui.helpers import main_screen

    app = PaperApp(store=_store(tmp_path, MIXED))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "/10" in _row(app, 0), what="the scales shown")
        main_screen(app).query_one(FilterBar).value = "graphs"  # COLM's papers alone: one scale
        await settle(pilot)
        await wait_for(pilot, lambda: main_screen(app).view_ids() == ["openreview:A", "openreview:C"], what="the query")
        rows = sorted(_row(app, n).rstrip() for n in range(2))
        assert rows[0].endswith(" 6.5/10") and rows[1].endswith(" 7.0/10"), rows
        main_screen(app).query_one(FilterBar).value = ""  # both venues again: both scales
        await settle(pilot)
        await wait_for(pilot, lambda: len(main_screen(app).view_ids()) == 3, what="the blank query")
        assert _row(app, 0).rstrip().endswith("6.5/10") and _row(app, 1).rstrip().endswith("3.0/5")


async def test_the_scale_follows_the_venue_scope(tmp_path: Path) -> None:
    from tests.ui.helpers import main_screen

    app = PaperApp(store=_store(tmp_path, MIXED))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "/10" in _row(app, 0), what="the scales shown")
        screen = main_screen(app)
        screen.list_filter.set_scope(["COLM 2025"])
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.view_ids()) == 2, what="the scope")
        assert not any("/" in _row(app, n) for n in range(2)), [_row(app, n) for n in range(2)]
        screen.list_filter.set_scope(["COLM 2025", "FOO 2030"])
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.view_ids()) == 3, what="the scope")
        assert _row(app, 0).rstrip().endswith("6.5/10")


async def test_a_scope_of_one_venue_at_start_shows_ratings_bare(tmp_path: Path) -> None:
    store = _store(tmp_path, MIXED)
    (store.data_dir / "config.json").write_text('{"venues": ["COLM 2025"]}', "utf-8")
    app = PaperApp(store=store)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        rows = [_row(app, n).rstrip() for n in range(2)]
        assert rows[0].endswith(" 6.5") and rows[1].endswith(" 7.0"), rows


async def test_the_stats_screen_places_the_highlighted_paper_within_its_venue(tmp_path: Path) -> None:
    from paperdeck.ui.screens.stats import StatsScreen
    from textual.widgets import Static

    app = PaperApp(store=_store(tmp_path, MIXED))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("A")  # on Alpha (COLM 2025, 6.5): COLM's two papers, not all three pooled
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        await wait_for(pilot, lambda: screen.figures is not None, what="the figures counted")
        assert screen.place is not None and screen.place.venue == "COLM 2025"
        assert (screen.place.below, screen.place.top) == (0, 1.0)
        chart = str(screen.query_one("#stats-chart", Static).render())
        assert "top 100% of the 2 rated in COLM 2025" in chart, chart


async def test_the_first_mean_column_follows_the_venue_scope(tmp_path: Path) -> None:
    """Only another venue's paper moved: a scope without it gives the first mean no column."""
    from tests.ui.helpers import main_screen

    app = PaperApp(store=_store(tmp_path, MIXED))
    async with app.run_test(size=(160, 24)) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        screen = main_screen(app)
        screen.list_filter.first_means = {"openreview:B": 2.0}  # FOO 2030's paper moved
        screen.list_filter.show_moves()
        assert paper_list(app)._has_moves
        screen.list_filter.set_scope(["COLM 2025"])
        await settle(pilot)
        assert not paper_list(app)._has_moves
        screen.list_filter.set_scope(["COLM 2025", "FOO 2030"])
        await settle(pilot)
        assert paper_list(app)._has_moves


async def test_a_lean_library_opened_on_one_venue_reads_no_other_then_finds_scales_for_more(tmp_path: Path) -> None:
    """As ``paperdeck`` opens a library (lean, lazy) whose last scope was COLM 2025: the other
    venues' papers stay unparsed through the start-up, a query and the statistics counted ahead;
    widened to another scale's venue, the scales are found for it."""
    from paperdeck.store.lean_papers import DeferredPaper

    from tests.ui.helpers import main_screen

    _store(tmp_path, MIXED)
    (tmp_path / "data" / "config.json").write_text('{"venues": ["COLM 2025"]}', "utf-8")
    store = Store(tmp_path / "data", lazy=True, user_records=False, lean=True)
    app = PaperApp(store=store)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: store.loaded, what="the catalogue loaded")
        await settle(pilot)
        await pilot.press("slash", *"rating>=6")
        await settle(pilot)
        await app.workers.wait_for_complete()
        screen = main_screen(app)
        assert len(screen.view_ids()) == 2
        deferred = [p for p in store.papers if isinstance(p, DeferredPaper)]
        assert len(deferred) == len(MIXED) - 2 and not any(p.parsed for p in deferred)
        await pilot.press("ctrl+a", "ctrl+k")
        screen.list_filter.set_scope(["COLM 2025", "FOO 2030"])
        await wait_for(pilot, lambda: len(screen.view_ids()) == 3, what="the scope")
        await wait_for(pilot, lambda: _row(app, 0).rstrip().endswith("6.5/10"), what="the scales found again")


@pytest.mark.parametrize("width", [70, 160])
async def test_a_moved_rating_shows_its_scale_as_the_others_do(tmp_path: Path, width: int) -> None:
    """Found by a tester: where venues mix, the narrow rows' moved ``5.0↑`` lacked the ``/10``
    the rows beside it show. Narrow or wide, a moved rating keeps its scale, with a space before
    it; the detail pane writes the mean by the same rule."""
    from paperdeck.ui.widgets.paper_detail import PaperDetail
    from paperdeck.ui.widgets.row_cells import column_layout

    from tests.ui.helpers import main_screen, static_text

    app = PaperApp(store=_store(tmp_path, MIXED))
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "/10" in _row(app, 0), what="the scales shown")
        screen = main_screen(app)
        screen._first_means["openreview:A"] = 5.0  # Alpha (COLM 2025) rose to 6.5, as found in its reviews
        screen.list_filter.show_moves()
        papers = paper_list(app)
        papers.refresh()
        await settle(pilot)
        wide = column_layout(papers.scrollable_content_region.width, *papers._columns, moves=True, scaled=True).moves
        assert papers._has_moves and wide == (width == 160)
        row = _row(app, papers.row_of("openreview:A") or 0).rstrip()
        assert re.search(r" 5\.0 +6\.5/10↑$" if wide else r" 6\.5/10↑$", row), row
        assert "Rating" in str(papers.border_title)
        assert papers.highlighted_id == "openreview:A"
        assert "rating 6.5/10" in static_text(screen.query_one(PaperDetail))
