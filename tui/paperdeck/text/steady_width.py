"""Text for fixed columns: every character drawn as wide as Rich (and so Textual) counts it, in any
terminal.

Rich counts a grapheme cluster's cells as a whole (``👩‍🔬`` two cells, ``❤️`` two, ``किताब``
three), but terminals disagree on such clusters: tmux 3.3a draws ``❤️`` in one cell, ``👍🏽`` in
four and the spacing vowel signs of ``किताब`` in a cell each (five), others join a ZWJ sequence
or not. A list row's columns after such a title would move by the difference. :func:`steady_width`
writes a text in a form whose width they agree on, for list rows and other column layouts (never
for the text read at length: the detail pane, the reader and the reviews keep it as written).
Only what can be rewritten without changing the words is: the vowel signs stay.
"""

from __future__ import annotations

__all__ = ["steady_width"]

#: Characters that join or restyle their neighbours and are dropped: the zero-width joiner (a ZWJ
#: sequence becomes its emoji, each two cells), the text and emoji variation selectors (``❤️`` → ``❤``,
#: one cell) and the emoji skin-tone modifiers (``👍🏽`` → ``👍``, two cells).
_DROPPED = frozenset({"\u200d", "\ufe0e", "\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))})
#: The regional indicator symbols (a flag is a pair of them), each written as its capital letter:
#: ``🇫🇷`` → ``FR``.
_REGIONAL = range(0x1F1E6, 0x1F200)
#: Emoji tag characters (a subdivision flag's letters, U+E0020 to U+E007F): dropped.
_TAGS = range(0xE0020, 0xE0080)


def _steady(char: str) -> str:
    code = ord(char)
    if char in _DROPPED or code in _TAGS:
        return ""
    if code in _REGIONAL:
        return chr(ord("A") + code - _REGIONAL.start)
    return char


def steady_width(text: str) -> str:
    """``text`` with the characters whose width terminals disagree on replaced by a form they agree
    on: zero-width joiners, variation selectors, skin-tone modifiers and emoji tags dropped, flags
    as their two letters (``🇫🇷`` → ``FR``). Every character left is as wide alone as Rich counts
    it in the text. Spacing combining marks (Devanagari's vowel signs: no cell to Rich, one to
    tmux) are kept: dropping them would change the words, and a row of such a title may sit a
    cell or two off in those terminals. ASCII text is returned as it is."""
    if text.isascii():
        return text
    return "".join(map(_steady, text))
