"""The catalogue file (``catalogue.json``) and the rows cache beside it, as one store holds them.

:class:`Catalogue` owns what a store knows of that file: the papers parsed from it (or, before
they are, the rows cache's rows and where each paper lies in the file), its aliases, the stamp of
the file they were read from or written to, and the locks around reading it. It reads the file
lazily (rows first, one paper by its byte span, the whole file on :meth:`Catalogue.load`), reads
it again when another process replaced it, and writes it whole (:meth:`Catalogue.replace`, called
by an import under the import lock: :mod:`paperdeck.store.import_run`).

The file's layout is TinyDB's (tables ``meta``, ``papers``, ``aliases``), written by
:func:`catalogue_bytes` byte for byte as ``orjson.dumps`` makes of the whole.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import islice
from operator import itemgetter, le, lt
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Any, Literal, cast

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import AtomicJSONStorage, atomic_write_bytes, check_regular_file, malformed, staged_path
from paperdeck.store.ids_line import IdsView, PendingIds
from paperdeck.store.rows import (
    CatalogueSpans,
    PaperRow,
    RowColumns,
    RowOffsets,
    SpanLine,
    UnreadRows,
    VenueRuns,
    decode_row,
    decode_span_table,
    decode_spans,
    file_stamp,
    read_line_at,
    read_row_at,
    read_row_offsets,
    read_rows_cache,
    read_rows_ids,
    read_unread_rows,
    row_id,
    write_patched_rows,
    write_rows_cache,
)
from paperdeck.store.schema import check_schema, meta
from paperdeck.store.user_data import doc_id_for

if TYPE_CHECKING:
    from array import array

    from paperdeck.model.paper import Paper  # imported where papers are read: the rows come first
    from paperdeck.store.lean_papers import PaperColumns
    from paperdeck.store.patch_record import CataloguePatch
    from paperdeck.store.written import IndexedText, NamedPapers, WrittenCatalogue

__all__ = [
    "CATALOGUE_FILE",
    "FIRST_ROWS",
    "ROWS_FILE",
    "Catalogue",
    "IndexedText",
    "WrittenCatalogue",
    "catalogue_bytes",
    "one_named",
]

#: The catalogue's file name in the data directory.
CATALOGUE_FILE = "catalogue.json"
#: The generations of every catalogue of the process (:attr:`Catalogue.generation`): drawn from one
#: count, so that no two catalogues (a store opened again, a second store) ever share one.
_GENERATIONS = itertools.count(1)
#: A cache of what the list shows, so the app paints before the catalogue is parsed.
ROWS_FILE = "rows-cache.json"
#: Rows a lazy store reads as it opens (the list's first screen; the others at first need).
FIRST_ROWS = 200
#: Papers a catalogue not yet parsed reads one by one (:meth:`Catalogue.paper`) before it parses
#: the whole file instead (an export or a search without ``--limit`` asks for thousands).
_SPAN_READS = 256
#: Rows left unread at opening that are read one by one, at their offsets (:meth:`Catalogue.row`:
#: a query's list shows a screenful of them), before the rest is read at once instead (a sort by
#: title of a catalogue not parsed yet asks for every row).
_ROW_READS = 512

#: ``(inode, mtime in ns, size in bytes)`` of a file (:func:`paperdeck.store.rows.file_stamp`).
Stamp = tuple[int, int, int]

#: What this module names from :mod:`paperdeck.store.written`, imported there at first use: the
#: app's start reads no catalogue file again, and makes none of its classes.
_FROM_WRITTEN = frozenset({"IndexedText", "NamedPapers", "WrittenCatalogue"})


def __getattr__(name: str) -> object:
    """:data:`_FROM_WRITTEN`'s names, from :mod:`paperdeck.store.written` (imported then)."""
    if name in _FROM_WRITTEN:
        from paperdeck.store import written

        return getattr(written, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _shifted_spans(
    ids: list[str], old_spans: Mapping[str, tuple[int, int]], shifts: list[tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """Each paper's span of ``old_spans`` (by ``ids``, in their order) moved by the shift of the
    last changed document that starts at or before it (``shifts``: each changed document's old
    start and the shift after it, in file order; none before the first), computed in numpy over
    every paper at once (a large store's import in place)."""
    from itertools import chain

    import numpy as np

    count = len(ids)
    flat = np.fromiter(chain.from_iterable(map(old_spans.__getitem__, ids)), np.int64, 2 * count)
    changed_starts = np.fromiter((start for start, _ in shifts), np.int64, len(shifts))
    after = np.zeros(len(shifts) + 1, np.int64)
    after[1:] = [shift for _, shift in shifts]
    flat += np.repeat(after[np.searchsorted(changed_starts, flat[0::2], side="right")], 2)
    return dict(zip(ids, zip(flat[0::2].tolist(), flat[1::2].tolist(), strict=True), strict=True))


class Catalogue:
    """The papers of one catalogue file, read lazily, and its aliases (old id → id).

    Args:
        data_dir: the data directory holding ``catalogue.json`` and ``rows-cache.json``.
        rows: with :meth:`open`'s ``lazy``, whether the rows themselves are read at once (see
            :class:`~paperdeck.store.store.Store`).
        lean: hold papers read by the rows cache's spans without their texts
            (:class:`~paperdeck.store.lean_papers.LeanPaper`: each text read from the file when
            asked for), so that what is held does not grow with the abstracts (the app).

    Attributes:
        path: the catalogue file.
        rows_path: the rows cache beside it.
        on_load: called once :meth:`load` has parsed the file (under the load lock; the store
            moves user records kept under an alias then), or ``None``.
    """

    def __init__(self, data_dir: Path, *, rows: bool = True, lean: bool = False) -> None:
        self.path = data_dir / CATALOGUE_FILE
        self._lean = lean
        self.rows_path = data_dir / ROWS_FILE
        self.on_load: Callable[[], None] | None = None
        self._storage = AtomicJSONStorage(self.path)
        self._papers: dict[str, Paper] = {}
        self._generation = next(_GENERATIONS)  # see generation
        #: The papers :meth:`papers_at` last took, by the stamp of the papers held and the spans
        #: (let go each time the papers are replaced: an old generation's papers are not held on).
        self._scope_papers: tuple[tuple[int, int, int], tuple[tuple[int, int], ...], list[Paper]] | None = None
        self._aliases: dict[str, str] = {}
        #: The rows cache while the catalogue is not parsed (:attr:`_rows`): each row as read (a
        #: JSON line) until first shown, then as a :class:`PaperRow` (decoding every row at
        #: start-up would delay it); a row not read yet, as its position in the cache (an ``int``).
        self._rows_map: dict[str, PaperRow | bytes | int] | None = None
        #: Before that map is made (:meth:`_make_rows`): the rows cache's ids (those past the
        #: first screen's still encoded until first asked for: :meth:`_first_ids`) and the rows
        #: read at opening by id (the list's first screen; its first paint needs no more).
        self._rows_first: tuple[list[str] | PendingIds, dict[str, PaperRow | bytes | int]] | None = None
        self._rows_map_lock = threading.Lock()  # held while the map is made or replaced
        self._rows_unread = not rows  # the rows cache's ids were read, not all its rows yet (see row())
        self._unread_rows: UnreadRows | None = None  # where those rows are in the rows cache
        #: The rows cache's offsets line, once a row left unread was asked for (``None``: not read
        #: yet; ``False``: not usable), and how many rows were read alone at their offsets.
        self._row_offsets: RowOffsets | Literal[False] | None = None
        self._row_reads = 0
        self._cached_columns = RowColumns(False, False)  # the rows cache's, while it is used
        self._cached_venues = VenueRuns()  # the rows cache's, while it is used
        self._cached_venue_columns: dict[str, RowColumns] | None = None  # the same (see venue_columns)
        #: The parsed papers' venues, with (generation, the papers' table's id, its size) they are of.
        self._venues: tuple[tuple[int, int, int], VenueRuns] | None = None
        #: Rows of parsed papers lately shown, with the paper each is of (papers are immutable: a
        #: changed paper is a new object). The list asks for a row at each line of each frame, and
        #: rendering a title with LaTeX each time is too slow for that.
        self._shown_rows: dict[str, tuple[Paper, PaperRow]] = {}
        self._load_lock = threading.Lock()
        #: Held while the rows left unread at opening are read (not the load lock: a row asked
        #: for while the catalogue is parsed does not wait for the parse).
        self._rows_lock = threading.Lock()
        self._loaded = False
        #: (inode, mtime, size) of the catalogue as last read or written by this store.
        self._catalogue_stamp: Stamp | None = None
        #: (inode, mtime, size) of the catalogue the rows cache was read for (taken before reading it).
        self._rows_stamp: Stamp | None = None
        #: The rows cache's spans line while not decoded, then its spans (or ``None``: none, or broken).
        self._spans_line: bytes | None = None
        self._cached_spans: CatalogueSpans | None = None
        #: The spans line parsed for the first few papers read alone (:meth:`_find_span`), with
        #: the rows it was read with.
        self._span_line: tuple[dict[str, PaperRow | bytes | int], SpanLine] | None = None
        self._span_reads = 0  # papers read alone: past _SPAN_READS, parsing the catalogue is cheaper
        #: The spans of the catalogue as this store last wrote it, and the file's stamp then.
        self._written_spans: tuple[Stamp | None, CatalogueSpans] | None = None
        #: The last import in place this object committed (:mod:`paperdeck.store.patch_record`).
        self.last_patch: CataloguePatch | None = None
        #: The venues whose papers a lean parse reads; the others' are held deferred
        #: (:meth:`defer_outside`); ``None``: every paper read.
        self._eager_venues: frozenset[str] | None = None
        #: The papers' table the last lean parse made, its columns, and the venues it read (the
        #: others' papers deferred; ``None``: every paper read): :meth:`forums_apart`.
        self._lean_read: tuple[dict[str, Paper], PaperColumns, frozenset[str] | None] | None = None
        #: The rows cache's columns kept for the papers parsed from the very file it was read for,
        #: with (generation, the papers' table's id, its size) they are of (see row_columns).
        self._columns: tuple[tuple[int, int, int], RowColumns] | None = None
        #: The same for each venue's columns (see venue_columns).
        self._venue_columns: tuple[tuple[int, int, int], dict[str, RowColumns] | None] | None = None
        #: The papers were let go of (:meth:`release`): the next ask for them parses the file again.
        self._released = False

    @property
    def _rows(self) -> dict[str, PaperRow | bytes | int] | None:
        """The rows cache's rows by id while the catalogue is not parsed (``None``: none held),
        the map of every id made at first need (:meth:`_make_rows`)."""
        rows = self._rows_map
        if rows is None and self._rows_first is not None:
            return self._make_rows()
        return rows

    @_rows.setter
    def _rows(self, rows: dict[str, PaperRow | bytes | int] | None) -> None:
        with self._rows_map_lock:
            self._rows_first, self._rows_map = None, rows

    def _rows_held(self) -> bool:
        """Whether rows of the rows cache are held (:attr:`_rows` is not ``None``), the map of
        every id not made for it."""
        return self._rows_map is not None or self._rows_first is not None

    def _make_rows(self) -> dict[str, PaperRow | bytes | int] | None:
        """The map of every id of the rows cache to its row read at opening or, not read yet,
        its position (:func:`~paperdeck.store.rows.read_row_at`): made once, at first need (a
        row past the first screen, a paper read alone), not before the first paint (hashing
        every id costs ~8 ms at 98,150 papers). An id twice (a damaged cache) found here leaves
        the rows past the first to be read again whole (:meth:`_read_rows`: the catalogue is
        then parsed and the cache written again)."""
        every = self._first_ids()  # the ids line parsed (outside the lock: a broken one loads)
        with self._rows_map_lock:
            first = self._rows_first
            if self._rows_map is None and first is not None:
                ids, read = first
                if type(ids) is not list:  # not parsed above (broken, then loaded meanwhile)
                    ids = every or []
                rows: dict[str, PaperRow | bytes | int] = dict(zip(ids, range(len(ids)), strict=True))
                if len(rows) != len(ids):  # an id twice
                    self._unread_rows, self._rows_unread = None, True
                rows.update(read)
                self._rows_first, self._rows_map = None, rows
            return self._rows_map

    def _first_ids(self) -> list[str] | None:
        """Every id of the rows cache while only its first rows are read (:attr:`_rows_first`;
        else ``None``), its ids line parsed whole once, at first need (not before the first
        paint: ~5 ms at 98,150 papers). A line found broken then is as a row past the first
        found broken: the catalogue is parsed (then ``None``) and the cache written again."""
        first = self._rows_first
        if first is None:
            return None
        ids = first[0]
        if type(ids) is list:
            return ids
        with self._rows_map_lock:
            first = self._rows_first
            if first is None:
                return None
            pending = first[0]
            if isinstance(pending, list):
                return pending
            parsed = pending.parse()
            if parsed is not None:
                self._rows_first = (parsed, first[1])
                return parsed
            self._rows_first = None  # nothing of the cache trusted: the catalogue parsed whole
        self.load()
        if self._catalogue_stamp == self._rows_stamp:
            self._find_spans()
            self._write_rows_cache()
        return None

    def ids_view(self) -> Sequence[str]:
        """:attr:`paper_ids` for the list's first paint: while only the rows cache's first ids
        are parsed, a view of every id that parses the others when one past them is asked for
        (:class:`~paperdeck.store.ids_line.IdsView`); else :attr:`paper_ids`."""
        first = self._rows_first
        if not self._loaded and not self._released and first is not None:
            pending = first[0]
            if isinstance(pending, PendingIds):
                return IdsView(pending.first, pending.count, lambda: self.paper_ids)
        return self.paper_ids

    def ids_by_position(self) -> Sequence[str]:
        """:attr:`paper_ids` for a saved search index read before its ids are compared with the
        catalogue's (``SearchIndex.load``'s ``count_lines`` False): while only the rows cache's
        first rows are read, a view (:class:`~paperdeck.store.ids_line.IdsView`) whose id at a
        position past them is read alone with that position's row line (kept for :meth:`row`),
        and whose ids are parsed whole (once, the catalogue's own) when more is asked: the first
        typed query's rows do not parse the ids line. The view names the papers of the rows cache
        read now, whatever is read later. Else :attr:`paper_ids`."""
        first = self._rows_first
        if not self._loaded and not self._released and first is not None:
            pending = first[0]
            if isinstance(pending, PendingIds):
                return IdsView(pending.first, pending.count, partial(self._ids_of, first), partial(self._id_at, first))
        return self.paper_ids

    def _ids_of(self, first: tuple[list[str] | PendingIds, dict[str, PaperRow | bytes | int]]) -> list[str]:
        """Every id of the rows cache read as ``first`` (:meth:`ids_by_position`): the
        catalogue's ids parsed (shared, not copied) while it still holds that read, else that
        read's ids line parsed again; the catalogue's ids when that line is broken."""
        now = self._rows_first
        if now is not None and now[1] is first[1] and (ids := self._first_ids()) is not None:
            return ids
        pending = first[0]
        parsed = pending.parse() if isinstance(pending, PendingIds) else pending
        return parsed if parsed is not None else self.paper_ids

    def _id_at(self, first: tuple[list[str] | PendingIds, dict[str, PaperRow | bytes | int]], at: int) -> str | None:
        """The id at position ``at`` of the rows cache read as ``first``, read alone with its row
        line (kept among the rows read at opening, as :meth:`_read_row_at` keeps one); ``None``
        when it cannot be (ask every id)."""
        with self._rows_lock:
            offsets = self._offsets_for(first, at)
            line = read_line_at(self.rows_path, offsets, at) if offsets is not None else None
            paper_id = row_id(line) if line is not None else None
            if line is None or paper_id is None:
                return None
            self._row_reads += 1
            first[1].setdefault(paper_id, line)
            return paper_id

    def open(self, *, lazy: bool) -> None:
        """Read the rows cache when ``lazy`` and it matches the file; else parse the file (and,
        when ``lazy``, write a good rows cache for the next start).

        Raises:
            StoreError: as :meth:`load`.
        """
        if not (lazy and self._load_rows_cache()):
            self.load()
            if lazy and self._papers:  # a stale cache (a copied or restored store): the next start reads a good one
                self._find_spans()
                self._write_rows_cache()

    def defer_outside(self, venues: frozenset[str]) -> None:
        """Have the next lean parse (:meth:`load` of a catalogue opened with ``lean``, by the rows
        cache's spans) read only the papers of ``venues`` (library venues, as :class:`VenueRuns`
        names them; empty: every paper): the others are held as
        :class:`~paperdeck.store.lean_papers.DeferredPaper`, each parsed when one of its fields
        is first read. What a view of ``venues`` does then costs what those venues hold. No
        effect once parsed, nor on a catalogue parsed otherwise (not lean, no usable rows cache)."""
        self._eager_venues = venues or None

    @property
    def loaded(self) -> bool:
        """Whether the catalogue is parsed (a lazy one has only its rows until :meth:`load`)."""
        return self._loaded

    def load(self) -> None:
        """Parse the catalogue if it is not yet (parsing is the slow part of a start: the app calls
        it in a worker thread; it is safe to call from several threads).

        Raises:
            StoreError: the catalogue is not valid or was written by a newer paperdeck.
        """
        with self._load_lock:
            if not self._loaded:
                from_rows, generation = self._rows_held(), self._generation
                self._released = False
                self._read()
                if from_rows and self._catalogue_stamp == self._rows_stamp:
                    # The very file the rows were read for: what was built from the rows (a
                    # search index read from disk, the venues) is still current.
                    self._generation = generation
                    papers = self._papers
                    if self._cached_venues.paper_count == len(papers):
                        self._venues = ((generation, id(papers), len(papers)), self._cached_venues)
                        self._columns = ((generation, id(papers), len(papers)), self._cached_columns)
                        self._venue_columns = ((generation, id(papers), len(papers)), self._cached_venue_columns)
                self._venue_runs_now()  # here, in the loading thread, not at first need on the event loop
                self._loaded = True  # before dropping the rows: readers check _loaded first
                self._rows = None
                # Read only while the rows were (the span line holds the rows read): not kept.
                self._span_line = self._cached_spans = self._spans_line = None
                if self.on_load is not None:
                    self.on_load()

    @property
    def papers(self) -> list[Paper]:
        """Every paper in catalogue order (the order they were first imported); loads if needed.

        Raises:
            StoreError: as :meth:`load`.
        """
        self.load()
        return list(self._papers.values())

    def forums_apart(self, venues: frozenset[str]) -> Mapping[str, tuple[str, ...]] | None:
        """The OpenReview forum ids that are not the id less ``openreview:`` of a paper holding
        them, each with the ids of those papers, for every paper of ``venues`` (and maybe others),
        from the lean parse's columns, no paper visited (:meth:`PaperColumns.forums_apart
        <paperdeck.store.lean_papers.PaperColumns.forums_apart>`); any other paper's forum is its id
        less ``openreview:``, or none. ``None`` when that cannot be told so: the papers held are
        not all of one lean parse (parsed otherwise, or replaced since), or ``venues`` holds one
        whose papers it deferred (each one's forum unknown until it is read)."""
        lean = self._lean_read
        if lean is None or lean[0] is not self._papers:
            return None
        _, columns, read = lean
        if read is not None and not venues <= read:
            return None
        return columns.forums_apart()

    def papers_at(self, spans: Iterable[tuple[int, int]]) -> list[Paper]:
        """The papers at positions ``[start, stop)`` of each of ``spans`` (ascending, apart), in
        catalogue order; loads if needed. Taken off the papers held in C, no list of every paper
        made (a venue scope's papers in a library: :func:`~paperdeck.search.venues.papers_of_scope`);
        the last spans' papers are kept while the papers held are the same, so that the next call
        (a scoped query's next keystroke) copies them, not walks the papers before the spans again.

        Raises:
            StoreError: as :meth:`load`.
            ValueError: the spans are not ascending and apart.
        """
        self.load()
        papers = self._papers  # (replaced whole, never changed in place)
        wanted = tuple(spans)
        stamp = (self._generation, id(papers), len(papers))
        known = self._scope_papers
        if known is not None and known[0] == stamp and known[1] == wanted:
            return list(known[2])  # a copy (the caller's to change): no walk to the spans again
        held = iter(papers.values())
        kept: list[Paper] = []
        at = 0
        for start, stop in wanted:
            if not at <= start <= stop:
                raise ValueError(f"papers_at: spans not ascending and apart ({start}, {stop})")
            kept += islice(held, start - at, stop - at)
            at = stop
        self._scope_papers = (stamp, wanted, kept)
        return list(kept)

    @property
    def held_papers(self) -> Mapping[str, Paper]:
        """The papers held now by id, in catalogue order (not a copy, not loaded first: for an
        import, which loaded them and must not change them)."""
        return self._papers

    @property
    def held_aliases(self) -> Mapping[str, str]:
        """The aliases of the papers held now (not a copy; empty while not parsed)."""
        return self._aliases

    @property
    def generation(self) -> int:
        """A number that changes each time the papers are replaced (parsed, imported, read again
        after another process imported): what is built from :attr:`papers` is current while it
        has not changed. Unique in the process: no other catalogue ever had it, so a cache stamped
        with it cannot hand one store's answer to another. Held in memory: reading it touches no
        file."""
        return self._generation

    @property
    def paper_ids(self) -> list[str]:
        """Every paper id in catalogue order (from the rows cache while not loaded)."""
        if self._released:
            self.load()
        first = self._rows_first  # read once: a worker thread may be finishing load() meanwhile
        if not self._loaded and first is not None:
            ids = self._first_ids()
            if ids is not None:
                return list(ids)
        rows = self._rows_map
        if not self._loaded and rows is not None:
            return list(rows)
        return list(self._papers)

    @property
    def paper_count(self) -> int:
        """How many papers the catalogue holds (``len(paper_ids)`` without the copy)."""
        if self._released:
            self.load()
        first, rows = self._rows_first, self._rows_map
        if not self._loaded and first is not None:
            return len(first[0])
        if not self._loaded and rows is not None:
            return len(rows)
        return len(self._papers)

    @property
    def row_columns(self) -> RowColumns:
        """Whether any paper has a decision / a rating (the list's optional columns); from the
        rows cache while the catalogue is not parsed, else computed over every paper on each call."""
        if not self._loaded and self._rows_held():
            return self._cached_columns
        papers, known = self._papers, self._columns
        if known is not None and known[0] == (self._generation, id(papers), len(papers)):
            return known[1]  # the papers parsed from the file the rows cache was written for
        return RowColumns.of((paper.decision, paper.ratings, paper.primary_area) for paper in papers.values())

    @property
    def venue_columns(self) -> dict[str, RowColumns] | None:
        """:attr:`row_columns` for each venue of :attr:`venue_runs` (a venue scope's columns
        without its rows read), from the rows cache written with them while it is used (and for
        the papers parsed from its very file); ``None``: not known (walk the venue's rows)."""
        if not self._loaded and self._rows_held():
            return self._cached_venue_columns
        papers, known = self._papers, self._venue_columns
        if known is not None and known[0] == (self._generation, id(papers), len(papers)):
            return known[1]
        return None

    @property
    def venue_runs(self) -> VenueRuns:
        """Each paper's venue in catalogue order (:class:`VenueRuns`, covering :attr:`paper_ids`):
        from the rows cache while the catalogue is not parsed, else from the papers (once per
        :attr:`generation`)."""
        if not self._loaded and self._rows_held():
            return self._cached_venues
        return self._venue_runs_now()

    def _venue_runs_now(self) -> VenueRuns:
        """The venues of the papers held, made again when they were replaced."""
        known, papers = self._venues, self._papers
        stamp = (self._generation, id(papers), len(papers))
        if known is None or known[0] != stamp:
            labels: dict[tuple[str, int | None], str] = {}  # a label made once per venue and year

            def label(paper: Paper) -> str:
                key = (paper.venue, paper.year)
                found = labels.get(key)
                if found is None:
                    found = labels[key] = paper.library_venue
                return found

            known = self._venues = (stamp, VenueRuns.of(map(label, papers.values())))
        return known[1]

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with this id (or an alias of it), or ``None``. While the catalogue is not
        parsed, the paper alone is read from it where the rows cache says it lies (checked: the
        file as the rows were read for, a document of this paper), for the first ``_SPAN_READS``
        papers asked for; else the catalogue is parsed.

        Raises:
            StoreError: as :meth:`load`.
        """
        rows = self._rows  # read once: a worker thread may be finishing load() meanwhile
        if not self._loaded and rows is not None:
            found = self._find_span(paper_id, rows)
            if found is not None:
                current, span = found
                if current not in rows:
                    return None
                self._span_reads += 1
                if span is not None and self._span_reads <= _SPAN_READS:
                    paper = self._read_one(current, span)
                    if paper is not None:
                        return paper
        self.load()
        return self._papers.get(paper_id) or self._papers.get(self.resolve(paper_id))

    def paper_named(self, given: str) -> Paper | None:
        """The paper a user names: its id (canonical or an alias), a bare id of any kind when one
        paper has it (``ukGxWd2aDG`` for ``openreview:ukGxWd2aDG``, ``a774902a887c6233`` for
        ``abs:…``: :func:`~paperdeck.store.paper_index.id_names`), or its OpenReview forum or PDF
        link (``https://openreview.net/forum?id=X``, what ``y`` copies); ``None`` when no paper has it.

        Raises:
            StoreError: as :meth:`load`.
            AmbiguousId: a bare id that papers of several kinds have.
        """
        if "://" in given:  # model.ids (and the hashlib it imports) only for a link
            from paperdeck.model.ids import openreview_id_from_url

            if forum := openreview_id_from_url(given):
                return self.paper(f"openreview:{forum}") or self.paper(forum)
        from paperdeck.store.paper_index import id_names

        exact, *others = id_names(given)
        paper = self.paper(exact)
        if paper is not None or not others:
            return paper
        return one_named(given, [self.paper(name) for name in others])

    def _find_span(
        self, paper_id: str, rows: dict[str, PaperRow | bytes | int]
    ) -> tuple[str, tuple[int, int] | None] | None:
        """The current id of ``paper_id`` (an alias followed) and where that paper lies in the
        catalogue (``None``: not known), by the rows cache's spans; ``None`` when the cache has
        no spans. The spans line is parsed, not made into a table of every paper's span."""
        if self._spans_line is not None:
            line = self._span_line
            if line is None or line[0] is not rows:
                try:
                    line = self._span_line = (rows, SpanLine(self._spans_line, len(rows)))
                except ValueError:
                    line = None
            if line is not None:
                current = paper_id if paper_id in rows else _follow(line[1].aliases, paper_id)
                if current not in rows:
                    return current, None
                return current, line[1].span(current, rows)
        spans = self._spans()
        if spans is None:
            return None
        current = paper_id if paper_id in rows else _follow(spans.aliases, paper_id)
        return current, spans.spans.get(current)

    def _spans(self) -> CatalogueSpans | None:
        """The rows cache's spans, decoded at first need (``None``: the cache has none)."""
        line, rows = self._spans_line, self._rows
        if line is not None and rows is not None:
            self._cached_spans = decode_spans(line, list(rows))
            self._spans_line = None
        return self._cached_spans

    def _read_by_spans(
        self,
        spans: CatalogueSpans,
        ids: Iterable[str] | None = None,
        stamp: Stamp | None = None,
        kept: dict[str, Paper] | None = None,
    ) -> dict[str, Paper] | None:
        """Every paper, each parsed from its span of the catalogue file (the whole file is never
        one parsed tree: a fraction of the memory); ``None`` when the file is not the one the
        spans were written for or anything in it is not as the spans say (then the file is parsed
        whole, which names what is wrong).

        Args:
            spans: where each paper lies in the file.
            ids: the papers in file order (default: the rows cache's).
            stamp: the ``(inode, mtime, size)`` of the file the spans are of (default: the one the
                rows cache was read for).
            kept: papers held already (a catalogue read again): a paper read equal to one of
                them is that object, so what is unchanged is held once, not twice.
        """
        rows = self._rows if ids is None else ids
        if rows is None:
            return None
        from paperdeck.model.paper import Paper

        wanted = self._rows_stamp if stamp is None else stamp
        kept = kept or {}
        paper_of = Paper.from_dict
        try:
            with staged_path(self.path).open("rb", buffering=1 << 20) as handle:
                stat = os.fstat(handle.fileno())
                if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != wanted:
                    return None
                head = handle.read(4096)
                meta_end = head.find(b',"papers":{')
                if not head.startswith(b'{"meta":') or meta_end < 0:
                    return None
                check_schema({"meta": orjson.loads(head[8:meta_end])}, self.path)
                handle.seek(0)
                at = 0
                papers: dict[str, Paper] = {}
                for paper_id in rows:  # the documents in file order, read one after another
                    start, end = spans.spans[paper_id]
                    if not at <= start < end <= stat.st_size:
                        return None
                    handle.seek(start)
                    paper = paper_of(orjson.loads(handle.read(end - start)))
                    at = end
                    if paper.id != paper_id:
                        return None
                    papers[paper_id] = _same_or(kept.get(paper_id), paper)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, StoreError):
            return None
        return papers

    def _read_lean(
        self,
        ids: list[str],
        starts: Sequence[int],
        ends: Sequence[int],
        stamp: Stamp | None,
        *,
        defer: bool = False,
        kept: Mapping[str, Paper] | None = None,
    ) -> dict[str, Paper] | None:
        """Every paper parsed from its span, held without its texts
        (:class:`~paperdeck.store.lean_papers.LeanPaper`, reading them from the file kept open);
        ``None`` as :meth:`_read_by_spans` (then the file is read as it would be without
        ``lean``). ``ids``, ``starts``, ``ends``: each paper's id and span ``[start, end)`` of the
        file, in file order (three sequences of one length). With ``defer`` (``ids`` are the rows
        cache's, which its venue runs cover), the papers outside :meth:`defer_outside`'s venues
        are held deferred, taken in bulk. ``kept``: the lean papers held (a catalogue read
        again): one whose document is byte for byte the same in the new file is taken from its
        columns, not parsed (:meth:`PaperColumns.take
        <paperdeck.store.lean_papers.PaperColumns.take>`; a deferred one stays deferred)."""
        from paperdeck.model.paper import Paper
        from paperdeck.store.lean_papers import CatalogueText, LeanPaper, PaperColumns

        paper_of = Paper.from_dict
        if not len(ids) == len(starts) == len(ends):
            return None
        parts = self._deferred_parts(ids) if defer else None
        try:
            fd = os.open(staged_path(self.path), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        try:
            stat = os.fstat(fd)
            same = (stat.st_ino, stat.st_mtime_ns, stat.st_size) == stamp
            text = CatalogueText(fd, stat.st_size) if same and S_ISREG(stat.st_mode) else None
        except OSError:
            text = None
        if text is None:
            os.close(fd)
            return None
        columns = PaperColumns(text)
        try:  # the text owns fd from here: closed when the last paper of it is dropped
            head = text.document(0, min(4096, stat.st_size))
            meta_end = head.find(b',"papers":{')
            if not head.startswith(b'{"meta":') or meta_end < 0:
                return None
            check_schema({"meta": orjson.loads(head[8:meta_end])}, self.path)
            papers: dict[str, Paper] = {}
            lean_of, take = columns.add, columns.take
            old = kept or {}
            at = 0
            for begin, end_at, deferred in parts or [(0, len(ids), False)]:
                if deferred:  # a venue outside the scope: its papers' spans taken in bulk
                    part = ids[begin:end_at]
                    part_starts, part_ends = array("q", starts[begin:end_at]), array("q", ends[begin:end_at])
                    if not _in_order(part_starts, part_ends, at, stat.st_size):
                        return None
                    at = part_ends[-1] if part_ends else at
                    deferred_papers = columns.defer_many(part_starts, part_ends, part)
                    papers.update(zip(part, cast(list[Paper], deferred_papers), strict=True))
                    continue
                run = zip(ids[begin:end_at], starts[begin:end_at], ends[begin:end_at], strict=True)
                for paper_id, start, end in run:
                    if not at <= start < end <= stat.st_size:
                        return None
                    held = old.get(paper_id)
                    if held is not None and isinstance(held, LeanPaper):  # the type: a lean paper passes for a Paper
                        taken = take(held._columns, held._at, start, end)
                        if taken is not None:
                            at = end
                            papers[taken.id] = cast(Paper, taken)
                            continue
                    paper = paper_of(orjson.loads(text.document(start, end)))
                    at = end
                    if paper.id != paper_id:
                        return None
                    papers[paper_id] = cast(Paper, lean_of(paper, start, end, paper_id))
        except (OSError, ValueError, KeyError, TypeError, AttributeError, StoreError):
            return None
        finally:
            columns.taken()
        self._lean_read = (papers, columns, self._eager_venues if parts is not None else None)
        return papers

    def _read_lean_by_table(self, line: bytes) -> tuple[dict[str, Paper] | None, dict[str, str]]:
        """:meth:`_read_lean_by` from the rows cache's spans ``line`` decoded as two arrays in
        the rows' order (:func:`~paperdeck.store.rows.decode_span_table`, as
        :meth:`_reread_by_spans` reads), not as a table by id of every paper (its tuples and
        its dict made, then looked up again in the same order); with the aliases. ``None`` when
        the line is not one for the rows (then the file is read whole)."""
        rows = list(self._rows or ())
        table = decode_span_table(line, len(rows))
        if table is None:
            return None, {}
        return self._read_lean(rows, table.starts, table.ends, self._rows_stamp, defer=True), table.aliases

    def _read_lean_by(self, spans: CatalogueSpans) -> dict[str, Paper] | None:
        """:meth:`_read_lean` of the rows cache's papers (in its order) at their ``spans``, the
        papers outside the scope deferred; ``None`` when a row has no span (then the file is
        read whole)."""
        rows = list(self._rows or ())
        try:
            found = list(map(spans.spans.__getitem__, rows))
        except KeyError:
            return None
        starts, ends = array("q", map(itemgetter(0), found)), array("q", map(itemgetter(1), found))
        del found
        return self._read_lean(rows, starts, ends, self._rows_stamp, defer=True)

    def _deferred_parts(self, ordered: list[str]) -> list[tuple[int, int, bool]] | None:
        """``ordered`` (the rows cache's ids, which its venue runs cover, in their order) cut into
        runs ``(begin, end, deferred)``: positions ``[begin, end)``, deferred when their venue is
        outside :meth:`defer_outside`'s; ``None``: every paper is read (no venue chosen, or the
        runs do not cover ``ordered``)."""
        venues = self._eager_venues
        runs = self._cached_venues
        if venues is None or runs.paper_count != len(ordered):
            return None
        parts: list[tuple[int, int, bool]] = []
        start = 0
        for n, count in runs.runs:
            deferred = runs.labels[n] not in venues
            if parts and parts[-1][2] == deferred and parts[-1][1] == start:
                parts[-1] = (parts[-1][0], start + count, deferred)
            else:
                parts.append((start, start + count, deferred))
            start += count
        return parts

    def _read_one(self, paper_id: str, span: tuple[int, int]) -> Paper | None:
        """The paper read from its span of the catalogue file, or ``None`` when the file is no
        longer the one the rows were read for or the span holds no document of this paper."""
        from paperdeck.model.paper import Paper

        start, end = span
        try:
            with self.path.open("rb") as handle:
                stat = os.fstat(handle.fileno())
                same_file = (stat.st_ino, stat.st_mtime_ns, stat.st_size) == self._rows_stamp
                if not same_file or not 0 <= start < end <= stat.st_size:
                    return None
                handle.seek(start)
                doc = orjson.loads(handle.read(end - start))
            paper = Paper.from_dict(doc)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return paper if paper.id == paper_id else None

    def row(self, paper_id: str, at: int | None = None) -> PaperRow | None:
        """What the list shows of a paper, ``None`` for an unknown id; available before the
        catalogue is loaded (never loads it). A row read at opening is found without the map
        of every id (:meth:`_make_rows`); so is one past them given ``at``, its position in
        catalogue order (a ranking's, :class:`~paperdeck.search.index.IdsAt`): read alone there
        when its line is that paper's row (:meth:`_read_row_at`), else as without it."""
        first = self._rows_first  # read once: a worker thread may be finishing load() meanwhile
        if first is not None and not self._loaded:
            read = first[1]
            row = read.get(paper_id)
            if row is None and at is not None:
                row = self._read_row_at(first, at, paper_id)
            if isinstance(row, bytes):
                row = read[paper_id] = decode_row(paper_id, row)
            if isinstance(row, PaperRow):
                return row
        rows = self._rows
        if rows is not None and self._rows_unread and type(rows.get(paper_id)) is int:  # not read yet
            rows = self._read_row(paper_id)
        if not self._loaded and rows is not None:
            row = rows.get(paper_id)
            if isinstance(row, bytes):
                row = rows[paper_id] = decode_row(paper_id, row)
            elif isinstance(row, int):  # not read (read above, unless the cache broke meanwhile): its id
                return PaperRow(paper_id, paper_id)
            return row
        paper = self._papers.get(paper_id)
        if paper is None:
            return None
        shown = self._shown_rows.get(paper_id)
        if shown is not None and shown[0] is paper:
            return shown[1]
        if len(self._shown_rows) >= 4096:
            self._shown_rows.clear()
        row = PaperRow.of(paper)
        self._shown_rows[paper_id] = (paper, row)
        return row

    def _read_row_at(
        self, first: tuple[list[str] | PendingIds, dict[str, PaperRow | bytes | int]], at: int, paper_id: str
    ) -> bytes | None:
        """The row line at position ``at`` of the rows cache, read alone while the map of every
        id is not made (the first typed query's rows at 98,150 papers: that map, the ids line
        parsed and every id hashed, cost ~23 ms of CPU), when it is ``paper_id``'s
        (:func:`~paperdeck.store.rows.read_row_at` checks the line names it); kept among the rows
        read at opening (``first``). ``None``: read it as without a position."""
        with self._rows_lock:
            offsets = self._offsets_for(first, at)
            line = read_row_at(self.rows_path, offsets, at, paper_id) if offsets is not None else None
            if line is not None:
                self._row_reads += 1
                first[1][paper_id] = line
            return line

    def _offsets_for(
        self, first: tuple[list[str] | PendingIds, dict[str, PaperRow | bytes | int]], at: int
    ) -> RowOffsets | None:
        """The rows cache's offsets (read at first need) for a row at ``at`` read alone, while
        ``first`` is what is read of the cache, ``at`` is past the rows read at opening, fewer
        than :data:`_ROW_READS` were read so and the catalogue is the file the rows were read
        for; else ``None``. Called holding ``_rows_lock``."""
        unread = self._unread_rows
        if (
            unread is None
            or not self._rows_unread
            or self._rows_first is not first
            or self._row_reads >= _ROW_READS
            or not unread.read <= at
            or file_stamp(self.path) != self._rows_stamp
        ):
            return None
        offsets = self._row_offsets
        if offsets is None:
            count = len(first[0])  # the ids, or the pending line's count
            offsets = self._row_offsets = read_row_offsets(self.rows_path, unread, count) or False
        return offsets if isinstance(offsets, RowOffsets) else None

    def _read_row(self, paper_id: str) -> dict[str, PaperRow | bytes | int] | None:
        """Read the row of ``paper_id``, left unread at opening: alone, where the rows cache's
        offsets line says it lies, for the first :data:`_ROW_READS` such rows while the cache and
        the catalogue are the files the rows were read from; else with every other row
        (:meth:`_read_rows`)."""
        with self._rows_lock:
            rows = self._rows
            if not self._rows_unread or rows is None:
                return rows
            position = rows.get(paper_id)
            if type(position) is not int:  # read meanwhile
                return rows
            unread = self._unread_rows
            if unread is not None and self._row_reads < _ROW_READS and file_stamp(self.path) == self._rows_stamp:
                offsets = self._row_offsets
                if offsets is None:
                    offsets = self._row_offsets = read_row_offsets(self.rows_path, unread, len(rows)) or False
                line = None
                if isinstance(offsets, RowOffsets):
                    line = read_row_at(self.rows_path, offsets, position, paper_id)
                if line is not None:
                    self._row_reads += 1
                    rows[paper_id] = line
                    return rows
        return self._read_rows()

    def _read_rows(self) -> dict[str, PaperRow | bytes | int] | None:
        """Read the rows the opening left unread: from the rows cache when it still lists the
        same papers for the same catalogue file, else by parsing the catalogue (then ``None``:
        the rows come from the papers)."""
        with self._rows_lock:
            rows = self._rows
            if not self._rows_unread or rows is None:
                return rows
            unread = self._unread_rows
            if unread is not None and file_stamp(self.path) == self._rows_stamp:
                ids = list(rows)
                rest = read_unread_rows(self.rows_path, unread, len(ids) - unread.read)
                if rest is not None:  # the same file: its ids and first rows are as read
                    rows.update(zip(ids[unread.read :], rest, strict=True))
                    self._rows_unread = False
                    return rows
        with self._load_lock:
            rows = self._rows
            if not self._rows_unread or rows is None:
                return rows
            cached = read_rows_cache(self.rows_path, self.path)
            same = cached is not None and list(cached.rows) == list(rows)
            if same and file_stamp(self.path) == self._rows_stamp and cached is not None:
                self._rows = rows = cached.rows
                self._rows_unread = False
                return rows
        self.load()
        self._rows_unread = False
        if cached is None and self._catalogue_stamp == self._rows_stamp:
            # Broken past the part read at opening, for the very file parsed now: the next start
            # reads a good one.
            self._find_spans()
            self._write_rows_cache()
        return None

    @property
    def is_empty(self) -> bool:
        """True when the catalogue holds no paper (a first run)."""
        return not self.paper_count

    def stamp(self) -> list[int] | None:
        """The catalogue file's ``[size in bytes, mtime in ns]`` (what caches beside it are keyed
        by), or ``None`` when there is none."""
        try:
            stat = staged_path(self.path).stat()
        except OSError:
            return None
        return [stat.st_size, stat.st_mtime_ns]

    def held_stamp(self) -> list[int] | None:
        """:meth:`stamp` of the catalogue file the papers held (or, not parsed yet, the rows)
        were read from or written to; ``None`` when none are held from a file. What is saved
        built from the papers is keyed by it. Touches no file."""
        stamp = self._catalogue_stamp if self._loaded else self._rows_stamp
        if stamp is None:
            return None
        _, mtime_ns, size = stamp
        return [size, mtime_ns]

    def _load_rows_cache(self) -> bool:
        """Read the rows cache if it matches the catalogue on disk; True when it did."""
        stamp = file_stamp(self.path)  # before: a catalogue replaced meanwhile has another
        first = 0 if self._rows_unread else FIRST_ROWS
        cached = read_rows_cache(self.rows_path, self.path, rows=first, positions=False)
        if cached is None:
            return False
        with self._rows_map_lock:
            if cached.ids is None:
                self._rows_first, self._rows_map = None, cached.rows
            else:  # read in part: the map of every id is made at first need
                self._rows_first, self._rows_map = (cached.ids, cached.rows), None
        self._cached_columns, self._spans_line = cached.columns, cached.spans_line
        self._unread_rows, self._cached_venues = cached.unread, cached.venues
        self._cached_venue_columns = cached.venue_columns
        self._rows_unread = self._unread_rows is not None
        self._row_offsets = None
        self._rows_stamp = stamp
        return True

    def _find_spans(self) -> None:
        """Learn where each paper lies in the catalogue as read (for the rows cache), when the file
        is byte for byte what this store would write for its papers; else leave it unknown."""
        stamp = self._catalogue_stamp
        payload, spans = catalogue_bytes(self._papers, self._aliases)
        try:
            same = self.path.read_bytes() == payload and file_stamp(self.path) == stamp
        except OSError:
            same = False
        if same:
            self._written_spans = (stamp, CatalogueSpans(spans, dict(self._aliases)))

    def _write_rows_cache(self) -> None:
        """Write the rows cache for the catalogue as this store last read or wrote it (with the
        spans when this store wrote that file)."""
        if self._catalogue_stamp is not None:
            written = self._written_spans
            spans = written[1] if written is not None and written[0] == self._catalogue_stamp else None
            write_rows_cache(self.rows_path, self.path, self._catalogue_stamp, self._papers.values(), spans)

    def write_paper_index(self) -> None:
        """Write the paper index (:mod:`paperdeck.store.paper_index`) from the rows cache's spans,
        when the rows were read for the catalogue file as it is now and hold spans; else nothing.
        Silent and best effort (a failure only costs speed)."""
        stamp = self._rows_stamp
        if self._loaded or self._rows is None or stamp is None or file_stamp(self.path) != stamp:
            return
        spans = self._spans()
        if spans is not None:
            from paperdeck.store.paper_index import INDEX_FILE, write_paper_index

            write_paper_index(self.path.parent / INDEX_FILE, stamp, spans.spans.items(), spans.aliases)

    def catch_up(self) -> None:
        """Read the file again when it is not the one last read or written here (another
        process imported): an import merges into the catalogue as it is on disk now, under the
        import lock (merged into a copy read earlier, another process's import would be
        overwritten).

        Raises:
            StoreError: as :meth:`load`.
        """
        if file_stamp(staged_path(self.path)) != self._catalogue_stamp:
            self._read()
            self._rows = None

    def replace(self, papers: dict[str, Paper], aliases: dict[str, str]) -> None:
        """Write ``papers`` and ``aliases`` as the catalogue (atomically), hold them, and write
        the rows cache for the new file; :attr:`generation` changes.

        Raises:
            StoreError: the catalogue cannot be written (then nothing changed).
        """
        self._write(papers, aliases)
        self._papers = papers
        self._generation = next(_GENERATIONS)
        self._scope_papers = None
        self._aliases = aliases
        self._write_rows_cache()

    def written(self) -> WrittenCatalogue | None:
        """The catalogue file as this store last wrote it (:meth:`replace`), to be read again one
        paper at a time (:meth:`WrittenCatalogue.papers`) once the papers are let go of
        (:meth:`release`); ``None`` when the papers are not parsed, or the file on disk is not
        that one (another process imported since, or this transaction has not committed it)."""
        written = self._written_spans
        if not self._loaded or written is None or written[0] is None or written[0] != self._catalogue_stamp:
            return None
        if staged_path(self.path) != self.path or file_stamp(self.path) != written[0]:
            return None
        from paperdeck.store.written import written_of

        return written_of(self.path, written[0], written[1].spans)

    def patched(self) -> WrittenCatalogue | None:
        """The catalogue file as this store's last patch in place wrote it (:meth:`take_patched`),
        to be read again a paper at a time (:meth:`WrittenCatalogue.papers`) while the catalogue
        stays unparsed; ``None`` when the papers are parsed, or the file on disk is not that one."""
        written = self._written_spans
        if self._loaded or written is None or written[0] is None or written[0] != self._catalogue_stamp:
            return None
        if staged_path(self.path) != self.path or file_stamp(self.path) != written[0]:
            return None
        from paperdeck.store.written import written_of

        return written_of(self.path, written[0], written[1].spans)

    def release(self) -> None:
        """Let go of the papers held (what an import builds from them next reads the file again
        a paper at a time: :meth:`written`): the catalogue is then as if not parsed yet, and
        :attr:`papers`, :attr:`paper_ids`, :attr:`paper_count` and :meth:`load` parse the file
        again; :attr:`generation` changes."""
        with self._load_lock:
            self._papers, self._aliases = {}, {}
            self._loaded, self._released = False, True
            self._rows, self._venues = None, None
            self._written_spans = None  # the rows cache written beside the file holds them
            self._shown_rows = {}
            self._generation = next(_GENERATIONS)
            self._scope_papers = None

    def read_named(self, paper_ids: Iterable[str]) -> NamedPapers | None:
        """The papers named by ``paper_ids`` (each its current id, no alias), each parsed alone
        from where the rows cache's spans say it lies, nothing else of the catalogue parsed; for
        :meth:`patch`. ``None`` when that cannot be done exactly: the catalogue is parsed here
        already, this transaction has written it or the rows cache, the cache is not of the file
        as it is or holds no spans, an id is not a paper's, or a document is not where its span
        says (then read the catalogue whole)."""
        if self._loaded or staged_path(self.path) != self.path or staged_path(self.rows_path) != self.rows_path:
            return None
        stamp = file_stamp(self.path)  # before reading: a file replaced meanwhile has another
        cached = read_rows_cache(self.rows_path, self.path)
        if stamp is None or cached is None or cached.spans_line is None:
            return None
        ids = list(cached.rows)
        spans = decode_spans(cached.spans_line, ids)
        if spans is None or cached.venues.paper_count != len(ids):
            return None
        wanted = list(dict.fromkeys(paper_ids))
        if any(pid not in spans.spans for pid in wanted):
            return None
        wanted.sort(key=lambda pid: spans.spans[pid][0])  # catalogue order
        from paperdeck.model.paper import Paper

        papers: dict[str, Paper] = {}
        try:
            with self.path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_ino != stamp[0]:
                    return None
                for pid in wanted:
                    start, end = spans.spans[pid]
                    handle.seek(start)
                    document = handle.read(end - start)
                    paper = Paper.from_dict(orjson.loads(document))
                    if paper.id != pid or len(document) != end - start:
                        return None
                    papers[pid] = paper
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if file_stamp(self.path) != stamp:
            return None
        rows = cast("dict[str, PaperRow | bytes]", cached.rows)  # read whole: every row read
        from paperdeck.store.written import NamedPapers

        return NamedPapers(stamp, ids, papers, spans, dict(rows), cached.columns, cached.venues, cached.venue_columns)

    def patch(self, named: NamedPapers, changed: Mapping[str, Paper], before_write: Callable[[], None]) -> bool:
        """Write the catalogue with the papers of ``named`` replaced by ``changed`` (the same ids:
        no paper added, removed or renamed, the aliases as they are): the old file's bytes copied
        around the changed documents, byte for byte what :meth:`replace` would write for the whole
        catalogue, and the rows cache and paper index rewritten from the old rows with the changed
        ones replaced. The catalogue stays unparsed (its rows are the new ones). ``before_write``
        is called once it is known the patch is exact, before anything is written (the undo
        point's copy). False, and nothing written nor called, when that is not exact (a changed
        paper's venue or list columns would change the rows cache's venues or columns otherwise
        than by adding: then :meth:`replace`).

        Raises:
            StoreError: the catalogue cannot be written (then nothing changed).
        """
        old_rows = named.rows
        made: dict[str, list[Any]] = {}
        for pid, paper in changed.items():
            if pid not in named.papers or paper.id != pid:
                return False
            if paper.library_venue != named.papers[pid].library_venue:
                return False
            row = made[pid] = PaperRow.of(paper).to_list()
            before = PaperRow.of(named.papers[pid]).to_list()
            lost = (before[3] != "unknown" and row[3] == "unknown", before[4] is not None and row[4] is None,
                    bool(before[5]) and not row[5])  # fmt: skip
            if any(lost):  # whether another paper still has one would need every row
                return False
        columns = named.columns
        added = RowColumns.of((row[3], row[4], row[5]) for row in made.values())
        columns = RowColumns(*(a or b for a, b in zip(columns, added, strict=True)))
        known = named.venue_columns
        venue_rows = ((changed[pid].library_venue, row) for pid, row in made.items())
        venue_columns = None if known is None else RowColumns.by_venue(venue_rows, known)
        option = orjson.OPT_NON_STR_KEYS
        documents = {pid: orjson.dumps(paper.to_dict(), option=option) for pid, paper in changed.items()}
        old_spans = named.spans.spans
        order = sorted(documents, key=lambda pid: old_spans[pid][0])
        spans: dict[str, tuple[int, int]] = {}
        shift = 0
        shifts: list[tuple[int, int]] = []  # (old start of a changed document, shift after it)
        for pid in order:
            start, end = old_spans[pid]
            spans[pid] = (start + shift, start + shift + len(documents[pid]))
            shift += len(documents[pid]) - (end - start)
            shifts.append((start, shift))
        spans = _shifted_spans(named.ids, old_spans, shifts) | spans  # in the ids' order, the changed ones' set
        path = self.path
        from paperdeck.store.span_read import bytes_between  # deferred: a patch's, not the rows' read at start

        def pieces() -> Iterator[bytes]:
            with path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_ino != named.stamp[0]:
                    raise OSError(f"{path} was replaced while it was patched")
                at = 0
                for pid in order:
                    start, end = old_spans[pid]
                    yield from bytes_between(handle, at, start)
                    yield documents[pid]
                    handle.seek(end)
                    at = end
                while chunk := handle.read(PIECE_BYTES):
                    yield chunk

        before_write()
        atomic_write_bytes(path, pieces())
        self.take_patched(named.ids, CatalogueSpans(spans, dict(named.spans.aliases)), old_rows, made,
                          columns, named.venues, venue_columns)  # fmt: skip
        return True

    def take_patched(
        self,
        ids: list[str],
        spans: CatalogueSpans,
        old_rows: Mapping[str, PaperRow | bytes],
        made: Mapping[str, list[Any] | bytes],
        columns: RowColumns,
        venues: VenueRuns,
        venue_columns: dict[str, RowColumns] | None = None,
    ) -> None:
        """Hold the catalogue file just written (staged) by a patch in place (:meth:`patch`, or
        :func:`paperdeck.store.rescoring.rescore`) as this store's, unparsed: its papers' ``spans``,
        the rows cache's rows (``old_rows`` with the rows ``made`` (:meth:`PaperRow.to_list`, or
        its JSON line) replaced, in ``ids``' order) written beside it with ``columns``,
        ``venues`` and each venue's columns (``None``: not known); :attr:`generation` changes.
        Each row held is a ``bytes`` of its own length (``orjson.dumps`` returns at least 4 KiB:
        ~400 MB for 98,000 rows made anew)."""
        path = self.path
        stamp = file_stamp(staged_path(path))
        self._catalogue_stamp = stamp
        catalogue_spans = spans
        self._written_spans = (stamp, catalogue_spans)
        new_rows: dict[str, Any] = dict(old_rows)
        if list(new_rows) == ids and all(type(row) is bytes for row in new_rows.values()):
            # Each row's JSON line as the cache held it, the changed ones encoded anew: one copy of
            # the table by id, no pass in Python over every paper.
            new_rows.update((pid, _encoded_row(row)) for pid, row in made.items())
            rows: list[list[Any] | bytes] = list(new_rows.values())
        else:
            rows = []
            for pid in ids:
                encoded = old_rows[pid]
                rows.append(made[pid] if pid in made else encoded if isinstance(encoded, bytes) else encoded.to_list())
            # Held as if the new rows cache were read: the catalogue stays unparsed.
            encoded_rows = (_encoded_row(row) for row in rows)
            new_rows = dict(zip(ids, encoded_rows, strict=True))
        if stamp is not None:
            write_patched_rows(self.rows_path, path, stamp, ids, rows, columns, venues, catalogue_spans, venue_columns)
        self._rows = new_rows
        self._rows_unread, self._unread_rows = False, None
        self._rows_stamp = stamp
        self._cached_columns, self._cached_venues = columns, venues
        self._cached_venue_columns = venue_columns
        self._spans_line, self._cached_spans, self._span_line = None, catalogue_spans, None
        self._generation = next(_GENERATIONS)
        self._scope_papers = None

    def changed(self) -> bool:
        """Whether the catalogue on disk is another than the one last read or written here
        (another process imported meanwhile); ``False`` while it is not parsed yet (:meth:`load`
        reads the file as it is then). One ``stat``, no read."""
        return self._loaded and file_stamp(staged_path(self.path)) != self._catalogue_stamp

    def reload(self) -> bool:
        """Read the catalogue again when another process changed it (:meth:`changed`); True when
        the papers were replaced (:attr:`generation` then changed). The slow part of a start:
        call it in a worker thread; readers meanwhile see the old papers or the new ones, never
        a mix.

        Raises:
            StoreError: the catalogue is no longer valid (the papers read before are kept).
        """
        with self._load_lock:
            if not self.changed():
                return False
            if not self._reread_by_spans():
                self._read()
        return True

    def _reread_by_spans(self) -> bool:
        """Read the catalogue again paper by paper where the rows cache beside it (written by the
        process that imported) says each lies, each unchanged paper kept as the object already
        held: only the papers the import changed are held anew, and the file is never one parsed
        tree. False (nothing changed) when there is no such cache for the file as it is now, or
        the file is not as it says."""
        from paperdeck.store.rows_pieces import ids_in_pieces, span_table_in_pieces  # deferred: a reload's

        stamp = file_stamp(self.path)  # before reading: a file replaced meanwhile has another
        # Its ids and spans alone (no table of them by id), the ids parsed a piece at a time, an
        # id where the held one was being that string: no second string of every id meanwhile.
        read = read_rows_ids(self.rows_path, self.path, partial(ids_in_pieces, held=list(self._papers)))
        if stamp is None or read is None:
            return False
        ids, line = read
        del read
        papers: dict[str, Paper] | None
        if self._lean:
            # Two arrays, not a table by id: the papers are read in file order. A paper whose
            # document is unchanged is taken from the columns held, not parsed again.
            table = span_table_in_pieces(line, len(ids))  # no list of every offset as ints
            if table is None:
                return False
            aliases = table.aliases
            papers = self._read_lean(ids, table.starts, table.ends, stamp, kept=self._papers)
        else:
            spans = decode_spans(line, ids)
            if spans is None:
                return False
            aliases = spans.aliases
            papers = self._read_by_spans(spans, ids, stamp, self._papers)
        if papers is None or len(papers) != len(ids):  # an id twice in the rows cache: read whole
            return False
        self._catalogue_stamp = stamp
        self._papers = papers
        self._generation = next(_GENERATIONS)
        self._scope_papers = None
        self._aliases = dict(aliases)
        return True

    def _read(self) -> None:
        """Read the file (by the rows cache's spans when it is the file they are of, else whole)
        and hold its papers and aliases.

        Raises:
            StoreError: the file is not valid, or was emptied beside a rows cache listing papers.
        """
        path = staged_path(self.path)  # in a transaction that wrote it (an import in place): as it will be
        self._catalogue_stamp = file_stamp(path)  # before reading: errs on re-reading
        if self._rows is not None and self._catalogue_stamp == self._rows_stamp:
            if self._lean and self._cached_spans is None and self._spans_line is not None:
                by_spans, aliases = self._read_lean_by_table(self._spans_line)
            else:
                spans = self._spans()
                if spans is not None and self._lean:
                    by_spans = self._read_lean_by(spans)
                else:
                    by_spans = self._read_by_spans(spans) if spans is not None else None
                aliases = spans.aliases if spans is not None else {}
            if by_spans is not None:
                self._papers = by_spans
                self._generation = next(_GENERATIONS)
                self._scope_papers = None
                self._aliases = dict(aliases)
                return
        held = self._papers  # read again: a paper unchanged stays the object held, not a copy of it
        streamed = _read_streamed(path, held)
        if streamed is not None:
            self._papers, self._aliases = streamed
            self._generation = next(_GENERATIONS)
            self._scope_papers = None
            return
        data = self._storage.read()
        if data is None:
            listed = _rows_cache_count(self.rows_path)
            if listed and self.path.exists():
                # A catalogue emptied (truncated, zeroed) beside a cache of its rows: taken for a
                # first run, the bundled lists or the next import would overwrite it for good.
                reason = (
                    f"is empty, but {ROWS_FILE} lists {listed:,} papers: the catalogue was lost or "
                    "truncated; restore it from a backup or move both aside — paperdeck will not overwrite it"
                )
                raise StoreError(self.path, reason)
            return
        check_schema(data, self.path)
        from paperdeck.model.paper import Paper

        try:
            papers = list(map(Paper.from_dict, _drained(data.get("papers") or {})))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a paper record is malformed ({malformed(exc)}); restore the file from a backup "
                "or move it aside — paperdeck will not overwrite it"
            )
            raise StoreError(self.path, reason) from None
        self._papers = {paper.id: _same_or(held.get(paper.id), paper) for paper in papers}
        self._generation = next(_GENERATIONS)
        self._scope_papers = None
        alias_docs = data.get("aliases") or {}
        self._aliases = {str(k): str(v) for doc in alias_docs.values() for k, v in doc.items()}

    def _write(self, papers: dict[str, Paper], aliases: dict[str, str]) -> None:
        spans: dict[str, tuple[int, int]] = {}
        atomic_write_bytes(self.path, catalogue_pieces(papers, aliases, spans))  # streamed: never held whole
        self._catalogue_stamp = file_stamp(staged_path(self.path))  # in a transaction: as it will be
        self._written_spans = (self._catalogue_stamp, CatalogueSpans(spans, dict(aliases)))

    @property
    def aliases(self) -> dict[str, str]:
        """Old paper ids (replaced by a merge, or another source's id of the same paper) → the id
        each stood for (a copy; follow chains with :meth:`resolve`)."""
        return dict(self._aliases)

    def resolve(self, paper_id: str) -> str:
        """The current id of a paper known by ``paper_id`` (which may be an older alias); an id
        that is no alias comes back as it is. While the catalogue is not parsed, the rows cache's
        aliases are followed (the catalogue is parsed when the cache has none)."""
        if not self._loaded and self._rows is not None:
            spans = self._spans()
            if spans is not None:
                return _follow(spans.aliases, paper_id)
            self.load()
        return _follow(self._aliases, paper_id)


def one_named(given: str, papers: Iterable[Paper | None]) -> Paper | None:
    """The one paper of ``papers`` (the papers a bare id ``given`` names under each kind of id;
    ``None`` for a kind none has), ``None`` when there is none.

    Raises:
        AmbiguousId: papers of several kinds have it (one line naming them).
    """
    found = {paper.id: paper for paper in papers if paper is not None}
    if len(found) > 1:
        from paperdeck.model.errors import AmbiguousId

        raise AmbiguousId(given, sorted(found))
    return next(iter(found.values()), None)


def _encoded_row(row: list[Any] | bytes) -> bytes:
    """A row's JSON line (:meth:`PaperRow.to_list`'s encoded) in a ``bytes`` of its own length."""
    return row if type(row) is bytes else memoryview(orjson.dumps(row)).tobytes()


def _drained(documents: dict[str, Any]) -> Iterator[Any]:
    """The values of ``documents`` in order, each removed as it is taken (the parsed JSON of a
    paper is freed once its :class:`Paper` is made: the two are never all held at once)."""
    if not isinstance(documents, dict):
        raise TypeError("the papers table is not an object")
    for key in list(documents):
        yield documents.pop(key)


def _same_or(held: Paper | None, paper: Paper) -> Paper:
    """``held`` when it equals ``paper`` (a paper read again, unchanged: one object, not two);
    else ``paper`` with every field equal to ``held``'s taken from ``held`` (a paper whose
    decision or ratings changed shares its abstract, title and authors with the one held, so
    a catalogue read again while the old one is held is not held twice over)."""
    if held is None:
        return paper
    if held == paper:
        return held
    import dataclasses

    values = {}
    for spec in dataclasses.fields(paper):
        new, old = getattr(paper, spec.name), getattr(held, spec.name)
        values[spec.name] = old if type(old) is type(new) and old == new else new
    return type(paper)(**values)


#: Between two documents of the papers table as :func:`catalogue_bytes` writes it (``},"12":{``);
#: no JSON string can hold it (its ``"`` would be escaped). A match inside a document (an object
#: keyed by digits in a paper) is found out when the piece up to it does not parse. Compiled where
#: it is used (after the first frame: ``re`` keeps it), not at import.
_NEXT_DOCUMENT = rb'\},"[0-9]+":\{'
#: What ends the papers table and begins the aliases' (``catalogue_bytes``'s layout).
_ALIASES_AT = b'},"aliases":'
#: Bytes read at a time when the catalogue is read document by document.
_CHUNK = 1 << 20
#: Separators inside one document (digits keying objects in it) tried before the file is taken
#: for a broken one and parsed whole: each try parses the piece up to the next separator.
_TRIES = 64


def _read_streamed(path: Path, held: Mapping[str, Paper]) -> tuple[dict[str, Paper], dict[str, str]] | None:
    """The papers and aliases of the catalogue file, read a chunk at a time and parsed one paper
    document after another: the file is never held whole nor parsed as one tree (which takes
    twice the memory of the papers it holds), each paper equal to one ``held`` is that object
    (:func:`_same_or`). ``None`` when the file is not laid out as :func:`catalogue_bytes` writes
    it, or anything in it does not parse: then it is read whole, which names what is wrong.

    Raises:
        StoreError: the path is a FIFO, device or socket (reading it would wait for ever)."""
    from paperdeck.model.paper import Paper

    paper_of = Paper.from_dict
    papers: dict[str, Paper] = {}
    next_document = re.compile(_NEXT_DOCUMENT)
    try:
        check_regular_file(path)  # a FIFO or device: refused by name, never waited on
        with path.open("rb") as handle:
            buffer = handle.read(max(_CHUNK, 4096))  # the meta table whole
            meta_end = buffer.find(b',"papers":{"')
            if not buffer.startswith(b'{"meta":') or meta_end < 0:
                return None
            check_schema({"meta": orjson.loads(buffer[8:meta_end])}, path)
            start = buffer.find(b"{", meta_end + 11)  # the first document's
            if start < 0:
                return None
            scan = start
            tries = 0
            while True:
                view = memoryview(buffer)  # pieces parsed in place, not copied
                for found in next_document.finditer(buffer, scan):
                    scan = found.start() + 1  # tried: never again
                    try:
                        document = orjson.loads(view[start : found.start() + 1])
                    except orjson.JSONDecodeError:
                        tries += 1  # digits keying an object inside a paper: the piece goes on
                        if tries > _TRIES:
                            return None  # a broken file: parsed whole, which names the fault
                        continue
                    paper = paper_of(document)
                    papers[paper.id] = _same_or(held.get(paper.id), paper)
                    start, tries = found.end() - 1, 0
                view.release()
                chunk = handle.read(_CHUNK)
                if not chunk:
                    break
                # Scanned again from past the last separator tried: one may be split between chunks.
                buffer = buffer[start:] + chunk
                scan, start = max(scan, start) - start, 0
        last = buffer[start:].rstrip()
        end = last.rfind(_ALIASES_AT)
        if end < 0 or not last.endswith(b"}"):
            return None
        paper = paper_of(orjson.loads(last[:end]))
        papers[paper.id] = _same_or(held.get(paper.id), paper)
        alias_docs = orjson.loads(last[end + len(_ALIASES_AT) : -1])
        aliases = {str(k): str(v) for doc in alias_docs.values() for k, v in doc.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return papers, aliases


def _follow(aliases: Mapping[str, str], paper_id: str) -> str:
    """``paper_id`` through at most 8 ``aliases`` (old id → id)."""
    for _ in range(8):
        if paper_id not in aliases:
            break
        paper_id = aliases[paper_id]
    return paper_id


def catalogue_bytes(papers: dict[str, Paper], aliases: dict[str, str]) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """The catalogue file's text for ``papers`` and ``aliases`` (TinyDB's layout: tables
    ``meta``, ``papers`` keyed by :func:`~paperdeck.store.user_data.doc_id_for`, ``aliases``;
    byte for byte what ``orjson.dumps`` makes of the whole), and each paper's span in it:
    paper id → ``(start, end)`` byte offsets of its document. :func:`catalogue_pieces` gives the
    same text in pieces, never held whole."""
    spans: dict[str, tuple[int, int]] = {}
    return b"".join(catalogue_pieces(papers, aliases, spans)), spans


#: Bytes of the catalogue's text gathered before a piece of it is given (:func:`catalogue_pieces`).
PIECE_BYTES = 1 << 20


def catalogue_pieces(
    papers: Mapping[str, Paper], aliases: Mapping[str, str], spans: dict[str, tuple[int, int]]
) -> Iterator[bytes]:
    """The text of :func:`catalogue_bytes` in pieces of about :data:`PIECE_BYTES` (the last ones
    shorter), each made as it is asked for: written as they come, the file is never held whole,
    nor its documents (each ``orjson`` result is dropped once copied into its piece). ``spans``
    is filled as the pieces are made (complete once the last is given)."""
    option = orjson.OPT_NON_STR_KEYS
    piece = bytearray(b'{"meta":')
    piece += orjson.dumps({"1": meta()}, option=option)
    piece += b',"papers":{'
    at = len(piece)
    dumps = orjson.dumps
    for n, (paper_id, paper) in enumerate(papers.items()):
        key = (b"," if n else b"") + dumps(str(doc_id_for(paper_id))) + b":"
        document = dumps(paper.to_dict(), option=option)
        at += len(key)
        spans[paper_id] = (at, at + len(document))
        at += len(document)
        piece += key
        piece += document
        if len(piece) >= PIECE_BYTES:
            yield bytes(piece)
            piece.clear()
    piece += b'},"aliases":'
    piece += orjson.dumps({"1": dict(aliases)}, option=option)
    piece += b"}"
    yield bytes(piece)


def _rows_cache_count(rows_path: Path) -> int:
    """How many papers the rows cache's first line says it lists (0 when there is none or it is
    unreadable): only its first line is read."""
    try:
        with rows_path.open("rb") as handle:
            header = orjson.loads(handle.readline(4096))
        count = header.get("rows") if isinstance(header, dict) else None
    except (OSError, ValueError):
        return 0
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def _in_order(starts: array[int], ends: array[int], after: int, size: int) -> bool:
    """Whether the spans ``[starts[i], ends[i])`` are each non-empty, one after another, from
    ``after`` on and within ``size`` bytes (as the papers of a catalogue file lie)."""
    if not starts:
        return True
    return (
        after <= starts[0]
        and ends[-1] <= size
        and all(map(lt, starts, ends))
        and all(map(le, islice(ends, len(ends) - 1), islice(starts, 1, None)))
    )
