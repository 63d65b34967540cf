"""The user's data — stars, notes, timestamps — in small TinyDB shards, written through at once.

Layout, inside the data directory::

    user/00.json … user/3f.json   TinyDB files, table "user": one document per paper
    user/.lock                    the lock taken around every read-modify-write

A paper's record lives in shard ``doc_id % 64``, its document id derived from the paper id
(:func:`doc_id_for`), so two processes never hand out the same id. Sharding keeps each write small:
TinyDB rewrites a whole file per change, and with thousands of starred papers one file would make
every star a large write and fsync, where a shard holds a sixty-fourth of the records. Every write
re-reads its shard under the lock first, and is atomic and durable (:mod:`paperdeck.store.atomic`).

What each field of a record does when the record changes hands is the table of
:mod:`paperdeck.store.user_fields`; its names are also importable from here.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import compress, repeat
from operator import contains, not_, truth
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import StoreError
from paperdeck.model.user import STATUSES, UserData
from paperdeck.runtime import collector_paused
from paperdeck.store.atomic import AtomicJSONStorage, malformed, staged_path, write_failure
from paperdeck.store.file_stamp import FileStamp, file_stamp, stamp_written
from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.transaction import current, transaction
from paperdeck.store.user_fields import MARK_FIELDS as MARK_FIELDS
from paperdeck.store.user_fields import MAX_NOTE_CHARS as MAX_NOTE_CHARS
from paperdeck.store.user_fields import MAX_TAG_CHARS as MAX_TAG_CHARS
from paperdeck.store.user_fields import MAX_TAGS as MAX_TAGS
from paperdeck.store.user_fields import USER_FIELDS as USER_FIELDS
from paperdeck.store.user_fields import apply_change as apply_change
from paperdeck.store.user_fields import apply_change_told as apply_change_told
from paperdeck.store.user_fields import combine_records, is_empty, same_marks, size_problem

if TYPE_CHECKING:  # imported where a shard is written: reading the shards needs no TinyDB
    from tinydb import TinyDB

#: The directory of the shards, inside the data directory.
USER_DIR = "user"
#: How many shards the records are spread over (``user/00.json`` … ``user/3f.json``).
SHARDS = 64
_LOCK_TIMEOUT_S = 10.0

#: Checks a file's "meta" table: raises StoreError for a file that is not ours or too new.
SchemaCheck = Callable[[dict[str, Any], Path], None]


def doc_id_for(paper_id: str) -> int:
    """TinyDB document id of a paper: the first 52 bits (13 hex digits) of the SHA-256 of its id's
    UTF-8 bytes, as an int (stable across runs and Python versions, collision-safe)."""
    return int((_sha256 or _import_sha256())(paper_id.encode("utf-8")).hexdigest()[:13], 16)


#: SHA-256, imported at the first id hashed: CPython's own module (``_sha256``, ``_sha2`` from
#: 3.12) when there is one, the same digest as :func:`hashlib.sha256` without the OpenSSL set-up
#: hashlib does as it is imported (a few milliseconds: a one-paper command hashes one id).
_sha256: Callable[[bytes], Any] | None = None


def _import_sha256() -> Callable[[bytes], Any]:
    global _sha256
    sha256: Callable[[bytes], Any] | None = None
    for name in ("_sha256", "_sha2"):
        try:
            sha256 = getattr(__import__(name), "sha256", None)
        except ImportError:
            continue
        if sha256 is not None:
            break
    if sha256 is None:
        import hashlib

        sha256 = hashlib.sha256
    _sha256 = sha256
    return sha256


#: The statuses a stored record may give as they are (a missing or empty one is ``unseen``).
_STORED_STATUSES = frozenset((*STATUSES, None, ""))
#: The types a stored record's tags may have as they are.
_STORED_TAG_TYPES = frozenset((list, type(None)))


#: A stored status as the record made of it has it (a missing or empty one is ``unseen``).
_STATUS_OF: dict[str | None, str] = {None: "unseen", "": "unseen", **{status: status for status in STATUSES}}
_dict_get = dict.get


def _values(docs: list[dict[str, Any]], key: str) -> Iterator[Any]:
    """Each document's ``key`` (``None`` where it has none): ``dict.get`` called through ``map``,
    several times quicker than a ``methodcaller``."""
    return map(_dict_get, docs, repeat(key))


def _documents_counts(docs: list[Any]) -> tuple[int, Counter[str]]:
    """Papers starred and records by reading status among the records :meth:`UserData.from_dict`
    makes of ``docs`` (documents :func:`_surely_records` vouched for, each of another paper),
    without making them: only the records starred or not empty count, as only those are kept
    (:meth:`UserStore._replace_shard`). Counted in C-level passes; only the documents not
    starred (few: most records are stars) are looked at one by one."""
    stars = list(_values(docs, "starred"))
    by_stored = Counter(_values(docs, "status"))
    statuses: Counter[str] = Counter()
    for stored, count in by_stored.items():
        statuses[_STATUS_OF[stored]] += count
    for doc in compress(docs, map(not_, stars)):
        if not (doc.get("note") or doc.get("tags") or doc.get("looked") or _STATUS_OF[doc.get("status")] != "unseen"):
            statuses["unseen"] -= 1  # an empty record: not kept
    return sum(map(truth, stars)), +statuses


def _surely_records(docs: list[Any]) -> bool:
    """True when :meth:`UserData.from_dict` makes a record of every one of ``docs`` without an
    error (each a dict with a paper id, a known status or none, a list of tags or none); False
    when it may not — then only making them says (checked in C-level passes: far quicker than
    making them)."""
    try:
        return (
            set(map(type, docs)) <= {dict}
            and all(map(contains, docs, repeat("paper_id")))
            and set(_values(docs, "status")) <= _STORED_STATUSES
            and set(map(type, _values(docs, "tags"))) <= _STORED_TAG_TYPES
        )
    except TypeError:  # an unhashable status
        return False


def later_look(backup: UserData, current: UserData) -> str:
    """The later of two records' ``looked`` times (ISO 8601 UTC; ``""`` when neither was opened):
    a restore never makes a paper look unopened since a time it was opened."""
    return max(backup.looked, current.looked)


class UserStore:
    """Stars and notes by paper id, kept in memory and written through to the shards.

    Args:
        directory: the ``user/`` directory (created 0700 on the first write).
        now: clock for timestamps.
        meta: the document written into each shard's "meta" table (app, schema).
        check_schema: refuses a shard written by a newer paperdeck.
        lazy: every shard is still read and checked at once (a broken one refuses the store),
            but its records are made at first need: by :meth:`get`, the paper's alone the first
            time its shard is asked, then those of the shard; by anything else, every shard's
            (a command that reads a few papers makes a few).

    Raises:
        StoreError: a shard is not valid JSON, malformed, or from a newer paperdeck.
    """

    def __init__(
        self,
        directory: Path,
        now: Callable[[], str],
        meta: dict[str, Any],
        check_schema: SchemaCheck,
        *,
        lazy: bool = False,
    ) -> None:
        self.directory = directory
        self._now = now
        self._meta = meta
        self._check_schema = check_schema
        self._lock = FileLock(directory / ".lock", timeout=_LOCK_TIMEOUT_S)
        self._dbs: dict[int, TinyDB] = {}
        self._with_meta: set[int] = set()
        self._records: dict[str, UserData] = {}
        self._version = 0  # see version
        #: ((version, shards not made), starred, by status): the last counts and what they were for.
        self._counts: tuple[tuple[int, int], int, Counter[str]] | None = None
        #: Each shard's ``(mtime_ns, size, inode)`` as last read or written (:func:`_stamp`).
        self._stamps: dict[Path, FileStamp] = {}
        #: Lazy: the shards read and checked whose records are not made yet (shard → its file and
        #: its documents); their records are in no other field.
        self._unmade: dict[int, tuple[Path, list[Any]]] = {}
        self._making = threading.Lock()
        #: Lazy: records made alone (:meth:`get`) from shards not made yet: shard → its documents
        #: by paper id, and the records made of them (``None``: the shard keeps none of that paper).
        self._alone: dict[int, tuple[dict[str, Any], dict[str, UserData | None]]] = {}
        self._reload(keep_documents=lazy)

    # -- reading -----------------------------------------------------------------------------

    def get(self, paper_id: str) -> UserData:
        """The record of a paper (an empty one when there is none). Lazy, while the paper's shard
        is not made, the record is made alone from its document: the one making the shard gives."""
        if self._unmade:
            shard = doc_id_for(paper_id) % SHARDS
            if shard in self._unmade:
                record = self._made_alone(shard, paper_id)
                if record is not None:
                    return record
        return self._records.get(paper_id) or UserData(paper_id)

    def paper_ids(self) -> list[str]:
        """The paper id of every record, made or not (the documents of the shards not made yet
        are read without making them; a few may keep no record: :meth:`get` says)."""
        with self._making:
            ids = list(self._records)
            for _, docs in self._unmade.values():  # checked: each doc is a dict with a paper id
                ids.extend(map(str, _values(docs, "paper_id")))
        return ids

    def _made_alone(self, shard: int, paper_id: str) -> UserData | None:
        """The record of ``paper_id`` that making the shard ``shard`` (not made yet) would keep,
        made alone and held with the others made alone from that shard until it is made; ``None``
        when it keeps none (then the records held say), or when two of its documents are of one
        paper or an id is not given as text (then the shard is made: only making them says which
        is kept, and under which id)."""
        with self._making:
            unmade = self._unmade.get(shard)
            if unmade is None:  # made meanwhile
                return None
            alone = self._alone.get(shard)
            if alone is None:
                path, docs = unmade
                by_paper = dict(zip(_values(docs, "paper_id"), docs, strict=True))
                if len(by_paper) != len(docs) or not set(map(type, by_paper)) <= {str}:
                    del self._unmade[shard]
                    with collector_paused():
                        self._add_made(self._records_of(path, docs))
                    return None
                alone = self._alone[shard] = (by_paper, {})
            by_paper, made = alone
            if paper_id not in made:
                doc = by_paper.get(paper_id)
                record = None if doc is None else self._records_of(unmade[0], [doc])[0]
                made[paper_id] = None if record is None or (not record.starred and is_empty(record)) else record
            return made[paper_id]

    @property
    def records(self) -> dict[str, UserData]:
        """Every non-empty record by paper id (a copy)."""
        self._make_all()
        return dict(self._records)

    @property
    def notes(self) -> dict[str, str]:
        """The note of every record that has one, by paper id, as :attr:`records` gives them,
        without making the records of the shards not made yet (lazy)."""
        with self._making:
            notes = {paper_id: record.note for paper_id, record in self._records.items() if record.note}
            for _, docs in self._unmade.values():  # checked: each doc is a dict with a paper id
                for doc in docs:
                    if doc.get("note"):  # only these made into records, as the others would be
                        record = UserData.from_dict(doc)
                        notes[record.paper_id] = record.note
        return notes

    @property
    def version(self) -> int:
        """A number that goes up whenever a record changes (readers cache what they derive from
        all records). Making the records not made yet (lazy) changes none: it stays as it is."""
        return self._version

    def _make(self, shard: int) -> None:
        """Make the records of ``shard`` if it was read but they are not made yet (lazy)."""
        with self._making, collector_paused():  # records live on and hold no cycle
            unmade = self._unmade.pop(shard, None)
            if unmade is not None:
                self._alone.pop(shard, None)
                self._add_made(self._records_of(*unmade))

    def _make_all(self) -> None:
        """Make every record not made yet (lazy), shard by shard in the order they were read; the
        shards are taken under the making lock (another thread may be making one)."""
        if self._unmade:
            with self._making, collector_paused():
                while self._unmade:
                    shard = next(iter(self._unmade))
                    unmade = self._unmade.pop(shard)
                    self._alone.pop(shard, None)
                    self._add_made(self._records_of(*unmade))

    def _add_made(self, records: list[UserData]) -> None:
        """Hold the ``records`` just made of a shard's documents (those starred or not empty, as
        :meth:`_replace_shard` keeps them); the :attr:`version` stays: they were there already."""
        self._records.update({r.paper_id: r for r in records if r.starred or not is_empty(r)})

    def counts(self) -> tuple[int, Counter[str]]:
        """Papers starred, and records by reading status; counted again only after a change. The
        records not made yet (lazy) are counted from their documents, without making them, unless
        two of those documents and made records are of one paper (then they are made first: only
        making them says which is kept)."""
        counted = self._counted()
        if counted is None:
            self._make_all()
            counted = self._counted()
        assert counted is not None  # nothing is left to make
        return counted[1], counted[2]

    def _counted(self) -> tuple[tuple[int, int], int, Counter[str]] | None:
        """:meth:`counts` of the records made and the documents not made yet, with what they were
        counted for (the version, the shards not made); ``None`` when some paper has two of them."""
        with self._making:
            key = (self._version, len(self._unmade))
            counted = self._counts
            if counted is not None and counted[0] == key:
                return counted
            records = list(self._records.values())
            docs = [doc for _, shard_docs in self._unmade.values() for doc in shard_docs]
        starred = sum(1 for record in records if record.starred)
        statuses = Counter(record.status for record in records)
        if docs:
            ids = set(_values(docs, "paper_id"))
            if len(ids) != len(docs) or set(map(type, ids)) - {str} or not self._records.keys().isdisjoint(ids):
                return None
            more, by_status = _documents_counts(docs)
            starred += more
            statuses.update(by_status)
        counted = self._counts = (key, starred, statuses)
        return counted

    def shard_path(self, shard: int) -> Path:
        """The file of shard ``shard`` (0–63)."""
        return self.directory / f"{shard:02x}.json"

    def reload(self) -> bool:
        """Re-read the shards changed on disk since the last read (another process may have
        written them); True when anything changed.

        Raises:
            StoreError: ``user`` is a file, or a shard cannot be read, is not valid JSON, holds a
                malformed record or was written by a newer paperdeck.
        """
        self._make_all()
        return self._reload()

    def changed_on_disk(self) -> bool:
        """Whether :meth:`reload` could find anything changed: a shard whose stamp
        (:class:`~paperdeck.store.file_stamp.FileStamp`) is not the one last read or written, one
        appeared or gone, or the directory not a directory. Only stats the shards: reads no file
        and copies no record, so it costs the same however many records there are.

        Raises:
            StoreError: a shard cannot be stat'ed (its permissions).
        """
        directory = self.directory
        if not directory.is_dir():
            return directory.exists() or bool(self._records or self._stamps)
        stamps = self._stamps
        for shard in range(SHARDS):
            path = self.shard_path(shard)
            try:
                stat = path.stat()
            except FileNotFoundError:
                if path in stamps:
                    return True
                continue
            except OSError as exc:
                reason = f"cannot read: {exc.strerror or exc}; check its permissions"
                raise StoreError(path, reason) from None
            if stamps.get(path) != FileStamp.of(stat):
                return True
        return False

    def _reload(self, *, keep_documents: bool = False) -> bool:
        """:meth:`reload`; with ``keep_documents`` (a lazy store's opening, nothing held yet) each
        shard's documents are checked and kept unmade (:meth:`_make`) when they surely make records."""
        if self.directory.exists() and not self.directory.is_dir():
            raise StoreError(
                self.directory,
                "is a file where the directory of your stars and notes should be; move it aside",
            )
        if not self.directory.is_dir():
            changed = bool(self._records)
            if changed or self._stamps:  # no directory, as before: nothing changed (readers keep caches)
                self._version += 1
            self._records, self._stamps = {}, {}
            return changed
        changed = False
        held: dict[int, dict[str, UserData]] | None = None  # our records by shard, once needed
        for shard in range(SHARDS):
            path = self.shard_path(shard)
            try:
                stat = path.stat()
            except FileNotFoundError:
                if path in self._stamps:
                    del self._stamps[path]
                    held = self._by_shard() if held is None else held
                    changed |= self._replace_shard(held.get(shard, {}), [])
                continue
            except OSError as exc:
                reason = f"cannot read: {exc.strerror or exc}; check its permissions"
                raise StoreError(path, reason) from None
            stamp = FileStamp.of(stat)
            if self._stamps.get(path) == stamp:
                continue
            docs = self._shard_documents(path)  # a broken shard raises, and again on the next reload
            if keep_documents and _surely_records(docs):
                self._stamps[path] = stamp
                self._unmade[shard] = (path, docs)
                continue
            records = self._records_of(path, docs)
            self._stamps[path] = stamp
            held = self._by_shard() if held is None else held
            changed |= self._replace_shard(held.get(shard, {}), records)
        return changed

    def _shard_documents(self, path: Path) -> list[Any]:
        """The documents of a shard's "user" table, its "meta" table checked."""
        data = AtomicJSONStorage(path).read()
        if data is None:
            return []
        self._check_schema(data, path)
        try:
            return list((data.get("user") or {}).values())
        except (TypeError, AttributeError) as exc:
            raise _malformed_record(path, exc) from None

    def _records_of(self, path: Path, docs: list[Any]) -> list[UserData]:
        """The records of a shard's documents."""
        try:
            return [UserData.from_dict(doc) for doc in docs]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise _malformed_record(path, exc) from None

    def _by_shard(self) -> dict[int, dict[str, UserData]]:
        """Our records grouped by shard, each paper id hashed once (hashing every record again for
        each of the shards would slow the start with many records)."""
        self._make_all()
        snapshot = list(self._records.items())  # load() may move records from another thread
        held: dict[int, dict[str, UserData]] = {}
        for paper_id, record in snapshot:
            held.setdefault(doc_id_for(paper_id) % SHARDS, {})[paper_id] = record
        return held

    def _replace_shard(self, old: dict[str, UserData], records: list[UserData]) -> bool:
        """Replace the records ``old`` (those of one shard) by the ``records`` read from it."""
        new = {r.paper_id: r for r in records if r.starred or not is_empty(r)}  # most are starred
        if old == new:
            return False
        for paper_id in old:
            self._records.pop(paper_id, None)
        self._records.update(new)
        self._version += 1
        return True

    # -- writing -----------------------------------------------------------------------------

    def modify(self, paper_id: str, change: Callable[[UserData], UserData]) -> UserData:
        """Read-modify-write one record under the lock, re-reading it from disk first.

        Raises:
            StoreError: the shard cannot be locked, read or written (nothing changed then).
        """
        doc_id = doc_id_for(paper_id)
        with self._locked():
            table = self._db(doc_id % SHARDS).table("user")
            stored = table.get(doc_id=doc_id)
            current = UserData.from_dict(dict(stored)) if stored else UserData(paper_id)
            changed = change(current)
            if changed == current:
                self._remember(current)
                return current
            if problem := size_problem(changed):
                raise StoreError(self.directory, f"{problem}; nothing was saved")
            now = self._now()
            changed = changed.replaced(created=current.created or now, updated=now)
            self._write(doc_id, stored is not None, changed)
        self._remember(changed)
        return changed

    def set_looked(self, paper_id: str, at: str) -> UserData:
        """Record that the user opened the paper at ``at`` (ISO 8601 UTC): its ``looked``, the
        rest of the record (marks, ``created``, ``updated``) as it is on disk. Not an undoable
        change. Re-reads the record under the lock first.

        Raises:
            StoreError: the shard cannot be locked, read or written (nothing changed then).
        """
        doc_id = doc_id_for(paper_id)
        with self._locked():
            stored = self._db(doc_id % SHARDS).table("user").get(doc_id=doc_id)
            current = UserData.from_dict(dict(stored)) if stored else UserData(paper_id)
            if current.looked >= at:
                self._remember(current)
                return current
            changed = current.replaced(looked=at)
            self._write(doc_id, stored is not None, changed)
        self._remember(changed)
        return changed

    def move(self, renamed: dict[str, str]) -> None:
        """Re-key the records of renamed papers (old id → new id), each field combined with a
        record already under the new id by its rule (:func:`combine_records`): nothing the user
        set is dropped.

        Raises:
            StoreError: a shard cannot be written.
        """
        self._make_all()
        with self._locked():
            for old_id, new_id in renamed.items():
                if old_id == new_id:
                    continue
                old_doc, new_doc = doc_id_for(old_id), doc_id_for(new_id)
                stored = self._db(old_doc % SHARDS).table("user").get(doc_id=old_doc)
                if stored is None:
                    continue
                moving = UserData.from_dict(dict(stored))
                existing = self._db(new_doc % SHARDS).table("user").get(doc_id=new_doc)
                target = UserData.from_dict(dict(existing)) if existing else UserData(new_id)
                combined = combine_records(target, moving)
                self._write(new_doc, existing is not None, combined)
                self._db(old_doc % SHARDS).table("user").remove(doc_ids=[old_doc])
                self._records.pop(old_id, None)
                self._version += 1
                self._remember(combined)

    def _write(self, doc_id: int, exists: bool, record: UserData) -> None:
        self._write_shard(doc_id % SHARDS, {record.paper_id: record}, {record.paper_id} if exists else set())

    def _remember(self, record: UserData) -> None:
        if self._unmade:  # its shard's records made first: they would replace it when made
            self._make(doc_id_for(record.paper_id) % SHARDS)
        self._version += 1
        if is_empty(record):
            self._records.pop(record.paper_id, None)
        else:
            self._records[record.paper_id] = record

    def _db(self, shard: int) -> TinyDB:
        db = self._dbs.get(shard)
        if db is None:
            from tinydb import TinyDB

            db = self._dbs[shard] = TinyDB(self.shard_path(shard), storage=AtomicJSONStorage)
        return db

    def _locked(self) -> LockGuard:
        return LockGuard(self._lock, self.directory)

    def modify_many(
        self,
        paper_ids: Iterable[str],
        change: Callable[[UserData], UserData],
        progress: Callable[[int], None] | None = None,
    ) -> list[tuple[UserData, UserData]]:
        """Apply ``change`` to many records at once: one read and at most three writes per shard
        touched, however many papers it holds (not one write per paper). ``progress`` is told the
        number of papers of each shard once that shard is staged (the commit, which makes them
        all, comes after the last).

        Returns:
            ``(before, after)`` for each record that changed, in the order given.

        Raises:
            StoreError: a shard cannot be locked, read or written; then no shard changed (all
                are written in one transaction: :mod:`paperdeck.store.transaction`).
        """
        wanted = list(dict.fromkeys(paper_ids))
        return self._batch({pid: None for pid in wanted}, change, progress=progress)

    def restore(self, records: Iterable[UserData], *, keep_times: bool = False) -> list[tuple[UserData, UserData]]:
        """Write these exact records (star, note, status, tags) whole, as a backup's restore does.

        Args:
            records: the records to write; one whose marks equal the stored ones is left as it is.
            keep_times: keep the records' own ``created`` / ``updated`` (a backup's restore),
                and the later of the two ``looked`` times (a record that differs in that alone,
                a paper only opened, is written too); by default a change is stamped now.

        Returns:
            ``(before, after)`` for each record that changed.

        Raises:
            StoreError: as for :meth:`modify_many`.
        """
        exact = {record.paper_id: record for record in records}
        if keep_times:
            return self._batch(
                dict.fromkeys(exact),
                lambda current: exact[current.paper_id].replaced(looked=later_look(exact[current.paper_id], current)),
                keep_times=True,
            )
        return self._batch(
            dict.fromkeys(exact), lambda current: exact[current.paper_id].replaced(created=current.created)
        )

    def _batch(
        self,
        paper_ids: dict[str, None],
        change: Callable[[UserData], UserData],
        keep_times: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> list[tuple[UserData, UserData]]:
        by_shard: dict[int, list[str]] = {}
        for paper_id in paper_ids:
            by_shard.setdefault(doc_id_for(paper_id) % SHARDS, []).append(paper_id)
        changes: dict[str, tuple[UserData, UserData]] = {}
        with transaction(self.directory.parent), self._locked():
            for shard, ids in by_shard.items():
                table = self._db(shard).table("user")
                stored = {
                    str(doc["paper_id"]): doc for doc in table.get(doc_ids=[doc_id_for(p) for p in ids]) or [] if doc
                }
                now = self._now()
                updates: dict[str, UserData] = {}
                for paper_id in ids:
                    doc = stored.get(paper_id)
                    current = UserData.from_dict(dict(doc)) if doc else UserData(paper_id)
                    changed = change(current)
                    if same_marks(changed, current) and not (keep_times and changed.looked != current.looked):
                        continue
                    if problem := size_problem(changed):
                        raise StoreError(self.directory, f"{problem}; nothing was saved")
                    if keep_times:
                        updates[paper_id] = changed.replaced(
                            created=changed.created or current.created or now, updated=changed.updated or now
                        )
                    else:
                        updates[paper_id] = changed.replaced(created=current.created or now, updated=now)
                    changes[paper_id] = (current, updates[paper_id])
                if updates:
                    self._write_shard(shard, updates, set(stored))
                if progress is not None:
                    progress(len(ids))
        for _, after in changes.values():
            self._remember(after)
        return [changes[pid] for pid in paper_ids if pid in changes]

    def _write_shard(self, shard: int, updates: dict[str, UserData], stored: set[str]) -> None:
        """Write records of one shard (``stored``: the paper ids it already holds): one update,
        one insert and one removal at most."""
        from tinydb.table import Document

        path = self.shard_path(shard)
        # Whether our copy of this shard is what is on disk: if another process wrote it since we
        # last read it, its records must still be read by the next reload(), so the stamp of our
        # write must not be taken as "read" (it would hide that process's stars and notes).
        in_sync = self._stamps.get(path) == _stamp(path)
        db = self._db(shard)
        if shard not in self._with_meta:
            if not db.table("meta").contains(doc_id=1):
                db.table("meta").insert(Document(self._meta, doc_id=1))
            self._with_meta.add(shard)
        table = db.table("user")
        keep = {pid: r for pid, r in updates.items() if not is_empty(r) and pid in stored}
        if keep:
            table.update(
                lambda doc: doc.update(keep[str(doc["paper_id"])].to_dict()),
                doc_ids=[doc_id_for(pid) for pid in keep],
            )
        new = [
            Document(r.to_dict(), doc_id=doc_id_for(pid))
            for pid, r in updates.items()
            if not is_empty(r) and pid not in stored
        ]
        if new:
            table.insert_multiple(new)
        gone = [doc_id_for(pid) for pid, r in updates.items() if is_empty(r) and pid in stored]
        if gone:
            table.remove(doc_ids=gone)
        if in_sync:  # staged in a transaction: taken again once renamed into place (its ctime)
            stamp_written(path, partial(self._keep_stamp, path))
        else:
            self._stamps.pop(path, None)

    def _keep_stamp(self, path: Path, stamp: FileStamp | None) -> None:
        """Hold ``stamp`` as the one of the shard at ``path`` last read or written (``None``: none)."""
        if stamp is None:
            self._stamps.pop(path, None)
        else:
            self._stamps[path] = stamp

    def write_all(self, records: Iterable[UserData]) -> None:
        """Write ``records`` (as a migration does), each into its shard, under the lock.

        Raises:
            StoreError: a shard cannot be locked, read or written.
        """
        with self._locked():
            for record in records:
                doc_id = doc_id_for(record.paper_id)
                exists = self._db(doc_id % SHARDS).table("user").contains(doc_id=doc_id)
                self._write(doc_id, exists, record)
                self._remember(record)


def _malformed_record(path: Path, exc: Exception) -> StoreError:
    reason = (
        f"a user record is malformed ({malformed(exc)}); restore the file from a backup "
        "or move it aside — paperdeck will not overwrite it"
    )
    return StoreError(path, reason)


def _stamp(path: Path) -> FileStamp | None:
    """The :class:`~paperdeck.store.file_stamp.FileStamp` of a shard (as staged, in a transaction),
    or ``None`` when it does not exist."""
    return file_stamp(staged_path(path))


class LockGuard:
    """Context manager around a FileLock: creates the directory, turns failures into StoreError.
    Inside a transaction the lock is held until the transaction ends."""

    def __init__(self, lock: FileLock, directory: Path) -> None:
        self._lock = lock
        self._directory = directory
        self._kept = False

    def __enter__(self) -> None:
        txn = current()
        self._kept = txn is not None and txn.covers(Path(os.path.realpath(self._lock.path)))
        if txn is not None and txn.holds(self._lock.path):
            return
        try:
            self._directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._lock.acquire()
        except LockTimeout:
            raise StoreError(self._directory, "locked by another paperdeck for over 10 s; try again") from None
        except OSError as exc:
            raise StoreError(self._directory, write_failure(exc)) from None
        if txn is not None and self._kept:
            txn.keep(self._lock)  # held until the transaction's commit: no one writes between

    def __exit__(self, *exc: object) -> None:
        if not self._kept:
            self._lock.release()
