"""Abstracts and titles (plain text with LaTeX and some Markdown) as a list of styled segments.

The text is read into a tree by :mod:`paperdeck.text.abstract_parser` (math spans converted by
:mod:`paperdeck.text.latex_math`); here the tree is flattened into :class:`Segment` runs, adjacent
runs of one style merged.
The rule throughout is that a reader must see every character the authors meant: anything not
understood is kept as its source text. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

from paperdeck.text.abstract_parser import parse_markup
from paperdeck.text.latex_math import math_pieces, math_to_unicode
from paperdeck.text.nodes import plain_text
from paperdeck.values import FrozenValue

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from collections.abc import Iterable

    from paperdeck.text.nodes import Node

__all__ = ["Segment", "math_to_unicode", "render_abstract", "render_keywords", "render_plain"]


class Segment(FrozenValue):
    """A run of text with one style; immutable, equal (and hashing alike) when every attribute is.

    A :class:`~paperdeck.values.FrozenValue` rather than a dataclass, so that the one-paper
    commands, which render a title or an abstract, need not import ``dataclasses``.

    Attributes:
        text: the characters to show (never empty in :func:`render_abstract` output).
        bold: from ``\\textbf{x}``, ``**x**`` or ``__x__``.
        italic: from ``\\emph{x}``, ``\\textit{x}``, ``*x*`` or ``_x_``.
        underline: from ``\\underline{x}``.
        code: from ``\\texttt{..}`` or ```backticks```.
        math: the text came from a math span (``$…$``, ``\\(…\\)``, …) or a math symbol macro.
        link: URL to open when the segment is clicked, else None.
    """

    __slots__ = ("bold", "code", "italic", "link", "math", "text", "underline")
    FIELDS = ("text", "bold", "italic", "underline", "code", "math", "link")

    text: str
    bold: bool
    italic: bool
    underline: bool
    code: bool
    math: bool
    link: str | None

    def __init__(
        self,
        text: str,
        bold: bool = False,
        italic: bool = False,
        underline: bool = False,
        code: bool = False,
        math: bool = False,
        link: str | None = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "text", text)
        setter(self, "bold", bold)
        setter(self, "italic", italic)
        setter(self, "underline", underline)
        setter(self, "code", code)
        setter(self, "math", math)
        setter(self, "link", link)

    def with_text(self, text: str) -> Segment:
        """This segment's style for ``text``."""
        return Segment(text, self.bold, self.italic, self.underline, self.code, self.math, self.link)


#: The style of text outside any markup.
_UNSTYLED = Segment("")


def _flatten(nodes: list[Node], base: Segment = _UNSTYLED) -> list[Segment]:
    out: list[Segment] = []
    for node in nodes:
        if node.kind in ("text", "par"):
            out.append(_restyle(base, node.text))
        elif node.kind == "code":
            out.append(_restyle(base, node.text, "code"))
        elif node.kind == "math":
            for text, bold, italic, underline, code in math_pieces(node.text):
                out.append(
                    Segment(
                        text,
                        bold=base.bold or bold,
                        italic=base.italic or italic,
                        underline=base.underline or underline,
                        code=base.code or code,
                        math=True,
                        link=base.link,
                    )
                )
        elif node.kind == "link":
            out += _flatten(node.children, _restyle(base, "", link=node.text))
        elif node.kind == "style":
            out += _flatten(node.children, _restyle(base, "", node.text))
    return out


def _restyle(base: Segment, text: str, flag: str = "", link: str | None = None) -> Segment:
    """``base``'s style for ``text``, plus ``flag`` (``"bold"``, ``"italic"``, …) and ``link``."""
    return Segment(
        text,
        bold=base.bold or flag == "bold",
        italic=base.italic or flag == "italic",
        underline=base.underline or flag == "underline",
        code=base.code or flag == "code",
        math=base.math,
        link=base.link if link is None else link,
    )


def _key(s: Segment) -> tuple[bool, bool, bool, bool, bool, str | None]:
    return (s.bold, s.italic, s.underline, s.code, s.math, s.link)


def _merge(segments: list[Segment]) -> list[Segment]:
    runs: list[tuple[Segment, list[str]]] = []
    for seg in segments:
        if not seg.text:
            continue
        if runs and _key(runs[-1][0]) == _key(seg):
            runs[-1][1].append(seg.text)
        else:
            runs.append((seg, [seg.text]))
    return [seg.with_text("".join(texts)) for seg, texts in runs]


def _render(text: str) -> list[Segment]:
    return _merge(_flatten(parse_markup(text)))


def render_abstract(text: str) -> list[Segment]:
    """Render an abstract or title into styled segments, adjacent equal styles merged.

    ``"see \\textbf{MCPMark} at $\\mathbb{R}^d$"`` gives ``[Segment("see "),
    Segment("MCPMark", bold=True), Segment(" at "), Segment("ℝᵈ", math=True)]``.

    Line endings become ``"\\n"`` and blank-line runs ``"\\n\\n"``; other whitespace is kept.
    Never raises: on an internal error the text comes back whole as one plain segment. An empty
    string gives ``[]``; no returned segment has empty text.
    """
    try:
        return _render(text)
    except Exception:  # pragma: no cover - a safety net; the tests feed arbitrary text
        return [Segment(text)] if text else []


def render_plain(text: str) -> str:
    """The characters a reader sees: ``"".join(s.text for s in render_abstract(text))`` (read off
    the parse tree, no segment made)."""
    try:
        return plain_text(parse_markup(text))
    except Exception:  # pragma: no cover - as render_abstract's safety net
        return text


def render_keywords(keywords: Iterable[str]) -> list[str]:
    """Keywords as a reader sees them: each rendered like a title (``"$\\mu$-Transfer"`` → ``"μ-Transfer"``).

    A keyword list split at a comma inside math (``["$(L_0", "L_1)$-smoothness"]``, from a source
    that split ``"$(L_0, L_1)$-smoothness"``) is joined back at ``", "`` before rendering, so the
    math reads ``(L₀, L₁)-smoothness``; a keyword whose ``$`` nothing closes stays as it is.
    Blank results are left out; order is kept. Never raises.
    """
    items = list(keywords)
    out: list[str] = []
    index = 0
    while index < len(items):
        keyword = items[index]
        index += 1
        # one open span, closed by the next keyword into math: the two were one keyword
        while _unpaired_dollars(keyword) and index < len(items) and _unpaired_dollars(items[index]):
            joined = f"{keyword}, {items[index]}"
            if render_plain(joined).count("$") >= keyword.count("$") + items[index].count("$"):
                break
            keyword = joined
            index += 1
        out.append(keyword)
    return [shown for shown in (" ".join(render_plain(k).split()) for k in out) if shown]


def _unpaired_dollars(text: str) -> bool:
    """Whether ``text`` has an odd number of unescaped ``$``: a math span left open."""
    return (text.count("$") - text.count("\\$")) % 2 == 1
