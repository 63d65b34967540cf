"""Reader for paper lists as CSV or TSV tables.

Origins of the shapes handled (public GitHub repositories): a whole ICLR year with ``Title``,
``Authors``, ``Decision`` (``whitney-house/ICLR2025-OpenReview``); a messy export with a UTF-8
BOM, CRLF, multi-line quoted fields and Chinese text (``alickzhu/iclr2026-papers``); one row
per author with ``Conference``/``Year`` per row (``martenlienen/icml-nips-iclr-dataset``); and a
two-column ``number<TAB>title`` TSV (``lmmx/iclr2023-proc``).

Ids (:func:`paperdeck.model.ids.canonical_id`): the forum id in an ``openreview_url``/``pdf_url`` cell
or an ``openreview_id`` column, else the arXiv id of an arxiv.org URL in the ``openreview_url``
column, else ``<venue><year>#<number>`` from a ``number`` column, else a synthetic ``title:`` id.
An ``Authors`` column joined with ``", "`` may not be in byline order.

Columns are found by header name, case-insensitively, with synonyms (``_COLUMNS``). Consecutive
rows of the same paper (same title, venue and year) are joined, their authors kept in row order.
Venue and year come from each row, else from the file name (``iclr2025_….csv`` → ICLR 2025),
read with the helpers in :mod:`.common`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import datetime
from pathlib import Path

from paperdeck.model.decision import normalise_decision
from paperdeck.model.errors import SourceError
from paperdeck.model.ids import arxiv_id, canonical_id, openreview_id_from_url, valid_openreview_id
from paperdeck.model.paper import DECISIONS, STATUSES, Paper, Ratings, UserData, abstract_id
from paperdeck.model.safe_text import web_link
from paperdeck.model.user import clean_tag
from paperdeck.sources.base import MAX_FILE_BYTES, Skip, SourceRead, read_table_text
from paperdeck.sources.common import (
    collapse,
    excerpt,
    finite_scores,
    merge_papers,
    review_ratings,
    score_number,
    venue_from_decision,
    venue_from_text,
    venue_year_from_filename,
    year_from_text,
)

NAME = "csv"

#: Common field → header names that feed it (normalised: lower-case, ``_`` for spaces), best first.
_COLUMNS: dict[str, tuple[str, ...]] = {
    "title": ("title", "paper_title"),
    "authors": ("authors", "author", "author_names"),
    "abstract": ("abstract", "summary"),
    "keywords": ("keywords", "keyword", "tags"),
    # a ``venue`` column is the venue (``ICLR 2026 Poster``: its decision read from it when no
    # column names one, as OpenReview's venue strings say it), never a decision as written
    "decision": ("decision", "final_decision", "status", "recommendation", "outcome"),
    "conference": ("conference", "conf", "venue"),
    "openreview_url": ("openreview_url", "openreview", "forum_url", "url", "site", "link"),
    "pdf_url": ("pdf", "pdf_url", "pdf_link", "pdflink"),
    "code_url": ("code", "code_url", "github"),
    "number": ("number", "paper_id", "paper_number", "submission_number"),
    "openreview_id": ("openreview_id", "forum_id", "forum", "id"),
    "year": ("year",),
    "primary_area": ("primary_area", "area", "subject_area"),
    "tldr": ("tldr", "tl;dr", "tl_dr"),
    "rating": ("avg_rating", "rating_avg", "mean_rating", "rating_mean", "rating", "ratings"),
    "confidence": ("avg_confidence", "confidence_avg", "confidence"),
    "n_ratings": ("n_ratings", "num_ratings", "n_reviews", "num_reviews", "rating_count"),
    # the columns paperdeck's own CSV export writes besides (``paperdeck export -o list.csv``)
    "rating_std": ("rating_std",),
    "rating_min": ("rating_min",),
    "rating_max": ("rating_max",),
    "decision_raw": ("decision_raw",),
    "arxiv_id": ("arxiv_id",),
    "doi": ("doi",),
    "bibtex": ("bibtex",),
    "title_derived": ("title_derived",),
    "arxiv_url": ("arxiv_url",),
}
_TITLE_HEADERS = frozenset(_COLUMNS["title"])
_ACCEPTED = frozenset({"oral", "spotlight", "poster", "accept", "accept-conditional"})
_HEADER_JUNK = re.compile(r"[^a-z0-9;]+")


def sniff(path: Path, head: str) -> bool:
    """A table: the first line is a header (comma-, tab- or semicolon-separated) naming a title
    column. JSON, XML and BibTeX never pass, nor seed text (its first line names no column)."""
    stripped = head.lstrip()
    if not stripped or stripped[0] in "{[<@":
        return False
    first_line = stripped.splitlines()[0]
    delimiter = _delimiter(path, first_line)
    header = _normalise_header(next(csv.reader([first_line], delimiter=delimiter), []))
    if len(header) < 2 and path.suffix.lower() not in {".csv", ".tsv", ".tab"}:
        return False
    return bool(_TITLE_HEADERS & set(header))


def read(path: Path) -> SourceRead:
    """Read a CSV/TSV paper list (see the module docstring): UTF-8 (with or without BOM), UTF-16
    with BOM or GB18030, else as Excel on Windows saves it, Windows-1252 (else Latin-1), which
    the read's notice says (``FILE: read as Windows-1252: not UTF-8``).

    Raises:
        SourceError: unreadable file, no title column, a broken quote or a row with more
            fields than the header (naming the line); nothing is returned then.
    """
    text, encoding = read_table_text(path)
    rows = _rows(text, path)
    if not rows:
        return SourceRead(path, NAME, (), (), f"{path}: no papers in this file (it is empty)")
    header_line, header = rows[0]
    columns = _map_columns(_normalise_header(header))
    if "title" not in columns:
        shown = excerpt(", ".join(header))
        raise SourceError(path, f"no title column in the header ({shown})", header_line)
    table = _Table(path, columns, len(header), singular_author=_is_singular_author(header, columns))
    marks = _marks_columns(_normalise_header(header))
    decision_col = columns.get("decision", columns.get("conference"))
    if decision_col is not None:
        raw = {row[decision_col] for _, row in rows[1:] if decision_col < len(row)}
        table.decisions_out = True if any(normalise_decision(v) in _ACCEPTED for v in raw) else None
    # Consecutive rows of one paper (one row per author) are read as one, authors in row order.
    groups: list[tuple[int, list[str], list[str]]] = []
    previous_key: tuple[str, ...] | None = None
    for line, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        table.check_width(line, row)
        key = table.group_key(row)
        if key is not None and key == previous_key:
            groups[-1][2].append(table.cell(row, "authors"))
        else:
            groups.append((line, row, []))
        previous_key = key
    papers: dict[str, Paper] = {}
    first_line: dict[str, int] = {}
    skipped: list[Skip] = []
    records: list[UserData] = []
    for line, row, more_authors in groups:
        try:
            paper = table.paper(line, row, more_authors, skipped)
        except ValueError as exc:  # a rating that is none: the file is refused, naming the row
            raise SourceError(path, str(exc), line) from None
        if paper is None:
            continue
        if marks is not None:
            record = _user_record(path, line, paper.id, row, marks)
            if not record.is_empty:
                records.append(record)
        if paper.id not in papers:
            papers[paper.id], first_line[paper.id] = paper, line
        else:
            papers[paper.id] = merge_papers(papers[paper.id], paper)
            where = f"same paper as line {first_line[paper.id]}; merged"
            skipped.append(Skip(f"line {line}", where))
    notice = f"{path}: {encoding}" if encoding else None
    if not papers:
        notice = f"{path}: no papers in this file"
    backup = None
    if records:  # restored after the papers, combined with the store's marks (never over them)
        from paperdeck.store.backup import UserDataBackup

        backup = UserDataBackup(path, "", tuple(records), combine=True)
    dropped = tuple(table.dropped.items())
    return SourceRead(path, NAME, tuple(papers.values()), tuple(skipped), notice, backup=backup, dropped=dropped)


#: The columns of the user's marks in paperdeck's own CSV export (``paperdeck export -o list.csv``),
#: read back only from a file that has them all and an ``id`` column: elsewhere ``status`` is a
#: decision and ``note`` a source's remark.
_MARKS_COLUMNS = ("starred", "note", "status", "tags", "note_created", "note_updated")


def _marks_columns(header: list[str]) -> dict[str, int] | None:
    """Each marks column's index in a paperdeck CSV export's header; ``None`` for another table."""
    if "id" not in header or not all(name in header for name in _MARKS_COLUMNS):
        return None
    return {name: header.index(name) for name in _MARKS_COLUMNS}


def _user_record(path: Path, line: int, paper_id: str, row: list[str], marks: dict[str, int]) -> UserData:
    """The user's marks on one row of a paperdeck CSV export, checked as a backup's are.

    Raises:
        SourceError: a value paperdeck's export never writes (a star neither ``true`` nor
            ``false``, an unknown status, a time that is not ISO 8601, a note or tags over the
            store's limits), naming the file, the line and the column.
    """
    from paperdeck.store.user_fields import MAX_NOTE_CHARS, MAX_TAG_CHARS, MAX_TAGS

    def cell(name: str) -> str:
        index = marks[name]
        return row[index] if index < len(row) else ""

    def refuse(column: str, reason: str) -> SourceError:
        return SourceError(path, f"{column}: {reason}; nothing was imported", line)

    starred = _value(cell("starred")).casefold()
    if starred not in ("", "true", "false"):
        raise refuse("starred", f"{excerpt(starred, 20)!r} is neither true nor false")
    status = _value(cell("status")) or "unseen"
    if status not in STATUSES:
        raise refuse("status", f"unknown status {excerpt(status, 40)!r}; one of {', '.join(STATUSES)}")
    note = _unguarded(cell("note"))  # as written: its spaces and line ends are the user's
    if len(note) > MAX_NOTE_CHARS:
        raise refuse("note", f"{len(note):,} characters, more than the {MAX_NOTE_CHARS:,} paperdeck keeps")
    tags = tuple(sorted({tag for tag in (clean_tag(_value(t)) for t in cell("tags").split(";")) if tag}))
    if len(tags) > MAX_TAGS or any(len(tag) > MAX_TAG_CHARS for tag in tags):
        raise refuse("tags", f"more than {MAX_TAGS:,} tags or a tag over {MAX_TAG_CHARS} characters")
    times = {name: _value(cell(name)) for name in ("note_created", "note_updated")}
    for name, value in times.items():
        if value:
            try:
                datetime.fromisoformat(value)
            except ValueError:
                raise refuse(name, f"{excerpt(value, 40)!r} is not an ISO 8601 time") from None
    return UserData(paper_id, starred == "true", note, status, tags, times["note_created"], times["note_updated"])


class _Table:
    """Turns the rows of one file into papers, given its column map."""

    def __init__(self, path: Path, columns: dict[str, int], width: int, *, singular_author: bool) -> None:
        self.path = path
        self.columns = columns
        self.width = width
        self.singular_author = singular_author
        #: per-review scores for no finite number left out of their papers' (``"5;nan;6"``)
        self.dropped: Counter[str] = Counter()
        self.decisions_out: bool | None = None
        self._decisions: dict[str, str] = {}
        self.file_venue, self.file_year = venue_year_from_filename(path)
        # Without a decision column, the file name may say what the list is.
        name = path.name.casefold()
        self.file_decision = "accept" if "accepted" in name else "unknown"
        if "submission" in name and "accepted" not in name:
            self.file_decision = "under-review"

    def cell(self, row: list[str], name: str) -> str:
        index = self.columns.get(name)
        if index is None or index >= len(row):
            return ""
        value = row[index].strip()
        return _value(value) if value[:1] == "'" else value

    def check_width(self, line: int, row: list[str]) -> None:
        """Refuse a row with more (non-empty) fields than the header names."""
        if any(cell.strip() for cell in row[self.width :]):
            raise SourceError(self.path, f"{len(row)} fields, but the header has {self.width}", line)

    def group_key(self, row: list[str]) -> tuple[str, ...] | None:
        """What makes consecutive rows one paper: title, conference and year; ``None`` (never
        grouped) for a row without title."""
        title = self.cell(row, "title")
        return (title, self.cell(row, "conference"), self.cell(row, "year")) if title else None

    def decision(self, raw: str) -> str:
        """The decision a cell names: paperdeck's own word as it is (``under-review``, what its
        export writes), else the source's text normalised."""
        if raw not in self._decisions:
            own = raw if raw in DECISIONS else None
            self._decisions[raw] = own or normalise_decision(raw, decisions_out=self.decisions_out)
        return self._decisions[raw]

    def paper(self, line: int, row: list[str], more_authors: list[str], skipped: list[Skip]) -> Paper | None:
        """The paper of one row (plus the author cells of the rows grouped with it), or
        ``None`` with a :class:`Skip` recorded."""
        width = len(row)
        values = {name: row[i].strip() for name, i in self.columns.items() if i < width}
        for name, value in values.items():
            if value[:1] == "'":  # the export's formula guard (rare: checked apart)
                values[name] = _value(value)
        cell = values.get
        title = collapse(cell("title", ""))
        if not title:
            skipped.append(Skip(f"line {line}", "no title"))
            return None
        decision_given = cell("decision", "")
        # the source's own text where the file keeps it apart (paperdeck's export), even empty
        decision_raw = cell("decision_raw", "") if "decision_raw" in self.columns else decision_given
        conference = cell("conference", "")
        venue = venue_from_text(conference) or venue_from_decision(decision_raw) or self.file_venue
        year = _int(cell("year", "")) or year_from_text(conference) or year_from_text(decision_raw) or self.file_year
        # The row's own decision wins; a value not understood stays the source's text
        # (decision_raw, shown as is), never replaced by what the file's name suggests.
        decision = self.decision(decision_given) if decision_given else self.file_decision
        if "decision" not in self.columns and conference and (said := self.decision(conference)) != "unknown":
            decision = said  # `ICLR 2026 Poster` in a venue column: the venue's, and its decision
        urls = cell("openreview_url", ""), cell("pdf_url", "")
        forum = next((openreview_id_from_url(url) for url in urls if openreview_id_from_url(url)), "")
        given_id = cell("openreview_id", "")
        if not forum and valid_openreview_id(given_id) and not given_id.isdigit():
            forum = given_id
        number = _int(cell("number", ""))
        given_arxiv, doi = cell("arxiv_id", ""), cell("doi", "")
        arxiv = (given_arxiv and arxiv_id(given_arxiv)) or (arxiv_id(urls[0]) if "arxiv.org" in urls[0] else "")
        doi = doi and _DOI_PREFIX.sub("", doi)
        # a title paperdeck derived from the abstract (its export says so): derived again, and the
        # paper known by its abstract as the seed list made it (its id, `abs:…`), not by that title
        derived = cell("title_derived", "") == "true" and bool(cell("abstract", ""))
        try:
            if derived and not (forum or arxiv or doi):
                paper_id = abstract_id(cell("abstract", ""))
            else:
                paper_id = canonical_id(
                    openreview_id=forum, arxiv=arxiv, doi=doi, venue=venue, year=year, number=number, title=title
                )
        except ValueError:
            skipped.append(Skip(f"line {line}", f"placeholder title {title!r} and no id"))
            return None
        rating = cell("rating", "")
        cells = [cell("authors", ""), *more_authors]
        names = (name for c in cells for name in _split_authors(c, singular=self.singular_author))
        forum_url = f"https://openreview.net/forum?id={forum}" if forum else ""
        return Paper(
            id=paper_id,
            title="" if derived else title,
            title_derived=derived,
            abstract=cell("abstract", ""),
            venue=venue,
            year=year,
            sources=(self.path.name,),
            authors=tuple(dict.fromkeys(names)),
            keywords=_split_keywords(cell("keywords", "")),
            primary_area=cell("primary_area", ""),
            decision=decision,
            decision_raw=decision_raw,
            ratings=_ratings(
                rating,
                cell("n_ratings", ""),
                cell("rating_std", ""),
                cell("rating_min", ""),
                cell("rating_max", ""),
                dropped=self.dropped,
            ),
            confidence=_mean(cell("confidence", ""), self.dropped),
            tldr=cell("tldr", ""),
            openreview_id=forum,
            arxiv_id=arxiv,
            doi=doi,
            number=number,
            pdf_url=_url(urls[1]),
            code_url=_url(cell("code_url", "")),
            openreview_url=urls[0] if "openreview.net" in urls[0] and web_link(urls[0]) else forum_url,
            arxiv_url=web_link(cell("arxiv_url", "")) or _arxiv_url(urls[0], arxiv),
            bibtex=cell("bibtex", ""),
        )


def _rows(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """Every non-blank record with the line it starts on (1-based); CRLF read as LF, inside
    quoted fields too."""
    text = text.replace("\r\n", "\n")
    first_line = text.lstrip("\ufeff").split("\n", 1)[0]
    # The default limit (128 KiB a field) would refuse a long abstract the other formats take;
    # the file itself is already capped at MAX_FILE_BYTES.
    csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_BYTES))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(path, first_line), strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            if row:
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        reason = str(exc)
        if "unexpected end of data" in reason:
            reason = "a quoted field is never closed (unexpected end of file)"
        raise SourceError(path, f"malformed CSV: {reason}", start) from None
    return rows


def _delimiter(path: Path, first_line: str) -> str:
    if path.suffix.lower() in {".tsv", ".tab"}:
        return "\t"
    counts = {sep: first_line.count(sep) for sep in (",", "\t", ";")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] > counts[","] else ","


def _normalise_header(cells: list[str]) -> list[str]:
    return [_HEADER_JUNK.sub("_", cell.strip().lstrip("\ufeff").casefold()).strip("_") for cell in cells]


def _map_columns(header: list[str]) -> dict[str, int]:
    """Common field → column index, the best-ranked synonym winning."""
    mapping: dict[str, int] = {}
    for field_name, names in _COLUMNS.items():
        for name in names:
            if name in header:
                mapping[field_name] = header.index(name)
                break
    return mapping


def _is_singular_author(header: list[str], columns: dict[str, int]) -> bool:
    index = columns.get("authors")
    return index is not None and _normalise_header([header[index]])[0] == "author"


def _split_authors(cell: str, *, singular: bool) -> tuple[str, ...]:
    """Names from an authors cell: ``;``- or ``and``-separated, or ``", "`` for an ``Authors``
    column. A singular ``Author`` column holds one name (``Paul Rigor, Ph.D.``) unless every
    comma-separated part is itself a full name."""
    if not cell:
        return ()
    if ";" in cell:
        parts = cell.split(";")
    elif " and " in cell:
        parts = re.split(r",\s*|\s+and\s+", cell)
    else:
        parts = cell.split(", ")
        if singular and not all(len(part.split()) >= 2 for part in parts):
            parts = [cell]
    return tuple(name for name in (collapse(part) for part in parts) if name)


def _split_keywords(cell: str) -> tuple[str, ...]:
    parts = cell.split(";") if ";" in cell else cell.split(", ")
    return tuple(word for word in (collapse(part) for part in parts) if word)


def _arxiv_url(url: str, arxiv: str) -> str:
    """The arXiv page: the link column's when it is arXiv's, else made from the arXiv id."""
    if "arxiv.org" in url:
        return web_link(url)
    return f"https://arxiv.org/abs/{arxiv}" if arxiv else ""


def _url(text: str) -> str:
    return web_link(text)


def _int(text: str) -> int | None:
    text = text.strip()
    if text.endswith(".0"):
        text = text[:-2]
    return int(text) if text.isascii() and text.isdigit() else None  # "²".isdigit(), yet int() refuses it


def _scores(text: str) -> list[float]:
    if not text:
        return []
    scores = [score_number(part) for part in re.split(r"[;,]", text) if part.strip()]
    return [score for score in scores if score is not None] if None not in scores else []


def _mean(text: str, dropped: Counter[str] | None = None) -> float | None:
    """The mean of ``"3;4;5"`` (a confidence); a value of several for no finite number is left
    out and counted (:func:`~paperdeck.sources.common.finite_scores`), one alone is the import
    boundary's to drop."""
    scores = _scores(text)
    if len(scores) > 1:
        scores = finite_scores(scores, "confidence", dropped)
    return sum(scores) / len(scores) if scores else None  # full precision: rounded once, where shown


def _ratings(
    text: str, count: str, std: str = "", low: str = "", high: str = "", *, dropped: Counter[str] | None = None
) -> Ratings | None:
    """``"5;6;8"`` → summarised scores; ``"8.5"`` → a mean (with ``n_ratings`` when given, and
    the standard deviation, lowest and highest rating when the file gives them, as paperdeck's
    export does: ``rating_std``, ``rating_min``, ``rating_max``). One of several ratings for no
    finite number (``"1e309;5;6"``) is left out and counted in ``dropped``
    (:func:`~paperdeck.sources.common.finite_scores`); a mean alone for none is the import
    boundary's to drop.

    Raises:
        ValueError: a value that is not a rating (:func:`~paperdeck.sources.common.review_ratings`).
    """
    scores = review_ratings(text)
    if len(scores) > 1:
        return Ratings.from_scores(finite_scores(scores, "rating", dropped))
    if not scores:
        return None
    spread, lowest, highest = (score_number(value) if value else None for value in (std, low, high))
    return Ratings(scores[0], spread, lowest, highest, count=_int(count))


#: A cell a spreadsheet would run as a formula, as paperdeck's CSV export writes it: ``'`` first.
_INERT = re.compile(r"'(?=[=+\-@\t\r])")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def _value(cell: str) -> str:
    """A cell's value: trimmed, and a formula guard's ``'`` taken off (``'@inproceedings{…`` →
    ``@inproceedings{…``: OWASP's guard, which paperdeck's export and spreadsheets write)."""
    cell = cell.strip()
    return cell[1:].strip() if cell.startswith("'") and _INERT.match(cell) else cell


def _unguarded(cell: str) -> str:
    """``cell`` without the formula guard's ``'`` before ``=``, ``+``, ``-``, ``@``, a tab or a
    carriage return; otherwise as it is."""
    return cell[1:] if cell.startswith("'") and _INERT.match(cell) else cell
