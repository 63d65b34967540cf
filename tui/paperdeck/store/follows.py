"""The user's follows — authors, keywords and saved queries whose papers the user wants to see —
in one TinyDB file beside the stars and notes.

Layout, inside the data directory::

    user/follows.json      TinyDB: table "follows" (one document per follow), "meta" (schema)
    user/.follows.lock     the lock taken around every read-modify-write

A follow is ``{"kind": "author" | "keyword" | "query", "value": "Jane Doe", "added": ISO time}``.
Follows are the user's data: they name no paper, so no import or merge touches them; every
write re-reads the file under the lock first (what another paperdeck added is kept) and is atomic
and durable (:mod:`paperdeck.store.atomic`). Which papers a follow matches is
:mod:`paperdeck.search.follows`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import AtomicJSONStorage, malformed
from paperdeck.store.file_stamp import FileStamp
from paperdeck.store.lock import FileLock
from paperdeck.store.user_data import LockGuard, SchemaCheck, doc_id_for
from paperdeck.text.fold import fold_text

if TYPE_CHECKING:
    from tinydb import TinyDB

#: The file of the follows, inside the user directory.
FOLLOWS_FILE = "follows.json"
#: What can be followed: a paper's author (by name), a keyword (in the title, keywords or
#: abstract), a query in the filter bar's language.
FOLLOW_KINDS = ("author", "keyword", "query")
#: Longest value of a follow, characters, and most follows kept: far above what anyone follows.
MAX_VALUE_CHARS = 500
MAX_FOLLOWS = 1_000
_LOCK_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class Follow:
    """One follow.

    Attributes:
        kind: one of :data:`FOLLOW_KINDS`.
        value: the author's name, the keyword or the query, as the user gave it (one line).
        added: when it was followed, ISO 8601 UTC (``""`` when unknown).
    """

    kind: str
    value: str
    added: str = ""

    @property
    def key(self) -> tuple[str, str]:
        """What tells two follows apart: the kind and the value folded as search folds text
        (:func:`~paperdeck.text.fold.fold_text`: case, accents, white space: ``author jane  DOÉ`` is
        ``author Jane Doe``), its words joined by one space."""
        return self.kind, " ".join(fold_text(self.value).split())

    @property
    def label(self) -> str:
        """``"author Jane Doe"``, ``'query "decision:oral rating>=6"'``: how the user is told of it."""
        return f'query "{self.value}"' if self.kind == "query" else f"{self.kind} {self.value}"

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "value": self.value, "added": self.added}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Follow:
        """A follow from its stored document.

        Raises:
            ValueError: not a follow (the message says what is wrong).
        """
        kind, value, added = data.get("kind"), data.get("value"), data.get("added", "")
        if kind not in FOLLOW_KINDS:
            raise ValueError(f"kind {kind!r} is none of {', '.join(FOLLOW_KINDS)}")
        if not isinstance(value, str) or not value.strip():
            raise ValueError("value is not text")
        if not isinstance(added, str):
            raise ValueError("added is not text")
        return cls(kind, clean_value(value), added)


def clean_value(text: str) -> str:
    """A follow's value from what the user typed: white space collapsed, control characters
    dropped.

    Raises:
        ValueError: nothing is left, or it is longer than :data:`MAX_VALUE_CHARS` (a hint).
    """
    value = " ".join("".join(ch for ch in text if ch.isprintable() or ch.isspace()).split())
    if not value:
        raise ValueError("a follow needs a value, e.g. an author's name or a keyword")
    if len(value) > MAX_VALUE_CHARS:
        raise ValueError(f"a follow's value has at most {MAX_VALUE_CHARS} characters")
    return value


class FollowStore:
    """The follows, read from ``user/follows.json`` (again when another process changed it) and
    written through on every change.

    Args:
        directory: the user directory (created 0700 on the first write).
        now: clock for the ``added`` times.
        meta: the document written into the file's "meta" table (app, schema).
        check_schema: refuses a file written by a newer paperdeck.
    """

    def __init__(
        self, directory: Path, now: Callable[[], str], meta: dict[str, Any], check_schema: SchemaCheck
    ) -> None:
        self.directory = directory
        self.path = directory / FOLLOWS_FILE
        self._now = now
        self._meta = meta
        self._check_schema = check_schema
        self._lock = FileLock(directory / ".follows.lock", timeout=_LOCK_TIMEOUT_S)
        self._follows: tuple[Follow, ...] = ()
        self._stamp: FileStamp | None = None
        #: Goes up whenever the follows change (readers cache what they derive from them).
        self.version = 0

    def all(self) -> tuple[Follow, ...]:
        """Every follow, in the order followed (the file is read again when it changed on disk).

        Raises:
            StoreError: the file cannot be read, is not valid JSON, holds a malformed follow or
                was written by a newer paperdeck (it is then never written).
        """
        stamp = _stamp(self.path)
        if stamp != self._stamp:
            follows = self._read()
            self._stamp = stamp
            if follows != self._follows:
                self._follows = follows
                self.version += 1
        return self._follows

    def add(self, kind: str, value: str) -> Follow | None:
        """Follow ``value`` of ``kind``; ``None`` when it is followed already (any case).

        Raises:
            ValueError: an unknown kind, an empty or too long value, too many follows (a hint).
            StoreError: the file cannot be locked, read or written (nothing changed then).
        """
        if kind not in FOLLOW_KINDS:
            raise ValueError(f"cannot follow a {kind!r}: follow an {', a '.join(FOLLOW_KINDS)}")
        follow = Follow(kind, clean_value(value), self._now())
        with self._locked():
            current = self._read()
            if any(known.key == follow.key for known in current):
                self._remember(current)
                return None
            if len(current) >= MAX_FOLLOWS:
                raise ValueError(f"at most {MAX_FOLLOWS:,} follows are kept: unfollow some first")
            from tinydb.table import Document

            db = self._db()
            if not db.table("meta").contains(doc_id=1):
                db.table("meta").insert(Document(self._meta, doc_id=1))
            db.table("follows").insert(Document(follow.to_dict(), doc_id=_doc_id(follow)))
            self._remember((*current, follow))
        return follow

    def restore(self, follows: tuple[Follow, ...]) -> int:
        """Add the follows (a backup's, with their own ``added`` times) that are not followed yet
        (by :attr:`Follow.key`), after those that are, in one write; how many were added. A
        follow already there is kept as it is.

        Raises:
            StoreError: the file cannot be locked, read or written (nothing changed then), or
                the follows would be more than :data:`MAX_FOLLOWS`.
        """
        if not follows:
            return 0
        with self._locked():
            current = self._read()
            keys = {known.key for known in current}
            added: list[Follow] = []
            for follow in follows:
                if follow.key not in keys:
                    keys.add(follow.key)
                    added.append(follow)
            if not added:
                self._remember(current)
                return 0
            if len(current) + len(added) > MAX_FOLLOWS:
                reason = f"the backup's follows and yours are more than the {MAX_FOLLOWS:,} kept; nothing was restored"
                raise StoreError(self.path, reason)
            from tinydb.table import Document

            db = self._db()
            if not db.table("meta").contains(doc_id=1):
                db.table("meta").insert(Document(self._meta, doc_id=1))
            db.table("follows").insert_multiple(Document(f.to_dict(), doc_id=_doc_id(f)) for f in added)
            self._remember((*current, *added))
        return len(added)

    def remove(self, kind: str, value: str) -> Follow | None:
        """Unfollow ``value`` of ``kind`` (any case); the follow removed, ``None`` when there was none.

        Raises:
            StoreError: the file cannot be locked, read or written (nothing changed then).
        """
        key = Follow(kind, value).key
        with self._locked():
            current = self._read()
            gone = next((known for known in current if known.key == key), None)
            if gone is not None:
                table = self._db().table("follows")
                doc_ids = [doc.doc_id for doc in table.all() if Follow.from_dict(dict(doc)).key == key]
                table.remove(doc_ids=doc_ids)
                self._remember(tuple(known for known in current if known.key != key))
        return gone

    def _remember(self, follows: tuple[Follow, ...]) -> None:
        self._stamp = _stamp(self.path)
        if follows != self._follows:
            self._follows = follows
            self.version += 1

    def _db(self) -> TinyDB:
        from tinydb import TinyDB  # at the first write: reading the follows needs none

        return TinyDB(self.path, storage=AtomicJSONStorage)

    def _read(self) -> tuple[Follow, ...]:
        data = AtomicJSONStorage(self.path).read()
        if data is None:
            return ()
        self._check_schema(data, self.path)
        try:
            table = data.get("follows") or {}
            if not isinstance(table, dict):
                raise TypeError("the follows table is not an object")
            return tuple(Follow.from_dict(doc) for doc in table.values())  # in the order written: followed
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a follow is malformed ({malformed(exc)}); fix or move the file aside — "
                "paperdeck will not overwrite it"
            )
            raise StoreError(self.path, reason) from None

    def _locked(self) -> LockGuard:
        return LockGuard(self._lock, self.directory)


def _doc_id(follow: Follow) -> int:
    kind, value = follow.key
    return doc_id_for(f"{kind}:{value}")


def _stamp(path: Path) -> FileStamp | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(path, f"cannot read: {exc.strerror or exc}; check its permissions") from None
    return FileStamp.of(stat)


__all__ = ["FOLLOWS_FILE", "FOLLOW_KINDS", "Follow", "FollowStore", "clean_value"]
