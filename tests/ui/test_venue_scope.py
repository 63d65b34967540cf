"""The venue scope in the app: the picker (``c``) with its counts, the top bar naming the scope,
the venue column only where the view mixes venues, the scope kept across restarts, and the
list, views and statistics following it."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.stats import StatsScreen
from paperdeck.ui.screens.venues import VenuesScreen
from paperdeck.ui.widgets.filter_bar import FilterBar
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets._toast import Toast

from tests.ui.helpers import SIZE, counts, main_screen, paper_list, settle
from tests.waits import wait_for


def _paper(n: int, venue: str, year: int, title: str, decision: str = "poster") -> Paper:
    return Paper(id=f"abs:{n:016x}", title=title, abstract=f"Abstract {n}.", venue=venue, year=year,
                 decision=decision, ratings=Ratings(6.0))  # fmt: skip


ICLR = [_paper(n, "ICLR", 2026, f"Diffusion paper {n}", "oral" if n == 0 else "poster") for n in range(4)]
COLM = [_paper(10 + n, "COLM", 2025, f"Language model paper {n}", "oral" if n < 2 else "poster") for n in range(3)]


def make_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers([*ICLR, *COLM])
    return store


def option_texts(app: PaperApp) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]


async def test_pick_one_venue_then_all_again(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert len(screen.view_ids()) == 7 and "all venues" in counts(app)
        assert paper_list(app).columns.venue  # the view mixes ICLR 2026 and COLM 2025
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, VenuesScreen)
        rows = option_texts(app)
        assert rows[0].startswith("[x] All venues") and rows[0].endswith("7 papers")
        assert rows[1].startswith("[x] ICLR 2026") and rows[1].endswith("4 papers")
        assert rows[2].startswith("[x] COLM 2025") and rows[2].endswith("3 papers")
        await pilot.press("j", "j", "o")  # COLM 2025 alone
        await settle(pilot)
        assert screen.view_ids() == [p.id for p in COLM]
        assert counts(app).lstrip().startswith("3 papers · COLM 2025")  # held as wide as with a note
        assert not paper_list(app).columns.venue  # one venue: no column
        assert json.loads((app.store.data_dir / "config.json").read_bytes())["venues"] == ["COLM 2025"]
        await pilot.press("c")
        await settle(pilot)
        assert option_texts(app)[1].startswith("[ ] ICLR 2026")
        await pilot.press("space")  # on All venues: every one ticked
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.view_ids()) == 7 and "all venues" in counts(app)


async def test_a_change_of_scope_says_so_and_fits_at_80_columns(tmp_path: Path) -> None:
    """Picking a scope says which and how many papers (``"Scope: COLM 2025 — 3 papers"``), in a
    toast that holds the whole line at 80×24; the top bar names the scope at once."""
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("j", "j", "o")  # COLM 2025 alone
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert said == ["Scope: COLM 2025 — 3 papers"]
        assert "COLM 2025" in counts(app)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("space", "enter")  # every venue
        await settle(pilot)
        assert [str(n.message) for n in app._notifications][-1] == "Scope: all venues — 7 papers"
        assert "all venues" in counts(app)
        await wait_for(pilot, lambda: len(app.screen.query(Toast)) == 2, what="the second toast")
        await pilot.pause()
        region = app.screen.query(Toast).last().region
        assert Region(0, 0, 80, 24).contains_region(region), region
        rows = "\n".join(line.text for line in app.screen._compositor.render_strips()).splitlines()
        shown = " ".join(row[region.x : region.right].replace("▌", " ") for row in rows[region.y : region.bottom])
        assert " ".join(shown.split()) == "Scope: all venues — 7 papers"  # whole, at 80 columns


async def test_tick_venues_and_the_matches_of_the_query(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.query_one(FilterBar).value = "decision:oral"
        await settle(pilot)
        assert len(screen.view_ids()) == 3
        await pilot.press("c")
        await settle(pilot)
        rows = option_texts(app)  # live: how many of each venue the query selects
        assert rows[0].endswith("7 papers       3 match")
        assert rows[1].endswith("4 papers       1 match") and rows[2].endswith("3 papers       2 match")
        await pilot.press("j", "space", "enter")  # untick ICLR 2026: COLM 2025 left
        await settle(pilot)
        assert screen.view_ids() == [COLM[0].id, COLM[1].id]
        assert counts(app).strip().startswith("2 of 3 · COLM 2025")
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("escape")  # nothing changes
        await settle(pilot)
        assert screen.view_ids() == [COLM[0].id, COLM[1].id]


async def test_the_scope_is_kept_across_restarts_and_views_follow_it(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["ICLR 2026"]}))
    app = PaperApp(store=Store(store.data_dir, lazy=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.view_ids() == [p.id for p in ICLR]
        assert counts(app).lstrip().startswith("4 papers · ICLR 2026")
        screen.query_one(FilterBar).value = "paper"  # words: ranked within the scope
        await settle(pilot)
        assert sorted(screen.view_ids()) == sorted(p.id for p in ICLR)
        screen.query_one(FilterBar).value = ""
        await settle(pilot)
        assert screen.list_filter.count_view(screen.views[0]) == 0  # Starred: none in ICLR 2026
        app.store.set_star(COLM[0].id, True)
        app.store.set_star(ICLR[1].id, True)
        await pilot.press("1")
        await settle(pilot)
        assert screen.view_ids() == [ICLR[1].id]


async def test_a_venue_left_out_of_the_library_shows_every_paper(tmp_path: Path) -> None:
    """A scope naming a venue the store no longer holds is no scope: every paper shows."""
    store = make_store(tmp_path)
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["NeurIPS 2018"]}))
    app = PaperApp(store=Store(store.data_dir))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(main_screen(app).view_ids()) == 7


async def test_one_venue_needs_no_picker_nor_column(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(ICLR)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not paper_list(app).columns.venue and "venues" not in counts(app)
        assert "ICLR" not in counts(app)
        await pilot.press("c")
        await settle(pilot)
        assert not isinstance(app.screen, VenuesScreen)


async def test_the_statistics_follow_the_scope(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["COLM 2025"]}))
    app = PaperApp(store=Store(store.data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("A")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        await wait_for(pilot, lambda: screen.figures is not None, what="the figures counted")
        assert screen.figures is not None and screen.figures.papers == 3
        assert screen.counted_ids == [p.id for p in COLM]
        assert "all papers of COLM 2025" in str(screen.query_one("#stats-title", Static).render())


async def test_the_venue_heading_sits_over_the_venue_column(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        width = papers.scrollable_content_region.width
        row = "".join(segment.text for segment in papers.render_line(0))
        header = papers.header(width)
        assert papers.columns.venue and header.index("Venue") == row.index("ICLR 2026")


async def test_the_scope_is_named_at_80_columns_shortened_and_whole_when_wide(tmp_path: Path) -> None:
    """A scope of two venues of three, 1,000 papers: at 80 columns the counts have no room for
    "1,000 of 1,000 · ICLR 2026 + COLM 2025" and say "ICLR 2026 +1" (they said nothing of the
    scope), before the count of matches the scope hides (a later tester: the scope is what the
    list is); at 200 columns, its name whole and the count too."""
    store = Store(tmp_path / "data")
    iclr = [_paper(100 + n, "ICLR", 2026, f"Diffusion paper {n}") for n in range(997)]
    neurips = [_paper(20 + n, "NeurIPS", 2018, f"Kernel paper {n}") for n in range(2)]
    store.import_papers([*iclr, *COLM, *neurips])
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["COLM 2025", "ICLR 2026"]}))
    for size, named in (((80, 24), "ICLR 2026 +1"), ((200, 60), "ICLR 2026 + COLM 2025")):
        app = PaperApp(store=Store(store.data_dir))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            screen = main_screen(app)
            screen.query_one(FilterBar).value = "paper"
            await settle(pilot)
            assert len(screen.view_ids()) == 1_000
            # the 2 NeurIPS papers are the matches the scope hides: said where there is room beside the scope
            shown = named if size[0] == 80 else f"{named} · 2 more in other venues"
            assert counts(app).endswith(f"1,000 of 1,000 · {shown}"), (size, counts(app))
            screen.query_one(FilterBar).value = "diffusion"  # nothing hidden: the scope named
            await settle(pilot)
            text = counts(app).lstrip()
            assert text.startswith("997 of 1,000 · ") and ("2 venues" in text or "+ COLM 2025" in text), (size, text)


def test_a_scope_too_long_for_the_counts_is_shortened_never_dropped() -> None:
    from itertools import pairwise

    from paperdeck.ui.screens.list_counts import short_scope_notes

    assert list(short_scope_notes("COLM 2025 + ICLR 2026", 2)) == ["COLM 2025 +1", "2 venues"]
    cuts = list(short_scope_notes("NeurIPS 2025 Datasets and Benchmarks", 1))
    assert cuts[0] == "NeurIPS 2025 Datasets and…" and cuts[-1].endswith("…")
    assert all(len(a) > len(b) for a, b in pairwise(cuts)) and len(set(cuts)) == len(cuts)


async def test_the_picker_is_centred_over_the_list_shown_dimmed_at_80x24(tmp_path: Path) -> None:
    """The picker is a dialog like the others: centred, the list showing through it dimmed (it
    sat at the top with the rows below it blank)."""
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VenuesScreen)
        assert 0 < screen.styles.background.a < 1  # the list behind shows through
        dialog = screen.query_one("#venues-dialog").region
        above, below = dialog.y, 24 - dialog.bottom
        assert above > 0 and abs(above - below) <= 1
        assert abs(dialog.x - (80 - dialog.right)) <= 1


async def test_a_view_opens_within_the_scope_and_says_when_its_papers_are_all_outside(tmp_path: Path) -> None:
    """The scope is the app's lens: a view saved under COLM 2025 (``decision:oral``) opens within
    ICLR 2026 with ICLR's orals; the views list says its counts are the scope's; a view whose
    papers are all outside the scope (``venue:colm``) says so instead of an empty list alone."""
    store = make_store(tmp_path)
    config = {"venues": ["ICLR 2026"], "views": {"Orals": "decision:oral", "COLM talks": "venue:colm decision:oral"}}
    (store.data_dir / "config.json").write_text(json.dumps(config))
    app = PaperApp(store=Store(store.data_dir, lazy=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("v")
        await settle(pilot)
        assert str(app.screen.query_one(".prompt-title", Static).render()) == "Views · counts in ICLR 2026"
        await wait_for(pilot, lambda: "…" not in "".join(option_texts(app)), what="the views counted")
        rows = option_texts(app)
        assert rows[6].startswith("7  Orals") and rows[6].rstrip().endswith(" 1")  # ICLR 2026's one oral
        assert rows[7].startswith("8  COLM talks") and rows[7].rstrip().endswith(" 0")
        await pilot.press("7")
        await settle(pilot)
        assert screen.view_ids() == [ICLR[0].id]
        assert not app._notifications  # papers in the scope: nothing to say
        await pilot.press("8")
        await settle(pilot)
        await wait_for(pilot, lambda: bool(app._notifications), what="the view's note")
        assert screen.view_ids() == []
        said = [str(n.message) for n in app._notifications]
        outside = "View 'COLM talks': none of its 2 papers is in ICLR 2026 — c picks the venues shown"
        assert said == [outside]
        app.clear_notifications()
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("j", "j", "o")  # COLM 2025: the view's papers shown, the scope said alone
        await settle(pilot)
        assert screen.view_ids() == [COLM[0].id, COLM[1].id]
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("j", "o")  # ICLR 2026 again, the view still shown: it says so
        await settle(pilot)
        await wait_for(pilot, lambda: len(app._notifications) == 3, what="the view's note")
        said = [str(n.message) for n in app._notifications]
        assert said == ["Scope: COLM 2025 — 3 papers", "Scope: ICLR 2026 — 4 papers", outside]


async def _opened_picker(app: PaperApp, pilot: Pilot[None]) -> tuple[VenuesScreen, OptionList, int, int]:
    """The venue picker opened with ``c``, its options, and the offsets (in the options) of a row's
    first content cell, its tick box, and of the first row's line: where the click tests click."""
    await pilot.press("c")
    await settle(pilot)
    picker = app.screen
    assert isinstance(picker, VenuesScreen)
    options = picker.query_one(OptionList)
    return picker, options, options.content_region.x - options.region.x, options.content_region.y - options.region.y


async def test_a_click_on_a_tick_box_ticks_it_and_one_on_the_name_picks_the_row(tmp_path: Path) -> None:
    """The rows are drawn with a tick box (``[x] ICLR 2026``): a click on the box ticks or unticks
    the venue, as space does (it picked the row and closed the picker); a click on the name shows
    that venue alone, as ``o`` does."""
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        picker, options, box, top = await _opened_picker(app, pilot)
        await pilot.click(options, offset=(box + 1, top + 1))  # ICLR 2026's box
        await pilot.pause()
        assert app.screen is picker and option_texts(app)[1].startswith("[ ] ICLR 2026"), option_texts(app)
        assert option_texts(app)[0].startswith("[ ] All venues")
        await pilot.click(options, offset=(box + 1, top + 1))  # again: ticked
        await pilot.pause()
        assert app.screen is picker and option_texts(app)[1].startswith("[x] ICLR 2026")
        await pilot.click(options, offset=(box + 1, top + 1))  # off once more, then a click on COLM's name
        await pilot.pause()
        assert option_texts(app)[1].startswith("[ ] ICLR 2026") and option_texts(app)[2].startswith("[x] COLM")
        await pilot.click(options, offset=(box + 8, top + 2))
        await wait_for(pilot, lambda: app.screen is not picker, what="the picker closed")
        await settle(pilot)
        assert screen.view_ids() == [paper.id for paper in COLM]


async def test_a_click_on_an_unticked_venues_name_shows_it_alone_whatever_is_ticked(tmp_path: Path) -> None:
    """The fifteenth round's second tester: with other venues ticked, a click on an unticked
    venue's name closed the picker on the ticked venues, the clicked one left out (with none
    ticked, the same click showed it alone). A click on a name shows that venue alone, as ``o``."""
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        picker, options, box, top = await _opened_picker(app, pilot)
        await pilot.click(options, offset=(box + 1, top + 2))  # COLM's box: unticked, ICLR 2026 still ticked
        await pilot.pause()
        assert option_texts(app)[1].startswith("[x] ICLR 2026") and option_texts(app)[2].startswith("[ ] COLM")
        await pilot.click(options, offset=(box + 8, top + 2))  # COLM's name
        await wait_for(pilot, lambda: app.screen is not picker, what="the picker closed")
        await settle(pilot)
        assert screen.list_filter.scope == {"COLM 2025"}
        assert screen.view_ids() == [paper.id for paper in COLM]
