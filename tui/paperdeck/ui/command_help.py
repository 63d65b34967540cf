"""The command table (:mod:`paperdeck.ui.commands`) as the user reads it: the lines of the help
screen (:func:`help_sections`, with the keys in effect under the user's keymap) and the keys page
(:func:`keys_markdown`, ``docs/keys.md``, with the default keys). Both list the same rows, section
by section, in the table's order, then each section's summary lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from paperdeck.ui.commands import COMMANDS, SECTIONS, SUMMARIES, Command, keys_in_effect


class HelpLine(NamedTuple):
    """One line of the help screen: the keys (Textual key names, each shown on its own or, for
    ``compact``, as a range ``1…9``), what they do, and the id to remap them by (or ``""``)."""

    keys: tuple[str, ...]
    description: str
    ident: str = ""
    compact: bool = False


def help_sections(keymap: Mapping[str, str]) -> list[tuple[str, list[HelpLine]]]:
    """The help screen's sections (heading, lines), with the keys in effect under ``keymap``."""
    sections: list[tuple[str, list[HelpLine]]] = []
    for key, heading in SECTIONS:
        lines = [HelpLine(tuple(keys_in_effect(c, keymap)), c.help_text, c.id) for c in COMMANDS if c.section == key]
        for summary in SUMMARIES:
            if summary.section != key:
                continue
            if summary.keys:
                lines.append(HelpLine((summary.keys,), summary.description))
                continue
            rows = [c for c in COMMANDS if c.summary == summary.key]
            keys = tuple(k for row in rows for k in keys_in_effect(row, keymap))
            defaults = all(keys_in_effect(row, {}) == keys_in_effect(row, keymap) for row in rows)
            idents = (f"{rows[0].id}…{rows[-1].id}",) if len(rows) > 2 else tuple(row.id for row in rows)
            lines.append(HelpLine(keys, summary.description, ", ".join(idents), compact=defaults and len(rows) > 2))
        sections.append((heading, lines))
    return sections


def listed_on_help() -> list[Command]:
    """The rows whose keys the help screen lists (on their own line or in a summary)."""
    return [c for c in COMMANDS if c.keys and (c.section is not None or c.summary is not None)]


# -- the keys page (docs/keys.md) ----------------------------------------------------------------

#: Keys the keys page names as Textual does rather than by the footer's glyph (``⏎``, ``esc``).
_NAMED_KEYS = frozenset({"enter", "escape", "backspace", "delete", "space", "tab", "pagedown", "pageup", "home", "end"})

#: The parameterised palette rows (:mod:`paperdeck.ui.commands`' docstring): what each is expanded over.
_EXPANDED = {"main.sort_by": "sort order", "main.open_view": "saved view"}


def _page_key(key: str) -> str:
    from textual.keys import format_key

    shown = key if key in _NAMED_KEYS else format_key(key)
    return f"`` {shown} ``" if "`" in shown else f"`{shown}`"


def _page_keys(keys: Sequence[str], compact: bool) -> str:
    if compact and len(keys) > 2:
        return f"{_page_key(keys[0])}…{_page_key(keys[-1])}"
    return " / ".join(_page_key(key) for key in keys)


def _page_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def keys_markdown() -> str:
    """The keys page (``docs/keys.md``), rendered from the command table as Markdown.

    Shape: a ``# Keys`` title and a paragraph on remapping; then one ``## HEADING`` per help
    section (:data:`SECTIONS`, in order), each a table ``| keys | what it does | id |`` holding the
    section's rows, then its summary lines (:data:`SUMMARIES`), as the help screen lists them:
    the default keys (each in backticks, ``/``-separated; a summary of more than two rows as a
    range, ``1``…``9``), what the keys do (:attr:`Command.help_text`), and the id a user's
    ``keymap`` in config.json names (a summary: its rows' ids, a range likewise; a key Textual
    binds itself: ``—``). Last, ``## Only in the command palette``: a table ``| command | what it
    does |`` of the palette rows with no keys. Default keys only (the page describes paperdeck,
    not one user's keymap). Plain text, ``\\n`` line ends, one at the end; never raises.
    """
    out = [
        "# Keys",
        "",
        "<!-- Generated from the command table (tui/paperdeck/ui/commands.py, keys_markdown()): "
        "edit the table, not this page. -->",
        "",
        "Every key of the browser, grouped by where it works, as the help screen (`?`) lists them.",
        "To remap one, give its id other keys in the `keymap` of `config.json`, e.g.",
        '`{"keymap": {"main.star": "f", "reviews.next": "l"}}`: Textual key names (`ctrl+s`, `?` or',
        "`question_mark`), several separated by commas. `q`, `?` and `ctrl+c` keep their meaning.",
    ]
    for key, heading in SECTIONS:
        out += ["", f"## {heading}", "", "| keys | what it does | id |", "|---|---|---|"]
        for command in COMMANDS:
            if command.section == key:
                keys = _page_keys(keys_in_effect(command, {}), compact=False)
                out.append(f"| {keys} | {_page_cell(command.help_text)} | `{command.id}` |")
        for summary in SUMMARIES:
            if summary.section != key:
                continue
            if summary.keys:
                out.append(f"| {_page_key(summary.keys)} | {_page_cell(summary.description)} | — |")
                continue
            rows = [c for c in COMMANDS if c.summary == summary.key]
            keys = _page_keys([k for row in rows for k in keys_in_effect(row, {})], compact=True)
            ids = [f"`{row.id}`" for row in rows]
            shown = f"{ids[0]}…{ids[-1]}" if len(ids) > 2 else " / ".join(ids)
            out.append(f"| {keys} | {_page_cell(summary.description)} | {shown} |")
    out += ["", "## Only in the command palette (`ctrl+p`)", "", "| command | what it does |", "|---|---|"]
    for command in COMMANDS:
        if command.keys or command.title is None:
            continue
        if command.id in _EXPANDED:
            title = re.sub(r"\{\w+\}", "…", command.title)  # "Sort by …"
            text = f"One command for each {_EXPANDED[command.id]}"
        else:
            title, text = command.title, command.palette_help
        out.append(f"| {_page_cell(title)} | {_page_cell(text)} |")
    return "\n".join(out) + "\n"
