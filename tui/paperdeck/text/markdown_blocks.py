"""The block structure of Markdown in review notes (comments and rebuttals are often written in
it): headings (``# Response``, or a line underlined with ``===`` / ``---``), horizontal rules
(``---``, ``***``), list items, block quotes, fenced code and pipe tables
(:mod:`paperdeck.text.markdown_tables`, laid out by :func:`~paperdeck.text.markdown_tables.table_lines`),
the rest as text. What is inside a
block (emphasis, math, links) is left to :func:`paperdeck.text.render.render_abstract`.

Each line is read on its own, as a reader would: nothing is interpreted that a person would not see
as that block, and no character is dropped but the block's own marker (``#``, ``>``, the bullet,
the fence). Nothing here imports Textual or Rich; the text is sanitised before it comes here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from paperdeck.text.markdown_tables import table_end

__all__ = ["Block", "markdown_blocks"]

BlockKind = Literal["heading", "rule", "item", "quote", "code", "table", "text"]

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_BULLET = re.compile(r"([ \t]*)[-*+][ \t]+(.*)$")
_NUMBERED = re.compile(r"([ \t]*)(\d{1,9})[.)][ \t]+(.*)$")
_QUOTE = re.compile(r" {0,3}>[ \t]?(.*)$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class Block:
    """One block of a note.

    Attributes:
        kind: ``heading``, ``rule``, ``item`` (of a list), ``quote``, ``code`` (fenced: shown as
            it is), ``table`` (its source lines, header and delimiter row first)
            or ``text`` (lines of a paragraph, blank lines between paragraphs kept).
        text: the block's text without its marker (``""`` for a rule).
        level: a heading's level (1–6); an item's depth (0: not indented).
        marker: an item's bullet: ``"•"``, or its number and ``"."`` (``"2."``).
    """

    kind: BlockKind
    text: str
    level: int = 0
    marker: str = ""


def markdown_blocks(text: str) -> list[Block]:
    """``text`` (line endings ``\\n``) as its blocks, in order. Never raises; ``""`` gives ``[]``."""
    blocks: list[Block] = []
    lines = text.split("\n")
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            joined = "\n".join(paragraph).strip("\n")
            if joined.strip():
                blocks.append(Block("text", joined))
            paragraph.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        fence = _FENCE.match(line)
        if fence is not None:
            flush()
            mark = fence.group(1)
            code: list[str] = []
            while index < len(lines) and not lines[index].strip().startswith(mark):
                code.append(lines[index])
                index += 1
            index += 1  # the closing fence (or the end)
            blocks.append(Block("code", "\n".join(code)))
            continue
        if "|" in line and (end := table_end(lines, index - 1)) > index - 1:
            flush()
            blocks.append(Block("table", "\n".join(lines[index - 1 : end])))
            index = end
            continue
        last = paragraph[-1] if paragraph else ""
        setext = _SETEXT.match(line)
        if setext is not None and last.strip() and _plain_line(last):
            paragraph.pop()  # "Response\n---": the line above is a heading
            flush()
            blocks.append(Block("heading", last.strip(), 1 if setext.group(1)[0] == "=" else 2))
            continue
        if _RULE.match(line):
            flush()
            blocks.append(Block("rule", ""))
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            flush()
            blocks.append(Block("heading", (heading.group(2) or "").strip(), len(heading.group(1))))
            continue
        quote = _QUOTE.match(line)
        if quote is not None:
            flush()
            blocks.append(Block("quote", quote.group(1)))
            continue
        bullet = _BULLET.match(line)
        if bullet is not None:
            flush()
            blocks.append(Block("item", bullet.group(2), _depth(bullet.group(1)), "•"))
            continue
        numbered = _NUMBERED.match(line)
        if numbered is not None:
            flush()
            blocks.append(Block("item", numbered.group(3), _depth(numbered.group(1)), f"{numbered.group(2)}."))
            continue
        paragraph.append(line)
    flush()
    return blocks


def _plain_line(line: str) -> bool:
    """Whether ``line`` is a paragraph's line (not a block of its own): one a ``---`` below makes
    a heading."""
    return not any(pattern.match(line) for pattern in (_HEADING, _RULE, _QUOTE, _BULLET, _NUMBERED, _FENCE))


def _depth(indent: str) -> int:
    return len(indent.expandtabs(4)) // 2
