"""The subcommands of ``paperdeck``: import, search, list, show, stats, star, unstar, note, status,
tag, untag, export, similar (the last two in :mod:`paperdeck.cli.export` and :mod:`paperdeck.cli.similar`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import STATUSES, Paper, with_tags
from paperdeck.model.paper_json import paper_record
from paperdeck.model.safe_text import one_line, visible
from paperdeck.sources import format_names
from paperdeck.sources.importer import Progress, import_files
from paperdeck.store.store import Store

Command = Callable[[Store, argparse.Namespace], int]


class NotFound(PaperdeckError):
    """No paper has the id the user gave."""


class BadQuery(PaperdeckError):
    """The query cannot be parsed (the filter bar's syntax)."""


def progress_reporter(total: int) -> Progress | None:
    """A Rich progress display on stderr when it is a terminal and there is more than one file."""
    if total < 2 or not sys.stderr.isatty():
        return None
    from rich.console import Console

    console = Console(stderr=True)

    def report(index: int, count: int, path: Path) -> None:
        console.print(f"[dim]reading {index + 1}/{count}[/dim] ", end="")
        console.out(path.name, highlight=False)

    return report


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=None))
    elif text:
        print(text)


def find_paper(store: Store, given: str) -> Paper:
    """The paper with id ``given``: canonical (``openreview:X``), an older alias, or a bare forum id.

    Raises:
        NotFound: no such paper.
    """
    paper = store.paper(given) or store.paper(f"openreview:{given}")
    if paper is None:
        raise NotFound(f"no paper with id {given!r} (try `paperdeck search`)")
    return paper


def _row(store: Store, paper: Paper) -> str:
    user = store.user_data(paper.id)
    marks = ("★" if user.starred else " ") + ("✎" if user.note else " ")
    decision = paper.decision if paper.decision != "unknown" else ""
    return f"{marks} {paper.id:<24} {decision:<13} {one_line(paper.title)}"


def _save_similarity(store: Store) -> None:
    """Build the similarity index now and save it beside the catalogue (1.5–3 s at 19,630 papers),
    so that the app's first "more like this" answers in ~0.3 s instead of building it then."""
    from paperdeck.search.selection import build_similarity

    build_similarity(store)


def cmd_import(store: Store, args: argparse.Namespace) -> int:
    """Import files into the store (all or nothing); print the summary."""
    paths = [Path(p) for p in args.files]
    if sys.stderr.isatty() and not args.json:
        from rich.progress import Progress as RichProgress

        with RichProgress(transient=True) as bar:
            task = bar.add_task("importing", total=len(paths) + 1)

            def advance(index: int, total: int, path: Path) -> None:
                bar.update(task, completed=index, description=f"reading {path.name}")

            summary = import_files(store, paths, args.format, advance)
            if summary.new or summary.updated:
                bar.update(task, completed=len(paths), description="indexing for similar papers")
                _save_similarity(store)
            bar.update(task, completed=len(paths) + 1)
    else:
        summary = import_files(store, paths, args.format)
        if summary.new or summary.updated:
            _save_similarity(store)
    data = {
        "files": [{"path": p, "format": f, "papers": n} for p, f, n in summary.files],
        "new": summary.new,
        "updated": summary.updated,
        "unchanged": summary.unchanged,
        "skipped": dict(summary.skipped),
        "notices": list(summary.notices),
        "papers": len(store.papers),
    }
    data["restored"] = [
        {"path": path, "restored": r.restored, "unchanged": r.unchanged, "not_in_store": r.not_in_store}
        for path, r in summary.restored
    ]
    lines = [f"{path}: {count} paper{'' if count == 1 else 's'} ({fmt})" for path, fmt, count in summary.files]
    lines += list(summary.notices)
    lines += [f"{path}: user-data backup: {report.summary()}" for path, report in summary.restored]
    if summary.files or not summary.restored:
        lines.append(f"Imported: {summary.summary()}. The store holds {len(store.papers):,} papers.")
    _emit(args, data, "\n".join(lines))
    return 0


def select_ids(store: Store, text: str, order: str = "relevance") -> list[str]:
    """Paper ids for a query in the filter bar's language, as the filter bar ranks and sorts them.

    Raises:
        BadQuery: the query cannot be parsed.
        LikeError: a ``like:`` term names no paper, or nothing is starred for ``like:starred``.
    """
    from paperdeck.search.query import parse_query
    from paperdeck.search.selection import build_index, build_similarity, run_query

    query = parse_query(text)
    if query.error is not None:
        raise BadQuery(f"query {text!r}: {query.error}")
    index = build_index(store) if query.words else None
    similarity = build_similarity(store) if query.like else None
    return run_query(store, index, query, order, similarity)


def cmd_search(store: Store, args: argparse.Namespace) -> int:
    """Rank the store's papers for a query, as the filter bar does."""
    ids = select_ids(store, args.query)
    if args.starred:
        ids = [pid for pid in ids if store.user_data(pid).starred]
    ids = ids[: args.limit] if args.limit else ids
    return _print_papers(store, args, [p for pid in ids if (p := store.paper(pid)) is not None])


def cmd_list(store: Store, args: argparse.Namespace) -> int:
    """List the store's papers in catalogue order."""
    papers = store.papers
    if args.starred:
        papers = [p for p in papers if store.user_data(p.id).starred]
    papers = papers[: args.limit] if args.limit else papers
    return _print_papers(store, args, papers)


def _print_papers(store: Store, args: argparse.Namespace, papers: list[Paper]) -> int:
    data = [paper_record(p, store.user_data(p.id)) for p in papers]
    _emit(args, data, "\n".join(_row(store, p) for p in papers))
    return 0


def cmd_show(store: Store, args: argparse.Namespace) -> int:
    """Show one paper with the user's star and note."""
    paper = find_paper(store, args.id)
    user = store.user_data(paper.id)
    lines = [
        one_line(paper.title),
        f"id: {paper.id}",
        f"venue: {paper.venue_label or '—'}   decision: {paper.decision}",
    ]
    if paper.authors:
        lines.append("authors: " + one_line(", ".join(paper.authors)))
    if paper.keywords:
        lines.append("keywords: " + one_line("; ".join(paper.keywords)))
    ratings = paper.ratings
    lines.append(
        f"rating: {ratings.mean:.2f} ({ratings.count or '?'} reviews)" if ratings else "rating: no ratings yet"
    )
    lines.append("sources: " + ", ".join(paper.sources))
    lines.append(f"starred: {'yes' if user.starred else 'no'}")
    lines += ["", visible(paper.abstract)]
    if user.note:
        lines += ["", "note:", visible(user.note)]
    _emit(args, paper_record(paper, user), "\n".join(lines))
    return 0


def cmd_stats(store: Store, args: argparse.Namespace) -> int:
    """Counts by source file, decision and primary area."""
    papers = store.papers
    by_source = Counter(source for p in papers for source in p.sources)
    by_decision = Counter(p.decision for p in papers)
    by_area = Counter(p.primary_area or "(none)" for p in papers)
    users = store.all_user_data.values()
    data = {
        "papers": len(papers),
        "starred": sum(1 for u in users if u.starred),
        "notes": sum(1 for u in users if u.note),
        "by_source": dict(by_source.most_common()),
        "by_decision": dict(by_decision.most_common()),
        "by_area": dict(by_area.most_common()),
    }
    lines = [f"{len(papers):,} papers, {data['starred']} starred, {data['notes']} with notes"]
    for title, counter in (("by source", by_source), ("by decision", by_decision), ("by area", by_area)):
        lines.append(f"\n{title}:")
        lines += [f"  {count:>7,}  {one_line(name)}" for name, count in counter.most_common()]
    _emit(args, data, "\n".join(lines))
    return 0


def cmd_star(store: Store, args: argparse.Namespace) -> int:
    """Star (or, as ``unstar``, unstar) papers: every id is checked before anything is written."""
    starred = args.command == "star"
    papers = [find_paper(store, given) for given in args.ids]
    store.change([p.id for p in papers], lambda record: replace(record, starred=starred))
    records = [paper_record(p, store.user_data(p.id)) for p in papers]
    verb = "starred" if starred else "unstarred"
    _emit(args, records, "\n".join(f"{verb} {r['id']}  {one_line(r['title'])}" for r in records))
    return 0


def cmd_note(store: Store, args: argparse.Namespace) -> int:
    """Set a paper's note from ``--text`` or standard input; an empty note deletes it."""
    paper = find_paper(store, args.id)
    text = args.text if args.text is not None else sys.stdin.read()
    record = store.set_note(paper.id, text)
    what = "saved the note of" if record.note else "deleted the note of"
    _emit(args, paper_record(paper, record), f"{what} {paper.id}  {one_line(paper.title)}")
    return 0


def cmd_status(store: Store, args: argparse.Namespace) -> int:
    """Set a paper's reading status."""
    paper = find_paper(store, args.id)
    record = store.set_status(paper.id, args.status)
    _emit(args, paper_record(paper, record), f"{args.status}: {paper.id}  {one_line(paper.title)}")
    return 0


def cmd_tag(store: Store, args: argparse.Namespace) -> int:
    """Add (``tag``) or remove (``untag``) tags on a paper."""
    paper = find_paper(store, args.id)
    adding = args.command == "tag"
    tags = args.tags
    store.change([paper.id], lambda r: with_tags(r, add=tags if adding else (), remove=() if adding else tags))
    record = store.user_data(paper.id)
    shown = ", ".join(record.tags) or "no tags"
    _emit(args, paper_record(paper, record), f"{paper.id}: {shown}  {one_line(paper.title)}")
    return 0


def cmd_export(store: Store, args: argparse.Namespace) -> int:
    """Export papers, or back up the user's data (:mod:`paperdeck.cli.export`)."""
    from paperdeck.cli.export import run_export

    return run_export(store, args)


def cmd_similar(store: Store, args: argparse.Namespace) -> int:
    """The papers most like one, or ranked by likeness to the starred ones (:mod:`paperdeck.cli.similar`)."""
    from paperdeck.cli.similar import run_similar

    return run_similar(store, args)


COMMANDS: dict[str, Command] = {
    "import": cmd_import,
    "search": cmd_search,
    "list": cmd_list,
    "show": cmd_show,
    "stats": cmd_stats,
    "star": cmd_star,
    "unstar": cmd_star,
    "note": cmd_note,
    "status": cmd_status,
    "tag": cmd_tag,
    "untag": cmd_tag,
    "export": cmd_export,
    "similar": cmd_similar,
}


def _count(text: str) -> int:
    """A ``--limit`` value: a whole number ≥ 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (all) or more, not {value}")
    return value


def add_command_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Declare every subcommand's arguments."""

    def command(name: str, help: str) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=help, description=help)
        parser.add_argument("--json", action="store_true", help="print JSON")
        add_common(parser)
        return parser

    parser = command("import", "import paper-list files or restore a user-data backup (all or nothing)")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--format", choices=format_names(), help="read the files in this format")
    parser = command("search", "rank papers for a query, as the filter bar does")
    parser.add_argument("query")
    parser.add_argument("--limit", type=_count, default=20, help="at most N papers (0: all; default 20)")
    parser.add_argument("--starred", action="store_true", help="starred papers only")
    parser = command("list", "list papers in catalogue order")
    parser.add_argument("--starred", action="store_true", help="starred papers only")
    parser.add_argument("--limit", type=_count, default=0, help="at most N papers (0, the default: all)")
    parser = command("show", "show one paper (canonical id, alias or bare OpenReview id)")
    parser.add_argument("id")
    command("stats", "counts by source, decision and area")
    for name, help in (("star", "star papers"), ("unstar", "unstar papers")):
        parser = command(name, help)
        parser.add_argument("ids", nargs="+", metavar="ID")
    parser = command("note", "set a paper's note (from --text or standard input; empty deletes)")
    parser.add_argument("id")
    parser.add_argument("--text", help="the note (default: read standard input)")
    parser = command("status", "set a paper's reading status")
    parser.add_argument("id")
    parser.add_argument("status", choices=STATUSES)
    for name, help in (("tag", "add tags to a paper"), ("untag", "remove tags from a paper")):
        parser = command(name, help)
        parser.add_argument("id")
        parser.add_argument("tags", nargs="+", metavar="TAG")
    from paperdeck.cli.export import add_export_arguments

    parser = command("export", "export papers as BibTeX, Markdown, CSV or JSON; --user-data: a backup")
    add_export_arguments(parser)
    from paperdeck.cli.similar import add_similar_arguments

    parser = command("similar", "the papers most like ID, or (--starred) most like the starred ones")
    add_similar_arguments(parser)
