"""Abstracts and titles (plain text with LaTeX and some Markdown) as a list of styled segments.

The text is read with a small tokenizer: math spans go to :mod:`tui.core.latex_math`; text-mode
macros (``\\textbf``, ``\\url``, ``\\%`` …), Markdown emphasis, code spans and links are handled
here.
The rule throughout is that a reader must see every character the authors meant: anything not
understood is kept as its source text. Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field, replace

from tui.core.latex_math import (
    accent,
    math_pieces,
    math_to_unicode,
    symbol,
    to_subscript,
    to_superscript,
)

__all__ = ["Segment", "math_to_unicode", "render_abstract", "render_plain"]


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text with one style.

    Attributes:
        text: the characters to show (never empty in :func:`render_abstract` output).
        bold: from ``\\textbf{x}``, ``**x**`` or ``__x__``.
        italic: from ``\\emph{x}``, ``\\textit{x}``, ``*x*`` or ``_x_``.
        underline: from ``\\underline{x}``.
        code: from ``\\texttt{..}`` or ```backticks```.
        math: the text came from a math span (``$…$``, ``\\(…\\)``, …) or a math symbol macro.
        link: URL to open when the segment is clicked, else None.
    """

    text: str
    bold: bool = False
    italic: bool = False
    underline: bool = False
    code: bool = False
    math: bool = False
    link: str | None = None


@dataclass(slots=True)
class _Node:
    """One parsed piece.

    kind: text, math, code, style, link, delim (a Markdown ``*``/``_`` run) or par (a blank line).
    """

    kind: str
    text: str = ""  # text / math source / code / style name / URL / delimiter char
    children: list[_Node] = field(default_factory=list)
    count: int = 0  # delim: characters left in the run
    opens: bool = False
    closes: bool = False


def _txt(text: str) -> _Node:
    return _Node("text", text)


def _style(name: str, children: list[_Node]) -> _Node:
    return _Node("style", name, children)


_SPECIAL = re.compile(r"[\\${}*_`&\[\n]|(?<![A-Za-z0-9])https?://")
_NAME = re.compile(r"[A-Za-z]+")
_BLANK = re.compile(r"\n[ \t]*\n")
_PAR = re.compile(r"\n[ \t]*\n\s*")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_URL = re.compile(r"https?://(?:[^\s<>\"{}`\\]|\\[_%#&~])+")
_MD_LINK = re.compile(
    r"\[([^\[\]\n]{1,300})\]\((https?://[^\s()<>]+(?:\([^\s()<>]*\)[^\s()<>]*)*)\)"
)
_LATEX_QUOTE = re.compile(r"(?<!`)``(?!`)([^`\n]{1,300}?)(?:''|\")")
_UNESCAPE = re.compile(r"\\([_%#&~$])")
_MAX_DEPTH = 40


def _words(text: str) -> list[str]:
    return text.split()


# fmt: off
_TEXT_STYLE = {
    "textbf": "bold", "textit": "italic", "emph": "italic", "textsl": "italic", "texttt": "code",
    "underline": "underline", "uline": "underline",
    **dict.fromkeys(_words("textsc textsf textrm textup textnormal textmd text mbox hbox"), ""),
    **dict.fromkeys(_words("fbox hl sout mathrm"), ""),
}
_DECLARATION = {
    "bf": "bold", "bfseries": "bold", "em": "italic", "it": "italic", "itshape": "italic",
    "sl": "italic", "slshape": "italic", "tt": "code", "ttfamily": "code",
    **dict.fromkeys(_words(
        "sc scshape rm sf normalfont upshape rmfamily sffamily mdseries tiny scriptsize"
        " footnotesize small normalsize large Large LARGE huge Huge centering noindent xspace"
    ), ""),
}
_TEXT_SYMBOLS = {
    "eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.", "wrt": "w.r.t.", "vs": "vs.",
    "cf": "cf.", "LaTeX": "LaTeX", "TeX": "TeX", "textasciitilde": "~", "textasciicircum": "^",
    "textbackslash": "\\", "textless": "<", "textgreater": ">", "textbar": "|",
    "textquotedbl": '"', "textellipsis": "…", "copyright": "©", "textcopyright": "©", "S": "§",
    "P": "¶", "newline": "\n", "par": "\n\n", "left": "", "right": "", "item": "• ", "quad": " ",
    "qquad": " ", "cmark": "✓", "xmark": "✗", "checkmark": "✓",
}
_MATH_ARG = {
    **dict.fromkeys(_words("frac tfrac dfrac"), 2),
    **dict.fromkeys(_words(
        "sqrt mathbb mathbbm mathcal mathscr mathfrak mathbf boldsymbol bm mathit mathsf mathtt"
        " operatorname hat widehat tilde widetilde bar overline vec dot ddot"
    ), 1),
}
_ENVIRONMENTS = frozenset(_words(
    "abstract itemize enumerate description quote quotation center flushleft"
))
_DROP_ARG = frozenset(_words("hspace vspace label color"))
_DINGS = {
    51: "✓", 52: "✔", 53: "✕", 54: "✖", 55: "✗", 56: "✘", 72: "★", 73: "☆", 108: "●", 110: "■",
    115: "▲", 116: "▼", 117: "◆",
    **{172 + k: chr(0x2460 + k) for k in range(10)},  # circled digits ① … ⑩
    **{182 + k: chr(0x2776 + k) for k in range(10)},  # ❶ … ❿
    **{192 + k: chr(0x2780 + k) for k in range(10)},  # ➀ … ➉
    **{202 + k: chr(0x278A + k) for k in range(10)},  # ➊ … ➓
}
_ESCAPES = {",": " ", ";": " ", ":": " ", " ": " ", "\n": " ", "\t": " ", "@": "", "/": ""}
_ARG_MACROS = frozenset(_words(
    "footnote textcolor colorbox href hyperlink textsuperscript textsubscript"
))
# fmt: on


def _is_space(c: str) -> bool:
    return c.isspace()


def _is_punct(c: str) -> bool:
    return unicodedata.category(c)[0] in "PS"


class _Parser:
    """Recursive-descent reader over ``src``; :meth:`parse` returns the nodes of one group."""

    def __init__(self, src: str, depth: int = 0) -> None:
        self.src = src
        self.pos = 0
        self.depth = depth
        self.arg_pos = -1  # a ``{`` here follows a macro: its braces are markup, not text

    def parse(self, in_group: bool = False) -> tuple[list[_Node], bool]:
        """Read up to the ``}`` closing the current group (if ``in_group``) or the end.

        Returns ``(nodes, closed)``; ``closed`` tells whether the closing brace was found (and
        consumed).
        """
        src, out = self.src, []
        while self.pos < len(src):
            m = _SPECIAL.search(src, self.pos)
            start = len(src) if m is None else m.start()
            if start > self.pos:
                out.append(_txt(src[self.pos : start]))
                self.pos = start
            if m is None:
                break
            c = src[start]
            if c == "}":
                self.pos += 1
                if in_group:
                    return _resolve_emphasis(out), True
                out.append(_txt("}"))
            elif c == "\\":
                got = self._backslash()
                if isinstance(got, str):  # a declaration such as \bf: styles the rest of the group
                    rest, closed = self.parse(in_group)
                    out.append(_style(got, rest))
                    return _resolve_emphasis(out), closed
                out.extend(got)
            elif c == "{":
                out.extend(self._bare_group())
            else:
                out.extend(self._other(c))
        return _resolve_emphasis(out), False

    def _group(self) -> tuple[list[_Node], bool]:
        """Parse the group whose ``{`` is at ``pos``."""
        self.pos += 1
        self.depth += 1
        try:
            return self.parse(in_group=True)
        finally:
            self.depth -= 1

    def _bare_group(self) -> list[_Node]:
        if self.depth >= _MAX_DEPTH:
            self.pos += 1
            return [_txt("{")]
        markup = self.pos == self.arg_pos or self.src.startswith("\\", self.pos + 1)
        children, closed = self._group()
        if markup:
            return [_style("", children)] if closed else [_txt("{"), *children]
        return [_txt("{"), _style("", children), *([_txt("}")] if closed else [])]

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

    def _arg(self) -> tuple[list[_Node], bool] | None:
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
            if k < 0 or _BLANK.search(src, start, k + 1):
                return -1
            b = k
            while b > 0 and src[b - 1] == "\\":
                b -= 1
            if (k - b) % 2 == 0 or closer[0] == "\\":
                return k
            k += 1

    def _math_delim(self, opener: str) -> list[_Node] | None:
        closer = opener.replace("(", ")").replace("[", "]")
        start = self.pos + len(opener)
        k = self._find_close(closer, start, 1000 if "(" in opener else 3000)
        if k < 0 or not self.src[start:k].strip():
            return None
        self.pos = k + len(closer)
        return [_Node("math", self.src[start:k])]

    def _backslash(self) -> list[_Node] | str:
        src, i = self.src, self.pos
        nxt = src[i + 1 : i + 2]
        if nxt == "\\":  # "\\" is a line break, or a doubled backslash from an escaping tool
            after = src[i + 2 : i + 3]
            if after in ("(", "[") and (math := self._math_delim("\\\\" + after)) is not None:
                return math
            name = _NAME.match(src, i + 2)
            if (after and after in "%&_#${}") or (
                name and (name.group() in _KNOWN or symbol(name.group()))
            ):
                self.pos = i + 1
                return self._backslash()
            self.pos = i + 2
            return [_txt("\n")]
        if nxt in ("(", "["):
            math = self._math_delim("\\" + nxt)
            if math is not None:
                return math
        if nxt == "$":  # \$\times\$: dollars escaped by a tool, around what is plainly LaTeX
            k = src.find("\\$", i + 2, i + 102)
            body = src[i + 2 : k] if k > 0 else ""
            if body.strip() == body and "\n" not in body and any(ch in body for ch in "\\^_"):
                self.pos = k + 2
                return [_Node("math", body)]
        name = _NAME.match(src, i + 1)
        if name is None:
            return self._escape(nxt)
        self.pos = name.end()
        return self._macro(name.group(), i)

    def _escape(self, c: str) -> list[_Node]:
        src, i = self.src, self.pos
        self.pos = i + 2
        if not c:
            self.pos = i + 1
            return [_txt("\\")]
        follow = src[i + 2 : i + 3]
        if c in "\"'`^~=." and (follow.isalpha() or follow == "{"):  # accents: \"o, \'{e}
            base = self._raw_arg() if follow == "{" else follow
            if base is None or not base.strip():
                return [_txt(c)]  # \^{} and the like: the character itself
            if follow != "{":
                self.pos += 1
            return [_txt(accent(c, base) or c + base)]
        if c == "-":
            return [] if follow.isalpha() else [_txt("-")]
        if c in _ESCAPES:
            return [_txt(_ESCAPES[c])]
        return [_txt(c)] if c.isascii() else [_txt("\\" + c)]

    def _macro(self, name: str, start: int) -> list[_Node] | str:
        src = self.src
        if name in _DECLARATION:
            while self.pos < len(src) and src[self.pos] in " \t":
                self.pos += 1
            self.arg_pos = self.pos
            return _DECLARATION[name] or []
        if name in _TEXT_STYLE or name in _ARG_MACROS:
            first = None
            if name in ("textcolor", "colorbox", "href", "hyperlink"):
                first = self._raw_arg()
                if first is None:
                    return [_txt(src[start : self.pos])]
            arg = self._arg()
            if (
                arg is None
                and first is None
                and (one := re.match(r"[ \t]*(\w)", src[self.pos : self.pos + 8]))
            ):
                self.pos += one.end()
                arg = ([_txt(one.group(1))], True)
            if arg is None:
                return [_txt(src[start : self.pos])]
            children, closed = arg
            if not closed:
                return [_txt(src[start : src.index("{", start) + 1]), *children]
            if name == "footnote":
                lead = "(" if start > 0 and src[start - 1].isspace() else " ("
                return [_txt(lead), *children, _txt(")")]
            if (
                name == "href" and first is not None
            ):  # the URL stays visible: not every terminal links
                url = _UNESCAPE.sub(r"\1", first.strip())
                shown = "".join(s.text for s in _flatten(children))
                tail = (
                    [] if url in shown else [_txt(" ("), _Node("link", url, [_txt(url)]), _txt(")")]
                )
                return (
                    [_Node("link", url, children), *tail]
                    if shown
                    else [_Node("link", url, [_txt(url)])]
                )
            if name in ("textsuperscript", "textsubscript"):
                plain = "".join(s.text for s in _flatten(children))
                done = to_superscript(plain) if name == "textsuperscript" else to_subscript(plain)
                return [_txt(done)] if done is not None else children
            return [_style(_TEXT_STYLE.get(name, ""), children)]
        if name == "url":
            raw = self._raw_arg()
            if raw is None:
                return [_txt("\\url")]
            url = _UNESCAPE.sub(r"\1", raw.strip())
            return [_Node("link", url if "://" in url else "https://" + url, [_txt(url)])]
        if name == "ding":
            raw = self._raw_arg()
            number = int(raw) if raw and raw.strip().isdigit() and len(raw) < 6 else -1
            return [_txt(_DINGS[number])] if number in _DINGS else []
        if name in _DROP_ARG:
            return [] if self._raw_arg() is not None else [_txt("\\" + name)]
        if name in ("begin", "end"):
            save = self.pos
            env = self._raw_arg()
            if env is not None and env.strip() in _ENVIRONMENTS:
                return []
            self.pos = save
        if name in _MATH_ARG:
            save = self.pos
            if src.startswith("*", self.pos):
                self.pos += 1
            if (
                name == "sqrt"
                and src.startswith("[", self.pos)
                and "]" in src[self.pos : self.pos + 20]
            ):
                self.pos = src.index("]", self.pos) + 1
            if all(self._raw_arg() is not None for _ in range(_MATH_ARG[name])):
                return [_Node("math", src[start : self.pos])]
            self.pos = save
        if len(name) == 1 and name in "uvHckrdbt":  # letter accents: \c{c}, \v c
            base = self._raw_arg()
            if (
                base is None
                and src[self.pos : self.pos + 1] == " "
                and src[self.pos + 1 : self.pos + 2].isalpha()
            ):
                base, self.pos = src[self.pos + 1], self.pos + 2
            done = accent(name, base) if base is not None else None
            if done is not None:
                return [_txt(done)]
            self.pos = start + 1 + len(name)
        known = _TEXT_SYMBOLS.get(name)
        bare = not src.startswith("{", self.pos) or src.startswith("{}", self.pos)
        if known is not None or (bare and symbol(name) is not None):
            if src.startswith("{}", self.pos):
                self.pos += 2
            return [_txt(known)] if known is not None else [_Node("math", "\\" + name)]
        out = [_txt("\\" + name)]  # unknown: keep the source, braces included
        while src.startswith("{", self.pos) and self.depth < _MAX_DEPTH:
            children, closed = self._group()
            out += [_txt("{"), _style("", children), *([_txt("}")] if closed else [])]
        return out

    def _other(self, c: str) -> list[_Node]:
        src, i = self.src, self.pos
        if c == "$":
            return self._dollar()
        if c == "\n":
            par = _PAR.match(src, i)
            self.pos = par.end() if par else i + 1
            return [_Node("par", "\n\n")] if par else [_txt("\n")]
        if c == "&":
            entity = _ENTITY.match(src, i)
            if entity:
                self.pos = entity.end()
                return [_txt(html.unescape(entity.group()))]
        elif c == "[":
            link = _MD_LINK.match(src, i)
            if link:
                self.pos = link.end()
                inner, _ = _Parser(link.group(1), self.depth + 1).parse()
                url = _UNESCAPE.sub(
                    r"\1", link.group(2)
                )  # [text](url): all characters kept, both parts link
                return [
                    _txt("["),
                    _Node("link", url, inner),
                    _txt("]("),
                    _Node("link", url, [_txt(url)]),
                    _txt(")"),
                ]
        elif c == "`":
            return self._code()
        elif c in "*_":
            return self._delimiter(c)
        elif c == "h":
            return self._url()
        self.pos = i + 1
        return [_txt(c)]

    def _dollar(self) -> list[_Node]:
        src, i = self.src, self.pos
        if src.startswith("$$", i):
            k = self._find_close("$$", i + 2, 3000)
            if k > i + 2 and src[i + 2 : k].strip():
                self.pos = k + 2
                return [_Node("math", src[i + 2 : k])]
        else:
            k = self._find_close("$", i + 1, 300)
            body = src[i + 1 : k] if k > i + 1 else ""
            if _inline_math(body, src[k + 1 : k + 2]):
                self.pos = k + 1
                return [_Node("math", body)]
        self.pos = i + 1
        return [_txt("$")]

    def _code(self) -> list[_Node]:
        src, i = self.src, self.pos
        run = len(src[i:]) - len(src[i:].lstrip("`"))
        close = re.compile(rf"(?<!`)`{{{run}}}(?!`)").search(src, i + run, i + run + 1000)
        if (
            close
            and not _BLANK.search(src, i, close.start() + 1)
            and src[i + run : close.start()].strip()
        ):
            body = src[i + run : close.start()]
            if len(body) > 1 and body[0] == " " and body[-1] == " ":
                body = body[1:-1]
            self.pos = close.end()
            return [_Node("code", body)]
        self.pos = i + run
        return [_txt("`" * run)]

    def _delimiter(self, c: str) -> list[_Node]:
        src, i = self.src, self.pos
        j = i
        while j < len(src) and src[j] == c:
            j += 1
        self.pos = j
        prev = src[i - 1] if i > 0 else " "
        nxt = src[j] if j < len(src) else " "
        left = not _is_space(nxt) and (not _is_punct(nxt) or _is_space(prev) or _is_punct(prev))
        right = not _is_space(prev) and (not _is_punct(prev) or _is_space(nxt) or _is_punct(nxt))
        if c == "*":
            opens, closes = left, right
            if (j - i == 1 and prev.isalnum() and nxt.isalnum()) or (
                prev.isdigit() and nxt.isdigit()
            ):
                opens = closes = False  # 2*3*4, x*y: arithmetic, not emphasis
        else:
            opens = left and (not right or _is_punct(prev))
            closes = right and (not left or _is_punct(nxt))
        if not (opens or closes):
            return [_txt(src[i:j])]
        return [_Node("delim", c, count=j - i, opens=opens, closes=closes)]

    def _url(self) -> list[_Node]:
        m = _URL.match(self.src, self.pos)
        url = m.group() if m else ""
        scheme = self.src.index("://", self.pos) + 3 - self.pos
        while len(url) > scheme and (
            url[-1] in ".,;:!?*_~'\"" or _unbalanced(url, "(", ")") or _unbalanced(url, "[", "]")
        ):
            url = url[:-1]
        if len(url) <= scheme:
            self.pos += scheme
            return [_txt(self.src[self.pos - scheme : self.pos])]
        self.pos += len(url)
        clean = _UNESCAPE.sub(r"\1", url)
        return [_Node("link", clean, [_txt(clean)])]


def _inline_math(body: str, after: str) -> bool:
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


def _unbalanced(url: str, left: str, right: str) -> bool:
    return url[-1] == right and url.count(left) < url.count(right)


_KNOWN = frozenset(_TEXT_STYLE).union(
    _DECLARATION, _TEXT_SYMBOLS, _MATH_ARG, _DROP_ARG, _ARG_MACROS, _words("url ding begin end")
)


def _as_text(node: _Node) -> _Node:
    return _txt(node.text * node.count) if node.kind == "delim" else node


def _resolve_emphasis(nodes: list[_Node]) -> list[_Node]:
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
        items[oi + 1 : ci] = [
            _style("bold" if use == 2 else "italic", [_as_text(n) for n in items[oi + 1 : ci]])
        ]
        opener.count -= use
        closer.count -= use
        ci = oi + 2
        if opener.count == 0:
            del items[oi]
            ci -= 1
        if closer.count == 0:
            del items[ci]
    return [_as_text(n) for n in items]


def _flatten(nodes: list[_Node], base: Segment = Segment("")) -> list[Segment]:
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
    return [replace(seg, text="".join(texts)) for seg, texts in runs]


def _render(text: str) -> list[Segment]:
    src = _LATEX_QUOTE.sub(r"“\1”", text.replace("\r\n", "\n").replace("\r", "\n"))
    nodes, _ = _Parser(src).parse()
    return _merge(_flatten(nodes))


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
    """The characters a reader sees: ``"".join(s.text for s in render_abstract(text))``."""
    return "".join(s.text for s in render_abstract(text))
