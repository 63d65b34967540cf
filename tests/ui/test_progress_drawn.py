"""The progress box of a change to many papers is drawn over the screen it opens on, dimmed, as
every dialog is: the list stays on screen while the change is written (it went blank: the box's
own background rule lost to the app's opaque ``Screen`` rule)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.progress import ProgressScreen

from tests.ui.helpers import settle

PAPERS = 120


async def test_the_list_stays_drawn_under_the_progress_of_a_bulk_star_and_its_undo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(
        [Paper(id=f"openreview:P{n:04d}", title=f"Zebrafish paper {n}", abstract="An abstract.") for n in range(PAPERS)]
    )
    app = PaperApp(store=store)
    frames: list[tuple[bool, bool]] = []  # per batch (the first two): (the progress box is up, a row's title is drawn)

    def frame() -> tuple[bool, bool]:
        screenshot = app.export_screenshot()
        return isinstance(app.screen, ProgressScreen), "Zebrafish" in screenshot

    change = Store.change

    def watched(
        store: Store, paper_ids: Iterable[str], how: Callable[[UserData], UserData], *args: Any, **kwargs: Any
    ) -> Any:
        if threading.current_thread() is not threading.main_thread() and len(frames) < 2:  # a screenshot is slow
            frames.append(app.call_from_thread(frame))
        return change(store, paper_ids, how, *args, **kwargs)

    monkeypatch.setattr(Store, "change", watched)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for keys in (("M", "s", "y"), ("u",)):
            frames.clear()
            await pilot.press(*keys)
            await settle(pilot)
            assert frames, f"{keys}: no batch was written in a worker"
            assert all(up for up, _ in frames), f"{keys}: the progress box was not up: {frames}"
            assert all(drawn for _, drawn in frames), f"{keys}: the list under the progress box was blank"
    assert sum(record.starred for record in Store(store.data_dir).all_user_data.values()) == 0
