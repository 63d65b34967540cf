"""The rows cache: what the list shows before the catalogue is parsed, read without building a
row per paper up front; a broken cache costs speed, never a crash or a wrong list."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tui.core.paper import Paper, PaperRow
from tui.core.store import ROWS_FILE, Store

FIXED_TIME = "2026-11-29T12:00:00+00:00"


@pytest.fixture
def imported(data_dir: Path) -> Store:
    store = Store(data_dir, now=lambda: FIXED_TIME)
    store.import_papers(
        [Paper(id=f"abs:{n:016x}", title=f"Paper {n}", abstract=f"Abstract number {n}.") for n in range(5)]
    )
    return store


def test_a_lazy_store_shows_rows_before_parsing_the_catalogue(imported: Store) -> None:
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded
    assert lazy.paper_ids == imported.paper_ids
    assert lazy.paper_count == imported.paper_count == 5
    for pid in imported.paper_ids:
        assert lazy.row(pid) == imported.row(pid)
        assert lazy.row(pid) is lazy.row(pid)  # built once, when first shown
    assert lazy.row("abs:missing") is None
    lazy.load()
    first = imported.paper_ids[0]
    assert lazy.loaded and lazy.paper_count == 5 and lazy.row(first) == imported.row(first)


def test_a_row_with_a_broken_field_still_shows_its_title(imported: Store) -> None:
    path = imported.data_dir / ROWS_FILE
    data = json.loads(path.read_text())
    data["rows"][1][4] = "not a rating"
    path.write_text(json.dumps(data))
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded
    pid = imported.paper_ids[1]
    assert lazy.row(pid) == PaperRow(pid, "Paper 1")


@pytest.mark.parametrize(
    "rows",
    [
        {"not": "a list"},
        [["abs:0000000000000000", "too short"]],
        [[1, "an id that is no string", False, "unknown", None]],
        [["abs:0000000000000000", None, False, "unknown", None]],
        ["not a row"],
        [""],
    ],
)
def test_a_broken_rows_cache_is_ignored(imported: Store, rows: object) -> None:
    path = imported.data_dir / ROWS_FILE
    data = json.loads(path.read_text())
    data["rows"] = rows
    path.write_text(json.dumps(data))
    store = Store(imported.data_dir, lazy=True)
    assert store.loaded  # the catalogue was parsed instead
    assert store.paper_ids == imported.paper_ids


def test_a_stale_rows_cache_is_written_again(imported: Store) -> None:
    """A copied or restored store (its catalogue's time changed) reads the catalogue once, then
    writes the cache that the next start reads."""
    catalogue = imported.catalogue_path
    stat = catalogue.stat()
    os.utime(catalogue, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    first = Store(imported.data_dir, lazy=True)
    assert first.loaded  # the cache did not match: the catalogue was parsed
    second = Store(imported.data_dir, lazy=True)
    assert not second.loaded  # the cache written by the first
    assert second.paper_ids == imported.paper_ids
    assert [second.row(pid) for pid in second.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]


def test_no_rows_cache_for_a_catalogue_replaced_after_reading(imported: Store) -> None:
    """Another process's import replaced the catalogue after this store read it: the rows this
    store holds are not written under the new catalogue's stamp."""
    store = Store(imported.data_dir)
    other = Store(imported.data_dir)
    other.import_papers([Paper(id="abs:00000000000000ff", title="New", abstract="A new abstract, long enough.")])
    rows = imported.data_dir / ROWS_FILE
    rows.unlink()
    store._write_rows_cache()
    assert not rows.exists()
