"""Make paper text safe to put on a terminal: control characters shown, never sent.

Titles, abstracts, notes, tags, file names and links are data. A terminal escape (``\\x1b[31m``, an
OSC 52 clipboard write), a bidi override or another control character must neither reach the
terminal nor vanish silently: C0 controls and DEL become their visible Unicode "control pictures"
(``␛``, ``␇``, ``␡``), C1 controls (``\\x9b``, the one-byte CSI), bidi controls, line/paragraph
separators and lone surrogates are shown as ``⟨U+009B⟩``. So no text from a file or the network can
start or end an escape sequence. Markup-like text (``[bold]``, ``[CLS]``) needs no treatment here:
no output parses paper text as markup.

This module is the one sanitiser between data and every output:

- :func:`visible` / :func:`one_line`: text for the screen (app, CLI lines, notifications, clipboard);
- :func:`in_place`: the same, one character for one, for the note editor's lines;
- :func:`file_name`: a file name in a message: as :func:`visible`, and a newline or tab in it
  shown too (``␊``, ``␉``), so the name stays one line and reads as it is;
- :func:`document`: a whole text file printed to a terminal (exports to standard output): tabs and
  line ends kept, every other control made visible;
- :func:`json_text`: a JSON document for a terminal: C1 controls, bidi controls and the like written
  as ``\\uXXXX`` escapes (the same data for a JSON reader);
- :func:`web_link`: the one test of a link: only absolute ``http(s)`` URLs free of controls and
  white space are kept, made clickable or opened.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = [
    "document",
    "file_name",
    "has_markup",
    "in_place",
    "json_text",
    "markup",
    "one_line",
    "shown_line",
    "visible",
    "web_link",
]

_C0_C1 = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")

# The patterns below are compiled at their first use: the first frame's text needs none of them.


@cache
def _document_controls() -> re.Pattern[str]:
    """What :func:`document` shows by its stand-in: it keeps tabs, line feeds and the CR of a CRLF
    line end."""
    return re.compile(r"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")


@cache
def _not_in_ascii_link() -> re.Pattern[str]:
    """What :func:`_not_in_link` matches in ASCII text."""
    return re.compile(r"[\x00-\x20\x7f]")


@cache
def _any_control() -> re.Pattern[str]:
    """Every control character, a newline and a tab too (:func:`file_name`)."""
    return re.compile(r"[\x00-\x1f\x7f\x80-\x9f]")


# The three patterns below span the whole BMP: compiling one builds a 64K-character map, so each is
# compiled at its first use, and text that is all ASCII (which none of them can match but for DEL
# and the C0 controls, handled apart) never needs them.


@cache
def _shown_as_code() -> re.Pattern[str]:
    """Shown as ``⟨U+XXXX⟩``: bidi embeddings, overrides, isolates and marks, the line and paragraph
    separators, and lone surrogates (which no terminal encoding can carry); no ASCII character."""
    return re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\ud800-\udfff]")


@cache
def _json_raw() -> re.Pattern[str]:
    """What JSON text leaves raw and a terminal must not get raw (C0 controls are escaped by JSON);
    of ASCII, DEL alone."""
    return re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\ud800-\udfff]")


@cache
def _not_in_link() -> re.Pattern[str]:
    """What a link may not contain: controls, white space, their visible stand-ins (text already
    made :func:`visible`), bidi and other format characters; of ASCII, :func:`_not_in_ascii_link`'s."""
    return re.compile(
        "[\x00-\x20\x7f-\xa0\u2400-\u2426\u27e8\u27e9\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202f"
        "\u205f-\u206f\u3000\ufeff\ufff9-\ufffb\ud800-\udfff]"
    )


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"⟨U+{code:04X}⟩"


def _code(match: re.Match[str]) -> str:
    return f"⟨U+{ord(match.group()):04X}⟩"


def visible(text: str, *, keep_newlines: bool = True) -> str:
    """Return ``text`` with every control character replaced by a visible stand-in.

    Args:
        text: any text.
        keep_newlines: keep ``\\n`` (and turn tabs into a space); when false, newlines
            and tabs become spaces too, for one-line displays such as list rows.

    Returns:
        Text holding no C0 control but ``\\n`` (none when ``keep_newlines`` is false), no DEL, no C1
        control, no bidi control and no lone surrogate; a lone ``\\r`` shows as ``␍``.
    """
    text = text.replace("\r\n", "\n").replace("\t", " ")
    if not keep_newlines:
        text = text.replace("\n", " ")
    text = _C0_C1.sub(_picture, text)
    # Every character _shown_as_code() matches is unprintable (a format character, a separator, a
    # surrogate): text printable but for its line ends holds none, and needs the pattern no more
    # than ASCII does (a row's ★, an accented title).
    if text.isascii() or text.replace("\n", "").isprintable():
        return text
    return _shown_as_code().sub(_code, text)


def file_name(path: object) -> str:
    """A file name (a :class:`~pathlib.Path` or text) for a message: every control character,
    a newline and a tab too, shown by its stand-in (``new␊line.csv``); one line, no character
    dropped or merged, so a name with odd characters is still told apart."""
    text = _any_control().sub(_picture, str(path))
    return text if text.isascii() else _shown_as_code().sub(_code, text)


def one_line(text: str) -> str:
    """``visible`` text on one line, runs of white space collapsed (for rows and labels)."""
    return " ".join(visible(text, keep_newlines=False).split())


@cache
def _in_place_table() -> dict[int, int]:
    """:func:`in_place`'s table, made at its first call (the note editor's; 2,000 entries): C0
    controls but tab and newline → ``␀``…``␟``, DEL → ``␡``; C1, bidi and the other characters
    :func:`visible` shows as ``⟨U+XXXX⟩`` → ``�`` (U+FFFD)."""
    return {code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A)} | {0x7F: 0x2421} | {
        code: 0xFFFD
        for code in [*range(0x80, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C,
                     0x2028, 0x2029, *range(0xD800, 0xE000)]
    }  # fmt: skip


@cache
def markup() -> re.Pattern[str]:
    """What the renderer (:func:`paperdeck.text.render.render_plain`) may show differently from the
    source: math, macros, Markdown emphasis, code and links, HTML entities; with LaTeX's closing
    quote (``''``), :func:`has_markup`. Text without any is shown as it is (the renderer, and its
    LaTeX library, are then not even imported). Compiled at its first use: the app's first frame
    shows no rendered title."""
    return re.compile(r"[$\\*_`\[&<~]")


def has_markup(text: str) -> bool:
    """Whether the renderer may show ``text`` otherwise than written: :func:`markup`, or ``''``
    (a character class and a substring test: an alternation in the pattern scans slower)."""
    return markup().search(text) is not None or "''" in text


def shown_line(text: str, raw: bool = False) -> str:
    """A title (or any one-line text from a file) as every output shows it: LaTeX math as Unicode,
    Markdown and LaTeX emphasis as their words (``$\\ell_1$`` → ``ℓ₁``, ``R\\'enyi`` → ``Rényi``),
    then made one safe line (:func:`one_line`); ``raw`` (``--raw``): the source text, made safe.
    The one way the command line and the plan print a title."""
    if not raw and has_markup(text):
        from paperdeck.text.render import render_plain  # deferred: most titles have no markup

        text = render_plain(text)
    return one_line(text)


def in_place(text: str) -> str:
    """``text`` with each control character shown by one visible character, in its place: for an
    editor, whose cursor counts characters. Tabs and newlines are kept; C0 controls become
    ``␀``…``␟``, DEL ``␡``, C1 and bidi controls, line/paragraph separators and lone surrogates
    ``�``. The result has as many characters as ``text``."""
    return text.translate(_in_place_table())


def document(text: str) -> str:
    """A whole text file (an export: CSV, BibTeX, Markdown) as it may be printed to a terminal.

    Tabs, ``\\n`` and ``\\r\\n`` line ends are kept (a CSV or TSV stays one); every other control
    character, a lone ``\\r``, bidi controls and lone surrogates become visible as in :func:`visible`.
    """
    text = _document_controls().sub(_picture, text)
    return text if text.isascii() else _shown_as_code().sub(_code, text)


def json_text(text: str) -> str:
    """A JSON document (``json.dumps`` or orjson output, non-ASCII kept) safe for a terminal.

    JSON escapes C0 controls itself; DEL, C1 controls, bidi controls, the line/paragraph separators
    and lone surrogates are written as ``\\uXXXX`` escapes here. Those characters can only occur
    inside JSON strings, so the document means the same to a JSON reader.
    """
    if text.isascii():
        return text.replace("\x7f", "\\u007f")
    return _json_raw().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def web_link(url: str) -> str:
    """``url`` when it is a link paperdeck may make clickable or open, else ``""``.

    Kept: an absolute ``http://`` or ``https://`` URL with a host, holding no white space, no
    control character (nor a visible stand-in of one: ``␇``, ``⟨U+…⟩``) and no bidi or other
    invisible format character. ``javascript:``, ``file:``, ``data:``, relative and
    scheme-less links give ``""``.
    """
    if not url or (_not_in_ascii_link() if url.isascii() else _not_in_link()).search(url):
        return ""
    if _plain_http(url):  # what urlsplit would keep, told without importing urllib (and ipaddress)
        return url
    from urllib.parse import urlsplit  # deferred: the sanitiser's import stays cheap for what tests no link

    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unbalanced "[" in the host
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or not parts.hostname:
        return ""
    return url


#: The characters of a host :func:`_plain_http` reads without ``urllib``.
_PLAIN_HOST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-"


def _plain_http(url: str) -> bool:
    """Whether ``url`` (no white space nor control in it) is ``http://`` or ``https://`` (in lower
    case), then a host of ASCII letters, digits, dots and hyphens alone (no user, port or bracket),
    then the end or one of ``/?#``: a URL :func:`web_link` keeps, ``urlsplit`` finding the scheme,
    the host as its ``netloc`` and ``hostname``. ``False`` says nothing: the caller asks ``urlsplit``."""
    if url.startswith("https://"):
        rest = url[8:]
    elif url.startswith("http://"):
        rest = url[7:]
    else:
        return False
    end = len(rest)
    for mark in "/?#":
        at = rest.find(mark, 0, end)
        if at >= 0:
            end = at
    return end > 0 and not rest[:end].strip(_PLAIN_HOST)
