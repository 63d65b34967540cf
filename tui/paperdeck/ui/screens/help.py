"""The help screen: every key, grouped by where it works, built from the command table
(:func:`paperdeck.ui.command_help.help_sections`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from pathlib import PurePath
from typing import ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from paperdeck.model.safe_text import one_line
from paperdeck.paths import dialog_style_sheets
from paperdeck.ui.command_help import HelpLine
from paperdeck.ui.commands import bindings, key_display
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.footer import PaperFooter

#: One help section: a heading and its lines (keys already those in effect).
HelpSection = tuple[str, Sequence[HelpLine]]

#: The line under the help while more of it is below what the dialog shows.
MORE_BELOW = "more below ↓  (j / G)"

#: The cells of the frame around the help's text: its border, its padding and the scroll bar.
_FRAME_CELLS = 2 + 4 + 2


#: The cells before a key's description: its indent and the keys' column.
_KEYS_CELLS = 2 + 18


def _wrapped(
    head: tuple[str, str],
    parts: Sequence[tuple[str, str]],
    width: int | None,
    indent: int,
    tail: tuple[str, str] = ("", ""),
) -> list[Content]:
    """One line of the help, ``head`` (text and style: a key's column, a line's indent), ``parts``
    (text and style) and ``tail`` (a key's id, ``"  [main.star]"``), as lines of at most ``width``
    cells (``None``: one line): cut only at a space, ``head``, each word and ``tail`` whole (its
    spaces before it dropped at a line's start), the lines after the first indented ``indent``
    cells. A word wider than a line alone is a line of its own (the dialog cuts it)."""
    words = [(word, style) for text, style in parts for word in re.findall(r" *\S+", text)]
    if tail[0]:
        words.append(tail)
    if width is None:
        return [Content.assemble(head, *words)]
    lines: list[Content] = []
    line, used, bare = [head], cell_len(head[0]), not head[0].strip()  # bare: no word on the line yet
    for word, style in words:
        cells = cell_len(word)
        if not bare and used + cells > width:
            lines.append(Content.assemble(*line))
            word = word.lstrip(" ")
            line, used, cells = [(" " * indent, "")], indent, cell_len(word)
        line.append((word, style))
        used, bare = used + cells, False
    lines.append(Content.assemble(*line))
    return lines


class HelpScreen(ModalScreen[None]):
    """Lists the keys of each section; ``escape``, ``q`` or ``?`` closes it, ``j`` / ``k`` scroll it
    (``g`` / ``G``: its top, its end), as on the full screens; its footer shows those keys. While
    more of it is below what the dialog shows, a line at the dialog's foot says so
    (:data:`MORE_BELOW`); none when it fits or is scrolled to its end."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    BINDINGS: ClassVar[list[BindingType]] = bindings("help")

    DEFAULT_CSS = """
    #help-frame {
        width: 72;
        max-width: 95%;
        height: 85%;
        border: thick $accent;
        background: $surface;
        padding: 1 2 0 2;
    }
    #help-dialog {
        height: 1fr;
    }
    #help-more {
        width: 100%;
        height: 1;
        text-align: right;
        color: $text-warning;
        text-style: bold;
    }
    """

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        with Vertical(id="help-frame") as frame:
            # As wide as its widest line where the terminal has room (no binding id wrapped onto
            # a line of its own on a wide terminal); the style sheet's 95 % at most.
            frame.styles.width = self._widest + _FRAME_CELLS
            with VerticalScroll(id="help-dialog"):
                yield Static(self._content(self._text_width()), id="help-body")
            yield Label("", id="help-more")
        yield PaperFooter()

    def on_resize(self) -> None:
        """Wrap the help again for the terminal's new width (:meth:`_content`)."""
        self.query_one("#help-body", Static).update(self._content(self._text_width()))

    @cached_property
    def _widest(self) -> int:
        """The cells of the help's widest line, unwrapped (72 at least: the dialog's width)."""
        return max(72 - _FRAME_CELLS, *(cell_len(line) for line in self._content(None).plain.splitlines()))

    def _text_width(self) -> int:
        """The cells the help's lines have in the dialog at the terminal's width: the frame is as
        wide as the widest line, 95 % of the terminal at most, less its border, padding and
        scroll bar."""
        frame = min(self._widest + _FRAME_CELLS, self.app.size.width * 95 // 100)
        return max(1, frame - _FRAME_CELLS)

    def on_mount(self) -> None:
        dialog = self.query_one("#help-dialog", VerticalScroll)
        self.watch(dialog, "scroll_y", self._show_more, init=False)
        self.watch(dialog, "virtual_size", self._show_more, init=False)
        self.watch(dialog, "size", self._show_more, init=False)
        self.call_after_refresh(self._show_more)

    def _show_more(self) -> None:
        """Say :data:`MORE_BELOW` while the help goes on below the dialog; else nothing."""
        dialog = self.query_one("#help-dialog", VerticalScroll)
        below = dialog.scroll_y < dialog.max_scroll_y
        self.query_one("#help-more", Label).update(MORE_BELOW if below else "")

    def _content(self, width: int | None) -> Content:
        """The help's text, each line wrapped to ``width`` cells (``None``: unwrapped) at a space,
        its continuation indented (:func:`_wrapped`): a key's description under the description
        column, its id (``[main.undo_import]``) never cut; a filter bar line under its example."""
        lines: list[Content] = [Content.styled("paperdeck — keys", "bold $text-accent"), Content("")]
        for heading, help_lines in self._sections:
            lines.extend(_wrapped(("", ""), [(heading, "bold underline")], width, indent=0))
            for line in help_lines:
                shown = [one_line(key_display(self.app, key)) for key in line.keys]
                keys = f"{shown[0]}…{shown[-1]}" if line.compact and shown else " / ".join(shown)
                ident = f"  [{line.ident}]" if line.ident else ""
                # A column of 18 cells; longer keys (remapped view digits) keep a space before the text.
                keys_part = f"  {keys:<18}" if len(keys) < 18 else f"  {keys} "
                head, parts = (keys_part, "bold $text-warning"), [(line.description, "")]
                lines.extend(_wrapped(head, parts, width, indent=_KEYS_CELLS, tail=(ident, "dim")))
            lines.append(Content(""))
        from paperdeck.search.query import QUERY_HELP

        lines.append(Content.styled("The filter bar", "bold underline"))
        for text in QUERY_HELP.rstrip().splitlines():
            lead = len(text) - len(text.lstrip(" "))
            lines.extend(_wrapped((text[:lead], ""), [(text[lead:], "")], width, indent=lead + 2 if lead else 0))
        lines.append(Content(""))
        closing = "Remap keys by id in config.json (see docs/keys.md). Press escape to close."
        lines.extend(_wrapped(("", ""), [(closing, "dim")], width, indent=0))
        return Content("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        """Scroll the help ``lines`` down (negative: up), as ``j`` / ``k`` do on the full screens."""
        self.query_one("#help-dialog", VerticalScroll).scroll_relative(y=lines, animate=False, immediate=True)

    def action_scroll_to_end(self, bottom: int) -> None:
        """Scroll the help to its top (``0``) or its end (``1``)."""
        scroll_to_end(self.query_one("#help-dialog", VerticalScroll), bottom)
