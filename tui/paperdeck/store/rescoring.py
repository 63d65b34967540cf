"""A review import's new scores written into the catalogue a paper at a time, the catalogue never
parsed whole (:meth:`paperdeck.store.import_run.ImportRun.import_reviews`).

The catalogue file is read in pieces where the rows cache's spans say each paper lies; a paper
whose forum got new reviews is parsed alone, its scores and decision taken from its summary
(:func:`scored`) and its document encoded anew when that changed it; every other byte of the file
is copied as it is. The file written is byte for byte what writing the whole catalogue would give
(:meth:`~paperdeck.store.catalogue.Catalogue.replace`), and so is the rows cache beside it. What
is held is a piece of the file, the spans and the rows cache's rows, and the papers changed when
the change log needs them (:attr:`Rescore.before`, :attr:`Rescore.after`), not every paper.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import atomic_write_bytes, staged_path
from paperdeck.store.rows import (
    CatalogueSpans,
    PaperRow,
    RowColumns,
    decode_spans,
    file_stamp,
    read_rows_cache,
)
from paperdeck.store.span_read import PIECE_BYTES, bytes_between, span_bytes

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.store.catalogue import Catalogue

__all__ = ["PaperTally", "Rescore", "catalogue_forums", "rescore", "scored"]


class PaperTally(Protocol):
    """What counts every paper of the catalogue as :func:`rescore` writes it (the statistics of a
    command that counts them after the import: :class:`paperdeck.stats.cache.PaperCounts`)."""

    def add(self, paper: Paper, summary: ReviewSummary | None) -> None:
        """Count ``paper`` (as written), ``summary`` its forum's (``None``: no reviews)."""

    def done(self, stamp: Iterable[int]) -> None:
        """Every paper of the catalogue file stamped ``stamp`` was given to :meth:`add`, in order."""


#: The source :attr:`Paper.provenance <paperdeck.model.paper.Paper.provenance>` names for a field
#: the store's review notes set (:func:`scored`).
REVIEWS_SOURCE = "reviews"


def scored(paper: Paper, summary: ReviewSummary) -> Paper | None:
    """``paper`` with its ratings and confidence taken from its reviews' ``summary``, and the
    decision of a Decision note where it says more than the paper's
    (:func:`paperdeck.store.merge.decision_replaces`: never a decision replaced by none);
    ``None`` when that changes nothing. A field so changed is said to come from
    :data:`REVIEWS_SOURCE` in the paper's provenance (a tester's find: ``show --json`` named the
    Paper Copilot Parquet for ratings the review notes had set)."""
    from paperdeck.model.decision import normalise_decision
    from paperdeck.model.paper import Ratings
    from paperdeck.store.merge import decision_replaces

    changes: dict[str, Any] = {}
    if summary.count and summary.mean is not None:
        scale = summary.scale or (paper.ratings.scale if paper.ratings is not None else "")
        ratings = Ratings(summary.mean, summary.std, summary.min, summary.max, summary.count, scale)
        if ratings != paper.ratings:
            changes["ratings"] = ratings
        if summary.confidence is not None and summary.confidence != paper.confidence:
            changes["confidence"] = summary.confidence
    if summary.decision:
        decision = normalise_decision(summary.decision)
        if decision_replaces(paper.decision, decision):
            changes.update(decision=decision, decision_raw=summary.decision)
    if not changes:
        return None
    fields = set(changes)
    provenance = dict(paper.provenance)
    provenance.update(dict.fromkeys(fields, REVIEWS_SOURCE))
    changes["provenance"] = tuple(provenance.items())
    return replace(paper, **changes)


@dataclass(slots=True)
class _Layout:
    """The catalogue file as the rows cache beside it says it is: its stamp, the ids in order, each
    paper's span, the aliases, and the cache's rows, columns and venues."""

    stamp: tuple[int, int, int]
    ids: list[str]
    spans: CatalogueSpans
    rows: dict[str, Any]
    columns: RowColumns
    venues: Any
    venue_columns: dict[str, RowColumns] | None = None


def _layout(catalogue: Catalogue, *, rows: bool) -> _Layout | None:
    """The layout of the catalogue file (``rows``: with every row read), or ``None`` when it cannot
    be known exactly: the catalogue is parsed here, this transaction wrote it or the rows cache, or
    the cache is not of the file as it is, holds no spans, or not every paper's."""
    path, rows_path = catalogue.path, catalogue.rows_path
    if catalogue.loaded or staged_path(path) != path or staged_path(rows_path) != rows_path:
        return None
    stamp = file_stamp(path)  # before reading: a file replaced meanwhile has another
    cached = read_rows_cache(rows_path, path, rows=None if rows else 0)
    if stamp is None or cached is None or cached.spans_line is None:
        return None
    ids = list(cached.rows)
    spans = decode_spans(cached.spans_line, ids)
    if spans is None or (rows and cached.venues.paper_count != len(ids)):
        return None
    starts = [spans.spans[pid][0] for pid in ids]
    if any(a >= b for a, b in pairwise(starts)):  # in catalogue order, or not exact
        return None
    held = dict(cached.rows) if rows else {}
    return _Layout(stamp, ids, spans, held, cached.columns, cached.venues, cached.venue_columns)


def _documents(path: Any, layout: _Layout) -> Iterator[tuple[int, str, bytes, int, int]]:
    """Each paper's position, id, document's bytes and span, in catalogue order, the file read
    a piece at a time (each document's bytes are only valid until the next is taken).

    Raises:
        OSError: the file cannot be read, was replaced, or ends before a span."""
    spans = layout.spans.spans
    with path.open("rb") as handle:
        status = os.fstat(handle.fileno())
        if (status.st_ino, status.st_size) != (layout.stamp[0], layout.stamp[2]):
            raise OSError(f"{path} was replaced while it was read")
        ids = layout.ids
        try:
            for n, (pid, piece) in enumerate(zip(ids, span_bytes(handle, map(spans.__getitem__, ids)), strict=True)):
                start, end = spans[pid]
                yield n, pid, piece, start, end
        except EOFError:
            raise OSError(f"{path} ends before a paper's span") from None


def catalogue_forums(catalogue: Catalogue) -> set[str] | None:
    """The OpenReview forum ids of the catalogue's papers, each document parsed alone and dropped
    (no paper made, the catalogue never parsed whole); ``None`` when the file's layout is not known
    exactly (:func:`_layout`: then parse the catalogue).

    Raises:
        StoreError: the file cannot be read, or a document does not parse.
    """
    layout = _layout(catalogue, rows=False)
    if layout is None:
        return None
    loads = orjson.loads
    forums: set[str] = set()
    try:
        for _, pid, document, _, _ in _documents(catalogue.path, layout):
            parsed = loads(document)
            if type(parsed) is not dict or parsed.get("id") != pid:
                return None
            forum = parsed.get("openreview_id")
            if forum:
                forums.add(str(forum))
    except OSError as exc:
        raise StoreError(catalogue.path, f"cannot be read ({exc})") from None
    except ValueError:
        return None  # not as the spans say: read whole, which names what is wrong
    return forums


class _Inexact(Exception):
    """A change the patch in place cannot make exactly (a paper's venue, or a row's column lost)."""


@dataclass(slots=True)
class Rescore:
    """What :func:`rescore` did: ``changed`` papers; ``before`` and ``after``: the papers changed
    and those of the forums asked to be kept, as they were and as they are (by id, in catalogue
    order), when asked for."""

    changed: int = 0
    before: dict[str, Paper] = field(default_factory=dict)
    after: dict[str, Paper] = field(default_factory=dict)


def rescore(
    catalogue: Catalogue,
    summaries: Mapping[str, ReviewSummary],
    forums: Collection[str],
    before_write: Callable[[], None],
    keep: Collection[str] | None = None,
    tally: PaperTally | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Rescore | None:
    """Write the scores of the papers of ``forums`` from their ``summaries`` (:func:`scored`) into
    the catalogue in place, a paper at a time (the module docstring), and hold the file written as
    the catalogue's (:meth:`~paperdeck.store.catalogue.Catalogue.take_patched`: unparsed).
    ``before_write`` is called once a paper is known to change, before anything is written (the
    undo point's copy); nothing is written when no paper changes. ``keep``: the forums whose papers
    :attr:`Rescore.before` and :attr:`Rescore.after` hold besides the changed ones (``None``: none
    held). ``None``, nothing written nor called, when the patch cannot be exact (:func:`_layout`,
    a change of a paper's venue or the loss of a row's column): then write the whole catalogue.
    ``tally``: given every paper of the file written, as written, while it is written (each
    document parsed once for both), then told the file's stamp (:meth:`PaperTally.done`); not told
    when a paper could not be counted, or nothing was written. ``progress``: told ``(papers, of)``
    as the file is written, the papers read past of all of its papers (every hundredth or so, then
    all of them), in the same pass.

    Raises:
        StoreError: the catalogue cannot be read or written (then nothing changed).
    """
    from paperdeck.model.paper import Paper

    layout = _layout(catalogue, rows=True)
    if layout is None:
        return None
    path = catalogue.path
    loads, paper_of = orjson.loads, Paper.from_dict
    wanted = {forum for forum in forums if forum in summaries}

    counting = [False]  # the write's pass: each paper counted into ``tally`` (while it can be)

    def changes() -> Iterator[tuple[int, str, int, int, Paper, Paper | None]]:
        """Each paper of a wanted forum: position, id, span, the paper, and itself scored anew
        (``None``: unchanged), a kept one's too; every paper counted when ``counting``."""
        for n, pid, document, start, end in _documents(path, layout):
            parsed = loads(document)
            forum = parsed.get("openreview_id") if type(parsed) is dict else None
            if not forum or (forum not in wanted and (keep is None or forum not in keep)):
                if counting[0]:
                    _count_alone(parsed, pid)
                continue
            paper = paper_of(parsed)
            if paper.id != pid:
                raise _Inexact
            summary = summaries.get(forum) if forum in wanted else None
            new = scored(paper, summary) if summary is not None else None
            if counting[0] and tally is not None:
                written = new or paper
                counted = written.openreview_id
                tally.add(written, summaries.get(counted) if counted else None)
            yield n, pid, start, end, paper, new

    def _count_alone(parsed: Any, pid: str) -> None:
        """Count a paper the scores leave as it is; one that does not read as its span says
        stops the counting (the statistics are then counted from the file)."""
        try:
            paper = paper_of(parsed)
        except (ValueError, KeyError, TypeError, AttributeError):
            paper = None
        if paper is None or paper.id != pid or tally is None:
            counting[0] = False
            return
        counted = paper.openreview_id
        tally.add(paper, summaries.get(counted) if counted else None)

    try:
        if not any(new is not None for *_, new in changes()):  # stops at the first paper changed
            if keep is None:
                return Rescore()
            kept = {pid: paper for _, pid, _, _, paper, _ in changes()}
            return Rescore(0, kept, dict(kept))
        result = Rescore()
        made: dict[str, bytes] = {}  # each changed paper's row, its JSON line
        columns = list(layout.columns)  # whether any paper has a decision, a rating, an area
        known = layout.venue_columns  # the same for each venue, when the cache holds them
        by_venue = None if known is None else {venue: list(found) for venue, found in known.items()}
        # Moved in place once the documents are read past them (each paper's new span).
        spans = layout.spans.spans

        def pieces() -> Iterator[bytes]:
            option = orjson.OPT_NON_STR_KEYS
            shift = 0
            at = 0  # the old file's bytes written up to here
            last = 0  # the papers from here on are not moved yet
            papers = len(layout.ids)
            told_every = max(papers // 100, 1)
            tell_at = told_every  # the next paper read past at which ``progress`` is told
            with path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_ino != layout.stamp[0]:
                    raise OSError(f"{path} was replaced while it was patched")
                for n, pid, start, end, paper, new in changes():  # a paper at a time, let go of once written
                    if progress is not None and n >= tell_at:
                        progress(n, papers)
                        tell_at = n + told_every
                    if keep is not None:
                        result.before[pid] = paper
                        result.after[pid] = new or paper
                    if new is None:
                        continue
                    if new.library_venue != paper.library_venue:
                        raise _Inexact
                    row, old_row = PaperRow.of(new).to_list(), PaperRow.of(paper).to_list()
                    if (old_row[3] != "unknown" and row[3] == "unknown") or (old_row[4] is not None and row[4] is None):
                        raise _Inexact
                    if bool(old_row[5]) and not row[5]:
                        raise _Inexact
                    # its own length: orjson's result takes at least 4 KiB (~400 MB at 98,000 rows)
                    made[pid] = memoryview(orjson.dumps(row)).tobytes()
                    columns[0] = columns[0] or row[3] != "unknown"
                    columns[1] = columns[1] or row[4] is not None
                    columns[2] = columns[2] or bool(row[5])
                    if by_venue is not None:
                        found = by_venue.setdefault(new.library_venue, [False, False, False])
                        found[:] = [found[0] or row[3] != "unknown", found[1] or row[4] is not None,
                                    found[2] or bool(row[5])]  # fmt: skip
                    document = orjson.dumps(new.to_dict(), option=option)
                    for other in layout.ids[last:n]:  # the papers between: moved by the shift so far
                        a, b = spans[other]
                        spans[other] = (a + shift, b + shift)
                    handle.seek(at)
                    yield from bytes_between(handle, at, start)
                    yield document
                    spans[pid] = (start + shift, start + shift + len(document))
                    shift += len(document) - (end - start)
                    result.changed += 1
                    at, last = end, n + 1
                for other in layout.ids[last:]:
                    a, b = spans[other]
                    spans[other] = (a + shift, b + shift)
                handle.seek(at)
                while chunk := handle.read(PIECE_BYTES):
                    yield chunk
                if progress is not None:
                    progress(papers, papers)

        before_write()
        counting[0] = tally is not None
        atomic_write_bytes(path, pieces())
    except _Inexact:
        return None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # a document not as its span says: the catalogue is read whole, which names it
    except OSError as exc:
        raise StoreError(path, f"cannot be read ({exc})") from None
    written = CatalogueSpans(layout.spans.spans, dict(layout.spans.aliases))
    venue_columns = None if by_venue is None else {venue: RowColumns(*found) for venue, found in by_venue.items()}
    catalogue.take_patched(layout.ids, written, layout.rows, made, RowColumns(*columns), layout.venues, venue_columns)
    if tally is not None and counting[0]:
        stamp = file_stamp(staged_path(path))  # the stamp take_patched held
        if stamp is not None:
            tally.done(stamp)
    return result
