"""The help screen: every key, grouped by where it works, built from the bindings themselves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

#: One help section: a heading and the bindings it lists.
HelpSection = tuple[str, Sequence[BindingType]]


def _bindings(declared: Iterable[BindingType]) -> list[Binding]:
    return [binding for binding in declared if isinstance(binding, Binding) and binding.description]


class HelpScreen(ModalScreen[None]):
    """Lists the keys of each section; ``escape``, ``q`` or ``?`` closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close"),
    ]

    def __init__(self, sections: Sequence[HelpSection], keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self._sections = sections
        self._keymap = keymap or {}

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Static(self._content(), id="help-body")

    def _content(self) -> Content:
        lines: list[Content] = [Content.styled("paperdeck — keys", "bold $text-accent"), Content("")]
        for heading, declared in self._sections:
            lines.append(Content.styled(heading, "bold underline"))
            for binding in _bindings(declared):
                in_effect = self._keymap.get(binding.id or "", binding.key)
                keys = " / ".join(self.app.get_key_display(Binding(key.strip(), "")) for key in in_effect.split(","))
                ident = f"  [{binding.id}]" if binding.id else ""
                lines.append(
                    Content.assemble((f"  {keys:<18}", "bold $text-warning"), binding.description, (ident, "dim"))
                )
            lines.append(Content(""))
        from paperdeck.search.query import QUERY_HELP

        lines.append(Content.styled("The filter bar", "bold underline"))
        lines.extend(Content(line) for line in QUERY_HELP.rstrip().splitlines())
        lines.append(Content(""))
        lines.append(Content.styled("Remap keys by id in config.json (see README). Press escape to close.", "dim"))
        return Content("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)
