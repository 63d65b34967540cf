"""``enter`` on a one-line prompt's empty box closes it, saying in one line that nothing was done
(a README-only tester: ``T``, ``ctrl+u``, ``enter`` left the tags prompt open, and the query typed
next, ``/ tag:week1 OR tag:week2``, became five tags). Every one-line prompt of the app: tags,
follow a keyword, save a view, export."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from paperdeck.ui.screens.follow_dialogs import KeywordPrompt
from paperdeck.ui.screens.prompts import TagPrompt
from paperdeck.ui.screens.views import SaveViewPrompt
from textual.screen import ModalScreen
from textual.widgets import Input

from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for

PROMPTS: list[tuple[str, type[ModalScreen[object]], str]] = [
    ("T", TagPrompt, "No tags typed: no tags changed."),
    ("K", KeywordPrompt, "No keyword typed: nothing followed."),
    ("w", SaveViewPrompt, "No name typed: the view was not saved."),
    ("E", ExportPrompt, "No file name typed: nothing exported."),
]


@pytest.mark.parametrize(("key", "prompt", "said"), PROMPTS, ids=[p[1].__name__ for p in PROMPTS])
async def test_enter_on_an_empty_prompt_closes_it_and_the_next_keys_go_to_the_list(
    make_app: Callable[..., PaperApp], seeded_store: Store, key: str, prompt: type[ModalScreen[object]], said: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        if prompt is SaveViewPrompt:  # `w` saves a filter
            main_screen(app).query_one("#filter", Input).value = "decision:oral"
            await settle(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, prompt), what=f"{prompt.__name__}")
        await pilot.press("space", "ctrl+u", "enter")  # typed, then emptied
        await wait_for(pilot, lambda: not isinstance(app.screen, prompt), what="the prompt closed")
        assert [str(n.message) for n in app._notifications][-1:] == [said]
        await pilot.press("slash", "ctrl+u", *"tag:week1", "enter")  # the tester's next keys: a query
        await settle(pilot)
        assert main_screen(app).query_one("#filter", Input).value == "tag:week1"
        assert Store(seeded_store.data_dir).user_data(target).tags == ()
        assert not Store(seeded_store.data_dir).follows.all()
