"""``paperdeck fetch SOURCE…``: get a conference from OpenReview or Paper Copilot into the store.

::

    paperdeck fetch iclr2026                   ICLR 2026 from OpenReview: submissions with their reviews
    paperdeck fetch NeurIPS.cc/2025/Conference any OpenReview venue id (its group read first)
    paperdeck fetch tmlr                       a rolling journal (TMLR/-/Submission)
    paperdeck fetch iclr2017                   a venue only the old API host holds
    paperdeck fetch papercopilot:colm2025      Paper Copilot's list, by the venue's folder (no login)
    paperdeck fetch 'arxiv:ti:diffusion'       an arXiv API query: its newest 200 results (no login)
    paperdeck fetch iclr2026:schedule          the programme from the conference's site (--site URL)

All pages first, then one import (:mod:`paperdeck.fetch.run`): a fetch that fails changes nothing
and keeps its pages, and the same command resumes. The login comes from ``OPENREVIEW_USERNAME`` /
``OPENREVIEW_PASSWORD``, else a prompt on a terminal; the token is kept in the system keyring or a
``0600`` file in the data directory. A Rich progress bar (pages, notes, ETA) on a terminal, then
the import's (the pages read, as ``paperdeck import`` shows its files). ``--deadline``,
``--request-deadline`` and ``--read-timeout`` bound the time (see ``docs/fetching.md``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from paperdeck.cli.caches import caches_key, said_saved_when_interrupted, save_caches
from paperdeck.cli.output import emit, papers_text
from paperdeck.fetch.client import Limits
from paperdeck.fetch.credentials import Credentials
from paperdeck.fetch.run import (
    OPENREVIEW_URL_ENV,
    PAGE_SIZE,
    PAPERCOPILOT_URL_ENV,
    SCHEDULE_URL_ENV,
    FetchOptions,
    FetchProgress,
    fetch,
)
from paperdeck.fetch.venues import FetchSource, parse_source
from paperdeck.model.safe_text import one_line, visible
from paperdeck.store.store import Store


def add_fetch_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``fetch``'s arguments on its subparser (which has ``--json`` and ``--data-dir``)."""
    parser.add_argument(
        "sources", nargs="+", metavar="SOURCE",
        help="iclr2026-style short names (iclr, neurips, icml, colm, …; tmlr), OpenReview venue ids (the "
        "venue's group is read first; the old API host is tried for older venues), papercopilot:colm2025, arxiv:QUERY, "
        "iclr2026:schedule (the programme, joined to the papers in the store)",
    )  # fmt: skip
    parser.add_argument(
        "--budget", type=int, default=Limits().budget, metavar="N",
        help=f"most requests in this run (default {Limits().budget}); the rest resumes next time",
    )  # fmt: skip
    parser.add_argument(
        "--page-size", type=_page_size, default=PAGE_SIZE, metavar="N",
        help=f"OpenReview notes per request, 1 to {PAGE_SIZE} (default {PAGE_SIZE}: the fewest requests)",
    )  # fmt: skip
    defaults = Limits()
    parser.add_argument(
        "--deadline", type=_seconds, default=defaults.deadline_s, metavar="S",
        help=f"seconds the whole fetch may take, retries included (default {defaults.deadline_s:g}); past it "
        "the fetch stops and the next run resumes",
    )  # fmt: skip
    parser.add_argument(
        "--request-deadline", type=_seconds, default=defaults.request_deadline_s, metavar="S",
        help=f"seconds one request may take with its whole answer (default {defaults.request_deadline_s:g}); "
        "a slower one is tried again",
    )  # fmt: skip
    parser.add_argument(
        "--read-timeout", type=_seconds, default=defaults.timeout_s, metavar="S",
        help=f"seconds to wait for each read from the server (default {defaults.timeout_s:g})",
    )  # fmt: skip
    parser.add_argument(
        "--site", metavar="URL", default=None,
        help=f"the site a CONFYEAR:schedule programme is fetched from (default ${SCHEDULE_URL_ENV}, else the "
        "conference's own, e.g. https://iclr.cc)",
    )  # fmt: skip
    parser.add_argument(
        "--progress-json", action="store_true",
        help="one JSON object a line on standard error for each step ({stage, source, pages, notes, total, "
        "requests}), instead of the progress bar: for a program watching the fetch",
    )  # fmt: skip
    parser.epilog = (
        f"Base URLs: ${OPENREVIEW_URL_ENV} (default the public API v2), ${PAPERCOPILOT_URL_ENV} (default "
        "Paper Copilot's raw files), $PAPERDECK_ARXIV_URL (default the arXiv API), "
        f"${SCHEDULE_URL_ENV} (or --site: the programmes' site; default the conference's). "
        "Login: $OPENREVIEW_USERNAME and $OPENREVIEW_PASSWORD, else a prompt."
    )


def _page_size(text: str) -> int:
    """``--page-size``: an int from 1 to :data:`PAGE_SIZE`."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= PAGE_SIZE:
        raise argparse.ArgumentTypeError(f"expected a number from 1 to {PAGE_SIZE}, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """``--deadline`` and the like: a number of seconds above 0 (at most a week)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"expected seconds, a number above 0, got {text!r}")
    return value


def _prompt() -> Credentials | None:
    """Ask for the OpenReview login on the terminal; ``None`` when none is given."""
    import getpass

    print("OpenReview asks for a login (the password is not stored).", file=sys.stderr)
    username = input("OpenReview user name (e-mail): ").strip()
    password = getpass.getpass("OpenReview password: ")
    return Credentials(username, password) if username and password else None


def _progress_line(state: FetchProgress) -> None:
    """``--progress-json``: ``state`` as one JSON line on standard error (text through the sanitiser)."""
    import json

    line = {"stage": state.stage, "source": one_line(state.source), "pages": state.pages, "notes": state.notes,
            "total": state.total, "requests": state.requests, "read": state.read}  # fmt: skip
    print(json.dumps(line), file=sys.stderr, flush=True)


def print_notice(line: str) -> None:
    """``paperdeck: LINE`` on standard error (what a fetch waits for: a server asked, a retry)."""
    print(f"paperdeck: {visible(one_line(line))}", file=sys.stderr, flush=True)


def run_fetch(store: Store, args: argparse.Namespace) -> int:
    """Run ``paperdeck fetch`` (see the module docstring).

    Raises:
        UnknownSource: a source names no venue.
        FetchError: a source cannot be fetched (nothing was imported).
        SourceError, StoreError: as ``paperdeck import``.
    """
    sources = [parse_source(text) for text in args.sources]
    limits = Limits(
        budget=max(1, args.budget), deadline_s=args.deadline, request_deadline_s=args.request_deadline,
        timeout_s=args.read_timeout, connect_timeout_s=min(Limits().connect_timeout_s, args.read_timeout),
    )  # fmt: skip
    prompt = _prompt if sys.stdin.isatty() and sys.stderr.isatty() else None
    site = {"schedule_url": args.site} if getattr(args, "site", None) else {}
    before = caches_key(store)
    # A Ctrl-C once a source is imported (the next source, the indexes, the statistics) says so.
    with said_saved_when_interrupted(store, before, "what was fetched and imported so far"):
        return _fetch_and_report(store, args, sources, limits, prompt, site, before)


def _fetch_and_report(
    store: Store, args: argparse.Namespace, sources: list[FetchSource], limits: Limits,
    prompt: Callable[[], Credentials | None] | None, site: dict[str, Any], before: tuple[object, object],
) -> int:  # fmt: skip
    """:func:`run_fetch`'s fetch of ``sources``, the caches it makes stale saved, and its report."""
    if args.progress_json:
        summary = fetch(store, sources, FetchOptions(limits=limits, page_size=args.page_size, **site), _progress_line)
    elif sys.stderr.isatty() and not args.json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("fetching", total=None)

            def ask() -> Credentials | None:  # the bar stands aside while the user types
                bar.stop()
                try:
                    return _prompt()
                finally:
                    bar.start()

            def notice(line: str) -> None:  # kept above the bar, which says it too
                from rich.markup import escape

                bar.console.print(escape(f"paperdeck: {visible(one_line(line))}"), highlight=False)
                bar.update(task, description=escape(one_line(line)[:60]))

            options = FetchOptions(
                limits=limits, page_size=args.page_size, prompt=ask if prompt else None, notice=notice, **site
            )

            def report(state: FetchProgress) -> None:
                from rich.markup import escape

                what = escape(one_line(state.source))
                if state.stage == "importing":  # the import's bar: the pages read, then the merge
                    doing = "merging" if state.read >= state.pages else f"reading page {state.read + 1:,} of"
                    text = f"importing {what}: {doing} {state.pages:,} pages, {state.notes:,} notes"
                    bar.update(task, description=text, completed=state.read, total=state.pages + 1)
                    return
                text = f"{state.stage} {what}: {state.pages:,} pages, {state.requests:,} requests, notes"
                bar.update(task, description=text, completed=state.notes, total=state.total)

            summary = fetch(store, sources, options, report)
            bar.update(task, description="indexing for search and similar papers")
            save_caches(store, before)  # as `paperdeck import`: the indexes and statistics saved for the app
    else:
        options = FetchOptions(limits=limits, page_size=args.page_size, prompt=prompt, notice=print_notice, **site)
        summary = fetch(store, sources, options)
    if args.progress_json or not (sys.stderr.isatty() and not args.json):
        save_caches(store, before)
    imported = summary.imported
    data = {
        "sources": list(summary.sources),
        "pages": summary.pages,
        "notes": summary.notes,
        "requests": summary.requests,
        "resumed_pages": summary.resumed,
        "new": imported.new,
        "updated": imported.updated,
        "unchanged": imported.unchanged,
        "skipped": dict(imported.skipped),
        "papers": len(store.papers),
        "summary": summary.summary(),
        "notices": [one_line(line) for line in summary.notices],
    }
    if imported.reviews is not None:
        r = imported.reviews
        data["reviews"] = {"new": r.new, "updated": r.updated, "unchanged": r.unchanged, "papers": r.papers}
    if imported.schedule is not None:
        sched = imported.schedule
        data["schedule"] = {"events": sched.events, "papers": sched.papers, "removed": sched.removed,
                            "unmatched": [{"id": e.event_id, "title": e.title, "forum": e.forum_id}
                                          for e in sched.unmatched]}  # fmt: skip
    emit(args, data, f"{summary.summary()}. The store holds {papers_text(len(store.papers))}.")
    return 0
