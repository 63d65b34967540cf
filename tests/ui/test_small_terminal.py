"""At 80×24 and at 40 columns everything is readable: the prompts' lines wrap instead of being
cut off, the footer keeps Help and Quit, a hint leaves the query its room, the title column gets
most of the list, and a paper can be read full screen."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import LIST_ONLY_BELOW, SIDE_BY_SIDE_FROM
from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.footer import PaperFooter
from paperdeck.ui.widgets.paper_detail import PaperDetail
from rich.cells import cell_len
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Label
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast

from tests.ui.helpers import counts, highlighted, main_screen, paper_list, settle
from tests.waits import wait_for

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


@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
async def test_a_toast_wraps_inside_the_screen(make_app: AppFactory, size: tuple[int, int]) -> None:
    """A long notification on a small terminal: every word of it on screen (it ran off the edge,
    60 cells wide at 40 columns)."""
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        await pilot.press("minus", "enter")  # a blank tag to remove: the tag prompt's long warning
        await settle(pilot)
        await wait_for(pilot, lambda: app.screen.query(Toast), what="the toast")  # mounted after the message
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        region = toast.region
        assert Region(0, 0, *size).contains_region(region), region
        rows = screen_text(app).splitlines()[region.y : region.bottom]
        shown = " ".join(row[region.x : region.right].replace("▌", " ") for row in rows)
        said = str(next(iter(app._notifications)).message)
        assert said.endswith("(escape cancels).") and re.sub(r"\s+", " ", shown).strip() == said


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


@pytest.mark.parametrize("width", [40, 60, 80])
@pytest.mark.parametrize("key", ["enter", "A"], ids=["reader", "statistics"])
async def test_a_full_screen_view_keeps_its_way_back_in_the_footer(make_app: AppFactory, width: int, key: str) -> None:
    app = make_app()
    async with app.run_test(size=(width, 12)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        last_line = lambda: screen_text(app).splitlines()[-1]  # noqa: E731
        # The footer is drawn after the view's own widgets: wait for its line, not for one pause.
        await wait_for(pilot, lambda: all(k in last_line() for k in ("esc Back", "? Help", "q Quit")), what=last_line)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is main_screen(app)


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
        assert any(n.message.startswith("Detail pane off") and "enter reads a paper" in n.message
                   for n in app._notifications)  # fmt: skip
        await pilot.press("D")
        await pilot.pause()
        assert any(n.message.startswith("Detail pane on") for n in app._notifications)


# -- nothing in the top bar or the footer cut mid-word, at any width ------------------------------

WIDTHS = [40, 60, 80, 120, 200]


@pytest.fixture
def full_store(tmp_path: Path) -> Store:
    """As many papers as the ICLR 2026 dump (the counts' numbers as wide), one starred."""
    store = Store(tmp_path / "full")
    store.import_papers(
        [
            Paper(
                id=f"openreview:P{n}", title=f"Paper {n} on graphs", abstract="a", decision="oral", ratings=Ratings(5.0)
            )
            for n in range(19_630)
        ]
    )
    store.set_star(store.paper_ids[0], True)
    return store


def assert_whole_notes(text: str) -> None:
    """No dangling separator, no star without its number."""
    assert not text.rstrip().endswith("·") and "· ·" not in text, text
    assert re.search(r"★(?! \d)", text) is None, text


def top_bar_shows(app: PaperApp, text: str) -> None:
    """The counts label shows ``text`` on its one line, nothing below it (on the bar's border)."""
    label = main_screen(app).query_one("#counts", CountsLabel)
    assert cell_len(text) <= label.content_region.width, (text, label.content_region)
    lines = screen_text(app).splitlines()
    assert text in lines[1], (text, lines[1])
    below = lines[2][label.content_region.x : label.content_region.right]
    assert not below.strip(), below


@pytest.mark.parametrize("width", WIDTHS)
async def test_the_counts_drop_whole_notes_to_fit(full_store: Store, width: int) -> None:
    (full_store.data_dir / CONFIG_FILE).write_text(json.dumps({"sort": "changed"}), "utf-8")
    app = PaperApp(store=full_store)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await pilot.press("M", "S")  # every paper marked; then starred only
        await settle(pilot)
        text = counts(app)
        top_bar_shows(app, text)
        assert_whole_notes(text)
        assert "by changed" not in text
        if width == 200:
            assert text == "     1 of 19,630 · ★ 1 · starred only · changed first · 19,630 marked"
        elif width >= 80:
            assert "19,630 marked" in text  # the marks go last: an action takes them, shown or not
        await pilot.press("S")
        await settle(pilot)
        top_bar_shows(app, counts(app))
        assert_whole_notes(counts(app))
        if width >= 80:  # the star count stays (the sort's long name, the count's padding give way)
            assert "★ 1" in counts(app), counts(app)


def hint_shows(app: PaperApp, text: str) -> None:
    """The counts label shows the hint ``text`` on its two lines (the bar's middle row and the
    one below it), each within the label."""
    label = main_screen(app).query_one("#counts", CountsLabel)
    lines = screen_text(app).splitlines()
    for row, line in enumerate(text.split("\n")):
        assert cell_len(line) <= label.content_region.width, (line, label.content_region)
        assert line in lines[1 + row], (line, lines[1 + row])


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_long_hint_wraps_cut_at_a_word_and_is_shown_whole_in_a_toast(full_store: Store, width: int) -> None:
    app = PaperApp(store=full_store)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"decision:foo")
        await settle(pilot)
        hint = main_screen(app).query_hint
        assert hint is not None and "foo" in hint
        text = counts(app)
        hint_shows(app, text)
        joined = text.replace("\n", " ")
        if joined != f"⚠ {hint}":
            assert joined.endswith("…") and f"⚠ {hint}".startswith(joined[:-1]), text
            assert not (f"⚠ {hint}")[len(joined) - 1].isalnum(), text  # cut between words
            await wait_for(pilot, lambda: [n for n in app._notifications if n.message == hint], what="the hint's toast")
        else:
            assert width >= 80


@pytest.mark.parametrize("query", ["rating>=x", "a OR", "tag:", "year:x", "a AND"])
async def test_a_query_hint_is_whole_at_80_columns(full_store: Store, query: str) -> None:
    """The hint's end (its example: ``e.g. rating>=6``) is the useful part: at 80×24 it wraps onto
    the label's second line rather than being cut."""
    app = PaperApp(store=full_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *query)
        await settle(pilot)
        hint = main_screen(app).query_hint
        assert hint is not None
        text = counts(app)
        hint_shows(app, text)
        assert text.replace("\n", " ") == f"⚠ {hint}", text


def footer_keys_whole(app: PaperApp, screen_index: int = 0) -> None:
    """Every key the footer shows, whole with its label, left of Help and Quit."""
    footer = app.screen_stack[screen_index].query_one(PaperFooter)
    line = screen_text(app).splitlines()[-1]
    for key in footer.query(FooterKey):
        if key.display and key.parent is footer:
            shown = f"{key.key_display} {key.description}".strip()
            assert shown in line, (shown, line)
    kept = footer.query_one("#always-shown").region
    assert all(key.region.right <= kept.x for key in footer.children if key.id != "always-shown" and key.display)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("opened", ["nothing", "dialog", "toast"])
async def test_the_footer_shows_no_key_without_its_label(full_store: Store, width: int, opened: str) -> None:
    app = PaperApp(store=full_store)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        if opened == "dialog":
            await pilot.press("T")
        elif opened == "toast":
            await pilot.press("s")  # a star: the footer's keys are laid out again
            app.notify("a toast")
        await settle(pilot)
        footer_keys_whole(app)
