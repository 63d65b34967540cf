"""The dialogs' one-line inputs (the tag, keyword, export path and view name prompts): an
``Input`` whose paste of several lines is put in as one line
(:class:`~paperdeck.ui.widgets.one_line_paste.OneLinePaste`); the filter bar has the same rule
without this class (:class:`~paperdeck.ui.widgets.filter_bar.FilterBar`).

Every such prompt reads ``enter`` on an empty box the same way (:func:`closed_if_empty`): it
closes, saying in one line that nothing was done. A prompt that stayed open would take the keys
typed next (``/``, a query) as its answer.

An input given a ``draft`` key keeps what was typed when its prompt is closed with escape
(:meth:`OneLineInput.keep_draft`, :mod:`paperdeck.ui.drafts`): opened again with that key, it
shows the draft selected, so that typing replaces it and ← → edit it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.screen import ModalScreen
from textual.widgets import Input

from paperdeck.ui.drafts import drafts_of
from paperdeck.ui.widgets.one_line_paste import OneLinePaste, joined_lines


class OneLineInput(OneLinePaste, Input):
    """An ``Input`` whose paste keeps every line (:class:`OneLinePaste`); with a ``draft`` key,
    one that shows the draft kept under that key (selected whole: select-on-focus) in place of
    its ``value``, and drops it when its prompt closes other than by :meth:`keep_draft`."""

    def __init__(self, value: str | None = None, *args: Any, draft: Hashable | None = None, **kwargs: Any) -> None:
        super().__init__(value, *args, **kwargs)
        self._draft_key = draft
        self._draft_kept = False

    def on_mount(self) -> None:
        if self._draft_key is not None:
            draft = drafts_of(self.app).get(self._draft_key)
            if isinstance(draft, str):
                self.value = draft

    def keep_draft(self) -> None:
        """Keep the text typed (not blank) as the draft for the next prompt with this key (its
        prompt closed with escape); nothing without a key."""
        if self._draft_key is None:
            return
        self._draft_kept = True
        if self.value.strip():
            drafts_of(self.app)[self._draft_key] = self.value
        else:
            drafts_of(self.app).pop(self._draft_key, None)

    def on_unmount(self) -> None:
        if self._draft_key is not None and not self._draft_kept:
            drafts_of(self.app).pop(self._draft_key, None)


def keep_drafts(prompt: ModalScreen[Any]) -> None:
    """Keep the drafts of ``prompt``'s inputs (:meth:`OneLineInput.keep_draft`): it is being
    closed with escape."""
    for field in prompt.query(OneLineInput):
        field.keep_draft()


def closed_if_empty(prompt: ModalScreen[Any], typed: str, nothing_done: str) -> bool:
    """Close ``prompt`` (dismissed with ``None``, as escape does) and say ``nothing_done`` in one
    line when ``typed`` is empty or blank (blanks and commas only); ``True`` then. ``False``, doing
    nothing, when something was typed."""
    if typed.replace(",", " ").strip():
        return False
    prompt.notify(nothing_done, timeout=4, markup=False)
    prompt.dismiss(None)
    return True


__all__ = ["OneLineInput", "closed_if_empty", "joined_lines", "keep_drafts"]
