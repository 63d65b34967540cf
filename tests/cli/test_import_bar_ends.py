"""The import's bar moves through every step and ends drawn full.

The fourteenth round (bar14): importing ``iclr2026_reviews_reviewtracker.part3of3.jsonl.gz`` into
the full ICLR 2026 store, the bar never went past 67 %: it sat at two of its three steps while
the search and similarity indexes were saved, and ``done()`` set it full without drawing it
before the bar was cleared; ``paperdeck FILE`` did not even set it full. The steps now add up
to the whole: the merge's parts (the reviews, their word index, the papers' scores) share the
merge's step, the indexes' save moves through the last as each index is saved, and the end is
drawn at 100 %. Positions counted here, not timed."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from paperdeck.cli.caches import save_indexes
from paperdeck.cli.main import main, open_store
from paperdeck.cli.output import ImportBar
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from rich.console import Console
from rich.progress import Progress

ROWS = "title,decision\nPaper one about graphs,Accept\nPaper two about kernels,Reject\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def positions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float, bool]]:
    """Each position the import's bar is given: ``(completed, total, drawn now)``."""
    told: list[tuple[float, float, bool]] = []
    update = Progress.update

    def recorded(self: Progress, task_id: Any, **kwargs: Any) -> None:
        update(self, task_id, **kwargs)
        if "completed" in kwargs:
            task = self._tasks[task_id]
            assert task.total is not None
            told.append((task.completed, task.total, bool(kwargs.get("refresh"))))

    monkeypatch.setattr(Progress, "update", recorded)
    return told


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "list.csv"
    path.write_text(ROWS, encoding="utf-8")
    return path


def _ends_full(told: list[tuple[float, float, bool]]) -> None:
    completed = [done for done, _, _ in told]
    assert completed == sorted(completed)  # never back
    assert told[-1] == (told[-1][1], told[-1][1], True)  # the whole, drawn


def test_the_import_command_moves_through_the_indexes_save_and_ends_at_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, positions: list[tuple[float, float, bool]]
) -> None:
    monkeypatch.setattr(sys, "stderr", Terminal())  # in the test: pytest's capture sets it before
    assert main(["import", str(_csv(tmp_path)), "--data-dir", str(tmp_path / "data")]) == 0
    _ends_full(positions)
    total = positions[-1][1]
    assert (total - 1, total, True) in positions  # the indexes' save begins at its step
    saving = [done for done, _, _ in positions if total - 1 < done < total]
    assert saving == [total - 0.5]  # the first of the two indexes saved


def test_opening_with_a_file_ends_the_bar_at_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, positions: list[tuple[float, float, bool]]
) -> None:
    monkeypatch.setattr(sys, "stderr", Terminal())
    open_store(str(tmp_path / "data"), [_csv(tmp_path)])
    _ends_full(positions)


def test_the_merges_parts_share_its_step_and_the_steps_add_up() -> None:
    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    with Progress(console=console, auto_refresh=False) as progress:
        bar = ImportBar(progress, files=1)
        task = progress.tasks[0]
        seen = []
        bar.reading(0, 1, Path("reviews.jsonl.gz"))
        seen.append(task.completed)
        bar.merging("papers", 0, 10)
        seen.append(task.completed)
        for what, done, total in [("reviews", 50, 100), ("reviews", 100, 100), ("review words", 0, 10),
                                  ("review words", 10, 10), ("paper scores", 0, 10), ("paper scores", 5, 10),
                                  ("paper scores", 10, 10)]:  # fmt: skip
            bar.merging(what, done, total)
            seen.append(task.completed)
        bar.step("indexing for search and similar papers")
        seen.append(task.completed)
        bar.saving(1, 2)
        seen.append(task.completed)
        bar.done()
        seen.append(task.completed)
    assert seen == [0, 1, 1.3, 1.6, 1.6, 1.8, 1.8, 1.9, 2, 2, 2.5, 3]
    assert task.total == 3


@pytest.mark.parametrize("release", [False, True])
def test_the_indexes_save_tells_each_index_saved(data_dir: Path, release: bool) -> None:
    store = Store(data_dir)
    store.import_papers(
        [Paper(id=f"openreview:W{n}", title=f"Paper {n} about graphs", authors=("Ann Lee",),
               abstract=f"An abstract about subject {n}.", openreview_id=f"W{n}") for n in range(3)]
    )  # fmt: skip
    told: list[tuple[int, int]] = []
    save_indexes(store, release=release, told=lambda done, total: told.append((done, total)))
    assert told == [(1, 2), (2, 2)]
