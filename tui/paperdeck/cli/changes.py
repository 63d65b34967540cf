"""``paperdeck changes [--since DATE] [--mark-seen] [--json]``: what imports and fetches changed,
paper by paper; ``--mark-seen`` marks every change seen (the app's "What changed" is then empty).

Each paper's changes in the span are summed into one (:meth:`Store.changes_by_paper
<paperdeck.store.store.Store.changes_by_paper>`): its decision old → new, its mean rating's move and
each review's rating and confidence old → new by review note id, reviews added or removed, a new
title or abstract. A paper changed since the user last opened it (``•``, as the app marks it) is
listed even when its changes over the span cancel out, with what changed since that look. Papers
come latest changed first. Every text from a file (titles, review
signatures, decisions) goes through :mod:`paperdeck.model.safe_text`; titles are rendered as
``search`` and ``show`` print them (:func:`~paperdeck.model.safe_text.shown_line`).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from paperdeck.cli.output import emit
from paperdeck.model.safe_text import one_line, shown_line
from paperdeck.store.store import Store

if TYPE_CHECKING:
    from paperdeck.model.changes import PaperChange

__all__ = ["add_changes_arguments", "cmd_changes", "since_time"]


def since_time(text: str) -> str:
    """``--since``'s value as ISO 8601 UTC text: a date (``2026-11-29``: its start, in UTC) or a
    date and time (``2026-11-29T18:00``, ``2026-11-29 18:00+01:00``; without an offset: UTC).

    Raises:
        argparse.ArgumentTypeError: not a date (the one-line hint argparse prints).
    """
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        hint = f"not a date: {one_line(text)!r} (e.g. 2026-11-29 or 2026-11-29T18:00)"
        raise argparse.ArgumentTypeError(hint) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def add_changes_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``changes``' arguments."""
    parser.add_argument(
        "--since", type=since_time, default=None, metavar="DATE",
        help="only changes recorded at or after DATE (2026-11-29, or with a time; default: all)",
    )  # fmt: skip
    parser.add_argument(
        "--mark-seen", action="store_true",
        help="mark every change seen: the app's What changed is empty until the next import",
    )  # fmt: skip


def cmd_changes(store: Store, args: argparse.Namespace) -> int:
    """Print the changes recorded since ``--since`` (all by default), one paper at a time; with
    ``--mark-seen``, mark them all seen instead and say how many papers were changed."""
    if getattr(args, "mark_seen", False):
        cleared = store.mark_all_seen()  # StoreError: the one-line error of every command
        were = "1 paper was" if cleared == 1 else f"{cleared:,} papers were"
        emit(args, {"marked_seen": cleared}, f"marked every change seen ({were} changed)")
        return 0
    since = args.since or ""
    by_paper = store.changes_by_paper(since)
    unseen = store.changed_since_looked()
    # A paper the app marks changed is always listed: where its changes over the span cancel out
    # (a rating moved and moved back), with what changed since the user last opened it.
    missing = [pid for pid in unseen if pid not in by_paper]
    if missing:
        from paperdeck.model.changes import combined

        recorded = store.changes(since)
        for paper_id in missing:
            looked = store.user_data(paper_id).looked
            recent = combined(c for c in recorded if c.paper_id == paper_id and c.at > looked)
            if recent is not None:
                by_paper[paper_id] = recent
        by_paper = dict(sorted(by_paper.items(), key=lambda item: item[1].at, reverse=True))
    by_paper = _baseline_folded(store, since, by_paper, unseen)
    items: list[dict[str, Any]] = []
    lines: list[str] = []
    for paper_id, change in by_paper.items():
        paper = store.paper(paper_id)
        title = paper.title if paper is not None else ""
        items.append({**change.public_dict(), "title": title, "unseen": paper_id in unseen})
        mark = "•" if paper_id in unseen else " "
        lines.append(f"{mark} {paper_id}  {shown_line(title) if paper is not None else '(no longer in the store)'}")
        lines += [f"      {one_line(line)}" for line in change.lines()]
    if not lines:
        lines = ["no changes recorded" + (f" since {since}" if since else "")]
    else:
        # a paper first seen by an import is new, not changed: counted apart
        new = sum(1 for change in by_paper.values() if change.new and not change.first)
        first = sum(1 for change in by_paper.values() if change.first and change.new)
        seen = sum(1 for change in by_paper.values() if change.first and not change.new)
        plural = {1: ""}
        counted = [text.format(count=f"{count:,}", s=plural.get(count, "s"))
                   for count, text in ((len(items) - new - first - seen, "{count} paper{s} changed"),
                                       (new, "{count} new paper{s}"), (first, "{count} first imported"),
                                       (seen, "{count} as first seen"))
                   if count]  # fmt: skip
        lines.append(f"{', '.join(counted)}; • not opened since")
    emit(args, {"since": since or None, "papers": items}, "\n".join(lines))
    return 0


def _baseline_folded(
    store: Store, since: str, by_paper: dict[str, PaperChange], unseen: dict[str, frozenset[str]]
) -> dict[str, PaperChange]:
    """``by_paper`` as the detail pane's history says it (:func:`~paperdeck.model.changes.with_baseline`):
    a paper's changes from the imports before the app first opened the store are its first
    imports, not news: a paper changed only by them is one ``first imported …`` line, one changed
    later too lists only what changed later. A paper the app marks changed keeps its entry."""
    from paperdeck.model.changes import RATING_UNKNOWN, combined, in_baseline, with_baseline

    baseline = store.changes_baseline()
    grouped: dict[str, list[PaperChange]] = {}
    for change in store.changes(since):
        if change.paper_id in by_paper:
            grouped.setdefault(change.paper_id, []).append(change)
    folded: dict[str, PaperChange] = {}
    for paper_id, change in by_paper.items():
        items = grouped.get(paper_id)
        if not items or not in_baseline(items[0], baseline):
            folded[paper_id] = change
            continue
        row = store.row(paper_id)
        history = with_baseline(items, baseline, row.rating if row is not None else RATING_UNKNOWN)
        later = combined(history[1:])
        folded[paper_id] = later if later is not None else change if paper_id in unseen else history[0]
    return folded
