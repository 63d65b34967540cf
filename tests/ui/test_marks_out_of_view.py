"""Marks kept across filters: an action takes every marked paper, and says how many the view
hides; the top bar counts the marks at every width, before the sort (in its short form) and the
star count; the filter bar's placeholder is one that fits, never one cut mid-sentence."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.filter_bar import PLACEHOLDERS, FilterBar, placeholder_for
from rich.cells import cell_len

from tests.ui.helpers import counts, highlighted, main_screen, settle

AppFactory = Callable[..., PaperApp]
NARROW = (80, 24)


def starred(store: Store, paper_id: str) -> bool:
    """The star as a fresh process would read it."""
    return Store(store.data_dir).user_data(paper_id).starred


async def test_an_action_takes_the_hidden_marks_too_and_says_so(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        marked = seeded_store.paper_ids[:3]
        await pilot.press("g", "space", "space", "space")
        assert main_screen(app).marked == set(marked)
        assert "3 marked" in counts(app)
        other = seeded_store.papers[-1]
        await pilot.press("slash", *" ".join(other.title.split()[:3]), "enter")
        await settle(pilot)
        view = main_screen(app).view_ids()
        hidden = [pid for pid in marked if pid not in view]
        assert hidden  # the filter hides some marked papers
        assert "3 marked" in counts(app)  # still said at 80 columns
        target = highlighted(app).id
        await pilot.press("s")
        await settle(pilot)
        assert all(starred(seeded_store, pid) for pid in marked)
        if target not in marked:
            assert not starred(seeded_store, target)
        told = [str(n.message) for n in app._notifications]
        assert any(f"3 marked papers changed ({len(hidden)} not in this view" in m for m in told), told
        assert any("escape clears the marks" in m for m in told), told


async def test_marks_and_a_short_sort_stay_in_the_top_bar_at_80_columns(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("O", "O", "O", "O")  # relevance → list → title → rating → spread
        await settle(pilot)
        assert main_screen(app).list_filter.chosen_order == "spread"
        await pilot.press("space", "space")
        await settle(pilot)
        text = counts(app)
        assert "2 marked" in text and "↓spread" in text, text


def test_the_placeholder_is_the_longest_that_fits() -> None:
    assert placeholder_for(200) == PLACEHOLDERS[0]
    for width in range(1, 120):
        chosen = placeholder_for(width)
        assert chosen in PLACEHOLDERS
        assert cell_len(chosen) < width or chosen == PLACEHOLDERS[-1]
        longer = PLACEHOLDERS[: PLACEHOLDERS.index(chosen)]
        assert all(cell_len(text) >= width for text in longer)


async def test_the_filter_bar_shows_a_placeholder_that_fits_at_80_columns(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        bar = main_screen(app).query_one(FilterBar)
        assert bar.placeholder != PLACEHOLDERS[0]
        assert cell_len(bar.placeholder) < bar.content_size.width
