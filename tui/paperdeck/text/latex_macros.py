"""The text-mode LaTeX macros that abstracts use, and what each becomes on screen.

Tables only: :mod:`paperdeck.text.abstract_parser` reads the macros with them (math symbols such as
``\\alpha`` are :mod:`paperdeck.text.latex_math`'s). A macro in none of these tables is shown as written.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = [
    "ARG_MACROS",
    "DECLARATION",
    "DINGS",
    "DROP_ARG",
    "ENVIRONMENTS",
    "ESCAPES",
    "KNOWN",
    "MATH_ARG",
    "TEXT_STYLE",
    "TEXT_SYMBOLS",
    "unescape",
]


def _words(text: str) -> list[str]:
    return text.split()


# fmt: off
#: ``\textbf{x}`` and the like: macro → style of its argument (``""``: the argument, unstyled).
TEXT_STYLE = {
    "textbf": "bold", "textit": "italic", "emph": "italic", "textsl": "italic", "texttt": "code",
    "underline": "underline", "uline": "underline",
    **dict.fromkeys(_words("textsc textsf textrm textup textnormal textmd text mbox hbox"), ""),
    **dict.fromkeys(_words("fbox hl sout mathrm"), ""),
}
#: ``\bf`` and the like, which style the rest of their group: macro → style (``""``: none).
DECLARATION = {
    "bf": "bold", "bfseries": "bold", "em": "italic", "it": "italic", "itshape": "italic",
    "sl": "italic", "slshape": "italic", "tt": "code", "ttfamily": "code",
    **dict.fromkeys(_words(
        "sc scshape rm sf normalfont upshape rmfamily sffamily mdseries tiny scriptsize"
        " footnotesize small normalsize large Large LARGE huge Huge centering noindent xspace"
    ), ""),
}
#: Macros that stand for text: macro → the text.
TEXT_SYMBOLS = {
    "eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.", "wrt": "w.r.t.", "vs": "vs.",
    "cf": "cf.", "LaTeX": "LaTeX", "TeX": "TeX", "textasciitilde": "~", "textasciicircum": "^",
    "textbackslash": "\\", "textless": "<", "textgreater": ">", "textbar": "|",
    "textquotedbl": '"', "textellipsis": "…", "copyright": "©", "textcopyright": "©", "S": "§",
    "P": "¶", "newline": "\n", "par": "\n\n", "left": "", "right": "", "item": "• ", "quad": " ",
    "qquad": " ", "cmark": "✓", "xmark": "✗", "checkmark": "✓", "textbraceleft": "{", "textbraceright": "}",
}
#: Math macros written outside ``$…$``: macro → how many brace arguments it takes.
MATH_ARG = {
    **dict.fromkeys(_words("frac tfrac dfrac"), 2),
    **dict.fromkeys(_words(
        "sqrt mathbb mathbbm mathcal mathscr mathfrak mathbf boldsymbol bm mathit mathsf mathtt"
        " operatorname hat widehat tilde widetilde bar overline vec dot ddot"
    ), 1),
}
#: Environments whose ``\begin{…}``/``\end{…}`` are dropped (their content is kept).
ENVIRONMENTS = frozenset(_words(
    "abstract itemize enumerate description quote quotation center flushleft"
))
#: Macros dropped together with their argument.
DROP_ARG = frozenset(_words("hspace vspace label color"))
#: ``\ding{n}`` (pifont) → the character.
DINGS = {
    51: "✓", 52: "✔", 53: "✕", 54: "✖", 55: "✗", 56: "✘", 72: "★", 73: "☆", 108: "●", 110: "■",
    115: "▲", 116: "▼", 117: "◆",
    **{172 + k: chr(0x2460 + k) for k in range(10)},  # circled digits ① … ⑩
    **{182 + k: chr(0x2776 + k) for k in range(10)},  # ❶ … ❿
    **{192 + k: chr(0x2780 + k) for k in range(10)},  # ➀ … ➉
    **{202 + k: chr(0x278A + k) for k in range(10)},  # ➊ … ➓
}
#: A backslash and one non-letter: the character after ``\`` → what is shown.
ESCAPES = {",": " ", ";": " ", ":": " ", " ": " ", "\n": " ", "\t": " ", "@": "", "/": ""}
#: Macros with an argument that are more than a style (footnote, colours, links, scripts).
ARG_MACROS = frozenset(_words(
    "footnote textcolor colorbox href hyperlink textsuperscript textsubscript"
))
# fmt: on

#: Every macro name the parser handles other than math symbols.
KNOWN = frozenset(TEXT_STYLE).union(
    DECLARATION, TEXT_SYMBOLS, MATH_ARG, DROP_ARG, ARG_MACROS, _words("url ding begin end")
)


@cache
def _unescape() -> re.Pattern[str]:
    return re.compile(r"\\([_%#&~$])")


def unescape(text: str) -> str:
    """``text`` (a URL) with LaTeX's escaped ``\\_ \\% \\# \\& \\~ \\$`` as the bare characters."""
    return _unescape().sub(r"\1", text) if "\\" in text else text
