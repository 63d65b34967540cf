"""``paperdeck similar``: the papers most like one, or the list ranked by likeness to the starred.

::

    paperdeck similar ID [--limit N]         the papers most like ID (TF-IDF cosine)
    paperdeck similar --starred [--limit N]  papers not starred, most like the starred ones first
    … --venue VENUE                          only the papers of that venue (repeatable)

Each row is the cosine (0-1), the marks, the id, the decision and the title. With ``--json``: an
array of paper objects (as ``paperdeck list --json``) with a ``similarity`` key. The index
(:mod:`paperdeck.search.similar`) is read from the one ``paperdeck import`` saved beside the
catalogue when it matches the catalogue, else built, and saved for the next run.
"""

from __future__ import annotations

import argparse

from paperdeck.cli.output import emit, paper_rows
from paperdeck.cli.selecting import add_venue_option, find_paper, limit, venue_scope
from paperdeck.model.errors import NothingToDo, PaperdeckError
from paperdeck.model.paper_json import paper_record
from paperdeck.store.store import Store


class NothingToRank(PaperdeckError):
    """``similar`` was given neither a paper nor ``--starred``, or both."""


def add_similar_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``similar``'s arguments on its subparser (which has ``--json`` and ``--data-dir``)."""
    parser.add_argument("id", nargs="?", metavar="ID", help="the paper (canonical id, alias or bare OpenReview id)")
    parser.add_argument("--starred", action="store_true", help="rank the unstarred papers by likeness to the starred")
    parser.add_argument("--limit", type=limit, default=20, help="at most N papers (0: all; default 20)")
    add_venue_option(parser)


def run_similar(store: Store, args: argparse.Namespace) -> int:
    """Run ``paperdeck similar`` (see the module docstring).

    On a store with no papers, prints nothing (``[]`` with ``--json``) and returns 0, whatever
    the ID (the caller has said on standard error how to fill the store).

    Raises:
        NotFound: no paper has the id given (in a store with papers).
        NothingToRank: neither ``ID`` nor ``--starred``, or both.
        NothingToDo: ``--starred`` and nothing is starred (in a store with papers): exit status 1.
    """
    from paperdeck.search.searcher import Searcher

    if (args.id is None) == (not args.starred):
        raise NothingToRank("similar: give a paper ID or --starred (not both)")
    if store.is_empty:
        emit(args, [], "")
        return 0
    if args.starred:
        liked = [pid for pid, record in store.all_user_data.items() if record.starred]
        if not liked:
            raise NothingToDo("similar --starred: nothing is starred yet (star papers with `paperdeck star ID`)")
        scope = venue_scope(store, args.venue)
        ranked = Searcher(store).similarity.get().rank_by_liked(liked, 0 if scope else args.limit)
    else:
        paper = find_paper(store, args.id)
        scope = venue_scope(store, args.venue)
        ranked = Searcher(store).similarity.get().similar_to(paper.id, 0 if scope else args.limit)
    if scope:  # the papers of those venues alone, the best --limit of them
        from paperdeck.search.venues import within_scope

        kept = set(within_scope(store, [paper_id for paper_id, _ in ranked], scope))
        ranked = [pair for pair in ranked if pair[0] in kept]
        ranked = ranked[: args.limit] if args.limit else ranked
    records, scores, papers = [], [], []
    for paper_id, score in ranked:
        found = store.paper(paper_id)
        if found is None:
            continue
        records.append(paper_record(found, store.user_data(paper_id)) | {"similarity": round(score, 4)})
        scores.append(score)
        papers.append(found)
    lines = [f"{score:.3f} {row}" for score, row in zip(scores, paper_rows(store, papers, args.raw), strict=True)]
    emit(args, records, "\n".join(lines) if lines else "no similar papers (no words in common)")
    return 0
