"""Export papers with the user's marks: BibTeX, RIS, CSL-JSON, a Markdown reading list, CSV or JSON.

UI-free, for the command line (``paperdeck export``) and the app's palette alike::

    text = export_papers(papers, store.all_user_data, "markdown")
    write_export(Path("reading.md"), text, data_dir=store.data_dir)
    # or, for a long export (a conference with its reviews), in pieces as they are made:
    write_export(Path("all.md"), export_chunks(papers, users, "markdown", store.reviews.reviews_of))

Formats (:data:`EXPORT_FORMATS`):

- ``bibtex``: :mod:`paperdeck.export.bibtex` (the source's entry, else a generated one; unique keys).
- ``ris``: :mod:`paperdeck.export.ris` (one record per paper, the note and tags as Zotero reads them).
- ``csl``: CSL-JSON, :mod:`paperdeck.export.csl` (the CSL data schema's items, for citeproc, Pandoc
  and Zotero). Its file ending is ``.csl.json``; a plain ``.json`` file is the ``json`` format.
- ``markdown``: a reading list grouped by reading status (:data:`MARKDOWN_STATUS_ORDER`), each paper
  a list item: ``★`` when starred, the title (rendered: ``C$^3$`` → ``C³``; a link to its OpenReview,
  arXiv or PDF page), authors, venue, decision, mean rating, tags, then the note as a block quote;
  with ``reviews`` (:data:`ReviewsOf`), then the paper's reviews, meta-review, decision and comments as a nested
  list (threaded by what they answer, as the reviews screen shows them): each note's kind,
  signature and scores, then each text section as a block quote, every character of review
  text escaped (no link, emphasis or HTML of a review's reaches the reader's renderer).
  Paper text and notes are escaped or quoted so that they cannot change the list's structure.
- ``csv``: RFC 4180 via :mod:`csv`, one row per paper, the columns of :data:`CSV_COLUMNS`; list
  fields joined with ``;``, ratings spread over ``rating_mean`` … ``rating_count``, provenance as
  ``field=file;…``, booleans ``true``/``false``, unknowns empty. A cell a spreadsheet would run
  as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and is not
  a plain number) gets a leading ``'``, as OWASP advises for CSV injection.
- ``json``: an array of :func:`paperdeck.model.paper_json.paper_record` objects (the ``--json`` shape of
  ``paperdeck list``): every paper field plus ``starred``, ``note``, ``status``, ``tags``,
  ``note_created``, ``note_updated``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.counts import counted
from paperdeck.model.errors import PaperdeckError, StoreError
from paperdeck.model.paper import STATUSES, Paper, UserData, authors_line
from paperdeck.model.paper_json import paper_record
from paperdeck.model.review import Review, kind_label, ordered_reviews
from paperdeck.model.safe_text import document, json_text, one_line, visible, web_link
from paperdeck.store.atomic import atomic_write_bytes, shared_file_mode, write_into_stream

__all__ = [
    "CALENDAR",
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "FILE_FORMATS",
    "FORMAT_SUFFIXES",
    "JSON_FORMATS",
    "MARKDOWN_STATUS_ORDER",
    "ExportError",
    "export_papers",
    "format_for_path",
    "write_export",
]

#: The export formats, in the order menus show them.
EXPORT_FORMATS = ("bibtex", "markdown", "csv", "json", "ris", "csl")
#: The calendar (:mod:`paperdeck.export.ics`): not a list of the papers chosen but the programme's
#: events of those among them the user starred or marked to-read; written as a file only.
CALENDAR = "ics"
#: Every format an export file may be written in: the paper lists, then the calendar (the ``E``
#: dialog and ``paperdeck export -o`` both read a file name's ending against this one table).
FILE_FORMATS = (*EXPORT_FORMATS, CALENDAR)
#: The usual file name ending of each format (``format_for_path`` reads them back).
FORMAT_SUFFIXES = {"bibtex": ".bib", "markdown": ".md", "csv": ".csv", "json": ".json", "ris": ".ris",
                   "csl": ".csl.json", CALENDAR: ".ics"}  # fmt: skip
_SUFFIX_FORMATS = {".bib": "bibtex", ".bibtex": "bibtex", ".md": "markdown", ".markdown": "markdown",
                   ".csv": "csv", ".json": "json", ".ris": "ris", ".ics": CALENDAR}  # fmt: skip
#: The formats whose text is a JSON document (printed to a terminal through ``json_text``).
JSON_FORMATS = frozenset({"json", "csl"})
#: Reading-list sections, in the order a reader wants them: what to read next first,
#: dismissed papers last (a permutation of :data:`~paperdeck.model.paper.STATUSES`).
MARKDOWN_STATUS_ORDER = ("to-read", "skimmed", "read", "unseen", "dismissed")
_SECTION_TITLES = {"to-read": "To read", "skimmed": "Skimmed", "read": "Read", "unseen": "Unseen",
                   "dismissed": "Dismissed"}  # fmt: skip
_RATING_PARTS = ("mean", "std", "min", "max", "count")
_USER_COLUMNS = ("starred", "note", "status", "tags", "note_created", "note_updated")
#: The CSV header: every :class:`Paper` field (``ratings`` spread over five columns), then the
#: user's marks.
CSV_COLUMNS: tuple[str, ...] = (
    tuple(
        column
        for spec in fields(Paper)
        for column in ([f"rating_{part}" for part in _RATING_PARTS] if spec.name == "ratings" else [spec.name])
    )
    + _USER_COLUMNS
)


class ExportError(PaperdeckError):
    """An export cannot be made or written (unknown format, a file inside the data directory)."""


#: Where an export's reviews come from: given forum ids, their notes as ``(forum, notes)`` pairs,
#: each forum once, in any order (:meth:`paperdeck.store.reviews.ReviewStore.reviews_of`).
ReviewsOf = Callable[[Iterable[str]], Iterable[tuple[str, Sequence[Review]]]]
#: Told ``(done, total)`` as an export is made (steps: a paper's reviews made ready, a paper written).
Progress = Callable[[int, int], None]


def export_papers(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    format: str,
    reviews: ReviewsOf | None = None,
) -> str:
    """``papers`` (in the order given) with the user's marks, as text in ``format``.

    Args:
        papers: the papers to export.
        users: the user's records by paper id (``Store.all_user_data``); a paper without one is
            unstarred, unseen, without note or tags.
        format: one of :data:`EXPORT_FORMATS`.
        reviews: for ``markdown``, the papers' notes to include under each (``None``: none); the
            other formats take none.

    Returns:
        The whole file's text (see the module docstring for each format); for no papers, an empty
        BibTeX or RIS file, a Markdown list saying so, a CSV header, or ``[]``.

    Raises:
        ExportError: an unknown format, or ``reviews`` for a format other than ``markdown``.
        StoreError: as ``reviews`` raises it.
    """
    return "".join(export_chunks(papers, users, format, reviews))


def export_chunks(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    format: str,
    reviews: ReviewsOf | None = None,
    progress: Progress | None = None,
) -> Iterator[str]:
    """:func:`export_papers`' text in pieces, made as they are asked for: a Markdown list in
    pieces of a few hundred lines (with ``reviews``, every paper's reviews are first made ready
    in a temporary file, one review shard in memory at a time), any other format whole. Written
    with :func:`write_export`, a conference exported with every review is never held whole.

    Args:
        progress: told ``(done, total)`` as papers are made (twice as many steps with ``reviews``).

    Raises:
        as :func:`export_papers`; an error is raised when the piece it is in is asked for.
    """
    if reviews is not None and format != "markdown":
        raise ExportError(f"the reviews can be exported to Markdown only, not to {format}")
    if format == "markdown":
        yield from markdown_chunks(papers, users, reviews, progress)
        return
    yield _export_whole(papers, users, format)
    if progress is not None:
        progress(len(papers), len(papers))


def _export_whole(papers: Sequence[Paper], users: Mapping[str, UserData], format: str) -> str:

    def user(paper: Paper) -> UserData:
        return users.get(paper.id) or UserData(paper.id)

    if format == "bibtex":
        from paperdeck.export.bibtex import bibtex_entries  # deferred: bibtexparser, for BibTeX alone

        return document(bibtex_entries(papers))  # no escape code reaches a file from a paper
    if format == "csv":
        return document(csv_table([paper_record(p, user(p)) for p in papers]))
    if format == "json":
        records = [paper_record(p, user(p)) for p in papers]
        return json_text(orjson.dumps(records, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n")
    if format == "ris":
        from paperdeck.export.ris import ris_records  # deferred: each format's module for itself

        return ris_records(papers, users)
    if format == "csl":
        from paperdeck.export.csl import csl_json

        return csl_json(papers, users)
    raise ExportError(f"unknown export format {format!r}; one of: {', '.join(EXPORT_FORMATS)}")


def format_for_path(path: Path | str) -> str | None:
    """The export format a file name asks for by its ending (``.bib``, ``.md``, ``.csv``,
    ``.json``, ``.ris``; ``.csl.json`` is CSL-JSON; ``.ics`` the calendar, :data:`CALENDAR`), or
    ``None``; case is ignored."""
    name = Path(path).name.casefold()
    if name.endswith(FORMAT_SUFFIXES["csl"]) and len(name) > len(FORMAT_SUFFIXES["csl"]):
        return "csl"
    return _SUFFIX_FORMATS.get(Path(path).suffix.casefold())


def inside_data_dir(path: Path, data_dir: Path) -> bool:
    """Whether ``path`` (symbolic links followed) is the data directory or inside it: the store's
    files, which an export or a backup must never replace."""
    target, store = path.resolve(), data_dir.resolve()
    return target == store or store in target.parents


def export_target_problem(path: Path, data_dir: Path | None = None) -> str | None:
    """Why ``path`` cannot take a new export or backup, in a few words for the user, or ``None``
    when it can be tried: a folder, a parent folder that does not exist or is a file, a folder
    one may not write in, or (with ``data_dir``) a place inside the data directory. The write
    itself may still fail (a full disk, a read-only file): :func:`write_export` raises then."""
    import os

    if path.is_dir():
        return "that is a folder: add a file name"
    if data_dir is not None and inside_data_dir(path, data_dir):
        return "that is inside paperdeck's data directory: choose a file outside it"
    parent = path.absolute().parent
    if not parent.exists():
        return f"there is no folder {parent}"
    if not parent.is_dir():
        return f"{parent} is a file, not a folder"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"the folder {parent} cannot be written in"
    return None


def write_export(path: Path, text: str | bytes | Iterable[str], *, data_dir: Path | None = None) -> None:
    """Write ``text`` (as UTF-8; or its pieces, :func:`export_chunks`, written as they are made) to
    ``path`` atomically (a complete old or new file, never half of one; an error while the pieces
    are made leaves ``path`` as it was). A new file gets the mode any program's new file gets
    (0666 less the umask: 0644 under the usual 022, 0600 under 077); an existing file is
    replaced and keeps its permission bits; a symbolic link is written through
    (its target is replaced, the link kept); an existing character device or FIFO (``/dev/null``,
    a named pipe) is written into instead.

    Raises:
        ExportError: ``path`` is inside ``data_dir`` (the store's files must not be overwritten).
        StoreError: the file cannot be written (missing directory, permissions, full disk, a
            read-only file, a socket or block device, a FIFO no one reads).
    """
    if data_dir is not None and inside_data_dir(path, data_dir):
        raise ExportError(f"{path}: inside the data directory {data_dir}; write the export elsewhere")
    if path.is_dir():
        raise StoreError(path, "is a directory; give a file name")
    payload: bytes | Iterable[bytes]
    if isinstance(text, str):
        payload = text.encode("utf-8")
    elif isinstance(text, bytes):
        payload = text
    else:
        payload = (piece.encode("utf-8") for piece in text)
    if not write_into_stream(path, payload):  # a device or FIFO is written into, never replaced
        atomic_write_bytes(path, payload, new_mode=shared_file_mode())  # for co-authors too, as `cp` would


# -- CSV -------------------------------------------------------------------------------------


def csv_table(records: Sequence[Mapping[str, Any]]) -> str:
    """:data:`CSV_COLUMNS` rows from :func:`paper_record` dicts (see the module docstring)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for record in records:
        ratings = record.get("ratings") or {}
        row: list[str] = []
        for column in CSV_COLUMNS:
            if column.startswith("rating_"):
                row.append(_cell(ratings.get(column.removeprefix("rating_"))))
            elif column == "provenance":
                row.append(";".join(f"{name}={source}" for name, source in (record.get(column) or {}).items()))
            else:
                row.append(_cell(record.get(column)))
        writer.writerow([_inert(cell) for cell in row])
    return out.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(cell: str) -> str:
    """``cell`` as a spreadsheet reads it as text: one that would start a formula gets a
    leading ``'`` (a number such as ``-1.5`` is left as it is)."""
    if not cell.startswith(_FORMULA_STARTS):
        return cell
    try:
        float(cell)
    except ValueError:
        return "'" + cell
    return cell if cell.strip() == cell and "_" not in cell else "'" + cell


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ";".join(str(item) for item in value)
    return str(value)


# -- Markdown --------------------------------------------------------------------------------

#: Markdown's inline punctuation that :func:`md_escape` escapes, the backslash first (so that the
#: backslashes it adds are not escaped again).
_MD_SPECIAL = "\\`*_[]<>#|~!$&"


def markdown_list(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    reviews: ReviewsOf | None = None,
) -> str:
    """The Markdown reading list (see the module docstring), ending in a newline; ``reviews``:
    the papers' notes, each paper's listed under it."""
    return "".join(markdown_chunks(papers, users, reviews))


#: Lines a Markdown export gathers before it hands them on.
_CHUNK_LINES = 2000


def markdown_chunks(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    reviews: ReviewsOf | None = None,
    progress: Progress | None = None,
) -> Iterator[str]:
    """:func:`markdown_list` in pieces (see :func:`export_chunks`); joined, the same text."""
    spool = _ReviewSpool(papers, reviews, progress) if reviews is not None else None
    try:
        steps, done = len(papers) * (2 if spool is not None else 1), len(papers) if spool is not None else 0
        groups: dict[str, list[Paper]] = {status: [] for status in MARKDOWN_STATUS_ORDER}
        for paper in papers:
            status = (users.get(paper.id) or UserData(paper.id)).status
            groups[status if status in groups else "unseen"].append(paper)
        starred = sum(1 for paper in papers if (record := users.get(paper.id)) is not None and record.starred)
        count = f"{len(papers):,} paper{'' if len(papers) == 1 else 's'}"
        lines = ["# Reading list", "", f"{count}, {starred:,} starred." if papers else "No papers."]
        for status in MARKDOWN_STATUS_ORDER:
            if not groups[status]:
                continue
            lines += [*([""] if lines[-1] else []), f"## {_SECTION_TITLES[status]} ({len(groups[status]):,})", ""]
            for paper in groups[status]:
                lines += _markdown_item(paper, users.get(paper.id) or UserData(paper.id))
                if spool is not None and (notes := spool.lines(paper)):
                    lines[-1:] = [*notes, ""]
                done += 1
                if progress is not None:
                    progress(done, steps)
                if len(lines) >= _CHUNK_LINES:
                    # Up to the last line with text before the last: the text ends trimmed of its
                    # blank lines, and the next item looks at the line before it.
                    last = max((n for n in range(len(lines) - 1) if lines[n]), default=-1)
                    if last >= 0:
                        yield "\n".join(lines[: last + 1]) + "\n"
                        del lines[: last + 1]
        tail = "\n".join(lines)
        if tail.strip("\n"):
            yield tail.rstrip("\n") + "\n"
    finally:
        if spool is not None:
            spool.close()


class _ReviewSpool:
    """Every paper's reviews as Markdown lines (:func:`_markdown_reviews`), made shard by shard
    into a temporary file (removed by :meth:`close`) and read back paper by paper."""

    def __init__(self, papers: Sequence[Paper], reviews: ReviewsOf, progress: Progress | None) -> None:
        import tempfile  # deferred: only an export with reviews spools

        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close(), as the export ends)
        self._spans: dict[str, tuple[int, int]] = {}
        try:
            forums = [paper.openreview_id for paper in papers if paper.openreview_id]
            for done, (forum, notes) in enumerate(reviews(forums), 1):
                if notes:
                    data = "\n".join(_markdown_reviews(list(notes))).encode("utf-8", "surrogatepass")
                    self._spans[forum] = (self._file.tell(), len(data))
                    self._file.write(data)
                if progress is not None:
                    progress(done, 2 * len(papers))
        except BaseException:
            self.close()
            raise

    def lines(self, paper: Paper) -> list[str]:
        """``paper``'s reviews' lines; ``[]`` when it has none."""
        span = self._spans.get(paper.openreview_id) if paper.openreview_id else None
        if span is None:
            return []
        self._file.seek(span[0])
        return self._file.read(span[1]).decode("utf-8", "surrogatepass").split("\n")

    def close(self) -> None:
        self._file.close()


def _markdown_item(paper: Paper, user: UserData) -> list[str]:
    from paperdeck.export.titles import shown_title

    title = md_escape(shown_title(paper.title)) or "(untitled)"
    url = next((u for u in (paper.openreview_url, paper.arxiv_url, paper.pdf_url) if web_link(u)), "")
    if url:
        title = f"[{title}](<{url.replace('<', '%3C').replace('>', '%3E')}>)"
    head = ("★ " if user.starred else "") + (f"*{title}*" if paper.title_derived else f"**{title}**")
    details: list[str] = []
    if paper.authors:
        details.append(md_escape(one_line(authors_line(paper))))
    if paper.venue_label:
        details.append(md_escape(one_line(paper.venue_label)))
    if paper.decision not in ("unknown", ""):
        details.append(md_escape(one_line(paper.decision)))
    if paper.ratings is not None:
        reviews = f" ({counted(paper.ratings.count, 'review')})" if paper.ratings.count else ""
        details.append(f"rating {paper.ratings.mean:.2f}{reviews}")
    if user.tags:
        details.append("tags: " + ", ".join(f"`{one_line(tag).replace('`', '')}`" for tag in user.tags))
    item = [f"- {head}" + ("\\" if details else ""), *(["  " + " · ".join(details)] if details else [])]
    if user.note:
        note_lines = visible(user.note).strip("\n").split("\n")
        item += [f"  > {line}".rstrip() for line in note_lines]
    return [*item, ""]


def _score_text(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def _markdown_reviews(notes: list[Review]) -> list[str]:
    """A paper's notes as a nested list under its item (see the module docstring)."""
    count = sum(1 for note in notes if note.kind == "review")
    lines = ["", f"  **Reviews** ({count} review{'' if count == 1 else 's'}, {len(notes)} notes in all)", ""]
    for depth, note in ordered_reviews(notes):
        indent = "  " * (depth + 1)
        labels = dict(note.score_labels)
        head = [f"**{md_escape(one_line(kind_label(note.kind)))}**"]
        if note.signature:
            head.append(md_escape(one_line(note.signature)))
        for name, value in note.scores:
            label = f" ({md_escape(one_line(labels[name]))})" if name in labels else ""
            head.append(f"{md_escape(name.replace('_', ' '))} {_score_text(value)}{label}")
        lines += [f"{indent}- " + " · ".join(head), ""]
        for name, text in note.sections:
            quoted = [md_escape(line).rstrip() for line in visible(text).strip("\n").split("\n")]
            lines += [f"{indent}  *{md_escape(name.replace('_', ' '))}*", ""]
            lines += [f"{indent}  > {line}".rstrip() for line in quoted] + [""]
    return lines


def md_escape(text: str) -> str:
    """``text`` with Markdown's inline punctuation backslash-escaped (CommonMark: any ASCII
    punctuation may be), so a title such as ``[CLS] *is* <all>`` shows as written."""
    for char in _MD_SPECIAL:  # one pass in C for each one present
        if char in text:
            text = text.replace(char, "\\" + char)
    return text


assert sorted(MARKDOWN_STATUS_ORDER) == sorted(STATUSES)
