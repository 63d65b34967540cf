"""The footer: the keys in effect, with Help and Quit kept in view at every width.

Textual's ``Footer`` lays the keys out left to right in binding order (the focused widget's,
then the screen's, then the app's) and cuts off what does not fit, so at 80 columns the app's
``? Help`` and ``q Quit`` were the first to go. Here they sit in a group docked at the right,
which the other keys run under instead; a key that would be cut there is not shown at all.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Footer

#: The actions whose keys the footer always shows (the app's help and quit).
ALWAYS_SHOWN = ("help", "quit")


class PaperFooter(Footer):
    """A ``Footer`` whose Help and Quit keys never drop off (``ALWAYS_SHOWN``)."""

    DEFAULT_CSS = """
    PaperFooter #always-shown {
        dock: right;
        width: auto;
        height: 1;
        background: $footer-background;
    }
    """

    def compose(self) -> ComposeResult:
        kept: list[tuple[int, Widget]] = []
        for widget in super().compose():
            action = getattr(widget, "action", None)  # a key of the footer (FooterKey)
            if action in ALWAYS_SHOWN:
                kept.append((ALWAYS_SHOWN.index(action), widget))
            elif widget.has_class("-command-palette"):
                kept.append((len(ALWAYS_SHOWN), widget))
            else:
                yield widget
        if kept:
            with HorizontalGroup(id="always-shown"):
                yield from (widget for _, widget in sorted(kept, key=lambda pair: pair[0]))

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._hide_cut_keys)

    def on_resize(self) -> None:
        for key in self._other_keys():
            key.display = True  # laid out again, then those cut are hidden
        self.call_after_refresh(self._hide_cut_keys)

    def _other_keys(self) -> list[Widget]:
        return [child for child in self.children if child.id != "always-shown"]

    def _hide_cut_keys(self) -> None:
        """Hide the keys that do not fit left of the group kept in view (and all after them)."""
        try:
            limit = self.query_one("#always-shown").region.x
        except NoMatches:
            return
        cut = False
        for key in self._other_keys():
            cut = cut or key.region.right > limit
            if cut and key.display:
                key.display = False
