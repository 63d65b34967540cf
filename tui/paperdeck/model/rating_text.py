"""How a mean rating is written, the one rule wherever one is shown: the list, the detail pane,
the statistics (their charts and tables, the venues table) and ``paperdeck stats`` / ``show``.

Imports nothing (``paperdeck show``'s one-paper path imports it).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Protocol

    class Scale(Protocol):
        """A scale as this needs it (:class:`paperdeck.model.venue.Scale`): its top."""

        @property
        def high(self) -> float: ...


__all__ = ["mean_text"]


def mean_text(mean: float | None, scale: Scale | None = None) -> str:
    """A mean rating as written everywhere: one decimal (``"6.5"``, ``"4.2"``), whole from 9.95
    (``"10"``, so that a mean with a top below 100 takes at most six cells), followed by the top
    of ``scale`` when given (``"6.5/10"``, ``"3.0/5"``: where ratings of several scales are shown
    together, or beside the paper's own); ``"—"`` for none."""
    if mean is None:
        return "—"
    value = f"{mean:.1f}" if mean < 9.95 else f"{mean:.0f}"
    if scale is None:
        return value
    top = scale.high
    return f"{value}/{int(top) if top == int(top) else f'{top:g}'}"
