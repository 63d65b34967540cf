"""What the Pilot and snapshot tests call: the app's fixed clock and size, waits for its workers, and
the main screen's parts (the fixtures are :mod:`tests.ui.conftest`'s)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from paperdeck.model.paper import Paper
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.reviews import ReviewsScreen
from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.paper_list import PaperList
from textual.pilot import Pilot
from textual.widgets import Static

#: The clock of the seeded store: dates shown in the app do not move with the day the tests run.
FIXED_TIME = "2026-11-29T12:00:00+00:00"
#: The terminal size of the Pilot tests (columns, rows).
SIZE = (120, 36)


#: How many rounds :func:`settle` waits at most for the list to answer its filter.
_SETTLE_ROUNDS = 50


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers (filtering, indexing) finish and the screen catch up: on the main screen, until
    its list answers the filter (a refilter started after the workers finished would hold the row
    keys the test presses next: :class:`~paperdeck.ui.screens.held_keys.HeldKeys`), counted in
    rounds, not time."""
    app = pilot.app
    for _ in range(_SETTLE_ROUNDS):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, MainScreen) or not screen.list_filter.stale:
            return


@asynccontextmanager
async def started(app: PaperApp, size: tuple[int, int] = SIZE) -> AsyncIterator[tuple[PaperApp, Pilot[None]]]:
    """``app`` run under a Pilot at ``size`` once it has settled (:func:`settle`), as
    ``async with started(make_app()) as (app, pilot):`` (the opening of most Pilot tests)."""
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        yield app, pilot


async def scoped_with_stars(pilot: Pilot[Any], venue: str, papers: int) -> MainScreen:
    """The main screen scoped to ``venue`` once its list holds ``papers`` rows and the top bar
    counts the stars (``★``): the state the top bar's give-way tests start from (waits counted)."""
    from tests.waits import wait_for

    app = pilot.app
    assert isinstance(app, PaperApp)
    screen = main_screen(app)
    screen.list_filter.set_scope([venue])
    await settle(pilot)
    await wait_for(pilot, lambda: len(screen.view_ids()) == papers, what="the scope")
    await wait_for(pilot, lambda: "★" in counts(app), what=lambda: counts(app))
    return screen


def counts(app: PaperApp) -> str:
    """The counts beside the filter bar (or the query hint shown there)."""
    return main_screen(app).query_one("#counts", CountsLabel).text


def main_screen(app: PaperApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


def paper_list(app: PaperApp) -> PaperList:
    return main_screen(app).query_one(PaperList)


def highlighted(app: PaperApp) -> Paper:
    paper_id = paper_list(app).highlighted_id
    assert paper_id is not None
    paper = app.store.paper(paper_id)
    assert paper is not None
    return paper


async def open_tag_prompt(app: PaperApp, pilot: Pilot[Any]) -> str:
    """The tags prompt opened (``T``) on the highlighted paper, once the app has settled; that
    paper's id (the one a tag typed then goes to)."""
    await settle(pilot)
    target = highlighted(app).id
    await pilot.press("T")
    await pilot.pause()
    return target


def static_text(node: Any) -> str:
    """Every :class:`Static` under ``node`` rendered, one per line (a screen's or a widget's text)."""
    return "\n".join(str(static.render()) for static in node.query(Static))


async def open_reviews(pilot: Pilot[Any]) -> tuple[ReviewsScreen, str, list[str]]:
    """Press ``R`` on the highlighted paper: the reviews screen, its text and each note's head."""
    await pilot.press("R")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewsScreen)
    return screen, static_text(screen), [str(head.render()) for head in screen.query(".note")]
