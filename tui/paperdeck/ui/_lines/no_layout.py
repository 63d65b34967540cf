"""Size changes that repaint what they change without laying out the screen.

Textual's ``Widget.virtual_size`` is a reactive that lays out the whole screen when set. Two
widgets set it at nearly every keystroke, and nothing outside them depends on it.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.scroll_view import ScrollView


def repaint_only_virtual_size() -> Reactive[Size]:
    """A ``virtual_size`` reactive that repaints the widget and lays out nothing: assigned in a
    widget class's body it replaces Textual's ``Widget.virtual_size`` for that class (an
    ``Input`` sets it, the text's width for scrolling sideways, at every change of its text)."""
    return Reactive(Size(0, 0), layout=False)


def set_by_layout_virtual_size() -> Reactive[Size]:
    """A ``virtual_size`` reactive that neither lays out nor repaints: for a widget whose virtual
    size only a layout sets (a container, a ``Static`` in one). That layout has placed it and
    repaints what it moved; Textual's reactive would lay the screen out once more, with nothing
    left to change, and repaint it again."""
    return Reactive(Size(0, 0), layout=False, repaint=False)


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Set ``view``'s virtual size to ``size`` and update its scrollbars as a layout would
    (Textual's ``Widget._scroll_update``), without the layout and the repaint of every line the
    reactive asks for; a scrollbar appearing or going lays out itself."""
    view.set_reactive(type(view).virtual_size, size)
    view._scroll_update(size)
