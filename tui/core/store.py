"""The paperdeck store: the catalogue of papers and the user's data, in two TinyDB files.

Layout of the data directory (created 0700)::

    catalogue.json   TinyDB: table "papers" (one document per paper) and table "meta" (schema)
    user.json        TinyDB: table "user" (star, note, timestamps per paper id) and table "meta"
    user.json.lock   the lock taken around every read-modify-write of user.json

The two are apart because TinyDB rewrites its whole file on every write: starring a paper rewrites
the small ``user.json`` (a few ms), never the catalogue (31 MB at ICLR 2026 scale, ~500 ms). Both
files are written atomically and durably (:mod:`tui.core.storage`). Document ids are derived from
paper ids, so two processes never hand out the same id, and user data survives any re-import.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from tinydb import TinyDB
from tinydb.table import Document

from tui.core.errors import StoreError
from tui.core.file_lock import FileLock, LockTimeout
from tui.core.paper import Paper, PaperRow, UserData
from tui.core.storage import AtomicJSONStorage, atomic_write_bytes, clean_stray_temp_files

#: Version of the store layout, recorded in each file's "meta" table.
SCHEMA_VERSION = 1
CATALOGUE_FILE = "catalogue.json"
#: A cache of what the list shows, so the app paints before the catalogue is parsed.
ROWS_FILE = "rows-cache.json"
USER_FILE = "user.json"
_LOCK_TIMEOUT_S = 10.0


def doc_id_for(paper_id: str) -> int:
    """TinyDB document id of a paper: the first 52 bits of SHA-256 of its id (stable, collision-safe)."""
    return int(hashlib.sha256(paper_id.encode("utf-8")).hexdigest()[:13], 16)


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds."""
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: counts of papers, and the notices to show (one line each)."""

    new: int = 0
    updated: int = 0
    unchanged: int = 0
    notices: tuple[str, ...] = ()

    def summary(self) -> str:
        """``"37 new, 0 updated, 1 unchanged"``."""
        return f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged"


class Store:
    """The catalogue (read once, kept in memory) and the user's data (written through at once).

    Args:
        data_dir: the data directory; created with mode 0700 when missing.
        now: clock for timestamps (tests pass a fixed one).

    Raises:
        StoreError: the directory cannot be created or is not a directory, a file is not valid
            JSON, or it was written by a newer paperdeck. Nothing on disk is changed then.
    """

    def __init__(
        self, data_dir: Path | str, now: Callable[[], str] = utc_now, *, lazy: bool = False
    ) -> None:
        self.data_dir = Path(data_dir)
        self._now = now
        _ensure_directory(self.data_dir)
        self.catalogue_path = self.data_dir / CATALOGUE_FILE
        self.user_path = self.data_dir / USER_FILE
        self._lock = FileLock(self.data_dir / (USER_FILE + ".lock"), timeout=_LOCK_TIMEOUT_S)
        with self._locked():
            clean_stray_temp_files(self.data_dir)
        self._catalogue_storage = AtomicJSONStorage(self.catalogue_path)
        self._user_db = TinyDB(storage=AtomicJSONStorage, path=self.user_path)
        self.rows_path = self.data_dir / ROWS_FILE
        self._papers: dict[str, Paper] = {}
        self._aliases: dict[str, str] = {}
        self._rows: dict[str, PaperRow] | None = None
        self._user: dict[str, UserData] = {}
        self._user_meta_written = False
        self._load_lock = threading.Lock()
        self._loaded = False
        if not (lazy and self._load_rows_cache()):
            self.load()
        self.reload_user_data()

    # -- catalogue ---------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        """Whether the catalogue is parsed (a lazy store has only its rows until :meth:`load`)."""
        return self._loaded

    def load(self) -> None:
        """Parse the catalogue if it is not yet (about 0.5 s at 19,630 papers: call it in a worker).

        Raises:
            StoreError: the catalogue is not valid or was written by a newer paperdeck.
        """
        with self._load_lock:
            if not self._loaded:
                self._load_catalogue()
                self._rows = None
                self._loaded = True

    @property
    def papers(self) -> list[Paper]:
        """Every paper in catalogue order (the order they were first imported); loads if needed."""
        self.load()
        return list(self._papers.values())

    @property
    def paper_ids(self) -> list[str]:
        """Every paper id in catalogue order (from the rows cache while not loaded)."""
        if not self._loaded and self._rows is not None:
            return list(self._rows)
        return list(self._papers)

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with this id (or an alias of it), or ``None``; loads if needed."""
        self.load()
        return self._papers.get(paper_id) or self._papers.get(self.resolve(paper_id))

    def row(self, paper_id: str) -> PaperRow | None:
        """What the list shows of a paper; available before the catalogue is loaded."""
        if not self._loaded and self._rows is not None:
            return self._rows.get(paper_id)
        paper = self._papers.get(paper_id)
        return PaperRow.of(paper) if paper is not None else None

    @property
    def is_empty(self) -> bool:
        """True when the catalogue holds no paper (a first run)."""
        return not self.paper_ids

    def _load_rows_cache(self) -> bool:
        """Read the rows cache if it matches the catalogue on disk; True when it did."""
        try:
            stat = self.catalogue_path.stat()
            data = orjson.loads(self.rows_path.read_bytes())
            if data.get("catalogue") != [stat.st_size, stat.st_mtime_ns]:
                return False
            rows = [PaperRow.from_list(item) for item in data["rows"]]
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return False  # no cache, or a stale or broken one: load the catalogue instead
        self._rows = {row.id: row for row in rows}
        return True

    def _write_rows_cache(self) -> None:
        """Write the rows cache for the catalogue just written (a failure only costs speed)."""
        try:
            stat = self.catalogue_path.stat()
            payload = {
                "catalogue": [stat.st_size, stat.st_mtime_ns],
                "rows": [PaperRow.of(paper).to_list() for paper in self._papers.values()],
            }
            atomic_write_bytes(self.rows_path, orjson.dumps(payload))
        except (OSError, StoreError):
            with contextlib.suppress(OSError):
                self.rows_path.unlink()

    def import_papers(self, papers: Iterable[Paper]) -> ImportReport:
        """Merge ``papers`` into the catalogue (:mod:`tui.core.merge`) and write it once.

        A paper that matches one already present (same id, forum id, arXiv id, DOI, title or
        abstract) is combined with it; when the combined paper gets a better id (a seed abstract
        matched to its OpenReview record), the old id becomes an alias and the user's star and note
        move with it. Derived titles are re-derived so all stay distinct.

        Raises:
            StoreError: the catalogue or the user data cannot be written (then nothing changed).
        """
        from tui.core.merge import Merger  # deferred: rapidfuzz is not needed to open the store

        self.load()
        result = Merger(self._papers, self._aliases).merge(list(papers))
        merged = _with_derived_titles(result.papers)
        if merged != self._papers or result.aliases != self._aliases:
            self._write_catalogue(merged, result.aliases)
            self._papers = merged
            self._aliases = result.aliases
            self._write_rows_cache()
        if result.renamed:
            self._move_user_data(result.renamed)
        return ImportReport(result.new, result.updated, result.unchanged)

    def _load_catalogue(self) -> None:
        data = self._catalogue_storage.read()
        if data is None:
            return
        _check_schema(data, self.catalogue_path)
        try:
            papers = [Paper.from_dict(doc) for doc in data.get("papers", {}).values()]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(self.catalogue_path, f"a paper record is malformed ({exc})") from None
        self._papers = {paper.id: paper for paper in papers}
        alias_docs = data.get("aliases") or {}
        self._aliases = {str(k): str(v) for doc in alias_docs.values() for k, v in doc.items()}

    def _write_catalogue(self, papers: dict[str, Paper], aliases: dict[str, str]) -> None:
        documents = {str(doc_id_for(pid)): paper.to_dict() for pid, paper in papers.items()}
        self._catalogue_storage.write(
            {"meta": {"1": _meta()}, "papers": documents, "aliases": {"1": aliases}}
        )

    def resolve(self, paper_id: str) -> str:
        """The current id of a paper known by ``paper_id`` (which may be an older alias)."""
        for _ in range(8):
            if paper_id not in self._aliases:
                break
            paper_id = self._aliases[paper_id]
        return paper_id

    # -- the user's data ---------------------------------------------------------------------

    def user_data(self, paper_id: str) -> UserData:
        """The user's data for a paper (an empty record when there is none)."""
        return self._user.get(paper_id) or UserData(paper_id)

    @property
    def all_user_data(self) -> dict[str, UserData]:
        """Every non-empty user record, by paper id (a copy)."""
        return dict(self._user)

    def reload_user_data(self) -> None:
        """Re-read ``user.json`` (another process may have written it).

        Raises:
            StoreError: the file is not valid JSON or was written by a newer paperdeck.
        """
        data = self._user_db.storage.read()
        if data is None:
            self._user = {}
            return
        _check_schema(data, self.user_path)
        try:
            records = [UserData.from_dict(doc) for doc in data.get("user", {}).values()]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StoreError(self.user_path, f"a user record is malformed ({exc})") from None
        self._user = {record.paper_id: record for record in records if not record.is_empty}

    def set_star(self, paper_id: str, starred: bool) -> UserData:
        """Star or unstar a paper; on disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._modify(paper_id, lambda record: replace(record, starred=starred))

    def toggle_star(self, paper_id: str) -> UserData:
        """Flip a paper's star (as it is on disk now); on disk before this returns."""
        return self._modify(paper_id, lambda record: replace(record, starred=not record.starred))

    def set_note(self, paper_id: str, note: str) -> UserData:
        """Save a paper's note; an empty or blank note deletes it. On disk before this returns."""
        text = note if note.strip() else ""
        return self._modify(paper_id, lambda record: replace(record, note=text))

    def _modify(self, paper_id: str, change: Callable[[UserData], UserData]) -> UserData:
        """Read-modify-write one user record under the file lock, re-reading it from disk first."""
        doc_id = doc_id_for(paper_id)
        with self._locked():
            table = self._user_db.table("user")
            stored = table.get(doc_id=doc_id)
            current = UserData.from_dict(dict(stored)) if stored else UserData(paper_id)
            changed = change(current)
            if changed == current:
                return current
            now = self._now()
            changed = replace(changed, created=current.created or now, updated=now)
            if not self._user_meta_written:
                if not self._user_db.table("meta").contains(doc_id=1):
                    self._user_db.table("meta").insert(Document(_meta(), doc_id=1))
                self._user_meta_written = True
            if changed.is_empty:
                if stored is not None:
                    table.remove(doc_ids=[doc_id])
            elif stored is not None:
                table.update(changed.to_dict(), doc_ids=[doc_id])
            else:
                table.insert(Document(changed.to_dict(), doc_id=doc_id))
        if changed.is_empty:
            self._user.pop(paper_id, None)
        else:
            self._user[paper_id] = changed
        return changed

    def _move_user_data(self, renamed: dict[str, str]) -> None:
        """Re-key the user's records of renamed papers (star kept if either had it, notes joined)."""
        with self._locked():
            table = self._user_db.table("user")
            for old_id, new_id in renamed.items():
                stored = table.get(doc_id=doc_id_for(old_id))
                if stored is None:
                    continue
                moving = UserData.from_dict(dict(stored))
                existing = table.get(doc_id=doc_id_for(new_id))
                target = UserData.from_dict(dict(existing)) if existing else UserData(new_id)
                notes = [n for n in (target.note, moving.note) if n]
                combined = replace(
                    target,
                    paper_id=new_id,
                    starred=target.starred or moving.starred,
                    note="\n\n".join(dict.fromkeys(notes)),
                    created=min(filter(None, (target.created, moving.created)), default=""),
                    updated=max(target.updated, moving.updated),
                )
                if existing is None:
                    table.insert(Document(combined.to_dict(), doc_id=doc_id_for(new_id)))
                else:
                    table.update(combined.to_dict(), doc_ids=[doc_id_for(new_id)])
                table.remove(doc_ids=[doc_id_for(old_id)])
        self.reload_user_data()

    def _locked(self) -> _LockGuard:
        """The user-data lock, raising StoreError on timeout when entered."""
        return _LockGuard(self._lock, self.user_path)

    def close(self) -> None:
        """Release file handles (the storages hold none between operations)."""
        self._user_db.close()


class _LockGuard:
    """Context manager around a FileLock that turns a timeout into a StoreError."""

    def __init__(self, lock: FileLock, path: Path) -> None:
        self._lock = lock
        self._path = path

    def __enter__(self) -> None:
        try:
            self._lock.acquire()
        except LockTimeout:
            raise StoreError(self._path, "locked by another paperdeck for over 10 s; try again") from None
        except OSError as exc:
            raise StoreError(self._path, f"cannot lock: {exc.strerror or exc}") from None

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def _meta() -> dict[str, Any]:
    return {"app": "paperdeck", "schema": SCHEMA_VERSION}


def _check_schema(data: dict[str, Any], path: Path) -> None:
    """Refuse a file that is not ours or was written by a newer paperdeck."""
    meta = data.get("meta")
    schema = None
    if isinstance(meta, dict) and meta:
        first = next(iter(meta.values()))
        schema = first.get("schema") if isinstance(first, dict) else None
    if not isinstance(schema, int):
        if set(data) - {"meta", "papers", "aliases", "user", "_default"}:
            raise StoreError(path, "not a paperdeck store (unknown tables); move it aside")
        return
    if schema > SCHEMA_VERSION:
        raise StoreError(
            path, f"written by a newer paperdeck (schema {schema}, this one reads {SCHEMA_VERSION}); upgrade"
        )


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
    from tui.core.titles import derive_titles
    titles = derive_titles([paper.abstract for paper in derived])
    result = dict(papers)
    for paper, title in zip(derived, titles, strict=True):
        if paper.title != title:
            result[paper.id] = replace(paper, title=title)
    return result
