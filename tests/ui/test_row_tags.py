"""A row's ``#tags`` stay on it when the title is long (a README-only tester: most ICLR 2026 titles
ran past the row and took the tags with them, even at 200 columns): the title gives way, cut
with an ellipsis, keeping every tag, or the first with how many more (``#later +2``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, with_tags
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.row_cells import title_and_tags

from tests.ui.helpers import FIXED_TIME, paper_list, settle

LONG = (
    "Reasoning as Representation: Rethinking Visual Reinforcement Learning in Image Quality Assessment and Other Tasks"
)


def store_of(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    papers = [
        Paper(id=f"openreview:P{n}", title=f"{LONG} {n}", authors=("Ann Lee",), abstract="x", openreview_id=f"P{n}")
        for n in range(3)
    ]
    store.import_papers(papers)
    store.change(["openreview:P0"], lambda record: with_tags(record, add=["week2"]))
    store.change(["openreview:P1"], lambda record: with_tags(record, add=["week2", "later", "to-cite"]))
    return store


@pytest.mark.parametrize("size", [(80, 24), (120, 30), (200, 60)])
async def test_a_long_title_gives_way_to_the_tags(tmp_path: Path, size: tuple[int, int]) -> None:
    app = PaperApp(store=store_of(tmp_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        rows = paper_list(app)
        lines = [rows.render_line(y).text.rstrip() for y in range(rows.row_count)]
        assert len(lines) == 3
        assert sum(line.endswith("…  #week2") for line in lines) == 1, lines
        assert sum(line.endswith(("…  #later +2", "…  #later #to-cite #week2")) for line in lines) == 1, lines
        assert sum("#" in line for line in lines) == 2, lines


@pytest.mark.parametrize(
    ("title", "tags", "cells", "shown"),
    [
        ("Short", ["a", "b"], 40, ("Short", "  #a #b")),
        (LONG, ["week2"], 40, (LONG[:31] + "…", "  #week2")),
        (LONG, ["later", "to-cite", "week2"], 40, (LONG[:28] + "…", "  #later +2")),
        (LONG, ["later", "to-cite", "week2"], 120, (LONG[:95] + "…", "  #later #to-cite #week2")),
        (LONG, ["a-very-long-tag-name-indeed-it-is"], 30, (LONG[:14] + "…", "  #a-very-long…")),
        (LONG, [], 40, (LONG, "")),
    ],
)
def test_title_and_tags_share_the_cells(title: str, tags: list[str], cells: int, shown: tuple[str, str]) -> None:
    got = title_and_tags(title, tags, cells)
    assert got == shown
    assert not tags or len(got[0]) + len(got[1]) <= cells
