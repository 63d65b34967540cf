"""Reader for BibTeX paper lists.

Shapes handled: the entries OpenReview generates (as collected
by Paper Copilot: ``@inproceedings`` for accepted papers, ``@misc`` for the others, ``@article``
with ``author={Anonymous}`` while under review; the forum URL in ``url``), the crawler style of
``lihebi/smart-scholar-dist`` (``booktitle={ICLR}`` or ``{ICLRWorkshop}``, a ``pdflink`` field)
and dblp entries (long booktitles such as ``The Thirteenth International Conference on Learning
Representations, {ICLR} 2025, …``).

Parsed with bibtexparser 2. Citation keys are never ids (they repeat); entries whose key repeats
are read like the others. Ids: the OpenReview forum id in ``url``/``pdflink``, else the arXiv id,
else the DOI, else a title id. Text fields read LaTeX text escapes as text and lose their protective
braces; math and the macros the app renders stay as written (:func:`latex_text`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path

from bibtexparser.entrypoint import parse_string
from bibtexparser.library import Library
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.model import DuplicateBlockKeyBlock, Entry

from paperdeck.model.decision import normalise_decision
from paperdeck.model.errors import SourceError
from paperdeck.model.ids import arxiv_id, canonical_id, openreview_id_from_url
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import web_link
from paperdeck.sources.base import Skip, SourceRead, read_text
from paperdeck.sources.common import (
    collapse,
    excerpt,
    merge_papers,
    venue_from_text,
    venue_year_from_filename,
    year_from_text,
)

NAME = "bibtex"

_ENTRY_START = re.compile(r"\s*@\s*[A-Za-z]+\s*[{(]")
_ANONYMOUS = {"anonymous", "anonymous authors", "anonymous author"}
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def _silence_bibtexparser() -> None:
    """Keep bibtexparser's log records (warnings about broken entries, which :func:`_entries`
    turns into errors) away from the root logger's handlers and Python's last-resort stderr
    handler, which would print them over the terminal app.

    Done once, at import: a handler on ``bibtexparser`` that drops everything, and no propagation
    past it. (A ``logging.Filter`` on that logger would not do: logger filters see only records
    logged on the logger itself, not those of ``bibtexparser.splitter`` and its other children.)
    """
    logger = logging.getLogger("bibtexparser")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())
    logger.propagate = False


_silence_bibtexparser()


def sniff(path: Path, head: str) -> bool:
    """Text whose first line (after ``%`` comments) opens an entry (a ``.bib`` file is BibTeX by
    its ending alone: :data:`paperdeck.sources.FORMATS`)."""
    lines = (line for line in head.splitlines() if line.strip() and not line.lstrip().startswith("%"))
    return bool(_ENTRY_START.match(next(lines, "")))


def read(path: Path) -> SourceRead:
    """Read a BibTeX file (see the module docstring).

    Raises:
        SourceError: unreadable file, or an entry bibtexparser cannot parse (naming its line);
            nothing is returned then.
    """
    text = read_text(path)
    file_venue, file_year = venue_year_from_filename(path)
    papers: dict[str, Paper] = {}
    first_line: dict[str, int] = {}
    skipped: list[Skip] = []
    for line, entry in _entries(text, path):
        paper = _paper(entry, path, file_venue, file_year)
        if isinstance(paper, str):
            skipped.append(Skip(f"line {line}", paper))
        elif paper.id in papers:
            papers[paper.id] = merge_papers(papers[paper.id], paper)
            skipped.append(Skip(f"line {line}", f"same paper as line {first_line[paper.id]}; merged"))
        else:
            papers[paper.id], first_line[paper.id] = paper, line
    notice = None if papers else f"{path}: no papers in this file"
    return SourceRead(path, NAME, tuple(papers.values()), tuple(skipped), notice)


def _entries(text: str, path: Path) -> list[tuple[int, Entry]]:
    """Every entry with its 1-based line, in file order, including those whose citation key
    repeats an earlier one (bibtexparser leaves those raw: they are parsed again on their own)."""
    library = _parse(text, path)
    for failed in library.failed_blocks:
        if not isinstance(failed, DuplicateBlockKeyBlock):
            error = failed.error
            reason = str(getattr(error, "abort_reason", "") or error or "cannot parse this entry")
            reason = reason.split(" Note:")[0]  # bibtexparser's advice to programmers
            line = (failed.start_line or 0) + 1
            raise SourceError(path, f"malformed BibTeX entry: {excerpt(reason, 200)}", line)
    strings = "\n".join(block.raw or "" for block in library.strings)
    entries: list[tuple[int, Entry]] = []
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, Entry):
            entries.append((line, block))
        elif isinstance(block, DuplicateBlockKeyBlock):
            again = _parse(f"{strings}\n{block.raw or ''}", path).entries
            entries.extend((line, entry) for entry in again[:1])
    return entries


def _parse(text: str, path: Path) -> Library:
    """bibtexparser's library of ``text`` (its log records go nowhere: failures become errors)."""
    try:
        return parse_string(text)
    except Exception as exc:  # a parser bug: still the file's fault as far as the user sees
        raise SourceError(path, f"BibTeX parser failed: {excerpt(str(exc), 200)}") from None


def _paper(entry: Entry, path: Path, file_venue: str, file_year: int | None) -> Paper | str:
    """The paper of one entry, or the reason it is skipped."""
    values = {key.casefold(): collapse(str(field.value)) for key, field in entry.fields_dict.items()}
    kind = entry.entry_type.casefold()
    title = strip_braces(values.get("title", ""))
    if not title:
        return "no title"
    container = strip_braces(values.get("booktitle") or values.get("journal") or "")
    arxiv = _arxiv(values)
    # no container: arXiv's own @misc (an eprint) or howpublished={arXiv}, unless the file names a venue
    bare = not container and (is_preprint(values.get("howpublished", "")) or (bool(arxiv) and not file_venue))
    preprint = bare or is_preprint(container)
    if preprint:  # "arXiv 2022", "arXiv preprint arXiv:2201.01234", dblp's CoRR: no conference
        venue = PREPRINT_VENUE
        year = year_from_text(values.get("year", "")) or _arxiv_year(arxiv)
    else:
        venue = venue_from_text(container) if container else file_venue
        year = year_from_text(values.get("year", "")) or year_from_text(container)
        year = year or (file_year if not container or venue == file_venue else None)  # iclr2017.bib
    # paperdeck's own export names the venue and the decision in fields of their own
    # (:data:`paperdeck.export.bibtex.ROUND_TRIP_FIELDS`): they win over what the rest implies
    own_venue = strip_braces(values.get("venue", ""))
    if own_venue and (named := venue_from_text(own_venue)):
        venue, year = named, year_from_text(own_venue) or year
        preprint = named == PREPRINT_VENUE
    links = [values.get(name, "") for name in ("url", "pdflink", "pdf", "openreview")]
    forum = next((openreview_id_from_url(link) for link in links if openreview_id_from_url(link)), "")
    doi = _DOI_PREFIX.sub("", values.get("doi", ""))
    try:
        paper_id = canonical_id(openreview_id=forum, arxiv=arxiv, doi=doi, venue=venue, year=year, title=title)
    except ValueError:
        return f"placeholder title {title!r} and no id"
    decision, decision_raw = _decision(kind, container, values.get("note", ""), preprint=preprint)
    own_decision = strip_braces(values.get("decision", "")).casefold()
    if own_decision in _DECISIONS:
        decision, decision_raw = own_decision, strip_braces(values.get("note", "")) or own_decision
    pdf = next((link for link in links[1:3] if web_link(link)), "")
    return Paper(
        id=paper_id,
        title=title,
        abstract=latex_text(values.get("abstract", "")),
        venue=venue,
        year=year,
        sources=(path.name,),
        authors=split_authors(values.get("author", "")),
        authors_more=lists_others(values.get("author", "")),
        keywords=tuple(k for k in (w.strip() for w in re.split(r"[;,]", values.get("keywords", ""))) if k),
        decision=decision,
        decision_raw=decision_raw,
        openreview_id=forum,
        arxiv_id=arxiv,
        doi=doi,
        pdf_url=pdf or (f"https://openreview.net/pdf?id={forum}" if forum else ""),
        code_url=web_link(values.get("code", "")),
        openreview_url=f"https://openreview.net/forum?id={forum}" if forum else "",
        arxiv_url=f"https://arxiv.org/abs/{arxiv}" if arxiv else "",
        bibtex=(entry.raw or "").strip(),
    )


def _decision(kind: str, container: str, note: str, *, preprint: bool = False) -> tuple[str, str]:
    """``(decision, decision_raw)``: ``@inproceedings`` is accepted (``…Workshop`` a workshop
    paper, kept apart from the main conference's accepted tiers); ``@misc`` (OpenReview's
    rejected/withdrawn), ``@article`` and a preprint (:func:`is_preprint`, whatever its entry
    type) are unknown, unless a ``note`` such as ``rejected`` says more."""
    if note and normalise_decision(note) != "unknown":
        return normalise_decision(note), note
    raw = f"@{kind}" + (f" {container}" if container else "")
    if preprint:
        return "unknown", raw
    if "workshop" in container.casefold():
        return "workshop", raw
    return ("accept" if kind == "inproceedings" else "unknown"), raw


#: The decisions a ``decision`` field may give as they are (paperdeck's own export writes them).
_DECISIONS = frozenset(
    ("oral", "spotlight", "poster", "accept", "accept-conditional", "workshop", "under-review", "reject",
     "withdrawn", "desk-rejected")
)  # fmt: skip
#: The venue a preprint's entry is filed under (a rolling venue: :data:`paperdeck.model.paper.ROLLING_VENUES`).
PREPRINT_VENUE = "arXiv"
#: A container naming a preprint server: ``arXiv 2022``, ``arXiv preprint arXiv:2201.01234``,
#: ``ArXiv``, dblp's ``CoRR``.
_PREPRINT = re.compile(r"\barxiv\b|^corr$", re.IGNORECASE)


def is_preprint(container: str) -> bool:
    """Whether a ``booktitle`` / ``journal`` (or ``howpublished``) names a preprint server, not a
    conference or journal: ``arXiv 2022``, ``arXiv preprint arXiv:2201.01234``, ``CoRR``. Such an
    entry is a preprint (venue :data:`PREPRINT_VENUE`, decision unknown) even as
    ``@inproceedings``, unless the text also names a known venue (``ICLR 2017 (arXiv version)``)."""
    return bool(_PREPRINT.search(container)) and not _named_venue(container)


def _named_venue(container: str) -> bool:
    """Whether ``container`` names a venue other than the preprint server itself."""
    venue = venue_from_text(_PREPRINT.sub(" ", container))
    return bool(venue) and venue.casefold() not in {"preprint", "arxiv", "corr"}


def _arxiv_year(arxiv: str) -> int | None:
    """The year an arXiv id was given (``2201.01234`` → 2022, ``cs/0112017`` → 2001); ``None``
    without an id."""
    match = re.search(r"(?:^|/)(\d{2})(\d{2})", arxiv)
    if match is None:
        return None
    yy = int(match.group(1))
    return (1900 if yy >= 91 else 2000) + yy


def _arxiv(values: dict[str, str]) -> str:
    """The arXiv id of an entry: ``eprint`` (arXiv's), an arxiv.org ``url``, a
    Google-Scholar-style ``journal={arXiv preprint arXiv:…}``, or dblp's ``journal={CoRR},
    volume={abs/…}``."""
    eprint = values.get("eprint", "")
    if eprint and values.get("archiveprefix", "arxiv").casefold() == "arxiv":
        return arxiv_id(eprint)
    url = values.get("url", "")
    if "arxiv.org" in url:
        return arxiv_id(url)
    journal = values.get("journal", "")
    if "arxiv" in journal.casefold() and arxiv_id(journal):
        return arxiv_id(journal)
    volume = values.get("volume", "")
    return arxiv_id(volume) if is_preprint(journal) and volume.casefold().startswith("abs/") else ""


_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
#: A text accent and its letter: ``\'e``, ``\"{o}``, ``\c c``, ``\v{\i}`` (``\c`` and the other
#: letter accents only as a whole control word).
_ACCENT = re.compile(
    r"""\\(?:([`'^"~=.])|([uvHckrdb])(?![A-Za-z]))\s*"""  # the accent
    r"""(?:\{\s*(\\[ij]|[A-Za-z]{1,2})\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))"""  # its letter
)
#: What follows a text macro and ends it: an empty group (``\textasciicircum{}``) or spaces.
_MACRO_END = re.compile(r"\{\}|[ \t\n]+")
#: The characters :func:`latex_text` looks at; every other one is copied as it is.
_READ_SPECIAL = re.compile(r"[\\{}$^_-]")
#: ``\%`` and the other characters a BibTeX field escapes, outside math: the character itself.
_ESCAPED = frozenset("%&#_$")
#: Argument-less text macros (beyond the ``\text…`` ones) read as their character: ``\ss`` → ß.
#: Text macros whose character pylatexenc gives otherwise (``ˆ`` for ``\\textasciicircum``) or not
#: at all: those :func:`paperdeck.export.bibtex.bibtex_text` writes for a character.
_TEXT_SYMBOLS = {
    "textasciicircum": "^", "textasciitilde": "~", "textbackslash": "\\", "textbraceleft": "{",
    "textbraceright": "}", "textunderscore": "_", "textdollar": "$", "textpercent": "%",
}  # fmt: skip
_LETTERS = re.compile(r"[A-Za-z]+")
_TEXT_LETTERS = frozenset(
    ("ss", "o", "O", "ae", "AE", "oe", "OE", "aa", "AA", "l", "L", "i", "j", "dh", "DH", "th", "TH", "ng", "NG",
     "dag", "ddag", "S", "P", "pounds", "copyright")
)  # fmt: skip


#: What became of an open brace in :func:`latex_text`: left out (it only protected case), written
#: out, or written out as a macro's argument (a group right after it is an argument too).
_DROPPED, _KEPT, _ARGUMENT = 0, 1, 2


def strip_braces(text: str) -> str:
    """A BibTeX field's LaTeX text as paperdeck's text (LaTeX-flavoured plain text, ``%`` meaning
    per cent): :func:`latex_text` with BibTeX's protective braces removed (``{{MACH}: {B}ig}`` →
    ``MACH: Big``)."""
    return latex_text(text, braces=False)


def latex_text(text: str, *, braces: bool = True) -> str:
    """``text`` (a BibTeX field) with its LaTeX text escapes read as what they stand for, white
    space collapsed; what the app's renderer reads as LaTeX kept as written.

    Outside ``$…$`` math: ``\\%`` ``\\&`` ``\\#`` ``\\_`` ``\\$`` are their character; a text
    accent (``\\'e``, ``{\\"o}``, ``\\"{o}``, ``\\c c``) is the accented letter; a text macro
    pylatexenc knows (``\\textasciicircum{}``, ``\\textbackslash{}``, ``\\textbraceleft{}``,
    ``\\textendash``, ``\\ss``: :func:`paperdeck.text.latex_math.symbol`) is its character, its
    ``{}`` or the spaces that end it dropped; ``---`` and ``--`` are ``—`` and ``–``. Every other
    macro (``\\emph{…}``, ``\\alpha``) and all of the math are kept as written. ``%`` is never a
    comment (it means per cent in paper text; hostile data must not hide what follows it). With
    ``braces=False`` the braces that only protect case are removed; braces after a macro (its
    arguments, each of them: ``\\frac{a}{b}``, ``\\sqrt[3]{x}``), after ``^`` / ``_``
    (``MEGS^{2}``) and inside math stay. Linear time.
    """
    from paperdeck.text.latex_math import accent, symbol  # deferred: a BibTeX import only

    out: list[str] = []
    kept: list[int] = []  # for each open brace: _DROPPED, _KEPT or _ARGUMENT (a macro's: kept)
    kept_open = 0  # how many of them were (a count, not any(kept): 100,000 nested braces)
    math = after_command = False
    i, n = 0, len(text)
    while i < n:
        if after_command and not math and text.startswith("[", i) and (close := text.find("]", i)) > 0:
            out.append(text[i : close + 1])  # `\sqrt[3]{x}`: an optional argument, the braces after it too
            i = close + 1
            continue
        special = _READ_SPECIAL.search(text, i)  # a run of ordinary characters copied at once
        start = n if special is None else special.start()
        if start > i:
            out.append(text[i:start])
            after_command = False
            i = start
            continue
        char = text[i]
        if char == "\\" and i + 1 < n:
            if not math:
                read = _text_escape(text, i, accent, symbol)
                if read is not None:
                    value, i, command = read
                    out.append(value)
                    after_command = command
                    continue
            match = _COMMAND.match(text, i)  # at i, not on a copy of the rest: linear time
            assert match is not None
            out.append(match.group())
            i += len(match.group())
            after_command = True
            continue
        if char == "{" and not math and i + 1 < n and text[i + 1] == "\\":
            found = _ACCENT.match(text, i + 1)  # `{\"o}`: the letter, its group gone
            if found is not None and found.end() < n and text[found.end()] == "}":
                out.append(accent(found.group(1) or found.group(2), found.group(3) or found.group(4)) or found.group())
                i = found.end() + 1
                after_command = False
                continue
        if char == "{" and not math and not after_command and text.startswith("{}", i):
            i += 2  # an empty group ends a word (`-{}-`: two hyphens, not a dash): nothing of its own
            continue
        if char == "{":
            keep = braces or math or after_command or kept_open > 0
            argument = after_command and not math and text[i - 1] not in "^_"  # a script's group: its one
            kept.append(_ARGUMENT if argument else _KEPT if keep else _DROPPED)
            if keep:
                kept_open += 1
                out.append(char)
        elif char == "}":
            closed = kept.pop() if kept else _KEPT if braces else _DROPPED
            if closed != _DROPPED:
                kept_open = max(kept_open - 1, 0)
                out.append(char)
            if closed == _ARGUMENT:  # `\frac{a}{b}`: a group right after a macro's argument is one too
                after_command = True
                i += 1
                continue
        elif char == "-" and not math and text.startswith("--", i):
            dashes = 3 if text.startswith("---", i) else 2
            out.append("—" if dashes == 3 else "–")
            i += dashes
            after_command = False
            continue
        else:
            if char == "$":
                math = not math
            out.append(char)
            after_command = char in "^_"  # `x^{2}`: a script's braces are its argument
            i += 1
            continue
        after_command = False
        i += 1
    return collapse("".join(out))


def _text_escape(
    text: str, at: int, accent: Callable[[str, str], str | None], symbol: Callable[[str], str | None]
) -> tuple[str, int, bool] | None:
    """The text escape at ``at`` (outside math) as ``(text, where it ends, whether braces after
    it are a macro's)``, or ``None`` when the command there is to be kept as written."""
    follower = text[at + 1]
    if follower in _ESCAPED:
        return follower, at + 2, follower == "_"
    found = _ACCENT.match(text, at)
    if found is not None:
        letter = accent(found.group(1) or found.group(2), found.group(3) or found.group(4))
        if letter is not None:
            return letter, found.end(), False
    word = _COMMAND.match(text, at)
    assert word is not None
    name = word.group()[1:]
    if not name.isalpha() or not (name.startswith("text") or name in _TEXT_LETTERS):
        return None
    value = _TEXT_SYMBOLS.get(name) or symbol(name)
    if value is None:
        return None
    end = word.end()
    ending = _MACRO_END.match(text, end)
    if ending is not None:
        end = ending.end()
    if value == "\\" and (macro := _LETTERS.match(text, end)) is not None:
        # `\textbackslash{}citep{x}`: a macro written as text (paperdeck's export): its arguments stay
        return "\\" + macro.group(), macro.end(), True
    return value, end, value in ("^", "_")


def split_authors(text: str) -> tuple[str, ...]:
    """Names from a BibTeX ``author`` field, in byline order, each written first name first.

    Split on ``and`` outside braces; each name is read in any of BibTeX's three forms
    (``First von Last``, ``von Last, First``, ``von Last, Jr, First``) by bibtexparser's own
    name splitting, so ``Steele, Jr., Guy L.`` is ``Guy L. Steele Jr.``. A field of one name
    whose commas part names of two words or more (``A B, C D, E F``, seen in OpenReview
    entries) is a list of names. ``Anonymous`` and ``others`` give no name.
    """
    if text.casefold() in _ANONYMOUS:
        return ()
    pieces = _split_outside_braces(text)
    if len(pieces) == 1 and (listed := _comma_list(pieces[0])):
        return listed
    names: list[str] = []
    for raw in pieces:
        parts = parse_single_name_into_parts(latex_text(raw), strict=False)  # `Jo\~{a}o`: one word
        name = " ".join(strip_braces(parts.merge_first_name_first).split())
        if name and name.casefold() not in {"others", *_ANONYMOUS}:
            names.append(name)
    return tuple(names)


def lists_others(text: str) -> bool:
    """Whether a BibTeX ``author`` field ends ``and others`` (BibTeX's mark of a list cut short,
    typeset "et al."), outside braces: ``{Doe, Jane and others}`` does, ``{{Smith and others}}``
    (one name, braced) does not."""
    pieces = _split_outside_braces(text)
    return len(pieces) > 1 and pieces[-1].strip().casefold() == "others"


def _comma_list(text: str) -> tuple[str, ...]:
    """The names of ``A B, C D, E F`` (every part two words or more, or four parts or more), else
    ``()``: the field is one name in BibTeX's ``von Last, First`` or ``von Last, Jr, First``. A
    comma inside braces parts nothing (``{Acme Labs, Research Division}``); a first part that
    begins with a von particle (``de la Cruz, Juan Pablo``: a word in lower case, as BibTeX's
    ``von`` is) or is one braced group (``{van der Berg}, Jan``) makes the field one name."""
    parts = [part.strip() for part in _split_outside_braces(text, _COMMA)]
    if len(parts) < 4 and parts and _von_last(parts[0]):
        return ()
    parts = [strip_braces(part) for part in parts]
    if len(parts) >= 4 or (len(parts) >= 2 and all(len(part.split()) >= 2 for part in parts)):
        return tuple(part for part in parts if part)
    return ()


def _von_last(part: str) -> bool:
    """Whether ``part`` (before a name's first comma) reads as BibTeX's ``von Last``: its first
    word in lower case (``de la Cruz``, ``van der Berg``, ``ibn Sina``), or one braced group."""
    if _one_group(part):
        return True
    words = strip_braces(latex_text(part)).split()
    return len(words) >= 2 and words[0][:1].islower()


def _one_group(text: str) -> bool:
    """Whether ``text`` is one braced group: ``{van der Berg}``, not ``{A} B {C}``."""
    if not text.startswith("{"):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += 1 if char == "{" else -1 if char == "}" else 0
        if depth == 0:
            return index == len(text) - 1
    return False


#: What parts a name's field: `` and `` between names, ``,`` between a name's parts.
_AND = re.compile(r"[{}]|\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r"[{}]|,")


def _split_outside_braces(text: str, separator: re.Pattern[str] = _AND) -> list[str]:
    """``text`` split on `` and `` (or ``separator``) where no brace is open."""
    pieces: list[str] = []
    depth = start = 0
    for match in separator.finditer(text):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(text[start : match.start()])
            start = match.end()
    pieces.append(text[start:])
    return [piece.strip() for piece in pieces if piece.strip()]
