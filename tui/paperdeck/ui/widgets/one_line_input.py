"""The dialogs' one-line inputs (the tag, keyword, export path and view name prompts): an
``Input`` whose paste of several lines is put in as one line
(:class:`~paperdeck.ui.widgets.one_line_paste.OneLinePaste`); the filter bar has the same rule
without this class (:class:`~paperdeck.ui.widgets.filter_bar.FilterBar`).
"""

from __future__ import annotations

from textual.widgets import Input

from paperdeck.ui.widgets.one_line_paste import OneLinePaste, joined_lines


class OneLineInput(OneLinePaste, Input):
    """An ``Input`` whose paste keeps every line (:class:`OneLinePaste`)."""


__all__ = ["OneLineInput", "joined_lines"]
