"""The statistics screen (``A``): the figures of the current view, counted again when the view
changes, each chart at 80×24 (snapshots), its numbers as a table, readable in every theme, and an
area name from a file shown as text, never as markup."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import REVIEW, Review
from paperdeck.stats.charts import CHARTS, ordinal
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.stats import StatsScreen
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tests.ui.helpers import FIXED_TIME, main_screen, paper_list, settle
from tests.ui.test_row_contrast import unreadable
from tests.waits import wait_for

SnapCompare = Callable[..., bool]
AREAS = ("reinforcement learning", "generative models", "optimization", "learning theory")
DECISIONS = ("poster", "under-review", "oral", "under-review", "withdrawn", "under-review", "reject")
#: Dark and light themes (every built-in one is checked for the list rows; these for the charts).
THEMES = ("textual-dark", "textual-light", "solarized-light", "nord")
HOSTILE_AREA = "[bold]loud[/bold] \x1b[31mred"


def stats_store(tmp_path: Path, hostile: bool = False) -> Store:
    """42 papers in four areas (one with a hostile name when asked), every decision, two to five
    reviews each, some read, skimmed, to-read and starred — the same every run."""
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    papers = []
    reviews = []
    for n in range(42):
        forum = f"F{n:04d}xxxxx"
        area = HOSTILE_AREA if hostile and n % 4 == 3 else AREAS[n % 4]
        ratings = [float((n * 7 + k * 3) % 6 * 2) for k in range(2 + n % 4)]
        papers.append(
            Paper(id=f"openreview:{forum}", title=f"Paper {n} on graphs", abstract=f"abstract {n}",
                  decision=DECISIONS[n % len(DECISIONS)], primary_area=area, openreview_id=forum,
                  ratings=Ratings.from_scores(ratings))
        )  # fmt: skip
        for k, rating in enumerate(ratings):
            reviews.append(
                Review(id=f"R{n:03d}{k}", forum=forum, replyto=forum, kind=REVIEW, cdate=k, tmdate=k,
                       scores=(("rating", rating), ("confidence", float(1 + (n + k) % 5))),
                       venue_id="ICLR.cc/2026/Conference")
            )  # fmt: skip
    store.import_papers(papers)
    store.import_reviews(reviews)
    ids = store.paper_ids
    for index, status in ((1, "read"), (2, "read"), (5, "skimmed"), (6, "to-read"), (9, "dismissed")):
        store.set_status(ids[index], status)
    for index in (1, 6, 13):
        store.set_star(ids[index], True)
    return store


async def open_stats(pilot: Pilot[Any]) -> StatsScreen:
    await settle(pilot)
    await pilot.press("A")
    screen = pilot.app.screen
    assert isinstance(screen, StatsScreen)
    await counted(pilot, screen)
    return screen


async def counted(pilot: Pilot[Any], screen: StatsScreen, previous: list[str] | None = None) -> None:
    await wait_for(
        pilot, lambda: screen.figures is not None and screen.counted_ids is not previous, what="the figures counted"
    )
    await pilot.pause()


def chart_text(screen: StatsScreen) -> str:
    chart = screen.query_one("#stats-chart", Static)
    return "\n".join("".join(segment.text for segment in chart.render_line(y)) for y in range(chart.size.height))


async def test_the_screen_counts_the_view_and_counts_again_when_it_changes(tmp_path: Path) -> None:
    store = stats_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"decision:oral", "enter")
        await settle(pilot)
        view = main_screen(app).view_ids()
        assert 0 < len(view) < 42
        screen = await open_stats(pilot)
        assert screen.counted_ids == view and screen.figures is not None
        assert screen.figures.papers == len(view)
        assert "filter: decision:oral" in str(screen.query_one("#stats-title", Static).render())
        before = screen.counted_ids
        await pilot.press("0")  # every paper: the main screen's view changes under the charts
        await counted(pilot, screen, before)
        assert screen.figures.papers == 42 and screen.counted_ids == store.paper_ids
        assert app.screen is screen


async def test_the_highlighted_papers_bucket_and_percentile_are_marked(tmp_path: Path) -> None:
    store = stats_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j")
        paper = store.paper(paper_list(app).highlighted_id or "")
        assert paper is not None and paper.ratings is not None
        screen = await open_stats(pilot)
        mean = paper.ratings.mean
        others = [p.ratings.mean for p in store.papers if p.ratings is not None]
        below = sum(1 for other in others if other < mean)
        assert screen.place is not None and screen.place.below == below
        text = chart_text(screen)
        # Relative to the rated papers of the view, and saying so (the detail pane's is of all).
        assert f"{ordinal(round(100 * below / len(others)))} percentile, top " in text
        assert f" of these {len(others):,} ◀" in text
        marked = [line for line in text.splitlines() if line.rstrip().endswith("◀")]
        assert len(marked) == 2  # the bucket's bar and the line saying where the paper stands


@pytest.mark.parametrize("hostile", [False, True], ids=["short areas", "a long area name"])
async def test_every_chart_has_its_numbers_as_a_table(tmp_path: Path, hostile: bool) -> None:
    app = PaperApp(store=stats_store(tmp_path, hostile=hostile))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        assert not screen.query("#stats-table")  # mounted the first time it is asked for
        for index in range(len(CHARTS)):
            assert screen.chart == index
            await pilot.press("t")
            await pilot.pause()
            table = screen.query_one("#stats-table", DataTable)
            assert table.display and table.row_count > 0
            await pilot.pause()
            assert table.virtual_size.width <= 80 - 2, CHARTS[index].key  # every number column on screen
            assert not screen.query_one("#stats-chart", Static).display
            await pilot.press("t")
            assert not table.display
            await pilot.press("n")
        assert screen.chart == 0
        await pilot.press("escape")
        assert app.screen is main_screen(app)
        assert main_screen(app).stats_listener is None


async def test_the_tables_give_the_area_names_the_room_the_number_columns_leave(tmp_path: Path) -> None:
    """At 80 columns the areas' table is too narrow for the names beside the long labels: the
    labels are shortened as the chart's, and "reinforcement learning" (22 cells) is shown whole
    (they were cut at 14 cells), in the progress table "generative models" (17)."""
    app = PaperApp(store=stats_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        await pilot.press("n", "t")  # the areas' table
        for key, name in (("areas", "reinforcement learning"), ("progress", "generative models")):
            while CHARTS[screen.chart].key != key:
                await pilot.press("n")
            await pilot.pause()
            table = screen.query_one("#stats-table", DataTable)
            names = {str(table.get_row_at(y)[0]) for y in range(table.row_count)}
            assert name in names, (key, names)
            assert table.virtual_size.width <= 80 - 2, key
        labels = [str(column.label) for column in table.ordered_columns]
        assert labels == ["area", "papers", "unseen", "skimmed", "to-read", "read", "dism.", "starred"]
    app = PaperApp(store=stats_store(tmp_path / "wide"))
    async with app.run_test(size=(160, 30)) as pilot:  # room enough: the labels in full
        screen = await open_stats(pilot)
        await pilot.press("n", "t")
        await pilot.pause()
        table = screen.query_one("#stats-table", DataTable)
        assert "under review" in [str(column.label) for column in table.ordered_columns]


async def test_an_area_name_from_a_file_is_shown_as_text(tmp_path: Path) -> None:
    app = PaperApp(store=stats_store(tmp_path, hostile=True))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_stats(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert "[bold]loud[/bold] ␛[31mred" in chart_text(screen)
        await pilot.press("t")
        await pilot.pause()
        table = screen.query_one("#stats-table", DataTable)
        cells = {str(table.get_row_at(y)[0]) for y in range(table.row_count)}
        assert "[bold]loud[/bold] ␛[31mred" in cells


@pytest.mark.slow  # every chart in several themes
async def test_every_chart_is_readable_in_every_theme(tmp_path: Path) -> None:
    app = PaperApp(store=stats_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        problems: list[str] = []
        lines = 0
        themes = [name for name in THEMES if name in app.available_themes]
        assert len(themes) >= 4
        for name in themes:
            app.theme = name
            for index in range(len(CHARTS)):
                screen.chart = index
                screen.action_chart(0)
                await pilot.pause()
                for widget in (screen.query_one("#stats-chart", Static), screen.query_one("#stats-tabs", Static)):
                    for y in range(widget.size.height):
                        problems += unreadable(widget.render_line(y), f"{name} {CHARTS[index].key} {y}")
                        lines += 1
        assert lines > 200
        assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("chart", [chart.key for chart in CHARTS])
def test_chart_80x24(snap_compare: SnapCompare, tmp_path: Path, chart: str) -> None:
    """Each chart at 80×24 (the highlighted paper is the third)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("j", "j")
        screen = await open_stats(pilot)
        for _ in range([c.key for c in CHARTS].index(chart)):
            await pilot.press("n")
        await pilot.pause()
        assert screen.figures is not None

    assert snap_compare(PaperApp(store=stats_store(tmp_path)), terminal_size=(80, 24), run_before=run_before)


async def test_the_figures_are_counted_off_the_event_loop_and_marks_counted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import paperdeck.stats.figures as figures_module

    threads: list[threading.Thread] = []
    count = figures_module.figures_of

    def counted_where(*args: Any) -> Any:
        threads.append(threading.current_thread())
        return count(*args)

    monkeypatch.setattr(figures_module, "figures_of", counted_where)
    store = stats_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(pilot)
        assert screen.figures is not None
        read = screen.figures.progress.count("read")
        assert threads and threading.main_thread() not in threads
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("g", "r")  # the first paper marked read
        await settle(pilot)
        screen = await open_stats(pilot)
        assert len(threads) == 1  # the same view: only the marks were counted again
        assert screen.figures is not None and screen.figures.progress.count("read") == read + 1


def test_percentiles_read_as_ordinals() -> None:
    said = [ordinal(n) for n in (0, 1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 100, 101, 111)]
    assert said == ["0th", "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "100th",
                    "101st", "111th"]  # fmt: skip


async def test_the_whole_stores_figures_are_counted_ahead_once_the_app_is_idle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the catalogue is parsed and typing pauses, every paper's figures are counted in the
    worker: the first opening of the statistics adds only the user's marks."""
    import paperdeck.stats.figures as figures_module

    store = stats_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await settle(pilot)
            if main_screen(app).stats_figures is not None:
                break
        ahead = main_screen(app).stats_figures
        assert ahead is not None and ahead[1].papers == 42
        calls: list[int] = []
        real = figures_module.figures_of
        monkeypatch.setattr(figures_module, "figures_of", lambda *a, **k: calls.append(1) or real(*a, **k))
        screen = await open_stats(pilot)
        assert screen.figures is not None and screen.figures.papers == 42
        assert calls == []  # taken from the count made ahead


def test_a_wide_screen_shows_whole_area_names_and_a_narrow_one_keeps_room_for_the_bars() -> None:
    """ICLR's areas differ late ("applications to computer vision, …" / "… to robotics, …"): from
    120 columns the names get room to the longest; at 80 they are cut (the bars need the room)."""
    from paperdeck.stats.figures import figures_of
    from paperdeck.ui.widgets.stats_charts import chart_content

    names = ("applications to computer vision, audio, language, and other modalities",
             "applications to robotics, autonomy, planning")  # fmt: skip
    papers = [
        Paper(id=f"openreview:P{n}", title=f"Paper {n}", abstract="a", primary_area=names[n % 2], decision="poster")
        for n in range(4)
    ]
    figures = figures_of(papers, {}, {})
    wide = chart_content("areas", figures, None, 196).plain
    assert all(name in wide for name in names) and max(map(len, wide.splitlines())) <= 196
    assert max(map(len, chart_content("areas", figures, None, 120).plain.splitlines())) <= 120
    narrow = chart_content("areas", figures, None, 76).plain
    assert names[0] not in narrow and names[0][:20] in narrow
    assert max(map(len, narrow.splitlines())) <= 76


def test_the_screen_styles_the_lines_the_stats_room_lays_out(tmp_path: Path) -> None:
    """A chart is laid out once (:mod:`paperdeck.stats.charts`): the screen's text is its lines'."""
    from paperdeck.stats.charts import chart_lines
    from paperdeck.stats.figures import figures_of
    from paperdeck.ui.widgets.stats_charts import chart_content

    store = stats_store(tmp_path)
    figures = figures_of(store.papers, store.reviews.summaries(), store.all_user_data)
    place = figures.place(5.0)
    for chart in CHARTS:
        lines = chart_lines(chart.key, figures, 76, place, highlighting=True)
        content = chart_content(chart.key, figures, place, 76)
        assert content.plain == "\n".join(line.text for line in lines), chart.key
    marked = chart_content("ratings", figures, place, 76)
    assert any("reverse" in str(span.style) for span in marked.spans)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_click_on_a_tab_shows_its_chart(tmp_path: Path, size: tuple[int, int]) -> None:
    """The tab row looks clickable (a README-only tester clicked ``Venues``, ``Areas``): a click on
    a tab shows that chart; one between two tabs, or past the last, changes nothing."""
    from paperdeck.ui.screens.stats import tab_at

    app = PaperApp(store=stats_store(tmp_path))
    async with app.run_test(size=size) as pilot:
        screen = await open_stats(pilot)
        tabs = screen.query_one("#stats-tabs", Static)
        row = "".join(segment.text for segment in tabs.render_line(0))
        for index in (2, len(CHARTS) - 1, 0):
            title = f" {CHARTS[index].title} "
            if row.find(title) < 0 or row.find(title) + len(title) > tabs.size.width:
                continue  # cut off at this width
            await pilot.click(tabs, offset=(row.index(title) + 2, 0))
            await wait_for(pilot, lambda i=index: screen.chart == i, what=f"the chart {CHARTS[index].title}")
        assert tab_at(len(f" {CHARTS[0].title} ")) is None  # the space between the first two
        assert tab_at(0) == 0 and tab_at(len(f" {CHARTS[0].title} ") + 1) == 1
        if len(row.rstrip()) + 2 < tabs.size.width:  # room past the last tab: a click there does nothing
            before = screen.chart
            await pilot.click(tabs, offset=(tabs.size.width - 1, 0))
            await pilot.pause()
            assert screen.chart == before
