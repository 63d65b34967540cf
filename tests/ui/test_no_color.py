"""Under ``NO_COLOR`` (Textual then drops the colours, or makes them grey, and sets ``:nocolor``) the
highlighted row is told apart in reverse video (underlined, too, while the list has no focus),
the marks are symbols, the matches bold and underlined, and the charts' bars shades: nothing of
them rests on colour alone. An SVG snapshot at 80×24 shows it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.paper_list import PaperList
from paperdeck.ui.widgets.stats_charts import STYLES
from rich.segment import Segment
from rich.style import Style
from textual.pilot import Pilot

from tests.ui.helpers import FIXED_TIME, main_screen, paper_list, settle
from tests.waits import screen_settled, steady_cursors

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _steady_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    steady_cursors(monkeypatch)


def _marked_store(tmp_path: Path, seed_files: list[Path]) -> Store:
    """The seeds with a star, a note, a reading status and a tag on the first papers."""
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    import_files(store, seed_files)
    first, second, third = (paper.id for paper in store.papers[:3])
    store.set_star(first, True)
    store.set_note(second, "Compare with the baseline.")
    store.set_status(third, "to-read")
    store.set_star(third, True)
    return store


def _row(widget: PaperList, y: int) -> list[Segment]:
    return [segment for segment in widget.render_line(y) if segment.text.strip()]


def _reversed(segments: list[Segment]) -> bool:
    return bool(segments) and all((segment.style or Style()).reverse for segment in segments)


async def test_the_highlighted_row_is_reversed_under_no_color_and_not_otherwise(
    tmp_path: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _marked_store(tmp_path, seed_files)
    for no_color in (True, False):
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        else:
            monkeypatch.delenv("NO_COLOR")
        app = PaperApp(store=Store(store.data_dir))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert app.no_color is no_color
            widget = paper_list(app)
            widget.focus()
            await pilot.pause()
            cursor = widget.cursor - int(widget.scroll_offset.y)
            assert _reversed(_row(widget, cursor)) is no_color
            assert not _reversed(_row(widget, cursor + 1))  # another row: as it was
            if no_color:
                main_screen(app).query_one(FilterBar).focus()  # the list without focus
                await pilot.pause()
                row = _row(widget, cursor)
                assert _reversed(row) and all((segment.style or Style()).underline for segment in row)


async def test_marks_and_matches_need_no_colour(
    tmp_path: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = PaperApp(store=_marked_store(tmp_path, seed_files))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        widget = paper_list(app)
        rows = ["".join(segment.text for segment in widget.render_line(y)) for y in range(3)]
        assert rows[0].lstrip().startswith("★") and "✎" in rows[1][:5] and "»" in rows[2][:3] and "★" in rows[2][:4]
        await pilot.press("slash", *"readout", "enter")  # a word of a title; the list has the focus
        await settle(pilot)
        row = [segment for segment in widget.render_line(0) if segment.text.strip()]
        matched = [segment.style or Style() for segment in row if segment.text.lower() == "readout"]
        others = [segment.style or Style() for segment in row if "readout" not in segment.text.lower()]
        assert matched and all(style.bold and style.underline for style in matched)
        assert others and not any(style.underline for style in others)  # the match stands out by its line


def test_the_charts_styles_are_no_colours() -> None:
    for name, spec in STYLES.items():
        style = Style.parse(spec) if spec else Style()
        assert style.color is None and style.bgcolor is None, name
    assert "reverse" in STYLES["mark"]  # the highlighted paper's bucket


def test_main_screen_under_no_color_80x24(
    snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = PaperApp(store=_marked_store(tmp_path, seed_files))

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("slash", *"spatial", "enter", "space")
        await screen_settled(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
