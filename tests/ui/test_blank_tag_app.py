"""The app's tag prompt refuses a blank tag to remove (a lone ``-``) with one line and stays open;
an empty answer closes it with one line; nothing is written."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.prompts import TagPrompt

from tests.ui.helpers import SIZE, open_tag_prompt, settle


@pytest.mark.parametrize("typed", ["-", "later -"], ids=["dash", "later-dash"])
async def test_the_tag_prompt_refuses_a_blank_tag(
    make_app: Callable[..., PaperApp], seeded_store: Store, typed: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        target = await open_tag_prompt(app, pilot)
        await pilot.press(*typed, "enter")
        await pilot.pause()
        assert isinstance(app.screen, TagPrompt)  # still asking: escape cancels
        said = [str(n.message) for n in app._notifications]
        refused = "Not tagged: a tag cannot be empty or blank: give it a letter, digit or sign (escape cancels)."
        assert said[-1:] == [refused]
        assert Store(seeded_store.data_dir).user_data(target).tags == ()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TagPrompt)


@pytest.mark.parametrize(
    ("typed", "refused"),
    [
        ('"unclosed #hash UPPER', 'Not tagged: a closing " is missing (escape cancels).'),
        ("x" * 300, "Not tagged: a tag holds at most 200 characters; this one would hold 300 (escape cancels)."),
        ("tag:week1 OR tag:week2", "Not tagged: a tag cannot hold ':' (tag:week1); type week1 (escape cancels)."),
    ],
    ids=["unclosed-quote", "too-long", "query-typed"],
)
async def test_the_tag_prompt_refuses_what_it_cannot_keep_and_keeps_the_text(
    make_app: Callable[..., PaperApp], seeded_store: Store, typed: str, refused: str
) -> None:
    """A README-only tester typed a quote left open (saved as one long tag) and a 300-character
    tag (the dialog closed, the text lost, the message naming a directory): both are refused in
    the dialog, in words, and the text stays to be mended."""
    from textual.widgets import Input

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        target = await open_tag_prompt(app, pilot)
        app.screen.query_one(Input).value = typed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TagPrompt)
        assert app.screen.query_one(Input).value == typed
        said = [str(n.message) for n in app._notifications]
        assert said[-1:] == [refused] and "/" not in said[-1].split(";")[0]
        assert Store(seeded_store.data_dir).user_data(target).tags == ()


@pytest.mark.parametrize(
    ("typed", "said", "tags"),
    [
        ("-nosuch", "No tag nosuch on this paper: nothing removed.", ()),
        ("later -nosuch", "No tag nosuch on this paper: the other changes made.", ("later",)),
    ],
    ids=["alone", "with-an-addition"],
)
async def test_removing_a_tag_the_paper_lacks_says_so(
    make_app: Callable[..., PaperApp], seeded_store: Store, typed: str, said: str, tags: tuple[str, ...]
) -> None:
    """The fifteenth round's second tester: ``-nosuch`` (a tag the paper does not have) closed
    the box and said nothing. One line says no tag was removed; the rest typed is applied."""
    from tests.waits import wait_for

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        target = await open_tag_prompt(app, pilot)
        await pilot.press(*typed, "enter")
        await settle(pilot)
        assert not isinstance(app.screen, TagPrompt)
        await wait_for(pilot, lambda: said in [str(n.message) for n in app._notifications], what=said)
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).tags == tags, what=str(tags))
