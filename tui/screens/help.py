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

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Static(self._content(), id="help-body")

    def _content(self) -> Content:
        lines: list[Content] = [Content.styled("paperdeck — keys", "bold $text-accent"), Content("")]
        for heading, declared in self._sections:
            lines.append(Content.styled(heading, "bold underline"))
            for binding in _bindings(declared):
                keys = " / ".join(self.app.get_key_display(Binding(key, "")) for key in binding.key.split(","))
                lines.append(Content.assemble((f"  {keys:<18}", "bold $text-warning"), binding.description))
            lines.append(Content(""))
        lines.append(Content.styled("Press escape to close.", "dim"))
        return Content("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)
