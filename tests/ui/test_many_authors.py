"""A paper with 300 authors and no abstract (tester round 16: the detail pane and the reader
printed every name, ~100 lines, no line said the abstract was missing, and the author picker
listed 300 rows with no way to find one). The paper is made here, a CSV row as a consortium's
list would give it (names made up)."""

from __future__ import annotations

import csv
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.follow_dialogs import AuthorPicker
from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import OptionList

from tests.ui.helpers import SIZE, highlighted, main_screen, settle, static_text

AUTHORS = [f"Author{n:03d} Person{n:03d}" for n in range(1, 301)]


def _store(tmp_path: Path) -> Store:
    path = tmp_path / "consortium.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "authors", "venue", "year"])
        writer.writerow(["A Large Collaboration Report on Benchmarks", "; ".join(AUTHORS), "ICLR", "2026"])
    store = Store(tmp_path / "data")
    import_files(store, [path])
    return store


async def test_a_long_author_list_is_cut_in_the_pane_and_whole_in_the_reader(tmp_path: Path) -> None:
    store = _store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(highlighted(app).authors) == 300
        pane = static_text(main_screen(app).query_one(PaperDetail))
        assert "Author010 Person010 … and 290 more (enter reads them all)" in pane, pane
        assert "Author011" not in pane
        assert "No abstract." in pane
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PaperReader)
        reader = static_text(app.screen.query_one(PaperDetail))
        assert "Author300 Person300" in reader and "more (enter" not in reader
        assert "No abstract." in reader


async def test_the_author_picker_filters_as_a_name_is_typed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AuthorPicker)
        options = app.screen.query_one("#authors", OptionList)
        assert options.option_count == 300
        await pilot.press(*"persn150")  # a typo: found near
        await settle(pilot)
        assert str(options.get_option_at_index(0).prompt) == "Author150 Person150"
        await pilot.press(*["backspace"] * 8)
        await pilot.press(*"person15", "down")  # 150…159 by their word's start; down moves
        await settle(pilot)
        assert options.option_count == 10 and options.highlighted == 1
        await pilot.press("enter")
        await settle(pilot)
        assert [(f.kind, f.value) for f in store.follows.all()] == [("author", "Author151 Person151")]


async def test_a_list_cut_short_says_et_al_in_the_pane(tmp_path: Path) -> None:
    path = tmp_path / "cut.bib"
    path.write_text(
        '@inproceedings{doe2026, title = {A Paper}, author = {Doe, Jane and M{\\"u}ller, Hans and others},'
        " booktitle = {ICLR}, year = {2026}}\n",
        "utf-8",
    )
    store = Store(tmp_path / "data")
    import_files(store, [path])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Authors: Jane Doe, Hans Müller … et al." in static_text(main_screen(app).query_one(PaperDetail))


async def test_the_author_picker_of_many_names_fits_an_80_by_24_screen(tmp_path: Path) -> None:
    """The merged build's tester: with 42 authors the picker was taller than an 80×24 screen and
    opened scrolled, its heading off the screen. The list takes the rows left; the heading, the
    filter box and the key line are all on the screen."""
    app = PaperApp(store=_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AuthorPicker)
        dialog = app.screen.query_one("#author-dialog")
        assert dialog.scroll_y == 0 and dialog.max_scroll_y == 0, (dialog.region, dialog.virtual_size)
        for part in (".prompt-title", "#author-filter", "#author-hint"):
            region = app.screen.query_one(part).region
            assert region.y >= 0 and region.bottom <= 24 and region.height >= 1, (part, region)
