"""The parse tree of an abstract's LaTeX and Markdown markup: :class:`Node` and its helpers.

:mod:`paperdeck.text.abstract_parser` builds the tree (with :mod:`paperdeck.text.markdown_inline`),
:mod:`paperdeck.text.render` turns it into styled segments. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperdeck.text.latex_math import math_to_unicode

__all__ = ["BLANK_LINE", "Node", "plain_text", "styled", "txt"]

#: A blank line: it ends a paragraph, and no code or math span reaches across it.
BLANK_LINE = re.compile(r"\n[ \t]*\n")


@dataclass(slots=True)
class Node:
    """One parsed piece.

    Attributes:
        kind: ``"text"``, ``"math"``, ``"code"``, ``"style"``, ``"link"``, ``"delim"`` (a Markdown
            ``*``/``_`` run) or ``"par"`` (a blank line).
        text: by kind: the text, the math source (no ``$``), the code, the style name, the URL,
            the delimiter character, or ``"\\n\\n"`` for a ``par``.
        children: the nodes inside a ``style`` or ``link``.
        count: for a ``delim``, the characters of the run not yet paired.
        opens, closes: for a ``delim``, whether it may open / close emphasis.
    """

    kind: str
    text: str = ""  # text / math source / code / style name / URL / delimiter char
    children: list[Node] = field(default_factory=list)
    count: int = 0  # delim: characters left in the run
    opens: bool = False
    closes: bool = False


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
