"""The tokenizer of abstracts and titles: LaTeX and Markdown source to a tree of :class:`Node`.

A recursive-descent reader: math spans (``$…$``, ``\\(…\\)``, ``\\[…\\]``, math macros written
outside them) become ``math`` nodes for :mod:`paperdeck.text.latex_math`; text-mode macros
(``\\textbf``, ``\\url``, ``\\%`` …; tables in :mod:`paperdeck.text.latex_macros`), HTML entities,
Markdown links (``[text](https://…)``: the text, linked), Markdown images (``![alt](https://…)``:
``[image: alt] <https://…>``, the URL linked; an image whose URL is not http(s) is
``[image: alt]`` alone, as a link of another scheme is left out at import) and, through
:mod:`paperdeck.text.markdown_inline`, code spans, bare URLs and emphasis
are read here. Whatever is not understood is kept as its source text.
:mod:`paperdeck.text.render` turns the tree into styled segments. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import re
from functools import cache

from paperdeck.text.latex_macros import (
    ARG_MACROS,
    DECLARATION,
    DINGS,
    DROP_ARG,
    ENVIRONMENTS,
    ESCAPES,
    KNOWN,
    MATH_ARG,
    TEXT_STYLE,
    TEXT_SYMBOLS,
    unescape,
)
from paperdeck.text.latex_math import accent, symbol, to_subscript, to_superscript
from paperdeck.text.markdown_inline import (
    code_span_over,
    read_bare_url,
    read_code_span,
    read_delimiter_run,
    resolve_emphasis,
)
from paperdeck.text.nodes import Node, blank_line, plain_text, styled, txt

__all__ = ["parse_markup"]

_MAX_DEPTH = 40
#: An image's URL that is linked: http(s) only.
_WEB = re.compile(r"https?://[^\s]", re.IGNORECASE)


# Each pattern is compiled at its first use (most texts need few of them).
@cache
def _special() -> re.Pattern[str]:
    return re.compile(r"[\\${}*_`&\[\n]|!\[|(?<![A-Za-z0-9])https?://")


@cache
def _name() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z]+")


@cache
def _par() -> re.Pattern[str]:
    return re.compile(r"\n[ \t]*\n\s*")


@cache
def _entity() -> re.Pattern[str]:
    return re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


@cache
def _md_link() -> re.Pattern[str]:
    return re.compile(r"\[([^\[\]\n]{1,300})\]\((https?://[^\s()<>]+(?:\([^\s()<>]*\)[^\s()<>]*)*)\)")


@cache
def _md_image() -> re.Pattern[str]:
    return re.compile(r"!\[([^\[\]\n]{0,300})\]\(([^\s()<>]{1,4096})\)")


@cache
def _latex_quote() -> re.Pattern[str]:
    """A quoted run opened by ````, ``''`` or ``"`` at a word's start and closed by ``''`` or ``"``
    at a word's end (the two kinds mixed as the data has them: ``"Miracle Steps''``)."""
    return re.compile(r"(?<![\w'\"`])(``|''|\")(?=[^\s'\"`])((?:(?!``|''|\")[^\n$]){1,300}?)(?<=\S)(''|\")(?![\w'`])")


@cache
def _lone_quote() -> re.Pattern[str]:
    """A ```` opening a word, or a ``''`` closing one (``Problem Solving'', thereby``), left over."""
    return re.compile(r"(?<![\w`])``(?=\w)|(?<=[\w).!?%])''(?=[\s,.;:!?)\]]|$)")


@cache
def _single_quote() -> re.Pattern[str]:
    """````word'``: a backtick opening a word, an apostrophe closing it; never ```code```."""
    return re.compile(r"(?<![\w`])`(?=[^\s`'])([^`'\n$]{1,100}?)(?<=\S)'(?![\w'`])")


def _outside_math(src: str, at: int) -> bool:
    """Whether position ``at`` of ``src`` is outside ``$…$`` (an even number of unescaped ``$``
    before it): ``$f''(x)$`` is a second derivative, not a quote."""
    before = src[:at]
    return (before.count("$") - before.count("\\$")) % 2 == 0


def curl_quotes(src: str) -> str:
    """``src`` with LaTeX's quotes curled, as a reader sees them: ````quoted''`` → “quoted”, and so
    ``''quoted''`` and ``"quoted''`` (a straight pair ``"quoted"`` is left as written); a lone
    ```` opening a word → “, a lone ``''`` closing one → ”; ````word'`` → ‘word’. Apostrophes
    (``it's``, ``authors'``) and primes in math (``$f''$``) are not touched."""
    if "``" not in src and "''" not in src and "`" not in src:
        return src

    def pair(m: re.Match[str]) -> str:
        if (m[1] == '"' and m[3] == '"') or not _outside_math(m.string, m.start()):
            return m[0]
        return f"“{m[2]}”"

    def lone(m: re.Match[str]) -> str:
        if not _outside_math(m.string, m.start()):
            return m[0]
        return "“" if m[0] == "``" else "”"

    def single(m: re.Match[str]) -> str:
        return f"‘{m[1]}’" if _outside_math(m.string, m.start()) else m[0]

    src = _lone_quote().sub(lone, _latex_quote().sub(pair, src))
    return _single_quote().sub(single, src) if "`" in src else src


def parse_markup(text: str) -> list[Node]:
    """The parse tree of ``text``: line endings made ``\\n``, LaTeX quotes made “curly”
    (:func:`curl_quotes`).

    Meant never to raise; :func:`paperdeck.text.render.render_abstract` still guards against it.
    """
    src = text.replace("\r\n", "\n").replace("\r", "\n")
    if "`" in src or "''" in src:  # what the quotes' patterns need
        src = curl_quotes(src)
    nodes, _ = _Parser(src).parse()
    return nodes


class _Parser:
    """Recursive-descent reader over ``src``; :meth:`parse` returns the nodes of one group."""

    def __init__(self, src: str, depth: int = 0) -> None:
        self.src = src
        self.pos = 0
        self.depth = depth
        self.arg_pos = -1  # a ``{`` here follows a macro: its braces are markup, not text

    def parse(self, in_group: bool = False) -> tuple[list[Node], bool]:
        """Read up to the ``}`` closing the current group (if ``in_group``) or the end.

        Returns ``(nodes, closed)``; ``closed`` tells whether the closing brace was found (and
        consumed).
        """
        src, out, special = self.src, [], _special().search
        while self.pos < len(src):
            m = special(src, self.pos)
            start = len(src) if m is None else m.start()
            if start > self.pos:
                out.append(txt(src[self.pos : start]))
                self.pos = start
            if m is None:
                break
            c = src[start]
            if c == "}":
                self.pos += 1
                if in_group:
                    return resolve_emphasis(out), True
                out.append(txt("}"))
            elif c == "\\":
                got = self._backslash()
                if isinstance(got, str):  # a declaration such as \bf: styles the rest of the group
                    rest, closed = self.parse(in_group)
                    out.append(styled(got, rest))
                    return resolve_emphasis(out), closed
                out.extend(got)
            elif c == "{":
                out.extend(self._bare_group())
            else:
                out.extend(self._other(c))
        return resolve_emphasis(out), False

    def _group(self) -> tuple[list[Node], bool]:
        """Parse the group whose ``{`` is at ``pos``."""
        self.pos += 1
        self.depth += 1
        try:
            return self.parse(in_group=True)
        finally:
            self.depth -= 1

    def _bare_group(self) -> list[Node]:
        if self.depth >= _MAX_DEPTH:
            self.pos += 1
            return [txt("{")]
        markup = self.pos == self.arg_pos or self.src.startswith("\\", self.pos + 1)
        children, closed = self._group()
        if markup:
            return [styled("", children)] if closed else [txt("{"), *children]
        return [txt("{"), styled("", children), *([txt("}")] if closed else [])]

    def _raw_arg(self) -> str | None:
        """The verbatim text of a brace group at ``pos`` (spaces skipped first), or None."""
        src, i = self.src, self.pos
        while i < len(src) and src[i] in " \t":
            i += 1
        if i >= len(src) or src[i] != "{":
            return None
        depth, k = 0, i
        while k < len(src):
            if src[k] == "\\":
                k += 2
                continue
            depth += (src[k] == "{") - (src[k] == "}")
            if depth == 0:
                self.pos = k + 1
                return src[i + 1 : k]
            k += 1
        return None

    def _arg(self) -> tuple[list[Node], bool] | None:
        """A parsed brace-group argument at ``pos`` (spaces skipped); None if there is none."""
        i = self.pos
        while i < len(self.src) and self.src[i] in " \t":
            i += 1
        if i >= len(self.src) or self.src[i] != "{" or self.depth >= _MAX_DEPTH:
            return None
        self.pos = i
        return self._group()

    def _find_close(self, closer: str, start: int, limit: int) -> int:
        """Index of the next unescaped ``closer`` within ``limit`` chars, one paragraph; else -1."""
        src, k = self.src, start
        while True:
            k = src.find(closer, k, start + limit + len(closer))
            if k < 0 or blank_line().search(src, start, k + 1):
                return -1
            b = k
            while b > 0 and src[b - 1] == "\\":
                b -= 1
            if closer[0] == "$" and "`" in src[start:k] and (end := code_span_over(src, start, k)) > 0:
                k = end  # a $ inside a code span is code: `code $x$` closes no math
                continue
            if (k - b) % 2 == 0 or closer[0] == "\\":
                return k
            k += 1

    def _math_delim(self, opener: str) -> list[Node] | None:
        closer = opener.replace("(", ")").replace("[", "]")
        start = self.pos + len(opener)
        k = self._find_close(closer, start, 1000 if "(" in opener else 3000)
        if k < 0 or not self.src[start:k].strip():
            return None
        self.pos = k + len(closer)
        return [Node("math", self.src[start:k])]

    def _backslash(self) -> list[Node] | str:
        src, i = self.src, self.pos
        nxt = src[i + 1 : i + 2]
        if nxt == "\\":  # "\\" is a line break, or a doubled backslash from an escaping tool
            after = src[i + 2 : i + 3]
            if after in ("(", "[") and (math := self._math_delim("\\\\" + after)) is not None:
                return math
            name = _name().match(src, i + 2)
            if (after and after in "%&_#${}") or (name and (name.group() in KNOWN or symbol(name.group()))):
                self.pos = i + 1
                return self._backslash()
            self.pos = i + 2
            return [txt("\n")]
        if nxt in ("(", "["):
            math = self._math_delim("\\" + nxt)
            if math is not None:
                return math
        if nxt == "$":  # \$\times\$: dollars escaped by a tool, around what is plainly LaTeX
            k = src.find("\\$", i + 2, i + 102)
            body = src[i + 2 : k] if k > 0 else ""
            if body.strip() == body and "\n" not in body and any(ch in body for ch in "\\^_"):
                self.pos = k + 2
                return [Node("math", body)]
        name = _name().match(src, i + 1)
        if name is None:
            return self._escape(nxt)
        self.pos = name.end()
        return self._macro(name.group(), i)

    def _escape(self, c: str) -> list[Node]:
        src, i = self.src, self.pos
        self.pos = i + 2
        if not c:
            self.pos = i + 1
            return [txt("\\")]
        follow = src[i + 2 : i + 3]
        if c in "\"'`^~=." and (follow.isalpha() or follow == "{"):  # accents: \"o, \'{e}
            base = self._raw_arg() if follow == "{" else follow
            if base is None or not base.strip():
                return [txt(c)]  # \^{} and the like: the character itself
            if follow != "{":
                self.pos += 1
            return [txt(accent(c, base) or c + base)]
        if c == "-":
            return [] if follow.isalpha() else [txt("-")]
        if c in ESCAPES:
            return [txt(ESCAPES[c])]
        return [txt(c)] if c.isascii() else [txt("\\" + c)]

    def _macro(self, name: str, start: int) -> list[Node] | str:
        src = self.src
        if name in DECLARATION:
            while self.pos < len(src) and src[self.pos] in " \t":
                self.pos += 1
            self.arg_pos = self.pos
            return DECLARATION[name] or []
        if name in TEXT_STYLE or name in ARG_MACROS:
            first = None
            if name in ("textcolor", "colorbox", "href", "hyperlink"):
                first = self._raw_arg()
                if first is None:
                    return [txt(src[start : self.pos])]
            arg = self._arg()
            if arg is None and first is None and (one := re.match(r"[ \t]*(\w)", src[self.pos : self.pos + 8])):
                self.pos += one.end()
                arg = ([txt(one.group(1))], True)
            if arg is None:
                return [txt(src[start : self.pos])]
            children, closed = arg
            if not closed:
                return [txt(src[start : src.index("{", start) + 1]), *children]
            if name == "footnote":
                lead = "(" if start > 0 and src[start - 1].isspace() else " ("
                return [txt(lead), *children, txt(")")]
            if name == "href" and first is not None:  # the URL stays visible: not every terminal links
                url = unescape(first.strip())
                shown = plain_text(children)
                tail = [] if url in shown else [txt(" ("), Node("link", url, [txt(url)]), txt(")")]
                return [Node("link", url, children), *tail] if shown else [Node("link", url, [txt(url)])]
            if name in ("textsuperscript", "textsubscript"):
                plain = plain_text(children)
                done = to_superscript(plain) if name == "textsuperscript" else to_subscript(plain)
                return [txt(done)] if done is not None else children
            return [styled(TEXT_STYLE.get(name, ""), children)]
        if name == "url":
            raw = self._raw_arg()
            if raw is None:
                return [txt("\\url")]
            url = unescape(raw.strip())
            return [Node("link", url if "://" in url else "https://" + url, [txt(url)])]
        if name == "ding":
            raw = self._raw_arg()
            number = int(raw) if raw and raw.strip().isdigit() and len(raw) < 6 else -1
            return [txt(DINGS[number])] if number in DINGS else []
        if name in DROP_ARG:
            return [] if self._raw_arg() is not None else [txt("\\" + name)]
        if name in ("begin", "end"):
            save = self.pos
            env = self._raw_arg()
            if env is not None and env.strip() in ENVIRONMENTS:
                return []
            self.pos = save
        if name in MATH_ARG:
            save = self.pos
            if src.startswith("*", self.pos):
                self.pos += 1
            if name == "sqrt" and src.startswith("[", self.pos) and "]" in src[self.pos : self.pos + 20]:
                self.pos = src.index("]", self.pos) + 1
            if all(self._raw_arg() is not None for _ in range(MATH_ARG[name])):
                return [Node("math", src[start : self.pos])]
            self.pos = save
        if len(name) == 1 and name in "uvHckrdbt":  # letter accents: \c{c}, \v c
            base = self._raw_arg()
            if base is None and src[self.pos : self.pos + 1] == " " and src[self.pos + 1 : self.pos + 2].isalpha():
                base, self.pos = src[self.pos + 1], self.pos + 2
            done = accent(name, base) if base is not None else None
            if done is not None:
                return [txt(done)]
            self.pos = start + 1 + len(name)
        known = TEXT_SYMBOLS.get(name)
        bare = not src.startswith("{", self.pos) or src.startswith("{}", self.pos)
        if known is not None or (bare and symbol(name) is not None):
            if src.startswith("{}", self.pos):
                self.pos += 2
            return [txt(known)] if known is not None else [Node("math", "\\" + name)]
        out = [txt("\\" + name)]  # unknown: keep the source, braces included
        while src.startswith("{", self.pos) and self.depth < _MAX_DEPTH:
            children, closed = self._group()
            out += [txt("{"), styled("", children), *([txt("}")] if closed else [])]
        return out

    def _other(self, c: str) -> list[Node]:
        src, i = self.src, self.pos
        if c == "$":
            return self._dollar()
        if c == "\n":
            par = _par().match(src, i)
            self.pos = par.end() if par else i + 1
            return [Node("par", "\n\n")] if par else [txt("\n")]
        if c == "&":
            entity = _entity().match(src, i)
            if entity:
                self.pos = entity.end()
                from html import unescape as html_unescape  # deferred: few abstracts have an entity

                return [txt(html_unescape(entity.group()))]
        elif c == "!":
            image = _md_image().match(src, i)
            if image:
                self.pos = image.end()
                alt, _ = _Parser(image.group(1), self.depth + 1).parse()
                named = [txt("[image: "), *alt, txt("]")] if plain_text(alt).strip() else [txt("[image]")]
                url = unescape(image.group(2))
                if not _WEB.match(url):  # the link rule: http(s) only
                    return named
                return [*named, txt(" <"), Node("link", url, [txt(url)]), txt(">")]
        elif c == "[":
            link = _md_link().match(src, i)
            if link:
                self.pos = link.end()
                inner, _ = _Parser(link.group(1), self.depth + 1).parse()
                url = unescape(link.group(2))  # [text](url): the text, linked to the URL
                return [Node("link", url, inner if plain_text(inner).strip() else [txt(url)])]
        elif c == "`":
            nodes, self.pos = read_code_span(src, i)
            return nodes
        elif c in "*_":
            nodes, self.pos = read_delimiter_run(src, i, c)
            return nodes
        elif c == "h":
            nodes, self.pos = read_bare_url(src, i)
            return nodes
        self.pos = i + 1
        return [txt(c)]

    def _dollar(self) -> list[Node]:
        src, i = self.src, self.pos
        if src.startswith("$$", i):
            k = self._find_close("$$", i + 2, 3000)
            if k > i + 2 and src[i + 2 : k].strip():
                self.pos = k + 2
                return [Node("math", src[i + 2 : k])]
        else:
            k = self._find_close("$", i + 1, 300)
            body = src[i + 1 : k] if k > i + 1 else ""
            if is_inline_math(body, src[k + 1 : k + 2]):
                self.pos = k + 1
                return [Node("math", body)]
        self.pos = i + 1
        return [txt("$")]


def is_inline_math(body: str, after: str) -> bool:
    """Whether ``$body$`` (followed by ``after``) is math rather than two literal dollars.

    A span that looks like LaTeX always is; ``$5 and $10`` or ``$5-$10`` (a digit first, then a
    space, or a digit after the closing ``$``) is prices; a span with spaces inside its ``$`` must
    be one token.
    """
    if not body.strip():
        return False
    if any(ch in body for ch in "\\^_{"):
        return True
    if body[0].isdigit() and (after.isdigit() or any(ch.isspace() for ch in body)):
        return False
    return not (body[0].isspace() or body[-1].isspace()) or len(body.split()) == 1
