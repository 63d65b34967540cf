"""The counts (the top bar) keep the venue scope named at every width, in a short form where room
is short (``ICLR 2026 +1``, ``2 venues``), and the stars the scope leaves out in a short form
(``★ 5/6`` for ``★ 5 (6 all)``); no bare ``+1``. A README-only tester, scope ICLR 2026 + COLM 2025
with 5 of 6 starred papers in it: at 100 columns ``(6 all)`` went, at 80 the scope did, and the
Starred view said ``Starred: 5 of 20,048 · ★ 5 · +1``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.list_counts import short_scope_notes, short_star_note
from textual.pilot import Pilot

from tests.ui.helpers import counts, main_screen, settle
from tests.waits import wait_for


def _paper(n: int, venue: str, year: int) -> Paper:
    return Paper(id=f"abs:{n:016x}", title=f"{venue} paper {n}", abstract=f"Abstract {n}.", venue=venue, year=year)


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    """As many papers in the scope as the tester's (20,048), one starred paper outside it."""
    return [
        *(_paper(n, "ICLR", 2026) for n in range(19_630)),
        *(_paper(20_000 + n, "COLM", 2025) for n in range(418)),
        *(_paper(30_000 + n, "NeurIPS", 2018) for n in range(3)),
    ]


def _store(tmp_path: Path, papers: list[Paper]) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(papers)
    starred = [papers[n].id for n in (0, 1, 2, 3, 19_630)] + [papers[-1].id]  # 5 in the scope, 1 not
    store.change(starred, lambda record: record.replaced(starred=True))
    return store


SAID = {
    160: "20,048 papers · ICLR 2026 + COLM 2025 · ★ 5 (6 all)",
    100: "20,048 papers · ICLR 2026 +1 · ★ 5 (6 all)",
    80: "20,048 papers · ICLR 2026 +1 · ★ 5/6",
}


async def _scoped_to_two_venues(app: PaperApp, pilot: Pilot[None]) -> None:
    """The app settled, then scoped to ICLR 2026 + COLM 2025 (the testers' scope) and settled."""
    await settle(pilot)
    main_screen(app).list_filter.set_scope(["ICLR 2026", "COLM 2025"])
    await settle(pilot)


@pytest.mark.parametrize("width", [160, 100, 80])
async def test_the_scope_and_the_stars_elsewhere_stay_named(tmp_path: Path, papers: list[Paper], width: int) -> None:
    app = PaperApp(store=_store(tmp_path, papers))
    async with app.run_test(size=(width, 24)) as pilot:
        await _scoped_to_two_venues(app, pilot)
        await wait_for(
            pilot, lambda: counts(app).strip() == SAID[width], what=lambda: f"{SAID[width]!r}, not {counts(app)!r}"
        )
        await pilot.press("1")  # the Starred view
        await wait_for(pilot, lambda: counts(app).strip().startswith("Starred: 5 of"), what=lambda: counts(app))
        await settle(pilot)
        text = counts(app).strip()
        assert "ICLR 2026" in text or "2 venues" in text, text
        # at 80 columns "Starred: 5 of 20,048 · 2 venues" leaves room for "★ 5" alone
        assert "★ 5 (6 all)" in text or "★ 5/6" in text or (width == 80 and text.endswith("· ★ 5")), text
        assert not re.search(r"(^|· )\+\d+( ·|$)", text), text  # no bare "+1"


@pytest.mark.parametrize("filtered", [False, True])
async def test_at_40_columns_the_scope_is_named_below_the_counts(
    tmp_path: Path, papers: list[Paper], filtered: bool
) -> None:
    """The sixteenth round's tester: at 40 columns the top bar said ``20,048 papers``, the scope
    (``ICLR 2026 +1``) gone: no form of it fits beside the count, so it takes the second line."""
    app = PaperApp(store=_store(tmp_path, papers))
    async with app.run_test(size=(40, 12)) as pilot:
        await _scoped_to_two_venues(app, pilot)
        if filtered:
            await pilot.press("slash", *"COLM", "enter")
            await settle(pilot)
        await wait_for(pilot, lambda: "ICLR 2026 +1" in counts(app), what=lambda: counts(app))
        first, second = counts(app).split("\n")
        assert ("of 20,048" if filtered else "20,048 papers") in first
        assert second.strip() == "ICLR 2026 +1"


def test_the_short_forms() -> None:
    assert list(short_scope_notes("ICLR 2026 + COLM 2025", 2)) == ["ICLR 2026 +1", "2 venues"]
    assert list(short_scope_notes("4 venues", 4)) == ["4 venues"]
    assert short_star_note(5, 6) == "★ 5/6"
    assert short_star_note(5, 5) == "★ 5"
    assert short_star_note(0, 0) == ""


@pytest.mark.parametrize("width", [80, 100])
async def test_with_a_filter_and_marks_the_scope_stays_named(tmp_path: Path, papers: list[Paper], width: int) -> None:
    """The fifteenth round's second tester: scope ICLR 2026 + COLM 2025, a filter of 185 papers,
    two marked: at 80 columns ``185 of 20,048 · ★ 5 · 2 marked`` (nothing said two venues). The
    scope is kept before the stars, the marks in a short form first (``▌ 2``, as the rows mark)."""
    app = PaperApp(store=_store(tmp_path, papers))
    async with app.run_test(size=(width, 24)) as pilot:
        await _scoped_to_two_venues(app, pilot)
        await pilot.press("slash", *"COLM", "enter")
        await settle(pilot)
        await pilot.press("space", "space")
        await settle(pilot)
        await wait_for(pilot, lambda: "2 " in counts(app) and " of " in counts(app), what=lambda: counts(app))
        text = counts(app).strip()
        assert "ICLR 2026" in text or "2 venues" in text, text
        assert "2 marked" in text or "▌ 2" in text, text
