"""The footer: the keys in effect, with the way back, Help and Quit kept in view at every width.

Textual's ``Footer`` lays the keys out left to right in binding order (the focused widget's,
then the screen's, then the app's) and cuts off what does not fit, so at 80 columns the app's
``? Help`` and ``q Quit`` were the first to go (and at 40, a full-screen view's ``esc Back``).
Here they sit in a group docked at the right, which the other keys run under instead; a key
that would be cut there is not shown at all.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer

from paperdeck.ui._lines.watchers import drop_gone_watchers

#: The actions whose keys the footer always shows: a screen's way back, the app's help and quit.
ALWAYS_SHOWN = ("close", "help", "quit")

#: The app's actions whose keys are characters: text in a screen where the keys typed are text
#: (the note editor), so not shown in its footer.
TYPED_THERE = ("help", "quit")


class PaperFooter(Footer):
    """A ``Footer`` whose Back, Help and Quit keys never drop off (``ALWAYS_SHOWN``).

    Args:
        typing: the footer of a screen whose keys are typed as text (the note editor): the app's
            keys that are characters (``TYPED_THERE``: ``?``, ``q``) are text there, not shown.
    """

    DEFAULT_CSS = """
    PaperFooter #always-shown {
        dock: right;
        width: auto;
        height: 1;
        background: $footer-background;
    }
    """

    def __init__(self, *, typing: bool = False) -> None:
        super().__init__()
        self._typing = typing

    def compose(self) -> ComposeResult:
        kept: list[tuple[int, Widget]] = []
        for widget in super().compose():
            action = getattr(widget, "action", None)  # a key of the footer (FooterKey)
            if self._typing and action in TYPED_THERE:
                continue
            if action in ALWAYS_SHOWN:
                kept.append((ALWAYS_SHOWN.index(action), widget))
            elif widget.has_class("-command-palette"):
                kept.append((len(ALWAYS_SHOWN), widget))
            else:
                yield widget
        if kept:
            with HorizontalGroup(id="always-shown"):
                yield from (widget for _, widget in sorted(kept, key=lambda pair: pair[0]))

    def on_mount(self) -> None:
        """Take the screen's keys now (Textual's ``Footer.on_mount``, which also runs, only
        subscribes to their changes): the main screen mounts its footer after the first frame, by
        when the screen has published its keys, and without this the footer stayed empty until
        the next change of focus."""
        self.bindings_changed(self.screen)

    async def recompose(self) -> None:
        await super().recompose()
        drop_gone_watchers(self, "compact")  # the keys of the composition before (Textual #6666)
        self._hide_cut_keys()

    def on_resize(self) -> None:
        self._hide_cut_keys()

    def _other_keys(self) -> list[Widget]:
        return [child for child in self.children if child.id != "always-shown"]

    def _hide_cut_keys(self) -> None:
        """Hide the keys that do not fit whole left of the group kept in view (and all after them).

        The cells are counted from the keys' own widths (content, padding, border, margin), not
        from the regions of the last layout, which a footer recomposed on a screen in the
        background (under a dialog or a toast) did not have yet."""
        # Among the children, not through query_one: its cache keeps the group of every earlier
        # composition (keyed by the children's count of updates) and, with it, all its keys.
        kept = next((child for child in self.children if child.id == "always-shown"), None)
        if kept is None:
            return
        limit = (self.size.width or self.app.size.width) - sum(map(_cells, kept.children))
        used, cut = 0, False
        for key in self._other_keys():
            used += _cells(key)
            cut = cut or used > limit
            key.display = not cut


def _cells(widget: Widget) -> int:
    """The cells ``widget`` takes across in a row of auto-width widgets."""
    styles = widget.styles
    return widget.get_content_width(Size(0, 0), Size(0, 0)) + styles.gutter.width + styles.margin.width
