"""A paste of several lines put into a one-line input as one line, declared once per field.

Textual's ``Input`` keeps only the first line of a paste, silently: a tag list, a query or a path
copied with its line ends lost the rest. :class:`OneLinePaste` puts every line in, each stripped of
the white space around it, blank lines dropped, joined by the field's :attr:`~OneLinePaste.NEWLINE`
(a space, unless the field says otherwise), and cut where the field is full (its ``max_length``),
at the cursor or over the selection, as Input puts a paste.

A plain class, laid before ``Input`` in a field's bases (the filter bar's, and
:class:`~paperdeck.ui.widgets.one_line_input.OneLineInput`, the dialogs' fields): the filter bar
is made without a Textual class between it and ``Input`` (see docs/performance.md, "First paint,
thirteenth round").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from textual import events
    from textual.widgets import Input

    _Field = Input
else:
    _Field = object


def joined_lines(text: str, newline: str = " ") -> str:
    """``text`` as one line: its lines stripped of the white space around them, blank lines
    dropped, joined by ``newline``."""
    return newline.join(line.strip() for line in text.splitlines() if line.strip())


class OneLinePaste(_Field):
    """A paste that keeps every line (see the module), for a subclass of ``Input`` that names this
    class before ``Input`` among its bases."""

    #: What each line end of a paste becomes in this field: words (a query, tags, a keyword, a
    #: name) are joined by a space; a field where a space would change the value says otherwise.
    NEWLINE: ClassVar[str] = " "

    def _on_paste(self, event: events.Paste) -> None:
        """Put in the paste as one line (:func:`joined_lines` by :attr:`NEWLINE`), cut where the
        field is full, at the cursor or over the selection; Input's own paste (the first line
        alone) is not run. Then :meth:`pasted` is told what was put in."""
        event.stop()
        event.prevent_default()
        text = joined_lines(event.text, self.NEWLINE)
        start, end = sorted(self.selection)
        if self.max_length:
            text = text[: max(self.max_length - (len(self.value) - (end - start)), 0)]
        if not text:
            return
        self.replace(text, start, end)
        self.pasted(text)

    def pasted(self, text: str) -> None:
        """``text`` (not empty) was pasted in; nothing by default."""


__all__ = ["OneLinePaste", "joined_lines"]
