"""A column blank on every row of the view is not shown: the first mean (``first``, the moves:
first rating → now) only where the view holds a paper whose mean rating moved — the tester saw it
over a view where none had (a library without review history, a filter leaving the moved papers
out) — the venue only where the view mixes venues, and the decision badge and the rating only
where a paper of the venue scope has one."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.view_columns import moves_in, scope_columns
from paperdeck.ui.widgets.paper_list import PaperList

from tests.helpers import ReviewSample
from tests.ui.helpers import main_screen, paper_list, settle
from tests.ui.test_rating_moves_app import _notes
from tests.waits import wait_for


async def test_the_first_means_column_shows_only_over_a_view_with_a_move(
    tmp_path: Path, review_sample: ReviewSample
) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file])
    forum = json.loads(review_sample.notes_file.read_bytes())[0]["forum"]
    store.import_reviews(_notes(forum))  # one paper's mean rose
    app = PaperApp(store=store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        papers = main_screen(app).query_one(PaperList)
        await wait_for(pilot, lambda: "first" in str(papers.border_title), what=lambda: str(papers.border_title))
        await pilot.press("slash", *"-moved:up", "enter")  # every paper but the one that moved
        await settle(pilot)
        assert papers.row_count == len(store.paper_ids) - 1
        assert "first" not in str(papers.border_title), papers.border_title
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"moved:up", "enter")
        await settle(pilot)
        assert papers.row_count == 1 and "first" in str(papers.border_title)


async def test_no_first_column_without_review_history(make_app: object, seeded_store: Store) -> None:
    app = make_app()  # type: ignore[operator]
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        assert "first" not in str(main_screen(app).query_one(PaperList).border_title)


def test_moves_in_looks_at_the_view() -> None:
    assert not moves_in({}, ["a", "b"])
    assert not moves_in({"c": 4.0}, ["a", "b"])
    assert moves_in({"b": 4.0}, ["a", "b"])


def _paper(n: int, venue: str, year: int, rated: bool) -> Paper:
    return Paper(id=f"abs:{n:016x}", title=f"{venue} paper {n}", abstract=f"Abstract {n}.", venue=venue, year=year,
                 decision="poster" if rated else "unknown", ratings=Ratings(6.0) if rated else None)  # fmt: skip


async def test_a_scope_without_ratings_or_decisions_shows_no_such_columns(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers([*(_paper(n, "ICLR", 2026, True) for n in range(4)),
                         *(_paper(10 + n, "NeurIPS", 2018, False) for n in range(3))])  # fmt: skip
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["NeurIPS 2018"]}))
    app = PaperApp(store=Store(store.data_dir))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        columns = paper_list(app).columns
        assert len(main_screen(app).view_ids()) == 3
        assert not columns.rating and not columns.badge, columns  # no column of dashes
        main_screen(app).list_filter.set_scope([])  # every venue: ICLR 2026's ratings and badges
        await settle(pilot)
        columns = paper_list(app).columns
        assert columns.rating and columns.badge, columns


def test_each_venues_columns_are_found_once_across_scope_switches(tmp_path: Path) -> None:
    """Switching between scopes walks a venue's rows once per catalogue: a venue without ratings
    is walked whole (its rating column stays blank), then answered from what was found."""
    rated = [
        Paper(id=f"iclr:{n}", title=f"Rated {n}", abstract="x", venue="ICLR", year=2026, decision="poster",
              primary_area="vision", ratings=Ratings(6.0, count=3))
        for n in range(30)
    ]  # fmt: skip
    unrated = [
        Paper(id=f"nips:{n}", title=f"Unrated {n}", abstract="y", venue="NeurIPS", year=2018, decision="poster",
              primary_area="theory")
        for n in range(40)
    ]  # fmt: skip
    store = Store(tmp_path / "data")
    store.import_papers(rated + unrated)
    labels = store.venue_runs.labels
    iclr, nips = (next(label for label in labels if name in label) for name in ("ICLR", "NeurIPS"))
    reads: list[str] = []
    row = store.row
    store.row = lambda pid: (reads.append(pid), row(pid))[1]  # type: ignore[method-assign]
    assert tuple(scope_columns(store, frozenset({nips}))) == (True, False, True)
    assert len(reads) == 40  # every row of the venue: none has a rating
    assert tuple(scope_columns(store, frozenset({iclr}))) == (True, True, True)
    assert len(reads) == 41  # its first row has all three
    for scope in ({nips}, {iclr}, {nips, iclr}):
        scope_columns(store, frozenset(scope))
    assert len(reads) == 41  # answered from each venue's columns
    assert tuple(scope_columns(store, frozenset())) == (True, True, True)  # every venue: the store's
