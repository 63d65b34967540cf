"""Export papers with the user's marks: BibTeX, RIS, CSL-JSON, a Markdown reading list, CSV or JSON.

UI-free, for the command line (``paperdeck export``) and the app's palette alike::

    text = export_papers(papers, store.all_user_data, "markdown")
    write_export(Path("reading.md"), text, data_dir=store.data_dir)

Formats (:data:`EXPORT_FORMATS`):

- ``bibtex``: :mod:`paperdeck.export.bibtex` (the source's entry, else a generated one; unique keys).
- ``ris``: :mod:`paperdeck.export.ris` (one record per paper, the note and tags as Zotero reads them).
- ``csl``: CSL-JSON, :mod:`paperdeck.export.csl` (the CSL data schema's items, for citeproc, Pandoc
  and Zotero). Its file ending is ``.csl.json``; a plain ``.json`` file is the ``json`` format.
- ``markdown``: a reading list grouped by reading status (:data:`MARKDOWN_STATUS_ORDER`), each paper
  a list item: ``★`` when starred, the title (rendered: ``C$^3$`` → ``C³``; a link to its OpenReview,
  arXiv or PDF page), authors, venue, decision, mean rating, tags, then the note as a block quote;
  with ``reviews``, then the paper's reviews, meta-review, decision and comments as a nested
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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.errors import PaperdeckError, StoreError
from paperdeck.model.paper import STATUSES, Paper, UserData
from paperdeck.model.paper_json import paper_record
from paperdeck.model.review import KIND_LABELS, Review, ordered_reviews
from paperdeck.model.safe_text import document, json_text, one_line, visible, web_link
from paperdeck.store.atomic import atomic_write_bytes, write_into_stream

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
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
#: The usual file name ending of each format (``format_for_path`` reads them back).
FORMAT_SUFFIXES = {"bibtex": ".bib", "markdown": ".md", "csv": ".csv", "json": ".json", "ris": ".ris",
                   "csl": ".csl.json"}  # fmt: skip
_SUFFIX_FORMATS = {".bib": "bibtex", ".bibtex": "bibtex", ".md": "markdown", ".markdown": "markdown",
                   ".csv": "csv", ".json": "json", ".ris": "ris"}  # fmt: skip
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
CSV_COLUMNS: tuple[str, ...] = tuple(
    column
    for spec in fields(Paper)
    for column in ([f"rating_{part}" for part in _RATING_PARTS] if spec.name == "ratings" else [spec.name])
) + _USER_COLUMNS


class ExportError(PaperdeckError):
    """An export cannot be made or written (unknown format, a file inside the data directory)."""


def export_papers(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    format: str,
    reviews: Callable[[Paper], Sequence[Review]] | None = None,
) -> str:
    """``papers`` (in the order given) with the user's marks, as text in ``format``.

    Args:
        papers: the papers to export.
        users: the user's records by paper id (``Store.all_user_data``); a paper without one is
            unstarred, unseen, without note or tags.
        format: one of :data:`EXPORT_FORMATS`.
        reviews: for ``markdown``, a paper's notes to include under it (``None``: none); the
            other formats take none.

    Returns:
        The whole file's text (see the module docstring for each format); for no papers, an empty
        BibTeX or RIS file, a Markdown list saying so, a CSV header, or ``[]``.

    Raises:
        ExportError: an unknown format, or ``reviews`` for a format other than ``markdown``.
        StoreError: as ``reviews`` raises it.
    """
    if reviews is not None and format != "markdown":
        raise ExportError(f"the reviews can be exported to Markdown only, not to {format}")

    def user(paper: Paper) -> UserData:
        return users.get(paper.id) or UserData(paper.id)

    if format == "bibtex":
        from paperdeck.export.bibtex import bibtex_entries  # deferred: bibtexparser, for BibTeX alone

        return document(bibtex_entries(papers))  # no escape code reaches a file from a paper
    if format == "markdown":
        return markdown_list(papers, users, reviews)
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
    ``.json``, ``.ris``; ``.csl.json`` is CSL-JSON), or ``None``; case is ignored."""
    name = Path(path).name.casefold()
    if name.endswith(FORMAT_SUFFIXES["csl"]) and len(name) > len(FORMAT_SUFFIXES["csl"]):
        return "csl"
    return _SUFFIX_FORMATS.get(Path(path).suffix.casefold())


def write_export(path: Path, text: str | bytes, *, data_dir: Path | None = None) -> None:
    """Write ``text`` (as UTF-8) to ``path`` atomically (a complete old or new file, never half of
    one). A new file gets mode 0600 (notes may be private); an existing file is replaced and keeps
    its permission bits; a symbolic link is written through (its target is replaced, the link
    kept); an existing character device or FIFO (``/dev/null``, a named pipe) is written into
    instead.

    Raises:
        ExportError: ``path`` is inside ``data_dir`` (the store's files must not be overwritten).
        StoreError: the file cannot be written (missing directory, permissions, full disk, a
            read-only file, a socket or block device, a FIFO no one reads).
    """
    if data_dir is not None:
        target, store = path.resolve(), data_dir.resolve()
        if target == store or store in target.parents:
            raise ExportError(f"{path}: inside the data directory {data_dir}; write the export elsewhere")
    if path.is_dir():
        raise StoreError(path, "is a directory; give a file name")
    payload = text.encode("utf-8") if isinstance(text, str) else text
    if not write_into_stream(path, payload):  # a device or FIFO is written into, never replaced
        atomic_write_bytes(path, payload)


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

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!$&])")


def markdown_list(
    papers: Sequence[Paper],
    users: Mapping[str, UserData],
    reviews: Callable[[Paper], Sequence[Review]] | None = None,
) -> str:
    """The Markdown reading list (see the module docstring), ending in a newline; ``reviews``:
    a paper's notes, listed under it."""
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
            if reviews is not None and (notes := reviews(paper)):
                lines[-1:] = [*_markdown_reviews(list(notes)), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _markdown_item(paper: Paper, user: UserData) -> list[str]:
    from paperdeck.text.render import render_plain  # deferred: the other formats and commands render no LaTeX

    title = md_escape(one_line(render_plain(paper.title))) or "(untitled)"
    url = next((u for u in (paper.openreview_url, paper.arxiv_url, paper.pdf_url) if web_link(u)), "")
    if url:
        title = f"[{title}](<{url.replace('<', '%3C').replace('>', '%3E')}>)"
    head = ("★ " if user.starred else "") + (f"*{title}*" if paper.title_derived else f"**{title}**")
    details: list[str] = []
    if paper.authors:
        details.append(md_escape(one_line(", ".join(paper.authors))))
    if paper.venue_label:
        details.append(md_escape(one_line(paper.venue_label)))
    if paper.decision not in ("unknown", ""):
        details.append(md_escape(one_line(paper.decision)))
    if paper.ratings is not None:
        reviews = f" ({paper.ratings.count} reviews)" if paper.ratings.count else ""
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
        head = [f"**{md_escape(KIND_LABELS.get(note.kind, one_line(note.kind)))}**"]
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
    return _MD_SPECIAL.sub(r"\\\1", text)


assert sorted(MARKDOWN_STATUS_ORDER) == sorted(STATUSES)
