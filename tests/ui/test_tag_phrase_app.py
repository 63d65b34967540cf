"""The tester typed ``"my tag"`` in the tag prompt and got two tags, ``"my`` and ``tag"``, while
``paperdeck tag ID "my tag"`` stores ``my-tag``: a quoted phrase is one tag, spelt as the command
line spells it (:func:`paperdeck.model.user.read_tags`), and ``-"my tag"`` removes it."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.prompts import TagPrompt

from tests.ui.helpers import open_tag_prompt
from tests.waits import wait_for


async def test_a_quoted_phrase_in_the_tag_prompt_is_one_tag(
    make_app: Callable[..., PaperApp], seeded_store: Store
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        target = await open_tag_prompt(app, pilot)
        assert isinstance(app.screen, TagPrompt)
        await pilot.press(*'"my tag" later', "enter")
        await wait_for(
            pilot, lambda: Store(seeded_store.data_dir).user_data(target).tags == ("later", "my-tag"), what="saved"
        )
        await pilot.press("T")
        await pilot.pause()
        await pilot.press(*'-"my tag"', "enter")
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).tags == ("later",), what="saved")
