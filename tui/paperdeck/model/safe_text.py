"""Make paper text safe to put on a terminal: control characters shown, never sent.

Titles, abstracts and notes are data. A terminal escape (``\\x1b[31m``, an OSC 52 clipboard write),
a bidi override or another control character must neither reach the terminal nor vanish silently:
C0/C1 controls become their visible Unicode "control pictures" (``␛``), bidi controls are shown as
``⟨U+202E⟩``. Markup-like text (``[bold]``, ``[CLS]``) needs no treatment here: the UI never parses
paper text as markup.
"""

from __future__ import annotations

import re

_C0_C1 = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"⟨U+{code:04X}⟩"


def visible(text: str, *, keep_newlines: bool = True) -> str:
    """Return ``text`` with every control character replaced by a visible stand-in.

    Args:
        text: any text.
        keep_newlines: keep ``\\n`` (and turn tabs into a space); when false, newlines
            and tabs become spaces too, for one-line displays such as list rows.
    """
    text = text.replace("\r\n", "\n").replace("\t", " ")
    if not keep_newlines:
        text = text.replace("\n", " ")
    text = _C0_C1.sub(_picture, text)
    return _BIDI.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)


def one_line(text: str) -> str:
    """``visible`` text on one line, runs of white space collapsed (for rows and labels)."""
    return " ".join(visible(text, keep_newlines=False).split())
