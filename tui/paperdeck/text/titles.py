"""Short display titles for papers known only by their abstract.

A label is what a researcher would recognise the paper by. In priority order it is:

1. the name of the method, model, dataset or benchmark the abstract introduces ("we propose X",
   "called X", "named X", "X, a ...", a bold ``**X**``, an acronym defined as "Long Name (LN)"),
   written ``NAME: Long Name`` when the long name is known, else ``NAME \u2014 what it is``;
2. otherwise the question, contribution, subject of study or result the abstract states
   (:mod:`paperdeck.text.title_claims`: "Fourier sparsity testing: a tester with …");
3. otherwise the first clause of the first sentence that does more than set the scene, without
   "In this paper, we propose".

Labels are plain text as a reader sees it: LaTeX and Markdown rendered (math as Unicode, formulas
longer than :data:`MAX_TITLE_MATH` left out), and a label longer than ``max_chars`` is cut at a
word boundary and ends in an ellipsis. Nothing here raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperdeck.text.abstract_parser import parse_markup
from paperdeck.text.latex_math import math_to_unicode
from paperdeck.text.nodes import Node
from paperdeck.text.title_claims import SENTENCE_END, claim_label, is_anaphoric, is_background, long_form
from paperdeck.text.title_words import BACKGROUND, HEADINGS, STOP_END, SYMBOLS

#: The label of an abstract with no letters or digits.
UNTITLED = "Untitled paper"
#: Ends a label cut at ``max_chars``.
ELLIPSIS = "\u2026"
#: Joins a name and what it is: ``NAME \u2014 a benchmark for …``.
DASH = "\u2014"

_BOLD = re.compile(r"\*\*([^*]+?)\*\*|\\textbf\{([^{}]+)\}")
_CMD_ARG = re.compile(r"\\[a-zA-Z]+\*?\{([^{}]*)\}")
_CMD = re.compile(r"\\([a-zA-Z]+)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ITALIC = re.compile(r"(?<![\w*])[*_]([^*_\s][^*_]*?)[*_](?![\w*])")
_SPACE = re.compile(r"\s+")
_SENTENCE_END = SENTENCE_END

_VERB = (
    r"(?:propose|introduce|present|develop|design|build|train|construct|release|curate|"
    r"contribute|offer)[sd]?"
)
#: Patterns start with plain words, not ``\b``: the regex engine then skips ahead quickly.
_WE = (
    r"(?:we|We|this paper|This paper|this work|This work) (?:\w+ly |then |also |further |first |"
    r"hence |thus |therefore |finally |here )?"
)
_CALLED_WORD = r"(?:called|named|termed|dubbed|coined|namely)\s+(?:as\s+)?(?:the\s+)?"
_ACRONYM = re.compile(
    r"\((?:(?:dubbed|called|termed|named|abbreviated)\s+(?:as\s+)?)?"
    r"([A-Za-z0-9][A-Za-z0-9+&./-]{0,14}?)s?\)"
)
_INTRO = re.compile(_WE + _VERB + r"\s+(?:(?:the|a|an|our)\s+)?")
_INTRO_NP = re.compile(
    _WE + _VERB + r"\s+((?:a|an|the)\s+(?:(?!that|which|to|for|with|of|and)[a-z][\w-]*\s+){0,4}?"
    r"[a-z][\w-]*),?\s+(?=[A-Z])"
)
_CALLED = re.compile(_CALLED_WORD + r"(?=[A-Z])")
_WE_CALL = re.compile(r"(?:we|We) (?:name|call|dub|term) (?:(?:our|this) (?:[a-z]+ )?[a-z]+|it)\s+(?=[A-Z])")
_OUR = re.compile(
    r"(?:our|Our) (?:proposed )?(?:method|approach|framework|model|system|algorithm),?\s+"
    r"(?:namely\s+|called\s+|dubbed\s+)?(?=[A-Z])"
)
_COINED = re.compile(r"[^\s]*?(?:[A-Z][^\s]*?[A-Z]|\d)")
_ADJECTIVE = re.compile(r"-[a-z]*(?:ed|ic|aware|free|level|like|wise|style|specific|based)$")
_OPENING = re.compile(r"^(?:Introducing\s+)?(?=[A-Z])")
#: (pattern, base score): "our method, namely X" > "called X" > "we propose X" > "X, a ..."
_PATTERNS = (
    (_OUR, 7.0),
    (_CALLED, 5.0),
    (_WE_CALL, 5.0),
    (_INTRO, 4.0),
    (_INTRO_NP, 4.0),
    (_OPENING, 3.0),
)
_CALLED_END = re.compile(r"(?:\b" + _CALLED_WORD + r"|\b[Oo]ur (?:method|approach|framework|model),? (?:namely )?)$")
_VERB_END = re.compile(_VERB + r"\s+(?:(?:the|a|an)\s+)?$")
_VERB_WORD = re.compile(r"\b" + _VERB + r"\b")
_WE_WORD = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work))\b")
_PASSIVE = re.compile(r"^\s*,?\s*(?:is|are)\s+(?:\w+ly\s+)?(?:proposed|introduced|presented)\b")
_NP_END = re.compile(_VERB + r"\s+((?:(?:a|an|the)\s+)?(?:[\w-]+\s+){0,5}[\w-]+)\s*$")
_DESC_BEFORE = re.compile(r"\b" + _VERB + r"\s+((?:a|an|the)\s[^,;.()]{3,80}?)\s*$")
_NAME_RUN = re.compile(r"[A-Z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+|\.\d+)*\+?(?: [A-Z][A-Za-z0-9]*(?:-\w+)*)*")
_AFTER_OK = re.compile(r"\s*(?:[,.;:(\u2014\u2013]|$|\s(?:that|which|for|to|with|as|is|in)\b)")
_NOUN_AFTER = re.compile(
    r"\s((?:benchmark|dataset|framework|suite|library|toolkit|corpus|model|method|algorithm|"
    r"agent|system|pipeline|platform|environment)\b[^,;.()]*)"
)
_APPOSITIVE = re.compile(r"^\s*(?:,|:|\u2014|\u2013)\s*((?:a|an|the)\s[^,;.()]+(?:,[^,;.()]+){0,3})")
_WHICH = re.compile(r"^\s*,?\s*(?:which|that)\s+([^,;.()]+)")
_IT_IS = re.compile(
    r"^It\s+(?:\w+ly\s+)?(?:is|employs|uses|adopts|features|combines|comprises|consists of|"
    r"leverages|introduces)\s+((?:a|an)\s[^,;.]+)"
)
_FILLER = re.compile(
    r"^(?:(?:In this (?:paper|work|study|article)|Here),?\s+)?(?:(?:[Ww]e|[Tt]his (?:paper|work|"
    r"study))\s+(?:\w+ly\s+)?(?:propose|introduce|present|study|investigate|consider|develop|"
    r"explore|address|analy[sz]e|examine|revisit|show|demonstrate|describe|provide|tackle|give|"
    r"focus on)"
    r"s?\s+(?:that\s+)?(?:(?:a|an|the)\s+)?(?:(?:general|novel|new|simple|unified|principled|"
    r"generic|flexible|straightforward|efficient|effective|computationally|practical|yet|and),?\s+)*"
    r"(?:(?:problem|question|task) of\s+)?)?"
)
_CLAUSE_BREAK = re.compile(
    r";|,\s(?:but|yet|however|although|though|which|whereas)\b|\s(?:while|whereas)\s|"
    r"\s?[\u2014\u2013]\s?|\s--+\s|:\s"
)
_PAREN = re.compile(r"\s*\([^()]*\)")
#: "To address this, we …", "Specifically, …": a lead-in before what a sentence says.
_LEAD_ADVERBIAL = re.compile(
    r"^(?:(?:To|In order to)\s+(?:address|tackle|overcome|mitigate|bridge|fill|solve|close|"
    r"remedy|alleviate|handle|resolve)\b[^,]{0,80},\s*|(?:Specifically|Concretely|Instead|"
    r"Here|Therefore|Thus|Hence|Accordingly|To this end|In response),\s*)"
)
_PAREN_ACRONYM = re.compile(r"\s\([A-Z][A-Za-z0-9-]*\)")
_NOVEL = re.compile(r"\b(?:novel|new)\s+(?:and\s+)?", re.IGNORECASE)

#: score, minus position, name, long form, descriptor, names the whole method
Candidate = tuple[float, int, str, str, str, bool]


#: Math longer than this (in characters shown) is left out of titles: a formula is no name.
MAX_TITLE_MATH = 12
_LEFT_OUT = "\ue010"


def _strip_markup(text: str) -> str:
    """Return ``text`` as a reader sees it, on one line: LaTeX and Markdown rendered, math as
    Unicode (``$\\mathbb{R}^d$`` → ``ℝᵈ``), math longer than :data:`MAX_TITLE_MATH` characters
    left out, any markup the renderer keeps as source (unknown macros, braces) dropped."""
    text = _shown(parse_markup(text))
    if _LEFT_OUT in text:  # "a (1−1/e−ε)-approximation" → "an approximation" would need more: drop the hyphen
        text = re.sub(_LEFT_OUT + r"-?", "", text)
    for old, new in (("---", DASH), ("--", "\u2013"), ("~", " ")):  # fmt: skip
        text = text.replace(old, new)
    if "\\" in text:
        for _ in range(5):
            text, nested = _CMD_ARG.subn(r"\1", text)
            if not nested:
                break
        text = _CMD.sub(lambda m: SYMBOLS.get(m.group(1), ""), text)
    for marker in ("**", "__", "`", "$", "{", "}", "\\"):
        text = text.replace(marker, "")
    if "*" in text or "_" in text:
        text = _ITALIC.sub(r"\1", text)
    return " ".join(text.split())


def _shown(nodes: list[Node]) -> str:
    """The characters ``nodes`` show (as :func:`paperdeck.text.nodes.plain_text`), long math left out."""
    out: list[str] = []
    for node in nodes:
        if node.kind in ("text", "par", "code"):
            out.append(node.text)
        elif node.kind == "math":
            math = math_to_unicode(node.text)
            out.append(math if len(math) <= MAX_TITLE_MATH else _LEFT_OUT)
        elif node.kind in ("link", "style"):
            out.append(_shown(node.children))
    return "".join(out)


def _is_background(short: str) -> bool:
    """Tell whether an acronym names a field or tool ("LLMs", "RL") rather than a contribution."""
    key = short.upper()
    return key in BACKGROUND or (key.endswith("S") and key[:-1] in BACKGROUND)


def _name_like(name: str) -> bool:
    """Tell whether ``name`` looks coined (``MCPMark``, ``DRIFT-Net``, ``OR-PRM``, ``Qwen3``)."""
    return _COINED.match(name) is not None


def _count(name: str, text: str) -> int:
    """Count whole-word occurrences of ``name`` in ``text``."""
    count, pos = 0, text.find(name)
    while pos >= 0:
        end = pos + len(name)
        left, right = text[pos - 1 : pos] if pos else " ", text[end : end + 1] or " "
        count += not (left.isalnum() or left == "-" or right.isalnum() or right == "-")
        pos = text.find(name, end)
    return count


def _descriptor(after: str) -> str:
    """Return the appositive after a name ("X, a benchmark to ..."), or ``""``."""
    match = _APPOSITIVE.match(_PAREN.sub("", after[:300]))
    if not match:
        return ""
    segments = match.group(1).split(",")
    desc = segments.pop(0)
    while segments and len(desc.split()) < 4:  # "a generalizable, explainable assistant"
        desc += "," + segments.pop(0)
    return _tidy(desc)


def _tidy(desc: str) -> str:
    """Drop "novel"/"new" and "designed", fix the article, end before a long "that" clause."""
    desc, novel = _NOVEL.subn("", desc)
    words = desc.replace("designed to ", "to ").replace("designed for ", "for ").split()
    if novel and len(words) > 1 and words[0] in ("a", "an"):
        vowel = re.match(r"[aeio]|u(?:n[^i]|[^n])|h(?:our|onest)", words[1].lower())
        words[0] = "an" if vowel else "a"
    for stop in ("that", "which", "where", "comprising", "including", "consisting"):
        if stop in words[4:]:
            words = words[: words.index(stop, 4)]
    return " ".join(words)


def _acronyms(sentence: str, offset: int, bold: set[str]) -> list[Candidate]:
    """Acronyms the sentence defines as the paper's own: "we propose Long Name (LN)"."""
    found: list[Candidate] = []
    for match in _ACRONYM.finditer(sentence):
        short, before = match.group(1).rstrip("."), sentence[: match.start()]
        if sum(c.isupper() for c in short) < 2:
            continue
        long = long_form(short, before) or ""
        start = before.rfind(long) if long else match.start()
        verb = bool(_VERB_WORD.search(" ".join(sentence[:start].split()[-8:])) and _WE_WORD.search(sentence[:start]))
        if not long:  # "we propose explainable model layers (TCR-EML)"
            np = _NP_END.search(before)
            if verb and np and len(np.group(1).split()) > 2 and not _is_background(short):
                found.append((4.0, -offset - start, short, "", _tidy(np.group(1)), False))
            continue
        if _CALLED_END.search(sentence[max(start - 40, 0) : start]):
            score = 5.0
        elif verb or _PASSIVE.match(sentence[match.end() :]):
            score = 4.0
        elif re.search(r"\b[Oo]ur\b", sentence):
            score = 2.0
        else:
            continue
        if _is_background(short) and not _VERB_END.search(sentence[:start]):
            continue
        score += any(short in b or long in b for b in bold)
        desc = _descriptor(sentence[match.end() :])
        found.append((score, -offset - start, short, long, desc, False))
    return found


def _candidates(text: str, bold: set[str]) -> list[Candidate]:
    """Collect the names the abstract introduces as its own, each with a score."""
    found: list[Candidate] = []
    offset = 0
    sentences = _SENTENCE_END.split(text)
    for index, sentence in enumerate(sentences):
        acronyms = _acronyms(sentence, offset, bold)
        found += acronyms
        covered = {-c[1] for c in acronyms}
        following = sentences[index + 1] if index + 1 < len(sentences) else ""
        for pattern, base in _PATTERNS:
            if pattern is _OPENING:  # "X, a ..." only ever opens a sentence: no need to scan
                matches = [m for m in [_OPENING.match(sentence)] if m]
            else:
                matches = list(pattern.finditer(sentence))
            for match in matches:
                run = _NAME_RUN.match(sentence, match.end())
                if run is None or offset + run.start() in covered:
                    continue
                name, after = run.group(0).rstrip("."), sentence[run.end() :]
                coined, appositive = _name_like(name), _descriptor(after)
                noun = _NOUN_AFTER.match(after) if pattern is _INTRO and coined else None
                if (
                    _is_background(name)
                    or _ADJECTIVE.search(name)  # "a KD-guided, sensitivity-aware strategy"
                    or len(name) < 2
                    or not (coined or base == 5.0 or (base >= 4.0 and (appositive or " " in name)))
                    or not (_AFTER_OK.match(after) or noun)
                    or (base == 3.0 and not appositive)
                    or (base == 7.0 and not (coined or "namely" in match.group(0)))
                    or (pattern is _INTRO_NP and not coined)
                ):
                    continue
                long, desc = "", appositive
                paren = re.match(r"\s*\(([^()]+)\)", after)
                colon = re.match(r"\s*:\s*([A-Z][^,;.]+)", after)
                if paren and long_form(name, paren.group(1)) == paren.group(1).strip(" ,;:"):
                    long = paren.group(1).strip(" ,;:")  # "GRACE (Generating Rewards As CodE)"
                elif colon and 1 < len(colon.group(1).split()) < 13:
                    long = colon.group(1).strip()  # "STAR: Similarity-guided ... Refinement"
                if not desc and pattern is _INTRO_NP:
                    desc = _tidy(match.group(1))  # "a new editing method AlphaEdit+"
                elif not desc and base == 5.0:
                    np = _DESC_BEFORE.search(sentence[: match.start()])  # "a function named X"
                    desc = _tidy(np.group(1)) if np else ""
                if noun and not desc:
                    desc = _tidy(noun.group(1))  # "the HVCR benchmark for ..."
                which = _WHICH.match(after)
                if len(desc.split()) < 3:  # "a model" says nothing; "which integrates ..." may
                    desc = which.group(1) if which and len(which.group(1).split()) > 3 else ""
                it_is = _IT_IS.match(following) if not (desc or long) else None
                desc = _tidy(it_is.group(1)) if it_is else desc  # "X. It is a ..."
                score = base + (name in bold) + 0.25 * ("propose" in match.group(0))
                found.append((score, -offset - run.start(), name, long, desc, base == 7.0))
        offset += len(sentence) + 1
    for name in bold:  # "**UniHand** delivers ...": a one-word name set in bold
        one_word = re.fullmatch(r"[A-Z][\w+-]+", name) and name not in HEADINGS
        # a coined name once, a plain word ("**Sherlock**") only when the text repeats it
        if one_word and _count(name, text) > (not _name_like(name)) and not _is_background(name):
            pos = text.find(name)
            found.append((4.0, -pos, name, "", _descriptor(text[pos + len(name) :]), False))
    return [(c[0] + 0.5 * min(_count(c[2], text), 4), *c[1:]) for c in found]


def _cut(text: str, max_chars: int) -> str:
    """Cut ``text`` at a word boundary to at most ``max_chars`` characters, ending in "\u2026"."""
    text = text.strip(" ,;:.")
    if len(text) <= max_chars:
        return _drop_dangling(text, cut=False)
    words = text[:max_chars].split(" ")
    if len(words) > 1:
        words.pop()  # the last word was cut, or the cut fell on a space
    head = " ".join(words)
    if ", " in head and len(head.rsplit(", ", 1)[1].split()) <= 2 and head.rfind(", ") >= 25:
        head = head.rsplit(", ", 1)[0]  # "..., a natural" -> "..."
    head = _drop_dangling(head, cut=True)[: max_chars - 1].rstrip()
    return (head or text[: max_chars - 1]) + ELLIPSIS


def _drop_dangling(text: str, cut: bool) -> str:
    """Remove stop words and loose punctuation from the end of ``text``."""
    words = text.split(" ")
    while len(words) > 1 and (words[-1].lower() in STOP_END or words[-1] in (DASH, "-", "")):
        words.pop()
        cut = True
    return " ".join(words).rstrip(" ,;:\u2014\u2013-") if cut else " ".join(words)


def _first_clause(text: str, max_chars: int) -> str:
    """Label from the first clause of the first sentence that does more than set the scene
    (:func:`~paperdeck.text.title_claims.is_background`) nor points back at an earlier one
    (:func:`~paperdeck.text.title_claims.is_anaphoric`); the first sentence when all do,
    filler like "We propose a" or "To address this," removed."""
    sentences = _SENTENCE_END.split(text)
    sentence = next((s for s in sentences if not is_background(s) and not is_anaphoric(s)), sentences[0]).rstrip(". ")
    sentence = _LEAD_ADVERBIAL.sub("", sentence, count=1) or sentence
    sentence = _PAREN_ACRONYM.sub("", _FILLER.sub("", sentence, count=1) or sentence)
    if len(sentence) > max_chars:
        for brk in _CLAUSE_BREAK.finditer(sentence):
            if brk.start() >= 25:
                sentence = sentence[: brk.start()]
                break
    sentence = sentence.strip(" ,;:")
    return _cut(sentence[:1].upper() + sentence[1:], max_chars)


def _named_label(text: str, bold: set[str], max_chars: int) -> str:
    """Label from the best name the abstract introduces, or ``""`` when it introduces none."""
    candidates = _candidates(text, bold)
    if not candidates:
        return ""
    _, _, name, long, desc, whole = max(candidates)
    if whole and not (long or desc):  # "our method, namely ResWorld": long name of its core part
        long = max((c for c in candidates if c[3]), default=(0, 0, "", "", "", False))[3]
    if long and long.casefold() != name.casefold():
        return _cut(f"{name}: {long[:1].upper()}{long[1:]}", max_chars)
    if desc:
        return _cut(f"{name} {DASH} {desc}", max_chars)
    if len(name) < 8:  # "Nait" alone says too little: add what the paper is about
        context = _first_clause(text, max_chars).rstrip(ELLIPSIS)
        if not context.startswith(name):
            return _cut(f"{name} {DASH} {context}", max_chars)
        return _cut(context, max_chars)
    return _cut(name, max_chars)


def derive_title(abstract: str, max_chars: int = 70) -> str:
    """Return a short display title for a paper known only by its abstract.

    Args:
        abstract: the abstract, LaTeX and Markdown allowed.
        max_chars: the longest label wanted; a longer label is cut at a word boundary and ends
            in an ellipsis, which counts towards the limit. Values below 1 count as 1.

    Returns:
        ``NAME: Long Name`` or ``NAME \u2014 what it is`` when the abstract introduces a named
        method, model, dataset or benchmark, else its stated contribution or claim, else the
        first clause that does more than set the scene; ``"Untitled paper"`` for an
        abstract with no letters or digits. One line, no surrounding spaces, no markup.
    """
    max_chars = max(int(max_chars), 1)
    try:
        label = _derive(abstract, max_chars)
    except Exception:  # a last resort: a bad abstract must never take the list pane down
        label = ""
    return label or _cut(UNTITLED, max_chars)


def _derive(abstract: str, max_chars: int) -> str:
    """:func:`derive_title` without its safety net; ``""`` when the abstract gives no label."""
    text = _strip_markup(abstract)
    if not any(c.isalnum() for c in text):
        return ""
    bold = {_strip_markup(a or b) for a, b in _BOLD.findall(abstract)}
    label = _named_label(text, bold, max_chars) or claim_label(text, max_chars) or _first_clause(text, max_chars)
    return _SPACE.sub(" ", label).strip()


def derive_titles(abstracts: Sequence[str], max_chars: int = 70) -> list[str]:
    """Titles for many abstracts at once, made distinct.

    When two abstracts would get the same label, the later ones fall back to the first-clause
    label; a label still taken is cut shorter and numbered, e.g. ``"GRACE: ... (2)"``.

    Args:
        abstracts: the abstracts, in display order.
        max_chars: as for :func:`derive_title`.

    Returns:
        One label per abstract, in order, no two equal ignoring case.
    """
    max_chars = max(int(max_chars), 1)
    labels: list[str] = []
    taken: set[str] = set()
    next_number: dict[str, int] = {}  # base label (casefolded) → the next number to try: linear, not quadratic
    for abstract in abstracts:
        label = derive_title(abstract, max_chars)
        if label.casefold() in taken:
            text = _strip_markup(abstract)
            if any(c.isalnum() for c in text):
                label = _first_clause(text, max_chars) or label
        base = label
        number = next_number.get(base.casefold(), 2)
        while label.casefold() in taken:
            suffix = f" ({number})"
            label = _cut(base, max(max_chars - len(suffix), 1)) + suffix
            number += 1
        next_number[base.casefold()] = number
        taken.add(label.casefold())
        labels.append(label)
    return labels
