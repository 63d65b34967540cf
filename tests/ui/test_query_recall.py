"""Escape in the filter bar clears it but throws nothing away: the query is kept in the bar's
history, and ``Up`` / ``Down`` in the bar recall the queries run, as a shell does (a README-only
tester typed ``area:"reinforcement learning" rating>=6 -decision:withdrawn``, pressed escape, and
had no way back). The history outlives the app."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.store.query_history import QueryHistory
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from textual.widgets import Input

from tests.ui.helpers import SIZE, main_screen, settle
from tests.waits import wait_for

QUERY = 'area:"reinforcement learning" rating>=6 -decision:withdrawn'


def _bar(app: PaperApp) -> Input:
    return main_screen(app).query_one("#filter", Input)


async def test_escape_keeps_the_query_and_up_brings_it_back(
    make_app: Callable[..., PaperApp], seeded_store: Store
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"diffusion", "enter")  # run, back to the list
        await pilot.press("slash", "ctrl+u")
        _bar(app).value = QUERY
        await pilot.press("escape")
        await settle(pilot)
        assert _bar(app).value == ""
        await pilot.press("slash", "up")
        assert _bar(app).value == QUERY  # the cleared one first
        await pilot.press("up")
        assert _bar(app).value == "diffusion"
        await pilot.press("up")  # no older one: it stays
        assert _bar(app).value == "diffusion"
        await pilot.press("down")
        assert _bar(app).value == QUERY
        await pilot.press("down")  # back to what was typed (nothing)
        assert _bar(app).value == ""
        assert isinstance(app.focused, Input)
        await pilot.press("down")  # no recall under way: back to the list, as before
        assert not isinstance(app.focused, Input)
    await wait_for(pilot, lambda: QueryHistory(seeded_store.data_dir).queries[:2] == [QUERY, "diffusion"],
                   what="the history written")  # fmt: skip


async def test_the_history_is_recalled_after_a_restart(make_app: Callable[..., PaperApp], seeded_store: Store) -> None:
    QueryHistory(seeded_store.data_dir).add("decision:oral learning")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"gra", "up")
        assert _bar(app).value == "decision:oral learning"
        await pilot.press("down")
        assert _bar(app).value == "gra"  # the text typed before the recall
        await pilot.press("up", "backspace", "s")  # typing ends the recall: down leaves the bar
        assert _bar(app).value == "decision:oral learnins"
        await pilot.press("down")
        assert not isinstance(app.focused, Input)
