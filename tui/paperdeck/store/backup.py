"""Back up all the user's data — stars, notes, reading statuses, tags, follows and saved views — to
one JSON file, and restore it.

The file (UTF-8 JSON, indented; the ``"paperdeck"`` key first, which is how it is told apart from a
paper list)::

    {
      "paperdeck": "user-data backup",
      "schema": 1,
      "exported": "2026-11-29T19:30:00.123456+00:00",
      "count": 2,
      "papers": {"openreview:ukGxWd2aDG": "REAP: …"},
      "records": [
        {"paper_id": "openreview:ukGxWd2aDG", "starred": true, "note": "…", "status": "read",
         "tags": ["moe"], "created": "2026-…", "updated": "2026-…"},
        …
      ],
      "follows": [{"kind": "keyword", "value": "diffusion", "added": "2026-…"}, …],
      "views": {"Orals": "decision:oral", …}
    }

``records`` are :meth:`UserData.to_dict` objects (the store's own shape); ``papers`` gives the title of
each paper in the store, for a human reading the file (a restore ignores it); ``follows`` are
:meth:`Follow.to_dict <paperdeck.store.follows.Follow.to_dict>` objects, in the order followed;
``views`` the saved views of ``config.json`` (name → query), in the order saved. A backup of the
older shape (no ``follows``, no ``views``) restores its records alone.

A restore (:func:`restore_backup`, or ``paperdeck import BACKUP.json``) checks the whole file first
and changes nothing when any of it is wrong. It writes each record as it is in the backup (its
times too) over the store's record of that paper; papers the backup does not mention keep theirs.
Records for papers not in the catalogue are kept as well (the user store holds any id): they show
once those papers are imported. Ids a merge has since replaced are followed to the paper's id now.
A paper's ``looked`` time (when it was last opened) becomes the later of the backup's and the
store's. A follow or a view the store has already (a follow of the same kind and value, any case:
:attr:`Follow.key <paperdeck.store.follows.Follow.key>`; a view of the same name, any case) is kept
as the store has it; the others are added after the store's. The records, the follows and the
views are written in one transaction: all of them or none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.counts import counted
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import STATUSES, UserData
from paperdeck.model.safe_text import one_line
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.store.follows import Follow
from paperdeck.store.store import Store, utc_now
from paperdeck.store.undo import note_restore
from paperdeck.store.user_data import later_look
from paperdeck.store.user_fields import MAX_NOTE_CHARS, MAX_TAG_CHARS, MAX_TAGS, combine_records

__all__ = [
    "BACKUP_MARK",
    "BACKUP_SCHEMA",
    "BackupError",
    "RestoreReport",
    "UserDataBackup",
    "backup_json",
    "is_backup",
    "looks_like_backup",
    "read_backup",
    "restore_backup",
    "write_backup",
]

#: The value of the ``"paperdeck"`` key that marks a backup file.
BACKUP_MARK = "user-data backup"
#: Version of the backup layout; a newer one is refused.
BACKUP_SCHEMA = 1
#: Backups larger than this are refused (bytes): far more than any user's notes fill.
MAX_BACKUP_BYTES = 256 * 1024 * 1024
_HEAD = re.compile(r'^\s*\{\s*"paperdeck"\s*:')
_HEAD_BYTES = 4096
_RECORD_KEYS = {"paper_id", "starred", "note", "status", "tags", "created", "updated", "looked"}


class BackupError(SourceError):
    """A backup file cannot be read or is malformed; nothing was restored. ``str()`` is one line:
    ``FILE[:LINE]: reason``."""


@dataclass(frozen=True, slots=True)
class UserDataBackup:
    """A backup file, read and checked.

    Attributes:
        path: the file.
        exported: when it was written (ISO 8601 UTC), as the file says.
        records: its records, in file order, one per paper id.
        follows: its follows, in the order followed (``()`` in a backup of the older shape).
        views: its saved views, ``(name, query)`` in the order saved (``()`` likewise).
        combine: the records are *combined* with the store's (starred if either is, both notes,
            every tag, the status set: :func:`~paperdeck.store.user_fields.combine_records`),
            never written over them: the marks a paper list carries (paperdeck's own CSV export
            imported again), not a backup of the store.
    """

    path: Path
    exported: str
    records: tuple[UserData, ...]
    follows: tuple[Follow, ...] = ()
    views: tuple[tuple[str, str], ...] = ()
    combine: bool = False


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """What a restore did.

    Attributes:
        restored: records written (the store's record of that paper differed or was missing).
        unchanged: records the store already had (same star, note, status and tags).
        not_in_store: of all the backup's records, those for papers not in the catalogue (kept).
        follows_added, follows_kept: the backup's follows added, and those the store had already.
        views_added, views_kept: the backup's saved views added, and those the store had already
            (by name: the store's query is kept).
        what: what was restored, as the import's line names it (``"user-data backup"``, or
            ``"your marks"`` for a paper list's, :attr:`UserDataBackup.combine`).
    """

    restored: int = 0
    unchanged: int = 0
    not_in_store: int = 0
    follows_added: int = 0
    follows_kept: int = 0
    views_added: int = 0
    views_kept: int = 0
    what: str = "user-data backup"

    def summary(self) -> str:
        """``"15 records: 12 restored, 3 unchanged; 1 is for a paper not in the store yet (kept for
        when it is imported)"``: every record is restored or unchanged, and those for papers not
        in the store are some of them (or all)."""
        total = self.restored + self.unchanged
        text = f"{counted(total, 'record')}: {self.restored:,} restored, {self.unchanged:,} unchanged"
        waiting = self.not_in_store
        if waiting == 1:
            which = "it is" if total == 1 else "1 is"
            text += f"; {which} for a paper not in the store yet (kept for when it is imported)"
        elif waiting:
            which = f"all {waiting:,} are" if waiting == total else f"{waiting:,} are"
            text += f"; {which} for papers not in the store yet (kept for when they are imported)"
        for what, added, kept in (
            ("follow", self.follows_added, self.follows_kept),
            ("saved view", self.views_added, self.views_kept),
        ):
            if added or kept:
                text += f"; {counted(added + kept, what)}: {added:,} added, {kept:,} already there"
        return text


# -- writing ---------------------------------------------------------------------------------


def backup_json(store: Store, now: Callable[[], str] = utc_now) -> bytes:
    """Every user record of ``store`` as a backup file's bytes (see the module docstring); records
    in catalogue order, then those for papers not in the catalogue, by id."""
    return _backup(store, now)[0]


def _backup(store: Store, now: Callable[[], str]) -> tuple[bytes, int]:
    records = store.all_user_data
    order = {pid: n for n, pid in enumerate(store.paper_ids)}
    ids = sorted(records, key=lambda pid: (order.get(pid, len(order)), pid))
    titles = {pid: paper.title for pid in ids if (paper := store.paper(pid)) is not None}
    document = {
        "paperdeck": BACKUP_MARK,
        "schema": BACKUP_SCHEMA,
        "exported": now(),
        "count": len(ids),
        "papers": titles,
        "records": [records[pid].to_dict() for pid in ids],
        "follows": [follow.to_dict() for follow in store.follows.all()],
        "views": _saved_views(store),
    }
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n", len(ids)


def write_backup(store: Store, path: Path, now: Callable[[], str] = utc_now) -> int:
    """Write :func:`backup_json` to ``path`` as :func:`~paperdeck.store.atomic.atomic_write_bytes` does
    (a new file gets mode 0600, a link is written through); returns the record count.

    Raises:
        StoreError: the file cannot be written (then an existing file is left as it was).
    """
    payload, count = _backup(store, now)
    atomic_write_bytes(path, payload)
    return count


def _saved_views(store: Store) -> dict[str, str]:
    """The saved views of ``config.json`` (name → query), ``{}`` when there is none."""
    from paperdeck.store.settings import SettingsFile

    return dict(SettingsFile(store.data_dir).settings.views)


# -- reading ---------------------------------------------------------------------------------


def is_backup(path: Path) -> bool:
    """Whether ``path`` is meant as a paperdeck user-data backup: a JSON object whose first key is
    ``"paperdeck"`` (no paper list starts so; :func:`read_backup` then checks the rest). A file
    that cannot be read is not."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return False
    return looks_like_backup(head.decode("utf-8", errors="replace"))


def looks_like_backup(head: str) -> bool:
    """Whether a file starting with ``head`` (decoded text) is a user-data backup."""
    return _HEAD.match(head.lstrip("\ufeff")) is not None


def read_backup(path: Path) -> UserDataBackup:
    """Read and check a backup file (every record, before anything is restored).

    Raises:
        BackupError: unreadable, not JSON (naming the line), not a backup, from a newer paperdeck,
            or a malformed record (naming it, and its line when it can be found).
    """
    try:
        if path.stat().st_size > MAX_BACKUP_BYTES:
            raise BackupError(path, f"too large for a backup (over {MAX_BACKUP_BYTES:,} bytes)")
        raw = path.read_bytes()
    except OSError as exc:
        raise BackupError(path, f"cannot read: {exc.strerror or exc}") from None
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise BackupError(path, f"not valid JSON ({exc.msg})", exc.lineno) from None
    if not isinstance(document, dict) or document.get("paperdeck") != BACKUP_MARK:
        raise BackupError(path, f'not a paperdeck user-data backup (no "paperdeck": "{BACKUP_MARK}")')
    schema = document.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise BackupError(path, '"schema" is missing or not a whole number ≥ 1')
    if schema > BACKUP_SCHEMA:
        raise BackupError(path, f"written by a newer paperdeck (backup schema {schema}; this one reads 1); upgrade")
    items = document.get("records")
    if not isinstance(items, list):
        raise BackupError(path, '"records" is missing or not a list')
    records: list[UserData] = []
    seen: dict[str, int] = {}
    for number, item in enumerate(items, start=1):
        record = _record(item, number, path, raw)
        if record.paper_id in seen:
            reason = f"record {number}: paper {record.paper_id!r} again (first in record {seen[record.paper_id]})"
            raise BackupError(path, reason, _line_of(raw, record.paper_id, second=True))
        seen[record.paper_id] = number
        records.append(record)
    exported = document.get("exported")
    follows, views = _follows(document.get("follows"), path), _views(document.get("views"), path)
    return UserDataBackup(path, exported if isinstance(exported, str) else "", tuple(records), follows, views)


def _follows(items: Any, path: Path) -> tuple[Follow, ...]:
    """The backup's follows, checked (``()`` when it has none: the older shape)."""
    from paperdeck.store.follows import MAX_FOLLOWS

    if items is None:
        return ()
    if not isinstance(items, list):
        raise BackupError(path, '"follows" is not a list')
    if len(items) > MAX_FOLLOWS:
        raise BackupError(path, f"{len(items):,} follows, more than the {MAX_FOLLOWS:,} paperdeck keeps")
    follows: list[Follow] = []
    for number, item in enumerate(items, start=1):
        try:
            if not isinstance(item, dict):
                raise ValueError("not an object")
            follow = Follow.from_dict(item)
            if follow.added:
                datetime.fromisoformat(follow.added)
        except ValueError as exc:
            raise BackupError(path, f"follow {number}: {one_line(str(exc))[:120]}") from None
        follows.append(follow)
    return tuple(follows)


def _views(items: Any, path: Path) -> tuple[tuple[str, str], ...]:
    """The backup's saved views, checked (``()`` when it has none: the older shape)."""
    if items is None:
        return ()
    if not isinstance(items, dict):
        raise BackupError(path, '"views" is not an object of name → query')
    for name, query in items.items():
        if not isinstance(query, str):
            raise BackupError(path, f"view {one_line(name)[:40]!r}: its query is not text")
    return tuple(items.items())


def _record(item: Any, number: int, path: Path, raw: bytes) -> UserData:
    """One record, type-checked (a note must be text, a star true or false …)."""
    if not isinstance(item, dict):
        raise BackupError(path, f"record {number}: not an object")
    paper_id = item.get("paper_id")
    if not isinstance(paper_id, str) or not paper_id.strip():
        raise BackupError(path, f"record {number}: no paper_id")

    def fault(reason: str) -> BackupError:
        # The line is looked up only for a fault: finding it scans the whole file.
        return BackupError(path, f"record {number} ({paper_id[:80]}): {reason}", _line_of(raw, paper_id))

    checks = (
        ("starred", bool, "true or false"),
        ("note", str, "text"),
        ("status", str, "text"),
        ("created", str, "text"),
        ("updated", str, "text"),
        ("looked", str, "text"),
        ("tags", list, "a list"),
    )
    for key, kind, what in checks:
        if key in item and not isinstance(item[key], kind):
            raise fault(f"{key} must be {what}, not {type(item[key]).__name__ if item[key] is not None else 'null'}")
    for key in ("created", "updated", "looked"):
        if item.get(key):
            try:
                datetime.fromisoformat(item[key])
            except ValueError:
                raise fault(f"{key} must be an ISO 8601 time, e.g. 2026-11-29T12:00:00+00:00") from None
    if not all(isinstance(tag, str) for tag in item.get("tags") or ()):
        raise fault("every tag must be text")
    sizes = (
        ("its note", len(item.get("note") or ""), MAX_NOTE_CHARS, "characters"),
        ("it", len(item.get("tags") or ()), MAX_TAGS, "tags"),
        ("a tag", max(map(len, item.get("tags") or [""])), MAX_TAG_CHARS, "characters"),
    )
    for what, size, limit, unit in sizes:
        if size > limit:
            raise fault(f"{what} has {size:,} {unit}, more than the {limit:,} paperdeck keeps; is the file broken?")
    if item.get("status") not in (None, "", *STATUSES):
        raise fault(f"unknown status {str(item['status'])[:40]!r}; one of {', '.join(STATUSES)}")
    unknown = sorted(set(item) - _RECORD_KEYS)
    if unknown:
        raise fault(f"unknown field {unknown[0][:40]!r}")
    return UserData.from_dict(item)


def _line_of(raw: bytes, paper_id: str, second: bool = False) -> int | None:
    """The 1-based line of the record with ``paper_id`` (its second one when ``second``), if found."""
    pattern = re.compile(rb'"paper_id"\s*:\s*' + re.escape(orjson.dumps(paper_id)))
    matches = list(pattern.finditer(raw))
    index = 1 if second else 0
    if len(matches) <= index:
        return None
    return raw.count(b"\n", 0, matches[index].start()) + 1


# -- restoring -------------------------------------------------------------------------------


def restore_backup(store: Store, backup: UserDataBackup) -> RestoreReport:
    """Write the backup's records into ``store`` (see the module docstring), in one batch.

    A record under an id that a merge has since replaced goes to the paper's id now
    (``store.resolve``); two records that land on one paper are combined (starred if either is,
    both notes, all tags, the status set: :func:`paperdeck.store.user_fields.combine_records`).
    The undo point notes the restore (:func:`~paperdeck.store.undo.note_restore`: an undo then
    asks first) only when it changed a record, added a follow or a saved view.

    Raises:
        StoreError: the user data cannot be written; nothing was changed then (the records are
            written in one transaction: :mod:`paperdeck.store.transaction`), unless the reason
            says the restore is saved and is finished when paperdeck next opens the store.
    """
    store.load()  # aliases come with the catalogue
    known = set(store.paper_ids)
    wanted: dict[str, UserData] = {}
    for record in backup.records:
        target = store.resolve(record.paper_id)
        moved = record.replaced(paper_id=target)
        wanted[target] = _combine(wanted[target], moved, record.paper_id == target) if target in wanted else moved
    before = {pid: store.user_data(pid) for pid in wanted}
    if backup.combine:  # a paper list's marks join the store's: nothing the user wrote is lost
        wanted = {pid: _joined(before[pid], record) for pid, record in wanted.items()}
    changed = [
        record
        for pid, record in wanted.items()
        if not record.same_marks(before[pid]) or later_look(record, before[pid]) != before[pid].looked
    ]
    with store.transaction():  # the records, the follows and the views: all or none
        store.restore(changed, keep_times=True)
        follows_added = store.follows.restore(backup.follows)
        views_added = _restore_views(store, backup.views)
        if changed or follows_added or views_added:  # a restore that changed nothing is not noted
            note_restore(store.data_dir, utc_now())  # an undo after it asks for --yes
    return RestoreReport(
        restored=len(changed),
        unchanged=len(wanted) - len(changed),
        not_in_store=sum(1 for pid in wanted if pid not in known),
        follows_added=follows_added,
        follows_kept=len(backup.follows) - follows_added,
        views_added=views_added,
        views_kept=len(backup.views) - views_added,
        what="your marks" if backup.combine else "user-data backup",
    )


def _joined(current: UserData, carried: UserData) -> UserData:
    """The store's record with the marks a paper list carries for the paper (:func:`combine_records`),
    a note the store's already holds not added again (the same list imported twice)."""
    if carried.note and carried.note in current.note:
        carried = carried.replaced(note="")
    return combine_records(current, carried)


def _restore_views(store: Store, views: tuple[tuple[str, str], ...]) -> int:
    """Add the saved views whose names (any case) ``config.json`` does not hold, after its own;
    how many were added. A ``config.json`` that cannot be read is refused (it is never written)."""
    if not views:
        return 0
    from paperdeck.model.errors import StoreError
    from paperdeck.store.settings import SettingsFile

    settings = SettingsFile(store.data_dir)
    if settings.problem is not None:
        raise StoreError(settings.path, f"{settings.problem}; nothing was restored")
    current = dict(settings.settings.views)
    names = {name.casefold() for name in current}
    added = {name: query for name, query in views if name.casefold() not in names}
    if added:
        settings.update(views={**current, **added})
    return len(added)


def _combine(first: UserData, second: UserData, second_is_current: bool) -> UserData:
    main, other = (second, first) if second_is_current else (first, second)
    return combine_records(main, other)  # the one rule per field records follow papers by
