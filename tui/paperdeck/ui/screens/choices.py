"""What the dialogs that choose from a list (the views ``v``, the follows ``F``, the author picker
``a``, the link chooser ``o``) share: their one :class:`~textual.widgets.OptionList` moved through
with ``j`` and ``k`` as well as the arrows, as the paper list is."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import OptionList

_T = TypeVar("_T")


def move_bindings(prefix: str) -> list[Binding]:
    """``j`` and ``k`` bound to ``move(1)`` and ``move(-1)``, with the ids ``PREFIX.down`` and
    ``PREFIX.up`` (a dialog's commands are named by its prefix): for a :class:`ChoiceDialog`'s
    ``BINDINGS``."""
    return [
        Binding("j", "move(1)", "Down", show=False, id=f"{prefix}.down"),
        Binding("k", "move(-1)", "Up", show=False, id=f"{prefix}.up"),
    ]


class ChoiceDialog(ModalScreen[_T]):
    """A modal screen holding one option list; ``move(step)`` moves its highlight (bound to ``j``/``k``
    by each dialog's own bindings, :func:`move_bindings`, whose ids are its commands')."""

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()
