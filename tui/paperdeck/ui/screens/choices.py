"""What the dialogs that choose from a list (the views ``v``, the follows ``F``, the author picker
``a``, the link chooser ``o``) share: their one :class:`~textual.widgets.OptionList` moved through
with ``j`` and ``k`` as well as the arrows, as the paper list is."""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, TypeVar

from textual.screen import ModalScreen
from textual.widgets import OptionList

from paperdeck.paths import dialog_style_sheets

_T = TypeVar("_T")


class ChoiceDialog(ModalScreen[_T]):
    """A modal screen holding one option list; ``move(step)`` moves its highlight (bound to ``j``/``k``
    by each dialog's own rows of the command table, ``PREFIX.down`` and ``PREFIX.up``)."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()
