"""The detail pane's body: a module of its own, imported when the pane first shows a paper (or a
title while the catalogue loads), after the first frame, which does not make its class (see
docs/performance.md, "First paint, thirteenth round").
"""

from __future__ import annotations

from textual.widgets import Static

from paperdeck.ui._lines.no_layout import set_by_layout_virtual_size


class DetailBody(Static):
    """The pane's text. Its virtual size is set by the layout its update asks for: the second
    layout and repaint Textual's reactive would ask for then (the screen laid out twice per paper
    shown) have nothing left to change."""

    virtual_size = set_by_layout_virtual_size()


__all__ = ["DetailBody"]
