"""The parse tree of an abstract's LaTeX and Markdown markup: :class:`Node` and its helpers.

:mod:`paperdeck.text.abstract_parser` builds the tree (with :mod:`paperdeck.text.markdown_inline`),
:mod:`paperdeck.text.render` turns it into styled segments. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import re
from functools import cache

from paperdeck.text.latex_math import math_to_unicode

__all__ = ["Node", "blank_line", "plain_text", "styled", "txt"]


@cache
def blank_line() -> re.Pattern[str]:
    """A blank line: it ends a paragraph, and no code or math span reaches across it. (Each
    pattern of the renderer is compiled at its first use: most texts need few of them.)"""
    return re.compile(r"\n[ \t]*\n")


class Node:
    """One parsed piece (a plain class with slots, not a dataclass: the renderer is imported by
    one-paper commands, where ``dataclasses`` and what it imports would cost more than the rest).

    Attributes:
        kind: ``"text"``, ``"math"``, ``"code"``, ``"style"``, ``"link"``, ``"delim"`` (a Markdown
            ``*``/``_`` run) or ``"par"`` (a blank line).
        text: by kind: the text, the math source (no ``$``), the code, the style name, the URL,
            the delimiter character, or ``"\\n\\n"`` for a ``par``.
        children: the nodes inside a ``style`` or ``link`` (a new list when not given).
        count: for a ``delim``, the characters of the run not yet paired.
        opens, closes: for a ``delim``, whether it may open / close emphasis.
    """

    __slots__ = ("children", "closes", "count", "kind", "opens", "text")

    def __init__(
        self,
        kind: str,
        text: str = "",
        children: list[Node] | None = None,
        count: int = 0,
        opens: bool = False,
        closes: bool = False,
    ) -> None:
        self.kind = kind
        self.text = text  # text / math source / code / style name / URL / delimiter char
        self.children: list[Node] = [] if children is None else children
        self.count = count  # delim: characters left in the run
        self.opens = opens
        self.closes = closes

    def __repr__(self) -> str:
        return (
            f"Node(kind={self.kind!r}, text={self.text!r}, children={self.children!r}, count={self.count!r},"
            f" opens={self.opens!r}, closes={self.closes!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was


def _fields(node: Node) -> tuple[str, str, list[Node], int, bool, bool]:
    return (node.kind, node.text, node.children, node.count, node.opens, node.closes)


def txt(text: str) -> Node:
    """A plain text node."""
    return Node("text", text)


def styled(name: str, children: list[Node]) -> Node:
    """A style node: ``name`` is ``"bold"``, ``"italic"``, ``"underline"``, ``"code"`` or ``""``."""
    return Node("style", name, children)


def plain_text(nodes: list[Node]) -> str:
    """The characters ``nodes`` show, styles and links dropped.

    The same text as joining the segments :mod:`paperdeck.text.render` makes of ``nodes``.
    """
    out: list[str] = []
    for node in nodes:
        if node.kind in ("text", "par", "code"):
            out.append(node.text)
        elif node.kind == "math":
            out.append(math_to_unicode(node.text))
        elif node.kind in ("link", "style"):
            out.append(plain_text(node.children))
    return "".join(out)
