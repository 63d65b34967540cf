"""Markdown tables (GitHub's pipe tables) in review notes, laid out as aligned plain text.

A table is read by markdown-it-py (Rich's Markdown reader, with its GFM ``table`` rule: a header
row, a delimiter row ``|-|-|`` / ``| :-- | --: |`` of as many cells, then rows up to a blank line;
``\\|`` a pipe inside a cell). :func:`table_lines` lays it out in at most ``width`` columns: each
cell rendered as abstracts are (:func:`paperdeck.text.render.render_plain`: math as Unicode,
emphasis as its words), columns as wide as their widest cell, the widest shrunk first while the
table is too wide, a cell cut short with ``…`` (never wrapped: one row, one line). The text is
sanitised before it comes here; nothing here imports Textual or Rich (markdown-it-py is imported
only for a line that may start a table).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = ["split_tables", "table_end", "table_lines"]

#: A delimiter row, as a cheap test before the table is parsed: pipes, dashes, colons and spaces.
_DELIMITER = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-*:?\s*)*\|?\s*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_SEPARATOR = " │ "
#: The narrowest a column is shrunk to (one character and the ``…``).
_NARROWEST = 2
_ALIGN = {"text-align:right": ">", "text-align:center": "^"}


@cache
def _reader() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def _table_tokens(text: str) -> list[Token] | None:
    """The tokens of the table ``text`` starts with, ``None`` when it starts with none."""
    tokens = _reader().parse(text)
    if not tokens or tokens[0].type != "table_open" or not tokens[0].map or tokens[0].map[0] != 0:
        return None
    return tokens


def table_end(lines: list[str], index: int) -> int:
    """Where the table starting at ``lines[index]`` ends (the index after its last row), or
    ``index`` when no table starts there."""
    line = lines[index]
    if "|" not in line or index + 1 >= len(lines) or not _DELIMITER.match(lines[index + 1]):
        return index
    end = index
    while end < len(lines) and lines[end].strip():  # a table ends at a blank line at the latest
        end += 1
    tokens = _table_tokens("\n".join(lines[index:end]))
    if tokens is None or tokens[0].map is None:
        return index
    return index + tokens[0].map[1]


def split_tables(text: str) -> list[tuple[str, bool]]:
    """``text`` as pieces in order, ``(piece, is_table)``: its tables apart from the text around
    them (a table inside fenced code stays code). ``[(text, False)]`` when it holds none."""
    lines = text.split("\n")
    pieces: list[tuple[str, bool]] = []
    before: list[str] = []
    index, fence = 0, ""
    while index < len(lines):
        line = lines[index]
        opened = _FENCE.match(line)
        if fence:
            fence = "" if line.strip().startswith(fence) else fence
        elif opened is not None:
            fence = opened.group(1)
        elif (end := table_end(lines, index)) > index:
            if before:
                pieces.append(("\n".join(before), False))
                before = []
            pieces.append(("\n".join(lines[index:end]), True))
            index = end
            continue
        before.append(line)
        index += 1
    if before or not pieces:
        pieces.append(("\n".join(before), False))
    return pieces


def table_lines(text: str, width: int) -> list[str]:
    """A table's lines (its header, a rule, its rows) laid out in at most ``width`` columns (see
    the module docstring); a narrow ``width`` keeps every column at least 2 wide. Text that is no
    table is returned as its lines."""
    from paperdeck.text.render import render_plain

    tokens = _table_tokens(text)
    if tokens is None:
        return text.split("\n")
    table: list[list[str]] = []
    aligns: list[str] = []
    for token in tokens:
        if token.type == "tr_open":
            table.append([])
        elif token.type == "th_open":
            aligns.append(_ALIGN.get(str(token.attrs.get("style", "")), "<"))
        elif token.type == "inline" and table:
            table[-1].append(render_plain(token.content))
    count = len(aligns)
    table = [(row + [""] * count)[:count] for row in table]
    widths = [max(_width(row[n]) for row in table) for n in range(count)]
    room = max(width - len(_SEPARATOR) * (count - 1), _NARROWEST * count)
    while sum(widths) > room:
        widest = max(range(count), key=widths.__getitem__)
        widths[widest] -= 1
    lines = [_row(table[0], widths, aligns)]
    lines.append("─┼─".join("─" * w for w in widths))
    lines += [_row(row, widths, aligns) for row in table[1:]]
    return [line.rstrip() for line in lines]


def _row(row: list[str], widths: list[int], aligns: list[str]) -> str:
    return _SEPARATOR.join(_cell(text, w, a) for text, w, a in zip(row, widths, aligns, strict=True))


def _cell(text: str, width: int, align: str) -> str:
    if _width(text) > width:
        cut = ""
        for char in text:
            if _width(cut + char) > width - 1:
                break
            cut += char
        text = cut + "…"
    pad = width - _width(text)
    if align == ">":
        return " " * pad + text
    if align == "^":
        return " " * (pad // 2) + text + " " * (pad - pad // 2)
    return text + " " * pad


def _width(text: str) -> int:
    """Terminal cells ``text`` takes: wide (CJK) characters two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
