"""What killed imports leave in a store is removed by the next import or start
(:mod:`paperdeck.store.leftovers`): an undo point's staging whose process is gone, and review
generation files the reviews index no longer names. A tester's store kept 500 MB of them after
five ``kill -9`` during an import (``undo/.before-<pid>-<hex>.json``, ``.reviews-<pid>-<hex>/``,
``reviews/*.g2.json`` beside the ``g4`` the index names). A live process's staging, a store whose
import lock another process holds, and what the undo of the last import needs are left alone.
The store is made of the v2 replies sample (``tests/data/``, 51 notes on 12 papers)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.import_run import IMPORT_LOCK_FILE
from paperdeck.store.leftovers import remove_leftovers
from paperdeck.store.lock import FileLock
from paperdeck.store.store import Store

from tests.helpers import ReviewSample


@pytest.fixture
def gone_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def live_pid() -> Iterator[int]:
    """The id of a process that runs (another paperdeck importing), ended after the test."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    yield child.pid
    child.kill()
    child.wait()


def _plant(data_dir: Path, pid: int, tag: str) -> list[Path]:
    """An undo point's staging as a change of process ``pid`` leaves it (killed before it committed)."""
    undo = data_dir / "undo"
    undo.mkdir(exist_ok=True)
    before, schedule, reviews = (undo / f".before-{pid}-{tag}.json", undo / f".schedule-{pid}-{tag}.json",
                                 undo / f".reviews-{pid}-{tag}")  # fmt: skip
    before.write_bytes(b"{}")
    schedule.write_bytes(b"{}")
    reviews.mkdir()
    (reviews / "00.g1.json").write_bytes(b"{}")
    return [before, schedule, reviews]


def _stale_generation(data_dir: Path) -> list[Path]:
    """Review files of a generation before the index's (an import killed after its commit)."""
    reviews = data_dir / "reviews"
    stale = [reviews / "00.g0.json", reviews / "summaries.g0.json", reviews / "summaries.g0.spans.json",
             reviews / "words.g0.vocab"]  # fmt: skip
    for path in stale:
        path.write_bytes(b"{}")
    return stale


def _imported(data_dir: Path, sample: ReviewSample) -> Store:
    store = Store(data_dir)
    import_files(store, [sample.papers_file, sample.notes_file])
    return store


def test_leftovers_of_a_gone_process_go_a_live_ones_stay(
    data_dir: Path, review_sample: ReviewSample, gone_pid: int, live_pid: int
) -> None:
    store = _imported(data_dir, review_sample)
    named = sorted(path.name for path in (data_dir / "reviews").iterdir())
    gone = [*_plant(data_dir, gone_pid, "0a8a5056"), *_stale_generation(data_dir)]
    live = _plant(data_dir, live_pid, "9cb31164")
    assert store.remove_leftovers() == len(gone)
    assert [path for path in gone if path.exists()] == []
    assert all(path.exists() for path in live)
    assert sorted(path.name for path in (data_dir / "reviews").iterdir()) == named
    assert Store(data_dir).reviews.counts()["notes"] == 51


def test_nothing_is_touched_while_another_process_imports(
    data_dir: Path, review_sample: ReviewSample, gone_pid: int
) -> None:
    store = _imported(data_dir, review_sample)
    left = [*_plant(data_dir, gone_pid, "057ede4b"), *_stale_generation(data_dir)]
    with FileLock(data_dir / IMPORT_LOCK_FILE):  # another import holds the lock: its files may be these
        assert store.remove_leftovers() == 0
        assert remove_leftovers(data_dir, data_dir / IMPORT_LOCK_FILE) == 0
    assert all(path.exists() for path in left)


def test_the_next_import_removes_them_and_the_undo_of_the_last_stands(
    data_dir: Path, review_sample: ReviewSample, gone_pid: int, tmp_path: Path
) -> None:
    store = _imported(data_dir, review_sample)
    notes = review_sample.notes()
    note = next(n for n in notes if "rating" in n.get("content", {}))
    ratings = sorted(r.score("rating") for r in store.reviews.reviews(note["forum"]) if r.score("rating") is not None)
    note["content"]["rating"] = {"value": 0 if note["content"]["rating"]["value"] else 10}
    note["tmdate"] = note.get("tmdate", 0) + 1000
    changed = tmp_path / "changed.json"
    changed.write_bytes(orjson.dumps(notes))
    import_files(store, [changed])  # the undo point: the reviews before it kept
    index = orjson.loads((data_dir / "reviews" / "index.json").read_bytes())
    gone = [*_plant(data_dir, gone_pid, "37cfe9d6"), *_stale_generation(data_dir)]
    import_files(store, [review_sample.papers_file])  # changes nothing, but takes the import lock
    assert [path for path in gone if path.exists()] == []
    assert orjson.loads((data_dir / "reviews" / "index.json").read_bytes()) == index
    point = store.undo_point
    assert point is not None and point.what == "import"
    store.undo_last_change()
    assert orjson.loads((data_dir / "reviews" / "index.json").read_bytes())["generation"] == 1
    reopened = Store(data_dir)
    assert reopened.reviews.counts()["notes"] == 51
    assert (
        sorted(r.score("rating") for r in reopened.reviews.reviews(note["forum"]) if r.score("rating") is not None)
        == ratings
    )
