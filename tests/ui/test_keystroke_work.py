"""What a keystroke costs the list: the store's changed papers asked once per frame, not per row,
and a change log another process wrote still marks its rows at the next frame."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.row_cells import CHANGED
from textual.geometry import Region

from tests.store.test_changes import clock
from tests.ui.helpers import SIZE, paper_list, settle


def _papers(decision: str) -> list[Paper]:
    return [
        Paper(id=f"openreview:P{n}", title=f"Paper number {n} on sparse experts", abstract="Experts " * 20,
              decision=decision, openreview_id=f"P{n}")
        for n in range(12)
    ]  # fmt: skip


def _row_text(app: PaperApp, y: int) -> str:
    return "".join(segment.text for segment in paper_list(app).render_line(y))


async def test_a_frame_of_the_list_asks_for_the_changed_papers_once(tmp_path: Path, monkeypatch: Any) -> None:
    store = Store(tmp_path / "data", now=clock())
    store.import_papers(_papers("under-review"))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        asked = []
        real = store.changed_since_looked

        def counted() -> dict[str, frozenset[str]]:
            asked.append(1)
            return real()

        monkeypatch.setattr(store, "changed_since_looked", counted)
        widget = paper_list(app)
        lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
        assert len(lines) >= 12
        assert len(asked) == 1


async def test_a_change_log_another_process_wrote_marks_the_rows(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=clock())
    store.import_papers(_papers("under-review"))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert all(_row_text(app, y)[4] != CHANGED for y in range(12))
        other = Store(tmp_path / "data", now=clock())  # as another paperdeck would
        other.import_papers(_papers("poster"))
        await settle(pilot)
        paper_list(app).refresh()
        await settle(pilot)
        assert all(_row_text(app, y)[4] == CHANGED for y in range(12))


async def test_the_change_log_is_read_in_a_thread_after_the_first_frame(tmp_path: Path, monkeypatch: Any) -> None:
    store = Store(tmp_path / "data", now=clock())
    store.import_papers(_papers("under-review"))
    store.first_look()  # the baseline: the next import is news
    store.import_papers(_papers("poster"))
    on_event_loop: list[bool] = []
    real = store.changed_since_looked

    def recorded() -> dict[str, frozenset[str]]:
        on_event_loop.append(threading.current_thread() is threading.main_thread())
        return real()

    monkeypatch.setattr(store, "changed_since_looked", recorded)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # First asked by the thread that reads the log once the first frame is drawn (the first
        # frame read it on the event loop before: the whole log, parsed and resolved).
        assert on_event_loop[:1] == [False]
        assert all(_row_text(app, y)[4] == CHANGED for y in range(12))
