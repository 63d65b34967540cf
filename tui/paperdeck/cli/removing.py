"""``paperdeck remove ID|QUERY…`` and the undo of the last import or removal (``paperdeck import
--undo``, ``paperdeck remove --undo``).

A removal names papers by id (any id ``show`` takes) or by a query in the filter bar's language,
shows what it will remove, and asks before removing more than :data:`ASK_ABOVE` papers by id, or
more than one by a query (a query is fuzzy; a blank one, naming every paper, is refused). ``--yes``
answers for it; without a terminal to ask on it refuses. The user's marks on removed papers stay
in the user store (and its backup): importing a paper again brings them back.
"""

from __future__ import annotations

import argparse
import sys

from paperdeck.cli.output import emit, paper_rows, papers_text
from paperdeck.cli.selecting import select_ids
from paperdeck.model.errors import NothingToDo, PaperdeckError
from paperdeck.model.safe_text import one_line
from paperdeck.store.store import Store

#: A removal of more papers than this is confirmed first (``--yes``, or a ``y`` on the terminal).
ASK_ABOVE = 50
#: Papers listed before a removal (the others are counted).
_SHOWN = 20


class NotRemoved(PaperdeckError):
    """A removal that was not made: no papers named, or it was not confirmed (a query that
    matches no paper is nothing to do: :class:`~paperdeck.model.errors.NothingToDo`)."""


class NotUndone(PaperdeckError):
    """An undo that needs ``--yes`` (a backup restore came after the change) was not given it."""


def add_remove_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``remove``'s arguments."""
    parser.add_argument(
        "targets",
        nargs="*",
        metavar="ID|QUERY",
        help="paper ids, or a query as typed in the filter bar (its words may be given apart)",
    )
    parser.add_argument(
        "--yes", action="store_true",
        help=f"remove without asking: more than {ASK_ABOVE} papers by id, or more than one by a query",
    )  # fmt: skip
    parser.add_argument("--undo", action="store_true", help="take back the last removal instead")


def chosen_ids(store: Store, targets: list[str]) -> tuple[list[str], bool]:
    """The papers ``targets`` name, and whether a query named them: each an id (canonical, an
    alias, a bare forum id or an OpenReview link) when every one of them is; else all of them as
    one query, ranked as the filter bar ranks it (typos and prefixes too).

    Raises:
        BadQuery: the query cannot be parsed.
        NotRemoved: the query is blank (it would name every paper).
    """
    papers = [store.paper_named(target) for target in targets]
    if all(paper is not None for paper in papers):
        return list(dict.fromkeys(paper.id for paper in papers if paper is not None)), False
    query = " ".join(targets)
    if not query.strip():
        raise NotRemoved("an empty query names every paper; name the papers to remove (ids or a query); "
                         "nothing was removed")  # fmt: skip
    return select_ids(store, query), True


def cmd_remove(store: Store, args: argparse.Namespace) -> int:
    """Remove the papers named (or, with ``--undo``, take back the last removal)."""
    if args.undo:
        if args.targets:
            raise NotRemoved("remove --undo takes no ids or query; nothing was changed")
        return cmd_undo(store, args, "remove")
    if not args.targets:
        raise NotRemoved("name the papers to remove: ids, or a query (paperdeck remove --help)")
    ids, by_query = chosen_ids(store, args.targets)
    if not ids:
        raise NothingToDo(f"no paper matches {' '.join(args.targets)!r}; nothing was removed")  # exit status 1
    papers = [paper for pid in ids if (paper := store.paper(pid)) is not None]
    if not args.json:
        shown = paper_rows(store, papers[:_SHOWN])
        if len(papers) > _SHOWN:
            shown.append(f"… and {len(papers) - _SHOWN:,} more")
        print("\n".join(one_line(line) for line in shown), file=sys.stderr)
    # A query is fuzzy (a title's words find other papers too): more than one paper is asked for.
    if len(papers) > (1 if by_query else ASK_ABOVE) and not args.yes:
        _confirm(len(papers), by_query)
    from paperdeck.cli.caches import caches_key, save_caches

    before = caches_key(store)
    report = store.remove_papers(ids)
    save_caches(store, before)
    removed = len(report.removed)
    lines = [
        f"Removed {papers_text(removed)}; `paperdeck remove --undo` takes it back. Your stars, notes, "
        f"statuses and tags on them are kept. The store holds {papers_text(store.paper_count)}.",
        *report.notices,
    ]
    data = {"removed": list(report.removed), "missing": list(report.missing), "notices": list(report.notices),
            "papers": store.paper_count}  # fmt: skip
    emit(args, data, "\n".join(lines))
    return 0


def _confirm(count: int, by_query: bool) -> None:
    """Ask on the terminal before removing ``count`` papers (named by a query when ``by_query``).

    Raises:
        NotRemoved: no terminal to ask on, or the answer was not yes.
    """
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        limit = "papers a query names" if by_query else f"more than {ASK_ABOVE}"
        raise NotRemoved(f"this would remove {papers_text(count)}; add --yes to remove {limit}; "
                         "nothing was removed")  # fmt: skip
    print(f"Remove {papers_text(count)}? [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        raise NotRemoved("nothing was removed")


def cmd_undo(store: Store, args: argparse.Namespace, what: str) -> int:
    """Take back the last change when it was a ``what`` (``"import"`` or ``"remove"``); say
    which command takes it back when it was the other kind. When a backup restore came after it
    (not undoable), only with ``--yes``, and the line says the restore stays.

    Raises:
        NothingToUndo: there is none (the last change was of the other kind, or none is left):
            nothing to do, exit status 1.
        NotUndone: a restore came after it and ``--yes`` was not given (exit status 2).
        StoreError: the catalogue changed since (nothing was changed), or cannot be written.
    """
    from paperdeck.store.undo import NothingToUndo, restore_came_after, restore_stays

    point = store.undo_point
    if point is None:
        raise NothingToUndo(f"nothing to undo: no {_BARE[what]} to take back (the last one is kept, and undone once)")
    if point.what != what:
        command = "import --undo" if point.what == "import" else "remove --undo"
        raise NothingToUndo(
            f"the last change was {_NOUN[point.what]} ({point.summary}), not {_NOUN[what]}: "
            f"`paperdeck {command}` takes it back; nothing was changed"
        )
    restore = restore_came_after(point)
    if restore and not args.yes:
        raise NotUndone(
            f"{restore}: `paperdeck {'import' if what == 'import' else 'remove'} --undo --yes` takes {_NOUN[what]} "
            "back; nothing was changed"
        )
    from paperdeck.cli.caches import caches_key, save_caches

    before = caches_key(store)
    report = store.undo_last_change()
    save_caches(store, before)
    when = report.at[:16].replace("T", " ")
    parts = []
    if report.restored:
        parts.append(f"{papers_text(len(report.restored))} back")
    if report.taken_away:
        parts.append(f"{papers_text(len(report.taken_away))} taken away")
    if report.reverted:
        parts.append(f"{papers_text(report.reverted)} set back as they were")
    if report.reviews_text:
        parts.append(report.reviews_text)
    done = "; ".join(parts) or "no paper changed"
    lines = [
        f"Undid {_NOUN[what]} of {when} UTC ({report.summary}): {done}. "
        f"The store holds {papers_text(store.paper_count)}.",
        *report.notices,
        *([stays] if (stays := restore_stays(point)) else []),
    ]
    data = {"undone": what, "at": report.at, "summary": report.summary, "restored": list(report.restored),
            "taken_away": list(report.taken_away), "reverted": report.reverted,
            "reviews_taken_away": report.reviews_taken_away, "notices": list(report.notices),
            "papers": store.paper_count, "restore_kept": point.restored_at}  # fmt: skip
    emit(args, data, "\n".join(lines))
    return 0


_NOUN = {"import": "the import", "remove": "the removal"}
_BARE = {"import": "import", "remove": "removal"}
