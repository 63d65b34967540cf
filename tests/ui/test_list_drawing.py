"""The list's fast paths draw exactly what the plain ones would: rows built straight into segments
(``plain_row``) against Rich's ``Text``, repaints of the changed lines only, and the scrollbar
that draws again only when its picture changes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import product
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings, with_tags
from paperdeck.store.store import Store
from paperdeck.ui._lines.boxing import RowBoxer
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.row_cells import MARK, NOTE, STAR, STATUS_MARKS, plain_row
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.scroll_view import ScrollView

from tests.ui.helpers import main_screen, paper_list, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]

BASE = Style(color="#e0e0e0", bgcolor="#121212")
CURSOR = BASE + Style(color="#000000", bgcolor="#ffa62b", bold=True)
ITALIC = Style(italic=True)
TITLES = [
    "",
    "A",
    "Graph Neural Networks for Molecules",
    "Reordered SparseGPT: Optimizing the Pruning Order in Second-Order Pruning Methods " * 2,
    "x" * 200,
    "Ends with a space ",
]


def rich_row(
    parts: list[tuple[str, Style | None]], right: list[tuple[str, Style | None]], width: int, style: Style
) -> list[Segment]:
    """The row as ``PaperList`` draws it through Rich's ``Text`` (the path for other characters)."""
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    for content, content_style in parts:
        text.append(content, content_style)
    if right:
        text.truncate(max(1, width - sum(len(content) for content, _ in right)), overflow="ellipsis", pad=True)
        for content, content_style in right:
            text.append(content, content_style)
    text.truncate(width, overflow="ellipsis", pad=True)
    text.stylize_before(style)
    return list(text.render(Console(width=400)))


@pytest.mark.parametrize("width", [8, 9, 12, 20, 47, 80, 157])
def test_plain_rows_render_as_rich_text_does(width: int) -> None:
    marks = [(MARK, Style(color="#fea62b")), (STATUS_MARKS["read"], Style(color="#ffffff"))]
    for title, derived, star, tags, badge, rating, area, cursor in product(
        TITLES,
        (False, True),
        (STAR, " "),
        ("", "  #must-read #x"),
        (None, ("ORAL", Style(bold=True))),
        (None, ("   6.5", Style(color="#5684a5")), ("     –", Style(color="#5684a5"))),
        (None, ("reinforcement lear…", Style(color="#999999"))),
        (False, True),
    ):
        parts: list[tuple[str, Style | None]] = [
            *marks,
            (star, Style(color="#ffc473")),
            (NOTE, Style()),  # a null style adds no span
            (" ", None),
        ]
        if badge is not None:
            parts += [badge, (" ", None)]
        parts += [(title[:9], ITALIC if derived else None), (title[9:12], Style(bold=True, underline=True))]
        parts.append((title[12:], ITALIC if derived else None))
        if tags:
            parts.append((tags, Style(color="#888888")))
        right = ([("  ", None), area] if area else []) + ([rating] if rating else [])
        style = CURSOR if cursor else BASE
        assert plain_row(parts, right, width, style) == rich_row(parts, right, width, style)


@pytest.mark.parametrize("width", [8, 20, 80, 157])
@pytest.mark.parametrize("rating", ["   6.5 ↕2 ", "   3.3 ↕0.5", "     – ↕– ", "   5.5 ↕4 "])
@pytest.mark.parametrize("mark", ["•", "◆", " "])
def test_rows_with_a_rating_spread_or_a_changed_mark_take_the_fast_path(width: int, rating: str, mark: str) -> None:
    """A rating's spread (``↕``) beside its digits, and the changed and followed marks, are one
    cell each: such a row (every row of a conference with reviews) is built straight into
    segments, as Rich's ``Text`` would render it, not through ``Text``."""
    parts: list[tuple[str, Style | None]] = [
        (MARK, Style(color="#fea62b")), (STATUS_MARKS["read"], None), (STAR, Style(color="#ffc473")),
        (NOTE, None), (mark, Style(color="#5fafd7")), ("Graph Neural Networks for Molecules", None),
    ]  # fmt: skip
    right: list[tuple[str, Style | None]] = [("  ", None), ("reinforcement lear…", None), (rating, ITALIC)]
    for style in (BASE, CURSOR):
        plain = plain_row(parts, right, width, style)
        assert plain is not None
        assert plain == rich_row(parts, right, width, style)


@pytest.mark.parametrize("title", ["多模态 😀 CJK", "Café – naïve", "tab\there", "e\u0301 combining"])
def test_rows_with_other_characters_take_the_text_path(title: str) -> None:
    assert plain_row([(" ", None), (title, None)], [], 40, BASE) is None


async def test_a_new_ranking_repaints_only_the_lines_that_changed(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        papers = paper_list(app)
        ids = list(papers._ids)
        repainted: list[tuple[Region, ...]] = []
        refresh = papers.refresh

        def spy(*regions: Region, **options: bool) -> object:
            repainted.append(regions)
            return refresh(*regions, **options)

        monkeypatch.setattr(papers, "refresh", spy)
        papers.show([ids[0], ids[2], ids[1], *ids[3:]])  # rows 1 and 2 swap
        width = papers.size.width
        assert repainted == [(Region(0, 1, width, 1), Region(0, 2, width, 1))]
        repainted.clear()
        papers.show(list(reversed(ids)))
        assert len(repainted) == 1 and len(repainted[0]) > 2


async def test_the_scrollbar_follows_the_cursor(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(160, 16)) as pilot:  # side by side: the list has the screen's height
        await pilot.pause()
        scrollbar = paper_list(app).vertical_scrollbar
        region = Region(0, 0, scrollbar.size.width, scrollbar.size.height)
        top = [strip.text for strip in scrollbar.render_lines(region)]
        main_screen(app).set_focus(paper_list(app))
        await pilot.press("G")
        await pilot.pause()
        bottom = [strip.text for strip in scrollbar.render_lines(region)]
        assert top != bottom
        assert [strip.text for strip in scrollbar.render_lines(region)] == bottom


async def test_the_truecolor_filter_the_list_skips_would_change_nothing(tmp_path: Path) -> None:
    """The list and its scrollbar skip Textual's ANSI-to-truecolor filter (~2.5 ms a keystroke):
    their lines carry only the theme's colours, never ``dim``. Checked on every kind of row (star,
    note, status, tags, badge, rating, mark, derived title, cursor focused or not) in every theme
    that is not an ANSI one (those turn the filter off themselves)."""
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id=f"openreview:P{n}", title=f"Paper {n}", abstract=f"abs {n}", decision=decision, ratings=ratings)
            for n, (decision, ratings) in enumerate(
                [("oral", Ratings(7.5)), ("reject", Ratings(3.0)), ("unknown", None), ("poster", None)] * 10
            )
        ]
        + [Paper(id="abs:0000000000000001", title="", abstract="A derived title comes from this abstract, " * 3)]
    )
    ids = store.paper_ids
    store.set_star(ids[0], True)
    store.set_note(ids[1], "a note")
    store.set_status(ids[2], "to-read")
    store.change([ids[3]], partial(with_tags, add=["must-read", "x"]))
    app = PaperApp(store=store)
    async with app.run_test(size=(100, 20)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.marked.add(ids[4])
        papers = paper_list(app)
        scrollbar = papers.vertical_scrollbar
        checked = 0
        for name, theme in app.available_themes.items():
            if theme.ansi:
                continue
            app.theme = name
            for focused in (papers, None):
                screen.set_focus(focused)
                await pilot.pause()
                truecolor = ANSIToTruecolor(app.ansi_theme)
                for widget in (papers, scrollbar):
                    background = widget.background_colors[1]
                    for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)):
                        assert list(strip.apply_filter(truecolor, background)) == list(strip), (name, widget)
                        checked += 1
        assert checked > 400


async def test_row_lines_boxed_by_the_list_are_the_lines_textual_draws(make_app: AppFactory) -> None:
    """The list boxes its rows' lines itself (border cells learnt from the first row's line that
    Textual draws, ``PaperList._boxed_lines``): every line must be the one Textual draws, in
    every state, and a row shown again must be the same strip (what the saving is)."""
    app = make_app()
    compared = 0
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        papers = paper_list(app)
        ids = list(papers._ids)
        for theme in ["solarized-light", "ansi-dark"]:
            app.theme = theme
            for focused, columns, view in product((papers, None), (False, True), (ids, ids[5:] + ids[:5], ids[:3], [])):
                screen.set_focus(focused)
                papers.set_columns(decisions=columns, ratings=columns, areas=columns)
                papers.show(view)
                for cursor in (2, 40):
                    papers.cursor = cursor
                    await pilot.pause()
                    crop = Region(0, 0, papers.region.width, papers.region.height)
                    ours = papers.render_lines(crop)
                    if view:
                        assert papers.render_lines(crop)[1] is ours[1]  # the same strip again
                    papers.refresh()
                    textual = ScrollView.render_lines(papers, crop)
                    assert [list(line) for line in ours] == [list(line) for line in textual]
                    compared += 1
        papers.show(ids)
        await pilot.pause()
        one = papers.render_lines(Region(0, 4, papers.region.width, 1))
        papers.show(ids[2:])  # the row of line 4 moves up to line 2: the same strip
        await pilot.pause()
        assert papers.render_lines(Region(0, 2, papers.region.width, 1))[0] is one[0]
    assert compared == 2 * 2 * 2 * 4 * 2


async def test_a_change_of_focus_draws_only_the_highlighted_row_again(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list's focus changes the highlighted row's look alone (and the border's): moving the
    focus to the filter bar draws that row again, not the others (the typed query's first key
    moves the focus, and its frame comes before the result's)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        crop = Region(0, 0, papers.region.width, papers.region.height)
        papers.render_lines(crop)
        drawn: list[int] = []
        draw_row = papers._draw_row

        def spy(row: int, *args: object) -> object:
            drawn.append(row)
            return draw_row(row, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(papers, "_draw_row", spy)
        # Back with the focus, every row looks as it was first drawn: none is drawn again.
        for key, drawn_again in (("slash", [papers.cursor]), ("escape", [])):
            await pilot.press(key)
            await wait_for(pilot, lambda: papers.has_focus == (key == "escape"))  # noqa: B023
            papers.render_lines(crop)
            assert drawn == drawn_again, key
            drawn.clear()


async def test_rows_kept_across_focus_and_theme_changes_are_the_rows_drawn_anew(make_app: AppFactory) -> None:
    """The rows drawn before a change of focus or theme and kept (``PaperList._rows_look``) are
    the rows the list draws with nothing kept, in every theme, focused or not."""
    app = make_app()
    compared = 0
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        papers = paper_list(app)
        crop = Region(0, 0, papers.region.width, papers.region.height)
        for theme, focused in product(["textual-dark", "solarized-light", "ansi-dark", "nord"], (papers, None, papers)):
            app.theme = theme
            screen.set_focus(focused)
            await pilot.pause()
            kept = [list(line) for line in papers.render_lines(crop)]
            papers._strips.clear()
            papers._rows_boxed = RowBoxer()
            assert kept == [list(line) for line in papers.render_lines(crop)], (theme, focused)
            compared += 1
    assert compared == 12


async def test_a_frame_of_rows_is_drawn_from_styles_made_once_per_look(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame's rows are drawn from ready styles (``RowStyles``): each component's colour is made
    readable once for the plain rows and once for the highlighted one, not once per part of each
    row (420 times for the first frame's 42 rows of a conference), and Textual is asked only for
    the styles of the components the rows show (no query typed: no match; one venue: no venue
    column)."""
    from paperdeck.ui.widgets import contrast, row_cells

    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        crop = Region(0, 0, papers.region.width, papers.region.height)
        made: list[tuple[Style | None, Style]] = []

        def counted(part: Style | None, row: Style, *rest: float) -> Style | None:
            made.append((part, row))
            return contrast.legible(part, row, *rest)

        monkeypatch.setattr(row_cells, "legible", counted)
        asked: list[tuple[str, ...]] = []
        component_style = papers.get_component_rich_style

        def asked_for(*names: str, **options: object) -> Style:
            asked.append(names)
            return component_style(*names, **options)  # type: ignore[arg-type]

        monkeypatch.setattr(papers, "get_component_rich_style", asked_for)
        # Nothing drawn nor any look kept: the frame is drawn as the first one is.
        papers._strips.clear()
        papers._rows_boxed = RowBoxer()
        papers._looks_seen.clear()
        papers._styles = papers._look = None
        papers.render_lines(crop)
        rows = min(papers.row_count, papers.scrollable_content_region.height)
        assert rows >= 30
        shown = {name for names in asked for name in names}
        assert {"paper-list--mark", "paper-list--star", "paper-list--cursor"} <= shown
        assert not shown & {"paper-list--match", "paper-list--venue", "paper-list--empty"}
        # The rows' own colour for each of the two looks, then each component's once per look.
        assert len(made) <= 2 * (1 + len(shown - {"paper-list--cursor"})) < rows
