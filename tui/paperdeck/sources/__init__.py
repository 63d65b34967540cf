"""Importers, one module per input format, auto-detected: files in, :class:`SourceRead` out.

Every format is one row of :data:`FORMATS` (its ``--format`` name, what its records are called,
its file endings, a help line, and how its reader module is loaded), in detection order. A
reader module is a :class:`Reader`: ``sniff(path, head) -> bool`` (does this file look like
mine? ``head`` is the file's first 64 KiB, decompressed and decoded leniently) and
``read(path) -> SourceRead`` (raises ``SourceError`` naming file and position). mypy checks each
module against the protocol where its row loads it. Detection, the ``--format`` choices, the
error hints and the command line's help are all derived from the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from paperdeck.model.counts import counted
from paperdeck.model.errors import SourceError
from paperdeck.sources.base import GZIP_MAGIC, SourceRead, read_bytes, read_head, telling_bytes, unreadable
from paperdeck.sources.decode import head_text
from paperdeck.sources.links import keep_web_links

_HEAD_BYTES = 65_536


class Reader(Protocol):
    """What a format's reader module provides (each module is checked against it by mypy)."""

    def sniff(self, path: Path, head: str) -> bool:
        """Whether ``path``, starting with ``head`` (up to 64 KiB of text), looks like this format."""
        ...

    def read(self, path: Path) -> SourceRead:
        """Read the whole file.

        Raises:
            SourceError: the file cannot be read as this format (naming file and position).
        """
        ...


@dataclass(frozen=True, slots=True)
class Format:
    """One input format.

    Attributes:
        name: the ``--format`` value, and :attr:`SourceRead.format` of what its reader reads.
        label: the format's name in prose (``"OpenReview"``), for the command line's help.
        records: what the format's records are called, in an error hint (``"BibTeX entries"``).
        help: one line saying what files the format reads.
        endings: the file endings of this format's files (lower case, ``.gz`` left off; ``""``:
            no ending), counted in detection as :attr:`by_ending` says.
        by_ending: what a file with one of :attr:`endings` is. ``"decides"``: this format,
            whatever its content (at this row's turn in detection order; a compressed file,
            ``x.bib.gz``, is told by its content). ``"reads"``: when no
            reader recognises its content, it is read by this reader anyway (which says what is
            wrong with it, and where). ``"refuses"``: when no reader recognises its content, it
            is refused, naming the ``--format`` values.
        load: imports the reader module (deferred: a command that reads no file imports none).
        choosable: a ``--format`` value; a row that is not (the user-data backup) is detected
            whatever ``--format`` says.
    """

    name: str
    label: str
    records: str
    help: str
    endings: tuple[str, ...]
    by_ending: Literal["decides", "reads", "refuses"]
    load: Callable[[], Reader]
    choosable: bool = True

    @property
    def reader(self) -> Reader:
        """The reader module (imported on first use)."""
        return self.load()


# One loader per row: each returns its module as a Reader, which mypy checks.
def _backup() -> Reader:
    from paperdeck.sources import backup_file

    return backup_file


def _openreview() -> Reader:
    from paperdeck.sources import openreview

    return openreview


def _papercopilot() -> Reader:
    from paperdeck.sources import papercopilot

    return papercopilot


def _parquet() -> Reader:
    from paperdeck.sources import parquet

    return parquet


def _bibtex() -> Reader:
    from paperdeck.sources import bibtex

    return bibtex


def _arxiv() -> Reader:
    from paperdeck.sources import arxiv_atom

    return arxiv_atom


def _csv() -> Reader:
    from paperdeck.sources import csv_table

    return csv_table


def _miniconf() -> Reader:
    from paperdeck.sources import miniconf

    return miniconf


def _seed() -> Reader:
    from paperdeck.sources import seed_text

    return seed_text


#: Every input format, in detection order: the most specific first, seed text (the least: prose
#: paragraphs) last.
FORMATS: tuple[Format, ...] = (
    Format(
        name="backup",
        label="paperdeck user-data backup",
        records="backup records",
        help="a paperdeck user-data backup (paperdeck export --user-data), restored after the paper lists",
        endings=(),  # told by its first key alone, never by its name
        by_ending="refuses",
        load=_backup,
        choosable=False,
    ),
    Format(
        name="openreview",
        label="OpenReview",
        records="OpenReview notes",
        help="OpenReview notes: API v2 JSON, JSON Lines, ReviewTracker or flattened dumps",
        endings=(".json", ".jsonl"),
        by_ending="reads",
        load=_openreview,
    ),
    Format(
        name="papercopilot",
        label="Paper Copilot",
        records="Paper Copilot records",
        help="Paper Copilot paperlists JSON (an array of flat records with status, site, rating)",
        endings=(".json",),
        by_ending="reads",
        load=_papercopilot,
    ),
    Format(
        name="parquet",
        label="Parquet",
        records="Parquet rows",
        help="Paper Copilot columns in Apache Parquet (needs pyarrow)",
        endings=(".parquet", ".pq"),
        by_ending="decides",
        load=_parquet,
    ),
    Format(
        name="bibtex",
        label="BibTeX",
        records="BibTeX entries",
        help="BibTeX (.bib): OpenReview-generated, crawler (pdflink) or dblp entries",
        endings=(".bib", ".bibtex"),
        by_ending="decides",
        load=_bibtex,
    ),
    Format(
        name="arxiv",
        label="arXiv Atom",
        records="arXiv Atom entries",
        help="arXiv API response (Atom 1.0 XML)",
        endings=(".xml",),
        by_ending="refuses",
        load=_arxiv,
    ),
    Format(
        name="csv",
        label="CSV",
        records="CSV rows",
        help="CSV or TSV table with a header row naming a title column",
        endings=(".csv", ".tsv"),
        by_ending="refuses",
        load=_csv,
    ),
    Format(
        name="schedule",
        label="Miniconf programme",
        records="programme events",
        help="a conference programme (Miniconf orals-posters JSON): sessions, rooms, times, joined to papers",
        endings=(),  # told by its content alone: a page object of programme rows
        by_ending="refuses",
        load=_miniconf,
    ),
    Format(
        name="seed",
        label="seed text",
        records="seed abstracts",
        help="seed text: a header line, then abstracts separated by blank lines",
        endings=(".txt", ".text", ""),
        # Told by its content alone (a venue header, paragraphs of prose): any other text file
        # (/etc/passwd, source code, Markdown, a log) is refused, not imported as papers.
        by_ending="refuses",
        load=_seed,
    ),
)
#: The rows by name.
FORMATS_BY_NAME: dict[str, Format] = {row.name: row for row in FORMATS}
#: The ``--format`` values, in detection order (the rows a user may choose).
FORMAT_NAMES: tuple[str, ...] = tuple(row.name for row in FORMATS if row.choosable)
#: The endings that a file's content is taken to have when it opens as JSON (``[`` or ``{``).
_JSON_CONTENT = ".json"


def format_help() -> str:
    """The formats read, in prose, for the command line's help: ``"OpenReview, Paper Copilot, …"``."""
    return ", ".join(row.label for row in FORMATS if row.choosable)


def detect_format(path: Path) -> str:
    """The name of the format of ``path`` (:func:`detect`)."""
    return detect(path).name


def detect(path: Path) -> Format:
    """The format of ``path`` by its content and ending: the first row that its ending decides
    or whose reader recognises it; else the row that reads unrecognised files of its ending.

    Raises:
        SourceError: the file cannot be opened, or no reader recognises it and its ending names
            no format that reads it anyway: a text file that is no paper list (``/etc/passwd``, a
            README) is refused in one line naming the file and the ``--format`` values.
    """
    try:
        head = _head(path)
    except OSError as exc:
        raise unreadable(path, exc) from None
    own = path.suffix.lower()
    for row in FORMATS:
        if (row.by_ending == "decides" and own in row.endings) or row.reader.sniff(path, head):
            return row
    ending = _ending(path)
    if head.lstrip()[:1] in ("[", "{"):
        ending = _JSON_CONTENT  # JSON that no reader recognised: its reader says what is wrong, and where
    row = next((row for row in FORMATS if ending in row.endings), FORMATS[-1])
    if row.by_ending == "refuses":
        raise SourceError(path, _not_a_paper_list(row))
    return row


def _not_a_paper_list(row: Format) -> str:
    """Why a file no reader recognises is refused, naming the ``--format`` values."""
    choices = ", ".join(FORMAT_NAMES)
    if row is FORMATS[-1]:  # a text file of no format's ending, or a .txt that is no seed list
        return (
            "not a paper list (no venue header, no paragraphs of abstracts); nothing was imported — "
            f"if it is one, name its format: --format ({choices})"
        )
    return f"not a format paperdeck recognises; try --format ({choices})"


def _ending(path: Path) -> str:
    """The file's ending, lower case, of what a compressed file holds (``x.jsonl.gz``: ``.jsonl``)."""
    ending = path.suffix.lower()
    return Path(path.stem).suffix.lower() if ending == ".gz" else ending


def read_source(path: Path | str, format: str | None = None) -> SourceRead:
    """Read one file, in ``format`` or the detected one; a file of a row that is not a
    ``--format`` choice (a user-data backup: :attr:`SourceRead.backup`) is read as that row
    whatever ``format`` says.

    Raises:
        SourceError: unknown format, or the file cannot be read as that format; nothing is
            returned from a file that is partly broken. A file that yields nothing to import (no
            paper, review, programme event or backup) is refused in one line naming the file (and
            its first skipped record), whatever its format; a forced ``format`` that read nothing
            from a file detected as another format names the format it looks like.
    """
    path = Path(path)
    _refuse_empty(path)
    if format is None:
        row = detect(path)
    else:
        chosen = FORMATS_BY_NAME.get(format)
        if chosen is None or not chosen.choosable:
            raise SourceError(path, f"unknown format {format!r}; one of: {', '.join(FORMAT_NAMES)}")
        row = _unchoosable(path) or chosen
        if row is chosen:
            _refuse_other_format(path, chosen)
    result = row.reader.read(path)
    if not (result.papers or result.reviews or result.events or result.backup):
        _refuse_nothing_read(path, row, result, forced=format is not None)
    return keep_web_links(result)  # links are validated here, once, for every format


def _refuse_empty(path: Path) -> None:
    """Refuse a file with nothing in it (no byte, or white space alone, once decompressed): an
    import of it would say it read 0 papers of some format.

    Raises:
        SourceError: the file is empty (one line: ``no papers in FILE``).
    """
    try:
        with path.open("rb") as handle:
            raw = handle.read(_HEAD_BYTES)
    except OSError:
        return  # the reader says why it cannot be read
    if len(raw) >= _HEAD_BYTES:
        return
    if raw.startswith(GZIP_MAGIC):
        with telling_bytes(None):  # the reader's read is the one told
            raw = read_bytes(path)  # small: what it holds (a truncated one is refused as such)
        if len(raw) >= _HEAD_BYTES:
            return
    if not head_text(raw).strip(" \t\r\n"):
        raise SourceError(path, "no papers in this file (it is empty); nothing was imported")


def _head(path: Path) -> str:
    """The file's first 64 KiB, decompressed, decoded leniently (UTF-16 too: :func:`head_text`),
    without a byte-order mark.

    Raises:
        OSError: the file cannot be opened or read.
    """
    return head_text(read_head(path, _HEAD_BYTES))


def _unchoosable(path: Path) -> Format | None:
    """The row that is no ``--format`` choice whose reader recognises ``path``, if any (a file
    that cannot be read is left to the chosen reader: it says so)."""
    rows = [row for row in FORMATS if not row.choosable]
    if not rows:
        return None
    try:
        head = _head(path)
    except OSError:
        return None
    return next((row for row in rows if row.reader.sniff(path, head)), None)


def _recognises(row: Format, path: Path, head: str) -> bool:
    """Whether ``row`` takes ``path`` for its own: its ending decides it, or its reader sniffs it."""
    return (row.by_ending == "decides" and path.suffix.lower() in row.endings) or row.reader.sniff(path, head)


def _refuse_other_format(path: Path, chosen: Format) -> None:
    """Refuse a file that ``--format`` names ``chosen`` for when ``chosen``'s reader does not
    recognise it and another format's does (``--format bibtex`` on a Paper Copilot JSON file,
    ``--format seed`` on an arXiv response). A file that no reader recognises is read as stated:
    that is what ``--format`` is for (``--format seed`` on a Markdown file), and a file that the
    chosen reader recognises too (OpenReview and Paper Copilot JSON share shapes) is read as
    stated.

    Raises:
        SourceError: the file is another format (naming it); nothing is read.
    """
    try:
        head = _head(path)
    except OSError:
        return  # the reader says why it cannot be read
    if not head.strip() or _recognises(chosen, path, head):
        return
    other = next((row for row in FORMATS if row is not chosen and _recognises(row, path, head)), None)
    if other is not None:
        raise SourceError(path, f"no {chosen.records}; it looks like {other.records} — leave out --format")


def _refuse_nothing_read(path: Path, row: Format, result: SourceRead, *, forced: bool) -> None:
    """The one rule of every format: a file that yields nothing to import (no paper, review,
    programme event or backup) is refused, whatever its format, in one line naming the file and
    its first skipped record, if any (the command line exits with status 2, nothing changed). A
    file with some bad records and some good ones is not refused: the good ones are imported and
    the import says how many were skipped.

    Raises:
        SourceError: always; a ``forced`` format that read nothing from a file detected as
            another format says which.
    """
    if forced and (detected := _detected_or_none(path)) is not None and detected is not row:
        raise SourceError(path, f"no {row.records}; it looks like {detected.records} — leave out --format")
    reason = f"no {row.records} in this file"
    said = result.notice or ""
    for prefix in (f"{path}: ", f"{path.name}: "):  # the reader's own words, without the file's name
        said = said.removeprefix(prefix) if said.startswith(prefix) else said
    if said and said != result.notice and not result.skipped:
        reason = said  # "the programme lists no events yet (count 0)", "no papers … (the query found 0 results)"
    elif result.skipped:
        count = len(result.skipped)
        first = result.skipped[0]
        reason += f" ({counted(count, 'record')} skipped; the first, {first.position}: {first.reason})"
    raise SourceError(path, f"{reason}; nothing was imported")


def _detected_or_none(path: Path) -> Format | None:
    """The format ``path`` is detected as, or ``None`` when no reader recognises it."""
    try:
        return detect(path)
    except (OSError, SourceError):
        return None
