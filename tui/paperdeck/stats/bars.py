"""Unicode block bars: a count drawn as a run of full blocks and one partial block (eighths of a
cell), for the statistics screen and ``paperdeck stats`` on a terminal.

Every bar is plain text (no colour, no markup): it reads the same in any theme, and a bar of a
larger count is never shorter than one of a smaller count.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["PARTS", "SHADES", "bar", "stacked_bar"]

#: The partial blocks, one to seven eighths of a cell wide.
PARTS = ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")
FULL = "█"
#: The shades a stacked bar uses, darkest first (one per part).
SHADES = ("█", "▓", "▒", "░")


def bar(value: float, largest: float, width: int) -> str:
    """A bar ``value / largest`` of ``width`` cells long, to an eighth of a cell; a value above 0
    always shows at least an eighth. ``""`` for 0 (or less) or a ``largest`` of 0.

    Args:
        value: the count drawn.
        largest: the count drawn ``width`` cells long (the largest of the chart).
        width: cells for ``largest`` (at least 1).
    """
    if value <= 0 or largest <= 0 or width <= 0:
        return ""
    eighths = max(1, round(8 * width * min(value, largest) / largest))
    return FULL * (eighths // 8) + PARTS[eighths % 8]


def stacked_bar(parts: Sequence[int], total: int, width: int, shades: Sequence[str] = SHADES) -> str:
    """One bar of ``width`` cells for ``total``, split into ``parts`` (in order), each drawn in its
    shade (``shades[i]`` for ``parts[i]``), whole cells each; a part above 0 shows at least one
    cell when there is room, the cells left over go to the largest parts. ``""`` for no total."""
    if total <= 0 or width <= 0:
        return ""
    exact = [width * max(part, 0) / total for part in parts]
    cells = [int(share) for share in exact]
    for index, part in enumerate(parts):
        if part > 0 and cells[index] == 0 and sum(cells) < width:
            cells[index] = 1
    spare = min(width, round(sum(exact))) - sum(cells)
    by_remainder = sorted(range(len(parts)), key=lambda i: exact[i] - cells[i], reverse=True)
    for index in by_remainder[: max(spare, 0)]:
        cells[index] += 1
    return "".join(shades[i % len(shades)] * cells[i] for i in range(len(parts)))
