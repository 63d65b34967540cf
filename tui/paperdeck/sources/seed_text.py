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

from paperdeck.model.paper import Paper, abstract_id
from paperdeck.sources.base import SourceRead, read_text

NAME = "seed"

_HEADER_VENUE_YEAR = re.compile(r"^\s*(?P<venue>[A-Za-z][A-Za-z&.\-]*)\s*'?(?P<year>(?:19|20)\d{2})\b")
_BLANK_LINE = re.compile(r"\n[ \t\f\v\u00a0\u3000]*\n")
#: A header is one short line; an abstract is a long paragraph.
_HEADER_MAX_CHARS = 120


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
    """Never: seed text has no mark of its own. A ``.txt`` file is seed text by its ending alone,
    and any file no other format recognises is read as seed text (:data:`paperdeck.sources.FORMATS`)."""
    return False


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
