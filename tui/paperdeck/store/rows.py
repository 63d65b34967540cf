"""List rows (:class:`PaperRow`: what the list shows of a paper) and the rows cache
(``rows-cache.json`` beside the catalogue), read at start-up instead of parsing the whole catalogue.

Shape: JSON Lines. Line 1 is ``{"catalogue": [size in bytes, mtime in ns], "rows": N, "columns":
{"decisions": bool, "ratings": bool}, "spreads": true, "venues": {"labels": [...], "runs": [...]},
"spans": true}`` (``venues``: each paper's venue, :class:`VenueRuns`; valid only for the catalogue
file with that size and time; the columns say whether any paper has a decision or a rating, so the
list's first paint has the columns it keeps once the catalogue is parsed; ``"venue_columns":
{venue: [decisions, ratings, areas]}``, when written, the same for each venue, so that a venue
scope's columns are known without its rows read); line 2 the N paper ids, a
JSON array in catalogue order; with ``"spans"``, line 3 ``{"spans": [start, end, ...], "aliases":
{old id: id}}``: where each paper's document lies in the catalogue file (byte offsets, two per
paper in the ids' order; see :class:`CatalogueSpans`) and the catalogue's aliases, so that one paper
is read without parsing the others; then one line per paper, each :meth:`PaperRow.to_list`; then
(``"offsets": true``) the rows' offsets: where each row's line starts in the file and where the
last one ends (``N + 1`` little-endian 64-bit numbers, base64, one line of
:func:`offsets_line_size` bytes: found from the file's end without reading the rows). The ids line
lets the store open without decoding a row: each row is decoded when first shown; and without
reading every row: the store reads the first screen's at opening, and a row past them when it is
first asked for, alone, at its offset (:func:`read_row_at`; the rest from where the opening
stopped once many were, :class:`UnreadRows`). A cache written without offsets is of an older
paperdeck: not read (the catalogue is parsed and the cache written again).
"""

from __future__ import annotations

import binascii
import contextlib
import io
import os
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import atomic_write_bytes, staged_path
from paperdeck.store.ids_line import PendingIds, parse_ids_line
from paperdeck.values import FrozenValue, TupleValue

if TYPE_CHECKING:  # rows are read before any paper record is (the store's opening, the first frame)
    from paperdeck.model.paper import Paper


class PaperRow(FrozenValue):
    """What a list row needs of a paper: small enough to keep for every paper of a full conference,
    cached on disk so the list paints before the catalogue is parsed.

    Immutable, compared and hashed by its fields, as a frozen dataclass is (:class:`~paperdeck.values.FrozenValue`:
    making a dataclass, ~0.8 ms of CPU, would come before the first paint).

    Attributes:
        id: the paper id.
        title: display title.
        title_derived: the title was derived from the abstract.
        decision: one of :data:`~paperdeck.model.paper.DECISIONS`.
        rating: mean review rating, ``None`` when there are none.
        area: the primary area, ``""`` when unknown.
        spread: highest minus lowest review rating, ``None`` when unknown (no ratings, or a
            source giving only their mean).
    """

    __slots__ = ("area", "decision", "id", "rating", "spread", "title", "title_derived")
    FIELDS = ("id", "title", "title_derived", "decision", "rating", "area", "spread")

    id: str
    title: str
    title_derived: bool
    decision: str
    rating: float | None
    area: str
    spread: float | None

    def __init__(
        self,
        id: str,
        title: str,
        title_derived: bool = False,
        decision: str = "unknown",
        rating: float | None = None,
        area: str = "",
        spread: float | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "id", id)
        put(self, "title", title)
        put(self, "title_derived", title_derived)
        put(self, "decision", decision)
        put(self, "rating", rating)
        put(self, "area", area)
        put(self, "spread", spread)

    @classmethod
    def of(cls, paper: Paper) -> PaperRow:
        """The row of ``paper``; a title with LaTeX (``C$^3$-Bench``, ````quotes''``) is shown rendered
        (``C³-Bench``, “quotes”)."""
        ratings = paper.ratings
        rating = ratings.mean if ratings is not None else None
        low, high = (ratings.min, ratings.max) if ratings is not None else (None, None)
        spread = high - low if high is not None and low is not None else None
        title = paper.title
        if "$" in title or "\\" in title or "''" in title or "``" in title:
            from paperdeck.text.render import render_plain  # deferred: a bare start renders no LaTeX

            title = render_plain(title)
        return cls(paper.id, title, paper.title_derived, paper.decision, rating, paper.primary_area, spread)

    def to_list(self) -> list[Any]:
        """Compact JSON form: ``[id, title, derived, decision, rating, area]``, then the spread
        when known."""
        data = [self.id, self.title, self.title_derived, self.decision, self.rating, self.area]
        return data if self.spread is None else [*data, self.spread]

    @classmethod
    def from_list(cls, data: list[Any]) -> PaperRow:
        """Inverse of :meth:`to_list` (a row written without its area or spread has none).

        Raises:
            ValueError, TypeError: not a row.
        """
        paper_id, title, derived, decision, rating, *rest = data
        if not isinstance(paper_id, str) or not isinstance(title, str):
            raise TypeError("row id and title must be strings")
        if len(rest) > 2 or (rest and not isinstance(rest[0], str)):
            raise ValueError("a row holds at most an area and a spread after its rating")
        area = rest[0] if rest else ""
        spread = float(rest[1]) if len(rest) > 1 else None
        rated = None if rating is None else float(rating)
        return cls(paper_id, title, bool(derived), str(decision), rated, area, spread)


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """``(inode, mtime_ns, size)`` of a file (each write replaces it), ``None`` when missing."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


class CatalogueSpans:
    """Where each paper's document lies in one catalogue file, and the catalogue's aliases.
    (A plain class, equal by its fields: a dataclass costs ~1 ms to make at every start, before
    the first paint, which reads no span.)

    Attributes:
        spans: paper id → ``(start, end)`` byte offsets of its JSON document in the file.
        aliases: old paper id → the id it stood for (as the catalogue's ``aliases`` table).
    """

    __slots__ = ("aliases", "spans")

    def __init__(self, spans: dict[str, tuple[int, int]], aliases: dict[str, str]) -> None:
        self.spans, self.aliases = spans, aliases

    def __eq__(self, other: object) -> bool:
        if type(other) is not CatalogueSpans:
            return NotImplemented
        return self.spans == other.spans and self.aliases == other.aliases

    __hash__ = None  # type: ignore[assignment]  # its tables are not hashable

    def __repr__(self) -> str:
        return f"CatalogueSpans(spans={self.spans!r}, aliases={self.aliases!r})"


class VenueRuns(TupleValue):
    """Each paper's venue in the library (:attr:`Paper.library_venue
    <paperdeck.model.paper.Paper.library_venue>`), in catalogue order, run-length coded: the
    venues named once (``labels``) and ``(label index, papers)`` runs covering every paper in
    order. Papers are imported a file, so mostly a venue, at a time: a store of eight venues has a
    handful of runs, and the venue scope finds its papers without parsing the catalogue.

    A tuple ``(labels, runs)``, as the named tuple it was (:class:`~paperdeck.values.TupleValue`:
    made before the first paint).
    """

    __slots__ = ()
    FIELDS = ("labels", "runs")

    def __new__(cls, labels: tuple[str, ...] = (), runs: tuple[tuple[int, int], ...] = ()) -> VenueRuns:
        return tuple.__new__(cls, (labels, runs))

    @property
    def labels(self) -> tuple[str, ...]:
        """The venues, each named once, in the order first imported."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def runs(self) -> tuple[tuple[int, int], ...]:
        """``(label index, papers)`` runs covering every paper in catalogue order."""
        return self[1]  # type: ignore[no-any-return]

    @classmethod
    def of(cls, venues: Iterable[str]) -> VenueRuns:
        """The runs of ``venues``, one per paper in catalogue order."""
        index: dict[str, int] = {}
        runs: list[list[int]] = []
        for venue in venues:
            n = index.setdefault(venue, len(index))
            if runs and runs[-1][0] == n:
                runs[-1][1] += 1
            else:
                runs.append([n, 1])
        return cls(tuple(index), tuple((n, count) for n, count in runs))

    @property
    def paper_count(self) -> int:
        """How many papers the runs cover."""
        return sum(count for _, count in self.runs)

    def counts(self) -> dict[str, int]:
        """Papers by venue, the venues in the order first imported."""
        counts = dict.fromkeys(self.labels, 0)
        for n, count in self.runs:
            counts[self.labels[n]] += count
        return counts

    def to_json(self) -> dict[str, Any]:
        """``{"labels": [...], "runs": [label index, papers, ...]}`` (flat)."""
        return {"labels": list(self.labels), "runs": [value for run in self.runs for value in run]}

    @classmethod
    def from_json(cls, data: object, papers: int) -> VenueRuns:
        """Inverse of :meth:`to_json`, checked to cover ``papers`` papers.

        Raises:
            ValueError: not runs of that many papers.
        """
        if (
            type(data) is not dict
            or type(labels := data.get("labels")) is not list
            or type(flat := data.get("runs")) is not list
        ):
            raise ValueError("no venue runs")
        if set(map(type, labels)) - {str} or set(map(type, flat)) - {int} or len(flat) % 2:
            raise ValueError("venue runs of the wrong types")
        runs = tuple(zip(flat[0::2], flat[1::2], strict=True))
        if any(not 0 <= n < len(labels) or count < 1 for n, count in runs):
            raise ValueError("a venue run out of range")
        found = cls(tuple(labels), runs)
        if found.paper_count != papers:
            raise ValueError("venue runs for another number of papers")
        return found


class RowsCache:
    """What :func:`read_rows_cache` read: the rows (each still encoded; for one not read, its
    position among the rows, an ``int``: :func:`read_row_at`),
    the list's columns, the spans line still encoded (decode it with :func:`decode_spans` at first
    need; ``None`` when the cache was written without one), and, when not every row was read,
    where the others are (:class:`UnreadRows`). Read in part without ``positions``, ``rows``
    holds the rows read only and ``ids`` every id in order, those past the rows read still
    encoded when that is exact (:class:`~paperdeck.store.ids_line.PendingIds`); else ``ids`` is
    ``None``. (A plain
    class, as :class:`UnreadRows` and :class:`SpanTable`: a named tuple's class costs its making
    at every start, before the first paint.)"""

    __slots__ = ("columns", "ids", "rows", "spans_line", "unread", "venue_columns", "venues")

    def __init__(
        self,
        rows: dict[str, PaperRow | bytes | int],
        columns: RowColumns,
        spans_line: bytes | None,
        unread: UnreadRows | None = None,
        venues: VenueRuns | None = None,
        ids: list[str] | PendingIds | None = None,
        venue_columns: dict[str, RowColumns] | None = None,
    ) -> None:
        self.rows, self.columns, self.spans_line, self.unread = rows, columns, spans_line, unread
        self.venues = VenueRuns() if venues is None else venues
        self.ids = ids
        #: Each venue's columns (:meth:`RowColumns.by_venue`); ``None``: not written with them.
        self.venue_columns = venue_columns


class UnreadRows:
    """Where the rows a partial :func:`read_rows_cache` left unread are: the rows file's
    ``(inode, mtime_ns, size)`` when read (``stamp``), the byte offset of the first row not read
    (``offset``), and how many rows were read before it (``read``; :func:`read_unread_rows`)."""

    __slots__ = ("offset", "read", "stamp")

    def __init__(self, stamp: tuple[int, int, int], offset: int, read: int) -> None:
        self.stamp, self.offset, self.read = stamp, offset, read


class RowColumns(TupleValue):
    """Whether any paper has a decision (other than unknown) / a rating / a primary area: the
    list shows a column for each only then. A tuple ``(decisions, ratings, areas)``, as the named
    tuple it was (:class:`~paperdeck.values.TupleValue`: made before the first paint)."""

    __slots__ = ()
    FIELDS = ("decisions", "ratings", "areas")

    def __new__(cls, decisions: bool, ratings: bool, areas: bool = False) -> RowColumns:
        return tuple.__new__(cls, (decisions, ratings, areas))

    @property
    def decisions(self) -> bool:
        """Whether any paper has a decision other than unknown."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def ratings(self) -> bool:
        """Whether any paper has a rating."""
        return self[1]  # type: ignore[no-any-return]

    @property
    def areas(self) -> bool:
        """Whether any paper has a primary area."""
        return self[2]  # type: ignore[no-any-return]

    @classmethod
    def of(cls, rows: Iterable[tuple[str, object, str]]) -> RowColumns:
        """The columns for papers given as ``(decision, rating or ratings, area)`` triples."""
        triples = list(rows)
        return cls(
            any(decision != "unknown" for decision, _, _ in triples),
            any(rating is not None for _, rating, _ in triples),
            any(area for _, _, area in triples),
        )

    @staticmethod
    def by_venue(
        rows: Iterable[tuple[str, Sequence[Any]]], known: Mapping[str, RowColumns] | None = None
    ) -> dict[str, RowColumns]:
        """Each venue's columns: those ``known`` with the rows ``(venue, row as
        :meth:`PaperRow.to_list`)`` added (a venue scope's columns without its rows read)."""
        found = {venue: list(columns) for venue, columns in (known or {}).items()}
        for venue, row in rows:
            columns = found.get(venue)
            if columns is None:
                columns = found[venue] = [False, False, False]
            columns[0] = columns[0] or row[3] != "unknown"
            columns[1] = columns[1] or row[4] is not None
            columns[2] = columns[2] or bool(row[5])
        return {venue: RowColumns(*columns) for venue, columns in found.items()}


def _venue_columns_from(data: object, labels: tuple[str, ...]) -> dict[str, RowColumns] | None:
    """The rows cache header's ``venue_columns`` (``{venue: [decisions, ratings, areas]}``, every
    venue of ``labels``); ``None`` when absent (written without them) or not so."""
    if type(data) is not dict or data.keys() != set(labels):
        return None
    found = {}
    for venue, flags in data.items():
        if type(flags) is not list or len(flags) != 3 or set(map(type, flags)) != {bool}:
            return None
        found[venue] = RowColumns(*flags)
    return found


#: Bytes read at once from the rows cache, at least (:func:`_open_rows`).
_READ_BUFFER = 1 << 20
#: Bytes read at once from the rows cache, at most.
_MAX_READ_BUFFER = 1 << 26


def _open_rows(rows_path: Path) -> io.BufferedReader:
    """``rows_path`` opened to read its head: with a buffer of a quarter of the file (between
    :data:`_READ_BUFFER` and :data:`_MAX_READ_BUFFER`), which holds the header, ids and spans
    lines (together under a fifth of it) in one piece. ``readline`` finds a line within its
    buffer at once, but gathers a line longer than it piece by piece, scanning it byte by byte:
    at 98,150 papers the ids and spans lines (4.2 MB) cost four times the instructions read so.

    Raises:
        OSError: the file cannot be opened.
    """
    raw = open(rows_path, "rb", buffering=0)  # noqa: SIM115 - closed with the reader returned
    try:
        size = os.fstat(raw.fileno()).st_size
    except OSError:
        raw.close()
        raise
    return io.BufferedReader(raw, buffer_size=max(_READ_BUFFER, min(size // 4, _MAX_READ_BUFFER)))


def offsets_line_size(count: int) -> int:
    """Bytes of the offsets line of a rows cache of ``count`` rows, its newline included: base64
    of ``count + 1`` 64-bit numbers."""
    return 4 * ((8 * (count + 1) + 2) // 3) + 1


def _offsets_line(offsets: array[int]) -> bytes:
    """The offsets line (:func:`offsets_line_size`) of ``offsets`` (an ``array('q')``)."""
    if sys.byteorder == "big":  # written little-endian
        offsets = array("q", offsets)
        offsets.byteswap()
    return binascii.b2a_base64(offsets.tobytes(), newline=True)


class RowOffsets:
    """The offsets line of a rows file (:func:`read_row_offsets`), read an entry at need: each
    row's start, then where the last ends (base64 of little-endian 64-bit numbers, ``count + 1``
    of them, from byte ``end`` of the file), and where the rows lie (``first`` the first row's
    offset, ``end`` the offsets line's), for the file with ``stamp``. (A plain class: a named
    tuple's class costs its making at every start, before the first frame.)"""

    __slots__ = ("count", "end", "first", "stamp")

    def __init__(self, count: int, first: int, end: int, stamp: tuple[int, int, int]) -> None:
        self.count, self.first, self.end, self.stamp = count, first, end, stamp

    def span(self, fd: int, position: int) -> tuple[int, int] | None:
        """Where the row at ``position`` starts and ends, read from the open rows file ``fd``
        (only the base64 of those two numbers); ``None`` when they are not readable so."""
        if not 0 <= position < self.count:
            return None
        found = _offset_entries(fd, self.end, position, 2)
        return (found[0], found[1]) if found is not None else None


def _offset_entries(fd: int, line_at: int, index: int, count: int) -> tuple[int, ...] | None:
    """``count`` numbers from the ``index``-th of the offsets line at byte ``line_at`` of the
    file ``fd`` (each 8 bytes, base64 in groups of 4 characters for 3 bytes): only the groups
    that hold them read and decoded; ``None`` when they are not base64 or the line ends first."""
    start, stop = 8 * index, 8 * (index + count)
    first_group, end_group = start // 3, -(-stop // 3)
    try:
        text = os.pread(fd, 4 * (end_group - first_group), line_at + 4 * first_group)
        raw = binascii.a2b_base64(text, strict_mode=True)
    except (OSError, binascii.Error, ValueError):
        return None
    skip = start - 3 * first_group
    chunk = raw[skip : skip + 8 * count]
    if len(chunk) != 8 * count:
        return None
    return tuple(int.from_bytes(chunk[n : n + 8], "little", signed=True) for n in range(0, 8 * count, 8))


#: The merge's title key the catalogue was last merged with (:func:`paperdeck.model.ids.title_match_key`:
#: 2, LaTeX read as shown), in the rows cache's header: a cache without it is of a catalogue that may
#: hold one paper twice (``R\\'enyi`` beside ``Rényi``), so an import merges the whole catalogue once.
TITLE_KEYS = 2

#: How the rows' titles were rendered (:meth:`PaperRow.of`), in the rows cache's header: 2, LaTeX
#: quotes curled and fractions unambiguous. A cache of another rendering is not read: the catalogue
#: is parsed once and the cache written again, so a store made before shows the titles as now.
TITLES_RENDERED = 2


def rows_cache_keyed(rows_path: Path) -> bool:
    """Whether the rows cache says its catalogue was merged with the current title key
    (:data:`TITLE_KEYS`); only its first line is read."""
    try:
        with rows_path.open("rb") as handle:
            header = orjson.loads(handle.readline())
    except (OSError, ValueError):
        return False
    return type(header) is dict and header.get("title_keys") == TITLE_KEYS


def _head(
    handle: BinaryIO, stat: os.stat_result, parse_ids: Callable[[bytes], Any] = orjson.loads
) -> tuple[dict[str, Any], list[str] | PendingIds, bytes | None] | None:
    """The header, the ids and the spans line of a rows cache (``handle`` at its start) written for
    the catalogue of ``stat``; ``None`` when it is not one this paperdeck reads. ``parse_ids``
    parses the ids line (a reload's shares the ids held:
    :func:`~paperdeck.store.rows_pieces.ids_in_pieces`; a partial read's parses the first ids
    only: :func:`~paperdeck.store.ids_line.parse_ids_line`, then ``count`` is set here).

    Raises:
        ValueError, TypeError, KeyError, OSError: the file is broken.
    """
    header = orjson.loads(handle.readline())
    if type(header) is not dict or header.get("catalogue") != [stat.st_size, stat.st_mtime_ns]:
        return None
    if header.get("spreads") is not True:  # written before rows carried the rating spread
        return None
    if header.get("offsets") is not True:  # written before the rows' offsets
        return None
    if header.get("titles") != TITLES_RENDERED:  # titles rendered otherwise (LaTeX quotes kept)
        return None
    count = header["rows"]
    ids = parse_ids(handle.readline())
    spans_line = handle.readline().rstrip(b"\n") if header.get("spans") is True else None
    if type(ids) is PendingIds and type(count) is int and count > len(ids.first):
        ids.count = count  # the rest parsed, counted and checked at first need
        return header, ids, spans_line
    if not (type(ids) is list and len(ids) == count):
        return None
    "".join(ids)  # TypeError unless every id is text (a C pass; a set of types cost more)
    return header, ids, spans_line


def read_rows_ids(
    rows_path: Path, catalogue_path: Path, parse_ids: Callable[[bytes], Any] = orjson.loads
) -> tuple[list[str], bytes] | None:
    """The ids (in catalogue order) and the spans line of the rows cache written for the
    catalogue file as it is now, as :func:`read_rows_cache` reads them, and nothing else: no
    table of the rows by id (a catalogue read again holds the old papers meanwhile). ``None``
    as :func:`read_rows_cache`, or when the cache has no spans line. An id twice is not found
    here: the papers read by the spans then fall short of the ids. ``parse_ids``: as :func:`_head`'s."""
    try:
        stat = catalogue_path.stat()
        with _open_rows(rows_path) as handle:
            head = _head(handle, stat, parse_ids)
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return None
    if head is None or head[2] is None or type(head[1]) is not list:
        return None
    return head[1], head[2]


def read_rows_cache(
    rows_path: Path, catalogue_path: Path, *, rows: int | None = None, positions: bool = True
) -> RowsCache | None:
    """The cached rows by paper id, in catalogue order, each still encoded (``bytes``, one JSON
    line: decode it with :func:`decode_row` when first shown), the list's columns and the spans
    line; ``None`` when the cache is missing, broken, of an older paperdeck (no offsets line) or
    made for another catalogue file (then the catalogue must be read). With ``rows`` a number
    below the cache's count, only the ids, columns, spans and that many first rows are read, the
    file no further (each other id then maps to its position, an ``int``, and
    :attr:`RowsCache.unread` says where their lines are: the list's first screen, or ``0`` for a
    command reading a few papers): read them with :func:`read_row_at` or :func:`read_unread_rows`
    when they are wanted. A cache read in part is checked as far as it was read; one read whole,
    every row is counted and the offsets line's size checked. Read in part with ``positions``
    false, the ids are kept as a list (:attr:`RowsCache.ids`) and the rows by id hold the rows
    read only: the ids past those are neither mapped nor checked unique here (the reader does,
    at first need: hashing every id costs ~8 ms at 98,150 papers)."""
    unread: UnreadRows | None = None
    try:
        stat = catalogue_path.stat()
        with _open_rows(rows_path) as handle:
            lazy = rows is not None and not positions  # the ids past the rows read parsed at first need
            head = _head(handle, stat, partial(parse_ids_line, wanted=rows or 0) if lazy else orjson.loads)
            if head is None:
                return None
            header, ids, spans_line = head
            count = len(ids)
            venues = VenueRuns.from_json(header.get("venues"), count)  # none: written before venues
            if rows is None or rows >= count:
                encoded = handle.read().split(b"\n")
                if encoded and not encoded[-1]:
                    encoded.pop()  # the final newline
                if not encoded or len(encoded.pop()) + 1 != offsets_line_size(count):  # the offsets line
                    return None
                if len(encoded) != count:
                    return None
            else:
                encoded = [handle.readline() for _ in range(min(rows, count))]
                if encoded and not encoded[-1]:  # the file ends before them
                    return None
                encoded = [line.rstrip(b"\n") for line in encoded]
                opened = os.fstat(handle.fileno())
                unread = UnreadRows((opened.st_ino, opened.st_mtime_ns, opened.st_size), handle.tell(), len(encoded))
        shown = header["columns"]
        columns = RowColumns(shown["decisions"], shown["ratings"], shown.get("areas", False))
        if set(map(type, columns)) != {bool}:
            return None
        venue_columns = _venue_columns_from(header.get("venue_columns"), venues.labels)
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return None
    by_id: dict[str, PaperRow | bytes | int]
    if isinstance(ids, PendingIds) or (rows is not None and rows < count and not positions):
        by_id = dict(zip(ids.first if isinstance(ids, PendingIds) else ids, encoded, strict=False))
        if len(by_id) != len(encoded):  # an id twice among those read
            return None
        return RowsCache(by_id, columns, spans_line, unread, venues, ids, venue_columns)
    if rows is None or rows >= count:
        by_id = dict(zip(ids, encoded, strict=True))
    else:
        by_id = dict(zip(ids, range(count), strict=True))  # a row not read: its position (read_row_at)
        by_id.update(zip(ids, encoded, strict=False))
    if len(by_id) != count:  # an id twice
        return None
    return RowsCache(by_id, columns, spans_line, unread, venues, venue_columns=venue_columns)


def read_unread_rows(rows_path: Path, unread: UnreadRows, count: int) -> list[bytes] | None:
    """The lines of the rows a partial :func:`read_rows_cache` left unread (``count`` of them,
    in order, each still encoded), read from where it stopped; ``None`` when the rows file is no
    longer the one it read (rewritten since) or does not hold that many rows (then read the
    cache again whole). The ids and rows read before are not read again."""
    try:
        with rows_path.open("rb") as handle:
            now = os.fstat(handle.fileno())
            if (now.st_ino, now.st_mtime_ns, now.st_size) != unread.stamp:
                return None
            handle.seek(unread.offset)
            encoded = handle.read().split(b"\n")
    except OSError:
        return None
    if encoded and not encoded[-1]:
        encoded.pop()  # the final newline
    if not encoded or len(encoded.pop()) + 1 != offsets_line_size(unread.read + count):  # the offsets line
        return None
    return encoded if len(encoded) == count else None


def read_row_offsets(rows_path: Path, unread: UnreadRows, count: int) -> RowOffsets | None:
    """The offsets line of the rows file a partial :func:`read_rows_cache` read (``count`` rows
    in all), found from the file's end, its entries read at need (:meth:`RowOffsets.span`);
    ``None`` when the file is no longer the one it read, or its offsets line is not one for
    those rows where they lie (a line of that size between two newlines whose entries for the
    first unread row and the rows' end are theirs: then read the rows another way). Nothing
    before the offsets line is read."""
    size = offsets_line_size(count)
    try:
        with rows_path.open("rb", buffering=0) as handle:
            now = os.fstat(handle.fileno())
            stamp = (now.st_ino, now.st_mtime_ns, now.st_size)
            end = now.st_size - size
            if stamp != unread.stamp or end < unread.offset:
                return None
            fd = handle.fileno()
            if os.pread(fd, 1, end - 1) != b"\n" or os.pread(fd, 1, now.st_size - 1) != b"\n":
                return None
            found = _offset_entries(fd, end, unread.read, 1), _offset_entries(fd, end, count, 1)
    except OSError:
        return None
    if found != ((unread.offset,), (end,)):
        return None
    return RowOffsets(count, unread.offset, end, stamp)


def read_row_at(rows_path: Path, offsets: RowOffsets, position: int, paper_id: str) -> bytes | None:
    """The line (still encoded) of the row at ``position`` (one a partial :func:`read_rows_cache`
    left unread), for ``paper_id``, read alone where ``offsets`` (:func:`read_row_offsets`) says
    it lies; ``None`` when the rows file is no longer that one or the line there is not a whole
    row of that paper (then read the rows another way). Never reads past the rows."""
    line = read_line_at(rows_path, offsets, position)
    # This paper's row (as written: its id first): else the table is not this file's.
    if line is None or not line.startswith(orjson.dumps([paper_id])[:-1]):
        return None
    return line


def read_line_at(rows_path: Path, offsets: RowOffsets, position: int) -> bytes | None:
    """The line (still encoded, without its end) at ``position`` of the rows, as
    :func:`read_row_at` reads it, whichever paper's it is; ``None`` when the rows file is no
    longer that one or no whole line lies there. Never reads past the rows."""
    if not 0 <= position < offsets.count:
        return None
    try:
        with rows_path.open("rb", buffering=0) as handle:
            now = os.fstat(handle.fileno())
            if (now.st_ino, now.st_mtime_ns, now.st_size) != offsets.stamp:
                return None
            span = offsets.span(handle.fileno(), position)
            if span is None or not offsets.first <= span[0] < span[1] <= offsets.end:
                return None
            start, end = span
            line = os.pread(handle.fileno(), end - start, start)
    except OSError:
        return None
    if len(line) != end - start or line[-1:] != b"\n":
        return None
    return line[:-1]


def row_id(line: bytes) -> str | None:
    """The paper id of a row line as :func:`read_line_at` gives it (a JSON array, its id first);
    ``None`` when the line is not one."""
    try:
        item = orjson.loads(line)
    except ValueError:
        return None
    return item[0] if type(item) is list and item and type(item[0]) is str else None


def decode_spans(line: bytes, ids: list[str]) -> CatalogueSpans | None:
    """The spans line for ``ids``, or ``None`` when it is not one (wrong shape or count, an offset
    that is no whole number, an alias that is not text to text). A span is not checked against
    the file here: the reader checks what it finds there."""
    try:
        item = orjson.loads(line)
        flat, aliases = item["spans"], item["aliases"]
    except (ValueError, TypeError, KeyError):
        return None
    if type(flat) is not list or len(flat) != 2 * len(ids) or type(aliases) is not dict:
        return None
    if set(map(type, flat)) - {int} or set(map(type, aliases.values())) - {str}:
        return None
    return CatalogueSpans(dict(zip(ids, zip(flat[0::2], flat[1::2], strict=True), strict=True)), aliases)


class SpanTable:
    """The spans line as two machine arrays in the ids' order (16 bytes a paper, not a dict entry
    and a tuple of two ints: a reader that takes the papers in file order needs no table by id).

    Attributes:
        starts: each paper's first byte offset (``array('q')``).
        ends: each paper's end offset, past its last byte.
        aliases: old paper id → the id it stood for.
    """

    __slots__ = ("aliases", "ends", "starts")

    def __init__(self, starts: array[int], ends: array[int], aliases: dict[str, str]) -> None:
        self.starts, self.ends, self.aliases = starts, ends, aliases

    def __eq__(self, other: object) -> bool:  # by fields, as the dataclass it was
        if type(other) is not SpanTable:
            return NotImplemented
        return self.starts == other.starts and self.ends == other.ends and self.aliases == other.aliases

    __hash__ = None  # type: ignore[assignment]  # its arrays are not hashable

    def __repr__(self) -> str:
        return f"SpanTable(starts={self.starts!r}, ends={self.ends!r}, aliases={self.aliases!r})"


def decode_span_table(line: bytes, count: int) -> SpanTable | None:
    """The spans line for ``count`` papers as a :class:`SpanTable`, or ``None`` when it is not one
    (as :func:`decode_spans`: wrong shape or count, an offset that is no whole number or past a
    64-bit one, an alias that is not text to text). A span is not checked against the file here."""
    try:
        item = orjson.loads(line)
        flat, aliases = item["spans"], item["aliases"]
    except (ValueError, TypeError, KeyError):
        return None
    if type(flat) is not list or len(flat) != 2 * count or type(aliases) is not dict:
        return None
    if set(map(type, aliases.values())) - {str}:
        return None
    try:  # array() takes a bool or an int subclass: only exact ints pass
        if set(map(type, flat)) - {int}:
            return None
        starts, ends = array("q", flat[0::2]), array("q", flat[1::2])
    except OverflowError:
        return None
    return SpanTable(starts, ends, aliases)


class SpanLine:
    """The spans line parsed but not turned into a table: enough to find a few papers' spans
    (a command that reads one paper) without building :class:`CatalogueSpans` for all of them.

    Raises (from the constructor):
        ValueError: the line is not a spans line for ``count`` papers (as :func:`decode_spans`).
    """

    __slots__ = ("_flat", "_positions", "_scanned", "aliases")

    def __init__(self, line: bytes, count: int) -> None:
        try:
            item = orjson.loads(line)
            flat, aliases = item["spans"], item["aliases"]
        except (ValueError, TypeError, KeyError):
            raise ValueError("not a spans line") from None
        if type(flat) is not list or len(flat) != 2 * count or type(aliases) is not dict:
            raise ValueError("not a spans line")
        if set(map(type, aliases.values())) - {str}:
            raise ValueError("an alias is not text")
        self._flat: list[Any] = flat
        self._positions: dict[str, int] | None = None
        self._scanned = False
        #: old paper id → the id it stood for.
        self.aliases: dict[str, str] = aliases

    def span(self, paper_id: str, ids: Iterable[str]) -> tuple[int, int] | None:
        """The ``(start, end)`` of ``paper_id``, one of ``ids`` (the rows' ids, in their order:
        the same each call); ``None`` when either offset is no whole number. The first lookup
        finds the paper's place by a scan, the second makes a table of all places."""
        positions = self._positions
        if positions is not None:
            position = positions[paper_id]
        elif not self._scanned:
            self._scanned = True
            position = list(ids).index(paper_id)
        else:
            listed = list(ids)
            positions = self._positions = dict(zip(listed, range(len(listed)), strict=True))
            position = positions[paper_id]
        start, end = self._flat[2 * position], self._flat[2 * position + 1]
        return (start, end) if type(start) is int and type(end) is int else None


def decode_row(paper_id: str, line: bytes) -> PaperRow:
    """A row of the rows cache as read by :func:`read_rows_cache`. A row that does not decode
    still shows: with a broken field, as its title alone; broken as a whole, as its id."""
    try:
        item = orjson.loads(line)
    except ValueError:
        return PaperRow(paper_id, paper_id)
    try:
        row = PaperRow.from_list(item)
        if row.id == paper_id:
            return row
    except (ValueError, TypeError):
        pass
    if type(item) is list and len(item) > 1 and item[0] == paper_id and type(item[1]) is str:
        return PaperRow(paper_id, item[1])
    return PaperRow(paper_id, paper_id)


def _lines_in_pieces(lines: list[bytes], rows: Sequence[list[Any] | bytes]) -> Iterator[bytes]:
    """``lines``, then each of ``rows`` as JSON (a row given as ``bytes`` is its JSON already),
    one a line, then the offsets line (:func:`offsets_line_size`), in pieces of about a MiB: each
    row's ``orjson`` result is dropped once copied (held all at once, they cost many times the
    file)."""
    piece = bytearray(b"\n".join(lines) + b"\n")
    dumps = orjson.dumps
    offsets = array("q")
    written = 0  # bytes yielded before piece
    for row in rows:
        offsets.append(written + len(piece))
        piece += row if type(row) is bytes else dumps(row)
        piece += b"\n"
        if len(piece) >= 1 << 20:
            written += len(piece)
            yield bytes(piece)
            piece.clear()
    offsets.append(written + len(piece))
    piece += _offsets_line(offsets)
    yield bytes(piece)


def write_rows_cache(
    rows_path: Path,
    catalogue_path: Path,
    stamp: tuple[int, int, int],
    papers: Iterable[Paper],
    spans: CatalogueSpans | None = None,
) -> None:
    """Write the rows of ``papers``, read from or written to the catalogue file when it had
    ``stamp`` (:func:`file_stamp`), with ``spans`` (of that file) when given. A failure only
    costs speed; if the file has changed since (another process's import), no cache is left."""
    papers = list(papers)
    rows = [PaperRow.of(paper).to_list() for paper in papers]
    columns = RowColumns.of((row[3], row[4], row[5]) for row in rows)
    labels = [paper.library_venue for paper in papers]
    venues = VenueRuns.of(labels)
    venue_columns = RowColumns.by_venue(zip(labels, rows, strict=True))
    write_patched_rows(
        rows_path, catalogue_path, stamp, [row[0] for row in rows], rows, columns, venues, spans, venue_columns
    )


def write_patched_rows(
    rows_path: Path,
    catalogue_path: Path,
    stamp: tuple[int, int, int],
    ids: list[str],
    rows: Sequence[list[Any] | bytes],
    columns: RowColumns,
    venues: VenueRuns,
    spans: CatalogueSpans | None,
    venue_columns: Mapping[str, RowColumns] | None = None,
) -> None:
    """Write the rows cache (and the paper index) for the catalogue file with ``stamp`` from rows
    already made: ``ids`` in catalogue order, each row as :meth:`PaperRow.to_list` or its JSON
    line as the cache holds it, with the papers' ``columns``, ``venues``, ``spans`` and each
    venue's columns (``venue_columns``; ``None``: not known, not written); byte for byte what
    :func:`write_rows_cache` writes for the same papers. A failure only costs speed."""
    catalogue_path = staged_path(catalogue_path)  # in a transaction: the file as it will be
    try:
        stat = catalogue_path.stat()
        if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != stamp:
            return
        _write_rows(rows_path, stat, stamp, ids, rows, columns, venues, spans, venue_columns)
        if file_stamp(catalogue_path) != stamp:  # replaced while writing
            rows_path.unlink()
    except (OSError, StoreError):
        with contextlib.suppress(OSError):
            rows_path.unlink()


def _write_rows(
    rows_path: Path,
    stat: os.stat_result,
    stamp: tuple[int, int, int],
    ids: list[str],
    rows: Sequence[list[Any] | bytes],
    columns: RowColumns,
    venues: VenueRuns,
    spans: CatalogueSpans | None,
    venue_columns: Mapping[str, RowColumns] | None = None,
) -> None:
    """The rows cache's lines written (see the module docstring), and the paper index with spans.

    Raises:
        OSError, StoreError: either cannot be written."""
    header: dict[str, Any] = {"catalogue": [stat.st_size, stat.st_mtime_ns], "rows": len(rows),
                              "columns": columns._asdict(), "spreads": True, "venues": venues.to_json(),
                              "offsets": True, "title_keys": TITLE_KEYS, "titles": TITLES_RENDERED}  # fmt: skip
    if venue_columns is not None and venue_columns.keys() == set(venues.labels):
        header["venue_columns"] = {venue: list(venue_columns[venue]) for venue in venues.labels}
    lines = [orjson.dumps(header), orjson.dumps(ids)]
    with_spans = spans is not None and set(ids) <= spans.spans.keys()
    if with_spans and spans is not None:
        header["spans"] = True
        lines[0] = orjson.dumps(header)
        flat = [offset for pid in ids for offset in spans.spans[pid]]
        lines.append(orjson.dumps({"spans": flat, "aliases": spans.aliases}))
    atomic_write_bytes(rows_path, _lines_in_pieces(lines, rows))
    if with_spans and spans is not None:  # the one-paper commands' lookup, beside it
        from paperdeck.store.paper_index import INDEX_FILE, write_paper_index

        listed = ((pid, spans.spans[pid]) for pid in ids)
        write_paper_index(rows_path.parent / INDEX_FILE, stamp, listed, spans.aliases)
