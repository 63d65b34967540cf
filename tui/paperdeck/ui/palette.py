"""The command palette's paperdeck commands, built from the command table
(:mod:`paperdeck.ui.commands`, whose docstring states which rows are palette commands)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import partial
from typing import Any

from textual.actions import parse as parse_action
from textual.app import App, SystemCommand
from textual.dom import DOMNode
from textual.screen import Screen

from paperdeck.store.settings import SORT_LABELS, SORTS
from paperdeck.ui.commands import BY_ID, COMMANDS, Command, Owner, key_display, keys_in_effect
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.reading import ReadingScreen

#: What each sort order puts first, for its palette entry ("Sort by list order").
SORT_ABOUT = {
    "relevance": "the best matches for the query's words first (without words, list order)",
    "list": "the order the imported lists give the papers in (the catalogue's order)",
    "title": "title, A to Z (case and accents ignored)",
    "rating": "mean rating, highest first, unrated papers last",
    "spread": "rating spread, the most controversial (largest highest − lowest rating) first",
    "best_lowest": "best lowest rating: the papers whose lowest rating is the highest first, unrated papers last",
    "decision": "decision, orals first",
    "changed": "the papers you starred, noted, tagged or gave a status most recently first",
    "rise": "the papers whose mean rating rose most during the discussion first, unrated papers last",
    "fall": "the papers whose mean rating fell most during the discussion first, unrated papers last",
    "rating_pct": "mean rating as a percentile within its own venue, highest first (venues with different scales)",
}


def key_hint(app: App[Any], command: Command, keymap: Mapping[str, str]) -> str:
    """The keys in effect for ``command`` as the footer shows them (``"s"``, ``"^r"``), joined
    by ``" / "``; ``""`` when it has none."""
    return " / ".join(key_display(app, key) for key in keys_in_effect(command, keymap))


def palette_commands(app: App[Any], screen: Screen[object], keymap: Mapping[str, str]) -> Iterator[SystemCommand]:
    """One palette command per palette row (parameterised rows expanded) whose owner is on hand
    (the app; the main screen when it is ``screen``) and whose owner's ``check_action`` allows
    it now. The title carries the key hint: "Star / unstar (s)". Selecting one runs the row's
    action in its owner's namespace, as its key would."""
    owners: dict[Owner, DOMNode] = {"app": app}
    if isinstance(screen, ReadingScreen):
        owners["reading"] = screen
    if isinstance(screen, MainScreen):
        owners["main"] = screen
    for command in COMMANDS:
        node = owners.get(command.owner)
        if command.title is None or node is None:
            continue
        if command.id == "main.sort_by":
            for order in SORTS:
                about = SORT_ABOUT[order]
                yield from _offer(app, node, command, None, keymap, value=order, label=SORT_LABELS[order], about=about)
        elif command.id == "main.open_view":
            for number, view in enumerate(getattr(node, "views", []), 1):
                digit = BY_ID.get(f"main.view_{number}")
                fields = {"number": str(number), "name": view.name, "query": view.query}
                yield from _offer(app, node, command, digit, keymap, **fields)
        else:
            yield from _offer(app, node, command, command, keymap)


def _offer(
    app: App[Any],
    node: DOMNode,
    command: Command,
    hint_from: Command | None,
    keymap: Mapping[str, str],
    **fields: str,
) -> Iterator[SystemCommand]:
    assert command.title is not None
    action, title, help_text = command.action, command.title, command.palette_help
    if fields:
        action, title, help_text = (text.format(**fields) for text in (action, title, help_text))
    _, name, params = parse_action(action)
    if not node.check_action(name, params):
        return
    hint = key_hint(app, hint_from, keymap) if hint_from is not None else ""
    yield SystemCommand(f"{title} ({hint})" if hint else title, help_text, partial(app.run_action, action, node))
