"""The dialogs of following (:mod:`paperdeck.ui.screens.follows`): the author picker (``a``), the
keyword prompt (``K``) and the list of follows (``F``, where ``d`` unfollows). Imported when one
first opens: none is part of the main screen's first frame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from paperdeck.model.safe_text import one_line
from paperdeck.paths import dialog_style_sheets
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.choices import ChoiceDialog
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.widgets.one_line_input import OneLineInput, closed_if_empty, keep_drafts

if TYPE_CHECKING:
    from paperdeck.store.follows import Follow


class AuthorPicker(ChoiceDialog[str | None]):
    """Pick one of a paper's authors to follow; dismisses with the name, or ``None``. A paper with
    more than :attr:`FILTER_FROM` authors gets a filter box, focused: typing narrows the list
    (:func:`~paperdeck.search.names.names_matching`: word starts, then fuzzy), ``up`` / ``down``
    move, ``enter`` follows the highlighted one; with fewer, the list alone (``j`` / ``k``)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("follow_author")  # cancel, j / k, up / down

    #: The most authors listed without a filter box.
    FILTER_FROM = 10

    DEFAULT_CSS = """
    #authors {
        height: auto;
        max-height: 16;
    }
    """

    def __init__(self, authors: Sequence[str]) -> None:
        super().__init__()
        self._authors = list(authors)
        #: The indexes of the authors listed, in the list's order (the filter's matches).
        self._shown = list(range(len(self._authors)))

    def compose(self) -> ComposeResult:
        with Vertical(id="author-dialog", classes="prompt"):
            count = len(self._authors)
            yield Label(f"Follow which author? ({count})" if count > self.FILTER_FROM else "Follow which author?",
                        classes="prompt-title")  # fmt: skip
            if count > self.FILTER_FROM:
                yield OneLineInput(placeholder="type a name to filter", id="author-filter")
            yield OptionList(*self._options(), id="authors")
            yield Label("enter follows · escape cancels", id="author-hint", classes="prompt-help")

    def on_mount(self) -> None:
        if len(self._authors) > self.FILTER_FROM:
            self.query_one("#author-filter", Input).focus()

    def _options(self) -> list[Option]:
        return [Option(Content(one_line(self._authors[n])), id=str(n)) for n in self._shown]

    @on(Input.Changed, "#author-filter")
    def _filter(self, event: Input.Changed) -> None:
        """List the authors the typed text finds (all of them for none), the first highlighted."""
        from paperdeck.search.names import names_matching

        self._shown = names_matching(event.value, self._authors)
        options = self.query_one("#authors", OptionList)
        options.clear_options()
        options.add_options(self._options())
        if self._shown:
            options.highlighted = 0
        hint = "enter follows · escape cancels" if self._shown else "no author matches · escape cancels"
        self.query_one("#author-hint", Label).update(hint)

    @on(Input.Submitted, "#author-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        """``enter`` in the filter box follows the highlighted author (nothing when none matches)."""
        index = self.query_one("#authors", OptionList).highlighted
        if index is not None and index < len(self._shown):
            self.dismiss(self._authors[self._shown[index]])

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._authors[self._shown[event.option_index]])

    def action_cancel(self) -> None:
        self.dismiss(None)


class KeywordPrompt(ModalScreen[str | None]):
    """Ask for a keyword to follow; dismisses with it, or ``None`` on escape."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    BINDINGS: ClassVar[list[BindingType]] = bindings("follow_keyword")

    def compose(self) -> ComposeResult:
        with Vertical(id="keyword-dialog", classes="prompt"):
            yield Label("Follow a keyword", classes="prompt-title")
            yield Label(
                "Papers with it in the title, keywords or abstract are marked.", classes="prompt-help prompt-about"
            )
            yield OneLineInput(
                placeholder="e.g. diffusion, graph neural network", id="keyword-input", draft=("follow_keyword",)
            )
            yield Label("enter follows · escape cancels", id="keyword-hint", classes="prompt-help")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Follow the keyword typed; nothing typed closes the prompt with one line, nothing
        followed (:func:`~paperdeck.ui.widgets.one_line_input.closed_if_empty`)."""
        if closed_if_empty(self, event.value, "No keyword typed: nothing followed."):
            return
        self.dismiss(event.value)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.query_one("#keyword-hint", Label).update("enter follows · escape cancels")

    def action_cancel(self) -> None:
        keep_drafts(self)
        self.dismiss(None)


class FollowsScreen(ChoiceDialog["Follow | None"]):
    """The follows with how many papers each matches; ``enter`` dismisses with the highlighted one
    (the caller shows its papers), ``d`` unfollows one (after asking); escape dismisses with
    ``None``.

    Args:
        follows: the follows, in the order followed.
        counts: how many papers each matches now; one left out is being counted (shown ``…``
            until :meth:`show_counts` gives its count).
        unfollow: stop following one; returns the follows left.
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings("follows")  # close, unfollow, j / k

    def __init__(
        self, follows: Sequence[Follow], counts: dict[Follow, int], unfollow: Callable[[Follow], Sequence[Follow]]
    ) -> None:
        super().__init__()
        self._follows = list(follows)
        self._counts = counts
        self._unfollow = unfollow

    def compose(self) -> ComposeResult:
        with Vertical(id="follows-dialog", classes="prompt"):
            yield Label("Following", classes="prompt-title")
            yield OptionList(id="follows", classes="dialog-options")
            yield Label("enter shows its papers · d unfollows · escape closes", classes="prompt-help")

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted or 0
        options.clear_options()
        if not self._follows:
            text = "Nothing followed yet: a follows an author of the highlighted paper, K a keyword."
            options.add_option(Option(Content(text), disabled=True))
            return
        for follow in self._follows:
            count = self._counts.get(follow)
            shown = f"{count:>6,}" if count is not None else f"{'…':>6}"
            options.add_option(Option(Content(f"{shown}  {one_line(follow.label)}")))
        options.highlighted = min(highlighted, len(self._follows) - 1)

    def show_counts(self, counts: dict[Follow, int]) -> None:
        """Show these counts (a match of the follows landed while the list was open)."""
        self._counts = counts
        self._fill()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if self._follows:
            self.dismiss(self._follows[event.option_index])

    def action_unfollow(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self._follows:
            return
        follow = self._follows[index]

        def answered(yes: bool | None) -> None:
            if yes:
                self._follows = list(self._unfollow(follow))
                self._fill()

        question = one_line(f"Stop following {follow.label}? u cannot undo this: follow it again to have it back.")
        self.app.push_screen(ConfirmScreen(question, yes="Unfollow"), answered)

    def action_close(self) -> None:
        self.dismiss(None)
