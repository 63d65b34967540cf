"""The reviews of the catalogue: written only by imports, never loaded whole, read one paper at a time.

Layout, in ``reviews/`` beside the catalogue::

    index.json          the shard files and the summaries file in use, counts; replaced atomically
                        last, so it commits an import
    summaries.gG.json   the score summary of every reviewed paper, by forum id, as of generation G
    NN.gG.json          shard NN (of :data:`SHARDS`, by a CRC-32 of the forum id) as written by
                        import generation G: ``{forum id: [note, …]}``, notes by ``cdate``
    words.gG.*          the word index of the review text (:mod:`paperdeck.store.review_words`),
                        for ``review:`` terms; read the first time one is used

An import writes new shard files for the shards it changes, then the index naming them, then removes
the shard files no index names any more: a reader (another process) sees the old generation or
the new one, never a mix, and a crash leaves the previous generation whole. What an import did to
each official review (added, or a newer version with other scores) comes back in
:attr:`ReviewImport.notes`; the store records it per paper (:mod:`paperdeck.store.changes`). Opening one paper's
reviews reads one shard file.

Every version of a note is kept (:mod:`paperdeck.store.review_history` merges them, in time order):
the current one whole in the shard, each earlier one's scores only, as the note's ``"v"`` key
(``[[time ms, {field: score}], …]``, oldest first, left out for a note seen once). A re-import adds
nothing; a newer version becomes the current one; an older one arriving later joins the history.

Replies are kept by forum id whether or not the paper is in the
catalogue yet: when it arrives, its reviews are there.
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import functools
import os
import zlib
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, MutableSet, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from paperdeck.model.counts import counted
from paperdeck.model.errors import StoreError
from paperdeck.model.review import REVIEW, Review, ReviewVersion
from paperdeck.model.review_summary import Rank, ReviewSummary, SomeSummaries
from paperdeck.runtime import release_freed_memory
from paperdeck.store.atomic import (
    ACTIVE,
    atomic_write_bytes,
    clean_stray_temp_files,
    malformed,
    staged_path,
    write_failure,
)
from paperdeck.store.file_stamp import FileStamp, stamp_written
from paperdeck.store.review_history import CONFLICT, SNAPSHOT_PREFIX, merge_versions, renamed, snapshot_joins
from paperdeck.store.summaries_file import summaries_by_index, summaries_streamed

if TYPE_CHECKING:
    from concurrent.futures import Future

    from paperdeck.model.changes import NoteChange
    from paperdeck.model.paper import Paper
    from paperdeck.store.review_words import WordIndex, WordIndexBuilder

__all__ = [
    "INDEX_FILE",
    "REVIEWS_DIR",
    "SHARDS",
    "MergeProgress",
    "ReviewImport",
    "ReviewSpill",
    "ReviewStore",
    "StagedWords",
    "generation_files_named",
    "shard_of",
]

REVIEWS_DIR = "reviews"
INDEX_FILE = "index.json"
#: How many shard files the reviews are spread over.
SHARDS = 256
_SCHEMA = 1
#: Shard files handed to the writing threads and not yet written, at most.
_WRITES_IN_FLIGHT = 16
#: Threads writing shard files: each waits for its file to reach the disk, the others write on.
_WRITERS = 4
#: Bytes of spilled notes (``marshal``'s) an import merges at once, at least one shard's: the notes
#: of the shards of one batch are all that is held of what the files brought.
SPILL_BATCH_BYTES = 24_000_000
#: Characters of note text buffered before the notes go to the spill file.
_SPILL_BUFFER_CHARS = 4_000_000


def shard_of(forum: str) -> str:
    """The shard a paper's reviews are in: two hex digits from a CRC-32 of its forum id."""
    return f"{zlib.crc32(forum.encode('utf-8', 'surrogatepass')) % SHARDS:02x}"


@dataclass(frozen=True, slots=True)
class ReviewImport:
    """What a review import did.

    Attributes:
        new: notes not seen before.
        updated: notes replaced by a newer version (a later ``tmdate``).
        unchanged: notes already stored as they are (or stored in a newer version).
        papers: distinct papers (forum ids) the notes are on.
        waiting: of those, papers not in the catalogue: their notes are kept until they arrive.
        changed_forums: forum ids whose notes changed.
        notes: the official reviews added, and those replaced with another rating or confidence
            (the scores' moves, by note id), in the order met. A version older than the stored
            current one joins the note's history and is no change.
        notices: lines to show (the changes could not be recorded).
        versions: versions kept besides each note's first one (a note seen in three versions: 2),
            in the notes' histories (:attr:`Review.earlier <paperdeck.model.review.Review.earlier>`).
        skipped: versions left out, ``(reason, count)`` pairs
            (:mod:`paperdeck.store.review_history`).
        rescored: the papers in the catalogue whose notes changed: their reviews and ratings
            were updated (an import of reviews alone updates no paper record, but these).
    """

    new: int = 0
    updated: int = 0
    unchanged: int = 0
    papers: int = 0
    waiting: int = 0
    changed_forums: frozenset[str] = frozenset()
    notes: tuple[NoteChange, ...] = ()
    notices: tuple[str, ...] = ()
    versions: int = 0
    skipped: tuple[tuple[str, int], ...] = ()
    rescored: int = 0

    def summary(self) -> str:
        """``"76,816 reviews and comments on 19,499 papers (76,816 new, 0 updated, 0 unchanged)"``,
        then ``"; 968 earlier versions kept"`` when the import added versions to notes' histories,
        ``"; 19,499 papers' reviews and ratings updated"`` when it changed those of papers in the
        catalogue, and ``"; 3 papers not imported yet, their reviews kept until they are"`` when any;
        every count in the singular for 1 (``"1 review or comment on 1 paper"``, ``"1 paper's
        reviews"``: :func:`~paperdeck.model.counts.counted`)."""
        total = self.new + self.updated + self.unchanged
        text = (
            f"{counted(total, 'review or comment', 'reviews and comments')} on {counted(self.papers, 'paper')} "
            f"({self.new:,} new, {self.updated:,} updated, {self.unchanged:,} unchanged)"
        )
        if self.versions:
            text += f"; {counted(self.versions, 'earlier version')} kept"
        if self.rescored:
            text += "; " + counted(self.rescored, "paper's", "papers'") + " reviews and ratings updated"
        if self.waiting:
            their = "its reviews kept until it is" if self.waiting == 1 else "their reviews kept until they are"
            text += f"; {counted(self.waiting, 'paper')} not imported yet, {their}"
        return text


class StagedWords:
    """The words of the notes of the files read so far, folded while the next files are read
    (in a thread of the importing process, a batch at a time, never in a process of its own: a
    second interpreter with numpy held beside the import's peak was most of what the two held
    over it): :meth:`ReviewStore.import_reviews` takes each
    paper whose notes it stores are exactly those staged, and folds the others itself. Nothing is
    written until that import writes its word index; :meth:`close` it in any case.

    Args:
        reviewed: forum ids that had notes stored when reading began: not staged (their notes
            are merged with the stored ones at the import; a refresh changes few of them).
        spill_dir: where the folded words are put aside until the index is written (the
            store's data directory; ``None``: the system's temporary directory).
    """

    def __init__(self, reviewed: frozenset[str] = frozenset(), spill_dir: Path | None = None) -> None:
        from paperdeck.store.review_words import WordIndexBuilder  # deferred: numpy

        self.builder: WordIndexBuilder = WordIndexBuilder(None, spill_dir=spill_dir)
        self._reviewed = reviewed
        #: Forum id → (unit, :func:`_versions_key` of the notes staged); ``None``: on several files.
        self._staged: dict[str, tuple[int, bytes] | None] = {}

    def add(self, reviews: Sequence[Review]) -> None:
        """Stage one file's notes (of the same note id, the latest ``tmdate``, the first of equal ones)."""
        by_forum: dict[str, dict[str, Review]] = {}
        for review in reviews:
            notes = by_forum.setdefault(review.forum, {})
            held = notes.get(review.id)
            if held is None or review.tmdate > held.tmdate:
                notes[review.id] = review
        staged, reviewed, builder = self._staged, self._reviewed, self.builder
        for forum, notes in by_forum.items():
            if forum in staged:
                staged[forum] = None  # on an earlier file too: merged at the import
            elif forum not in reviewed:
                staged[forum] = (builder.add(forum, notes.values()), _versions_key(notes.values()))

    def unit(self, forum: str, notes: list[Review]) -> int | None:
        """The unit staged for ``forum`` when its words are those of exactly ``notes`` (the same
        note ids at the same ``tmdate``: the same versions, whatever history they carry), else ``None``."""
        staged = self._staged.get(forum)
        if staged is None:
            return None
        return staged[0] if staged[1] == _versions_key(notes) else None

    def close(self) -> None:
        """Stop folding (the batch process ends); after a write, or instead of one."""
        self.builder.close()


def _versions_key(notes: Iterable[Review]) -> bytes:
    """Which versions ``notes`` are (notes of distinct ids): a BLAKE2b digest (16 bytes) of their
    ``(note id, tmdate)`` pairs sorted, ``marshal``'s (exact, a lone surrogate too); equal for the
    same pairs in any order. Held per staged paper instead of the pairs themselves (a set of
    tuples of a string and an int per note: ~100 bytes a note, ~50 MB at five times a conference)."""
    import hashlib
    import marshal

    return hashlib.blake2b(marshal.dumps(sorted((note.id, note.tmdate) for note in notes)), digest_size=16).digest()


#: Told as the notes read are merged (:meth:`ReviewStore.import_reviews`): ``(what, done, total)``:
#: ``("reviews", merged, read)`` once a shard's notes are merged (each version read counting one),
#: ``("review words", 0, papers)`` as the word index of the papers' reviews begins, then
#: ``("review words", percent, 100)`` as its parts are written (:meth:`WordIndexBuilder.write`), and
#: (:meth:`~paperdeck.store.import_run.ImportRun.import_reviews`) ``("paper scores", done, papers)``
#: as the reviewed papers' scores are written into the catalogue in place: ``done`` 0 first, then
#: moving to ``papers`` as the write goes through the catalogue (its share of the file read past).
MergeProgress = Callable[[str, int, int], None]


class ReviewSpill:
    """The notes an import read, put aside on disk by shard as each file is read (an unlinked
    temporary file: nothing is left behind, whatever ends the process), so that
    :meth:`ReviewStore.import_reviews` merges them a batch of shards at a time and no more than one
    batch's notes are held at once. Close it (:meth:`close`) when done.

    Args:
        directory: where the temporary file is made (the store's data directory: the disk the
            store is on; ``None``, or a directory that cannot take it: the system's temporary
            directory).
        batch_bytes: bytes of spilled notes (as ``marshal`` writes them) in one batch, at least one shard's
            (``None``: :data:`SPILL_BATCH_BYTES`).

    Attributes:
        count: notes added.
        text_chars: characters of their text (:meth:`Review.text_size`).
        largest_batch: the most notes one batch of :meth:`batches` held (``0`` before).

    Raises:
        StoreError: (:meth:`add`, :meth:`batches`) the temporary file cannot be written or read.
    """

    def __init__(self, directory: Path | None = None, batch_bytes: int | None = None) -> None:
        self._directory = directory
        self._batch_bytes = SPILL_BATCH_BYTES if batch_bytes is None else batch_bytes
        self._file: Any = None
        self._buffers: dict[str, list[tuple[Any, ...]]] = {}  # shard → notes' fields (_fields_of)
        self._buffered = 0
        self._chunks: dict[str, list[tuple[int, int]]] = defaultdict(list)  # shard → (offset, size)
        self._sizes: Counter[str] = Counter()
        self.count = 0
        self.text_chars = 0
        self.largest_batch = 0

    def add(self, reviews: Iterable[Review]) -> None:
        """Put ``reviews`` aside (in the order given, after those added before)."""
        buffers = self._buffers
        for review in reviews:
            shard = shard_of(review.forum)
            buffer = buffers.get(shard)
            if buffer is None:
                buffer = buffers[shard] = []
            buffer.append(_fields_of(review))
            size = review.text_size()
            self._buffered += size
            self.count += 1
            self.text_chars += size
            if self._buffered >= _SPILL_BUFFER_CHARS:
                self._flush()

    def _flush(self) -> None:
        if not self._buffers:
            return
        import marshal

        try:
            if self._file is None:
                import tempfile

                directory = self._directory if self._directory is not None and self._directory.is_dir() else None
                # Closed by close(); unlinked at once: gone with the process whatever ends it. A
                # data directory that cannot take it (read-only): the system's temporary one.
                try:
                    self._file = tempfile.TemporaryFile(prefix=".paperdeck-spill-", dir=directory)  # noqa: SIM115
                except OSError:
                    if directory is None:
                        raise
                    self._file = tempfile.TemporaryFile(prefix=".paperdeck-spill-")  # noqa: SIM115
            file = self._file
            offset = file.seek(0, os.SEEK_END)
            for shard, buffer in self._buffers.items():
                blob = marshal.dumps(buffer)
                file.write(blob)
                self._chunks[shard].append((offset, len(blob)))
                self._sizes[shard] += len(blob)
                offset += len(blob)
        except OSError as exc:
            reason = f"cannot put the reviews read aside: {write_failure(exc)}"
            raise StoreError(self._directory or Path("."), reason) from None
        self._buffers.clear()  # in place: :meth:`add` holds the dict
        self._buffered = 0

    def batches(self) -> Iterator[list[Review]]:
        """The notes added, a batch of shards at a time, shards in order (:func:`shard_of`'s
        names sorted), each shard's notes in the order added; each batch ``SPILL_BATCH_BYTES`` of
        spilled notes or one shard."""
        self._flush()
        batch: list[str] = []
        size = 0
        for shard in sorted(self._chunks):
            batch.append(shard)
            size += self._sizes[shard]
            if size >= self._batch_bytes:
                yield self._read(batch)
                batch, size = [], 0
        if batch:
            yield self._read(batch)

    def _read(self, shards: list[str]) -> list[Review]:
        import marshal

        file = self._file
        reviews: list[Review] = []
        try:
            for shard in shards:
                for offset, size in self._chunks[shard]:
                    file.seek(offset)
                    reviews += map(_review_of, marshal.loads(file.read(size)))
        except (OSError, EOFError, ValueError, TypeError) as exc:
            raise StoreError(self._directory or Path("."), f"cannot read the reviews put aside: {exc}") from None
        self.largest_batch = max(self.largest_batch, len(reviews))
        return reviews

    def close(self) -> None:
        """Drop the notes put aside (the temporary file goes)."""
        self._buffers = {}
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None


class ReviewStore:
    """The reviews directory of a store (created on the first import that brings reviews).

    Args:
        directory: the ``reviews/`` directory.
        now: clock for the change log (ISO 8601 UTC text).
    """

    def __init__(self, directory: Path, now: Callable[[], str]) -> None:
        self.directory = directory
        self.index_path = directory / INDEX_FILE
        self._now = now
        self._index: dict[str, Any] | None = None
        self._index_stamp: FileStamp | None = None
        self._summaries: dict[str, ReviewSummary] = {}
        #: Some papers' summaries only (a venue scope's, :meth:`summaries_among`), until every one is read.
        self._some: SomeSummaries | None = None
        self._single_reads = 0  # summaries read one by one (see summary)
        self._sorted_means: dict[str, list[float]] | None = None
        self._words: WordIndex | None = None

    # -- reading -----------------------------------------------------------------------------

    def _read_index(self) -> dict[str, Any]:
        """The index as on disk now (re-read when another process replaced it).

        Raises:
            StoreError: the index is not valid JSON or was written by a newer paperdeck.
        """
        index_path = staged_path(self.index_path)  # in a transaction: as it will be
        try:
            stat = index_path.stat()
            stamp: FileStamp | None = FileStamp.of(stat)
        except OSError:
            stamp = None
        if self._index is not None and stamp == self._index_stamp:
            return self._index
        if stamp is None:
            index: dict[str, Any] = {"shards": {}}
        else:
            try:
                index = orjson.loads(index_path.read_bytes())
            except OSError as exc:
                raise StoreError(self.index_path, f"cannot read: {exc.strerror or exc}") from None
            except orjson.JSONDecodeError as exc:
                reason = f"not valid JSON ({exc.msg}); move the reviews directory aside and import the reviews again"
                raise StoreError(self.index_path, reason) from None
            if not isinstance(index, dict) or not isinstance(index.get("shards"), dict):
                raise StoreError(self.index_path, "not a paperdeck reviews index; move the reviews directory aside")
            schema = index.get("schema")
            if isinstance(schema, int) and schema > _SCHEMA:
                raise StoreError(self.index_path, f"written by a newer paperdeck (reviews schema {schema}); upgrade")
        self._index, self._index_stamp = index, stamp
        self._summaries = {}
        self._some = None
        self._sorted_means = None
        self._words = None
        return index

    def summaries(self) -> dict[str, ReviewSummary]:
        """The score summary of every reviewed paper, by forum id (one read of the index; no
        review text is opened).

        Raises:
            StoreError: as :meth:`_read_index`; or a summary is malformed.
        """
        index = self._read_index()
        if not self._summaries and index.get("summaries"):
            path = self.directory / str(index["summaries"])
            try:
                # Entry by entry (the file is never one parsed tree, whose freed pieces the
                # process would keep), else parsed whole, which names what is wrong.
                streamed = summaries_streamed(staged_path(path), made=self._some,
                                              spans_to=self._spans_to_repair(str(index["summaries"])))  # fmt: skip
                if streamed is not None:
                    self._summaries = streamed
                    return streamed
                raw = self._summary_docs(index)
                # Each parsed summary is dropped as it is taken: the two forms are never all held at once.
                self._summaries = {k: ReviewSummary.from_dict(raw.pop(k)) for k in list(raw)}
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise StoreError(path, f"a score summary is malformed ({malformed(exc)})") from None
        return self._summaries

    def summaries_among(self, forums: AbstractSet[str]) -> dict[str, ReviewSummary]:
        """The score summaries of (at least) the papers with these forum ids, by forum id: a
        :class:`~paperdeck.model.review_summary.SomeSummaries` of theirs when only theirs are built (a
        venue scope's papers: the other venues' summaries are parsed, not built), kept for the
        next call (the same object while it covers the forums asked; a wider set builds the rest
        it names into a new one); every summary (:meth:`summaries`) when they are read already.
        When these papers' hold a rating, every summary of the rated ones' venues
        (:attr:`ReviewSummary.venue <paperdeck.model.review_summary.ReviewSummary.venue>`) is built too,
        whichever forum holds it (:attr:`SomeSummaries.venues
        <paperdeck.model.review_summary.SomeSummaries.venues>`): a rated paper's :meth:`rank` compares it
        with every rated paper of its venue, and needs no other venue's. The forums' entries are
        found by the summaries' span index, the others' neither parsed nor built; without a usable
        index (or for those venues) every entry is parsed, only those built.

        Raises:
            StoreError: as :meth:`summaries`.
        """
        index = self._read_index()
        if self._summaries or not index.get("summaries"):
            return self._summaries
        some = self._some
        if some is not None and (forums is some.forums or forums <= some.forums):
            return some
        # The forums asked as given (a scope's answers ``in`` without making its every forum id:
        # :class:`~paperdeck.search.venues.ScopeForums`); joined, as a frozenset.
        wanted: AbstractSet[str] = (
            (frozenset(forums) if isinstance(forums, MutableSet) else forums)
            if some is None
            else frozenset(some.forums | forums)
        )
        name = str(index["summaries"])
        path = self.directory / name
        try:  # the forums' entries alone, by the span index; else every entry streamed
            spans = staged_path(self.directory / _spans_name(name))
            streamed = summaries_by_index(staged_path(path), spans, wanted, some)
            if streamed is None:
                # (the index is not of this file, or wrong: made again from this pass)
                repair = self._spans_to_repair(name, unusable=True)
                streamed = summaries_streamed(staged_path(path), wanted, some, spans_to=repair)
            if streamed is None:
                return self.summaries()  # parsed whole, which names what is wrong
            # A rank compares a rated paper with every rated paper of its summary's venue, which
            # other forums may hold: every summary of those venues is built too (no other).
            rated = frozenset(summary.venue for summary in streamed.values() if summary.mean is not None)
            rated |= some.venues if some is not None else frozenset()  # (held whole still: taken over)
            if rated and not (some is not None and rated <= some.venues):  # (else each one's held already)
                mates = summaries_streamed(staged_path(path), wanted, {**(some or {}), **streamed}, rated)
                if mates is None:
                    return self.summaries()
                streamed, wanted = mates, wanted | frozenset(mates)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(path, f"a score summary is malformed ({malformed(exc)})") from None
        self._some = SomeSummaries(streamed, wanted, rated)
        return self._some

    def summaries_current(self, summaries: object) -> bool:
        """Whether ``summaries`` (a :meth:`summaries` or :meth:`summaries_among` answer) is what
        is held for the index as on disk now (not read again since, nor since widened)."""
        if summaries is None:
            return False
        self._read_index()
        return (summaries is self._summaries and self.summaries_read) or summaries is self._some

    @property
    def some_held(self) -> bool:
        """Whether some papers' summaries are held (:meth:`summaries_among`), not every one."""
        return self._some is not None and not self._summaries

    def summary_held(self, forum: str) -> bool:
        """Whether :meth:`summary` answers for ``forum`` from the summaries read (every one, or
        a :meth:`summaries_among` holding this forum's), no file read."""
        return self.summaries_read or (self._some is not None and forum in self._some.forums)

    def summaries_of(self, forums: Iterable[str]) -> dict[str, ReviewSummary]:
        """The score summaries of the papers with these forum ids that have one, by forum id:
        only those are made (the summaries file is parsed, not every summary built), unless all
        are held already (:meth:`summaries`).

        Raises:
            StoreError: as :meth:`summaries`.
        """
        index = self._read_index()
        if self._summaries or not index.get("summaries"):
            return {forum: found for forum in forums if (found := self._summaries.get(forum)) is not None}
        path = self.directory / str(index["summaries"])
        forums = list(forums)
        raw = self._summary_docs_of(str(index["summaries"]), forums)
        if raw is None:
            raw = self._summary_docs(index)
        try:
            return {forum: ReviewSummary.from_dict(raw[forum]) for forum in forums if forum in raw}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(path, f"a score summary is malformed ({malformed(exc)})") from None

    def _summary_docs_of(self, name: str, forums: list[str]) -> dict[str, Any] | None:
        """The summaries of ``forums`` found in the summaries file ``name`` by its span index
        (as :meth:`_summary_doc`, the file mapped once for all of them): only their entries are
        parsed, not the whole file (a decisions file naming a few thousand papers of a large
        store). A forum the index does not list has no summary. ``None`` when the index is not
        usable or an entry is not where it says (the caller parses the whole file)."""
        import mmap

        from paperdeck.store.paper_index import open_index

        path = staged_path(self.directory / name)
        index = open_index(staged_path(self.directory / _spans_name(name)), path)
        if index is None:
            return None
        found: dict[str, Any] = {}
        try:
            with path.open("rb") as handle:
                stat = os.fstat(handle.fileno())
                if (stat.st_ino, stat.st_mtime_ns, stat.st_size) != index.stamp or not stat.st_size:
                    return None
                with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                    for forum in forums:
                        prefix = orjson.dumps(forum) + b":"
                        for start, end in index.spans(forum):
                            if data[start : start + len(prefix)] == prefix:
                                found[forum] = orjson.loads(data[start + len(prefix) : end])
                                break
        except (OSError, ValueError):
            return None
        finally:
            index.close()
        if not all(isinstance(doc, dict) for doc in found.values()):
            return None
        return found

    def _summary_docs(self, index: dict[str, Any]) -> dict[str, Any]:
        """The summaries file the index names, as JSON (``{}`` when it names none)."""
        name = index.get("summaries")
        if not name:
            return {}
        return self._json_object(str(name), "a reviews summaries file")

    def _json_object(self, name: str, what: str) -> dict[str, Any]:
        """The JSON object in the review store's file ``name`` (``what`` names the kind of file in
        the error).

        Raises:
            StoreError: the file cannot be read, is not JSON, or holds no object.
        """
        path = self.directory / name
        try:
            data = orjson.loads(staged_path(path).read_bytes())
        except OSError as exc:
            raise StoreError(path, f"cannot read: {exc.strerror or exc}; import the reviews again") from None
        except orjson.JSONDecodeError as exc:
            raise StoreError(path, f"not valid JSON ({exc.msg}); import the reviews again") from None
        if not isinstance(data, dict):
            raise StoreError(path, f"not {what}; import the reviews again")
        return data

    @property
    def summaries_read(self) -> bool:
        """Whether :meth:`summaries` has the index as on disk read already (no file is read to
        answer; the app reads them in a worker first)."""
        return self._index is not None and (bool(self._summaries) or not self._index.get("summaries"))

    def summary(self, forum: str) -> ReviewSummary | None:
        """One paper's score summary, ``None`` when it has no reviews. Before :meth:`summaries`
        has read them all, only this one is made of the summaries file (``paperdeck show``).

        Raises:
            StoreError: as :meth:`summaries`.
        """
        index = self._read_index()
        if self._summaries or not index.get("summaries"):
            return self._summaries.get(forum)
        if self._some is not None and forum in self._some.forums:
            return self._some.get(forum)
        self._single_reads += 1  # a caller asking for many: reading them all is cheaper
        doc = self._summary_doc(str(index["summaries"]), forum) if self._single_reads <= 8 else None
        if doc is None and self._single_reads > 8:
            return self.summaries().get(forum)
        if doc is None:
            doc = self._summary_docs(index).get(forum)
        if doc is None:
            return None
        try:
            return ReviewSummary.from_dict(doc)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            path = self.directory / str(index["summaries"])
            raise StoreError(path, f"a score summary is malformed ({malformed(exc)})") from None

    def repair_spans(self) -> None:
        """Write the summaries file's span index again when it is missing or not of the file (as
        :meth:`_spans_to_repair`), from one pass over the file that builds no summary; best
        effort and silent (a failure only costs speed: the file is read whole as before)."""
        with contextlib.suppress(StoreError, OSError):
            name = self._read_index().get("summaries")
            if isinstance(name, str) and name and (spans := self._spans_to_repair(name)) is not None:
                with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
                    summaries_streamed(self.directory / name, frozenset(), spans_to=spans)

    def _spans_to_repair(self, name: str, unusable: bool = False) -> Path | None:
        """Where the summaries file ``name``'s span index is to be written again as the file is
        streamed: when the index there is missing or not of the file as it is (a store copied or
        restored: the index names the file's inode), or ``unusable`` (found wrong by its reader),
        and no transaction of this context stages either; else ``None``. Without it each venue
        scope's open and each ``paperdeck show`` read the whole file."""
        from paperdeck.store.paper_index import open_index

        if ACTIVE.get() is not None:
            return None
        spans = self.directory / _spans_name(name)
        if unusable:
            return spans
        index = open_index(spans, self.directory / name)
        if index is not None:
            index.close()
            return None
        return spans

    def _summary_doc(self, name: str, forum: str) -> dict[str, Any] | None:
        """One paper's summary as JSON, found in the summaries file as written (``orjson``: no
        space; in JSON text a key's quote is never inside a string, where quotes are escaped) and
        parsed alone; ``None`` when it is not found so (the caller parses the whole file)."""
        from paperdeck.store.paper_index import read_entry

        path = staged_path(self.directory / name)
        value = read_entry(staged_path(self.directory / _spans_name(name)), path, forum, orjson.dumps(forum) + b":")
        if value is not None:  # found by the summaries' span index: the file is not read whole
            with contextlib.suppress(ValueError):
                found = orjson.loads(value)
                if isinstance(found, dict):
                    return found
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        key = orjson.dumps(forum) + b":{"
        at = raw.find(key)
        if at < 0 or raw[at - 1 : at] not in (b"{", b","):
            return None
        import json

        window = raw[at + len(key) - 1 : at + len(key) - 1 + 65_536].decode("utf-8", "replace")
        try:
            doc, _ = json.JSONDecoder().raw_decode(window)
        except ValueError:
            return None
        return doc if isinstance(doc, dict) else None

    def rank(self, forum: str) -> Rank | None:
        """Where this paper's mean rating ranks among all reviewed papers of its venue in the
        store (never only those a filter shows, never another venue's, rated on another scale):
        the share (0–1] of them whose mean is as high or higher, and how many they are
        (:class:`~paperdeck.model.review_summary.Rank`); ``None`` without ratings. The venue is the
        summaries' :attr:`~paperdeck.model.review_summary.ReviewSummary.venue` (summaries without one are
        ranked among themselves)."""
        self._read_index()
        some = self._some
        if not self._summaries and some is not None:  # some held
            held = self.summary(forum)
            if held is None or held.mean is None:
                return None
            if held.venue in some.venues:  # every summary of its venue held: no other read
                means = some.sorted_means(held.venue)
                below = bisect.bisect_left(means, held.mean)
                return Rank((len(means) - below) / len(means), len(means), held.venue)
        summaries = self.summaries()
        summary = summaries.get(forum)
        if summary is None or summary.mean is None:
            return None
        if self._sorted_means is None:
            by_venue: dict[str, list[float]] = {}
            for other in summaries.values():
                if other.mean is not None:
                    by_venue.setdefault(other.venue, []).append(other.mean)
            self._sorted_means = {venue: sorted(means) for venue, means in by_venue.items()}
        means = self._sorted_means[summary.venue]
        below = bisect.bisect_left(means, summary.mean)
        return Rank((len(means) - below) / len(means), len(means), summary.venue)

    def paper_rank(self, paper: Paper) -> Rank | None:
        """The rank the app and the command line show for ``paper`` (:meth:`rank` of its forum),
        ``None`` for a paper with no venue: its reviews' group would place it in a venue the app
        does not show it in ("the only paper rated in ICLR 2026" beside "venue unknown"), and a
        rank among the papers of no venue would mix lists and scales that share nothing."""
        if not paper.openreview_id or not paper.venue:
            return None
        return self.rank(paper.openreview_id)

    def word_index(self) -> WordIndex | None:
        """The word index of the review text as on disk now (read on the first call, the
        postings memory-mapped); ``None`` when no import has written one.

        Raises:
            StoreError: its files are missing or malformed.
        """
        index = self._read_index()
        name = index.get("words")
        if not name:
            return None
        if self._words is None:
            from paperdeck.store.review_words import WordIndex  # deferred: numpy, not for a bare start

            try:
                self._words = WordIndex(self.directory, str(name))
            except (OSError, ValueError) as exc:
                reason = f"the word index {name} cannot be read ({malformed(exc)}); import the reviews again"
                raise StoreError(self.directory, reason) from None
        return self._words

    def forums_with(self, value: str, inner: bool = False) -> frozenset[str]:
        """The forum ids whose review text (any note, any section) holds ``value`` from a word
        start (``inner``: anywhere in a word), folded as searches fold text; several words are a
        phrase (:meth:`WordIndex.forums_with <paperdeck.store.review_words.WordIndex.forums_with>`).

        Raises:
            StoreError: as :meth:`word_index`; or reviews are stored without a word index.
        """
        words = self.word_index()
        if words is None and self.counts()["notes"]:
            reason = "the review text has no word index yet (stored by an older paperdeck); import the reviews again"
            raise StoreError(self.directory, reason)
        if words is None:
            return frozenset()
        try:
            return words.forums_with(value, inner)
        except ValueError:
            reason = "the review word index keeps no word order for phrases (an older paperdeck's); "
            reason += "import the reviews again"
            raise StoreError(self.directory, reason) from None

    def counts(self) -> dict[str, int]:
        """``{"notes": …, "papers": …}``: notes stored and papers they are on."""
        index = self._read_index()
        return {"notes": int(index.get("notes", 0)), "papers": int(index.get("papers", 0))}

    def reviews(self, forum: str) -> list[Review]:
        """One paper's notes, by ``cdate`` (reads one shard file); ``[]`` when it has none.

        Raises:
            StoreError: the shard file is missing or malformed.
        """
        docs = self._shard(shard_of(forum)).get(forum) or []
        try:
            return [Review.from_dict(doc) for doc in docs]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(self.directory, f"a review of {forum} is malformed ({malformed(exc)})") from None

    def reviews_of(self, forums: Iterable[str]) -> Iterator[tuple[str, list[Review]]]:
        """Each of ``forums``' notes, as :meth:`reviews` gives them, as ``(forum, notes)`` pairs
        shard by shard (each shard file read once, one at a time; a forum given twice comes once;
        one without notes comes with ``[]``): for the many papers of an export.

        Raises:
            StoreError: as :meth:`reviews`.
        """
        by_shard: dict[str, list[str]] = defaultdict(list)
        for forum in dict.fromkeys(forums):
            by_shard[shard_of(forum)].append(forum)
        for shard in sorted(by_shard):
            docs = self._shard(shard)
            for forum in by_shard[shard]:
                try:
                    notes = [Review.from_dict(doc) for doc in docs.get(forum) or []]
                except (KeyError, TypeError, ValueError, AttributeError) as exc:
                    raise StoreError(self.directory, f"a review of {forum} is malformed ({malformed(exc)})") from None
                yield forum, notes

    def _shard(self, shard: str) -> dict[str, list[dict[str, Any]]]:
        name = self._read_index()["shards"].get(shard)
        return self._shard_file(str(name)) if name else {}

    def _shard_file(self, name: str) -> dict[str, list[dict[str, Any]]]:
        return self._json_object(name, "a reviews shard")

    # -- writing -----------------------------------------------------------------------------

    def stage_words(self) -> StagedWords:
        """A :class:`StagedWords` for an import about to read its files (the papers with notes
        stored now are not staged)."""
        try:
            reviewed = frozenset(self._summary_docs(self._read_index()))
        except StoreError:
            reviewed = frozenset()  # the import says what is wrong
        return StagedWords(reviewed, spill_dir=self.directory.parent)

    def import_reviews(
        self,
        reviews: Iterable[Review] | ReviewSpill,
        known: Callable[[str], bool],
        *,
        note_changes: bool = True,
        staged: StagedWords | None = None,
        progress: MergeProgress | None = None,
    ) -> ReviewImport:
        """Merge ``reviews`` into the store, every version kept
        (:func:`paperdeck.store.review_history.merge_versions`): a note not seen is added, a
        later version of a stored note becomes its current one (and its moves are logged), an
        earlier one joins its history (not logged: history, no change), a version stored already
        is unchanged. Nothing is written when nothing changed. Call it under the store's import lock.

        Args:
            reviews: the notes read, in any order (several versions of one note id: each kept,
                the latest ``tmdate`` current); a :class:`ReviewSpill` is merged a batch of shards at
                a time (the same result, one batch's notes held at once).
            known: whether a forum id's paper is in the catalogue (for :attr:`ReviewImport.waiting`).
            note_changes: fill :attr:`ReviewImport.notes` (the first reviews imported, a baseline,
                need none).
            staged: the words of ``reviews`` folded as their files were read; the caller closes it.
            progress: told, once a shard's notes are merged, how many of the notes read are
                merged and how many there are in all (every version read counts one: a
                :class:`ReviewSpill`'s :attr:`~ReviewSpill.count`; the last such call says all),
                then as the word index is written (:data:`MergeProgress`).

        Raises:
            StoreError: the index or a shard cannot be read or written; the generation on disk
                before stays whole (a shard file written meanwhile is removed).
        """
        from paperdeck.store.review_words import WordIndexBuilder  # deferred: numpy

        # a spill a batch of shards at a time; notes held whole: one batch
        if isinstance(reviews, ReviewSpill):
            batches: Iterable[Iterable[Review]] = reviews.batches()
            reviews_read = reviews.count
        else:
            held = list(reviews)
            batches = (held,)
            reviews_read = len(held)
        reviews_merged = 0
        now_ms = _ms(self._now())
        versions = 0
        skipped: Counter[str] = Counter()
        if self.directory.is_dir():  # what a killed import staged and never committed
            clean_stray_temp_files(self.directory, older_than_s=60.0, root=self.directory.parent)
        index = self._read_index()
        generation = int(index.get("generation", 0)) + 1
        shards = dict(index["shards"])
        # Each summary held once as a document: its JSON text (those read, re-encoded one by one
        # and dropped), beside the summaries this import makes (``made``, for the papers' scores).
        docs = self._summary_docs(index)
        summaries: dict[str, bytes] = {forum: _exact(orjson.dumps(docs.pop(forum))) for forum in list(docs)}
        del docs
        made: dict[str, ReviewSummary] = {}  # the summaries this import makes
        notes_total = int(index.get("notes", 0))
        new = updated = unchanged = 0
        changes: list[NoteChange] = []
        changed_forums: set[str] = set()
        written: list[Path] = []
        forums: set[str] = set()
        old_words = self.word_index()
        if old_words is not None and not old_words.has_phrases:
            old_words = None  # an index without the word order: made again, whole
        rebuild = old_words is None and bool(shards)  # reviews from before the word index: all of them
        forum_words: WordIndexBuilder
        if staged is not None:
            forum_words = staged.builder
            forum_words.use_old(old_words)
            forum_words.prepare()  # the vocabulary made beside the shards
        else:  # folded in a thread of this process, as the staged words are (see StagedWords)
            forum_words = WordIndexBuilder(old_words, spill_dir=self.directory.parent)
        units: dict[str, int] = {}  # each changed paper's unit in forum_words
        # Shards are written (and synced to disk) by threads while the next ones are made; none
        # is named in the index until all are written.
        from concurrent.futures import ThreadPoolExecutor  # deferred: only imports write

        writer = ThreadPoolExecutor(max_workers=_WRITERS, thread_name_prefix="paperdeck-reviews-write")
        writes: deque[Future[None]] = deque()
        try:
            made_directory = False
            for shard, by_forum, more in (item for batch in batches for item in _by_shard(batch)):
                forums.update(by_forum)
                stored_name = shards.get(shard)  # as the index read under the lock names it
                stored = self._shard_file(str(stored_name)) if stored_name else {}
                shard_changed = False
                for forum, notes in by_forum.items():
                    docs = {doc["id"]: doc for doc in stored.get(forum) or ()}
                    current: dict[str, Review] = {}
                    forum_changed = False
                    if any(note_id.startswith(SNAPSHOT_PREFIX) for note_id in (*docs, *notes)):
                        joined = _join_snapshots(forum, notes, docs, more)
                        notes_total -= joined
                        forum_changed = joined > 0
                    for note_id, review in notes.items():
                        old = docs.get(note_id)
                        several = more.get((forum, note_id))
                        if old is None and several is None and review.tmdate > 0:
                            new += 1  # the common case: one version of a note not stored
                            notes_total += 1
                            versions += len(review.earlier)
                            if note_changes and (change := _note_change(None, review)) is not None:
                                changes.append(change)
                        elif (
                            several is None
                            and old is not None
                            and review.tmdate == old.get("tmdate")
                            and not review.earlier
                        ):
                            unchanged += 1  # stored as it is (a re-import): nothing to merge
                            if review.scores != tuple((old.get("scores") or {}).items()):
                                skipped[CONFLICT] += 1
                            continue
                        else:
                            stored_note = None if old is None else Review.from_dict(old)
                            merge = merge_versions(stored_note, several or (review,), now_ms)
                            skipped.update(merge.skipped)
                            if merge.review is None or not merge.added:
                                unchanged += 1
                                continue
                            review = merge.review
                            versions += merge.added - (old is None)
                            if old is None:
                                new += 1
                                notes_total += 1
                            else:
                                updated += 1
                            change = _note_change(old, review) if note_changes and merge.current_changed else None
                            if change is not None:
                                changes.append(change)
                        docs[note_id] = review.to_dict()
                        current[note_id] = review
                        forum_changed = True
                    if forum_changed:
                        ordered = sorted(docs.values(), key=lambda doc: (doc.get("cdate", 0), doc["id"]))
                        stored[forum] = ordered
                        latest = [current.get(doc["id"]) or Review.from_dict(doc) for doc in ordered]
                        made[forum] = summary = ReviewSummary.of(latest)
                        summaries[forum] = _exact(orjson.dumps(summary.to_dict()))
                        unit = staged.unit(forum, latest) if staged is not None else None
                        units[forum] = forum_words.add(forum, latest) if unit is None else unit
                        changed_forums.add(forum)
                        shard_changed = True
                if progress is not None:
                    reviews_merged += sum(map(len, by_forum.values())) + sum(len(v) - 1 for v in more.values())
                    progress("reviews", min(reviews_merged, reviews_read), reviews_read)
                if shard_changed:
                    name = f"{shard}.g{generation}.json"
                    if not made_directory:
                        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                        made_directory = True
                    path = self.directory / name
                    written.append(path)
                    # each in this context: a transaction's files are staged in it
                    context = contextvars.copy_context()
                    writes.append(writer.submit(context.run, atomic_write_bytes, path, orjson.dumps(stored)))
                    if len(writes) > _WRITES_IN_FLIGHT:
                        writes.popleft().result()
                    shards[shard] = name
            while writes:
                writes.popleft().result()
            if changed_forums or rebuild:
                if rebuild:
                    for name in shards.values():
                        for forum, stored_notes in self._shard_file(str(name)).items():
                            if forum not in units:
                                units[forum] = forum_words.add(forum, (Review.from_dict(doc) for doc in stored_notes))
                words_name = f"words.g{generation}"
                if progress is not None:
                    progress("review words", 0, len(units))
                # What the merge freed (the batches' notes and documents: half the process at
                # its end), handed back before the word index is written beside it.
                release_freed_memory()
                told = None if progress is None else functools.partial(progress, "review words")
                written += forum_words.write(self.directory, words_name, units, told)
                summaries_name = f"summaries.g{generation}.json"
                written.append(self.directory / summaries_name)
                from paperdeck.store.paper_index import write_paper_index

                summary_spans: list[tuple[str, tuple[int, int]]] = []
                # orjson.dumps of the docs, written a piece at a time: never held whole
                atomic_write_bytes(self.directory / summaries_name, _encoded_object_pieces(summaries, summary_spans))
                # where each summary lies, so that one paper's is read alone (paperdeck show)
                written.append(self.directory / _spans_name(summaries_name))
                stat = staged_path(self.directory / summaries_name).stat()
                write_paper_index(self.directory / _spans_name(summaries_name),
                                  (stat.st_ino, stat.st_mtime_ns, stat.st_size), summary_spans, {})  # fmt: skip
                payload = {"schema": _SCHEMA, "app": "paperdeck", "generation": generation, "notes": notes_total,
                           "papers": len(summaries), "shards": shards, "summaries": summaries_name,
                           "words": words_name}  # fmt: skip
                atomic_write_bytes(self.index_path, orjson.dumps(payload))
                del summary_spans
                self._take_written(payload, summaries, made)
                del summaries, made  # held as the store's summaries now, when they could be
        except BaseException:
            writer.shutdown(wait=True)
            forum_words.close()
            for path in written:
                with contextlib.suppress(OSError):
                    path.unlink()
            raise
        finally:
            writer.shutdown(wait=True)
        if changed_forums or rebuild:
            named = {*shards.values(), summaries_name, _spans_name(summaries_name)}
            txn = ACTIVE.get()
            if txn is not None:  # the files named now are renamed into place at the commit
                txn.after_commit(lambda: self._remove_unnamed_shards(named, words_name))
            else:
                self._remove_unnamed_shards(named, words_name)
        return ReviewImport(
            new=new,
            updated=updated,
            unchanged=unchanged,
            papers=len(forums),
            waiting=sum(1 for forum in forums if not known(forum)),
            changed_forums=frozenset(changed_forums),
            rescored=sum(1 for forum in changed_forums if known(forum)),
            notes=tuple(changes),
            versions=versions,
            skipped=tuple(sorted(skipped.items())),
        )

    def _take_written(self, index: dict[str, Any], docs: dict[str, bytes], made: dict[str, ReviewSummary]) -> None:
        """Hold the index just written as read, its summaries (``docs``: each one's JSON text)
        those made by the import (``made``) or held before, not parsed back from the file; when
        one cannot be made, the index is read again on the next call."""
        held = self._summaries
        try:
            stat = staged_path(self.index_path).stat()
            summaries = {forum: made.get(forum) or held.get(forum) or ReviewSummary.from_dict(orjson.loads(doc))
                         for forum, doc in docs.items()}  # fmt: skip
        except (OSError, KeyError, TypeError, ValueError, AttributeError):
            self._index = None
            return
        self._index, self._index_stamp = index, FileStamp.of(stat)
        self._summaries = summaries
        self._sorted_means = None
        self._words = None
        # Staged in a transaction: its stamp taken again once renamed into place (its ctime).
        stamp_written(self.index_path, partial(self._restamp, index))

    def _restamp(self, index: dict[str, Any], stamp: FileStamp | None) -> None:
        """The index held (``index``, as written) is the file of ``stamp``."""
        if self._index is index and stamp is not None:
            self._index_stamp = stamp

    def put_back(self, kept: Path) -> int:
        """Set the reviews back to those kept in ``kept`` (an undo point's:
        :func:`paperdeck.store.undo.keep_review_files`; no index there: no reviews): the files
        put back, the index written, then the files it does not name removed (in a transaction,
        once it has committed). Under the import lock, as an import. Returns how many notes the
        reviews put back hold (the kept index's count, as :meth:`counts` will say once the
        transaction has committed).

        Raises:
            StoreError: the reviews cannot be written (the index is written last: until then they
                are as they were).
        """
        from paperdeck.store.undo import put_back_review_files

        index_file = kept / INDEX_FILE
        try:
            if index_file.is_file():
                index = orjson.loads(index_file.read_bytes())
                self.directory.mkdir(mode=0o700, exist_ok=True)
                put_back_review_files(kept, self.directory)
                atomic_write_bytes(self.index_path, index_file.read_bytes())
                named, words_name = generation_files_named(index)
                notes = int(index.get("notes", 0))
            else:
                named, words_name, notes = set(), "", 0
        except (OSError, ValueError, TypeError) as exc:
            reason = write_failure(exc) if isinstance(exc, OSError) else f"the reviews kept are not readable ({exc})"
            raise StoreError(self.directory, reason) from None
        self._index = None
        self._summaries = {}
        self._sorted_means = None

        txn = ACTIVE.get()
        if not index_file.is_file():  # there were no reviews before: none after
            if txn is not None:
                txn.stage_removal(self.index_path)
            else:
                with contextlib.suppress(OSError):
                    self.index_path.unlink(missing_ok=True)

        def remove_the_rest() -> None:
            if self.directory.is_dir():
                self._remove_unnamed_shards(named, words_name or "\0")

        if txn is not None:  # files no index names: removed only once the undo stands
            txn.after_commit(remove_the_rest)
        else:
            remove_the_rest()
        return notes

    def _remove_unnamed_shards(self, named: set[str], words_name: str) -> None:
        """Remove shard and word index files of older generations (best effort: a leftover is
        only disk space)."""
        self._words = None  # its memory maps are of files about to go
        for path in [*self.directory.glob("*.g[0-9]*.json"), *self.directory.glob("words.g[0-9]*")]:
            if path.name not in named and not path.name.startswith(f"{words_name}."):
                with contextlib.suppress(OSError):
                    path.unlink()


def generation_files_named(index: dict[str, Any]) -> tuple[set[str], str]:
    """The generation files a reviews index (``index``, as read) names: its shards, its summaries
    and their spans, and the name its word index's files begin with (``""``: none).

    Raises:
        TypeError, AttributeError: the index is not an object of the shape written.
    """
    summaries_name = str(index.get("summaries") or "")
    named = {*map(str, (index.get("shards") or {}).values()), summaries_name, _spans_name(summaries_name)}
    return named, str(index.get("words") or "")


def _encoded_object_pieces(entries: dict[str, bytes], spans: list[tuple[str, tuple[int, int]]]) -> Iterator[bytes]:
    """:func:`~paperdeck.store.paper_index.object_bytes` of the documents whose JSON texts
    (``orjson``'s) ``entries`` holds by key, in pieces of about :data:`_PIECE_BYTES`: joined, they
    are ``orjson.dumps`` of the documents, byte for byte. ``spans`` gets each key's entry span in
    the whole (from its key's opening quote to its value's end) as the pieces are made."""
    piece = bytearray(b"{")
    at = 1
    for n, (key, value) in enumerate(entries.items()):
        if n:
            piece += b","
            at += 1
        key_bytes = orjson.dumps(key)
        size = len(key_bytes) + 1 + len(value)
        spans.append((key, (at, at + size)))
        piece += key_bytes
        piece += b":"
        piece += value
        at += size
        if len(piece) >= _PIECE_BYTES:
            yield bytes(piece)
            piece.clear()
    piece += b"}"
    yield bytes(piece)


#: Bytes of a summaries file made before they are written (:func:`_encoded_object_pieces`).
_PIECE_BYTES = 1 << 20


def _exact(data: bytes) -> bytes:
    """``data`` copied into a ``bytes`` of its own length, for one held long: ``orjson.dumps``
    returns its output in the buffer it wrote it into (at least 4 KiB however short the text),
    so a summary of ~150 bytes kept as it came holds ~4 KiB (~400 MB for 98,000 papers)."""
    return memoryview(data).tobytes()


def _spans_name(summaries_name: str) -> str:
    """The span index of a summaries file (``summaries.gG.json`` → ``summaries.gG.spans.json``:
    :mod:`paperdeck.store.paper_index`'s binary layout; named like a generation file so that an
    undo point keeps it and the next generation's import removes it)."""
    return summaries_name.removesuffix(".json") + ".spans.json"


def _fields_of(review: Review) -> tuple[Any, ...]:
    """``review``'s fields as plain values (``marshal`` writes them exactly: int stays int, a
    lone surrogate passes), its earlier versions as plain pairs; :func:`_review_of` is the inverse."""
    earlier = tuple((version.time, version.scores) for version in review.earlier) if review.earlier else ()
    return (review.id, review.forum, review.replyto, review.kind, review.signature, review.number, review.cdate,
            review.tmdate, review.scores, review.score_labels, review.sections, review.venue_id, earlier)  # fmt: skip


def _review_of(fields: tuple[Any, ...]) -> Review:
    """The :class:`Review` of :func:`_fields_of`'s fields."""
    earlier = tuple(ReviewVersion(time, scores) for time, scores in fields[12]) if fields[12] else ()
    return Review(*fields[:12], earlier=earlier)  # type: ignore[misc]


def _by_shard(
    reviews: Iterable[Review],
) -> Iterator[tuple[str, dict[str, dict[str, Review]], dict[tuple[str, str], list[Review]]]]:
    """``reviews`` grouped for a merge: ``(shard, {forum: {note id: first version read}}, more)``
    for each shard they are on, shards in order, forums in the order first met; ``more``:
    ``{(forum, note id): every version read}`` of the shard's notes read more than once."""
    incoming: dict[str, dict[str, dict[str, Review]]] = defaultdict(lambda: defaultdict(dict))
    by_forum_notes: dict[str, dict[str, Review]] = {}  # the same dicts, by forum id alone
    more: dict[str, dict[tuple[str, str], list[Review]]] = defaultdict(dict)  # by shard
    for review in reviews:
        forum_notes = by_forum_notes.get(review.forum)
        if forum_notes is None:
            forum_notes = by_forum_notes[review.forum] = incoming[shard_of(review.forum)][review.forum]
        held = forum_notes.get(review.id)
        if held is None:
            forum_notes[review.id] = review
        else:
            more[shard_of(review.forum)].setdefault((review.forum, review.id), [held]).append(review)
    del by_forum_notes
    for shard in sorted(incoming):
        yield shard, incoming.pop(shard), more.pop(shard, {})


def _join_snapshots(
    forum: str, notes: dict[str, Review], docs: dict[str, dict[str, Any]], more: dict[tuple[str, str], list[Review]]
) -> int:
    """Join one paper's snapshot reviews to its OpenReview reviews by signature
    (:func:`paperdeck.store.review_history.snapshot_joins`), in place: each snapshot review read
    (``notes``, ``more``) or stored (``docs``, then removed from them) becomes versions of the
    OpenReview review read in ``notes``/``more`` (merged with it there) or stored. Returns how many
    stored notes were removed."""
    pairs = [(str(doc["id"]), str(doc.get("kind", "")), str(doc.get("sig", ""))) for doc in docs.values()]
    pairs += [(note.id, note.kind, note.signature) for note in notes.values()]
    joins = snapshot_joins(pairs)
    removed = 0
    for snapshot_id, review_id in joins.items():
        versions: list[Review] = []
        if snapshot_id in notes:
            held = notes.pop(snapshot_id)
            versions += more.pop((forum, snapshot_id), [held])
        if snapshot_id in docs:
            versions.append(Review.from_dict(docs.pop(snapshot_id)))
            removed += 1
        versions = [renamed(version, review_id) for version in versions]
        if review_id in notes:
            more[(forum, review_id)] = [*(more.get((forum, review_id)) or [notes[review_id]]), *versions]
        elif versions:
            notes[review_id] = versions[0]
            more[(forum, review_id)] = versions
    return removed


def _ms(iso: str) -> int:
    """ISO 8601 text (the store's clock) as milliseconds since the epoch (``0`` when unreadable)."""
    from datetime import datetime

    try:
        return int(datetime.fromisoformat(iso).timestamp() * 1000)
    except ValueError:
        return 0


def _note_change(old: dict[str, Any] | None, review: Review) -> NoteChange | None:
    """What replacing the stored note ``old`` (``None``: none stored) by ``review`` changes, when
    it is an official review: added, or its rating or confidence moved; else ``None``."""
    if review.kind != REVIEW:
        return None
    from paperdeck.model.changes import SCORE_FIELDS, NoteChange, ScoreChange  # deferred: only an import asks

    old_scores: dict[str, Any] = (old.get("scores") or {}) if old is not None else {}
    old_time = int(old.get("tmdate", 0)) if old is not None else 0
    moves = []
    for field in SCORE_FIELDS:
        before, after = old_scores.get(field), review.score(field)
        if before != after:
            before = float(before) if isinstance(before, int | float) and not isinstance(before, bool) else None
            moves.append(ScoreChange(review.id, review.signature, field, before, after, old_time, review.tmdate))
    if old is None:
        return NoteChange(review.forum, review.id, "added", tuple(moves))
    return NoteChange(review.forum, review.id, "updated", tuple(moves)) if moves else None
