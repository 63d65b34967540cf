"""A key in the user's keymap that is no key name (a typo: ``ctlr+s``, ``stra``) was taken
silently, and the command it was given to lost its key: it is refused at start, in the one line
naming the settings file and the entry, and the rest of the keymap applies."""

from __future__ import annotations

import json

import pytest
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.commands import COMMANDS
from paperdeck.ui.keymap import check_keymap, is_key_name, normalise_key

from tests.ui.helpers import SIZE, highlighted, settle


def test_every_default_key_is_a_key_name() -> None:
    keys = {key for command in COMMANDS if command.keys for key in command.keys.split(",")}
    assert [key for key in keys if not is_key_name(key)] == []


@pytest.mark.parametrize(
    "key", ["s", "S", "5", "?", "<", "/", "ctrl+s", "ctrl+shift+left", "f5", "space", "pagedown", "question_mark"]
)
def test_key_names_textual_reports_are_taken(key: str) -> None:
    assert is_key_name(normalise_key(key))


@pytest.mark.parametrize("key", ["ctlr+s", "stra", "f55", "ctrl+ctrl+s", "ctrl+", "latin_small_letter_a", "<any>"])
def test_typos_are_no_key_names(key: str) -> None:
    assert not is_key_name(normalise_key(key))


def test_a_typo_is_refused_and_the_rest_applies() -> None:
    check = check_keymap({"main.star": "ctlr+s", "main.note": "stra,N", "main.tags": "ctrl+t"})
    assert check.keys["main.star"] == "s"  # nothing left: its own key
    assert check.keys["main.tags"] == "ctrl+t"
    report = check.report("/home/me/.config/paperdeck/config.json")
    assert report is not None and "\n" not in report
    assert report.startswith("/home/me/.config/paperdeck/config.json keymap: ")
    assert "'ctlr+s' is no key name" in report and "Star [main.star]" in report
    assert "'stra' is no key name" in report and "Note [main.note]" in report


async def test_the_app_says_which_entry_of_which_file_and_applies_the_rest(seeded_store: Store) -> None:
    config = seeded_store.data_dir / CONFIG_FILE
    config.write_text(json.dumps({"keymap": {"main.star": "ctlr+s", "main.status_read": "ctrl+e"}}), "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = [str(n.message) for n in app._notifications if "keymap" in str(n.message)]
        assert len(said) == 1 and str(config) in said[0] and "'ctlr+s' is no key name" in said[0], said
        target = highlighted(app).id
        await pilot.press("ctrl+e")  # the valid entry applies
        await pilot.press("s")  # the refused one left the star its own key
        await settle(pilot)
        record = Store(seeded_store.data_dir).user_data(target)
        assert record.status == "read" and record.starred
