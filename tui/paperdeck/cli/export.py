"""``paperdeck export``: papers as BibTeX, RIS, CSL-JSON, Markdown, CSV or JSON, or a backup of the
user's data.

::

    paperdeck export [QUERY] [--format bibtex|ris|csl|markdown|csv|json|ics] [-o FILE] [--starred]
                     [--sort ORDER] [--reviews]
    paperdeck export --user-data [-o FILE]
    paperdeck export [QUERY] --to zotero [--zotero-url URL] [--starred] [--sort ORDER]

``QUERY`` is the filter bar's (:func:`paperdeck.search.query.parse_query`); without one, every paper in
catalogue order. Without ``-o`` the text goes to standard output; with it, the file is written
atomically and one line says what was written (``--json``: as an object). ``--format`` may be
left out when ``FILE`` ends in ``.bib``, ``.ris``, ``.csl.json`` (CSL-JSON), ``.md``, ``.csv`` or
``.json`` (paperdeck's JSON; ``--format csl`` writes CSL-JSON into a ``.json`` file). ``--reviews`` (Markdown
only) lists each paper's imported reviews under it. A ``.ics`` FILE (or ``--format ics``, with
``-o``) is the calendar, as ``E`` and ``paperdeck plan --ics`` write it: the programme's events of
the papers selected that are starred or to-read (:data:`paperdeck.export.formats.FILE_FORMATS`,
the one table of formats); a calendar that would hold no event is not written, as below.

When the query (and ``--starred``) select no paper of a store that has some, nothing is written
(an existing ``FILE`` is kept as it was), one line on standard error says so and the exit status
is 1. So it is for ``-o FILE`` when the store holds no papers, or there is no store at the data
directory, and for ``--user-data -o FILE`` with no record to back up when ``FILE`` is a file or there
is no store: a mistyped ``--data-dir`` never replaces a file with an empty export. An empty
``-o ''`` is refused (status 2).

``--to zotero`` sends the selection, as RIS (notes and tags included), to a running Zotero
(:mod:`paperdeck.fetch.zotero`) at ``--zotero-url``, else the ``zotero_url`` setting of
``config.json`` (default ``http://127.0.0.1:23119``), and says in one line what Zotero imported.
When Zotero is not running, or answers an error, or does not answer in time, one line on
standard error says so and the exit status is 1 (nothing is sent when Zotero is not running).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdeck.cli.output import emit, print_error, print_export
from paperdeck.cli.selecting import (
    add_query_argument,
    add_sort_option,
    add_venue_option,
    limit,
    query_text,
    select_ids,
    venue_scope,
)
from paperdeck.export import nothing_written
from paperdeck.export.formats import (
    CALENDAR,
    FILE_FORMATS,
    ExportError,
    export_chunks,
    format_for_path,
    inside_data_dir,
    write_export,
)
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import file_name
from paperdeck.store.store import Store

#: Short names ``--format`` takes too.
FORMAT_ALIASES = {"bib": "bibtex", "md": "markdown", "csl-json": "csl", "csljson": "csl"}
#: The file endings that pick a format, for messages.
_ENDINGS = ".bib, .ris, .csl.json, .md, .csv, .json or .ics"


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``export``'s arguments on its subparser (which has ``--json`` and ``--data-dir``)."""
    add_query_argument(parser, required=False, default_help="; default: every paper")
    parser.add_argument(
        "--format",
        type=lambda name: FORMAT_ALIASES.get(name.casefold(), name.casefold()),
        choices=FILE_FORMATS,
        help="bibtex (bib), ris, csl (CSL-JSON), markdown (md), csv, json, or ics (the calendar of the "
        "starred and to-read papers' events; with -o); default: from FILE's ending",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write FILE (replaced atomically) instead of printing")
    parser.add_argument("--starred", action="store_true", help="starred papers only")
    add_sort_option(parser, "default: relevance with words, else list order")
    parser.add_argument("--limit", type=limit, default=0, help="the first N papers in that order (0, the default: all)")
    add_venue_option(parser)
    parser.add_argument(
        "--reviews",
        action="store_true",
        help="Markdown: each paper's imported reviews, meta-review, decision and comments under it",
    )
    parser.add_argument(
        "--to", choices=("zotero",),
        help="send the papers to a running Zotero instead (RIS, notes and tags included)",
    )  # fmt: skip
    parser.add_argument(
        "--zotero-url", metavar="URL",
        help="the Zotero connector's address (default: the zotero_url setting, http://127.0.0.1:23119)",
    )  # fmt: skip
    parser.add_argument(
        "--user-data",
        action="store_true",
        help="back up all your stars, notes, statuses and tags (restore: paperdeck import FILE)",
    )


def run_export(store: Store, args: argparse.Namespace) -> int:
    """Run ``paperdeck export`` (see the module docstring).

    Returns 0, or 1 when no paper is selected (see the module docstring).

    Raises:
        ExportError: conflicting options, no format, an empty ``FILE``, or ``FILE`` inside the data
            directory.
        BadQuery: a malformed query.
        StoreError: ``FILE`` cannot be written.
    """
    if args.to == "zotero":
        return _to_zotero(store, args)
    if args.zotero_url is not None:
        raise ExportError("export: --zotero-url goes with --to zotero")
    if args.output is not None and not args.output.strip():
        raise ExportError("export: -o needs a file name (- prints to standard output)")
    output = None if args.output in (None, "-") else Path(args.output)
    if args.json and output is None:
        raise ExportError("--json describes the file written with -o; to print JSON, use --format json")
    if args.user_data:
        given = [name for name, value in (("QUERY", query_text(args)), ("--format", args.format),
                 ("--starred", args.starred), ("--sort", args.sort), ("--reviews", args.reviews)) if value]  # fmt: skip
        if given:
            raise ExportError(f"--user-data backs up every record; it takes no {given[0]}")
        from paperdeck.store.backup import backup_json  # deferred: the other commands write no backup

        payload = backup_json(store)
        count = len(store.all_user_data)
        others = _backed_up_besides(payload)
        if output is None:
            print_export(payload.decode("utf-8"), "json")
            return 0
        # A mistyped --data-dir must not replace the backup a file holds with an empty one (a
        # device or a pipe replaces nothing).
        replaces = output.is_file() or not store.data_dir.exists()
        if not count and not any(others.values()) and replaces and not inside_data_dir(output, store.data_dir):
            what = _no_store_or("no star, note, status or tag to back up", store)
            print_error(f"export: {what}; {nothing_written(output, file_name(output))}")
            return 1
        write_export(output, payload, data_dir=store.data_dir)
        record = {"path": str(output), "format": "user-data", "records": count, **others}
        besides = "".join(f", {n:,} {_BACKED_UP_NAMES[key][n != 1]}" for key, n in others.items() if n)
        emit(args, record, f"backed up {count:,} record{'' if count == 1 else 's'}{besides} to {file_name(output)}")
        return 0
    format = args.format or (format_for_path(output) if output is not None else None)
    if format is None:
        hint = f" ({file_name(output)} has no {_ENDINGS} ending)" if output is not None else ""
        raise ExportError(f"export: give --format {' | '.join(FILE_FORMATS)}{hint}")
    if args.reviews and format != "markdown":
        raise ExportError(f"--reviews goes with Markdown (--format markdown or a .md FILE), not {format}")
    if format == CALENDAR and output is None:
        raise ExportError("export: the calendar (ics) is written to a file: give -o FILE.ics")
    papers = _papers(store, args)
    # An empty store printed: the hint said why, and the (empty) output is as ever. A file is never
    # replaced by an export of nothing (a mistyped --data-dir would empty it).
    if not papers and (output is not None or not store.is_empty):
        what = "no papers to export" if store.is_empty else "no papers matched"  # the hint said where
        print_error(f"export: {what}; {nothing_written(output, file_name(output))}")
        return 1
    if format == CALENDAR:
        assert output is not None
        return _write_calendar(store, args, papers, output)
    reviews = store.reviews.reviews_of if args.reviews else None
    pieces = export_chunks(papers, store.all_user_data, format, reviews)  # never the whole text at once
    if output is None:
        for piece in pieces:
            print_export(piece, format)
        return 0
    write_export(output, pieces, data_dir=store.data_dir)
    count = len(papers)
    emit(
        args,
        {"path": str(output), "format": format, "papers": count},
        f"wrote {count:,} paper{'' if count == 1 else 's'} to {file_name(output)} ({format})",
    )
    return 0


def _write_calendar(store: Store, args: argparse.Namespace, papers: list[Paper], output: Path) -> int:
    """Write the calendar of ``papers`` (the events of those starred or to-read) to ``output``, as
    ``E`` and ``paperdeck plan --ics`` do; one line says how many events it holds. A calendar that
    would hold no event is not written (``output`` kept as it was): one line on standard error says
    why, and the status is 1, as for an export that matched no paper."""
    from paperdeck.export.ics import empty_calendar_reason, write_calendar
    from paperdeck.reading.plan import build_plan, time_zone

    zone, zone_name = time_zone(None)
    chosen = {paper.id: paper for paper in papers}
    plan = build_plan(chosen, store.events_by_paper(), store.all_user_data, zone, zone_name)
    if (empty := empty_calendar_reason(plan.items)) is not None:
        print_error(f"export: {empty}; {nothing_written(output, file_name(output))}")
        return 1
    left_out = write_calendar(output, plan.items, data_dir=store.data_dir)
    written = len(plan.items) - left_out
    line = f"wrote {written:,} event{'' if written == 1 else 's'} to {file_name(output)} (ics)"
    if left_out:
        line += f" ({left_out:,} without a time left out)"
    emit(args, {"path": str(output), "format": CALENDAR, "events": written, "without_time": left_out}, line)
    return 0


def _to_zotero(store: Store, args: argparse.Namespace) -> int:
    """``export --to zotero``: the selection as RIS to a running Zotero (see the module docstring)."""
    given = [name for name, value in (("-o", args.output), ("--format", args.format), ("--reviews", args.reviews),
             ("--user-data", args.user_data)) if value]  # fmt: skip
    if given:
        raise ExportError(f"export --to zotero sends RIS to Zotero; it takes no {given[0]}")
    papers = _papers(store, args)
    if not papers:
        what = "no papers to export" if store.is_empty else "no papers matched"
        print_error(f"export: {what}; nothing sent to Zotero")
        return 1
    from paperdeck.export.ris import ris_records  # deferred: the network module only for a push
    from paperdeck.fetch.zotero import ZoteroError, push_to_zotero
    from paperdeck.store.settings import SettingsFile

    url = args.zotero_url if args.zotero_url is not None else SettingsFile(store.data_dir).settings.zotero_url
    try:
        pushed = push_to_zotero(ris_records(papers, store.all_user_data), len(papers), url)
    except ZoteroError as error:
        print_error(f"export: {error}")
        return 1
    emit(args, {"to": "zotero", "url": pushed.url, "papers": pushed.papers, "items": pushed.items}, pushed.line)
    return 0


def _no_store_or(what: str, store: Store) -> str:
    """``what`` (there is nothing to export), or that there is no store at all at the data
    directory (a mistyped ``--data-dir``)."""
    return f"no store at {file_name(store.data_dir)}" if not store.data_dir.exists() else what


def _papers(store: Store, args: argparse.Namespace) -> list[Paper]:
    """The papers the query (and ``--starred``) select, in the order asked for, the first
    ``--limit`` of them (``like:ID`` ranks every paper: the 20 most like it are ``--limit 20``)."""
    scope = venue_scope(store, args.venue)
    query = query_text(args)
    if query.strip() or args.sort or scope:
        ids = select_ids(store, query, args.sort or "relevance", scope)
        papers = [paper for pid in ids if (paper := store.paper(pid)) is not None]
    else:
        papers = store.papers
    if args.starred:
        users = store.all_user_data
        papers = [paper for paper in papers if (record := users.get(paper.id)) is not None and record.starred]
    return papers[: args.limit] if args.limit else papers


#: What a backup holds beside the user records, as said after it is written (singular, plural).
_BACKED_UP_NAMES = {"follows": ("follow", "follows"), "views": ("saved view", "saved views")}


def _backed_up_besides(payload: bytes) -> dict[str, int]:
    """How many follows and saved views the backup file ``payload`` holds (by its keys)."""
    import orjson

    document = orjson.loads(payload)
    return {key: len(document.get(key) or ()) for key in _BACKED_UP_NAMES}
