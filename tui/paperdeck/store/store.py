"""The paperdeck store: the catalogue of papers and the user's data, in two TinyDB files.

Layout of the data directory (created 0700)::

    catalogue.json     TinyDB: tables "papers" (one document per paper), "aliases", "meta" (schema)
    rows-cache.json    what the list shows of each paper, so the app paints before parsing the catalogue,
                       and where each paper lies in it (one paper is read without parsing the others)
    search-index.bin   the search index saved at import (:func:`paperdeck.search.searcher.build_index`)
    user/NN.json       TinyDB shards of the user's data (stars, notes): see :mod:`paperdeck.store.user_data`
    user/follows.json  TinyDB: the authors, keywords and queries the user follows (:mod:`paperdeck.store.follows`)
    reviews/           the reviews, one shard file per group of papers: see :mod:`paperdeck.store.reviews`
    changes.jsonl      what each import changed on each paper: see :mod:`paperdeck.store.changes`

The two are apart because TinyDB rewrites its whole file on every write: starring a paper rewrites
one small shard, never the catalogue (large and slow to rewrite at full-conference scale). All files are
written atomically and durably (:mod:`paperdeck.store.atomic`). User data is keyed by paper id and
survives any re-import; when a merge gives a paper a better id, its user data moves with it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.model.user import STATUSES, UserData
from paperdeck.store.atomic import (
    AtomicJSONStorage,
    atomic_write_bytes,
    clean_stray_temp_files,
    malformed,
    write_failure,
)
from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.rows import (
    CatalogueSpans,
    PaperRow,
    RowColumns,
    SpanLine,
    UnreadRows,
    decode_row,
    decode_spans,
    file_stamp,
    read_rows_cache,
    read_unread_rows,
    write_rows_cache,
)
from paperdeck.store.user_data import USER_DIR, UserStore, doc_id_for

if TYPE_CHECKING:  # a command that touches one paper imports neither (see follows, change_log and reviews)
    from paperdeck.model.changes import PaperChange
    from paperdeck.model.paper import Paper  # imported where papers are read: the rows come first
    from paperdeck.model.review import Review
    from paperdeck.store.changes import ChangeLog
    from paperdeck.store.follows import FollowStore
    from paperdeck.store.reviews import ReviewImport, ReviewStore, StagedWords

_T = TypeVar("_T")

#: Version of the store layout, recorded in each file's "meta" table.
SCHEMA_VERSION = 2
#: The catalogue's file name in the data directory.
CATALOGUE_FILE = "catalogue.json"
#: A cache of what the list shows, so the app paints before the catalogue is parsed.
ROWS_FILE = "rows-cache.json"
#: Where schema 1 kept all the user's data (migrated into ``user/`` shards on open).
LEGACY_USER_FILE = "user.json"
#: Taken around an import's read-merge-write of the catalogue (imports wait for each other).
IMPORT_LOCK_FILE = ".import.lock"
_IMPORT_LOCK_TIMEOUT_S = 120.0
#: A derived title comes from the start of the abstract: only this many characters of it are read
#: (real abstracts are far shorter; title derivation is quadratic in the length of a huge one).
TITLE_SOURCE_CHARS = 20_000
#: Rows a lazy store reads as it opens (the list's first screen; the others at first need).
FIRST_ROWS = 200
#: Papers a store not yet parsed reads one by one (:meth:`Store.paper`) before it parses the
#: whole catalogue instead (an export or a search without ``--limit`` asks for thousands).
_SPAN_READS = 256


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds (``"2026-11-29T19:30:00.123456+00:00"``)."""
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: counts of papers, and the notices to show (one line each);
    ``new_ids``: the ids (as in the catalogue now) of the papers it added, in catalogue order —
    not those a merge only gave a better id."""

    new: int = 0
    updated: int = 0
    unchanged: int = 0
    notices: tuple[str, ...] = ()
    new_ids: tuple[str, ...] = ()

    def summary(self) -> str:
        """``"37 new, 0 updated, 1 unchanged"``."""
        return f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged"


class Store:
    """The catalogue (read once, kept in memory) and the user's data (written through at once).

    Args:
        data_dir: the data directory; created with mode 0700 when missing.
        now: clock for timestamps, returning ISO 8601 UTC text (tests pass a fixed one).
        lazy: when the rows cache matches the catalogue, open with the rows only and leave
            parsing the catalogue to :meth:`load` (the list paints first); otherwise the
            catalogue is parsed at once.
        rows: with ``lazy``, whether the rows themselves are read at once (the list needs them; a
            command that reads a few papers does not): when not, they are read at the first
            :meth:`row`. When they are, only the first :data:`FIRST_ROWS` are read at once (the
            list's first screen), the others at the first :meth:`row` of one of them.
        user_records: whether every user record is made at once; when not (the app, the
            commands), every shard is still read and checked at once, and a paper's record is
            made at its first need, the counts of :meth:`user_counts` taken from the documents
            (:class:`~paperdeck.store.user_data.UserStore`'s ``lazy``).
        create: whether a missing ``data_dir`` is created; when not (a command that only reads),
            a missing directory is an empty store, left uncreated.

    Raises:
        StoreError: the directory cannot be created or is not a directory, a file is not valid
            JSON, or it was written by a newer paperdeck. Nothing on disk is changed then.
    """

    def __init__(
        self,
        data_dir: Path | str,
        now: Callable[[], str] = utc_now,
        *,
        lazy: bool = False,
        rows: bool = True,
        user_records: bool = True,
        create: bool = True,
    ) -> None:
        self.data_dir = Path(data_dir)
        self._now = now
        if create or self.data_dir.exists():
            _ensure_directory(self.data_dir)
        self.catalogue_path = self.data_dir / CATALOGUE_FILE
        self.user_dir = self.data_dir / USER_DIR
        self._catalogue_storage = AtomicJSONStorage(self.catalogue_path)
        self.rows_path = self.data_dir / ROWS_FILE
        self._papers: dict[str, Paper] = {}
        self._generation = 0  # see catalogue_generation
        self._aliases: dict[str, str] = {}
        #: The rows cache while the catalogue is not parsed: each row as read (a JSON line) until
        #: first shown, then as a :class:`PaperRow` (decoding every row at start-up would delay it).
        self._rows: dict[str, PaperRow | bytes] | None = None
        self._rows_unread = not rows  # the rows cache's ids were read, not all its rows yet (see row())
        self._unread_rows: UnreadRows | None = None  # where those rows are in the rows cache
        self._cached_columns = RowColumns(False, False)  # the rows cache's, while it is used
        #: Rows of parsed papers lately shown, with the paper each is of (papers are immutable: a
        #: changed paper is a new object). The list asks for a row at each line of each frame, and
        #: rendering a title with LaTeX each time is too slow for that.
        self._shown_rows: dict[str, tuple[Paper, PaperRow]] = {}
        self._load_lock = threading.Lock()
        #: Held while the rows left unread at opening are read (not the load lock: a row asked
        #: for while the catalogue is parsed does not wait for the parse).
        self._rows_lock = threading.Lock()
        self._open_lock = threading.Lock()  # opens the reviews, the follows and the change log at first use
        self._reviews: ReviewStore | None = None
        self._follows: FollowStore | None = None
        self._change_log: ChangeLog | None = None
        self._loaded = False
        #: (inode, mtime, size) of the catalogue as last read or written by this store.
        self._catalogue_stamp: tuple[int, int, int] | None = None
        #: (inode, mtime, size) of the catalogue the rows cache was read for (taken before reading it).
        self._rows_stamp: tuple[int, int, int] | None = None
        #: The rows cache's spans line while not decoded, then its spans (or ``None``: none, or broken).
        self._spans_line: bytes | None = None
        self._cached_spans: CatalogueSpans | None = None
        #: The spans line parsed for the first few papers read alone (:meth:`_find_span`), with
        #: the rows it was read with.
        self._span_line: tuple[dict[str, PaperRow | bytes], SpanLine] | None = None
        self._span_reads = 0  # papers read alone: past _SPAN_READS, parsing the catalogue is cheaper
        #: The spans of the catalogue as this store last wrote it, and the file's stamp then.
        self._written_spans: tuple[tuple[int, int, int] | None, CatalogueSpans] | None = None
        for directory in (self.data_dir, self.user_dir):
            if directory.is_dir():
                clean_stray_temp_files(directory, older_than_s=60.0)
        if not (lazy and self._load_rows_cache()):
            self.load()
            if lazy and self._papers:  # a stale cache (a copied or restored store): the next start reads a good one
                self._find_spans()
                self._write_rows_cache()
        self._user = UserStore(self.user_dir, now, _meta(), _check_schema, lazy=not user_records)
        self._changed_cache: tuple[object, dict[str, frozenset[str]]] | None = None
        self._changes_cache: tuple[object, list[PaperChange], dict[str, list[PaperChange]]] | None = None
        self._migrate_single_user_file()
        if self._loaded:
            self._adopt_orphaned_user_data()

    @property
    def reviews(self) -> ReviewStore:
        """The reviews (catalogue data, written only by imports, read one paper at a time); opened
        at first use (opening reads no file)."""

        def open_reviews() -> ReviewStore:
            from paperdeck.store.reviews import REVIEWS_DIR, ReviewStore

            return ReviewStore(self.data_dir / REVIEWS_DIR, self._now)

        return self._opened("_reviews", open_reviews)

    @property
    def follows(self) -> FollowStore:
        """The authors, keywords and queries the user follows (user data; no import touches them);
        opened at first use."""

        def open_follows() -> FollowStore:
            from paperdeck.store.follows import FollowStore

            return FollowStore(self.user_dir, self._now, _meta(), _check_schema)

        return self._opened("_follows", open_follows)

    @property
    def change_log(self) -> ChangeLog:
        """What each import changed on each paper (catalogue data, appended only by imports);
        opened at first use."""

        def open_change_log() -> ChangeLog:
            from paperdeck.store.changes import CHANGES_FILE, ChangeLog

            return ChangeLog(self.data_dir / CHANGES_FILE)

        return self._opened("_change_log", open_change_log)

    def _opened(self, attribute: str, open_part: Callable[[], _T]) -> _T:
        """The part of the store held in ``attribute``, made by ``open_part`` at its first use, by
        one thread (the others wait for it)."""
        part = getattr(self, attribute)
        if part is None:
            with self._open_lock:
                part = getattr(self, attribute)
                if part is None:
                    part = open_part()
                    setattr(self, attribute, part)
        return cast(_T, part)

    # -- catalogue ---------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        """Whether the catalogue is parsed (a lazy store has only its rows until :meth:`load`)."""
        return self._loaded

    def load(self) -> None:
        """Parse the catalogue if it is not yet (parsing is the slow part of a start: the app calls
        it in a worker thread; it is safe to call from several threads).

        Raises:
            StoreError: the catalogue is not valid or was written by a newer paperdeck.
        """
        with self._load_lock:
            if not self._loaded:
                from_rows, generation = self._rows is not None, self._generation
                self._load_catalogue()
                if from_rows and self._catalogue_stamp == self._rows_stamp:
                    # The very file the rows were read for: what was built from the rows (a
                    # search index read from disk) is still current.
                    self._generation = generation
                self._loaded = True  # before dropping the rows: readers check _loaded first
                self._rows = None
                if hasattr(self, "_user"):  # not while __init__ is still opening the store
                    self._adopt_orphaned_user_data()

    @property
    def papers(self) -> list[Paper]:
        """Every paper in catalogue order (the order they were first imported); loads if needed.

        Raises:
            StoreError: as :meth:`load`.
        """
        self.load()
        return list(self._papers.values())

    @property
    def catalogue_generation(self) -> int:
        """A number that changes each time this store's papers are replaced (parsed, imported, read
        again after another process imported): what is built from :attr:`papers` is current while
        it has not changed. Held in memory: reading it touches no file."""
        return self._generation

    @property
    def paper_ids(self) -> list[str]:
        """Every paper id in catalogue order (from the rows cache while not loaded)."""
        rows = self._rows  # read once: a worker thread may be finishing load() meanwhile
        if not self._loaded and rows is not None:
            return list(rows)
        return list(self._papers)

    @property
    def paper_count(self) -> int:
        """How many papers the catalogue holds (``len(paper_ids)`` without the copy)."""
        rows = self._rows
        if not self._loaded and rows is not None:
            return len(rows)
        return len(self._papers)

    @property
    def row_columns(self) -> RowColumns:
        """Whether any paper has a decision / a rating (the list's optional columns); from the
        rows cache while the catalogue is not parsed, else computed over every paper on each call."""
        rows = self._rows
        if not self._loaded and rows is not None:
            return self._cached_columns
        return RowColumns.of((paper.decision, paper.ratings, paper.primary_area) for paper in self._papers.values())

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
        """The paper a user names: its id (canonical or an alias), a bare OpenReview forum id, or
        its OpenReview forum or PDF link (``https://openreview.net/forum?id=X``, what ``y``
        copies); ``None`` when no paper has it.

        Raises:
            StoreError: as :meth:`load`.
        """
        if "://" in given:  # model.ids (and the hashlib it imports) only for a link
            from paperdeck.model.ids import openreview_id_from_url

            if forum := openreview_id_from_url(given):
                return self.paper(f"openreview:{forum}") or self.paper(forum)
        return self.paper(given) or self.paper(f"openreview:{given}")

    def _find_span(self, paper_id: str, rows: dict[str, PaperRow | bytes]) -> tuple[str, tuple[int, int] | None] | None:
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
        stamp: tuple[int, int, int] | None = None,
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
            with self.catalogue_path.open("rb", buffering=1 << 20) as handle:
                stat = os.fstat(handle.fileno())
                if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != wanted:
                    return None
                head = handle.read(4096)
                meta_end = head.find(b',"papers":{')
                if not head.startswith(b'{"meta":') or meta_end < 0:
                    return None
                _check_schema({"meta": orjson.loads(head[8:meta_end])}, self.catalogue_path)
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

    def _read_one(self, paper_id: str, span: tuple[int, int]) -> Paper | None:
        """The paper read from its span of the catalogue file, or ``None`` when the file is no
        longer the one the rows were read for or the span holds no document of this paper."""
        from paperdeck.model.paper import Paper

        start, end = span
        try:
            with self.catalogue_path.open("rb") as handle:
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

    def row(self, paper_id: str) -> PaperRow | None:
        """What the list shows of a paper, ``None`` for an unknown id; available before the
        catalogue is loaded (never loads it)."""
        rows = self._rows  # read once: a worker thread may be finishing load() meanwhile
        if rows is not None and self._rows_unread and not rows.get(paper_id):  # b"": not read yet
            rows = self._read_rows()
        if not self._loaded and rows is not None:
            row = rows.get(paper_id)
            if isinstance(row, bytes):
                row = rows[paper_id] = decode_row(paper_id, row)
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

    def _read_rows(self) -> dict[str, PaperRow | bytes] | None:
        """Read the rows the store's opening left unread: from the rows cache when
        it still lists the same papers for the same catalogue file, else by parsing the catalogue
        (then ``None``: the rows come from the papers)."""
        with self._rows_lock:
            rows = self._rows
            if not self._rows_unread or rows is None:
                return rows
            unread = self._unread_rows
            if unread is not None and file_stamp(self.catalogue_path) == self._rows_stamp:
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
            cached = read_rows_cache(self.rows_path, self.catalogue_path)
            same = cached is not None and list(cached.rows) == list(rows)
            if same and file_stamp(self.catalogue_path) == self._rows_stamp and cached is not None:
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
        return not self.paper_ids

    def catalogue_stamp(self) -> list[int] | None:
        """The catalogue file's ``[size in bytes, mtime in ns]`` (what caches beside it are keyed
        by), or ``None`` when there is none."""
        try:
            stat = self.catalogue_path.stat()
        except OSError:
            return None
        return [stat.st_size, stat.st_mtime_ns]

    def held_catalogue_stamp(self) -> list[int] | None:
        """:meth:`catalogue_stamp` of the catalogue file this store's papers (or, not parsed yet,
        its rows) were read from or written to; ``None`` when it holds none from a file. What is
        saved built from the papers is keyed by it. Touches no file."""
        stamp = self._catalogue_stamp if self._loaded else self._rows_stamp
        if stamp is None:
            return None
        _, mtime_ns, size = stamp
        return [size, mtime_ns]

    def _load_rows_cache(self) -> bool:
        """Read the rows cache if it matches the catalogue on disk; True when it did."""
        stamp = file_stamp(self.catalogue_path)  # before: a catalogue replaced meanwhile has another
        cached = read_rows_cache(self.rows_path, self.catalogue_path, rows=0 if self._rows_unread else FIRST_ROWS)
        if cached is None:
            return False
        self._rows, self._cached_columns, self._spans_line, self._unread_rows = cached
        self._rows_unread = self._unread_rows is not None
        self._rows_stamp = stamp
        return True

    def _find_spans(self) -> None:
        """Learn where each paper lies in the catalogue as read (for the rows cache), when the file
        is byte for byte what this store would write for its papers; else leave it unknown."""
        stamp = self._catalogue_stamp
        payload, spans = catalogue_bytes(self._papers, self._aliases)
        try:
            same = self.catalogue_path.read_bytes() == payload and file_stamp(self.catalogue_path) == stamp
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
            write_rows_cache(self.rows_path, self.catalogue_path, self._catalogue_stamp, self._papers.values(), spans)

    def import_papers(self, papers: Iterable[Paper]) -> ImportReport:
        """Merge ``papers`` into the catalogue (:mod:`paperdeck.store.merge`) and write it once.

        A paper that matches one already present (same id, forum id, arXiv id, DOI, title or
        abstract) is combined with it; when the combined paper gets a better id (a seed abstract
        matched to its OpenReview record), the old id becomes an alias and the user's star and note
        move with it. Derived titles are re-derived so all stay distinct.

        Raises:
            StoreError: the catalogue cannot be read or written, the import lock cannot be taken,
                or the user data cannot be written (then nothing changed).
        """
        from paperdeck.store.merge import Merger  # deferred: rapidfuzz is not needed to open the store

        self.load()
        papers = list(papers)
        # One import at a time per store, each merging into the catalogue as it is on disk now:
        # merged into a copy read earlier, another process's import would be overwritten.
        with _ImportLock(self.data_dir / IMPORT_LOCK_FILE):
            if file_stamp(self.catalogue_path) != self._catalogue_stamp:
                self._load_catalogue()
                self._rows = None
            result = Merger(self._papers, self._aliases).merge(papers)
            merged = self._with_review_scores(_with_derived_titles(result.papers))
            recorded: list[PaperChange] = []
            if merged != self._papers or result.aliases != self._aliases:
                before = self._papers
                self._write_catalogue(merged, result.aliases)
                self._papers = merged
                self._generation += 1
                self._aliases = result.aliases
                self._write_rows_cache()
                if before:  # the first import is the first snapshot: nothing to compare with
                    from paperdeck.model.changes import paper_changes

                    recorded = paper_changes(before, merged, result.aliases, (), self._now())
            self._move_user_data_to_current_ids(reread=True)
            notices = self._record_changes(recorded)
        return ImportReport(result.new, result.updated, result.unchanged, notices, new_ids=result.new_ids)

    def import_reviews(self, reviews: Iterable[Review], staged: StagedWords | None = None) -> ReviewImport:
        """Merge reply notes into the reviews (:meth:`paperdeck.store.reviews.ReviewStore.import_reviews`,
        ``staged`` the words folded as they were read), under the import lock; notes on papers not
        in the catalogue are kept and counted.

        Raises:
            StoreError: the reviews cannot be read or written, or the import lock cannot be taken.
        """
        self.load()
        with _ImportLock(self.data_dir / IMPORT_LOCK_FILE):
            if file_stamp(self.catalogue_path) != self._catalogue_stamp:
                self._load_catalogue()
                self._rows = None
            forums = {paper.openreview_id for paper in self._papers.values() if paper.openreview_id}
            before = self._papers
            had_reviews = self.reviews.counts()["notes"] > 0
            report = self.reviews.import_reviews(reviews, forums.__contains__, note_changes=had_reviews, staged=staged)
            if report.changed_forums & forums:
                merged = self._with_review_scores(self._papers)
                if merged != self._papers:
                    self._write_catalogue(merged, self._aliases)
                    self._papers = merged
                    self._generation += 1
                    self._write_rows_cache()
                if had_reviews:  # the first reviews imported are their first snapshot: nothing to compare with
                    from paperdeck.model.changes import paper_changes

                    recorded = paper_changes(before, self._papers, {}, report.notes, self._now())
                    report = replace(report, notices=self._record_changes(recorded))
        return report

    def _record_changes(self, changes: list[PaperChange]) -> tuple[str, ...]:
        """Append an import's changes to the change log, after the import is committed; a log
        that cannot be written does not undo the import: it comes back as a notice line."""
        try:
            self.change_log.append(changes)
        except StoreError as exc:
            return (f"{exc}; the changes of this import are not recorded",)
        return ()

    # -- changes -----------------------------------------------------------------------------

    def changes(self, since: str = "") -> list[PaperChange]:
        """Every change imports recorded at or after ``since`` (ISO 8601 text, compared as text:
        ``"2026-11-29"`` is that day's start in UTC; ``""``: all), oldest first, each under its
        paper's current id (a merge may have given it a better one since).

        Raises:
            StoreError: the change log cannot be read.
        """
        return [change for change in self._changes_read() if change.at >= since]

    def _changes_read(self) -> list[PaperChange]:
        """The change log, ids resolved; read again only when the log or the aliases changed."""
        key = (self.change_log.stamp(), len(self._aliases))
        cached = self._changes_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        aliases, resolve = self._aliases, self.resolve
        changes = [
            replace(change, paper_id=resolve(change.paper_id)) if change.paper_id in aliases else change
            for change in self.change_log.read()
        ]
        by_paper: dict[str, list[PaperChange]] = {}
        for change in changes:
            by_paper.setdefault(change.paper_id, []).append(change)
        self._changes_cache = (key, changes, by_paper)
        return changes

    def paper_changes(self, paper_id: str, since: str = "") -> list[PaperChange]:
        """The changes recorded on one paper (its id or an alias) at or after ``since``, oldest
        first (from an index by paper: cheap enough for each move of the list's cursor).

        Raises:
            StoreError: the change log cannot be read.
        """
        self._changes_read()
        assert self._changes_cache is not None
        return [c for c in self._changes_cache[2].get(self.resolve(paper_id), ()) if c.at >= since]

    def changes_by_paper(self, since: str = "") -> dict[str, PaperChange]:
        """Each paper's changes at or after ``since`` as one (:func:`paperdeck.model.changes.combined`),
        by current paper id, the latest changed first.

        Raises:
            StoreError: the change log cannot be read.
        """
        grouped: dict[str, list[PaperChange]] = {}
        for change in self.changes(since):
            grouped.setdefault(change.paper_id, []).append(change)
        from paperdeck.model.changes import combined

        joined = {pid: c for pid, items in grouped.items() if (c := combined(items)) is not None}
        return dict(sorted(joined.items(), key=lambda item: item[1].at, reverse=True))

    def changed_since_looked(self) -> dict[str, frozenset[str]]:
        """The papers with a change recorded after the user last opened them (never opened: any
        change), by current id, with what changed (:data:`paperdeck.model.changes.CHANGE_KINDS`).
        Cached until the log, the user data or the aliases change; a log that cannot be read
        counts as none."""
        key = (self.change_log.stamp(), self._user.version, len(self._aliases))
        cached = self._changed_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            self._changes_read()
        except StoreError:
            self._changed_cache = (key, {})
            return {}
        assert self._changes_cache is not None
        result: dict[str, frozenset[str]] = {}
        get = self._user.get
        for paper_id, changes in self._changes_cache[2].items():
            looked = get(paper_id).looked
            kinds = frozenset().union(*(c.kinds for c in changes if c.at > looked))
            if kinds:
                result[paper_id] = kinds
        self._changed_cache = (key, result)
        return result

    def set_looked(self, paper_id: str) -> UserData:
        """Record that the user opened the paper now (its reader or its reviews): the changes
        recorded before are no longer new to them.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.set_looked(self.resolve(paper_id), self._now())

    def _with_review_scores(self, papers: dict[str, Paper]) -> dict[str, Paper]:
        """``papers`` with each reviewed paper's ratings and confidence taken from its imported
        reviews (:meth:`paperdeck.store.reviews.ReviewStore.summaries`: the reviews themselves
        are the better source), and the decision of a Decision note where it says more than the
        paper's (:func:`paperdeck.store.merge.decision_replaces`: never a decision replaced by none)."""
        summaries = self.reviews.summaries()
        if not summaries:
            return papers
        from paperdeck.model.decision import normalise_decision
        from paperdeck.model.paper import Ratings
        from paperdeck.store.merge import decision_replaces

        result = papers
        for paper_id, paper in papers.items():
            summary = summaries.get(paper.openreview_id) if paper.openreview_id else None
            if summary is None:
                continue
            changes: dict[str, Any] = {}
            if summary.count and summary.mean is not None:
                ratings = Ratings(summary.mean, summary.std, summary.min, summary.max, summary.count)
                if ratings != paper.ratings:
                    changes["ratings"] = ratings
                if summary.confidence is not None and summary.confidence != paper.confidence:
                    changes["confidence"] = summary.confidence
            if summary.decision:
                decision = normalise_decision(summary.decision)
                if decision_replaces(paper.decision, decision):
                    changes.update(decision=decision, decision_raw=summary.decision)
            if changes:
                if result is papers:
                    result = dict(papers)
                result[paper_id] = replace(paper, **changes)
        return result

    def catalogue_changed(self) -> bool:
        """Whether the catalogue on disk is another than the one this store last read or wrote
        (another process imported meanwhile); ``False`` while it is not parsed yet (:meth:`load`
        reads the file as it is then). One ``stat``, no read."""
        return self._loaded and file_stamp(self.catalogue_path) != self._catalogue_stamp

    def reload_catalogue(self) -> bool:
        """Read the catalogue again when another process changed it (:meth:`catalogue_changed`);
        True when the papers were replaced (:attr:`catalogue_generation` then changed). The slow
        part of a start: call it in a worker thread; readers meanwhile see the old papers or the
        new ones, never a mix.

        Raises:
            StoreError: the catalogue is no longer valid (the papers read before are kept).
        """
        with self._load_lock:
            if not self.catalogue_changed():
                return False
            if not self._reread_by_spans():
                self._load_catalogue()
        # The importing process moved the user data of renamed papers itself; the app re-reads
        # user data on its own (Store.reload_user_data), on the event loop.
        return True

    def _reread_by_spans(self) -> bool:
        """Read the catalogue again paper by paper where the rows cache beside it (written by the
        process that imported) says each lies, each unchanged paper kept as the object already
        held: only the papers the import changed are held anew, and the file is never one parsed
        tree. False (nothing changed) when there is no such cache for the file as it is now, or
        the file is not as it says."""
        stamp = file_stamp(self.catalogue_path)  # before reading: a file replaced meanwhile has another
        cached = read_rows_cache(self.rows_path, self.catalogue_path, rows=0)  # its ids and spans
        if stamp is None or cached is None or cached.spans_line is None:
            return False
        ids, line = list(cached.rows), cached.spans_line
        spans = decode_spans(line, ids)
        papers = self._read_by_spans(spans, ids, stamp, self._papers) if spans is not None else None
        if papers is None or spans is None:
            return False
        self._catalogue_stamp = stamp
        self._papers = papers
        self._generation += 1
        self._aliases = dict(spans.aliases)
        return True

    def _move_user_data_to_current_ids(self, *, reread: bool = False) -> None:
        """Move every user record kept under an id that is now an alias (a merge gave the paper
        a better id, or the record was written or restored under an old one) to the paper's
        current id, each field combined with a record already there by its rule
        (:func:`paperdeck.store.user_data.combine_records`). The one way records follow papers.

        Args:
            reread: re-read the user data changed on disk first (an import; a store just opened
                has just read it, and may be loading in a worker thread).

        Raises:
            StoreError: the user data cannot be read or written.
        """
        if not self._aliases:
            return
        if reread:  # records another process wrote under an old id move too
            self._user.reload()
        orphans = {pid: self.resolve(pid) for pid in self._user.records if pid in self._aliases}
        if orphans:
            self._user.move(orphans)

    def _adopt_orphaned_user_data(self) -> None:
        """:meth:`_move_user_data_to_current_ids` at open, best effort.

        An import writes the catalogue (with the alias) before it moves the user's data: a crash
        between the two left the star and note under the old id, where nothing shows them. This
        finishes the move. When the user data cannot be written (a read-only store) the records
        stay where they are, untouched, and the store still opens.
        """
        with contextlib.suppress(StoreError):
            self._move_user_data_to_current_ids()

    def _load_catalogue(self) -> None:
        self._catalogue_stamp = file_stamp(self.catalogue_path)  # before reading: errs on re-reading
        if self._rows is not None and self._catalogue_stamp == self._rows_stamp:
            spans = self._spans()
            by_spans = self._read_by_spans(spans) if spans is not None else None
            if by_spans is not None and spans is not None:
                self._papers = by_spans
                self._generation += 1
                self._aliases = dict(spans.aliases)
                return
        data = self._catalogue_storage.read()
        if data is None:
            listed = _rows_cache_count(self.rows_path)
            if listed and self.catalogue_path.exists():
                # A catalogue emptied (truncated, zeroed) beside a cache of its rows: taken for a
                # first run, the bundled lists or the next import would overwrite it for good.
                reason = (
                    f"is empty, but {ROWS_FILE} lists {listed:,} papers: the catalogue was lost or "
                    "truncated; restore it from a backup or move both aside — paperdeck will not overwrite it"
                )
                raise StoreError(self.catalogue_path, reason)
            return
        _check_schema(data, self.catalogue_path)
        from paperdeck.model.paper import Paper

        try:
            papers = list(map(Paper.from_dict, _drained(data.get("papers") or {})))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a paper record is malformed ({malformed(exc)}); restore the file from a backup "
                "or move it aside — paperdeck will not overwrite it"
            )
            raise StoreError(self.catalogue_path, reason) from None
        held = self._papers  # read again: a paper unchanged stays the object held, not a copy of it
        self._papers = {paper.id: _same_or(held.get(paper.id), paper) for paper in papers}
        self._generation += 1
        alias_docs = data.get("aliases") or {}
        self._aliases = {str(k): str(v) for doc in alias_docs.values() for k, v in doc.items()}

    def _write_catalogue(self, papers: dict[str, Paper], aliases: dict[str, str]) -> None:
        payload, spans = catalogue_bytes(papers, aliases)
        atomic_write_bytes(self.catalogue_path, payload)
        self._catalogue_stamp = file_stamp(self.catalogue_path)
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

    # -- the user's data ---------------------------------------------------------------------

    def user_data(self, paper_id: str) -> UserData:
        """The user's data for a paper (an empty record when there is none)."""
        return self._user.get(paper_id)

    @property
    def all_user_data(self) -> dict[str, UserData]:
        """Every non-empty user record, by paper id (a copy)."""
        return self._user.records

    @property
    def user_notes(self) -> dict[str, str]:
        """Every note the user wrote, by paper id (a copy)."""
        return self._user.notes

    @property
    def user_version(self) -> int:
        """A number that goes up whenever a user record changes (what is derived from them is
        current while it has not changed)."""
        return self._user.version

    def user_counts(self) -> tuple[int, Counter[str]]:
        """Papers starred, and user records by reading status (cached until the user data changes)."""
        return self._user.counts()

    def reload_user_data(self) -> bool:
        """Re-read the user's data changed on disk by another process; True when anything changed.

        Raises:
            StoreError: a shard is not valid JSON or was written by a newer paperdeck.
        """
        return self._user.reload()

    def set_star(self, paper_id: str, starred: bool) -> UserData:
        """Star or unstar a paper; on disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.modify(paper_id, lambda record: replace(record, starred=starred))

    def toggle_star(self, paper_id: str) -> UserData:
        """Flip a paper's star (as it is on disk now); on disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.modify(paper_id, lambda record: replace(record, starred=not record.starred))

    def set_note(self, paper_id: str, note: str) -> UserData:
        """Save a paper's note; an empty or blank note deletes it. On disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        text = note if note.strip() else ""
        return self._user.modify(paper_id, lambda record: replace(record, note=text))

    def set_status(self, paper_id: str, status: str) -> UserData:
        """Set a paper's reading status (one of ``STATUSES``); on disk before this returns.

        Raises:
            ValueError: an unknown status.
            StoreError: the user data cannot be written.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown reading status {status!r}; one of {', '.join(STATUSES)}")
        return self._user.modify(paper_id, lambda record: replace(record, status=status))

    def change(
        self, paper_ids: Iterable[str], change: Callable[[UserData], UserData]
    ) -> list[tuple[UserData, UserData]]:
        """Apply ``change`` to many papers' records in one batch (a bulk action).

        Returns:
            ``(before, after)`` for each record that changed (for undo).

        Raises:
            StoreError: the user data cannot be written.
        """
        return self._user.modify_many(paper_ids, change)

    def restore(self, records: Iterable[UserData], *, keep_times: bool = False) -> list[tuple[UserData, UserData]]:
        """Write these exact records whole (a backup's restore; with ``keep_times`` the records keep
        their own created / updated times). Undo and redo do not: they apply only the fields
        their step touched, through :meth:`change`.

        Returns:
            ``(before, after)`` for each record that changed.

        Raises:
            StoreError: the user data cannot be written.
        """
        return self._user.restore(records, keep_times=keep_times)

    @property
    def all_tags(self) -> list[str]:
        """Every tag in use, sorted."""
        return sorted({tag for record in self._user.records.values() for tag in record.tags})

    def _migrate_single_user_file(self) -> None:
        """Schema 1 kept all user data in one ``user.json``: move it into shards, keeping a
        timestamped backup of the old file first."""
        old = self.data_dir / LEGACY_USER_FILE
        if not old.is_file():
            return
        data = AtomicJSONStorage(old).read() or {}
        _check_schema(data, old)
        try:
            records = [UserData.from_dict(doc) for doc in (data.get("user") or {}).values()]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a user record is malformed ({malformed(exc)}); restore the file from a backup "
                "or move it aside — paperdeck will not migrate it"
            )
            raise StoreError(old, reason) from None
        stamp = self._now().replace(":", "").replace("-", "").split(".")[0].split("+")[0]
        backup = self.data_dir / f"{LEGACY_USER_FILE}.bak-{stamp}"
        try:
            atomic_write_bytes(backup, old.read_bytes())
        except OSError as exc:
            raise StoreError(old, f"cannot back it up before migrating: {exc.strerror or exc}") from None
        self._user.write_all(record for record in records if not record.is_empty)
        old.unlink()

    def close(self) -> None:
        """Nothing to release: files are open only during a read or a write."""


def _drained(documents: dict[str, Any]) -> Iterator[Any]:
    """The values of ``documents`` in order, each removed as it is taken (the parsed JSON of a
    paper is freed once its :class:`Paper` is made: the two are never all held at once)."""
    if not isinstance(documents, dict):
        raise TypeError("the papers table is not an object")
    for key in list(documents):
        yield documents.pop(key)


def _same_or(held: Paper | None, paper: Paper) -> Paper:
    """``held`` when it equals ``paper`` (a paper read again, unchanged: one object, not two), else ``paper``."""
    return held if held is not None and held == paper else paper


def _follow(aliases: dict[str, str], paper_id: str) -> str:
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
    paper id → ``(start, end)`` byte offsets of its document."""
    option = orjson.OPT_NON_STR_KEYS
    parts = [b'{"meta":', orjson.dumps({"1": _meta()}, option=option), b',"papers":{']
    at = sum(map(len, parts))
    spans: dict[str, tuple[int, int]] = {}
    for n, (paper_id, paper) in enumerate(papers.items()):
        key = (b"," if n else b"") + orjson.dumps(str(doc_id_for(paper_id))) + b":"
        document = orjson.dumps(paper.to_dict(), option=option)
        at += len(key)
        spans[paper_id] = (at, at + len(document))
        at += len(document)
        parts += (key, document)
    parts += (b'},"aliases":', orjson.dumps({"1": aliases}, option=option), b"}")
    return b"".join(parts), spans


def _meta() -> dict[str, Any]:
    return {"app": "paperdeck", "schema": SCHEMA_VERSION}


def _check_schema(data: dict[str, Any], path: Path) -> None:
    """Refuse a file that is not ours or was written by a newer paperdeck."""
    meta = data.get("meta")
    schema = app = None
    if isinstance(meta, dict) and meta:
        first = next(iter(meta.values()))
        schema = first.get("schema") if isinstance(first, dict) else None
        app = first.get("app", "paperdeck") if isinstance(first, dict) else None
    if app != "paperdeck" or not isinstance(schema, int):
        # Every file paperdeck writes says "paperdeck" and its schema before it holds any data,
        # so a file without that mark is another program's (TinyDB's default table, another
        # app's meta): taken for an empty store, it would be overwritten by the first import.
        # Only a file holding no data at all is safe to take.
        if set(data) - {"meta", "papers", "aliases", "user", "_default"} or any(data.values()):
            raise StoreError(
                path,
                "not a paperdeck store (another program's file?); move it aside or pass "
                "--data-dir — paperdeck will not overwrite it",
            )
        return
    if schema > SCHEMA_VERSION:
        raise StoreError(
            path, f"written by a newer paperdeck (schema {schema}, this one reads {SCHEMA_VERSION}); upgrade"
        )


class _ImportLock:
    """The import lock, as a context manager; failures become :class:`StoreError`. On a
    read-only file system no lock is needed (no one can write) and none is taken."""

    def __init__(self, path: Path) -> None:
        self._lock = FileLock(path, timeout=_IMPORT_LOCK_TIMEOUT_S)
        self._held = False

    def __enter__(self) -> None:
        try:
            self._lock.acquire()
        except LockTimeout:
            seconds = f"{_IMPORT_LOCK_TIMEOUT_S:.0f} s"
            reason = f"another paperdeck has been importing for over {seconds}; try again"
            raise StoreError(self._lock.path.parent, reason) from None
        except OSError as exc:
            if exc.errno == errno.EROFS:
                return
            raise StoreError(self._lock.path.parent, write_failure(exc)) from None
        self._held = True

    def __exit__(self, *exc: object) -> None:
        if self._held:
            self._held = False
            self._lock.release()


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


def _ensure_directory(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise StoreError(path, "is a file where the data directory should be; pass --data-dir")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(path, f"cannot create the data directory: {exc.strerror or exc}") from None
    if not os.access(path, os.R_OK | os.X_OK):
        raise StoreError(path, "the data directory cannot be read; check its permissions")


def _with_derived_titles(papers: dict[str, Paper]) -> dict[str, Paper]:
    """Re-derive every derived title over the whole catalogue, so that all labels are distinct."""
    derived = [paper for paper in papers.values() if paper.title_derived]
    if not derived:
        return papers
    from paperdeck.text.titles import derive_titles

    titles = derive_titles([paper.abstract[:TITLE_SOURCE_CHARS] for paper in derived])
    result = dict(papers)
    for paper, title in zip(derived, titles, strict=True):
        if paper.title != title:
            result[paper.id] = replace(paper, title=title)
    return result
