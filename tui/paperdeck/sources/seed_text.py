"""Reader for the seed text format: a header line naming the list, then abstracts.

The format of the bundled ``seeds/*.txt`` (ICLR 2026 lists without titles or authors)::

    ICLR 2026 论文列表

    First abstract, possibly hard-wrapped
    over several lines.

    Second abstract …

Blocks are separated by blank lines (a line of only whitespace is blank); single newlines inside a
block are joined with a space. The header is optional: a file whose first block already reads like
an abstract has none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper, abstract_id
from paperdeck.sources.base import SourceRead, read_head, read_text
from paperdeck.sources.decode import decode_text

NAME = "seed"

_HEADER_VENUE_YEAR = re.compile(r"^\s*(?P<venue>[A-Za-z][A-Za-z&.\-]*)\s*'?(?P<year>(?:19|20)\d{2})\b")
_BLANK_LINE = re.compile(r"\n[ \t\f\v\u00a0\u3000]*\n")
#: A header is one short line; an abstract is a long paragraph.
_HEADER_MAX_CHARS = 120
#: How much of a file :func:`sniff` reads.
_SNIFF_BYTES = 65_536
#: A header begins as a name does: a letter, a digit or a CJK character (not ``#``, ``<``, ``{``…).
_NAME_START = re.compile(r"[^\W_]")
#: A line that begins like markup, a list item, a table row, a comment or code.
_MARKUP_START = re.compile(r"(?:[#>|=<{\[]|[-*+]\s|\*\*|//|/\*|```|\d+[.)]\s)")
#: Inline LaTeX math (``$x^2$``, ``\\(x\\)``), and LaTeX commands.
_MATH = re.compile(r"\$[^$\n]{1,400}\$|\\\(.{1,400}?\\\)|\\[A-Za-z]+(?:\{[^{}\n]{0,80}\})?")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: A word: letters, maybe with digits (``ResNet50``), with inner hyphens or apostrophes
#: (``state-of-the-art``, ``model's``).
_WORD = re.compile(r"[^\W_]*[^\W\d_][^\W_]*(?:[-'’][^\W_]+)*")
_PUNCTUATION = ".,;:!?()[]\"'“”‘’«»…—–"
_CODE_SYMBOLS = frozenset("{}<>=;|\\/_#@*`~^$&%[]")
#: A block of prose has at least this many tokens, this share of them words, and at most these
#: shares of digits and of the symbols of code and records (of its characters other than spaces).
_MIN_WORDS = 6
_MIN_WORD_SHARE = 0.6
_MAX_DIGIT_SHARE = 0.35
_MAX_NUMBER_SHARE = 0.15
#: A token of digits and the marks between them (``13:56:09``, ``127.0.0.1``, ``2026-12-05``).
_NUMBER = re.compile(r"[\d.,:/+%x-]*\d[\d.,:/+%-]*")
_MAX_SYMBOL_SHARE = 0.08
#: A paragraph is at most this many lines (a table's or a log's records run on for many more).
_MAX_LINES = 100
#: A line with this many commas or tabs is a row of values (in most lines of a block).
_ROW_SEPARATORS = 3
#: A block of CJK text (a Chinese abstract) reads as prose from this many characters.
_MIN_CJK_CHARS = 20
#: A line that is a record's field: a short key, a colon, a value (``vendor_id : Intel``,
#: ``Upstream-Name: less``, ``Files: *``).
_FIELD_LINE = re.compile(r"[^\W\d][\w .()/-]{0,30}?\s*:(?:\s|$)")
#: A notice of copyright or a licence's terms: legal text, not an abstract.
_LEGAL = re.compile(
    r"copyright\s*(?:\(c\)|©|\d{4})|all rights reserved|permission is hereby granted|"
    r"this software is provided|licensed under the|warranty of merchantability",
    re.IGNORECASE,
)
#: Lines of a block shorter than this on average (five lines or more): verse or a list, not a
#: paragraph (an abstract is one long line, or lines wrapped near 80 columns).
_MIN_MEAN_LINE = 45
#: A block whose letters are more than this share capitals is shouted (a disclaimer), not prose.
_MAX_CAPITALS_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class SeedList:
    """What a seed-format file holds.

    Attributes:
        path: the file read.
        header: the list's name from its first line (``"ICLR 2026 论文列表"``), ``""`` when absent.
        venue: conference short name read from the header (``"ICLR"``), ``""`` when unknown.
        year: year read from the header (``2026``), ``None`` when unknown.
        papers: one paper per distinct abstract, in file order; titles are left empty
            (``title_derived=True``) for the catalogue to derive.
        notice: a one-line remark for the user, e.g. that the file holds no papers; else ``None``.
    """

    path: Path
    header: str
    venue: str
    year: int | None
    papers: tuple[Paper, ...]
    notice: str | None = None


def read_seed_file(path: Path | str) -> SeedList:
    """Read a seed-format file (see the module docstring).

    Raises:
        SourceError: the file cannot be read, is binary, or is in an unknown encoding.
    """
    path = Path(path)
    return parse_seed_text(read_text(path), path)


def sniff(path: Path, head: str) -> bool:
    """Whether the file reads as seed text (:func:`looks_like_seed_text` of its first 64 KiB,
    decoded as the reader decodes it). A file that is not text at all (binary, an unknown
    encoding) is taken too: the reader refuses it, saying why.

    ``head`` is not used: it is decoded as UTF-8 whatever the file is, and a seed list may be
    UTF-16 or GB18030.
    """
    try:
        raw = read_head(path, _SNIFF_BYTES)
    except OSError:
        return True  # the reader says it cannot be read
    cut = len(raw) >= _SNIFF_BYTES
    if cut:  # a character or a line cut short: up to the last whole line
        raw = raw[: raw.rfind(b"\n") + 1] or raw
    try:
        text = decode_text(raw, path)
    except SourceError:
        return True
    return looks_like_seed_text(text, cut=cut)


def looks_like_seed_text(text: str, *, cut: bool = False) -> bool:
    """Whether ``text`` looks like the seed format: empty; or its blocks (paragraphs between blank
    lines) read as prose — at least half of them under a venue header (``ICLR 2026 …``), nine in
    ten without one — and any header line begins as a name does (not ``#``, ``<``, ``{``, …).

    A block reads as prose (:func:`_reads_as_prose`) when it is words, not records: system
    files, source code, Markdown, tables of numbers and logs are not, so they are refused rather
    than imported as papers. ``cut``: ``text`` is the head of a longer file (its last block may
    be cut short, and is not judged).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        return True  # an empty list: the reader says it holds no papers
    header, rest = _split_header(text)
    if header and not _NAME_START.match(header):
        return False
    blocks = [block for block in _BLANK_LINE.split(f"\n{rest}\n") if block.strip()]
    if cut and len(blocks) > 1:
        blocks.pop()
    venue = bool(header) and _HEADER_VENUE_YEAR.match(header) is not None
    if not blocks:
        return venue
    prose = sum(map(_reads_as_prose, blocks))
    return prose * 2 >= len(blocks) if venue else prose * 10 >= len(blocks) * 9


def _reads_as_prose(block: str) -> bool:
    """Whether a block reads as an abstract: sentences of words (or CJK text), not lines of
    records, markup or code."""
    lines = [line.strip() for line in block.split("\n") if line.strip()]
    if _MARKUP_START.match(lines[0]) or len(lines) > _MAX_LINES:
        return False
    separated = sum(1 for line in lines if line.count(",") + line.count("\t") >= _ROW_SEPARATORS)
    if len(lines) >= 3 and separated * 5 >= len(lines) * 4:
        return False  # lines of comma- or tab-separated values
    fields = sum(1 for line in lines if _FIELD_LINE.match(line))
    if len(lines) >= 2 and fields * 2 >= len(lines):
        return False  # a record's fields, a line each (/proc/cpuinfo, a Debian copyright file)
    if len(lines) >= 5 and sum(map(len, lines)) < len(lines) * _MIN_MEAN_LINE:
        return False  # verse, or a list a line an item
    if _LEGAL.search(block):
        return False  # a copyright notice or a licence
    letters = [char for char in block if char.isalpha()]
    if letters and sum(char.isupper() for char in letters) > len(letters) * _MAX_CAPITALS_SHARE:
        return False  # shouted: a disclaimer
    joined = _MATH.sub(" ", " ".join(lines))  # an abstract's LaTeX is not code
    chars = joined.replace(" ", "")
    if len(_CJK.findall(chars)) * 3 >= len(chars):
        return len(chars) >= _MIN_CJK_CHARS
    tokens = joined.split()
    if len(tokens) < _MIN_WORDS:
        return False
    words = sum(1 for token in tokens if _WORD.fullmatch(token.strip(_PUNCTUATION)))
    if words < len(tokens) * _MIN_WORD_SHARE:
        return False
    digits = sum(char.isdigit() for char in chars)
    symbols = sum(char in _CODE_SYMBOLS for char in chars)
    if digits > len(chars) * _MAX_DIGIT_SHARE or symbols > len(chars) * _MAX_SYMBOL_SHARE:
        return False
    numbers = sum(1 for token in tokens if _NUMBER.fullmatch(token.strip(_PUNCTUATION)))
    if numbers > len(tokens) * _MAX_NUMBER_SHARE:
        return False  # times, dates, addresses, counts: records
    # Lines that each begin with a mark (list items, a log's levels or times): records, not a paragraph.
    marked = sum(1 for line in lines if _MARKUP_START.match(line) or line[0].isdigit())
    return len(lines) < 3 or marked * 2 < len(lines)


def read(path: Path) -> SourceRead:
    """Read a seed-format file as a :class:`SourceRead` (see :func:`read_seed_file`)."""
    seed_list = read_seed_file(path)
    return SourceRead(path, NAME, seed_list.papers, (), seed_list.notice)


def parse_seed_text(text: str, path: Path | str) -> SeedList:
    """Parse seed-format ``text`` read from ``path`` (named in the result and in papers' sources).

    Handles LF, CRLF and CR line endings, hard-wrapped paragraphs, surrounding whitespace and a
    missing header. The same abstract twice (compared whitespace- and case-insensitively) is one paper.
    """
    path = Path(path)
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    header, text = _split_header(text)
    blocks = [_join_lines(block) for block in _BLANK_LINE.split(f"\n{text}\n")]
    blocks = [block for block in blocks if block]
    venue, year = _venue_year(header)
    papers: dict[str, Paper] = {}
    for abstract in blocks:
        paper_id = abstract_id(abstract)
        if paper_id not in papers:
            papers[paper_id] = Paper(
                id=paper_id,
                title="",
                abstract=abstract,
                venue=venue,
                year=year,
                title_derived=True,
                sources=(path.name,),
            )
    notice = None if papers else f"{path}: no papers in this file"
    return SeedList(path, header, venue, year, tuple(papers.values()), notice)


def _join_lines(block: str) -> str:
    """Join a block's hard-wrapped lines with single spaces and trim it."""
    return " ".join(line.strip() for line in block.split("\n") if line.strip())


def _split_header(text: str) -> tuple[str, str]:
    """Split off the header line, if the text has one: ``(header, rest)``.

    The first non-blank line is the header when it is short and either names a venue and year
    (``ICLR 2026 …``) or stands alone (a blank line follows) without ending like a sentence.
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return "", text
    candidate = lines[first].strip()
    if len(candidate) > _HEADER_MAX_CHARS:
        return "", text
    stands_alone = first + 1 >= len(lines) or not lines[first + 1].strip()
    names_venue = _HEADER_VENUE_YEAR.match(candidate) is not None
    if names_venue or (stands_alone and not candidate.endswith((".", "!", "?", "。"))):
        return candidate, "\n".join(lines[first + 1 :])
    return "", text


def _venue_year(header: str) -> tuple[str, int | None]:
    """``("ICLR", 2026)`` from ``"ICLR 2026 论文列表"``; ``("", None)`` when the header names none."""
    match = _HEADER_VENUE_YEAR.match(header)
    if match is None:
        return "", None
    return match.group("venue"), int(match.group("year"))
