"""The app's refresh (palette: "Refresh from OpenReview") against the local API server
(:mod:`tests.fetch.api_server`): it runs in a worker, the list moves meanwhile, the counts show its
progress, and the new papers appear once it has landed; a failure is one notification."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from paperdeck.ui.app import PaperApp

from tests.fetch.api_server import PASSWORD, USER, ApiServer, iclr2026_notes
from tests.ui.helpers import SIZE, counts, highlighted, main_screen, settle
from tests.waits import block_until, wait_for

PAPERS = 40


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Any:
    from paperdeck.ui import refresh

    # The child fetch runs at nice 19: beside any busy process of nice 0 (another test worker,
    # another make test) it starves. These tests check what a refresh does, not its priority.
    monkeypatch.setattr(refresh, "BACKGROUND_NICENESS", 0)
    with ApiServer(iclr2026_notes(PAPERS)) as running:
        monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", running.url)
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
        monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
        monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
        yield running


async def test_refresh_fetches_the_stores_venue_in_a_worker_while_the_list_moves(
    server: ApiServer, make_app: Callable[..., PaperApp]
) -> None:
    app = make_app()
    before = app.store.paper_count
    server.page_delay_s = 0.6
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = highlighted(app).id
        main_screen(app).action_refresh()
        await wait_for(pilot, lambda: server.count("/notes"), what="the first page asked for")
        assert server.count("/login") == 1, [n.message for n in app._notifications]  # ICLR 2026: the seeds' venue
        await pilot.press("down")  # the list is usable meanwhile
        await pilot.pause()
        assert highlighted(app).id != first
        # The refresh's progress is shown meanwhile: a loaded machine may be past the pages already.
        assert any(said in counts(app) for said in ("fetching iclr2026", "importing iclr2026", "refreshing"))
        await wait_for(pilot, lambda: app.store.paper_count > before, what="the fetched papers")
        await settle(pilot)
        assert app.store.paper_count >= before + PAPERS - 6  # a few seed papers are among them
        assert "fetching" not in counts(app) and "refreshing" not in counts(app)


async def test_the_refresh_runs_in_a_process_of_its_own(
    server: ApiServer, make_app: Callable[..., PaperApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fetch and its import never run in the app's interpreter (a keystroke would wait behind
    them, and the app would hold a second catalogue): the app's own fetch function is never called."""
    import paperdeck.fetch.run

    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fetch ran in the app's process")

    monkeypatch.setattr(paperdeck.fetch.run, "fetch", not_here)
    app = make_app()
    before = app.store.paper_count
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main_screen(app).action_refresh()
        await wait_for(
            pilot, lambda: app.store.paper_count > before, what=lambda: [n.message for n in app._notifications]
        )
        await settle(pilot)
        assert app.store.paper_count >= before + PAPERS - 6, [n.message for n in app._notifications]
        assert any("fetched iclr2026" in n.message for n in app._notifications)


async def test_a_refresh_that_fails_is_one_notification_and_changes_nothing(
    server: ApiServer, make_app: Callable[..., PaperApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENREVIEW_PASSWORD", "wrong")
    app = make_app()
    before = app.store.paper_count
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main_screen(app).action_refresh()
        await wait_for(pilot, lambda: app._notifications, what="a notification")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("refused the login" in m and "\n" not in m for m in messages), messages
        assert app.store.paper_count == before


async def test_quitting_stops_a_refresh_under_way_and_changes_nothing(
    server: ApiServer, make_app: Callable[..., PaperApp]
) -> None:
    """What the app's exit does (``stop_fetches`` runs at exit): the child fetch ends at once,
    nothing lands, and the refresh says it stopped."""
    from paperdeck.ui.refresh import stop_fetches

    server.page_delay_s = 5.0
    app = make_app()
    before = app.store.paper_count
    catalogue = app.store.catalogue_path.read_bytes()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main_screen(app).action_refresh()
        await wait_for(pilot, lambda: server.count("/notes"), what="the first page asked for")
        stop_fetches()
        await wait_for(pilot, lambda: app._notifications, what="a notification")
        await settle(pilot)
        assert any("stopped" in n.message for n in app._notifications), [n.message for n in app._notifications]
        assert app.store.paper_count == before and app.store.catalogue_path.read_bytes() == catalogue
        assert "fetching" not in counts(app) and "refreshing" not in counts(app)


async def test_the_app_ending_stops_the_refresh_at_once(server: ApiServer, make_app: Callable[..., PaperApp]) -> None:
    """Quitting mid-refresh: the child fetch is stopped as the app ends (the process would
    otherwise wait for its worker, the fetch's retries and all)."""
    from paperdeck.ui import refresh

    server.page_delay_s = 3600.0  # a page never comes: only the app's end can stop the child
    app = make_app()
    # (a fetch an earlier test of this process stopped may not be let go of yet by its worker)
    before = refresh.fetches_under_way()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main_screen(app).action_refresh()
        await wait_for(pilot, lambda: server.count("/notes"), what="the first page asked for")
        children = [child for child in refresh.fetches_under_way() if child not in before]
        assert len(children) == 1
    block_until(lambda: children[0].poll() is not None, what="the child fetch to stop as the app ended")


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_refreshs_progress_shows_at_80_and_at_200_columns(
    server: ApiServer, make_app: Callable[..., PaperApp], size: tuple[int, int]
) -> None:
    """The progress of a refresh under way is beside the counts at any width: whole where it
    fits, else in its short form (``↻ 42%``); gone once the refresh has landed."""
    app = make_app()
    before = app.store.paper_count
    server.page_delay_s = 0.6
    seen: set[str] = set()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("6")  # a view with a long name: the counts take more room
        await settle(pilot)
        main_screen(app).action_refresh()

        def progress() -> bool:
            text = counts(app)
            seen.add(text)
            return "fetching iclr2026: " in text or "↻ " in text

        await wait_for(pilot, progress, what=lambda: f"the refresh's progress in {seen}")
        wide = size[0] >= 120
        shown = counts(app)
        assert shown.startswith("What changed: "), shown  # the count stays
        assert ("fetching iclr2026: " in shown) if wide else ("↻ " in shown), shown
        await wait_for(pilot, lambda: app.store.paper_count > before, what="the fetched papers")
        await settle(pilot)
        assert "↻" not in counts(app) and "fetching" not in counts(app)


def test_the_short_progress_is_a_few_cells() -> None:
    from paperdeck.ui.refresh import short_progress

    assert short_progress("fetching iclr2026: 1,234 of 19,630") == "↻ 6%"
    assert short_progress("fetching iclr2026: 40 of 40") == "↻ 100%"
    assert short_progress("fetching iclr2026: 1,234") == "↻ 1,234"
    assert short_progress("importing…") == "↻ importing"
    assert short_progress("refreshing…") == "↻ refreshing"
