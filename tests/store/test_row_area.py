"""The list row carries the paper's primary area (the list's area column), through the rows
cache too; a row cached before it had one still reads, without an area."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.rows import PaperRow, RowColumns
from paperdeck.store.store import Store


def test_a_row_keeps_its_area_through_the_rows_cache(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id="abs:00000000000000aa", title="One", abstract="An abstract.", primary_area="optimization"),
            Paper(id="abs:00000000000000bb", title="Two", abstract="Another abstract."),
        ]
    )
    lazy = Store(tmp_path / "data", lazy=True)
    assert not lazy.loaded
    assert [lazy.row(pid).area for pid in lazy.paper_ids] == ["optimization", ""]  # type: ignore[union-attr]
    assert lazy.row_columns.areas and store.row_columns.areas


def test_a_row_written_without_an_area_reads_without_one() -> None:
    assert PaperRow.from_list(["x", "A title", False, "oral", 6.5]) == PaperRow("x", "A title", False, "oral", 6.5)
    assert RowColumns.of([("oral", None, "")]) == RowColumns(True, False, False)
