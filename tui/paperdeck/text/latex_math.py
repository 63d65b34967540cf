"""LaTeX math to Unicode: the inside of one ``$…$`` span, as a terminal reader should see it.

The structure (groups, ``^``/``_``, ``\\frac``, ``\\sqrt``, fonts, accents) is handled here;
what single symbol macros such as ``\\alpha`` or ``\\leq`` and text accents mean is pylatexenc's
answer, read from a table generated from it (:mod:`paperdeck.text.latex_symbols`): pylatexenc is
not imported.
Nothing in this module imports Textual or Rich; it is a helper of :mod:`paperdeck.text.render`.
"""

from __future__ import annotations

import functools
import re
import unicodedata

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import TypeAlias

    Item: TypeAlias = "str | list[Item]"
    Piece: TypeAlias = tuple[str, bool, bool, bool, bool]
    """``(text, bold, italic, underline, code)``: one run of converted math."""

# Style markers (private-use characters) that math conversion leaves in its output, e.g. for
# ``$\textbf{R}$``; :func:`math_pieces` turns them into styles. ``POP`` ends the innermost style.
POP, BOLD, ITALIC, UNDERLINE, CODE = "\ue000", "\ue001", "\ue002", "\ue003", "\ue004"
# A script written as a word (``N_avg``) is marked while the span is converted, so that one followed
# by more letters can be put in parentheses once the whole span is known.
_WORD_OPEN, _WORD_CLOSE = "\ue005", "\ue006"
# A fraction ``a/b`` is marked until the atom after it is known: a factor there (``\\frac{a}{b}x``)
# puts it in parentheses, ``(a/b)x``, which would otherwise read as ``a/(bx)``.
_FRAC_OPEN, _FRAC_CLOSE = "\ue007", "\ue008"
#: Simple digit fractions that Unicode writes as one character (``\\frac{1}{2}`` → ``½``).
_VULGAR = {
    ("1", "2"): "½", ("1", "3"): "⅓", ("2", "3"): "⅔", ("1", "4"): "¼", ("3", "4"): "¾",
    ("1", "5"): "⅕", ("2", "5"): "⅖", ("3", "5"): "⅗", ("4", "5"): "⅘", ("1", "6"): "⅙",
    ("5", "6"): "⅚", ("1", "7"): "⅐", ("1", "8"): "⅛", ("3", "8"): "⅜", ("5", "8"): "⅝",
    ("7", "8"): "⅞", ("1", "9"): "⅑", ("1", "10"): "⅒",
}  # fmt: skip
#: What may start a factor after a fraction, beside letters and digits.
_FACTOR_START = frozenset("([{√∛∜∑∏∫∮∂∇|‖\\")


# Each pattern is compiled at its first use (text without math needs none of them).
@functools.cache
def _markers() -> re.Pattern[str]:
    """The style markers."""
    return re.compile("[\ue000-\ue004]")


@functools.cache
def _word_script() -> re.Pattern[str]:
    return re.compile("([_^])\ue005([^\ue005\ue006]*)\ue006(?=([\\w\u0300-\u036f])?)")


@functools.cache
def _all_markers() -> re.Pattern[str]:
    return re.compile("[\ue000-\ue008]")


@functools.cache
def _script_word() -> re.Pattern[str]:
    return re.compile(r"[^\W_]+")


@functools.cache
def _minus() -> re.Pattern[str]:
    """A hyphen in a fallback script that is a minus sign: not one joining two letters (``non-iid``)."""
    return re.compile(r"-(?![a-zA-Z])|(?<![a-zA-Z])-")


@functools.cache
def _token() -> re.Pattern[str]:
    return re.compile(r"\\([A-Za-z]+)|\\(.)|(\s+)|(.)", re.S)


@functools.cache
def _doubled() -> re.Pattern[str]:
    """JSON-style ``\\\\alpha`` for ``\\alpha``."""
    return re.compile(r"(?<!\\)\\\\(?=[A-Za-z%{}|,;!#&_$])")  # a row break before a macro (1\\\end) is no doubled one


def _marked(text: str, last: str = "\ue004") -> bool:
    """Whether ``text`` holds a style marker (up to ``last``; ``"\ue006"``: a word script's too),
    told without compiling a pattern."""
    return not text.isascii() and any(chr(code) in text for code in range(0xE000, ord(last) + 1))


def _unmarked(text: str) -> str:
    """``text`` without style markers."""
    return _markers().sub("", text) if _marked(text) else text


def _pairs(src: str, dst: str) -> dict[str, str]:
    return dict(zip(src, dst, strict=True))


def _words(text: str) -> list[str]:
    return text.split()


# fmt: off
_SUP = _pairs(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεϵθιφχ⊤∘*∗′'†‡",
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᵋᶿᶥᵠᵡᵀ°**′′†‡",
)
_SUB = _pairs("0123456789+-−=()aehijklmnoprstuvxβγρφχ", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ")
_BB_SPECIAL = {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}

#: Own meanings first (pylatexenc drops or mangles these); everything else is pylatexenc's
#: (:data:`paperdeck.text.latex_symbols.SYMBOLS`).
SYMBOLS: dict[str, str] = {
    "to": "→", "gets": "←", "ne": "≠", "neq": "≠", "neg": "¬", "lnot": "¬", "land": "∧",
    "lor": "∨", "degree": "°", "coloneqq": "≔", "coloneq": "≔", "eqqcolon": "≕", "thicksim": "∼",
    "thickapprox": "≈", "eps": "ε", "iff": "⟺", "implies": "⟹", "impliedby": "⟸",
    "checkmark": "✓", "cmark": "✓", "xmark": "✗", "bigstar": "★", "Re": "ℜ", "Im": "ℑ",
    "imath": "ı", "models": "⊨", "triangle": "△", "|": "‖", "{": "{", "}": "}", "%": "%",
    "$": "$", "&": "&", "_": "_", "#": "#", "\\": "; ", ",": " ", ";": " ", ":": " ",
    "!": "", " ": " ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ", "ldots": "…",
    "dots": "…", "dotsc": "…", "dotsb": "⋯", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱",
    "prime": "′", "intercal": "ᵀ", "mid": "|", "vert": "|", "lvert": "|", "rvert": "|",
    "Vert": "‖", "lVert": "‖", "rVert": "‖", "lbrace": "{", "rbrace": "}", "lbrack": "[",
    "rbrack": "]", "R": "ℝ", "RR": "ℝ", "E": "𝔼", "EE": "𝔼", "NN": "ℕ", "ZZ": "ℤ", "QQ": "ℚ",
    **{n: n for n in _words("arg argmax argmin Pr softmax sgn sign tr Tr diag rank poly polylog")},
    **{n: n for n in _words("KL Var Cov")},
    **{n: "" for n in _words("displaystyle textstyle scriptstyle limits nolimits nonumber notag")},
}
_SIZERS = frozenset(_words(
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr"
))
_STYLE = {
    "textbf": BOLD, "mathbf": BOLD, "boldsymbol": BOLD, "bm": BOLD, "pmb": BOLD, "textit": ITALIC,
    "emph": ITALIC, "textsl": ITALIC, "underline": UNDERLINE, "texttt": CODE, "mathtt": CODE,
}
_PLAIN = frozenset(_words(
    "text textrm textsf textnormal textup textsc mathrm mathsf mathit mathnormal mathcal mathscr"
    " mathfrak operatorname mbox hbox mathop mathrel mathbin mathord boxed substack overbrace"
    " underbrace cancel ensuremath"
))
_DECLARATIONS = {
    "bf": BOLD, "bfseries": BOLD, "boldmath": BOLD, "it": ITALIC, "em": ITALIC, "sl": ITALIC,
    "tt": CODE, "rm": "", "sf": "", "cal": "", "mit": "", "scriptscriptstyle": "",
}
_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304",
    "overline": "\u0305", "vec": "\u20d7", "overrightarrow": "\u20d7", "dot": "\u0307",
    "ddot": "\u0308", "check": "\u030c", "breve": "\u0306", "acute": "\u0301", "grave": "\u0300",
    "mathring": "\u030a",
}
_DROP_ARG = frozenset(_words("color hspace vspace phantom hphantom vphantom label mspace"))
_ROOTS = {"": "√", "2": "√", "3": "∛", "4": "∜"}
# fmt: on


@functools.lru_cache(maxsize=4096)
def symbol(name: str) -> str | None:
    """Return the Unicode text of the argument-less macro ``\\name``, or None if it is unknown.

    ``symbol("alpha")`` is ``"α"``. None means neither this module's table nor pylatexenc's
    (:data:`paperdeck.text.latex_symbols.SYMBOLS`) knows the macro, and its source should be kept.
    """
    if name in SYMBOLS:
        return SYMBOLS[name]
    if not name or "\n" in name or "\t" in name:
        return None
    from paperdeck.text.latex_symbols import SYMBOLS as known  # deferred: most texts have no symbol

    at = known.find(f"\n{name}\t")
    if at < 0:
        return None
    start = at + len(name) + 2
    return known[start : known.index("\n", start)]


@functools.lru_cache(maxsize=4096)
def accent(macro: str, base: str) -> str | None:
    """Return ``\\macro{base}`` (a text accent like ``\\"`` or ``\\c``) as Unicode, or None.

    Only a letter or two (or ``\\i``, ``\\j``) is accepted as ``base``; anything else gives None.
    Each letter gets the accent's mark (:data:`paperdeck.text.latex_symbols.ACCENTS`; ``\\i`` is
    ``i`` then); a ``macro`` that is no accent (``\\t``) gives its argument's text, as pylatexenc
    does (``\\i``: ``ı``).
    """
    dotless = base in ("\\i", "\\j")
    if not dotless and not (0 < len(base) <= 2 and base.isascii() and base.isalpha()):
        return None
    from paperdeck.text.latex_symbols import ACCENTS  # deferred: few texts have an accent

    mark = ACCENTS.get(macro)
    if mark is None:
        return ("ı" if base == "\\i" else "ȷ") if dotless else base
    letters = base[1] if dotless else base
    return unicodedata.normalize("NFC", "".join(letter + mark for letter in letters))


def _script(text: str, table: dict[str, str]) -> str | None:
    squeezed = "".join(_unmarked(text).split())
    if not squeezed or any(c not in table for c in squeezed):
        return None
    return "".join(table[c] for c in squeezed)


def to_superscript(text: str) -> str | None:
    """Return ``text`` as Unicode superscripts (``"-1"`` → ``"⁻¹"``); None if one is missing."""
    return _script(text, _SUP)


def to_subscript(text: str) -> str | None:
    """Return ``text`` as Unicode subscripts (``"i+1"`` → ``"ᵢ₊₁"``); None if one is missing."""
    return _script(text, _SUB)


def _double_struck(text: str) -> str:
    out = []
    for c in text:
        if c in _BB_SPECIAL:
            out.append(_BB_SPECIAL[c])
        elif "A" <= c <= "Z":
            out.append(chr(0x1D538 + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(0x1D552 + ord(c) - 97))
        elif "0" <= c <= "9":
            out.append(chr(0x1D7D8 + ord(c) - 48))
        else:
            out.append(c)
    return "".join(out)


def _accented(text: str, mark: str, every: bool) -> str:
    """``text`` with combining ``mark`` on its first letter (``\\hat{w_p}`` → ``ŵₚ``), or on all."""
    out, done = [], False
    for c in text:
        out.append(c)
        if not done and not c.isspace() and not ("\ue000" <= c <= "\ue004"):
            out.append(mark)
            done = not every
    return "".join(out)


def _wrap(text: str) -> str:
    """``text`` as an operand of ``/`` or ``√``: bare if it is one word, else in parentheses."""
    t = text.strip()
    plain = _unmarked(t)
    if len(plain) <= 1 or all(c.isalnum() or c == "." or unicodedata.category(c) == "Mn" for c in plain):
        return t
    if plain.startswith("(") and plain.endswith(")"):
        depth = 0
        for k, c in enumerate(plain):
            depth += (c == "(") - (c == ")")
            if depth == 0 and k < len(plain) - 1:
                break
        else:
            return t
    return f"({t})"


def _parse(src: str) -> list[Item]:
    stack: list[list[Item]] = [[]]
    for m in _token().finditer(src):
        name, sym, space, char = m.groups()
        if name is not None or sym is not None:
            stack[-1].append("\\" + (name if name is not None else sym))
        elif space is not None:
            stack[-1].append(" ")
        elif char == "{":
            group: list[Item] = []
            stack[-1].append(group)
            stack.append(group)
        elif char == "}" and len(stack) > 1:
            stack.pop()
        else:
            stack[-1].append(char)
    return stack[0]


def _flat(item: Item) -> str:
    return item if isinstance(item, str) else "".join(_flat(x) for x in item)


def _convert(items: list[Item]) -> str:
    out: list[str] = []
    i = 0
    while i < len(items):
        text, i = _atom(items, i)
        out.append(text)
    if any(piece[:1] == _FRAC_OPEN for piece in out):
        for k, piece in enumerate(out):
            if piece[:1] == _FRAC_OPEN and piece[-1:] == _FRAC_CLOSE:
                body = piece[1:-1]
                out[k] = f"({body})" if _factor_follows(out, k + 1) else body
    return "".join(out)


def _factor_follows(pieces: list[str], k: int) -> bool:
    """Whether the first visible character of ``pieces[k:]`` starts a factor (a letter, a digit,
    an opening bracket, a root, a sum…), not an operator, a relation or punctuation."""
    for piece in pieces[k:]:
        for c in piece:
            if c.isspace() or "\ue000" <= c <= "\ue008":
                continue
            return c in _FACTOR_START or unicodedata.category(c)[0] in "LN"
    return False


def _unfrac(text: str) -> str:
    """``text`` without fraction marks: a fraction that is a whole argument needs none."""
    return text.replace(_FRAC_OPEN, "").replace(_FRAC_CLOSE, "") if _FRAC_OPEN in text else text


def _arg(items: list[Item], i: int) -> tuple[str | None, int]:
    while i < len(items) and items[i] == " ":
        i += 1
    if i >= len(items):
        return None, i
    text, j = _atom(items, i)
    return _unfrac(text), j


def _attach(kind: str, arg: str) -> str:
    """``arg`` as a superscript (``kind == "^"``) or subscript, else a readable fallback.

    Unicode scripts when every character has one (``x⁽ᵗ⁾``, ``xᵢ₊₁``); else one character
    written bare after the ``^``/``_`` (``ℓ_∞``), a subscript that is a Latin word (a label:
    ``N_avg``; :func:`_close_words` puts one followed by more letters in parentheses) bare too,
    anything else in parentheses with minus signs (``ε^(−2/3)``, ``e^(iπ)``: ``e^iπ`` would read
    as ``(e^i)π``). Never braces.
    """
    done = to_superscript(arg) if kind == "^" else to_subscript(arg)
    if done is not None:
        return done
    arg = " ".join(_unmarked(arg).split())
    if not arg:
        return ""
    if len(arg) == 1:
        return kind + arg
    if kind == "_" and arg.isascii() and _script_word().fullmatch(arg):
        return f"{kind}{_WORD_OPEN}{arg}{_WORD_CLOSE}"
    arg = _minus().sub("\u2212", arg)
    if arg.startswith("(") and _wrap(arg) == arg:  # one group already: x^((t)) would be noise
        return kind + arg
    return f"{kind}({arg})"


#: The macros whose argument, as a whole subscript, is a label written as text (``\\text{init}``).
_LABELS = frozenset(_words("text textrm textnormal textup textsf mbox hbox mathrm operatorname"))


def _is_label(items: list[Item], i: int) -> bool:
    """Whether the script argument at ``items[i]`` is a text macro and its group alone
    (``_{\\text{init}}``, ``_\\text{init}``, ``_{\\mathrm{ref}}``)."""
    while i < len(items) and items[i] == " ":
        i += 1
    if i >= len(items):
        return False
    inner = [x for x in items[i] if x != " "] if isinstance(items[i], list) else items[i : i + 2]
    return len(inner) == 2 and isinstance(inner[0], str) and inner[0][1:] in _LABELS and isinstance(inner[1], list)


def _attach_label(label: str) -> str:
    """A subscript written in text (``\\theta_{\\text{init}}``): the label after ``_`` as the
    writer set it apart (``θ_init``), never subscript letters, which read as the math subscript
    ``\\theta_{init}`` (``θᵢₙᵢₜ``); one that is not one word is in parentheses (``ρ_(non-iid)``)."""
    label = " ".join(label.split())
    if label.isascii() and _script_word().fullmatch(label):
        return f"_{_WORD_OPEN}{label}{_WORD_CLOSE}"
    return f"_({label})"


def _close_words(text: str) -> str:
    """Resolve :func:`_attach`'s word scripts: ``N_avg``, but ``ϵ_(decay)I`` before a letter."""
    if _WORD_OPEN not in text:
        return text
    return _word_script().sub(lambda m: m[1] + (f"({m[2]})" if m[3] else m[2]), text)


def _atom(items: list[Item], i: int) -> tuple[str, int]:
    item = items[i]
    if isinstance(item, list):
        return _convert(item), i + 1
    if item in ("^", "_"):
        arg, j = _arg(items, i + 1)
        if arg is None:
            return item, j
        if item == "_" and _is_label(items, i + 1) and len(plain := _unmarked(arg).strip()) > 1:
            return _attach_label(plain), j
        return _attach(item, arg), j
    if len(item) > 1 and item[0] == "\\":
        return _macro(item[1:], items, i + 1)
    return (" " if item in "&~" else item), i + 1


def _macro(name: str, items: list[Item], j: int) -> tuple[str, int]:
    if j < len(items) and items[j] == "*" and (name in _PLAIN or name in _STYLE):
        j += 1
    if name in _STYLE or name in _PLAIN or name in ("mathbb", "mathbbm", "mathds", "Bbb") or name in _ACCENTS:
        arg, j = _arg(items, j)
        if arg is None:
            return "", j
        if name in _STYLE:
            return _STYLE[name] + arg + POP, j
        if name in _ACCENTS:
            return _accented(arg, _ACCENTS[name], every=name == "overline"), j
        return (arg if name in _PLAIN else _double_struck(arg)), j
    if name in (
        "frac",
        "tfrac",
        "dfrac",
        "cfrac",
        "binom",
        "overset",
        "stackrel",
        "underset",
        "textcolor",
    ):
        top, j = _arg(items, j)
        bottom, j = _arg(items, j)
        a, b = top or "", bottom or ""
        if name == "binom":
            return f"({a} choose {b})", j
        if name == "textcolor":
            return b, j
        if name in ("overset", "stackrel", "underset"):
            return b + _attach("_" if name == "underset" else "^", a), j
        vulgar = _VULGAR.get((_unmarked(a).strip(), _unmarked(b).strip()))
        if vulgar is not None:
            return vulgar, j
        return f"{_FRAC_OPEN}{_wrap(a)}/{_wrap(b)}{_FRAC_CLOSE}", j
    if name == "sqrt":
        index = ""
        if j < len(items) and items[j] == "[":
            end = next((k for k in range(j + 1, len(items)) if items[k] == "]"), -1)
            if end > 0:
                index, j = _convert(items[j + 1 : end]).strip(), end + 1
        arg, j = _arg(items, j)
        root = _ROOTS.get(index) or (to_superscript(index) or f"({index})") + "√"
        return root + _wrap(arg or ""), j
    if name in _DROP_ARG:
        return "", _arg(items, j)[1]
    if name == "begin" and (matrix := _matrix(items, j)) is not None:
        return matrix
    if name in ("begin", "end"):
        env, j = _arg(items, j)
        if name == "begin" and env in ("array", "tabular"):
            j = _arg(items, j)[1]
        return "", j
    if name in _DECLARATIONS:  # {\bf x}: the rest of the group
        style = _DECLARATIONS[name]
        rest = _convert(items[j:])
        return (style + rest + POP if style else rest), len(items)
    if name in _SIZERS:
        return "", j + 1 if j < len(items) and items[j] == "." else j
    if name == "not":
        arg, j = _arg(items, j)
        return ((arg or "") + "\u0338"), j
    if name in ("xrightarrow", "xleftarrow"):
        label, j = _arg(items, j)
        return ("→" if name == "xrightarrow" else "←") + (to_superscript(label or "") or ""), j
    if name == "set":
        arg, j = _arg(items, j)
        return "{" + (arg or "") + "}", j
    if name == "tag":
        label, j = _arg(items, j)
        return f" ({label})", j
    if re.fullmatch(r"c[A-Z]", name):  # the common \cO = \mathcal{O} shorthand
        return name[1], j
    known = symbol(name)
    if known is not None:
        return known, j
    if not name.isalpha():
        return name, j  # \* \< and friends: the character itself
    out = ["\\" + name]
    while j < len(items) and isinstance(group := items[j], list):
        out.append("{" + _convert(group) + "}")
        j += 1
    return "".join(out), j


#: The matrix environments and their delimiters (``pmatrix`` → ``( )``); ``matrix`` has none.
_MATRICES = {
    "matrix": ("", ""), "smallmatrix": ("", ""), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"),
    "Bmatrix": ("{", "}"), "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖"),
}  # fmt: skip


def _env_at(items: list[Item], i: int) -> tuple[str | None, int]:
    """The environment name of the ``{…}`` group after a ``\\begin``/``\\end`` at ``i``, and where
    it ends (``None`` when the group is not there)."""
    while i < len(items) and items[i] == " ":
        i += 1
    if i < len(items) and isinstance(items[i], list):
        return _flat(items[i]).strip(), i + 1
    return None, i


def _matrix(items: list[Item], j: int) -> tuple[str, int] | None:
    """A matrix environment begun at ``items[j]`` (its ``{name}``), read to its ``\\end``: its
    rows in their delimiters, cells split by ``, ``, rows by ``; `` (``\\begin{pmatrix} a & b
    \\\\ c & d \\end{pmatrix}`` → ``(a, b; c, d)``, ``vmatrix`` → ``|a, b; c, d|``), a row of
    empty cells left out (``0 \\\\\\\\ b``, a review's JSON-doubled row break, is ``0; b``), and
    where it ends; ``None`` when it is no matrix or has no end (then read as before)."""
    env, start = _env_at(items, j)
    if env not in _MATRICES:
        return None
    depth, k = 0, start
    while k < len(items):
        if items[k] in ("\\begin", "\\end") and _env_at(items, k + 1)[0] == env:
            depth += 1 if items[k] == "\\begin" else -1
            if depth < 0:
                break
        k += 1
    else:
        return None
    rows: list[list[list[Item]]] = [[[]]]
    for item in items[start:k]:
        if item == "\\\\":
            rows.append([[]])
        elif item == "&":
            rows[-1].append([])
        else:
            rows[-1][-1].append(item)
    shown = [", ".join(_unfrac(_convert(cell)).strip() for cell in row) for row in rows]
    # a row of empty cells shows nothing: a last "\\\\" starts none, a JSON-doubled "\\\\\\\\" is one break
    shown = [row for row in shown if row.strip(", ")]
    opening, closing = _MATRICES[env]
    return f"{opening}{'; '.join(shown)}{closing}", _env_at(items, k + 1)[1]


def _convert_source(latex: str) -> str:
    src = _all_markers().sub("", latex) if _marked(latex, "\ue008") else latex
    if "\\\\" in src:
        src = _doubled().sub(r"\\", src)
    text = _close_words(" ".join(_unfrac(_convert(_parse(src))).split()))
    return unicodedata.normalize("NFC", text)


def math_pieces(latex: str) -> list[Piece]:
    """Convert the inside of one math span to styled runs ``(text, bold, italic, underline, code)``.

    ``\\underline{\\textbf{S}}`` gives ``[("S", True, False, True, False)]``. Never raises: when
    the conversion fails or comes out empty for a non-blank span, its stripped source is returned.
    """
    try:
        text = _convert_source(latex)
    except Exception:
        text = ""
    marked = _marked(text)
    if not (_markers().sub("", text) if marked else text).strip():
        return [(latex.strip(), False, False, False, False)] if latex.strip() else []
    if not marked:
        return [(text, False, False, False, False)]
    pieces: list[Piece] = []
    stack: list[str] = []
    for part in re.split("([\ue000-\ue004])", text):
        if part == POP:
            if stack:
                stack.pop()
        elif len(part) == 1 and "\ue000" <= part <= "\ue004":
            stack.append(part)
        elif part:
            pieces.append((part, BOLD in stack, ITALIC in stack, UNDERLINE in stack, CODE in stack))
    return pieces


def math_to_unicode(latex: str) -> str:
    """Convert the inside of one math span (no ``$``) to plain Unicode text.

    ``r"\\mathbb{F}_2^n \\to \\{-1, +1\\}"`` → ``"𝔽₂ⁿ → {-1, +1}"``. Never raises; falls back to the
    stripped source when conversion fails or yields nothing.
    """
    return "".join(p[0] for p in math_pieces(latex))
