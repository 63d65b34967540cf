"""One paper read as documents, importing little: the quick path of ``paperdeck show``
(:mod:`paperdeck.cli.quick`).

:class:`~paperdeck.store.store.Store` opens the store for any command: it imports the models
(dataclasses), ``pathlib``, ``typing`` and ``orjson``, which cost a one-paper command several times
what the interpreter's own start does. Here the same files are read the same way — the paper by the
paper index (:mod:`paperdeck.store.paper_index`), its user record from its shard, its review
summary by the summaries' span index — with the standard library's ``json`` (its C scanner), and
given as plain documents (``dict``), checked against the shapes the store writes.

Contract: every function either gives exactly what the store would give, or raises
:class:`NotHere`, and the caller then takes the full path (which gives the answer, or the error,
as ever). So anything not plainly the store's own writing is :class:`NotHere`: a missing or stale
index, a paper the index does not give, a document of an unexpected shape (an unknown field, a
value of another type, ``NaN``, a surrogate escape, a repeated key, a huge number), a shard that
is not a current paperdeck shard, a change an interrupted paperdeck left to finish (a journal) or
temporary files to clean, a programme file, a user file of the first schema. Nothing is written.

The module imports ``os``, ``json`` and :mod:`paperdeck.store.paper_index` (``struct``, ``mmap``,
``zlib``) only.
"""

from __future__ import annotations

import contextlib
import json
import os

from paperdeck.store import paper_index

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "NotHere",
    "change_records",
    "check_store",
    "paper_document",
    "read_shard",
    "set_star",
    "shard_of",
    "summary_document",
    "user_document",
]

#: The file names this module reads, as the store's modules name them (a test holds them equal).
CATALOGUE_FILE = "catalogue.json"
USER_DIR = "user"
SHARDS = 64
REVIEWS_DIR = "reviews"
REVIEWS_INDEX = "index.json"
REVIEWS_SCHEMA = 1
SCHEDULE_FILE = "schedule.json"
LEGACY_USER_FILE = "user.json"
JOURNAL_PREFIX = ".paperdeck-journal-"
TEMP_PREFIX = ".paperdeck-"
TEMP_SUFFIX = ".tmp"
#: The ``meta`` document of a shard this paperdeck writes (:func:`paperdeck.store.schema.meta`).
META = {"app": "paperdeck", "schema": 2}
STATUSES = ("unseen", "skimmed", "to-read", "read", "dismissed")
#: Below this, a whole number is read the same by orjson (64 bits) and by the standard json.
_BIG = 1 << 63


class NotHere(Exception):
    """The quick path cannot answer exactly: the caller takes the full path."""


def _loads(data: bytes) -> Any:
    """``data`` parsed as orjson would parse it (the store's files are written by orjson), or
    :class:`NotHere` where the standard ``json`` might differ: bytes that are not UTF-8, ``NaN``
    and the infinities (spelt so or out of range), surrogate escapes, a key given twice in one
    object."""
    if b"\\u" in data and (b"\\ud" in data.lower()):
        raise NotHere("a surrogate escape")
    try:
        text = data.decode("utf-8")
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_object)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NotHere("not JSON as orjson reads it") from None


def _finite(text: str) -> float:
    value = float(text)
    if value - value != 0.0:  # out of a float's range: orjson refuses it
        raise NotHere("a number out of range")
    return value


def _no_constant(name: str) -> Any:
    raise NotHere(f"JSON {name}")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise NotHere("a key given twice")
    return made


def _read(path: str) -> bytes | None:
    """The bytes of the regular file ``path``; ``None`` when there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError:
        raise NotHere(path) from None
    try:
        stat = os.fstat(fd)
        if stat.st_mode & 0o170000 != 0o100000:  # not a regular file
            raise NotHere(path)
        parts = []
        while chunk := os.read(fd, max(stat.st_size, 65_536)):
            parts.append(chunk)
        return b"".join(parts)
    except OSError:
        raise NotHere(path) from None
    finally:
        os.close(fd)


def check_store(data_dir: str) -> None:
    """Raise :class:`NotHere` unless opening the store in ``data_dir`` would change nothing and
    say nothing: no journal of a change to finish, no temporary file to clean up, no first-schema
    user file to migrate, no programme (its events are shown)."""
    try:
        names = os.listdir(data_dir)
    except OSError:
        raise NotHere(data_dir) from None
    for name in names:
        if name.startswith(JOURNAL_PREFIX) or (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            raise NotHere(name)
    if LEGACY_USER_FILE in names or SCHEDULE_FILE in names:
        raise NotHere("a user file to migrate, or a programme")
    for sub in (USER_DIR, REVIEWS_DIR, "undo"):
        try:
            inside = os.listdir(os.path.join(data_dir, sub))
        except FileNotFoundError:
            continue
        except OSError:
            raise NotHere(sub) from None
        if any(name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX) for name in inside):
            raise NotHere(f"temporary files in {sub}")


# -- the paper --------------------------------------------------------------------------------

_TEXT = (str,)
_NUMBER = (int, float)


def _is(value: object, kinds: tuple[type, ...], none: bool = False) -> bool:
    if value is None:
        return none
    if type(value) is bool:
        return bool in kinds
    if type(value) is int and int in kinds:
        return -_BIG <= value < _BIG
    return type(value) in kinds


def _texts(value: object) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


#: Each field of a paper's document (:meth:`paperdeck.model.paper.Paper.to_dict`) and whether a
#: value is of the shape the store writes.
_PAPER_FIELDS: dict[str, Callable[[Any], bool]] = {
    "id": lambda v: type(v) is str,
    "title": lambda v: type(v) is str,
    "abstract": lambda v: type(v) is str,
    "venue": lambda v: type(v) is str,
    "year": lambda v: _is(v, (int,), none=True),
    "title_derived": lambda v: type(v) is bool,
    "sources": _texts,
    "authors": _texts,
    "keywords": _texts,
    "primary_area": lambda v: type(v) is str,
    "decision": lambda v: type(v) is str,
    "decision_raw": lambda v: type(v) is str,
    "ratings": lambda v: v is None or _ratings(v),
    "confidence": lambda v: _is(v, _NUMBER, none=True),
    "tldr": lambda v: type(v) is str,
    "openreview_id": lambda v: type(v) is str,
    "arxiv_id": lambda v: type(v) is str,
    "doi": lambda v: type(v) is str,
    "number": lambda v: _is(v, (int,), none=True),
    "pdf_url": lambda v: type(v) is str,
    "code_url": lambda v: type(v) is str,
    "openreview_url": lambda v: type(v) is str,
    "arxiv_url": lambda v: type(v) is str,
    "bibtex": lambda v: type(v) is str,
    "provenance": lambda v: type(v) is dict and all(type(s) is str for s in v.values()),
    "modified": lambda v: _is(v, (int,), none=True),
}


def _ratings(value: object) -> bool:
    """A ratings document (:meth:`paperdeck.model.paper.Ratings.to_dict`), or an empty one."""
    if type(value) is not dict:
        return False
    if not value:
        return True
    checks = {"mean": _NUMBER, "std": _NUMBER, "min": _NUMBER, "max": _NUMBER, "count": (int,)}
    for name, item in value.items():
        if name == "scale":
            if type(item) is not str:
                return False
        elif name not in checks or not _is(item, checks[name], none=name != "mean"):
            return False
    return "mean" in value


def paper_document(data_dir: str, given: str) -> dict[str, Any]:
    """The document of the paper ``given`` names (its id, an alias, a bare id one paper has under
    any kind of id: :func:`~paperdeck.store.paper_index.id_names`),
    found as :meth:`paperdeck.store.store.Store.paper_named` finds it by the paper index, and of
    the shape the store writes.

    Raises:
        NotHere: a link (``://``), no usable index, a paper the index does not give, a document
            not of that shape.
    """
    if "://" in given:
        raise NotHere("a link")
    catalogue = os.path.join(data_dir, CATALOGUE_FILE)
    index = paper_index.open_index(os.path.join(data_dir, paper_index.INDEX_FILE), catalogue)  # type: ignore[arg-type]
    if index is None:
        raise NotHere("no usable paper index")
    found: list[dict[str, Any]] = []
    try:
        for n, name in enumerate(paper_index.id_names(given)):
            current = index.resolve(name)
            for span in index.spans(current):
                document = paper_index.read_document(catalogue, index.stamp, span)  # type: ignore[arg-type]
                if document is None:
                    continue
                doc = _loads(document)
                if type(doc) is not dict or doc.get("id") != current:
                    continue
                if "title" not in doc or "abstract" not in doc:
                    continue
                for field, value in doc.items():
                    check = _PAPER_FIELDS.get(field)
                    if check is None or not check(value):
                        raise NotHere(f"a paper's {field}")
                if n == 0:
                    return doc  # the id itself
                if all(d["id"] != doc["id"] for d in found):
                    found.append(doc)
                break
    finally:
        index.close()
    if len(found) == 1:
        return found[0]  # a bare id that one paper has, under any kind of id
    raise NotHere("several papers" if found else "not found by the index")


# -- the user's record ------------------------------------------------------------------------

_sha256: Callable[[bytes], Any] | None = None


def shard_of(paper_id: str) -> tuple[int, int]:
    """``(document id, shard)`` of a paper's user record, as
    :func:`paperdeck.store.user_data.doc_id_for` gives them (SHA-256 from CPython's own module,
    without :mod:`hashlib`'s OpenSSL set-up)."""
    global _sha256
    if _sha256 is None:
        for name in ("_sha256", "_sha2"):
            try:
                _sha256 = getattr(__import__(name), "sha256", None)
            except ImportError:
                continue
            if _sha256 is not None:
                break
        else:
            import hashlib

            _sha256 = hashlib.sha256
    doc_id = int(_sha256(paper_id.encode("utf-8")).hexdigest()[:13], 16)
    return doc_id, doc_id % SHARDS


def _user_doc_fine(doc: object) -> bool:
    """A user record's document as the store writes it (:meth:`paperdeck.model.user.UserData.to_dict`)."""
    if type(doc) is not dict or type(doc.get("paper_id")) is not str:
        return False
    for name, value in doc.items():
        if name in ("paper_id", "note", "created", "updated", "looked"):
            ok = type(value) is str
        elif name == "starred":
            ok = type(value) is bool
        elif name == "status":
            ok = value in STATUSES
        elif name == "tags":
            ok = _texts(value)
        else:
            ok = False
        if not ok:
            return False
    return True


def read_shard(path: str) -> dict[str, Any] | None:
    """A user shard's tables (``{"meta": …, "user": {doc id: document}}``), ``None`` when there is
    none or it is blank.

    Raises:
        NotHere: it is not a current paperdeck shard holding well-formed records, each of
            another paper.
    """
    raw = _read(path)
    if raw is None or not raw.strip():
        return None
    data = _loads(raw)
    if type(data) is not dict or set(data) - {"meta", "user"}:
        raise NotHere(path)
    if any(data.values()) and data.get("meta") != {"1": META}:
        raise NotHere(f"{path}: its meta")
    table = data.get("user") or {}
    if type(table) is not dict or not all(map(_user_doc_fine, table.values())):
        raise NotHere(f"{path}: a record")
    if len({doc["paper_id"] for doc in table.values()}) != len(table):
        raise NotHere(f"{path}: two records of one paper")
    return data


def _all_shards(directory: str) -> dict[str, dict[str, Any] | None] | None:
    """Every shard file of the ``user/`` directory read and checked (:func:`read_shard`), by file
    name, as opening the store does; ``None`` when there is no such directory.

    Raises:
        NotHere: a shard is not as :func:`read_shard` wants it, or ``user`` is not a directory.
    """
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return None
    except OSError:
        raise NotHere(directory) from None
    shard_names = {f"{shard:02x}.json" for shard in range(SHARDS)}
    return {name: read_shard(os.path.join(directory, name)) for name in names if name in shard_names}


def user_document(data_dir: str, paper_id: str) -> dict[str, Any] | None:
    """The stored document of ``paper_id``'s user record (``None``: none), every shard of
    ``user/`` read and checked first, as opening the store does.

    Raises:
        NotHere: a shard is not as :func:`read_shard` wants it, or ``user`` is not a directory.
    """
    shards = _all_shards(os.path.join(data_dir, USER_DIR))
    data = (shards or {}).get(f"{shard_of(paper_id)[1]:02x}.json")
    if data is None:
        return None
    return next((doc for doc in (data.get("user") or {}).values() if doc["paper_id"] == paper_id), None)


# -- starring ---------------------------------------------------------------------------------

#: :data:`paperdeck.store.user_fields.MAX_NOTE_CHARS`, ``MAX_TAGS``, ``MAX_TAG_CHARS``.
MAX_NOTE_CHARS = 1_000_000
MAX_TAGS = 1_000
MAX_TAG_CHARS = 200
#: :data:`paperdeck.store.transaction.COMMIT_LOCK_FILE`; the user shards' lock file.
COMMIT_LOCK_FILE = ".commit.lock"
USER_LOCK_FILE = ".lock"


def _lock(path: str) -> int:
    """The descriptor of the lock file ``path`` (created 0600), locked exclusively, as
    :class:`paperdeck.store.lock.FileLock` takes it — at once or not at all (another holder:
    the full path waits for it).

    Raises:
        NotHere: it is held, is a link or not a regular file, or cannot be opened.
    """
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        raise NotHere(path) from None
    try:
        if os.fstat(fd).st_mode & 0o170000 != 0o100000:
            raise NotHere(path)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (OSError, NotHere):
        os.close(fd)
        raise NotHere(path) from None
    return fd


def _unlock(fd: int) -> None:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _record(doc: dict[str, Any] | None, paper_id: str) -> dict[str, Any]:
    """The record :meth:`paperdeck.model.user.UserData.from_dict` makes of ``doc`` (an empty one
    for none), as :meth:`~paperdeck.model.user.UserData.to_dict` gives it."""
    get = (doc or {}).get
    record = {
        "paper_id": paper_id,
        "starred": bool(get("starred", False)),
        "note": get("note") or "",
        "status": get("status") or "unseen",
        "tags": sorted({str(tag) for tag in get("tags") or ()}),
        "created": get("created") or "",
        "updated": get("updated") or "",
    }
    if looked := get("looked") or "":
        record["looked"] = looked
    return record


def _is_empty(record: dict[str, Any]) -> bool:
    return not (record["starred"] or record["note"] or record["status"] != "unseen" or record["tags"]) and not (
        record.get("looked")
    )


def set_star(data_dir: str, paper_ids: list[str], starred: bool, now: Callable[[], str]) -> set[str]:
    """Star (or unstar) the papers of ``paper_ids`` as :meth:`paperdeck.store.store.Store.change`
    does (:func:`change_records`); the ids of the papers whose star changed.

    Raises:
        NotHere: as :func:`change_records` (nothing written then).
    """
    results = change_records(data_dir, paper_ids, lambda record: {**record, "starred": starred}, now)
    return {paper_id for paper_id, (before, after) in results.items() if before is not after}


def _same_marks(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return all(one[name] == other[name] for name in ("starred", "note", "status", "tags"))


def change_records(
    data_dir: str,
    paper_ids: list[str],
    change: Callable[[dict[str, Any]], dict[str, Any]],
    now: Callable[[], str],
    *,
    batch: bool = True,
) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Apply ``change`` to the user records of ``paper_ids`` (ids of papers :func:`paper_document`
    gave; each record as :func:`_record` gives it, a new one returned) as the store does: with
    ``batch``, :meth:`paperdeck.store.store.Store.change` (a record whose marks stay is left; a
    transaction: the commit lock); without, one paper's :meth:`~paperdeck.store.store.Store.set_status`
    or :meth:`~paperdeck.store.store.Store.set_note` (a record equal as it was is left). Under the
    user shards' lock, the shard re-read, each record that changes stamped ``now()``
    (``created`` kept), the shard written whole in the TinyDB layout, atomically and durably,
    byte for byte what the store writes.

    Returns:
        For each paper id, ``(before, after)``: ``after is before`` when it was left.

    Raises:
        NotHere: before anything is written — the records lie in several shards (the store writes
            them in one transaction), a shard is not as the store writes it, a record would be
            over the size limits (the store says so), a lock is held by another process, a
            journal waits, the shard is a link, read-only or cannot be written.
    """
    ids = list(dict.fromkeys(paper_ids))
    keys = {paper_id: shard_of(paper_id) for paper_id in ids}
    if len({shard for _, shard in keys.values()}) != 1 or (not batch and len(ids) != 1):
        raise NotHere("several shards: one transaction")
    directory = os.path.join(data_dir, USER_DIR)
    _all_shards(directory)  # every shard checked, as opening the store does
    path = os.path.join(directory, f"{next(iter(keys.values()))[1]:02x}.json")
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        raise NotHere(directory) from None
    user_lock = _lock(os.path.join(directory, USER_LOCK_FILE))
    try:
        data = read_shard(path) or {}
        table = data.get("user") or {}
        if any(not key.isdigit() or str(int(key)) != key for key in table):
            raise NotHere("a document id TinyDB would write otherwise")
        if data and "meta" not in data:
            raise NotHere("a shard without its meta table")
        results: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        changed: dict[str, dict[str, Any]] = {}
        stamp = ""
        for paper_id in ids:
            doc = table.get(str(keys[paper_id][0]))
            if doc is not None and doc["paper_id"] != paper_id:
                raise NotHere("another paper's record under the document id")
            current = _record(doc, paper_id)
            new = change(current)
            if _same_marks(new, current) if batch else new == current:
                results[paper_id] = (current, current)
                continue
            over = len(new["note"]) > MAX_NOTE_CHARS or len(new["tags"]) > MAX_TAGS
            if over or max(map(len, new["tags"]), default=0) > MAX_TAG_CHARS:
                raise NotHere("a record over the limits")
            stamp = stamp or now()
            changed[paper_id] = {**new, "created": current["created"] or stamp, "updated": stamp}
            results[paper_id] = (current, changed[paper_id])
        if changed:
            tables = dict(data)
            tables.setdefault("meta", {"1": dict(META)})
            rows = dict(tables.get("user") or {})
            for paper_id, record in changed.items():
                key = str(keys[paper_id][0])
                if _is_empty(record):
                    rows.pop(key, None)  # (a record not stored and empty was never changed)
                elif key in rows:
                    rows[key] = {**rows[key], **record}  # TinyDB's update: the keys in their order
                else:
                    rows[key] = record
            if rows or "user" in tables:
                tables["user"] = rows
            payload = json.dumps(tables, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            _replace(data_dir, path, payload, commit_lock=batch)
        return results
    finally:
        _unlock(user_lock)


def _replace(data_dir: str, path: str, payload: bytes, *, commit_lock: bool) -> None:
    """Write ``payload`` to ``path`` as :func:`paperdeck.store.atomic.atomic_write_bytes` does (a
    temporary file synced, its mode the old file's or 0600, renamed into place, the directory
    synced), no journal waiting; under the commit lock when ``commit_lock`` (a transaction's
    commit takes it).

    Raises:
        NotHere: ``path`` is a link, not a regular file or read-only, the commit lock is held, a
            journal waits, or the temporary file cannot be written (nothing changed then).
    """
    try:
        current = os.lstat(path)
    except FileNotFoundError:
        current = None
    except OSError:
        raise NotHere(path) from None
    if current is not None and (current.st_mode & 0o170000 != 0o100000 or not current.st_mode & 0o200):
        raise NotHere(path)
    committing = _lock(os.path.join(data_dir, COMMIT_LOCK_FILE)) if commit_lock else None
    temp: str | None = None
    try:
        if any(name.startswith(JOURNAL_PREFIX) for name in os.listdir(data_dir)):
            raise NotHere("a journal waits")
        directory = os.path.dirname(path)
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        temp = os.path.join(directory, f"{TEMP_PREFIX}{os.urandom(8).hex()}{TEMP_SUFFIX}")
        fd = os.open(temp, flags, 0o600)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, 0o600 if current is None else current.st_mode & 0o7777)
        os.replace(temp, path)
        temp = None
        try:
            fd = os.open(directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)
    except OSError:
        raise NotHere(path) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if committing is not None:
            _unlock(committing)


def _summary_in_text(path: str, prefix: bytes) -> Any:
    """The summary whose key is ``prefix`` found in the summaries file's text, as
    :meth:`paperdeck.store.reviews.ReviewStore._summary_doc` finds it without a span index (the
    file mapped, not read: only the pages up to the summary are touched)."""
    import mmap

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise NotHere("no summaries file") from None
    try:
        size = os.fstat(fd).st_size
        if not size:
            raise NotHere("an empty summaries file")
        with mmap.mmap(fd, size, access=mmap.ACCESS_READ) as raw:
            key = prefix + b":{"
            at = raw.find(key)
            if at < 0 or raw[at - 1 : at] not in (b"{", b","):
                raise NotHere("the summary is not found in the text")
            start = at + len(key) - 1
            window = raw[start : start + 65_536].decode("utf-8", "replace")
    except (OSError, ValueError):
        raise NotHere("the summaries file") from None
    finally:
        os.close(fd)
    try:
        doc, _ = json.JSONDecoder().raw_decode(window)
    except ValueError:
        raise NotHere("the summary is not found in the text") from None
    return doc


# -- the review summary -----------------------------------------------------------------------

_SUMMARY_FIELDS: dict[str, Callable[[Any], bool]] = {
    "count": lambda v: _is(v, (int,)),
    **{
        name: lambda v: _is(v, _NUMBER, none=True)
        for name in ("mean", "min", "max", "std", "confidence", "soundness", "presentation", "contribution")
    },
    "ratings": lambda v: type(v) is list and all(_is(x, _NUMBER) for x in v),
    "confidences": lambda v: type(v) is list and all(_is(x, _NUMBER, none=True) for x in v),
    "initial_ratings": lambda v: type(v) is list and all(_is(x, _NUMBER) for x in v),
    "scale": lambda v: type(v) is str,
    "comments": lambda v: _is(v, (int,)),
    "decision": lambda v: type(v) is str,
    "withdrawn": lambda v: type(v) is bool,
    "moved": lambda v: _is(v, (int,)),
    "venue": lambda v: type(v) is str,
}


def summary_document(data_dir: str, forum: str) -> dict[str, Any] | None:
    """The score summary document of the paper of OpenReview forum ``forum``, as
    :meth:`paperdeck.store.reviews.ReviewStore.summary` finds it (by the summaries' span index,
    else in the summaries file's text); ``None`` when it has none.

    Raises:
        NotHere: the reviews index or the summary is not of the shape the store writes, or the
            summary is not found in the file's text as written.
    """
    directory = os.path.join(data_dir, REVIEWS_DIR)
    raw = _read(os.path.join(directory, REVIEWS_INDEX))
    if raw is None:
        return None
    index = _loads(raw)
    if type(index) is not dict or type(index.get("shards")) is not dict:
        raise NotHere("the reviews index")
    schema = index.get("schema")
    if type(schema) is int and schema > REVIEWS_SCHEMA:
        raise NotHere("a newer reviews index")
    name = index.get("summaries")
    if not name:
        return None
    if type(name) is not str or "/" in name or "\0" in name:
        raise NotHere("the summaries' name")
    path = os.path.join(directory, name)
    prefix = json.dumps(forum, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    spans = os.path.join(directory, name.removesuffix(".json") + ".spans.json")
    index = paper_index.open_index(spans, path)  # type: ignore[arg-type]
    if index is None:  # no span index, or not of this file: the summary is looked for in its text
        doc = _summary_in_text(path, prefix)
    else:
        try:  # the span index of this very file lists each of its summaries (its stamp says so)
            entries = [paper_index.read_document(path, index.stamp, span) for span in index.spans(forum)]  # type: ignore[arg-type]
        finally:
            index.close()
        values = [
            entry[len(prefix) + 1 :] for entry in entries if entry is not None and entry.startswith(prefix + b":")
        ]
        if not values:
            if any(entry is None for entry in entries):
                raise NotHere("the summaries file changed")
            return None
        doc = _loads(values[0])
    if type(doc) is not dict:
        raise NotHere("a summary")
    for field, item in doc.items():
        check = _SUMMARY_FIELDS.get(field)
        if check is None or not check(item):
            raise NotHere(f"a summary's {field}")
    return doc
