"""Every one-line input of the app keeps every line of a paste (Textual's Input kept the first line
alone, silently): the tag, keyword, export path and view name prompts as the filter bar does, each
joining the lines by its own rule (``OneLineInput.NEWLINE``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.ui.widgets.one_line_input import OneLineInput, joined_lines
from textual import events
from textual.widgets import Input

from tests.ui.helpers import SIZE, settle
from tests.ui.test_query_bar import papers_app
from tests.waits import wait_for


def test_lines_are_stripped_blank_ones_dropped_and_joined_by_the_field_s_newline() -> None:
    assert joined_lines(" to-read \n\n  graphs\r\nmy-tag\n") == "to-read graphs my-tag"
    assert joined_lines("/tmp/some/long/\npath.bib\n", "") == "/tmp/some/long/path.bib"


@pytest.mark.parametrize(
    ("key", "field", "pasted", "value"),
    [
        ("T", "#tag-input", "to-read\ngraphs\n\n-old\n", "to-read graphs -old"),
        ("K", "#keyword-input", "graph neural\nnetwork\n", "graph neural network"),
        ("E", "#export-path", "/tmp/papers/\nstarred.bib\n", "/tmp/papers/starred.bib"),
        ("w", "#view-name", "Orals\nto read\n", "Orals to read"),
    ],
)
async def test_a_prompt_keeps_every_line_of_a_paste(
    tmp_path: Path, key: str, field: str, pasted: str, value: str
) -> None:
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if key == "w":  # a view saves the filter: a query first
            await pilot.press("slash", *"graph", "enter")
            await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: bool(app.screen.query(field)), what=f"the prompt of {key}")
        box = app.screen.query_one(field, Input)
        assert isinstance(box, OneLineInput)
        box.value = ""
        await pilot.pause()
        box.post_message(events.Paste(pasted))
        await wait_for(pilot, lambda: box.value == value, what=lambda: box.value)
        assert box.cursor_position == len(value)
        await pilot.press("escape")
        await settle(pilot)
