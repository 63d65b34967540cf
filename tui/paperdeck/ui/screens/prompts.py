"""Small modal prompts: tags (with completion of existing tags) and a link chooser."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from paperdeck.model.paper import BLANK_TAG, blank_tag, clean_tag, read_tags
from paperdeck.model.safe_text import one_line
from paperdeck.model.user import colon_refusal, colon_tag
from paperdeck.paths import dialog_style_sheets
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.choices import ChoiceDialog
from paperdeck.ui.widgets.one_line_input import OneLineInput, closed_if_empty, keep_drafts


class TagSuggester(Suggester):
    """Completes the last word typed with an existing tag (``-`` prefix kept, for removals)."""

    def __init__(self, tags: Sequence[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._tags = list(tags)

    async def get_suggestion(self, value: str) -> str | None:
        head, _, last = value.rpartition(" ")
        sign = "-" if last.startswith("-") else ""
        stem = last.removeprefix("-").casefold()
        if not stem:
            return None
        for tag in self._tags:
            if tag.startswith(stem) and tag != stem:
                return f"{head} {sign}{tag}".lstrip() if head else f"{sign}{tag}"
        return None


class TagPrompt(ModalScreen[tuple[list[str], list[str]] | None]):
    """Ask for tags: ``deep-learning  to-cite`` (or ``deep-learning, to-cite``) adds, ``"my tag"``
    adds one tag (``my-tag``), ``-to-cite`` removes; → (add, remove), read by
    :func:`~paperdeck.model.user.read_tags`."""

    CSS_PATH: ClassVar[list[str | PurePath]] = dialog_style_sheets()  # read as the first dialog opens

    BINDINGS: ClassVar[list[BindingType]] = bindings("tags")

    def __init__(
        self, what: str, current: Sequence[str], existing: Sequence[str], paper_ids: Sequence[str] = ()
    ) -> None:
        """``paper_ids``: the papers tagged; tags typed and left with escape come back as the
        prompt opens on the same papers again (:mod:`paperdeck.ui.drafts`)."""
        super().__init__()
        self._draft = ("tags", tuple(paper_ids))
        self._what = what
        self._current = current
        self._existing = existing

    def compose(self) -> ComposeResult:
        with Vertical(id="tag-dialog", classes="prompt"):
            yield Label(f"Tags for {self._what}", markup=False, classes="prompt-title")
            now = one_line(", ".join(self._current)) if self._current else "none yet"
            yield Label(f"Now: {now}", markup=False, classes="prompt-help")
            yield OneLineInput(
                placeholder="tag  another-tag  -tag-to-remove",
                suggester=TagSuggester(self._existing),
                id="tag-input",
                draft=self._draft,
            )
            yield Label("enter applies · → completes · escape cancels", classes="prompt-help")

    def action_apply(self) -> None:
        """Apply the tags typed. Nothing typed (an empty or blank box) closes the prompt with one
        line, no tag changed (:func:`~paperdeck.ui.widgets.one_line_input.closed_if_empty`); a
        lone ``-`` (a blank tag to remove), a quote left open, a tag longer than a tag may be or
        one holding a ``:`` is refused with one line (:func:`_refused`) and the prompt stays, the
        text kept (escape cancels).

        A priority binding: run as the key comes, before the keys typed after it are handed to
        the input (an Enter left to the input's own binding was handled after them, so that a
        fast ``ujt⏎jTtui8⏎`` made one tag ``ujtjttui8``)."""
        typed = self.query_one(Input).value
        if closed_if_empty(self, typed, "No tags typed: no tags changed."):
            return
        add, remove = read_tags(typed)  # `a, b` is two tags, `"a b"` one
        refused = _refused(typed, add, remove)
        if refused:
            self.notify(f"Not tagged: {refused} (escape cancels).", severity="warning", timeout=4, markup=False)
            return
        self.dismiss((add, remove))

    def action_cancel(self) -> None:
        keep_drafts(self)
        self.dismiss(None)


def _refused(typed: str, add: list[str], remove: list[str]) -> str:
    """Why the tags typed are not applied, in words (no file named), ``""`` when they are fine:
    nothing or a blank tag, a ``"`` not closed (as the filter bar says it), a tag longer than the
    store keeps (:data:`~paperdeck.store.user_fields.MAX_TAG_CHARS`), a tag to add holding a ``:``
    (:func:`~paperdeck.model.user.colon_tag`: ``tag:week1``, a query typed into the tags)."""
    from paperdeck.store.user_fields import MAX_TAG_CHARS

    if not (add or remove) or blank_tag(add + remove):
        return BLANK_TAG
    if typed.count('"') % 2:
        return 'a closing " is missing'
    longest = max((clean_tag(tag) for tag in add), key=len) if add else ""
    if len(longest) > MAX_TAG_CHARS:
        return f"a tag holds at most {MAX_TAG_CHARS} characters; this one would hold {len(longest):,}"
    if colon := colon_tag(add):
        return one_line(colon_refusal(colon))
    return ""


class LinkChooser(ChoiceDialog[str | None]):
    """Pick one of a paper's links; dismisses with its URL (or ``None``). The caller opens it, or
    copies it when there is no browser (:func:`paperdeck.ui.links.open_or_copy`)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("links")  # cancel, j / k

    DEFAULT_CSS = """
    #links {
        height: auto;
        max-height: 12;
    }
    """

    def __init__(self, links: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self._links = links

    def compose(self) -> ComposeResult:
        with Vertical(id="link-dialog", classes="prompt"):
            yield Label("Open which link?", classes="prompt-title")
            options = (Option(Content(f"{label}: {one_line(url)}"), id=url) for label, url in self._links)
            yield OptionList(*options, id="links")
            yield Label("enter opens it (no browser: copies it) · escape cancels", classes="prompt-help")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
