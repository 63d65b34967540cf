"""The subcommands of ``paperdeck``: import, search, list, show, reviews, stats, star, unstar, note, status,
tag, untag, export, similar, follow, unfollow, following, changes, fetch, remove (export, similar, the follows,
the changes and the fetch in :mod:`paperdeck.cli.export`, :mod:`paperdeck.cli.similar`,
:mod:`paperdeck.cli.follows`, :mod:`paperdeck.cli.changes` and :mod:`paperdeck.cli.fetch`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

from paperdeck.cli.arg_errors import OneLineErrors
from paperdeck.cli.output import emit, import_progress, paper_rows, papers_text, print_error, shown_text
from paperdeck.cli.selecting import (
    add_import_venue_option,
    add_query_argument,
    add_sort_option,
    add_venue_option,
    find_paper,
    limit,
    query_text,
    select_ids,
    venue_scope,
)
from paperdeck.model.counts import counted
from paperdeck.model.errors import NothingToDo, PaperdeckError
from paperdeck.model.paper import BLANK_TAG, STATUSES, Paper, authors_line, blank_tag, clean_tag, split_tags, with_tags
from paperdeck.model.paper_json import paper_record
from paperdeck.model.safe_text import file_name, one_line, shown_line, visible, web_link
from paperdeck.model.user import colon_refusal, colon_tag, no_tag_said
from paperdeck.store.store import Store

Command = Callable[[Store, argparse.Namespace], int]
_T = TypeVar("_T")


def _terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (``$COLUMNS`` when a
    positive whole number, else standard output's terminal's, else 80), without importing
    :mod:`shutil` (and the compression modules it brings) for it."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, at the width argparse gives it (:func:`_terminal_columns` − 2)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _terminal_columns() - 2 if width is None else width)


class CommandParser(OneLineErrors):
    """The parser of ``paperdeck COMMAND …`` and its subcommands': argparse's, but for the help's
    width, read without :mod:`shutil` (argparse makes a formatter for every argument declared),
    and errors in one line (:class:`~paperdeck.cli.arg_errors.OneLineErrors`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, but an argument a subcommand does not take is refused by that subcommand
        (``paperdeck note: error: …``), not the top-level parser: argparse
        hands the words a subcommand left over to its parent, which names only itself."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = self
            for action in self._actions:
                if isinstance(action, argparse._SubParsersAction):
                    command = action.choices.get(getattr(parsed, action.dest, None) or "", self)
            command.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


def empty_store_hint(store: Store) -> str:
    """The one line said (on standard error) when a command reads a store with no papers: how to
    fill it, naming ``paperdeck import`` and the bundled seeds."""
    from paperdeck.paths import seeds_dir

    where = f"the store in {store.data_dir} holds no papers yet"
    if not store.data_dir.exists():
        where = f"no store at {store.data_dir}"
    return (
        f"paperdeck: {where}; fill it with "
        f"`paperdeck import FILE...` (the bundled seeds: `paperdeck import {seeds_dir()}/*.txt`, "
        "or run `paperdeck`, which imports them on a first start)"
    )


#: The exit status of a command that reads a store when there is none at the data directory (a
#: mistyped ``--data-dir``): an error, as for ``show ID`` there, so a script does not go on.
NO_STORE_STATUS = 2


def _store_needed(command: Command) -> Command:
    """``command``, but when there is no store at the data directory at all: the line saying so
    (:func:`empty_store_hint`) on standard error, nothing on standard output (not even ``[]``
    with ``--json``) and exit status :data:`NO_STORE_STATUS`."""

    def run(store: Store, args: argparse.Namespace) -> int:
        if not store.data_dir.exists():
            print(empty_store_hint(store), file=sys.stderr)
            return NO_STORE_STATUS
        return command(store, args)

    run.__doc__ = command.__doc__
    return run


def _hint_when_empty(command: Command) -> Command:
    """``command``, saying first how to fill the store when it holds no papers (its result, then
    empty, is due to that). The output itself and the exit status (0) are unchanged, so ``--json``
    still prints valid JSON. With no store at all, :func:`_store_needed`'s error instead."""

    @_store_needed
    def run(store: Store, args: argparse.Namespace) -> int:
        if store.is_empty and not getattr(args, "user_data", False):
            print(empty_store_hint(store), file=sys.stderr)
        return command(store, args)

    run.__doc__ = command.__doc__
    return run


def _save_stats(store: Store, stats_key: list[Any]) -> int:
    """Count the store's figures again when the import changed its papers or reviews (``stats_key``:
    :func:`paperdeck.stats.cache.cache_key` before it), before the papers are let go of for the
    indexes' build; the papers the catalogue holds now."""
    from paperdeck.stats.cache import cache_key

    if cache_key(store) != stats_key:
        from paperdeck.cli.stats import save_stats_cache

        save_stats_cache(store, stats_key)
    return store.paper_count


def _done_with_papers(store: Store, new_ids: tuple[str, ...]) -> bool:
    """Whether the import has no more use for the papers held once the statistics are counted:
    true unless new papers are matched against the user's follows after the indexes are saved."""
    return not (new_ids and store.follows.all())


def cmd_import(store: Store, args: argparse.Namespace) -> int:
    """Import files into the store (all or nothing); print the summary. With ``--undo``, take
    back the last import instead (:mod:`paperdeck.cli.removing`)."""
    if args.undo or not args.files:
        from paperdeck.cli.removing import cmd_undo

        if args.files or not args.undo:
            what = "takes no files" if args.undo else "needs files to import, or --undo"
            raise PaperdeckError(f"import {what}; nothing was changed")
        return cmd_undo(store, args, "import")
    from paperdeck.cli.caches import said_saved_when_interrupted

    paths = [Path(p) for p in args.files]
    stamp = store.catalogue_stamp()  # a new catalogue (new papers, or ratings from reviews) needs a new index
    from paperdeck.stats.cache import cache_key

    stats_key = cache_key(store)  # new papers or reviews: the statistics are counted again
    from paperdeck.stats.cache import PaperCounts

    store.rescore_tally = PaperCounts()  # a review import's scores written in place count them as they go
    # A Ctrl-C once the import is committed (the statistics, the indexes, the follows) says so.
    with said_saved_when_interrupted(store, (stamp, stats_key), "the import", "paperdeck import --undo"):
        return _import_and_report(store, args, paths, stamp, stats_key)


def _import_and_report(
    store: Store, args: argparse.Namespace, paths: list[Path], stamp: list[int] | None, stats_key: list[Any]
) -> int:
    """:func:`cmd_import`'s import of ``paths``, the caches it makes stale saved, and its report."""
    from paperdeck.cli.caches import save_indexes
    from paperdeck.sources.importer import import_files  # deferred: the other commands read no file format

    with import_progress(len(paths), shown=not args.json) as bar:
        summary = import_files(
            store,
            paths,
            args.format,
            bar.reading if bar else None,
            args.venue or "",
            bar.merging if bar else None,
            told=bar.read_bytes if bar else None,
            records=bar.read_records if bar else None,
        )
        papers = _save_stats(store, stats_key)
        if store.catalogue_stamp() != stamp:
            if bar:
                bar.step("indexing for search and similar papers")
            if done := _done_with_papers(store, summary.new_ids):
                summary = replace(summary, new_ids=())  # their objects would keep the papers' memory
            save_indexes(store, release=done, told=bar.saving if bar else None)
        if bar:
            bar.done()
    file_reviews = summary.file_reviews or (0,) * len(summary.files)
    data = {
        "files": [
            {"path": p, "format": f, "papers": n, "reviews": r}
            for (p, f, n), r in zip(summary.files, file_reviews, strict=True)
        ],
        "new": summary.new,
        "updated": summary.updated,
        "unchanged": summary.unchanged,
        "skipped": dict(summary.skipped),
        "dropped": dict(summary.dropped),
        "notices": list(summary.notices),
        "papers": papers,
    }
    if summary.reviews is not None:
        r = summary.reviews
        data["reviews"] = {"new": r.new, "updated": r.updated, "unchanged": r.unchanged, "papers": r.papers,
                           "waiting": r.waiting, "versions": r.versions}  # fmt: skip
    if summary.schedule is not None:
        sched = summary.schedule
        data["schedule"] = {
            "events": sched.events, "papers": sched.papers, "removed": sched.removed,
            "unmatched": [{"id": e.event_id, "title": e.title, "forum": e.forum_id, "session": e.session}
                          for e in sched.unmatched],
        }  # fmt: skip
    data["restored"] = [
        {"path": path, "restored": r.restored, "unchanged": r.unchanged, "not_in_store": r.not_in_store}
        for path, r in summary.restored
    ]
    lines = [
        _file_line(path, fmt, count, notes)
        for (path, fmt, count), notes in zip(summary.files, file_reviews, strict=True)
    ]
    lines += list(summary.notices)
    lines += [f"{file_name(path)}: {report.what}, {report.summary()}" for path, report in summary.restored]
    if summary.files or not summary.restored:
        lines.append(f"Imported: {summary.summary()}. The store holds {papers_text(papers)}.")
    from paperdeck.cli.follows import followed_news

    followed_line, data["followed"] = followed_news(store, summary.new_ids)
    if followed_line is not None:
        lines.append(followed_line)
    emit(args, data, "\n".join(lines))
    return 0


def _file_line(path: str, fmt: str, papers: int, notes: int) -> str:
    """What the import read from one file: ``"a.jsonl: 37 papers (openreview)"``; a file of reply
    notes alone, ``"b.jsonl.gz: 27,700 reviews and comments (openreview)"``."""
    if fmt == "schedule":
        return f"{file_name(path)}: a programme (schedule)"
    if notes and not papers:
        return f"{file_name(path)}: {counted(notes, 'review or comment', 'reviews and comments')} ({fmt})"
    return f"{file_name(path)}: {counted(papers, 'paper')} ({fmt})"


def cmd_search(store: Store, args: argparse.Namespace) -> int:
    """Rank the store's papers for a query, as the filter bar does, in the sort order ``--sort``
    (default: relevance), as the app sorts a query's list."""
    query, scope = query_text(args), venue_scope(store, args.venue)
    ids = select_ids(store, query, args.sort or "relevance", scope)
    if args.starred:
        ids = [pid for pid in ids if store.user_data(pid).starred]
    if not ids and not args.json and store.paper_count:  # one line on standard error: stdout stays empty
        within = " among the starred papers" if args.starred else ""
        within += f" in {one_line(', '.join(sorted(scope)))}" if scope else ""
        what = f"matches {one_line(query)!r}" if query.strip() else "is held"
        print(f"No paper {what}{within}.", file=sys.stderr)
    _say_if_no_rating_moved(store, args, ids, scope)
    ids = _cut(args, ids)
    return _print_papers(store, args, [p for pid in ids if (p := store.paper(pid)) is not None])


def cmd_list(store: Store, args: argparse.Namespace) -> int:
    """List the store's papers in catalogue order, or in the app's sort order ``--sort`` (as the
    app sorts the blank filter bar's list: relevance is list order)."""
    if args.sort is not None:
        scope = venue_scope(store, args.venue)
        ids = select_ids(store, "", args.sort, scope)
        papers = [p for pid in ids if (p := store.paper(pid)) is not None]
        if args.starred:
            papers = [p for p in papers if store.user_data(p.id).starred]
        _say_if_no_rating_moved(store, args, [p.id for p in papers], scope)
        return _print_papers(store, args, _cut(args, papers))
    papers = store.papers
    if scope := venue_scope(store, args.venue):
        from paperdeck.search.venues import within_scope

        kept = set(within_scope(store, [p.id for p in papers], scope))
        papers = [p for p in papers if p.id in kept]
    if args.starred:
        papers = [p for p in papers if store.user_data(p.id).starred]
    return _print_papers(store, args, _cut(args, papers))


def _say_if_no_rating_moved(store: Store, args: argparse.Namespace, ids: list[str], scope: frozenset[str]) -> None:
    """One line on standard error when ``--sort rise`` or ``fall`` found no rating that moved among
    ``ids`` (the list is then in list order; never with ``--json``)."""
    if args.sort not in ("rise", "fall") or args.json or not ids:
        return
    from paperdeck.search.selection import no_rating_moved, no_rating_moved_text

    if no_rating_moved(store, ids):
        print(no_rating_moved_text(scope), file=sys.stderr)


def _cut(args: argparse.Namespace, items: list[_T]) -> list[_T]:
    """The first ``--limit`` of ``items`` (all with ``--limit 0``). When that leaves some out, one
    line on standard error says how many are shown of how many (never with ``--json``, whose
    output is the JSON alone; never on standard output, which stays the rows alone)."""
    if not args.limit or len(items) <= args.limit:
        return items
    if not args.json:
        print(f"{args.limit:,} of {len(items):,} shown; --limit 0 for all", file=sys.stderr)
    return items[: args.limit]


def _print_papers(store: Store, args: argparse.Namespace, papers: list[Paper]) -> int:
    if args.json:  # the records, or the rows: each is made only when printed
        emit(args, [paper_record(p, store.user_data(p.id)) for p in papers], "")
    else:
        emit(args, None, "\n".join(paper_rows(store, papers, args.raw)))
    return 0


def cmd_show(store: Store, args: argparse.Namespace) -> int:
    """Show one paper: title, id, venue, decision, authors, keywords, rating, area, sources, and
    the user's star, reading status, tags and note (every text from a file or the user one line,
    through the sanitiser)."""
    paper = find_paper(store, args.id)
    user = store.user_data(paper.id)
    lines = [
        shown_line(paper.title, args.raw),
        f"id: {paper.id}",
        f"venue: {paper.venue_label or '—'}   decision: {paper.decision}",
    ]
    if paper.authors:
        lines.append("authors: " + one_line(authors_line(paper)))
    if paper.keywords:
        keywords = list(paper.keywords)
        if not args.raw and any(shown_text(k) != k for k in keywords):
            from paperdeck.text.render import render_keywords  # the app's: math split at a comma joined

            keywords = render_keywords(keywords)
        lines.append("keywords: " + one_line("; ".join(keywords)))
    from paperdeck.cli.reviews import move_line, path_lines, summary_line

    summary = store.reviews.summary(paper.openreview_id) if paper.openreview_id else None
    ratings = paper.ratings
    if summary is not None and summary.count:  # every reviewer's score: the list's mean, spelt out
        lines.append(summary_line(summary))
    elif ratings:
        reviews = "? reviews" if not ratings.count else f"{ratings.count:,} review{'' if ratings.count == 1 else 's'}"
        from paperdeck.model.venue import mean_text, scale_of

        lines.append(f"rating: {mean_text(ratings.mean, scale_of(paper))} ({reviews})")
        if summary is not None:
            lines.append(summary_line(summary))
    else:
        lines.append("rating: no ratings yet" + (f"; {summary_line(summary)}" if summary is not None else ""))
    if moved := move_line(summary):  # each review's path: one line per review whose scores moved
        lines.append(moved)
        for review in store.reviews.reviews(paper.openreview_id):
            if paths := path_lines(review):
                lines.append(f"  {one_line(review.signature or review.id)}: " + "; ".join(paths))
    lines.append("area: " + (one_line(paper.primary_area) or "—"))
    events = store.events_of(paper.id)
    lines += ["when: " + one_line(event.when_and_where()) for event in events]
    links = (paper.openreview_url, paper.arxiv_url, paper.pdf_url)  # the first web link, as exports choose
    if link := next((url for url in links if web_link(url)), ""):
        lines.append("link: " + one_line(link))
    lines.append("sources: " + one_line(", ".join(paper.sources)))
    lines.append(f"starred: {'yes' if user.starred else 'no'}   status: {user.status}")
    lines.append("tags: " + (one_line(", ".join(user.tags)) or "no tags"))
    lines += ["", visible(shown_text(paper.abstract, args.raw))]
    if user.note:
        lines += ["", "note:", visible(user.note)]
    if args.json:
        record = paper_record(paper, user)
        record["review_summary"] = summary.public_dict() if summary else None
        record["events"] = [event.to_dict() for event in events]
        emit(args, record, "")
    else:
        emit(args, None, "\n".join(lines))
    return 0


def cmd_stats(store: Store, args: argparse.Namespace) -> int:
    """Counts by source file, decision and primary area; the review counts; and the figures of the
    statistics screen (:mod:`paperdeck.cli.stats`): rating distributions, decisions by area,
    acceptance by mean rating, reviews per paper, confidence, the user's progress."""
    from paperdeck.cli.stats import run_stats

    return run_stats(store, args)


def cmd_star(store: Store, args: argparse.Namespace) -> int:
    """Star (or, as ``unstar``, unstar) papers: every id is checked before anything is written.
    A paper that already was as asked is named as such (``not starred: ID  TITLE``), not as
    changed; the exit status is 0 either way."""
    starred = args.command == "star"
    papers = [find_paper(store, given) for given in args.ids]
    pairs = store.change([p.id for p in papers], lambda record: record.replaced(starred=starred))
    changed = {after.paper_id for _, after in pairs}
    records = [paper_record(p, store.user_data(p.id)) for p in papers]
    done, kept = ("starred", "already starred:") if starred else ("unstarred", "not starred:")
    lines = [f"{done if p.id in changed else kept} {p.id}  {shown_line(p.title)}" for p in papers]
    emit(args, records, "\n".join(lines))
    return 0


def cmd_note(store: Store, args: argparse.Namespace) -> int:
    """Set a paper's note from ``--text`` or standard input; ``--text ""`` or ``--delete`` deletes
    it. Standard input read empty never deletes a note (a script's empty pipe, ``</dev/null``):
    said in one line, nothing changed: nothing to do (exit status 1). On a terminal with no ``--text``, nothing is
    read: the note is shown with how to change it (a command that waited for typed text was
    taken for a hang, and its ctrl+d deleted the note).

    Raises:
        PaperdeckError: standard input is not UTF-8 (nothing changed).
        NothingToDo: standard input was empty (nothing changed).
    """
    paper = find_paper(store, args.id)
    if args.delete:
        text = ""
    elif args.text is not None:
        text = args.text
    elif sys.stdin is None or sys.stdin.isatty():
        note = store.user_data(paper.id).note
        shown = one_line(note) if note else "(no note)"
        how = 'change it with --text TEXT or text piped in; --delete (or --text "") deletes it'
        emit(args, paper_record(paper, store.user_data(paper.id)), f"note of {paper.id}: {shown}\n{how}")
        return 0
    else:
        text = _stdin_text("the note on standard input")
        if not text.strip():
            raise NothingToDo(  # exit status 1
                f'standard input was empty: the note of {paper.id} is kept (--delete, or --text "", deletes it)'
            )
    record = store.set_note(paper.id, text)
    what = "saved the note of" if record.note else "deleted the note of"
    emit(args, paper_record(paper, record), f"{what} {paper.id}  {shown_line(paper.title)}")
    return 0


def _stdin_text(what: str) -> str:
    """Standard input read whole as UTF-8 text.

    Raises:
        PaperdeckError: it is not UTF-8 (naming ``what`` and where); nothing was changed.
    """
    given = sys.stdin
    data = given.buffer.read() if hasattr(given, "buffer") else given.read().encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PaperdeckError(
            f"{what}: not valid UTF-8 text (byte 0x{data[exc.start]:02x} at byte {exc.start}); nothing was changed"
        ) from None


def cmd_status(store: Store, args: argparse.Namespace) -> int:
    """Set the reading status of papers, as ``star`` stars them: every id is checked before
    anything is written; a paper that had it is named as such (``already STATUS: ID  TITLE``;
    exit status 0). ``--json``: the paper's record, a list of them when several ids were given."""
    papers = list({p.id: p for p in (find_paper(store, given) for given in args.ids)}.values())
    pairs = store.change([p.id for p in papers], lambda record: record.replaced(status=args.status))
    changed = {after.paper_id for _, after in pairs}
    records = [paper_record(p, store.user_data(p.id)) for p in papers]
    done, kept = f"{args.status}:", f"already {args.status}:"
    lines = [f"{done if p.id in changed else kept} {p.id}  {shown_line(p.title)}" for p in papers]
    emit(args, records if len(args.ids) > 1 else records[0], "\n".join(lines))
    return 0


def cmd_tag(store: Store, args: argparse.Namespace) -> int:
    """Add (``tag``) or remove (``untag``) tags on a paper; print the tags it has then, or, when
    nothing changed, that it already had (or lacked) them (exit status 0 either way). An empty
    or blank tag, one beginning with ``-`` or one to add holding a ``:`` (``tag:week1``) is
    refused with one line, exit status 2, before anything is read or written."""
    adding = args.command == "tag"
    tags = split_tags(args.tags)  # `tag ID 'x, y'` is two tags
    if blank_tag(tags):
        print_error(f"{args.command}: {BLANK_TAG}; nothing was changed")
        return 2
    # The app's tag prompt reads `-tag` as "remove tag": a tag so named could not be typed there.
    # A tag added is checked as it would be stored (`#-x` is `-x`); one removed as typed, so that
    # a tag stored so before can still be removed (`untag ID '#-x'`).
    if dashed := [tag for tag in tags if (clean_tag(tag) if adding else tag).startswith("-")]:
        named = clean_tag(dashed[0]).lstrip("-") or "TAG"
        print_error(f"{args.command}: a tag cannot begin with - ({dashed[0]}); to remove a tag: paperdeck untag "
                    f"{args.id} {named}; nothing was changed")  # fmt: skip
        return 2
    if adding and (colon := colon_tag(tags)):  # one stored so before (an import) can still be removed
        print_error(f"{args.command}: {colon_refusal(colon)}; nothing was changed")
        return 2
    paper = find_paper(store, args.id)
    added, removed = (tags, ()) if adding else ((), tags)
    changed = store.change([paper.id], lambda record: with_tags(record, add=added, remove=removed))
    record = store.user_data(paper.id)
    if changed:
        text = f"{paper.id}: {', '.join(record.tags) or 'no tags'}"
    else:
        text = f"already tagged {', '.join(tags)}: {paper.id}" if adding else no_tag_said(tags, paper.id)
    emit(args, paper_record(paper, record), f"{one_line(text)}  {shown_line(paper.title)}")
    return 0


def cmd_export(store: Store, args: argparse.Namespace) -> int:
    """Export papers, or back up the user's data (:mod:`paperdeck.cli.export`)."""
    from paperdeck.cli.export import run_export

    return run_export(store, args)


def cmd_similar(store: Store, args: argparse.Namespace) -> int:
    """The papers most like one, or ranked by likeness to the starred ones (:mod:`paperdeck.cli.similar`)."""
    from paperdeck.cli.similar import run_similar

    return run_similar(store, args)


def _cmd_follows(store: Store, args: argparse.Namespace) -> int:
    from paperdeck.cli import follows

    run = {"follow": follows.cmd_follow, "unfollow": follows.cmd_unfollow, "following": follows.cmd_following}
    return run[args.command](store, args)


def _cmd_fetch(store: Store, args: argparse.Namespace) -> int:
    """Fetch conferences from OpenReview or Paper Copilot (all or nothing)."""
    from paperdeck.cli.fetch import run_fetch

    return run_fetch(store, args)


def _cmd_reviews(store: Store, args: argparse.Namespace) -> int:
    from paperdeck.cli.reviews import cmd_reviews

    return cmd_reviews(store, args)


def _cmd_remove(store: Store, args: argparse.Namespace) -> int:
    from paperdeck.cli.removing import cmd_remove

    return cmd_remove(store, args)


def _cmd_plan(store: Store, args: argparse.Namespace) -> int:
    from paperdeck.cli.plan import cmd_plan

    return cmd_plan(store, args)


def _cmd_changes(store: Store, args: argparse.Namespace) -> int:
    from paperdeck.cli.changes import cmd_changes

    return cmd_changes(store, args)


#: The commands that write nothing to the store: they do not create a missing data directory.
READ_ONLY_COMMANDS = frozenset(
    {"search", "list", "show", "reviews", "stats", "export", "similar", "following", "changes", "plan"}
)
#: The commands that mark papers: they need the papers, so they do not create a missing data
#: directory either (a mistyped --data-dir is said, not made).
MARKING_COMMANDS = frozenset({"star", "unstar", "note", "status", "tag", "untag", "remove"})

COMMANDS: dict[str, Command] = {
    "import": cmd_import,
    "search": _hint_when_empty(cmd_search),
    "list": _hint_when_empty(cmd_list),
    "show": cmd_show,
    "reviews": _hint_when_empty(_cmd_reviews),
    "stats": _hint_when_empty(cmd_stats),
    "star": cmd_star,
    "unstar": cmd_star,
    "note": cmd_note,
    "status": cmd_status,
    "tag": cmd_tag,
    "untag": cmd_tag,
    "export": _hint_when_empty(cmd_export),
    "similar": _hint_when_empty(cmd_similar),
    "follow": _cmd_follows,
    "unfollow": _cmd_follows,
    "following": _store_needed(_cmd_follows),
    "changes": _hint_when_empty(_cmd_changes),
    "fetch": _cmd_fetch,
    "remove": _cmd_remove,
    "plan": _hint_when_empty(_cmd_plan),
}


#: Commands that print titles, abstracts or reviews as the app shows them, unless ``--raw``.
_RENDERING_COMMANDS = frozenset({"search", "list", "show", "reviews", "similar"})


class _Unused:
    """Stands in for the parser of a subcommand not parsed: the arguments it is told to declare
    are dropped (declaring them on a real parser would cost as much as on the one used)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        """Drop the declaration."""


def add_command_parsers(
    commands: argparse._SubParsersAction[CommandParser],
    add_common: Callable[[argparse.ArgumentParser], None],
    only: str | None = None,
) -> None:
    """Declare every subcommand's arguments, or only those of the subcommand ``only``: a command
    then imports no other command's module (``fetch``'s brings the HTTP client)."""

    def wanted(*names: str) -> bool:
        return only is None or only in names

    # What an unwanted subcommand declares goes to this stand-in, which drops it.
    unused = cast(argparse.ArgumentParser, _Unused())

    def command(name: str, help: str) -> argparse.ArgumentParser:
        if not wanted(name):
            return unused
        parser = commands.add_parser(name, help=help, description=help)
        parser.add_argument("--json", action="store_true", help="print JSON")
        if name in _RENDERING_COMMANDS:
            parser.add_argument(
                "--raw",
                action="store_true",
                help="print titles, abstracts and reviews as their source text (LaTeX math as written, "
                "not as the app shows it: $\\alpha$-DPO, not α-DPO); --json always holds the source text",
            )
        add_common(parser)
        return parser

    if wanted("import"):  # the sources package is imported for its names only when needed
        from paperdeck.sources import FORMAT_NAMES, FORMATS

        parser = command("import", "import paper-list files or restore a user-data backup (all or nothing)")
        parser.epilog = "Formats, detected in this order: " + "; ".join(f"{row.name}: {row.help}" for row in FORMATS)
        parser.add_argument("files", nargs="*", metavar="FILE")
        parser.add_argument("--format", choices=FORMAT_NAMES, help="read the files in this format")
        add_import_venue_option(parser)
        parser.add_argument(
            "--undo", action="store_true", help="take back the last import (the papers it added, the fields it changed)"
        )
        parser.add_argument(
            "--yes", action="store_true", help="with --undo: undo even when a backup restore came after the import"
        )
    parser = command("search", "rank papers for a query, as the filter bar does")
    add_query_argument(parser, required=True)
    parser.add_argument("--limit", type=limit, default=20, help="at most N papers (0: all; default 20)")
    parser.add_argument("--starred", action="store_true", help="starred papers only")
    add_sort_option(parser, "default: relevance (list order for a query without words)")
    add_venue_option(parser)
    parser = command("list", "list papers in catalogue order, or in the app's sort order (--sort)")
    parser.add_argument("--starred", action="store_true", help="starred papers only")
    parser.add_argument("--limit", type=limit, default=0, help="at most N papers (0, the default: all)")
    add_sort_option(parser, "default: list order")
    add_venue_option(parser)
    parser = command("show", "show one paper (canonical id, alias or bare OpenReview id)")
    parser.add_argument("id")
    parser = command("reviews", "show one paper's reviews, meta-review, decision and comments")
    parser.add_argument("id")
    parser = command(
        "stats",
        "counts by source, decision and area; rating distributions (each paper's mean, every "
        "review's), acceptance by area and by rating, reviews per paper, confidence, your progress",
    )
    add_venue_option(parser)
    for name, help in (("star", "star papers"), ("unstar", "unstar papers")):
        parser = command(name, help)
        parser.add_argument("ids", nargs="+", metavar="ID")
    parser = command("note", "set a paper's note (from --text or standard input; --delete deletes it)")
    parser.add_argument("id")
    parser.add_argument("--text", help='the note (default: read standard input; "" deletes it)')
    parser.add_argument("--delete", action="store_true", help="delete the paper's note")
    parser = command("status", "set the reading status of papers (the status is the last word)")
    parser.add_argument("ids", nargs="+", metavar="ID")
    parser.add_argument("status", choices=STATUSES, help="the status, the last word")
    for name, help in (("tag", "add tags to a paper"), ("untag", "remove tags from a paper")):
        parser = command(name, help)
        parser.add_argument("id")
        parser.add_argument("tags", nargs="+", metavar="TAG")
    if wanted("export"):
        from paperdeck.cli.export import add_export_arguments

        parser = command(
            "export", "export papers as BibTeX, RIS, CSL-JSON, Markdown, CSV or JSON; --user-data: a backup"
        )
        add_export_arguments(parser)
    if wanted("similar"):
        from paperdeck.cli.similar import add_similar_arguments

        parser = command("similar", "the papers most like ID, or (--starred) most like the starred ones")
        add_similar_arguments(parser)
    if wanted("follow", "unfollow", "following"):
        from paperdeck.cli.follows import add_follow_arguments

        for name, help in (
            (
                "follow",
                "follow an author, a keyword or a query: its papers are marked, and imports say what is new for it",
            ),
            ("unfollow", "stop following an author, a keyword or a query"),
        ):
            add_follow_arguments(command(name, help))
        command("following", "list what you follow, each with how many papers it matches")
    if wanted("changes"):
        from paperdeck.cli.changes import add_changes_arguments

        parser = command("changes", "what imports changed since a date: decisions, ratings by review, reviews, titles")
        add_changes_arguments(parser)
    if wanted("remove"):
        from paperdeck.cli.removing import add_remove_arguments

        parser = command(
            "remove", "remove papers (ids or a query) from the store, keeping your marks on them; --undo takes it back"
        )
        add_remove_arguments(parser)
    if wanted("plan"):
        from paperdeck.cli.plan import add_plan_arguments

        parser = command(
            "plan", "my schedule: the starred and to-read papers' events by day, session and poster; clashes flagged"
        )
        add_plan_arguments(parser)
    if wanted("fetch"):
        from paperdeck.cli.fetch import add_fetch_arguments

        parser = command("fetch", "fetch a conference from OpenReview or Paper Copilot (all or nothing)")
        add_fetch_arguments(parser)
    if wanted("completion", "man"):
        from paperdeck.cli.shell import add_shell_commands

        add_shell_commands(commands)
