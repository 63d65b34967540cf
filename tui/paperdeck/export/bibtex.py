"""Papers as BibTeX that bibtexparser (v2) and BibTeX itself read back.

Each paper gets the entry its source gave (:attr:`Paper.bibtex`, written as it was, its citation key
changed only when another exported entry already has it, a ``title``, ``author`` or ``abstract``
that would not read back as the paper's written from the paper: :func:`_with_stored_text`) or, when
there is none or it does not parse, a generated entry: ``@inproceedings`` (``@misc`` for papers
rejected, withdrawn or under review, as OpenReview does) with ``title``, ``author`` (joined by
`` and ``), ``booktitle`` (``"ICLR 2026"``), ``year``, ``url``, ``doi``, ``eprint``, ``keywords`` and
``abstract``. Keywords are separated by ``", "``, as readers split them; a comma inside one keyword
is written ``;``. A title paperdeck derived from the abstract is said to be one in ``note``
(:mod:`paperdeck.export.titles`). No field holds TeX's ``^^`` character notation (``^^5c`` is a
backslash to TeX). Every entry, the source's as well (before its closing brace), also gets the
:data:`ROUND_TRIP_FIELDS` it lacks, ``venue = {COLM 2025}`` and ``decision = {spotlight}``:
:mod:`paperdeck.sources.bibtex` reads them first, so an export imported again keeps them.

Generated keys read ``lastname2026firstword`` (``anonymous…`` without authors), ASCII only, from a
letter on (:func:`base_key`);
repeated keys (compared case-insensitively, as BibTeX does) get ``a``, ``b``, … ``z``, ``aa`` …

Paper text is LaTeX-flavoured plain text (``$…$`` math and macros kept, ``%`` meaning per cent):
:func:`bibtex_text` keeps the LaTeX and escapes what would break a field or a LaTeX run.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from bibtexparser.entrypoint import parse_string, write_string
from bibtexparser.library import Library
from bibtexparser.middlewares.parsestack import default_unparse_stack
from bibtexparser.model import Entry, Field
from bibtexparser.writer import BibtexFormat

import paperdeck.sources.bibtex  # noqa: F401  (silences bibtexparser's log records, as on import)
from paperdeck.export.titles import DERIVED_TITLE_NOTE, export_title
from paperdeck.model.paper import Paper
from paperdeck.text.abstract_parser import is_inline_math
from paperdeck.text.latex_macros import ENVIRONMENTS, KNOWN
from paperdeck.text.latex_math import symbol
from paperdeck.text.render import render_plain

__all__ = [
    "NOT_PUBLISHED",
    "KeyMaker",
    "base_key",
    "bibtex_entries",
    "bibtex_entry",
    "bibtex_text",
    "citation_keys",
    "source_entry",
    "unsafe_tex",
]

#: An OpenReview id in a link (``…/forum?id=B16Jem9xe``).
_OPENREVIEW_ID = re.compile(r"[?&]id=([A-Za-z0-9_\-]+)")
#: Decisions whose paper is not (yet) in the proceedings: a ``@misc`` entry, as OpenReview writes.
NOT_PUBLISHED = frozenset({"under-review", "reject", "withdrawn", "desk-rejected"})
#: Title words a key skips (``"On the …"`` → the next word).
_STOP_WORDS = frozenset(
    ("a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "towards", "toward", "via", "is", "are", "do",
     "does", "can", "how", "what", "when", "why", "from", "by", "at", "as", "beyond", "into")
)  # fmt: skip
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
_KEY_WORD = re.compile(r"[a-z0-9]+")
_KEY_AT_START = re.compile(r"^(\s*@\s*[A-Za-z]+\s*[{(]\s*)([^,\s]*)")
#: After a doubled backslash, these are a doubled escape (``\\\\%`` for ``\\%``), as the renderer reads them.
_DOUBLED = frozenset("%&_#${}")
#: Characters that need a look (everything else is copied as it is).
_SPECIAL = re.compile(r"[\\$%&#_^~{}]")
_CONTROL_WORD = re.compile(r"\\[A-Za-z]+")
#: A hyphen before another: written ``-{}-``, as LaTeX (and the BibTeX reader) would read ``--`` as a dash.
_DASHES = re.compile(r"-(?=-)")
#: Macros that read or write files, run programs, or change what TeX reads next (definitions,
#: category codes, names built from text): never written from paper text, whatever else knows them.
_NEVER = frozenset(
    [
        "input", "include", "includeonly", "InputIfFileExists", "IfFileExists", "openin", "openout", "read",
        "readline", "write", "immediate", "closein", "closeout", "endinput", "write18", "ShellEscape", "directlua",
        "luaexec", "latelua", "special", "pdfshellescape", "def", "edef", "gdef", "xdef", "let", "futurelet",
        "newcommand", "renewcommand", "providecommand", "DeclareRobustCommand", "newenvironment",
        "renewenvironment", "catcode", "lccode", "uccode", "mathcode", "csname", "endcsname", "expandafter",
        "noexpand", "scantokens", "makeatletter", "makeatother", "usepackage", "RequirePackage", "documentclass",
        "lowercase", "uppercase", "everyjob", "everypar", "everymath", "everyeof", "output", "shipout", "end",
        "bye", "jobname", "verbatiminput", "lstinputlisting", "includegraphics", "import", "subimport", "subfile",
    ]
)  # fmt: skip
#: Math macros with structure (arguments, sizes, fonts, accents) that the app's renderer reads;
#: argument-less symbols (``\alpha``, ``\leq``) are known by :func:`paperdeck.text.latex_math.symbol`.
_MATH_STRUCTURE = frozenset(
    [
        "frac", "tfrac", "dfrac", "sqrt", "mathbb", "mathbbm", "mathcal", "mathscr", "mathfrak", "mathbf",
        "boldsymbol", "bm", "pmb", "mathit", "mathsf", "mathtt", "mathrm", "mathnormal", "operatorname", "text",
        "textrm", "textsf", "textnormal", "textup", "textsc", "mbox", "hbox", "mathop", "mathrel", "mathbin",
        "mathord", "boxed", "substack", "overbrace", "underbrace", "cancel", "ensuremath", "hat", "widehat",
        "tilde", "widetilde", "bar", "overline", "vec", "dot", "ddot", "check", "breve", "acute", "grave",
        "mathring", "underline", "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl",
        "Bigr", "biggl", "biggr", "Biggl", "Biggr", "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle",
        "limits", "nolimits", "nonumber", "notag", "boldmath", "cal", "mit", "phantom", "hphantom", "vphantom",
        "mspace", "color", "textbf", "textit", "emph", "textsl", "texttt", "binom", "tbinom", "dbinom", "overset",
        "underset", "stackrel", "xrightarrow", "xleftarrow", "not",
    ]
)  # fmt: skip
#: Environments ``\begin{…}`` / ``\end{…}`` may name (any other, ``filecontents`` say, could write a file).
_SAFE_ENVIRONMENTS = ENVIRONMENTS | frozenset(
    [
        "equation",
        "equation*",
        "align",
        "align*",
        "aligned",
        "cases",
        "matrix",
        "pmatrix",
        "bmatrix",
        "vmatrix",
        "Vmatrix",
        "array",
        "split",
        "gather",
        "gathered",
    ]
)
#: A backslash and one non-letter that is kept (an escape, an accent, math delimiters; a space only in math).
_SAFE_SYMBOLS = frozenset("\\{}$%&#_()[],;:!'\"^~`=.-/|<>")
_ENVIRONMENT_NAME = re.compile(r"\{([A-Za-z*]+)\}")
#: Longest span between ``$`` signs read as math (as the renderer does).
_MATH_SPAN = 300
_FORMAT = BibtexFormat()  # type: ignore[no-untyped-call]
_FORMAT.indent = "  "
_UNPARSE = default_unparse_stack(allow_inplace_modification=True)


# -- field text ------------------------------------------------------------------------------


def bibtex_text(text: str) -> str:
    """``text`` as the inside of a braced BibTeX field (``title = {…}``), on one line.

    Kept: LaTeX macros, ``$…$`` / ``$$…$$`` / ``\\(…\\)`` / ``\\[…\\]`` math (spans chosen as the
    app's renderer chooses them), balanced braces that are a macro's argument (``\\emph{x}``) or in
    math, non-ASCII text. A pair of braces of the text (``{GUI}``, which the app shows as braces)
    is written ``\\textbraceleft{}GUI\\textbraceright{}``: ``paperdeck import`` would drop a group's.
    Escaped: ``%`` ``&`` ``#`` (not already escaped), a ``$`` that opens no math, ``_``, ``^`` and ``~`` outside math
    (``\\textasciitilde{}``: a tilde, not LaTeX's tie), a backslash before a space or at the end
    (``\\textbackslash{}``: not LaTeX's control space), ``--`` outside math (``-{}-``: the hyphens
    the app shows, not LaTeX's dash); a doubled escape (``50\\\\%``, as some real abstracts have)
    is read as the app reads it (``50\\%``). A brace without its partner becomes
    ``\\textbraceleft{}`` / ``\\textbraceright{}``
    (``\\lbrace{}`` / ``\\rbrace{}`` in math), so braces balance both as BibTeX counts them (every
    brace) and as bibtexparser does (braces not after a backslash). White space runs (newlines
    too) become one space: a line starting with ``@`` would start a new entry.
    """
    text = " ".join(text.split())
    if _SPECIAL.search(text) is None:
        return _DASHES.sub("-{}", text)
    tokens: list[str] = []
    in_math: list[bool] = []
    bare: list[int] = []  # positions in tokens of `{` `}`, then of `\{` `\}`
    escaped: list[int] = []
    groups: list[tuple[int, bool]] = []  # open text braces: (position, a macro's argument?)
    literal: set[int] = set()  # positions of text braces paired with no macro: characters of the text
    math_end: str | None = None  # the closing delimiter while in math
    i, n = 0, len(text)

    def emit(token: str, math: bool) -> None:
        tokens.append(token)
        in_math.append(math)

    while i < n:
        special = _SPECIAL.search(text, i)
        start = n if special is None else special.start()
        if start > i:
            run = text[i:start]  # a run of ordinary characters; `--` outside math stays two hyphens
            emit(run if math_end is not None else _DASHES.sub("-{}", run), math_end is not None)
            i = start
            continue
        char = text[i]
        math = math_end is not None
        if math_end is not None and text.startswith(math_end, i):
            emit(math_end, True)
            i += len(math_end)
            math_end = None
            continue
        if char == "\\":
            if i + 1 >= n:
                emit("\\textbackslash{}", math)
                i += 1
                continue
            follower = text[i + 1]
            if follower == "\\" and i + 2 < n and text[i + 2] in _DOUBLED:
                i += 1  # `50\\%`: a doubled escape (as the app reads it), written `50\%`
                continue
            word = _CONTROL_WORD.match(text, i)
            if word is not None:
                name = word.group()[1:]
                if _kept_macro(name, text, word.end()):
                    emit(word.group(), math)
                else:  # written as its text: no TeX command comes from a paper
                    emit(("\\backslash{}" if math else "\\textbackslash{}") + name, math)
                i = word.end()
                continue
            if follower not in _SAFE_SYMBOLS and not (math and follower == " "):  # `\ ` is a space in math only
                emit("\\backslash{}" if math else "\\textbackslash{}", math)
                i += 1
                continue
            if follower in "{}":
                escaped.append(len(tokens))
            elif not math and follower in "([":
                math_end = "\\)" if follower == "(" else "\\]"
            emit(text[i : i + 2], math)
            i += 2
            continue
        if char == "$":
            if math:
                emit("\\$", True)  # a `$` inside \( … \): literal
                i += 1
                continue
            close = _math_close(text, i)
            if close is None:
                emit("\\$", False)
                i += 1
            else:
                delimiter = "$$" if text.startswith("$$", i) else "$"
                emit(delimiter, True)
                i += len(delimiter)
                math_end = delimiter
            continue
        if char in "{}":
            if not math:
                _text_group(char, len(tokens), tokens, groups, literal)
            bare.append(len(tokens))
            emit(char, math)
        elif char in "%&#":
            emit("\\" + char, math)
        elif char == "_" and not math:
            emit("\\_", False)
        elif char == "^" and not math:
            emit("\\textasciicircum{}", False)
        elif char == "~" and not math:  # a tilde of the text, as the app shows it: no tie
            emit("\\textasciitilde{}", False)
        elif char == "^":  # in math; `^^5c` is TeX's way to write a backslash: never two `^` in a row,
            # neither from the text's own `^^` nor after an accent `\^` just written
            before = "{}" if tokens and tokens[-1].endswith("^") else ""
            emit(before + ("^{}" if text.startswith("^^", i) else "^"), True)
        else:
            emit(char, math)  # `_` or `^` in math
        i += 1
    if tokens and tokens[-1] == "\\\\":
        tokens[-1] = "\\\\ "  # `\\}` would hide the field's closing brace from bibtexparser
    for position in literal:  # `{braces}` the app shows as braces: read back as braces, not a group
        tokens[position] = "\\textbraceright{}" if tokens[position] == "}" else "\\textbraceleft{}"
    bare = [position for position in bare if position not in literal]
    for positions in (bare, escaped):
        for position in _unmatched(tokens, positions):
            closing = tokens[position].endswith("}")
            if in_math[position]:
                tokens[position] = "\\rbrace{}" if closing else "\\lbrace{}"
            else:
                tokens[position] = "\\textbraceright{}" if closing else "\\textbraceleft{}"
    return "".join(tokens)


#: A kept macro, or one written as text (``\\textbackslash{}input``: the reader keeps its arguments).
_MACRO_BEFORE = re.compile(r"\\(?:(?:text)?backslash\{\})?[A-Za-z]+")
#: The accents whose braced letter follows them (``\\'{e}``): their group is their argument.
_ACCENTS = frozenset("\\" + char for char in "'`^\"~=.")


def _text_group(char: str, position: int, tokens: list[str], groups: list[tuple[int, bool]], literal: set[int]) -> None:
    """Note a brace of the text outside math at ``position`` in ``tokens``. A pair that is no
    macro's argument (after a kept macro, an accent or an argument's closing brace) nor inside one
    would be read back by ``paperdeck import`` as a case-protecting group and dropped: its two
    positions go in ``literal``, to be written as the braces the app shows."""
    if char == "{":
        before = tokens[-1] if tokens else ""
        argument = _MACRO_BEFORE.fullmatch(before) is not None or before in _ACCENTS  # `\\emph{x}`
        argument = argument or (before == "}" and position - 1 not in literal)  # `\\frac{a}{b}`
        groups.append((position, argument or any(kept for _, kept in groups[-1:])))
    elif groups:
        start, kept = groups.pop()
        if not kept:
            literal.update((start, position))


def _kept_macro(name: str, text: str, end: int) -> bool:
    """Whether ``\\name`` (ending at ``end`` in ``text``) is written as a macro: one the app's
    renderer reads (text macros, math symbols and structure), never one of :data:`_NEVER`;
    ``\\begin`` / ``\\end`` only with an environment of :data:`_SAFE_ENVIRONMENTS`. Every other
    one is written as text: a ``.bib`` from paperdeck never runs a command that came in a paper."""
    if name in ("begin", "end"):
        environment = _ENVIRONMENT_NAME.match(text, end)
        return environment is not None and environment.group(1) in _SAFE_ENVIRONMENTS
    if name in _NEVER:
        return False
    return name in KNOWN or name in _MATH_STRUCTURE or symbol(name) is not None


def unsafe_tex(text: str) -> bool:
    """Whether ``text`` (a source's own BibTeX entry) holds a macro :func:`bibtex_text` would not
    keep, or TeX's ``^^`` character notation: such an entry is generated anew, not copied."""
    if "^^" in text:
        return True
    return any(not _kept_macro(word.group()[1:], text, word.end()) for word in _CONTROL_WORD.finditer(text)) or any(
        text[i + 1] not in _SAFE_SYMBOLS and not text[i + 1].isalpha() for i in _backslashes(text)
    )


def _backslashes(text: str) -> list[int]:
    """Where in ``text`` each backslash that starts a command (not the second of ``\\\\``) is,
    when a character follows it."""
    found: list[int] = []
    i = text.find("\\")
    while 0 <= i < len(text) - 1:
        found.append(i)
        i = text.find("\\", i + 2 if text[i + 1] == "\\" else i + 1)
    return found


def _math_close(text: str, start: int) -> int | None:
    """Where the math opened by the ``$`` (or ``$$``) at ``start`` closes, or ``None`` when that
    ``$`` is a literal dollar (no partner within reach, or prices such as ``$5 and $10``)."""
    if text.startswith("$$", start):
        end = _find_unescaped(text, "$$", start + 2)
        return end if end is not None and end - start <= _MATH_SPAN else None
    end = _find_unescaped(text, "$", start + 1)
    if end is None or end - start > _MATH_SPAN:
        return None
    return end if is_inline_math(text[start + 1 : end], text[end + 1 : end + 2]) else None


def _find_unescaped(text: str, needle: str, start: int) -> int | None:
    i = start
    while True:
        i = text.find(needle, i)
        if i < 0:
            return None
        backslashes = len(text[:i]) - len(text[:i].rstrip("\\"))
        if backslashes % 2 == 0:
            return i
        i += 1


def _unmatched(tokens: list[str], positions: list[int]) -> list[int]:
    """The brace tokens at ``positions`` that have no partner (stack matching)."""
    stack: list[int] = []
    lone: list[int] = []
    for position in positions:
        if tokens[position].endswith("{"):
            stack.append(position)
        elif stack:
            stack.pop()
        else:
            lone.append(position)
    return lone + stack


# -- citation keys ---------------------------------------------------------------------------


#: A terminal escape sequence (CSI, OSC or a two-character one) or another control character: no
#: part of a name or title word, so none of its letters reach a key.
_CONTROLS = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.?)|[\x00-\x1f\x7f-\x9f]", re.DOTALL
)


def _ascii_words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", _CONTROLS.sub(" ", text)).encode("ascii", "ignore").decode("ascii")
    return _KEY_WORD.findall(folded.casefold())


def _last_name(name: str) -> str:
    """The last word of ``name`` that begins with a letter, name suffixes left out; ``""`` when the
    name has no such word (a name in a script without a Latin transliteration, ``"Author 0"``'s
    ``0``)."""
    words = [word for word in _ascii_words(name) if word[0].isalpha()]
    while len(words) > 1 and words[-1] in _NAME_SUFFIXES:
        words.pop()
    return words[-1] if words else ""


def base_key(paper: Paper) -> str:
    """The readable key of a paper before disambiguation: first author's last name, year, first
    title word that is not a stop word (``"bengio2026diffusion"``); ASCII letters and digits,
    beginning with a letter. Terminal escapes and other controls in a name or title are no part of
    the key. The name is the first author's whose name has a word in Latin letters (after
    transliteration: ``Ångström`` → ``angstrom``); when no author's has, the key is made of the
    title alone (``"diffusion2026ideas"``); papers without authors are ``anonymous…`` (as
    OpenReview's entries under review)."""
    author = next((last for name in paper.authors if (last := _last_name(name))), "")
    words = _ascii_words(render_plain(export_title(paper)[0]))
    content = [w for w in words if w not in _STOP_WORDS]
    word = next(iter(content), words[0] if words else "untitled")
    if author or not paper.authors:
        return f"{author or 'anonymous'}{paper.year or ''}{word[:24]}"
    lead = next((w for w in content if w[0].isalpha()), "paper")
    rest = next((w for w in content if w != lead), "")
    return f"{lead[:24]}{paper.year or ''}{rest[:24]}"


class KeyMaker:
    """Hands out citation keys, each once (case-insensitively): a taken key gets ``a``, ``b``, …"""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def claim(self, key: str) -> str:
        """``key``, or the first of ``keya``, ``keyb``, … ``keyaa`` … not yet handed out."""
        candidate, number = key, 0
        while candidate.casefold() in self._taken:
            number += 1
            candidate = key + _letters(number)
        self._taken.add(candidate.casefold())
        return candidate


def _letters(number: int) -> str:
    """1 → ``a``, 26 → ``z``, 27 → ``aa`` (bijective base 26)."""
    out = ""
    while number:
        number, rest = divmod(number - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


# -- entries ---------------------------------------------------------------------------------


def bibtex_entry(paper: Paper, key: str) -> str:
    """A generated entry for ``paper`` under ``key`` (see the module docstring), ending in a
    newline; fields the paper lacks are left out."""
    kind = "misc" if paper.decision in NOT_PUBLISHED else "inproceedings"
    title, derived = export_title(paper)
    fields: list[tuple[str, str]] = [("title", title)]
    if paper.authors:
        fields.append(("author", _authors_field(paper)))
    notes = [DERIVED_TITLE_NOTE] if derived else []
    if kind == "inproceedings" and paper.venue_label:
        fields.append(("booktitle", paper.venue_label))
    elif paper.venue_label:
        notes.append(paper.decision_raw or f"Submitted to {paper.venue_label}")
    if notes:
        fields.append(("note", ". ".join(notes)))
    if paper.year:
        fields.append(("year", str(paper.year)))
    url = paper.openreview_url or paper.arxiv_url or paper.pdf_url
    if url:
        fields.append(("url", url))
    if paper.doi:
        fields.append(("doi", paper.doi))
    if paper.arxiv_id:
        fields += [("eprint", paper.arxiv_id), ("archiveprefix", "arXiv")]
    if paper.keywords:
        fields.append(("keywords", ", ".join(keyword.replace(",", ";") for keyword in paper.keywords)))
    if paper.abstract:
        fields.append(("abstract", paper.abstract))
    fields += round_trip_fields(paper)
    entry = Entry(kind, key, [Field(name, _field_value(name, value)) for name, value in fields])
    # The default unparse stack encloses each value in braces; in place: the library is ours.
    return write_string(Library([entry]), unparse_stack=_UNPARSE, bibtex_format=_FORMAT)


def _field_value(name: str, value: str) -> str:
    if name in ("url", "doi", "eprint", "openreview"):
        return _verbatim(value)
    if name == "author":  # each name written by `_author` already, a name with ` and ` braced whole
        return value
    return bibtex_text(value)


def _verbatim(value: str) -> str:
    """A URL or identifier: no LaTeX in it, so only what breaks a field is escaped, and ``^``
    (percent-encoded): TeX reads ``^^5c`` as a backslash, even inside ``\\url``'s argument when
    a macro took it first."""
    text = "".join(value.split())
    text = text.replace("\\", "").replace("{", "%7B").replace("}", "%7D").replace("^", "%5E")
    return text


def name_suffix(name: str) -> tuple[str, str]:
    """``name`` without its generational suffix, and the suffix (``"Jan van der Berg, Jr."`` →
    ``("Jan van der Berg", "Jr.")``, ``"Martin Luther King Jr."`` too); ``(name, "")`` for a name
    without one. A byline's ``, Jr.`` is no ``Family, Given`` comma: BibTeX would read ``Jr.`` as the
    given name and Zotero as the first name. The suffixes are :data:`_NAME_SUFFIXES` (Jr, Sr, II,
    III, IV), as CSL's ``suffix`` name part holds them."""
    text = " ".join(name.split())
    head, comma, tail = text.rpartition(",")
    if comma and head.strip() and tail.strip().rstrip(".").casefold() in _NAME_SUFFIXES:
        return head.strip(), tail.strip()
    words = text.split(" ")
    if len(words) > 2 and "," not in text and words[-1].rstrip(".").casefold() in _NAME_SUFFIXES:
        return " ".join(words[:-1]), words[-1]
    return name, ""


def _authors_field(paper: Paper) -> str:
    """The ``author`` field: each name (:func:`_author`) joined by `` and ``, then ``and others``
    when the source's list was cut short (:attr:`Paper.authors_more`)."""
    names = [_author(name) for name in paper.authors]
    return " and ".join([*names, "others"] if paper.authors_more else names)


def _author(name: str) -> str:
    """A name for the ``author`` field: one that contains `` and `` is braced, so BibTeX does not
    split it; one with a generational suffix (:func:`name_suffix`) is written in BibTeX's ``von
    Last, Jr, First`` form, its parts split by bibtexparser's BibTeX rule (``Jan van der Berg, Jr.``
    → ``van der Berg, Jr., Jan``)."""
    rest, suffix = name_suffix(name)
    if suffix and "," not in rest:
        from bibtexparser.middlewares.names import parse_single_name_into_parts

        try:
            parts = parse_single_name_into_parts(rest)
        except Exception:  # a name bibtexparser cannot split stays as it is
            parts = None
        if parts is not None and parts.first and parts.last:
            family = " ".join(bibtex_text(word) for word in (*parts.von, *parts.last))
            given = " ".join(bibtex_text(word) for word in parts.first)
            return f"{family}, {bibtex_text(suffix)}, {given}"
    text = bibtex_text(name)
    return "{" + text + "}" if re.search(r"\sand\s", text, re.IGNORECASE) else text


def source_entry(paper: Paper) -> tuple[str, str] | None:
    """``(raw entry, citation key)`` of the paper's own BibTeX when it parses as exactly one entry
    with a title; ``None`` otherwise (then an entry is generated)."""
    raw = paper.bibtex.strip()
    if not raw.startswith("@") or unsafe_tex(raw):
        return None
    try:
        library = parse_string(raw)
    except Exception:  # bibtexparser's own failure: the entry is generated instead
        return None
    if library.failed_blocks or len(library.entries) != 1 or len(library.blocks) != 1:
        return None
    entry = library.entries[0]
    if not entry.key or "title" not in {name.casefold() for name in entry.fields_dict}:
        return None
    if not _names_this_paper(entry, paper):
        return None
    return raw, entry.key


def _field_names(raw: str) -> set[str]:
    """The field names (folded) of a source's entry :func:`source_entry` accepted."""
    return {name.casefold() for name in parse_string(raw).entries[0].fields_dict}


def _names_this_paper(entry: Entry, paper: Paper) -> bool:
    """Whether a source's entry is about ``paper``: its title close to the paper's (letters and
    digits compared, LaTeX braces and accents aside) and no OpenReview id in its ``url`` other than
    the paper's. A list that gives a paper another paper's entry (Paper Copilot's ICLR 2017 file
    gives 48 papers one entry) then has its entries generated from the papers' own fields."""
    from rapidfuzz import fuzz

    fields = {name.casefold(): str(field.value) for name, field in entry.fields_dict.items()}
    own_id = paper.openreview_id
    linked = _OPENREVIEW_ID.search(fields.get("url", ""))
    if own_id and linked is not None and linked.group(1) != own_id:
        return False
    return fuzz.ratio(_title_letters(fields["title"]), _title_letters(paper.title)) >= 80


def _title_letters(text: str) -> str:
    """``text`` as lower-case ASCII letters and digits, one space between words."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").casefold()
    return " ".join(re.findall(r"[a-z0-9]+", folded))


#: The fields every exported entry gets (unless its source's entry has them already), so that
#: ``paperdeck import`` of the file gives each paper its venue and decision back (BibTeX tools
#: leave fields they do not know alone): ``venue = {COLM 2025}``, ``decision = {spotlight}``.
ROUND_TRIP_FIELDS = ("venue", "decision")


def round_trip_fields(paper: Paper) -> list[tuple[str, str]]:
    """The :data:`ROUND_TRIP_FIELDS` of ``paper`` that it has (no venue, an unknown decision: left out)."""
    venue = paper.venue_label if paper.venue else ""  # a year alone names no venue
    fields = [("venue", venue), ("decision", paper.decision if paper.decision != "unknown" else "")]
    return [(name, value) for name, value in fields if value]


def _with_round_trip_fields(raw: str, paper: Paper, present: set[str]) -> str:
    """A source's entry ``raw`` with the :func:`round_trip_fields` it lacks written before its
    closing brace (or parenthesis), and ``openreview = {…forum?id=…}`` when the paper has a forum
    the entry does not link to (OpenReview's entries of 2018 under review have no ``url``): the
    reader takes the paper's id from it."""
    fields = [(name, value) for name, value in round_trip_fields(paper) if name not in present]
    if paper.openreview_url and "openreview" not in present and "openreview.net" not in raw:
        fields.append(("openreview", paper.openreview_url))
    if not fields:
        return raw
    body, close = raw[:-1].rstrip(), raw[-1]
    added = ",\n".join(f"  {name} = {{{_field_value(name, value)}}}" for name, value in fields)
    return f"{body}{'' if body.endswith(',') else ','}\n{added}\n{close}"


def _with_stored_text(raw: str, paper: Paper) -> str:
    """A source's entry ``raw`` whose ``title``, ``author`` and ``abstract`` give back, read by
    ``paperdeck import``, the paper's own (``--`` in Paper Copilot's COLM entries is an en dash to
    BibTeX, a hyphen pair in the paper's title): each field that would not is written from the
    paper by :func:`bibtex_text`, as a generated entry's is; one that would is kept as written
    (its case-protecting braces too), and so is a value not in braces or quotes."""
    from paperdeck.sources.bibtex import latex_text, lists_others, split_authors, strip_braces
    from paperdeck.sources.common import collapse

    values = {
        name.casefold(): collapse(str(field.value)) for name, field in parse_string(raw).entries[0].fields_dict.items()
    }
    wanted: list[tuple[str, str]] = []
    if "title" in values and strip_braces(values["title"]) != " ".join(paper.title.split()):
        wanted.append(("title", bibtex_text(paper.title)))
    if (
        "author" in values
        and paper.authors
        and (split_authors(values["author"]) != paper.authors or lists_others(values["author"]) != paper.authors_more)
    ):
        wanted.append(("author", _authors_field(paper)))
    if "abstract" in values and paper.abstract and latex_text(values["abstract"]) != collapse(paper.abstract):
        wanted.append(("abstract", bibtex_text(paper.abstract)))
    for name, value in wanted:
        span = _field_span(raw, name)
        if span is not None:
            raw = f"{raw[: span[0]]}{{{value}}}{raw[span[1] :]}"
    return raw


def _field_span(raw: str, name: str) -> tuple[int, int] | None:
    """Where the value of field ``name`` is in a source's entry ``raw`` (its braces or quotes
    included), a field of the entry itself (after a comma outside every brace and quote);
    ``None`` when it has none, or one not in braces or quotes (a macro, a ``#`` concatenation).
    Braces after a backslash are escaped ones, as bibtexparser counts them."""
    head = re.search(r"[{(]", raw)
    if head is None:
        return None
    field = re.compile(r"\s*" + re.escape(name) + r"\s*=\s*", re.IGNORECASE)
    depth, quoted, i, n = 0, False, head.end(), len(raw)
    while i < n:
        char = raw[i]
        if char == "\\":
            i += 2
            continue
        if char == "," and depth == 0 and not quoted and (match := field.match(raw, i + 1)) is not None:
            start = match.end()
            end = _value_end(raw, start)
            return None if end is None else (start, end)
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        i += 1
    return None


def _value_end(raw: str, start: int) -> int | None:
    """The end of the braced or quoted value at ``start`` in ``raw`` (after its closing brace or
    quote), if it is one and ends as one value: a ``#`` after it concatenates more."""
    closer = {"{": "}", '"': '"'}.get(raw[start : start + 1])
    if closer is None:
        return None
    depth, i, n = 0, start, len(raw)
    while i < n:
        char = raw[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if (closer == "}" and char == "}" and depth == 0) or (
            closer == '"' and char == '"' and depth == 0 and i > start
        ):
            rest = raw[i + 1 :].lstrip()
            return None if rest.startswith("#") else i + 1
        i += 1
    return None


def bibtex_entries(papers: Sequence[Paper] | Iterable[Paper]) -> str:
    """Every paper as one entry, in the order given, separated by blank lines (see the module
    docstring); ``""`` for no papers."""
    keys = KeyMaker()
    chunks: list[str] = []
    for paper in papers:
        own = source_entry(paper)
        if own is None:
            chunks.append(bibtex_entry(paper, keys.claim(base_key(paper))))
            continue
        raw, key = own
        raw = _with_round_trip_fields(_with_stored_text(raw, paper), paper, _field_names(raw))
        unique = keys.claim(key)
        if unique != key:
            start = _KEY_AT_START.match(raw)
            if start is None or start.group(2) != key:  # a key written oddly: generate the entry
                chunks.append(bibtex_entry(paper, unique))
                continue
            raw = raw[: start.start(2)] + unique + raw[start.end(2) :]
        chunks.append(raw + "\n")
    return "\n".join(chunks)


def citation_keys(papers: Sequence[Paper] | Iterable[Paper]) -> list[str]:
    """The citation key of each paper, in the order given, as :func:`bibtex_entries` writes them
    for the same papers: the source entry's key, else :func:`base_key`, made unique by
    :class:`KeyMaker`."""
    keys = KeyMaker()
    out: list[str] = []
    for paper in papers:
        own = source_entry(paper)
        out.append(keys.claim(own[1] if own is not None else base_key(paper)))
    return out
