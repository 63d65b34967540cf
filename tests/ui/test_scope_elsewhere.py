"""With the venue scope on some venues, the counts say how many matches the scope hides
(``1 of 2 · COLM 2025 · 2 more in other venues``): for words alone (the ranking made for the
query, counted again without ranking anew), for the starred papers and for ``venue:`` terms alone
(the other venues' counts); not for other field terms, which would be run again over the other
venues."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.elsewhere import elsewhere_note, more_elsewhere
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen
from textual.pilot import Pilot

from tests.ui.helpers import counts, main_screen, settle
from tests.ui.test_query_bar import typed
from tests.waits import wait_for

PAPERS = [
    Paper(id="openreview:A", title="Graph diffusion", abstract="x", venue="COLM", year=2025),
    Paper(id="openreview:B", title="Diffusion kernels", abstract="y", venue="ICLR", year=2026),
    Paper(id="openreview:C", title="Diffusion agents", abstract="z", venue="ICLR", year=2026),
    Paper(id="openreview:D", title="Web agents", abstract="w", venue="COLM", year=2025),
]


def _store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_star("openreview:B", True)
    store.set_star("openreview:D", True)
    return store


@asynccontextmanager
async def scoped_to_colm(
    store: Store, width: int, shown: int
) -> AsyncIterator[tuple[PaperApp, Pilot[None], MainScreen]]:
    """``store`` in the app, ``width`` columns wide, its venue scope set to COLM 2025 and its list
    showing that scope's ``shown`` papers."""
    app = PaperApp(store=store)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.list_filter.set_scope(["COLM 2025"])
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.view_ids()) == shown, what="the scope")
        yield app, pilot, screen


def test_more_elsewhere_counts_words_and_stars_only(tmp_path: Path) -> None:
    searcher = Searcher(_store(tmp_path))
    searcher.index.get()
    scope = frozenset({"COLM 2025"})
    assert more_elsewhere(searcher, parse_query("diffusion"), scope, shown=1) == 2
    assert more_elsewhere(searcher, parse_query("diffusion"), frozenset(), shown=3) is None  # no scope
    assert more_elsewhere(searcher, parse_query("diffusion year:2026"), scope, shown=0) is None  # a field term
    assert more_elsewhere(searcher, None, scope, shown=1, starred_only=True) == 1
    assert more_elsewhere(searcher, parse_query("is:starred"), scope, shown=1) == 1
    assert more_elsewhere(searcher, None, scope, shown=2) is None
    assert elsewhere_note(2) == "2 more in other venues" and elsewhere_note(2, short=True) == "+2 elsewhere"
    assert elsewhere_note(0) == elsewhere_note(None) == ""


def words_matched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The words the search index matches from now on (``SearchIndex._match`` counted), in order."""
    matched: list[str] = []
    match = SearchIndex._match

    def counted(self: SearchIndex, word: str, *args: object, **kwargs: object) -> object:
        matched.append(word)
        return match(self, word, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "_match", counted)
    return matched


def test_the_count_ranks_nothing_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The words' ranking is the one the query just made (kept): counting the rest matches no
    word again."""
    searcher = Searcher(_store(tmp_path))
    index = searcher.index.get()
    index.search_positions("diffusion")  # the query run
    matched = words_matched(monkeypatch)
    assert more_elsewhere(searcher, parse_query("diffusion"), frozenset({"COLM 2025"}), shown=1) == 2
    assert matched == []
    index.search_positions("diffusion kernels")  # the counter counts
    assert matched


@pytest.mark.parametrize("width", [80, 120])
async def test_the_counts_say_what_the_scope_hides(tmp_path: Path, width: int) -> None:
    async with scoped_to_colm(_store(tmp_path), width, shown=2) as (app, pilot, screen):
        assert await typed(pilot, "diffusion") == ["openreview:A"]
        text = counts(app)
        assert ("2 more in other venues" if width >= 120 else "+2 elsewhere") in text, text
        assert await typed(pilot, "diffusion year:2025") == ["openreview:A"]
        assert "elsewhere" not in counts(app) and "other venues" not in counts(app), counts(app)
        await typed(pilot, "")
        await pilot.press("escape", "S")  # starred only: D here, B in ICLR 2026
        await settle(pilot)
        await wait_for(pilot, lambda: list(screen.view_ids()) == ["openreview:D"], what="starred only")
        # at 80 the scope and the star count stay (the one starred elsewhere in it: ★ 1/2); never a bare +1
        assert ("1 more in other venues" if width >= 120 else "COLM… · ★ 1/2 · starred only") in counts(app), counts(
            app
        )
        screen.list_filter.set_scope([])
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.view_ids()) == 2, what="every venue")
        assert "elsewhere" not in counts(app) and "other venues" not in counts(app), counts(app)


def test_more_elsewhere_counts_the_other_venues_a_venue_term_names(tmp_path: Path) -> None:
    searcher = Searcher(_store(tmp_path))
    scope = frozenset({"COLM 2025"})
    assert more_elsewhere(searcher, parse_query("venue:iclr"), scope, shown=0) == 2
    assert more_elsewhere(searcher, parse_query("venue:iclr2026"), scope, shown=0) == 2
    assert more_elsewhere(searcher, parse_query("venue:colm OR venue:2026"), scope, shown=2) == 2
    assert more_elsewhere(searcher, parse_query("-venue:colm"), scope, shown=0) == 2
    assert more_elsewhere(searcher, parse_query("venue:colm"), scope, shown=2) == 0
    assert more_elsewhere(searcher, parse_query("venue:iclr year:2026"), scope, shown=0) is None


async def test_an_empty_list_says_the_venue_term_matches_elsewhere(tmp_path: Path) -> None:
    async with scoped_to_colm(_store(tmp_path), 80, shown=2) as (app, pilot, screen):
        assert await typed(pilot, "venue:iclr") == []
        assert "+2 elsewhere" in counts(app), counts(app)
        empty = screen.paper_list._empty_text
        assert empty == "No papers match in COLM 2025; 2 more in other venues.", empty


async def test_the_counts_keep_their_width_as_the_hidden_matches_fall(tmp_path: Path) -> None:
    """Typing on while the note is shown (12 → 9 more) pads the counts by the digit lost, as the
    count's own padding does: the label keeps its width (a change lays the screen out again);
    the note gone, its width starts again."""
    from rich.cells import cell_len

    store = Store(tmp_path / "data")
    store.import_papers([
        Paper(id="openreview:A", title="Graph walks", abstract="x", venue="COLM", year=2025),
        *(Paper(id=f"openreview:G{n}", title=f"Graphs {n}", abstract="y", venue="ICLR", year=2026) for n in range(9)),
        *(Paper(id=f"openreview:M{n}", title=f"Grammars {n}", abstract="z", venue="ICLR", year=2026) for n in range(3)),
    ])  # fmt: skip
    async with scoped_to_colm(store, 160, shown=1) as (app, pilot, screen):
        await pilot.press("slash", *"gra")
        await wait_for(pilot, lambda: "12 more in other venues" in counts(app), what=lambda: counts(app))
        wide = counts(app)
        await pilot.press(*"ph")
        await wait_for(pilot, lambda: "9 more in other venues" in counts(app), what=lambda: counts(app))
        assert cell_len(counts(app)) == cell_len(wide) and counts(app) == " " + wide.replace("12 more", "9 more")
        await typed(pilot, "graph year:2025")  # a field term: no note, its width starts again
        assert "other venues" not in counts(app) and screen.list_filter.counts._elsewhere_width == 0


@pytest.mark.parametrize("width", [80, 120])
async def test_the_counts_keep_their_width_as_the_note_comes_and_goes(tmp_path: Path, width: int) -> None:
    """In a venue scope the note of the matches elsewhere comes with a query's first key and goes
    as the bar is cleared: the counts are held as wide as with that note at its widest (every
    paper outside the scope), so the label's width, and with it the screen's layout, holds
    through both; the text itself is the same but for that padding."""
    from rich.cells import cell_len

    async with scoped_to_colm(_store(tmp_path), width, shown=2) as (app, pilot, _):
        await typed(pilot, "")
        blank = counts(app)
        assert blank.lstrip().startswith("2 papers · COLM 2025"), blank
        assert await typed(pilot, "d") == ["openreview:A"]
        noted = counts(app)
        assert ("2 more in other venues" if width >= 120 else "+2 elsewhere") in noted, noted
        assert cell_len(noted) == cell_len(blank), (blank, noted)
        await typed(pilot, "")
        assert counts(app) == blank


def _changed_in_colm(tmp_path: Path) -> Store:
    """:data:`PAPERS`, then an import of the COLM file again that changed both its papers' decisions
    (after the app's first look: news)."""
    from dataclasses import replace

    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.first_look()
    store.import_papers([replace(paper, decision="oral") for paper in PAPERS if paper.venue == "COLM"])
    return store


def test_more_elsewhere_counts_the_changed_papers(tmp_path: Path) -> None:
    searcher = Searcher(_changed_in_colm(tmp_path))
    iclr, colm = frozenset({"ICLR 2026"}), frozenset({"COLM 2025"})
    assert more_elsewhere(searcher, parse_query("is:changed"), iclr, shown=0) == 2
    assert more_elsewhere(searcher, parse_query("changed:decision"), iclr, shown=0) == 2
    assert more_elsewhere(searcher, parse_query("changed:rating"), iclr, shown=0) == 0
    assert more_elsewhere(searcher, parse_query("is:changed"), colm, shown=2) == 0
    assert more_elsewhere(searcher, parse_query("is:changed year:2025"), iclr, shown=0) is None  # not alone


@pytest.mark.parametrize("width", [80, 120])
async def test_what_changed_says_the_changes_the_scope_hides(tmp_path: Path, width: int) -> None:
    """The tester's case: the scope on ICLR 2026, a COLM file imported again with changes, ``6``
    (What changed) said "0 of …" and "No papers match." while the venue picker said COLM held
    them: the counts and the empty list say how many changed elsewhere."""
    from paperdeck.ui.widgets.paper_list import PaperList

    app = PaperApp(store=_changed_in_colm(tmp_path))
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.list_filter.set_scope(["ICLR 2026"])
        await settle(pilot)
        await pilot.press("6")  # What changed
        await settle(pilot)
        await wait_for(pilot, lambda: screen.applied_filter == ("is:changed", False), what="What changed")
        assert list(screen.view_ids()) == []
        text = counts(app)
        assert text.lstrip().startswith("What changed: 0 of"), text
        # at 80 the scope is named first; the empty list below says what it hides
        assert ("2 more in other venues" if width >= 120 else "0 of 2 · ICLR 2026") in text, text
        first_line = screen.query_one(PaperList).render_line(0).text.strip()
        assert first_line == "No papers match in ICLR 2026; 2 more in other venues.", first_line
        screen.list_filter.set_scope([])  # every venue: the two listed, no note
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.view_ids()) == 2, what="every venue")
        assert "elsewhere" not in counts(app) and "other venues" not in counts(app), counts(app)
