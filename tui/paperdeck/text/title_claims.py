"""Display titles from what an abstract contributes or claims, for abstracts that name no method.

:mod:`paperdeck.text.titles` asks here when the abstract introduces no named method, model or
benchmark. The rules, in priority order, each over the abstract's sentences:

1. a question the abstract asks and then takes up ("Is every … amenable to …? We address this
   question …"): the question is the title;
2. the earliest of the paper's own contribution ("we propose / introduce / present / develop /
   design / give X", also "… to propose X") and its subject of study ("we study / investigate /
   analyse X", "the problem of X", "how X"); a problem studied is followed by the contribution
   made for it when both fit ("Fourier sparsity testing: a tester with …");
3. a result the paper states ("we show / prove / demonstrate that X").

A phrase is made title-like by rules, not by judgement: it ends before a relative or participle
clause, drops "novel"-style fillers, quantifiers ("a class of"), generic heads ("… method") and
asides in parentheses, and writes an acronym the abstract defines in its long form when that fits
(else the acronym). Phrases about something named only earlier ("this question", "it") are
skipped. Input is plain text (markup already stripped, math already Unicode); output is plain text
of at most ``max_chars`` characters, or ``""`` when no rule applies. Nothing here raises on any
string input.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from paperdeck.text.title_words import (
    ACRONYM_SKIPS,
    BACKGROUND,
    BACKGROUND_OPENERS,
    STATE_OF_THE_FIELD,
    STOP_END,
)

__all__ = ["SENTENCE_END", "acronym_definitions", "claim_label", "is_anaphoric", "is_background", "long_form"]

#: Where one sentence ends and the next begins.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])")

_WE = (
    r"\b(?:[Ww]e|[Tt]his (?:paper|work|study|article))\s+"
    r"(?:(?:\w+ly|then|also|further|first|here|now|hence|thus)\s+)*"
)
_MAKE = r"(?:propose|introduce|present|develop|design|give|provide|formulate|construct)[sd]?"
_CONTRIBUTION = re.compile(_WE + _MAKE + r"\s+(?P<np>.+)")
_TO_MAKE = re.compile(r"\bto (?:propose|introduce|present|develop|design|formulate)\s+(?P<np>.+)")
_STUDY = re.compile(
    _WE + r"(?:study|studie|investigate|analy[sz]e|examine|explore|characterize|characterise|"
    r"consider|revisit|tackle|address)[sd]?\s+(?P<np>.+)"
)
_RESULT = re.compile(
    _WE + r"(?:show|prove|demonstrate|establish|find|reveal|observe|identify|argue|uncover|report)"
    r"[s]?\s+(?:\w+ly\s+)?that\s+(?P<np>.+)"
)
_PROBLEM = re.compile(r"^(?:the\s+)?(?:(?:[\w-]+\s+){0,2})(?:problem|question|task|challenge)s?\s+of\s+(?P<x>.+)")
_HOW = re.compile(r"^(?P<x>(?:how|why|when|whether)\s.+)")
_VARIANT = re.compile(
    r"^(?:an?|the)\s+(?:[\w-]+\s+){0,2}(?:variant|version|relaxation|generali[sz]ation|extension)\s+"
    r"(?P<x>(?:where|in which|wherein)\s.+)"
)
#: A phrase that points back at something said before: no title on its own.
_ANAPHORIC = re.compile(
    r"^(?:this|these|that|those|it|its|they|them|their|such|our|the (?:former|latter|above|same)|"
    r"here|both|each|one|another|further|several|some|many|which|what|who|whom|there)(?![\w-])|"
    r"^[^\w\"“]",
    re.IGNORECASE,
)
#: Heads of phrases that are no contribution a reader would know a paper by.
_NOT_TITLES = re.compile(
    r"^(?:(?:a|an|the)\s+)?(?:(?:[\w-]+\s+){0,2})(?:results?|evidence|experiments?|insights?|"
    r"guarantees?|bounds?|proofs?|examples?|analys[ie]s|overview|discussion|comparison|"
    r"way|means|answer|ablations?|baselines?)\b(?!-)",
    re.IGNORECASE,
)
#: Where a title phrase ends: a relative, participle or coordinated clause, or punctuation.
_CLAUSE_END = re.compile(
    r"\s*(?:[;:.!?]\s|[;:.!?]$|\s[\u2014\u2013]\s|\s--\s)|"
    r",\s+(?:which|where|whose|that|who|and|but|while|whereas|thus|thereby|so|as|by|in|"
    r"to|with|for|independent|enabling|allowing|yielding|leading|achieving|ensuring|"
    r"making|resulting|providing|showing|offering|based|using|without|from|via|it|we)\b|"
    r"\s+and\s+(?:show|shows|showed|demonstrate|prove|find|establish|use|apply|evaluate|"
    r"validate|then|also|further|provide|derive|study|propose|introduce|present|develop|design|"
    r"conduct|identify|release|analy[sz]e|discuss|explore|investigate)\b|"
    r"\s+(?:which|whereby|such that|so that|thereby|that|who)\s|"
    r"\s+by\s+(?:\w+ing)\b"
)
_PAREN = re.compile(r"\s+\([^()]*\)(?![\w-])")  # an aside; "Õ(s⁴)", "(1-1/e)-approximation" stay
_FILLER_ADJECTIVES = re.compile(
    r"(?<![\w-])(?:novel|new|simple|general|unified|principled|generic|flexible|straightforward|"
    r"efficient|effective|computationally|practical|first|refined|powerful|elegant|"
    r"comprehensive|rigorous|systematic|theoretical|alternative|innovative)(?![\w-]),?\s*(?:and\s+|yet\s+)?",
    re.IGNORECASE,
)
_LEAD_ARTICLE = re.compile(r"^(?:a|an|the|our)\s+", re.IGNORECASE)
_STUDY_HEAD = re.compile(
    r"^(?:[\w-]+,?\s+){0,3}?(?:characteri[sz]ation|analysis|study|investigation|understanding|"
    r"account|theory|examination)\s+(?:of|for)\s+(?:the\s+)?",
    re.IGNORECASE,
)
_QUANTIFIER = re.compile(
    r"\b(?:the|a|an)\s+(?:(?:broad|wide|large|rich|general|whole|entire)\s+)?"
    r"(?:family|class|range|variety|set|series|number|suite|collection)\s+of\s+",
    re.IGNORECASE,
)
_PURPOSE_VERB = re.compile(r"\b(?:designed|devised|tailored|intended|developed)\s+(?=(?:to|for)\b)")
#: "X to address the errors introduced by Y": X is for Y.
_REMEDY = re.compile(
    r"\bto\s+(?:address|tackle|mitigate|reduce|correct|compensate(?: for)?|handle|alleviate|"
    r"overcome|fix|remedy|recover)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:errors?|problems?|issues?|"
    r"challenges?|degradation|loss|bias|artifacts?|mismatch(?:es)?)\s+(?:introduced|caused|"
    r"induced|incurred|arising|brought)\s+(?:by|in|from)\s+"
)
#: "for the challenging setting where measurements are observed via X": from X.
_SETTING = re.compile(
    r"\bfor\s+(?:the|a|an)\s+(?:[\w-]+\s+)?(?:setting|case|scenario|regime)\s+(?:where|in which)\s+"
    r"(?:[\w-]+\s+){1,2}(?:is|are)\s+(?:only\s+)?(?:observed|measured|acquired|collected|given|"
    r"available|obtained|sampled)\s+(?:via|through|from|with|under|by)\s+"
)
_GENERIC_HEAD = re.compile(
    r"(?<=[\w)])\s+(?:method|approach|strategy|technique|scheme|procedure)s?"
    r"(?=$|\s+(?:for|to|that|of|from|with|via|in|on|under)\b)"
)
_ADJECTIVE_END = re.compile(r"(?:-[a-z]*(?:ed|ic|aware|free|level|like|wise|style|specific|based)|ive|al|ous|ent|ant)$")
_BETWEEN = re.compile(r"\bbetween\s+(?P<a>[^,;]+?)\s+and\s+(?P<b>[^,;]+?)(?=\s+(?:to|in|for|as|and|,)\b|[,;]|$)")
_ACRONYM = re.compile(r"\(([A-Za-z0-9][A-Za-z0-9+&./-]{0,14}?)s?\)")
_WORD = re.compile(r"[A-Za-z][\w-]*")
_QUESTION_TAKEN_UP = re.compile(
    r"\b(?:this|the)\s+(?:question|problem)\b|\b(?:we|We)\s+(?:answer|address|study|investigate|explore)\b"
)
_QUESTION_ASIDE = re.compile(r",\s+(?:for|in|on|under|with|by)\s+which\s+[^,?]+,")
_QUESTION_ADVERBS = re.compile(r"\s+(?:also|still|even|always|really|actually|indeed)\b")
#: A Greek letter naming what the word before it is ("a distribution μ"): droppable from a title.
_SYMBOL_NAME = re.compile(r"(?<=[a-z]) [\u0370-\u03ff][\u2080-\u209c\u1d62-\u1d6a\u2070-\u207f]*(?=[\s,?;.])")
_TOPIC_STOP = STOP_END | frozenset(
    "also can could may might should would will be been being has have had do does did not no "  # noqa: SIM905
    "than then these those this it they them each every all any some more most other such only "
    "very well even both either whether how why what one two first second new based given".split()
)


_STATE = re.compile(r"^(?:\S+\s+){0,10}?(?:" + STATE_OF_THE_FIELD + r")\b", re.IGNORECASE)
_FIRST_WORD = re.compile(r"[A-Za-z]+")


def is_anaphoric(phrase: str) -> bool:
    """Whether ``phrase`` starts by pointing back at something said before ("This decay …",
    "these methods", "it"): it names nothing on its own."""
    return _ANAPHORIC.match(phrase) is not None


def is_background(sentence: str) -> bool:
    """Whether ``sentence`` sets the scene ("Transformers have achieved great success …",
    "When model predictions inform …", "However, existing …") instead of saying what the paper
    does. A sentence with "we", "our" or "this paper" never is."""
    if re.search(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work|study))\b", sentence):
        return False
    first = _FIRST_WORD.match(sentence.lstrip("\"'(["))
    if first and first.group(0).lower() in BACKGROUND_OPENERS:
        return True
    if re.match(r"^(?:In|Over|During|Across)\s+(?:the\s+)?(?:recent|past|last)\b", sentence):
        return True
    return _STATE.match(sentence) is not None


def long_form(short: str, before: str) -> str | None:
    """Find the long form of acronym ``short`` at the end of ``before``, or ``None``.

    Word initials spelling the acronym win ("Rubric Reward Model (RRM)"); otherwise the
    Schwartz-Hearst rule: each letter in order, the first one starting a word.
    """
    units = [u[0].lower() for u in re.findall(r"[A-Z][a-z]+|[A-Z]|[0-9]+|[a-z]+", short)]
    if not units:
        return None
    words = before.split()[-min(len(units) + 5, len(units) * 2) :]
    for size in range(1, len(words) + 1):
        parts = [p for w in words[-size:] for p in re.split(r"[-/\u2013]", w) if p]
        if (
            parts
            and parts[0].lower() not in ACRONYM_SKIPS
            and units == [p[0].lower() for p in parts if p.lower() not in ACRONYM_SKIPS]
        ):
            return " ".join(words[-size:]).strip(" ,;:")
    cand = " ".join(words)
    pos = len(cand) - 1
    for index in range(len(units) - 1, -1, -1):
        while pos >= 0 and (cand[pos].lower() != units[index] or (index == 0 and cand[pos - 1 : pos].isalnum())):
            pos -= 1
        if pos < 0:
            return None
        pos -= 1
    long = cand[cand.rfind(" ", 0, pos + 1) + 1 :].strip(" ,;:")
    if len(re.split(r"[\s-]+", long)) < max(2, sum(c.isupper() for c in short) - 1):
        return None
    return long if long[:1].isalpha() else None


def acronym_definitions(text: str) -> dict[str, str]:
    """Acronyms the text defines as "Long Form (LF)": ``{"LF": "Long Form"}``, first definition kept."""
    found: dict[str, str] = {}
    for match in _ACRONYM.finditer(text):
        short = match.group(1).rstrip(".")
        if sum(c.isupper() for c in short) < 2 or short in found:
            continue
        long = long_form(short, text[max(match.start() - 200, 0) : match.start()])
        if long:
            found[short] = long
    return found


def claim_label(text: str, max_chars: int) -> str:
    """A title from the abstract's question, contribution, subject or result (module docstring).

    Args:
        text: the abstract as plain text (no markup).
        max_chars: the longest title wanted, at least 1.

    Returns:
        The title, first letter upper case, at most ``max_chars`` characters (a phrase that does
        not fit is cut at a word and ends in "…"), or ``""`` when no rule applies.
    """
    sentences = SENTENCE_END.split(" ".join(text.split()))
    acronyms = acronym_definitions(text)
    question = _question(sentences)
    if question and len(question) > max_chars:  # "a distribution μ": the symbol can go first
        question = " ".join(_SYMBOL_NAME.sub("", question).split())
    if question:
        return question if len(question) <= max_chars else _cut(question, max_chars)
    made: list[tuple[int, str, str]] = []  # (sentence index, kind, phrase)
    for index, sentence in enumerate(sentences):
        made += [(index, kind, phrase) for kind, phrase in _phrases(sentence, text)]
    ordered = [m for m in made if m[1] != "result"] + [m for m in made if m[1] == "result"]
    for index, kind, phrase in ordered:
        title = _fit(phrase, acronyms, max_chars)
        if len(title.split()) < 2 or not title[:1].isalpha():
            continue  # "Framework", "Data-driven": the fillers were all it said
        if kind == "problem":  # "Fourier sparsity testing: a tester with query complexity Õ(s⁴)"
            later = next((m for m in made if m[1] == "make" and m[0] > index), None)
            if later is not None:
                tool = _fit(later[2], acronyms, max_chars, keep_article=True)
                joined = f"{title}: {tool[:1].lower()}{tool[1:]}"
                if len(tool.split()) > 2 and "\u2026" not in joined and len(joined) <= max_chars:
                    return joined
        return title
    return ""


def _question(sentences: list[str]) -> str:
    """The question the abstract asks and then takes up, tidied, or ``""``."""
    for index, sentence in enumerate(sentences[:-1]):
        if not sentence.endswith("?") or not _QUESTION_TAKEN_UP.search(sentences[index + 1]):
            continue
        question = _QUESTION_ASIDE.sub("", sentence)
        question = _QUESTION_ADVERBS.sub("", question)
        question = re.sub(r"^(?:But|And|So|Yet|Thus|Then|Now),?\s+", "", question)
        if len(question.split()) >= 3 and not _ANAPHORIC.match(question):
            return question[:1].upper() + question[1:]
    return ""


def _phrases(sentence: str, text: str) -> list[tuple[str, str]]:
    """``(kind, phrase)`` for each contribution, subject or result the sentence states."""
    out: list[tuple[str, str]] = []
    matches = [("make", m) for m in _CONTRIBUTION.finditer(sentence)]
    if re.search(_WE, sentence):
        matches += [("make", m) for m in _TO_MAKE.finditer(sentence)]
    matches += [("study", m) for m in _STUDY.finditer(sentence)]
    matches += [("result", m) for m in _RESULT.finditer(sentence)]
    for kind, match in sorted(matches, key=lambda km: km[1].start()):
        phrase = _clause(match.group("np"))
        phrase = _resolve_former(phrase, sentence)
        if kind == "study":
            kind, phrase = _subject(phrase, text)
        if not phrase or _ANAPHORIC.match(phrase) or len(phrase.split()) < 2:
            continue
        if kind in ("make", "study") and _NOT_TITLES.match(phrase):
            continue
        out.append((kind, phrase))
    return out


def _clause(text: str) -> str:
    """``text`` up to the end of its first clause (the first comma only after a few words)."""
    end = len(text)
    for match in _CLAUSE_END.finditer(text):
        before = len(text[: match.start()].split())
        if match.group(0).lstrip().startswith(",") and before < 4:
            continue  # "a unified, high-probability characterization": a list of adjectives
        if match.group(0).split()[0] in ("that", "who") and before < 5:
            continue  # "a framework that integrates …": the clause says what it is
        end = match.start()
        break
    return text[:end].strip(" ,;:.")


def _resolve_former(phrase: str, sentence: str) -> str:
    """ "the former"/"the latter" as what they point at, from "between A and B" in the sentence."""
    if not re.search(r"\bthe (?:former|latter)\b", phrase):
        return phrase
    pair = _BETWEEN.search(sentence)
    if pair is None:
        return phrase
    phrase = re.sub(r"\bthe former\b", pair.group("a"), phrase)
    return re.sub(r"\bthe latter\b", pair.group("b"), phrase)


def _subject(phrase: str, text: str) -> tuple[str, str]:
    """What a "we study …" phrase is about: ``("problem", X)``, ``("study", X)`` or ``("", "")``."""
    if problem := _PROBLEM.match(phrase):
        return "problem", problem.group("x")
    if how := _HOW.match(phrase):
        return "study", how.group("x")
    if variant := _VARIANT.match(phrase):  # "a smooth variant where …": a variant of the topic
        topic = _topic(text)
        return ("study", f"{topic} {variant.group('x')}") if topic else ("", "")
    if re.match(r"^(?:a|an)\s", phrase, re.IGNORECASE):
        return "", ""  # "we consider a setting …": too vague to name the paper
    return "study", phrase


def _topic(text: str) -> str:
    """The abstract's most repeated two-word term ("decision calibration"), or ``""``."""
    words = [w.lower() for w in _WORD.findall(text)]
    pairs = Counter(
        (a, b)
        for a, b in pairwise(words)
        if a not in _TOPIC_STOP and b not in _TOPIC_STOP and len(a) > 2 and len(b) > 2
    )
    if not pairs:
        return ""
    (a, b), count = pairs.most_common(1)[0]
    return f"{a} {b}" if count >= 3 else ""


def _tidy(phrase: str, keep_article: bool) -> str:
    """The title-like form of a phrase: fillers, asides and generic heads dropped."""
    phrase = _PAREN.sub("", phrase)
    phrase = _STUDY_HEAD.sub("", phrase, count=1)
    phrase = _QUANTIFIER.sub("", phrase)
    phrase = _FILLER_ADJECTIVES.sub("", phrase)
    phrase = _PURPOSE_VERB.sub("", phrase)
    phrase = _REMEDY.sub("for ", phrase)
    phrase = _SETTING.sub("from ", phrase)
    phrase = re.sub(r"\b(a|an)\s+(?=(?:a|an|the)\b)", "", phrase)  # "a" left before "an" by a drop
    head = _GENERIC_HEAD.search(phrase)
    if head and not _ADJECTIVE_END.search(phrase[: head.start()]) and len(phrase[: head.start()].split()) > 1:
        phrase = phrase[: head.start()] + phrase[head.end() :]
    phrase = " ".join(phrase.split()).strip(" ,;:.")
    article = _LEAD_ARTICLE.match(phrase)
    if article and not keep_article:
        phrase = phrase[article.end() :]
    elif article and keep_article and len(phrase.split()) > 1:
        vowel = re.match(r"[aeio]|u(?:n[^i]|[^n])|h(?:our|onest)", phrase[article.end() :].lower())
        lead = article.group(0).strip().lower()
        if lead in ("a", "an"):
            lead = "an" if vowel else "a"
        phrase = f"{lead} {phrase[article.end() :]}"
    return phrase


def _with_acronyms(phrase: str, acronyms: dict[str, str], expand: bool) -> str:
    """``phrase`` with defined acronyms spelled out (``expand``), else with the long forms of
    well-known ones (:data:`~paperdeck.text.title_words.BACKGROUND`: "LLMs") abbreviated."""
    for short, long in acronyms.items():
        if expand:
            shown = long if any(c.isupper() for c in long[1:]) else long[:1].lower() + long[1:]
            phrase = re.sub(rf"(?<![\w-]){re.escape(short)}s?(?![\w-])", shown.replace("\\", r"\\"), phrase)
        elif short.upper() in BACKGROUND:
            abbreviation = short + ("s" if long.endswith("s") and not short.endswith("s") else "")
            phrase = re.sub(rf"\b{re.escape(long)}\b", abbreviation.replace("\\", r"\\"), phrase, flags=re.IGNORECASE)
    return phrase


def _fit(phrase: str, acronyms: dict[str, str], max_chars: int, keep_article: bool = False) -> str:
    """The tidied phrase as a title of at most ``max_chars``: spelled out if that fits."""
    tidy = _tidy(phrase, keep_article)
    for expand in (True, False):
        title = _with_acronyms(tidy, acronyms, expand)
        title = " ".join(title.split()).strip(" ,;:.")
        title = title[:1].upper() + title[1:]
        if len(title) <= max_chars:
            return _drop_dangling(title)
    return _cut(title, max_chars)


def _drop_dangling(title: str) -> str:
    words = title.split(" ")
    while len(words) > 1 and words[-1].lower() in STOP_END:
        words.pop()
    return " ".join(words)


def _cut(title: str, max_chars: int) -> str:
    """``title`` cut at a word to at most ``max_chars`` characters, ending in "…"."""
    words = title[: max_chars - 1].split(" ")
    if len(words) > 1:
        words.pop()
    head = _drop_dangling(" ".join(words)).rstrip(" ,;:\u2014\u2013-")
    return (head or title[: max_chars - 1]) + "\u2026"
