"""The tester's top bar said ``★ 5`` with the scope on COLM 2025 and the stars on ICLR 2026 papers:
the counts that follow the scope count its papers only — the stars (``★ 0 (5 all)``, the
library's beside them when they differ, at 80 columns too) and the list's edge by reading status
(``3 unseen``, not the other venue's to-read papers)."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.scope_counts import star_note

from tests.ui.helpers import counts, paper_list, settle
from tests.waits import wait_for


def _paper(n: int, venue: str, year: int) -> Paper:
    return Paper(id=f"abs:{n:016x}", title=f"{venue} paper {n}", abstract=f"Abstract {n}.", venue=venue, year=year,
                 decision="poster", ratings=Ratings(6.0))  # fmt: skip


ICLR = [_paper(n, "ICLR", 2026) for n in range(6)]
COLM = [_paper(10 + n, "COLM", 2025) for n in range(3)]


def make_store(tmp_path: Path, scope: list[str]) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers([*ICLR, *COLM])
    for paper in ICLR[:5]:
        store.set_star(paper.id, True)
    store.change([ICLR[5].id], lambda r: r.replaced(status="to-read"))
    (store.data_dir / "config.json").write_text(json.dumps({"venues": scope}))
    return store


async def test_the_star_count_and_the_statuses_follow_the_scope_at_80x24(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path, ["COLM 2025"]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "★" in counts(app), what=lambda: counts(app))
        assert "★ 0 (5 all)" in counts(app), counts(app)
        assert paper_list(app).border_subtitle == "3 unseen"  # it said "2 unseen · 1 to-read"
        await pilot.press("s")  # a COLM paper starred: the scope's count moves
        await wait_for(pilot, lambda: "★ 1 (6 all)" in counts(app), what=lambda: counts(app))


async def test_every_venue_in_scope_shows_the_one_count(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path, []))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "★" in counts(app), what=lambda: counts(app))
        assert "★ 5 ·" in counts(app) + " ·" and "all)" not in counts(app), counts(app)
        assert paper_list(app).border_subtitle == "8 unseen · 1 to-read"


def test_the_star_note() -> None:
    assert star_note(0, 0) == ""
    assert star_note(5, 5) == "★ 5"
    assert star_note(0, 5) == "★ 0 (5 all)"
    assert star_note(0, 5, short=True) == "★ 0"
    assert star_note(1_200, 1_500) == "★ 1,200 (1,500 all)"


async def test_at_80_columns_the_venues_name_is_shortened_before_the_star_count_goes(tmp_path: Path) -> None:
    """Found by a tester: at 80 columns, ``418 papers · COLM 2025 · as listed`` left the star count
    out (``★ 1 (7 all)`` at 200 columns). The venue's name gives way first (``COLM…``, its first
    word whole); at 200 columns it stays whole."""
    store = Store(tmp_path / "data")
    colm = [_paper(100 + n, "COLM", 2025) for n in range(418)]
    store.import_papers([*ICLR, *colm])
    for paper in [*ICLR, colm[0]]:
        store.set_star(paper.id, True)
    (store.data_dir / "config.json").write_text(json.dumps({"venues": ["COLM 2025"], "sort": "list"}))
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "★" in counts(app) and "listed" in counts(app), what=lambda: counts(app))
        assert counts(app).strip() == "418 papers · COLM… · ★ 1 · as listed", counts(app)
        await pilot.resize_terminal(200, 60)
        await wait_for(pilot, lambda: "COLM 2025" in counts(app), what=lambda: counts(app))
        assert "★ 1 (7 all)" in counts(app), counts(app)
