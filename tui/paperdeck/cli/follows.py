"""``paperdeck follow``, ``unfollow`` and ``following``: the authors, keywords and queries the user
follows (:mod:`paperdeck.store.follows`, matched by :mod:`paperdeck.search.follows`), and the line
an import prints about the new papers they match."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from paperdeck.cli.output import emit, print_error
from paperdeck.store.follows import FOLLOW_KINDS, Follow
from paperdeck.store.store import Store


def add_follow_arguments(parser: argparse.ArgumentParser) -> None:
    """``KIND VALUE…`` of ``follow`` and ``unfollow`` (the words of VALUE are joined by spaces)."""
    parser.add_argument("kind", choices=FOLLOW_KINDS, help="what to follow")
    parser.add_argument(
        "value", nargs="+", help="the author's name, the keyword, or the query (or a saved view's name)"
    )


def _follow_record(follow: Follow, papers: int | None = None) -> dict[str, Any]:
    record: dict[str, Any] = follow.to_dict()
    if papers is not None:
        record["papers"] = papers
    return record


def cmd_follow(store: Store, args: argparse.Namespace) -> int:
    """Follow an author, a keyword or a query (``already following …`` when it was; exit status 0);
    a value that cannot be followed is one line on standard error, exit status 2, nothing written."""
    from paperdeck.search.follows import check_follow

    try:
        kind, value = check_follow(args.kind, " ".join(args.value), _views(store))
        added = store.follows.add(kind, value)
    except ValueError as error:
        print_error(f"cannot follow {args.kind} {' '.join(args.value)!r}: {error}")
        return 2
    follow = added or next(f for f in store.follows.all() if f.key == Follow(kind, value).key)
    papers = _counts(store, [follow])[follow]
    said = "following" if added is not None else "already following"
    shown = f"{said} {follow.label} ({papers:,} paper{'' if papers == 1 else 's'} now)"
    emit(args, _follow_record(follow, papers), shown)
    return 0


def cmd_unfollow(store: Store, args: argparse.Namespace) -> int:
    """Stop following (``not following …`` when it was not; exit status 0 either way). The value
    is read as ``follow`` reads it (a saved view's name is its query), else as given."""
    from paperdeck.search.follows import check_follow

    value = " ".join(args.value)
    gone = store.follows.remove(args.kind, value)
    if gone is None:
        try:
            _, cleaned = check_follow(args.kind, value, _views(store))
        except ValueError:
            cleaned = value
        gone = store.follows.remove(args.kind, cleaned) if cleaned != value else None
    shown = f"unfollowed {gone.label}" if gone is not None else f"not following {Follow(args.kind, value).label}"
    emit(args, {"removed": _follow_record(gone) if gone is not None else None}, shown)
    return 0


def cmd_following(store: Store, args: argparse.Namespace) -> int:
    """List the follows, each with how many papers of the store it matches."""
    follows = store.follows.all()
    counts = _counts(store, follows)
    data = [_follow_record(follow, counts[follow]) for follow in follows]
    lines = (
        [f"{'papers':>7}  follow", *(f"{counts[f]:>7,}  {f.label}" for f in follows)]
        if follows
        else ["nothing followed yet: paperdeck follow author NAME"]
    )
    emit(args, data, "\n".join(lines))
    return 0


def _views(store: Store) -> dict[str, str]:
    """The views by name (built-in and saved: :func:`paperdeck.search.views.all_views`) → query."""
    from paperdeck.search.views import all_views
    from paperdeck.store.settings import SettingsFile

    return {view.name: view.query for view in all_views(SettingsFile(store.data_dir).settings.views)}


def _counts(store: Store, follows: Iterable[Follow]) -> dict[Follow, int]:
    from paperdeck.search.follows import matches
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import follow_lookups

    follows = list(follows)
    counts = dict.fromkeys(follows, 0)
    if follows and not store.is_empty:
        for found in matches(follow_lookups(Searcher(store)), follows).values():
            for follow in found:
                counts[follow] += 1
    return counts


def followed_news(store: Store, new_ids: tuple[str, ...]) -> tuple[str | None, dict[str, Any] | None]:
    """What an import's new papers ``new_ids`` hold for the follows: the summary's line
    (``"followed: 3 new papers (author Jane Doe 2, keyword diffusion 1)"``) and its JSON
    (``{"papers": 3, "by_follow": [{"kind", "value", "papers"}…]}``); ``(None, None)`` when no
    new paper matches a follow."""
    follows = store.follows.all()
    if not follows or not new_ids:
        return None, None
    from paperdeck.search.follows import matches, new_for_follows, new_for_follows_line
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import follow_lookups

    found = matches(follow_lookups(Searcher(store)), follows, within=new_ids)
    papers, by_follow = new_for_follows(found, new_ids)
    if not papers:
        return None, None
    data = {"papers": papers, "by_follow": [_follow_record(f, n) for f, n in by_follow]}
    return new_for_follows_line(found, new_ids), data
