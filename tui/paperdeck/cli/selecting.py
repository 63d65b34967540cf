"""Which papers a subcommand names: an id the user typed, a query in the filter bar's language, a
``--limit``."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import file_name, one_line
from paperdeck.store.store import Store


class NotFound(PaperdeckError):
    """No paper has the id the user gave."""


class BadQuery(PaperdeckError):
    """The query cannot be parsed (the filter bar's syntax)."""


def add_query_argument(parser: argparse.ArgumentParser, *, required: bool, default_help: str = "") -> None:
    """Declare the ``QUERY`` of a command that takes the filter bar's query (``search``,
    ``export``): its words may be given apart (``paperdeck export diffusion model``) and are joined
    by spaces (:func:`query_text`), one that begins with ``-`` is a query word
    (``-decision:withdrawn``). Every command taking a query declares it here, so that they take it
    alike (the shell completions, made from the parsers, follow)."""
    words = "its words may be given apart"
    parser.add_argument(
        "query",
        nargs="+" if required else "*",
        metavar="QUERY",
        help=f"the query, as typed in the filter bar ({words}){default_help}",
    )


def query_text(args: argparse.Namespace) -> str:
    """The query of :func:`add_query_argument`, its words joined by spaces (``""``: none)."""
    return " ".join(args.query)


def find_paper(store: Store, given: str) -> Paper:
    """The paper with id ``given``: canonical (``openreview:X``), an older alias, a bare forum id,
    or the paper's OpenReview forum or PDF link (:meth:`Store.paper_named`).

    Raises:
        NotFound: no such paper (or no store at the data directory).
    """
    paper = store.paper_named(given)
    shown = f"'{one_line(given.strip())}'"  # as the sanitiser shows it: no raw newline or escape
    if paper is None and not store.data_dir.exists():
        raise NotFound(f"no store at {file_name(store.data_dir)}, so no paper with id {shown}")
    if paper is None:
        raise NotFound(f"no paper with id {shown} (try `paperdeck search`)")
    return paper


class UnknownVenue(PaperdeckError):
    """A ``--venue`` names no venue of the store."""


def add_venue_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--venue`` (repeatable) on a subcommand that selects papers."""
    parser.add_argument(
        "--venue",
        action="append",
        default=[],
        metavar="VENUE",
        help='only the papers of this venue: its name as the venue picker shows it ("COLM 2025", any case), '
        "else every venue it starts a word of, as venue: does (colm, 2019); repeat for several "
        "(default: every venue: the app's scope is not used here)",
    )


def add_import_venue_option(parser: argparse.ArgumentParser) -> None:
    """Declare ``--venue NAME`` where files are imported (``paperdeck import`` and the bare
    launcher ``paperdeck FILE…``, one declaration for both): the venue of the papers whose file
    names none (:func:`venue_label`)."""
    parser.add_argument(
        "--venue",
        type=venue_label,
        help='the venue of the papers whose file names none ("COLM 2025", "TMLR"): a Paper Copilot '
        "list renamed, a CSV without a venue column; a paper whose file names its venue keeps it",
    )


def add_sort_option(parser: argparse.ArgumentParser, default: str) -> None:
    """Declare ``--sort ORDER`` on a subcommand that lists papers: the app's sort orders (``O``),
    their keys and names from the one declaration of them (:data:`~paperdeck.store.settings.SORTS`,
    :data:`~paperdeck.store.settings.SORT_LABELS`), so that the shell completions, the help and the
    app cannot differ; a former key (``SORT_ALIASES``) is still taken as the order it names now.
    ``default`` says what the order is without the option. The app has no
    reversed order (a rise and a fall are orders of their own): no ``--reverse``."""
    from paperdeck.store.settings import SORT_LABELS, SORTS, sort_key

    named = ", ".join(key if SORT_LABELS[key] == key else f"{key} ({SORT_LABELS[key]})" for key in SORTS)
    # A former key (SORT_ALIASES) is read as the order it names now, before the choices are checked.
    parser.add_argument(
        "--sort", type=sort_key, choices=SORTS, metavar="ORDER", help=f"the app's sort order: {named}; {default}"
    )


def venue_scope(store: Store, given: list[str]) -> frozenset[str]:
    """The scope ``--venue`` values name (:mod:`paperdeck.search.venues`; empty: every venue):
    each value the venue of the store it names whatever its case and spacing, else every venue it
    starts a word of, as a ``venue:`` term matches (``colm`` → COLM 2025, ``2019`` → CVPR 2019
    and ICML 2019, ``"iclr 20"`` → every ICLR from 2000 on).

    Raises:
        UnknownVenue: a value names no venue of the store (the message lists them).
    """
    if not given:
        return frozenset()
    from paperdeck.model.ids import canonical_venue_label
    from paperdeck.search.venues import venue_counts, venue_name

    held = {" ".join(venue.casefold().split()): venue for venue in venue_counts(store)}
    scope = set()
    for value in given:
        venue = held.get(" ".join(value.casefold().split())) or held.get(
            " ".join(canonical_venue_label(" ".join(value.split())).casefold().split())
        )
        found = {venue} if venue is not None else _starting(held.values(), value)
        if not found:
            known = ", ".join(repr(venue_name(v)) for v in held.values() if v) or "none"
            raise UnknownVenue(f"--venue {value!r}: no such venue in the store (its venues: {known})")
        scope |= found
    return frozenset(scope)


def _starting(venues: Iterable[str], value: str) -> set[str]:
    """The ``venues`` ``value`` starts a word of (as a ``venue:`` term matches them)."""
    from paperdeck.search.corpus import text_has

    return {venue for venue in venues if venue and value.strip() and text_has(venue, value)}


def select_ids(store: Store, text: str, order: str = "relevance", scope: frozenset[str] = frozenset()) -> list[str]:
    """Paper ids for a query in the filter bar's language, as the filter bar ranks and sorts them,
    within the venue ``scope`` (empty: every venue); none from a store with no papers (whatever
    the query names, once it parses). How the query was read, when the filter bar's counts would
    say it (:attr:`Query.note <paperdeck.search.query.Query.note>`: an unknown field searched as
    text, ``a b OR c``), is one line on standard error.

    Raises:
        BadQuery: the query cannot be parsed.
        LikeError: a ``like:`` term names no paper, or nothing is starred for ``like:starred``
            (never from an empty store).
    """
    from paperdeck.cli.output import print_error
    from paperdeck.search.searcher import Searcher

    # Builds only the indexes the query needs; a saved index it could not use is said once.
    searcher = Searcher(store, notice=print_error)
    if text.strip():  # the saved index's pages read and checked in a thread while the query is parsed
        searcher.read_ahead()
    from paperdeck.search.query import parse_query
    from paperdeck.search.selection import run_query

    query = parse_query(text)
    if query.error is not None:
        raise BadQuery(f"query {text!r}: {query.error}")
    if query.note is not None:  # how it was read (an unknown field searched as text…), as the counts say it
        print_error(f"query {text!r}: {query.note}")
    if store.is_empty:
        return []
    found = run_query(searcher, query, order, scope)
    return found if isinstance(found, list) else list(found)


def venue_label(text: str) -> str:
    """An ``import --venue`` value: a venue's name as the picker shows it (``"COLM 2025"``), one
    line of printable text of at most 200 characters (a paper's venue's limit), white space
    collapsed."""
    label = " ".join(text.split())
    if not label:
        raise argparse.ArgumentTypeError('a venue\'s name, as "COLM 2025" or "TMLR"')
    if one_line(label) != label or not label.isprintable():
        raise argparse.ArgumentTypeError(f"not a venue's name: {one_line(label)[:60]!r}")
    if len(label) > 200:
        raise argparse.ArgumentTypeError(f"a venue's name of {len(label):,} characters; at most 200")
    return label


def limit(text: str) -> int:
    """A ``--limit`` value: a whole number ≥ 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (all) or more, not {value}")
    return value
