"""The counts beside the filter bar give way in one order as the counts change (:data:`_GIVE_WAY
<paperdeck.ui.screens.list_counts._GIVE_WAY>`): a tester's find at 80 columns, scope ICLR 2026
with ICLR 2017 in the library, 20 of 21 starred papers in the scope, marks: ``56 of 19,630 · ICLR
2026 · ★ 20 · ▌ 7`` (``(21 all)`` dropped), a moment later ``8 of 19,630 · ICLR… · ★ 20 · 8
marked`` — the venue's name cut to a prefix ICLR 2017 shares, and the marks' form swapped for the
scope's. A one-digit change of a count keeps the same notes in the same forms, and a single
venue's name is never cut to words another venue of the library begins with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.list_counts import short_scope_notes

from tests.ui.helpers import counts, scoped_with_stars, settle
from tests.ui.test_query_bar import typed
from tests.waits import wait_for

DIFFUSION = range(0, 56 * 350, 350)  # 56 papers
AGENTS = range(1, 8 * 2_000, 2_000)  # 8 papers


def _title(n: int) -> str:
    return f"Diffusion {n}" if n in DIFFUSION else f"Agents {n}" if n in AGENTS else f"Paper {n}"


def _store(tmp_path: Path) -> Store:
    def paper(n: int, venue: str, year: int) -> Paper:
        return Paper(id=f"abs:{n:016x}", title=_title(n), abstract=f"Abstract {n}.", venue=venue, year=year)

    store = Store(tmp_path / "data")
    older = [Paper(id=f"abs:{30_000 + n:016x}", title="Diffusion agents" if n < 3 else f"Old {n}",
                   abstract=f"Abstract {n}.", venue="ICLR", year=2017) for n in range(40)]  # fmt: skip
    store.import_papers([*(paper(n, "ICLR", 2026) for n in range(19_630)), *older])
    for n in range(100, 120):  # 20 in the scope, none of them matched
        store.set_star(f"abs:{n:016x}", True)
    store.set_star(f"abs:{30_000:016x}", True)  # in ICLR 2017
    return store


def _shape(text: str) -> str:
    """The counts with each number a ``#``: which notes show, in which forms."""
    return re.sub(r"\d[\d,]*", "#", text.strip())


@pytest.mark.parametrize("width", [80, 100])
async def test_the_same_notes_stay_as_the_counts_change(tmp_path: Path, width: int) -> None:
    app = PaperApp(store=_store(tmp_path))
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        screen = await scoped_with_stars(pilot, "ICLR 2026", 19_630)
        unfiltered = counts(app)
        assert "ICLR…" not in unfiltered and "ICLR 2026" in unfiltered, unfiltered
        said = []
        assert len(await typed(pilot, "diffusion")) == 56
        await pilot.press("enter", *["space"] * 7)
        await wait_for(pilot, lambda: len(screen.marks.ids) == 7, what="seven marked")
        await settle(pilot)
        said.append(counts(app))
        assert len(await typed(pilot, "agents")) == 8
        await settle(pilot)
        said.append(counts(app))
        await pilot.press("enter", "space")
        await wait_for(pilot, lambda: len(screen.marks.ids) == 8, what="eight marked")
        await settle(pilot)
        said.append(counts(app))
        assert len({_shape(text) for text in said}) == 1, said
        assert all("ICLR 2026" in text and "★ 20" in text for text in said), said


def test_a_venue_is_cut_to_no_prefix_another_venue_shares() -> None:
    assert list(short_scope_notes("ICLR 2026", 1, ("ICLR 2026", "ICLR 2017"))) == []
    assert list(short_scope_notes("ICLR 2026", 1, ("ICLR 2026", "COLM 2025")))[:1] == ["ICLR…"]
    library = ("NeurIPS 2025", "NeurIPS 2025 Datasets and Benchmarks")
    assert list(short_scope_notes(library[1], 1, library)) == ["NeurIPS 2025 Datasets and…", "NeurIPS 2025 Datasets…"]
