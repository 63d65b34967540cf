"""The counts line at 80 columns keeps what the user needs most: with a venue scope, the scope's
name (a short form) before the count of matches it hides, never a bare ``+2``; under the starred
filter, how many matches it leaves out (``0 starred · 1 not starred``), never a bare ``0``."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.settings import SORT_SHORT_LABELS
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.starred_note import kept_with_count, starred_note
from textual.pilot import Pilot

from tests.ui.helpers import counts, main_screen, scoped_with_stars, settle
from tests.ui.test_query_bar import typed
from tests.waits import wait_for

PAPERS = [
    Paper(id="openreview:A", title="Graph diffusion", abstract="x", venue="NeurIPS", year=2018),
    Paper(id="openreview:B", title="Diffusion kernels", abstract="y", venue="ICLR", year=2026),
    Paper(id="openreview:C", title="Diffusion agents", abstract="z", venue="ICLR", year=2026),
    Paper(id="openreview:D", title="Web agents", abstract="w", venue="NeurIPS", year=2018),
]


def _app(tmp_path: Path) -> PaperApp:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_star("openreview:D", True)
    return PaperApp(store=store)


async def _in_neurips_2018(pilot: Pilot[None], app: PaperApp) -> MainScreen:
    """The app's main screen once its scope is NeurIPS 2018 (its two papers listed)."""
    await settle(pilot)
    screen = main_screen(app)
    screen.list_filter.set_scope(["NeurIPS 2018"])
    await settle(pilot)
    await wait_for(pilot, lambda: len(screen.view_ids()) == 2, what="the scope")
    return screen


async def test_the_scope_name_is_kept_before_the_hidden_matches_count(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _in_neurips_2018(pilot, app)
        assert await typed(pilot, "diffusion") == ["openreview:A"]
        await pilot.press("enter", "space")  # a mark: the counts' first note, so room runs out
        await settle(pilot)
        text = counts(app)
        # the star count stays too (it went), the scope named; the matches elsewhere give way, never
        # said as a bare "+2" (a tester could not tell what it counted)
        assert text.strip() == "1 of 2 · NeurIPS… · ★ 1 · 1 marked", text


async def test_starred_only_says_how_many_matches_are_not_starred(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("S")
        await settle(pilot)
        await wait_for(pilot, lambda: list(screen.view_ids()) == ["openreview:D"], what="starred only")
        assert "not starred" not in counts(app), "a blank bar: every other paper, nothing to say"
        assert await typed(pilot, "diffusion") == []
        text = counts(app)
        assert text.startswith("0 of") and "3 not starred" in text, text
        assert await typed(pilot, "agents") == ["openreview:D"]
        assert "1 not starred" in counts(app), counts(app)
        await pilot.resize_terminal(120, 24)
        await settle(pilot)  # the counts are laid out again for the new width after the resize
        await wait_for(pilot, lambda: "1 starred · 1 not starred" in counts(app), what=lambda: counts(app))


def test_the_starred_note_and_its_place() -> None:
    assert starred_note(False, 0, 3) == ""
    assert starred_note(True, 2, 0) == "starred only"
    assert starred_note(True, 0, 12) == "0 starred · 12 not starred"
    assert starred_note(True, 0, 1234, short=True) == "1,234 not starred"
    assert kept_with_count((4, 10, 11, 0, 9, 2, 6), 0) == (4, 10, 11, 0, 9, 2, 6)
    assert kept_with_count((4, 10, 11, 0, 9, 2, 6), 5) == (4, 10, 2, 11, 0, 9, 6)


async def test_the_sort_is_shown_at_80_columns_beside_the_scope_and_the_count(tmp_path: Path) -> None:
    """At 80 columns a scope's name, the count and the star count leave no room for "by rating": the
    sort's short form (from the sort table) is shown, the count whole, and the scope's name gives
    way (its first word whole) so that the star count stays (a tester's find: it went)."""
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _in_neurips_2018(pilot, app)
        screen.sort_by("rating")
        await settle(pilot)
        await wait_for(pilot, lambda: SORT_SHORT_LABELS["rating"] in counts(app), what=lambda: counts(app))
        assert counts(app).strip() == f"2 papers · NeurIPS… · ★ 1 · {SORT_SHORT_LABELS['rating']}"


async def test_every_sort_is_named_at_80_columns_beside_a_venue_scope(tmp_path: Path) -> None:
    """A tester's find: at 80 columns, beside a whole conference's count and its venue
    (``11,671 papers · ICLR 2025``), ``by decision`` and ``↓percentile`` did not fit and the counts
    said nothing of the sort. ``1,000 papers · IJCAI 2025`` takes as many cells: every sort's short
    form (the sort table's) fits there, the count and the scope whole."""
    from paperdeck.model.paper import Ratings
    from paperdeck.store.settings import SORTS
    from paperdeck.ui.screens.list_sorting import _ORDER_NOTES

    def paper(n: int, venue: str, year: int) -> Paper:
        return Paper(id=f"abs:{n:016x}", title=f"Paper {n}", abstract=f"Abstract {n}.", venue=venue, year=year,
                     decision="oral" if n % 7 == 0 else "poster", ratings=Ratings(float(n % 9)))  # fmt: skip

    store = Store(tmp_path / "data")
    store.import_papers([*(paper(n, "IJCAI", 2025) for n in range(1_000)), paper(5_000, "ICLR", 2026)])
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.list_filter.set_scope(["IJCAI 2025"])
        await settle(pilot)
        for order in (o for o in SORTS if o != "relevance"):
            screen.sort_by(order)
            await settle(pilot)
            await _counts_say(pilot, app, {f"1,000 papers · IJCAI 2025 · {note}"
                                           for note in (_ORDER_NOTES[order], SORT_SHORT_LABELS[order])})  # fmt: skip


async def _counts_say(pilot: Pilot[None], app: PaperApp, texts: set[str]) -> None:
    """Wait until the counts say one of ``texts``."""
    await wait_for(pilot, lambda: counts(app).strip() in texts, what=lambda: f"{texts}, not {counts(app)!r}")


async def test_the_star_count_stays_at_80_beside_a_scope_and_its_matches_elsewhere(tmp_path: Path) -> None:
    """A second tester's find: with one ICLR 2026 paper starred of two, the scope ICLR 2026 and a
    query at 80 columns, the counts said ``2,295 of 19,630 · ICL… · +2 elsewhere``: the star count
    went and the venue was cut to three letters; without a query ``(2 all)`` went. The parts give
    way in a declared order (the sort's short form, ``+2 elsewhere``, the venue's first word, ``★ 1/2``,
    the matches elsewhere, ``★ 1``), so the star count and the scope stay."""

    def paper(n: int, venue: str, year: int, title: str) -> Paper:
        return Paper(id=f"abs:{n:016x}", title=title, abstract=f"Abstract {n}.", venue=venue, year=year)

    store = Store(tmp_path / "data")
    store.import_papers(
        [
            *(paper(n, "ICLR", 2026, f"Diffusion {n}" if n % 8 == 0 else f"Paper {n}") for n in range(19_630)),
            paper(30_000, "NeurIPS", 2018, "Diffusion kernels"),
            paper(30_001, "NeurIPS", 2018, "Diffusion agents"),
        ]
    )
    store.set_star("abs:0000000000000000", True)  # in ICLR 2026
    store.set_star(f"abs:{30_000:016x}", True)  # elsewhere
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await scoped_with_stars(pilot, "ICLR 2026", 19_630)
        assert counts(app).strip() == "19,630 papers · ICLR… · ★ 1 (2 all)", counts(app)
        assert len(await typed(pilot, "diffusion")) == 2_454
        await _counts_say(pilot, app, {"2,454 of 19,630 · ICLR 2026 · ★ 1/2"})
