"""The counts beside the filter bar ("1,234 of 19,630 · ★ 12"), repainted alone at each keystroke.

A ``Static`` re-lays out the whole screen at every ``update``; this label asks for a layout only
when its width changes, and the main screen pads the number shown to the width of the total, so
that typing rarely changes it. Its line is drawn straight, not through Textual's content visual,
where that gives the same segments (``paperdeck.ui._lines.label``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget

from paperdeck.model.user import STATUSES
from paperdeck.ui._lines.label import straight_line
from paperdeck.ui._lines.no_layout import repaint_only_virtual_size


def counts_text(
    shown: int,
    total: int,
    *,
    filtered: bool,
    view: str | None,
    notes: Sequence[str],
    room: int | None = None,
    keep: Sequence[int] = (),
    pad: int = 0,
) -> str:
    """``"1,234 of 19,630 · ★ 12"``: papers shown of all (with the view's name when a saved view is
    shown), then the non-empty ``notes``. Filtered, the number shown is padded to the total's
    width, and the filtered and the unfiltered counts (``"19,630 papers"``) are padded on the left
    to the wider of the two, so that typing, its first letter too, rarely changes the label's
    width (each change lays the screen out again); ``pad``: as many more cells (a note's number
    narrower than it was). A view's name too long for ``room`` is cut, not its count; where a
    note would be left out, that padding goes first. See :func:`fitted` for ``room`` and ``keep``."""
    total_text = f"{total:,}"
    if view is not None:
        count = f": {shown:,} of {total_text}"
        if room is not None and cell_len(view + count) > room:  # the name gives way, never the count
            view = cut_at_word(view, max(room - cell_len(count), 1))
        text = view + count
    else:
        width = max(len(total_text) + len(" papers"), 2 * len(total_text) + len(" of "))
        papers = f"{total_text} paper" if total == 1 else f"{total_text} papers"
        text = f"{shown:>{len(total_text)},} of {total_text}" if filtered else papers
        text = text.rjust(width)
    text = " " * pad + text
    result = fitted(text, notes, room, keep)
    if room is not None and text[:1] == " " and any(note and note not in result for note in notes):
        return fitted(text.lstrip(), notes, room, keep)  # short of room: a note before the padding
    return result


def fitted(head: str, notes: Sequence[str], room: int | None = None, keep: Sequence[int] = ()) -> str:
    """``head`` and the non-empty ``notes`` joined by `` · `` in at most ``room`` cells (``None``:
    any width). Where they do not fit, notes are left out whole, the last of ``keep`` (indexes
    into ``notes``, most wanted first; notes not in it go before any in it) first; a head too
    long alone is cut at a word (:func:`cut_at_word`). A note left out that fits again once those
    after it are out is put back, most wanted first (a short star count beside the marks, where
    the sort's longer name did not fit)."""
    shown = [i for i, note in enumerate(notes) if note]
    order = [i for i in shown if i not in keep] + [i for i in reversed(keep) if i in shown]

    def joined() -> str:
        return " · ".join([head, *(notes[i] for i in shown)])

    left_out: list[int] = []
    while room is not None and cell_len(joined()) > room and order:
        left_out.append(order.pop(0))
        shown.remove(left_out[-1])
    if room is None:
        return joined()
    for index in reversed(left_out[:-1]):  # (the last left out made it fit: it cannot come back)
        shown.append(index)
        shown.sort()
        if cell_len(joined()) > room:
            shown.remove(index)
    return cut_at_word(joined(), room)


#: What a text cut at a word does not end in (before its ``…``).
_DANGLING = " ·—–-,;:("


def cut_at_word(text: str, room: int) -> str:
    """``text`` if it fits in ``room`` cells, else its words that do (and no dangling ``·``, dash or
    comma) then ``…``; a first word too long alone is cut where it must be."""
    if cell_len(text) <= room:
        return text
    if room <= 1:
        return "…"[:room]
    words = text.split(" ")
    kept = ""
    for n, word in enumerate(words):
        longer = f"{kept} {word}" if n else word
        if cell_len(longer.rstrip(_DANGLING)) + 1 > room:
            break
        kept = longer
    kept = kept.rstrip(_DANGLING)
    if not kept:  # one long word: cut inside it
        kept = text
        while cell_len(kept) + 1 > room:
            kept = kept[:-1]
    return kept + "…"


def wrapped(text: str, room: int, lines: int = 2) -> str:
    """``text`` in at most ``lines`` lines of ``room`` cells, broken at words (joined by ``\\n``),
    the last cut at a word (:func:`cut_at_word`) where even they do not hold it: a hint beside the
    filter bar whose end (its example) is the useful part. A text that fits one line is itself."""
    kept: list[str] = []
    words = text.split(" ")
    while len(kept) < lines - 1 and cell_len(" ".join(words)) > room:
        count = 0
        while count < len(words) and cell_len(" ".join(words[: count + 1])) <= room:
            count += 1
        if count == 0:  # one word wider than the room: cut at the end
            break
        kept.append(" ".join(words[:count]))
        words = words[count:]
    return "\n".join([*kept, cut_at_word(" ".join(words), room)])


def status_summary(total: int, statuses: Mapping[str, int]) -> str:
    """``"19,600 unseen · 30 to-read"``: papers by reading status (unseen: those with no status)."""
    unseen = total - sum(statuses.values()) + statuses.get("unseen", 0)
    parts = [f"{unseen:,} unseen"] + [f"{statuses[s]:,} {s}" for s in STATUSES[1:] if statuses.get(s)]
    return " · ".join(parts)


class CountsLabel(Widget):
    """One line of plain text (never read as markup), as wide as the text."""

    #: A layout sets the label's virtual size when its width changed; as Widget's reactive that
    #: lays out the whole screen a second time. Nothing scrolls in the label: a repaint is enough.
    virtual_size: Reactive[Size] = repaint_only_virtual_size()

    DEFAULT_CSS = """
    CountsLabel {
        width: auto;
        height: auto;
    }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = text

    @property
    def text(self) -> str:
        """The text shown."""
        return self._text

    def update(self, text: str) -> None:
        """Show ``text``; the screen is laid out again only if its width (in cells) changed."""
        if text == self._text:
            return
        resized = cell_len(text) != cell_len(self._text)
        self._text = text
        self.refresh(layout=resized)

    def render(self) -> Content:
        return Content(self._text)

    def render_line(self, y: int) -> Strip:
        """The line Textual draws from ``render``'s content, drawn straight where that is its one
        segment (``straight_line``), else Textual's way. tests/ui/test_counts_label.py checks they
        are the same."""
        line = straight_line(self, self._text, y)
        return line if line is not None else super().render_line(y)
