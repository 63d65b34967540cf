"""The filter bar: a one-line input whose every change re-ranks the list."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input


class FilterBar(Input):
    """Fuzzy filter input. Posts :class:`Leave` when the user is done with it (enter, down, escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave(True)", "Clear filter", show=False, id="filter.clear"),
        Binding("down", "leave(False)", "To the list", show=False, id="filter.to_list"),
    ]

    class Leave(Message):
        """Focus should go back to the list; ``clear`` asks for the filter to be emptied."""

        def __init__(self, clear: bool) -> None:
            super().__init__()
            self.clear = clear

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="Filter papers — type to search titles, abstracts and notes  ( / )",
            id=id,
            select_on_focus=False,
        )

    def action_leave(self, clear: bool) -> None:
        self.post_message(self.Leave(clear))

    async def action_submit(self) -> None:
        self.post_message(self.Leave(False))
