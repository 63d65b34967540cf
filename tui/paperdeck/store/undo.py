"""The undo point: the catalogue as it was before the last import or removal, so that it can be
taken back (``paperdeck import --undo``, ``paperdeck remove --undo``, the app's undo).

Layout, in ``undo/`` beside the catalogue::

    catalogue.json     the catalogue file as it was before the last change (a hard link to the
                       old file where the file system allows: an atomic write replaces the
                       catalogue by a new file, so the old one is kept as it was, for free)
    schedule.json      the programmes' events as they were before it (a hard link, as the
                       catalogue; absent when there were none)
    reviews/           the reviews as they were before it, when it imported reviews: the reviews
                       index and the files it names (hard links: an import writes new files for
                       what it changes and removes the old ones, so the links keep them)
    undo.json          what that change was: ``{"what": "import"|"remove", "at": ISO time,
                       "summary": one line, "after": [size, mtime_ns] of the catalogue it left,
                       "reviews_after": the same of the reviews index it left, when it kept them,
                       "kept_schedule": true, "had_schedule": bool, "schedule_after": the stamp
                       of the schedule file it left, "log_before": the change log's size before
                       it, "log_after": the change log's stamp it left, "kept_log": true}`` (a
                       point without ``kept_schedule``, made by an older paperdeck, leaves the
                       schedule as it is; one without ``kept_log`` records the undo in the change
                       log instead)

One point is kept: each change replaces it, and taking it back drops it (a second undo has
nothing to undo). A change writes its point in two steps around its catalogue write, under the
import lock: the old catalogue is linked (or copied) to a staging name first, and only once the
new catalogue is written is it renamed into place and ``undo.json`` written naming the new
catalogue's stamp. An undo is refused when the catalogue on disk is not the one ``undo.json``
names (another process changed it since, or a crash came between the two steps): the point no
longer says what was before (so is one whose reviews changed since, when it kept them). The
user's records are never part of it: marks on papers an undo takes away stay in the user store
(and in its backup), and show again when the papers come back. A change that wrote nothing (an
import of what the store holds already) leaves the point as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

import orjson

from paperdeck.model.errors import NothingToDo, StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.store.atomic import ACTIVE, atomic_write_bytes, write_failure

__all__ = [
    "UNDO_DIR",
    "UNDO_NOUNS",
    "NothingToUndo",
    "UndoPoint",
    "UndoScope",
    "drop_undo_point",
    "file_stamp",
    "keep_review_files",
    "put_back_review_files",
    "read_undo_point",
    "restore_came_after",
    "restore_stays",
]

UNDO_DIR = "undo"
_POINT_FILE = "undo.json"
_BEFORE_FILE = "catalogue.json"
_SCHEDULE_FILE = "schedule.json"
_REVIEWS_DIR = "reviews"
#: The reviews files an undo point keeps: the index (``index.json``), and the generation files
#: (``NN.gG.json``, ``summaries.gG.json``, ``words.gG.*``) it names.
_REVIEW_FILES = ("index.json", "*.g[0-9]*.json", "words.g[0-9]*")


class NothingToUndo(NothingToDo):
    """No import or removal can be taken back (none was made, or the last one was undone):
    nothing to do (exit status 1)."""


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """The last change that can be taken back.

    Attributes:
        what: ``"import"`` or ``"remove"``.
        at: when it was made, ISO 8601 UTC.
        summary: what it did, one line (``"3 new, 1 updated"``, ``"removed 2 papers"``).
        after: the catalogue file's ``[size, mtime_ns]`` right after it (an undo is refused when
            the catalogue is another now).
        before: the catalogue file as it was before it (``None``: there was none, an empty store).
        reviews: the folder of the reviews files as they were before it (:data:`_REVIEW_FILES`;
            no index in it: there were no reviews), ``None`` when it kept none (it imported none).
        reviews_after: the reviews index's ``[size, mtime_ns]`` right after it (``None``: none).
        kept_schedule: whether it kept the schedule file (points of an older paperdeck did not).
        schedule: the schedule file as it was before it (``None``: there was none, or not kept).
        schedule_after: the schedule file's ``[size, mtime_ns]`` right after it (``None``: none).
        log_before: the change log's size before it (0: there was none).
        log_after: the change log's ``[size, mtime_ns]`` right after it (``None``: none): while
            the log is still that, an undo cuts it back to ``log_before``.
        kept_log: whether it kept the change log's sizes (points of an older paperdeck did not).
        restored_at: when a backup restore came after it (ISO 8601 UTC; :func:`note_restore`),
            ``None`` when none did: an undo leaves a restore's marks as they are, and says so.
        new_ids: the papers an import added (their ids then), which its undo takes away (empty:
            none, a removal, or a point of an older paperdeck, which did not keep them).
    """

    what: str
    at: str
    summary: str
    after: list[int] | None
    before: Path | None
    reviews: Path | None = None
    reviews_after: list[int] | None = None
    kept_schedule: bool = False
    schedule: Path | None = None
    schedule_after: list[int] | None = None
    log_before: int = 0
    log_after: list[int] | None = None
    kept_log: bool = False
    restored_at: str | None = None
    new_ids: tuple[str, ...] = ()


#: How the undo's words name the change of a point of each ``what``.
UNDO_NOUNS = {"import": "the import", "remove": "the removal"}


def restore_came_after(point: UndoPoint) -> str | None:
    """The one sentence, without its end, that says a backup restore came after ``point``'s change
    and stays (``None`` when none came): ``paperdeck import --undo`` refuses with it unless
    ``--yes`` is given, the app's ``Z`` asks with it (one wording for both)."""
    if not point.restored_at:
        return None
    noun = UNDO_NOUNS.get(point.what, "the change")
    return (
        f"a backup restore ({point.restored_at[11:16]} UTC) came after {noun} of "
        f"{point.at[:16].replace('T', ' ')} UTC ({one_line(point.summary)}), and an undo leaves the "
        "restored marks as they are"
    )


def restore_stays(point: UndoPoint) -> str | None:
    """The line an undo of ``point`` ends with when a backup restore came after its change
    (``None`` when none came), in the command line's output and the app's toast alike."""
    if not point.restored_at:
        return None
    return f"The backup restore of {point.restored_at[11:16]} UTC is not undone: the marks it restored stay."


def note_restore(data_dir: Path, at: str) -> None:
    """Write into the undo point, when there is one, that a backup restore came after its change
    at ``at`` (a restore is not undoable: ``import --undo`` then asks for ``--yes``). In a
    transaction, staged with the restore.

    Raises:
        StoreError: the point cannot be written.
    """
    path = data_dir / UNDO_DIR / _POINT_FILE
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, ValueError):
        return  # no point (or none readable: nothing would be undone)
    if isinstance(data, dict):
        atomic_write_bytes(path, orjson.dumps({**data, "restored_at": at}))


def read_undo_point(data_dir: Path) -> UndoPoint | None:
    """The undo point of the store in ``data_dir``, ``None`` when there is none (or it is
    unreadable: then there is nothing that can be taken back safely)."""
    folder = data_dir / UNDO_DIR
    try:
        data = orjson.loads((folder / _POINT_FILE).read_bytes())
        after = data.get("after")
        before = folder / _BEFORE_FILE if data.get("had_catalogue") else None
        if before is not None and not before.is_file():
            return None
        reviews = folder / _REVIEWS_DIR if data.get("kept_reviews") else None
        if reviews is not None and not reviews.is_dir():
            return None
        reviews_after = data.get("reviews_after")
        kept_schedule = bool(data.get("kept_schedule"))
        schedule = folder / _SCHEDULE_FILE if kept_schedule and data.get("had_schedule") else None
        if schedule is not None and not schedule.is_file():
            return None
        schedule_after = data.get("schedule_after")
        log_after = data.get("log_after")
        return UndoPoint(
            what=str(data["what"]),
            at=str(data["at"]),
            summary=str(data.get("summary") or ""),
            after=[int(n) for n in after] if isinstance(after, list) else None,
            before=before,
            reviews=reviews,
            reviews_after=[int(n) for n in reviews_after] if isinstance(reviews_after, list) else None,
            kept_schedule=kept_schedule,
            schedule=schedule,
            schedule_after=[int(n) for n in schedule_after] if isinstance(schedule_after, list) else None,
            log_before=int(data.get("log_before") or 0),
            log_after=[int(n) for n in log_after] if isinstance(log_after, list) else None,
            kept_log=bool(data.get("kept_log")),
            restored_at=str(data["restored_at"]) if data.get("restored_at") else None,
            new_ids=tuple(map(str, data.get("new_ids") or ())),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def drop_undo_point(data_dir: Path) -> None:
    """Remove the undo point (once taken back): ``undo.json`` first, so a crash leaves none; in
    a transaction, as part of it (the kept reviews once it has committed).

    Raises:
        StoreError: it cannot be removed.
    """
    folder = data_dir / UNDO_DIR
    txn = ACTIVE.get()
    if txn is not None and txn.covers(Path(os.path.realpath(folder))):  # with the change it undid
        for name in (_POINT_FILE, _BEFORE_FILE, _SCHEDULE_FILE):
            txn.stage_removal(folder / name)
        txn.after_commit(lambda: shutil.rmtree(folder / _REVIEWS_DIR, ignore_errors=True))
        return
    for name in (_POINT_FILE, _BEFORE_FILE, _SCHEDULE_FILE):
        try:
            (folder / name).unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(folder / name, write_failure(exc)) from None
    shutil.rmtree(folder / _REVIEWS_DIR, ignore_errors=True)


def file_stamp(path: Path) -> list[int] | None:
    """``[size, mtime_ns]`` of ``path``, ``None`` when there is none (what a point compares)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def _link_or_copy(source: Path, target: Path) -> None:
    """``target`` made the same file as ``source``: a hard link, else a copy.

    Raises:
        OSError: neither can be made.
    """
    try:
        os.link(source, target)
    except OSError:
        target.unlink(missing_ok=True)
        shutil.copyfile(source, target)


def keep_review_files(reviews_dir: Path, into: Path) -> bool:
    """Link (or copy) the reviews index and the generation files of ``reviews_dir`` into the new
    folder ``into``; False when there is no reviews index (no reviews).

    Raises:
        OSError: they cannot be kept.
    """
    into.mkdir(mode=0o700)
    index = reviews_dir / _REVIEW_FILES[0]
    if not index.is_file():
        return False
    for pattern in _REVIEW_FILES[1:]:
        for path in reviews_dir.glob(pattern):
            _link_or_copy(path, into / path.name)
    _link_or_copy(index, into / index.name)  # last: the files it names are kept first
    return True


def put_back_review_files(kept: Path, reviews_dir: Path) -> None:
    """Link (or copy) the generation files kept in ``kept`` back into ``reviews_dir`` where
    they are missing (the index is not: the caller writes it, then removes what it does not name).

    Raises:
        OSError: they cannot be put back.
    """
    for path in kept.iterdir():
        if path.name != _REVIEW_FILES[0] and not (reviews_dir / path.name).exists():
            _link_or_copy(path, reviews_dir / path.name)


#: A staged catalogue older than this (by the time it was linked or copied) was left by a crash.
_STALE_S = 3600.0


def _clean_stale_staging(folder: Path) -> None:
    """Remove catalogues staged by a change that never committed (a crash between its steps); a
    change under way in another process staged its own within the hour, and is left alone."""
    import time

    for staged in [*folder.glob(".before-*.json"), *folder.glob(".schedule-*.json"), *folder.glob(".reviews-*")]:
        with contextlib.suppress(OSError):
            if time.time() - staged.stat().st_ctime > _STALE_S:
                if staged.is_dir():
                    shutil.rmtree(staged, ignore_errors=True)
                else:
                    staged.unlink()


class UndoScope:
    """One change that becomes the undo point: :meth:`keep_before` before its first catalogue
    write (under the import lock), :meth:`commit` once the change is done.

    Args:
        data_dir: the data directory.
        catalogue_path: the catalogue file.
        what: ``"import"`` or ``"remove"``.
        schedule_path: the schedule file, kept with the catalogue (``None``: not kept).

    Attributes:
        summary: what the change did, one line (set by the change before :meth:`commit`).
        new_ids: the papers the change added (set by an import before :meth:`commit`), kept in
            the point (:attr:`UndoPoint.new_ids`).
    """

    def __init__(self, data_dir: Path, catalogue_path: Path, what: str, schedule_path: Path | None = None) -> None:
        self.folder = data_dir / UNDO_DIR
        self.catalogue_path = catalogue_path
        self.schedule_path = schedule_path
        self._schedule_staged: Path | None = None
        self._had_schedule = False
        self.what = what
        self.summary = ""
        self.new_ids: tuple[str, ...] = ()
        self._staged: Path | None = None
        self._kept = False
        self._unkept = False  # the catalogue before could not be kept
        self._had_catalogue = False
        self._reviews_staged: Path | None = None  # the reviews kept, while not committed

    @property
    def kept(self) -> bool:
        """Whether the catalogue before the change was kept (the change wrote the catalogue)."""
        return self._kept

    def keep_before(self) -> None:
        """Keep the catalogue file (and the schedule file, when the scope has one) as it is now,
        before the change writes it (once per change: later writes of the same change keep the
        first; a write staged in the transaction is not on disk yet, so the file kept is the one
        before the change). Best effort: when it cannot be kept (a
        read-only or full disk: the change's own write says so next), the change is made without
        an undo point, and :meth:`commit` drops the previous one (it no longer says what was
        before the catalogue on disk)."""
        if self._kept:
            return
        self._kept = True
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            _clean_stale_staging(self.folder)
            if self.catalogue_path.is_file():
                staged = self.folder / f".before-{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
                _link_or_copy(self.catalogue_path, staged)
                self._staged = staged
            self._had_catalogue = self._staged is not None
            if self.schedule_path is not None and self.schedule_path.is_file():
                staged = self.folder / f".schedule-{os.getpid()}-{uuid.uuid4().hex[:8]}.json"
                _link_or_copy(self.schedule_path, staged)
                self._schedule_staged = staged
            self._had_schedule = self._schedule_staged is not None
        except OSError:
            self.discard()
            self._kept = self._unkept = True

    def keep_reviews_before(self, reviews_dir: Path) -> None:
        """Keep the reviews as they are now (:func:`keep_review_files`), and the catalogue
        (:meth:`keep_before`), before the change writes the reviews; best effort as that is."""
        self.keep_before()
        if self._reviews_staged is not None or self._unkept:
            return
        staged = self.folder / f".reviews-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        try:
            keep_review_files(reviews_dir, staged)
        except OSError:
            shutil.rmtree(staged, ignore_errors=True)
            self.discard()
            self._kept = self._unkept = True
            return
        self._reviews_staged = staged

    def commit(
        self,
        at: str,
        summary: str,
        after: list[int] | None,
        reviews_after: list[int] | None = None,
        schedule_after: list[int] | None = None,
        log: tuple[int, list[int] | None] = (0, None),
    ) -> None:
        """Make the kept catalogue (and reviews, and schedule) the undo point of this change
        (nothing when nothing was kept); ``after``, ``reviews_after`` and ``schedule_after``: the
        stamps of the catalogue, of the reviews index and of the schedule file the change left;
        ``log``: the change log's size before the change and its stamp after (an undo cuts the
        log back to that size while it is still as the change left it).

        Raises:
            StoreError: the point cannot be written (the change itself stands).
        """
        if not self._kept:
            return
        if self._unkept:
            with contextlib.suppress(StoreError):
                drop_undo_point(self.folder.parent)
            return
        try:
            if self._staged is not None:
                os.replace(self._staged, self.folder / _BEFORE_FILE)
                self._staged = None
            else:
                (self.folder / _BEFORE_FILE).unlink(missing_ok=True)
            if self._schedule_staged is not None:
                os.replace(self._schedule_staged, self.folder / _SCHEDULE_FILE)
                self._schedule_staged = None
            else:
                (self.folder / _SCHEDULE_FILE).unlink(missing_ok=True)
            shutil.rmtree(self.folder / _REVIEWS_DIR, ignore_errors=True)  # the previous point's
            kept_reviews = self._reviews_staged is not None
            if self._reviews_staged is not None:
                os.replace(self._reviews_staged, self.folder / _REVIEWS_DIR)
                self._reviews_staged = None
            point = {"what": self.what, "at": at, "summary": summary, "after": after,
                     "had_catalogue": self._had_catalogue, "kept_reviews": kept_reviews,
                     "reviews_after": reviews_after, "kept_schedule": self.schedule_path is not None,
                     "had_schedule": self._had_schedule, "schedule_after": schedule_after,
                     "log_before": log[0], "log_after": log[1], "kept_log": True,
                     "new_ids": list(self.new_ids)}  # fmt: skip
            atomic_write_bytes(self.folder / _POINT_FILE, orjson.dumps(point))
        except OSError as exc:
            raise StoreError(self.folder, f"cannot write the undo point: {write_failure(exc)}") from None

    def discard(self) -> None:
        """Drop what was kept (the change failed: the undo point stays the previous one)."""
        if self._staged is not None:
            with contextlib.suppress(OSError):
                self._staged.unlink()
            self._staged = None
        if self._schedule_staged is not None:
            with contextlib.suppress(OSError):
                self._schedule_staged.unlink()
            self._schedule_staged = None
        if self._reviews_staged is not None:
            shutil.rmtree(self._reviews_staged, ignore_errors=True)
            self._reviews_staged = None
        self._kept = self._unkept = False
