"""Saved views: the list of views with live counts (``v``) and the prompt that saves one (``w``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from paperdeck.model.safe_text import one_line
from paperdeck.paths import dialog_style_sheets
from paperdeck.search.views import NAME_MAX, View, clean_name
from paperdeck.text.steady_width import steady_width
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.choices import ChoiceDialog
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.widgets.one_line_input import OneLineInput, closed_if_empty, keep_drafts


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells (with an ellipsis) and padded to it, in a form every
    terminal draws as wide as Rich counts it (:func:`~paperdeck.text.steady_width.steady_width`)."""
    text = steady_width(text)
    if cell_len(text) > width:
        while text and cell_len(text) > width - 1:
            text = text[:-1]
        text += "…"
    return text + " " * (width - cell_len(text))


class ViewsScreen(ChoiceDialog[View | None]):
    """The views with live counts; dismisses with the view to open (enter or its digit), or ``None``.

    Args:
        views: the views, in digit order (:func:`paperdeck.search.views.all_views`).
        count: how many papers a view shows now (``None`` when unknown); called in a thread.
        delete: forget the user's view of that name; returns the views left.
        rename: call the user's view ``name`` ``new name`` (``rename(name, new_name)``); returns the
            views as they are then. ``None``: the list offers no rename.
        scope: the venue scope the counts are within, as the top bar names it (``"COLM 2025"``;
            ``""``: every venue); the title says it (``"Views · counts in COLM 2025"``), since a
            view opens within the scope.
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings("views")  # close, delete, rename, j / k, 1–9

    def __init__(
        self,
        views: Sequence[View],
        count: Callable[[View], int | None],
        delete: Callable[[str], Sequence[View]],
        scope: str = "",
        rename: Callable[[str, str], Sequence[View]] | None = None,
    ) -> None:
        super().__init__()
        self._rename = rename
        self._scope = scope
        self._views = list(views)
        self._count = count
        self._delete = delete
        self._counts: dict[str, int | None] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="views-dialog", classes="prompt"):
            title = f"Views · counts in {one_line(self._scope)}" if self._scope else "Views"
            yield Label(title, classes="prompt-title", markup=False)
            yield OptionList(id="views", classes="dialog-options")
            help_text = "enter or 1–9 opens · r renames · d deletes · escape closes"
            yield Label(help_text, classes="prompt-help")

    def on_mount(self) -> None:
        self._fill()
        self._count_views()
        self.call_after_refresh(self._fill)  # laid out: the query column fits the list's width

    def on_resize(self) -> None:
        self._fill()

    def _fill(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted or 0
        options.clear_options()
        for n, view in enumerate(self._views):
            options.add_option(Option(self._label(n, view), id=view.name))
        if self._views:
            options.highlighted = min(highlighted, len(self._views) - 1)

    def _label(self, n: int, view: View) -> Content:
        """Row ``n`` (from 0): digit, name, query, count (``…`` while counting, ``?`` unknown)."""
        key = str(n + 1) if n < 9 else " "
        count = self._counts.get(view.name, -1)
        shown = "…" if count == -1 else "?" if count is None else f"{count:,}"
        query = f"{_fit(one_line(view.query), room)} " if (room := self._query_room()) >= 8 else ""
        return Content(f"{key}  {_fit(one_line(view.name), 18)} {query}{shown:>7}")

    def _query_room(self) -> int:
        """Cells for the query column: up to 30, what the list's width leaves beside the digit, the
        name and the count (30 before the list is laid out); under 8 the column is left out."""
        width = self.query_one(OptionList).scrollable_content_region.width
        return 30 if width <= 0 else min(30, width - 30)

    @work(thread=True, exclusive=True, group="view-counts")
    def _count_views(self) -> None:
        for view in list(self._views):
            counted = self._count(view)
            self.app.call_from_thread(self._counted, view.name, counted)

    def _counted(self, name: str, count: int | None) -> None:
        self._counts[name] = count
        options = self.query_one(OptionList)
        for n, view in enumerate(self._views):
            if view.name == name:
                options.replace_option_prompt_at_index(n, self._label(n, view))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._views[event.option_index])

    def action_open(self, number: int) -> None:
        if number <= len(self._views):
            self.dismiss(self._views[number - 1])

    def action_delete(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None:
            return
        view = self._views[index]
        if view.builtin:
            self.notify(f"{view.name} is built in; it cannot be deleted.")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._views = list(self._delete(view.name))
                self._counts = {}  # a built-in view may be back under the same name: count again
                self._fill()
                self._count_views()

        question = one_line(
            f"Delete the view {view.name!r} ({view.query})? u cannot undo this, and the views after it "
            "move up one digit."
        )
        self.app.push_screen(ConfirmScreen(question, yes="Delete"), answered)

    def action_rename(self) -> None:
        """Ask for a new name for the highlighted view (one of the user's), in a prompt holding
        its name; the view keeps its place, digit, query and sort."""
        index = self.query_one(OptionList).highlighted
        if index is None or self._rename is None:
            return
        view = self._views[index]
        if view.builtin:
            self.notify(f"{view.name} is built in; it cannot be renamed.")
            return
        rename = self._rename

        def answered(name: str | None) -> None:
            if name is None or name == view.name:
                return
            self._views = list(rename(view.name, name))
            self._counts = {}
            self._fill()
            self._count_views()

        taken = [other.name for other in self._views if other is not view]
        self.app.push_screen(SaveViewPrompt(view.query, taken, name=view.name), answered)

    def action_close(self) -> None:
        self.dismiss(None)


class SaveViewPrompt(ModalScreen[str | None]):
    """Ask for a name for ``query``; dismisses with the cleaned name, or ``None`` on escape.

    With ``name`` (a view's name), it renames that view: the box holds the name, and a name
    ``taken`` by another view is refused (a rename never replaces a view); else a name taken asks
    for enter again, which replaces that view."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    BINDINGS: ClassVar[list[BindingType]] = bindings("save_view")

    def __init__(self, query: str, taken: Sequence[str], *, name: str = "") -> None:
        super().__init__()
        self._query = query
        self._name = name
        self._taken = {name.casefold(): name for name in taken}
        self._replace: str | None = None  # a taken name, once the user was told

    def compose(self) -> ComposeResult:
        with Vertical(id="save-view-dialog", classes="prompt"):
            title = f"Rename the view {one_line(self._name)!r}" if self._name else "Save the filter as a view"
            yield Label(title, classes="prompt-title", markup=False)
            yield Label(f"Query: {one_line(self._query)}", markup=False, classes="prompt-help")
            yield OneLineInput(
                self._name,
                placeholder="name, e.g. Orals to read",
                max_length=NAME_MAX,
                id="view-name",
                draft=("rename_view", self._name) if self._name else ("save_view", self._query),
            )
            yield Label(self._hint(), id="view-hint", classes="prompt-help")

    def _hint(self) -> str:
        return f"enter {'renames' if self._name else 'saves'} · escape cancels"

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Save under the name typed; nothing typed closes the prompt with one line, no view
        saved (:func:`~paperdeck.ui.widgets.one_line_input.closed_if_empty`); a name taken asks
        for enter again."""
        nothing = "No name typed: the view was not renamed." if self._name else "No name typed: the view was not saved."
        if closed_if_empty(self, event.value, nothing):
            return
        hint = self.query_one("#view-hint", Label)
        try:
            name = clean_name(event.value)
        except ValueError as error:
            hint.update(f"⚠ {error}")
            return
        taken = self._taken.get(name.casefold())
        if taken is not None and self._name:
            hint.update(f"⚠ {taken!r} exists: pick another name")
            return
        if taken is not None and self._replace != name.casefold():
            self._replace = name.casefold()
            hint.update(f"⚠ {taken!r} exists: enter again replaces it")
            return
        self.dismiss(name)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._replace = None
        full = f"⚠ a name holds up to {NAME_MAX} characters · " if len(event.value) >= NAME_MAX else ""
        self.query_one("#view-hint", Label).update(f"{full}{self._hint()}")

    def action_cancel(self) -> None:
        keep_drafts(self)
        self.dismiss(None)
