"""Markdown inline syntax in abstracts: code spans, bare URLs, and ``*``/``_`` emphasis.

Readers for :mod:`paperdeck.text.abstract_parser`, each taking the source and the index of its first
character and returning the nodes read and the index after them; :func:`resolve_emphasis` then
pairs ``*``/``_`` runs CommonMark-style into bold and italic. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from paperdeck.text.latex_macros import unescape
from paperdeck.text.nodes import Node, blank_line, styled, txt

__all__ = ["read_bare_url", "read_code_span", "read_delimiter_run", "resolve_emphasis"]


#: A bare URL ends at white space, at a control character and at a control character's visible
#: stand-in (``␇``, ``⟨U+009B⟩``: the app links the text :mod:`paperdeck.model.safe_text` cleaned).
@cache
def _url() -> re.Pattern[str]:
    """Compiled at the first bare URL. The stand-ins are not in the pattern (a class reaching past
    Latin-1 costs several times as much to compile): :func:`read_bare_url` ends the URL at the first."""
    return re.compile(r"https?://(?:[^\s<>\"{}`\\\x00-\x1f\x7f-\x9f]|\\[_%#&~])*")


#: The visible stand-ins a bare URL ends at (``␀``–``␦``, and the ``⟨`` of ``⟨U+009B⟩``).
_STAND_INS = frozenset(map(chr, [*range(0x2400, 0x2427), 0x27E8]))


def _is_space(c: str) -> bool:
    return c.isspace()


def _is_punct(c: str) -> bool:
    return unicodedata.category(c)[0] in "PS"


def read_code_span(src: str, i: int) -> tuple[list[Node], int]:
    """A ```code``` span starting at ``src[i]`` (a backtick); the backticks as text if unclosed."""
    run = len(src[i:]) - len(src[i:].lstrip("`"))
    close = re.compile(rf"(?<!`)`{{{run}}}(?!`)").search(src, i + run, i + run + 1000)
    if close and not blank_line().search(src, i, close.start() + 1) and src[i + run : close.start()].strip():
        body = src[i + run : close.start()]
        if len(body) > 1 and body[0] == " " and body[-1] == " ":
            body = body[1:-1]
        return [Node("code", body)], close.end()
    return [txt("`" * run)], i + run


def code_span_over(src: str, start: int, k: int) -> int:
    """The end of a ```code``` span opened in ``src[start:k]`` that holds position ``k`` (a ``$``
    there is code, never the end of math), ``-1`` when none does. Spans closed before ``k`` and
    unclosed backticks (text, as :func:`read_code_span` reads them) are passed over."""
    i = src.find("`", start, k)
    while 0 <= i < k:
        nodes, end = read_code_span(src, i)
        if nodes and nodes[0].kind == "code" and end > k:
            return end
        i = src.find("`", end, k)
    return -1


def read_delimiter_run(src: str, i: int, c: str) -> tuple[list[Node], int]:
    """The run of ``c`` (``*`` or ``_``) at ``src[i]``: a ``delim`` node that may open or close
    emphasis (CommonMark flanking rules), else plain text."""
    j = i
    while j < len(src) and src[j] == c:
        j += 1
    prev = src[i - 1] if i > 0 else " "
    nxt = src[j] if j < len(src) else " "
    left = not _is_space(nxt) and (not _is_punct(nxt) or _is_space(prev) or _is_punct(prev))
    right = not _is_space(prev) and (not _is_punct(prev) or _is_space(nxt) or _is_punct(nxt))
    if c == "*":
        opens, closes = left, right
        if (j - i == 1 and prev.isalnum() and nxt.isalnum()) or (prev.isdigit() and nxt.isdigit()):
            opens = closes = False  # 2*3*4, x*y: arithmetic, not emphasis
    else:
        opens = left and (not right or _is_punct(prev))
        closes = right and (not left or _is_punct(nxt))
    if not (opens or closes):
        return [txt(src[i:j])], j
    return [Node("delim", c, count=j - i, opens=opens, closes=closes)], j


def read_bare_url(src: str, i: int) -> tuple[list[Node], int]:
    """The ``http(s)://…`` URL at ``src[i]`` as a link, trailing punctuation left out; only the
    scheme, as text, when nothing follows it."""
    m = _url().match(src, i)
    url = m.group() if m else ""
    if not url.isascii():
        url = url[: next((k for k, c in enumerate(url) if c in _STAND_INS), len(url))]
    scheme = src.index("://", i) + 3 - i
    while len(url) > scheme and (url[-1] in ".,;:!?*_~'\"" or _unbalanced(url, "(", ")") or _unbalanced(url, "[", "]")):
        url = url[:-1]
    if len(url) <= scheme:
        return [txt(src[i : i + scheme])], i + scheme
    clean = unescape(url)
    return [Node("link", clean, [txt(clean)])], i + len(url)


def _unbalanced(url: str, left: str, right: str) -> bool:
    return url[-1] == right and url.count(left) < url.count(right)


def _as_text(node: Node) -> Node:
    return txt(node.text * node.count) if node.kind == "delim" else node


def resolve_emphasis(nodes: list[Node]) -> list[Node]:
    """Pair Markdown ``*``/``_`` runs (CommonMark style) into bold/italic; the rest become text."""
    if not any(n.kind == "delim" for n in nodes):
        return nodes
    items, ci = list(nodes), 0
    floor = {"*": -1, "_": -1}  # per char: no opener at or below this index (keeps it linear)
    while ci < len(items):
        closer = items[ci]
        if closer.kind != "delim" or not closer.closes or closer.count == 0:
            ci += 1
            continue
        oi = ci - 1
        while oi > floor[closer.text] and items[oi].kind != "par":
            o = items[oi]
            if o.kind == "delim" and o.text == closer.text and o.opens and o.count > 0:
                break
            oi -= 1
        if oi <= floor[closer.text] or items[oi].kind == "par":
            floor[closer.text] = ci - 1
            ci += 1
            continue
        opener = items[oi]
        use = 2 if opener.count >= 2 and closer.count >= 2 else 1
        items[oi + 1 : ci] = [styled("bold" if use == 2 else "italic", [_as_text(n) for n in items[oi + 1 : ci]])]
        opener.count -= use
        closer.count -= use
        ci = oi + 2
        if opener.count == 0:
            del items[oi]
            ci -= 1
        if closer.count == 0:
            del items[ci]
    return [_as_text(n) for n in items]
