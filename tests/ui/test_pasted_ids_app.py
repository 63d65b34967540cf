"""An id pasted into the filter bar is read as every command taking ids reads one
(:meth:`Store.paper_named`): white space and line ends around it dropped, a link with or without
its scheme, and an id in another case when one paper has it, which the query language alone does
not read as an id."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.filter_bar import FilterBar
from textual import events

from tests.ui.helpers import main_screen, settle
from tests.waits import wait_for

PAPERS = [
    Paper(id="openreview:wZN8debH4W", openreview_id="wZN8debH4W", title="Planned diffusion", abstract="a"),
    Paper(id="openreview:Other12345", openreview_id="Other12345", title="Other diffusion", abstract="b"),
    Paper(id="openreview:AbCdEf1234", openreview_id="AbCdEf1234", title="Twin one", abstract="c"),
    Paper(id="openreview:aBcDeF1234", openreview_id="aBcDeF1234", title="Twin two", abstract="d"),
]


def _app(tmp_path: Path) -> PaperApp:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return PaperApp(store=store)


async def _paste(app: PaperApp, text: str) -> FilterBar:
    screen = main_screen(app)
    bar = screen.query_one(FilterBar)
    bar.value = ""
    bar.focus()
    bar.post_message(events.Paste(text))
    return bar


@pytest.mark.parametrize(
    "pasted",
    [
        "wzn8debh4w",  # the one paper's id but for case: the CLI's fallback
        "WZN8DEBH4W\n",
        "\n  wzn8debh4w  \n",  # a blank first line: the first that is not blank
        "openreview.net/forum?id=wZN8debH4W\n",  # no scheme, a line end
        "  https://openreview.net/forum?id=wzn8debh4w ",
    ],
)
async def test_a_pasted_id_finds_its_paper_as_the_cli_does(tmp_path: Path, pasted: str) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        bar = await _paste(app, pasted)
        await wait_for(pilot, lambda: screen.view_ids() == ["openreview:wZN8debH4W"], what="the pasted paper")
        assert bar.value.strip() == bar.value and "\n" not in bar.value


async def test_an_id_two_papers_share_but_for_case_names_neither(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        bar = await _paste(app, "abcdef1234")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert bar.value == "abcdef1234"  # left as pasted: a word
        assert main_screen(app).view_ids() == []
