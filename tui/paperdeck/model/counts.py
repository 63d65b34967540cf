"""Counts in prose: ``1 paper``, ``2 papers``, the one place the plural rule is written.

Every summary an import gives (the files read, the papers merged, the reviews, the programme, a
restored backup) counts through :func:`counted`, so that no line says ``1 papers`` or ``2 paper``.
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, noun: str, plural: str = "") -> str:
    """``count`` and ``noun`` in prose: ``"1 paper"``, ``"19,630 papers"`` (thousands separated).

    The plural is ``noun`` + ``s`` unless ``plural`` gives it (``counted(n, "paper's",
    "papers'")``, ``counted(n, "review or comment", "reviews and comments")``); only 1 takes the
    singular (``0 papers``)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
