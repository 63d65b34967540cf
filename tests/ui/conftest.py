"""Fixtures for Pilot and snapshot tests: an app on a fresh store holding the bundled seeds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.widgets.counts_label import CountsLabel
from paperdeck.ui.widgets.paper_list import PaperList
from textual.pilot import Pilot

from tests.waits import quick_idle_waits

FIXED_TIME = "2026-11-29T12:00:00+00:00"
SIZE = (120, 36)


@pytest.fixture(autouse=True)
def _quick_idle_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_idle_waits(monkeypatch)


@pytest.fixture
def seeded_store(tmp_path: Path, seed_files: list[Path]) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    import_files(store, seed_files)
    return store


@pytest.fixture
def make_app(seeded_store: Store) -> Callable[..., PaperApp]:
    def make(store: Store | None = None) -> PaperApp:
        return PaperApp(store=store or seeded_store)

    return make


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers (filtering, indexing) finish and the screen catch up."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


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
