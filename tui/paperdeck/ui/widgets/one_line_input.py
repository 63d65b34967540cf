"""The dialogs' one-line inputs (the tag, keyword, export path and view name prompts): an
``Input`` whose paste of several lines is put in as one line
(:class:`~paperdeck.ui.widgets.one_line_paste.OneLinePaste`); the filter bar has the same rule
without this class (:class:`~paperdeck.ui.widgets.filter_bar.FilterBar`).

Every such prompt reads ``enter`` on an empty box the same way (:func:`closed_if_empty`): it
closes, saying in one line that nothing was done. A prompt that stayed open would take the keys
typed next (``/``, a query) as its answer.
"""

from __future__ import annotations

from typing import Any

from textual.screen import ModalScreen
from textual.widgets import Input

from paperdeck.ui.widgets.one_line_paste import OneLinePaste, joined_lines


class OneLineInput(OneLinePaste, Input):
    """An ``Input`` whose paste keeps every line (:class:`OneLinePaste`)."""


def closed_if_empty(prompt: ModalScreen[Any], typed: str, nothing_done: str) -> bool:
    """Close ``prompt`` (dismissed with ``None``, as escape does) and say ``nothing_done`` in one
    line when ``typed`` is empty or blank (blanks and commas only); ``True`` then. ``False``, doing
    nothing, when something was typed."""
    if typed.replace(",", " ").strip():
        return False
    prompt.notify(nothing_done, timeout=4, markup=False)
    prompt.dismiss(None)
    return True


__all__ = ["OneLineInput", "closed_if_empty", "joined_lines"]
