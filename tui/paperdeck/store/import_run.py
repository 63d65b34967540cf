"""One import into a store, under its import lock: papers merged into the catalogue, or reviews
merged into the reviews, the user's records moved to the papers' current ids, and the changes
recorded in the change log.

Imports wait for each other (the lock file ``.import.lock`` in the data directory), and each
merges into the catalogue as it is on disk when it holds the lock: merged into a copy read
earlier, another process's import would be overwritten. The catalogue is written first, then the
user records move, then the changes are appended to the log, all in one transaction
(:mod:`paperdeck.store.transaction`): a crash leaves all of it or none. A change log whose
size cannot be read is a notice, not a failure.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import write_failure
from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.transaction import current, transaction

if TYPE_CHECKING:
    from paperdeck.model.changes import PaperChange
    from paperdeck.model.paper import Paper
    from paperdeck.model.review import Review
    from paperdeck.store.catalogue import Catalogue
    from paperdeck.store.changes import ChangeLog
    from paperdeck.store.reviews import ReviewImport, ReviewStore, StagedWords
    from paperdeck.store.user_data import UserStore

__all__ = ["IMPORT_LOCK_FILE", "TITLE_SOURCE_CHARS", "ImportReport", "ImportRun", "move_user_data_to_current_ids"]

#: Taken around an import's read-merge-write of the catalogue (imports wait for each other).
IMPORT_LOCK_FILE = ".import.lock"
_IMPORT_LOCK_TIMEOUT_S = 120.0
#: A derived title comes from the start of the abstract: only this many characters of it are read
#: (real abstracts are far shorter; title derivation is quadratic in the length of a huge one).
TITLE_SOURCE_CHARS = 20_000


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


class ImportRun:
    """One import (:meth:`import_papers`) or review import (:meth:`import_reviews`) into a
    store's parts, under the import lock; make one per import.

    Args:
        catalogue: the store's catalogue (loaded by the run, written by it).
        user: the store's user records (moved to the papers' current ids).
        reviews: the store's reviews (their scores go into the papers; a review import writes them).
        change_log: where the changes are appended once the import is committed.
        lock_path: the import lock's file (:data:`IMPORT_LOCK_FILE` in the data directory).
        now: clock for the changes' times (ISO 8601 UTC text).

    Attributes:
        recorded: the changes this run recorded (empty before it ran, and for a first import:
            the first snapshot has nothing to compare with).
        notices: lines to show about the run (a change log that could not be written).
    """

    def __init__(
        self,
        catalogue: Catalogue,
        user: UserStore,
        reviews: ReviewStore,
        change_log: ChangeLog,
        lock_path: Path,
        now: Callable[[], str],
    ) -> None:
        self.catalogue = catalogue
        self.user = user
        self.reviews = reviews
        self.change_log = change_log
        self.lock_path = lock_path
        self.now = now
        self.recorded: list[PaperChange] = []
        self.notices: tuple[str, ...] = ()

    def import_papers(self, papers: Iterable[Paper]) -> ImportReport:
        """Merge ``papers`` into the catalogue (:mod:`paperdeck.store.merge`) and write it once;
        see :meth:`paperdeck.store.store.Store.import_papers`.

        Raises:
            StoreError: the catalogue cannot be read or written, the import lock cannot be taken,
                or the user data cannot be written (then nothing changed).
        """
        from paperdeck.store.merge import Merger  # deferred: rapidfuzz is not needed to open the store

        catalogue = self.catalogue
        catalogue.load()
        papers = list(papers)
        with transaction(self.lock_path.parent) as txn, _ImportLock(self.lock_path):
            catalogue.catch_up()
            result = Merger(catalogue.held_papers, catalogue.held_aliases).merge(papers)
            merged = _with_review_scores(_with_derived_titles(result.papers), self.reviews)
            if merged != catalogue.held_papers or result.aliases != catalogue.held_aliases:
                before = catalogue.held_papers
                catalogue.replace(merged, result.aliases)
                if before:  # the first import is the first snapshot: nothing to compare with
                    from paperdeck.model.changes import paper_changes

                    self.recorded = paper_changes(before, merged, result.aliases, (), self.now())
            # At the transaction's end (a fetch imports its reviews first): the user-data lock,
            # which a star in another window waits on, is held from the move to the commit.
            user = self.user
            txn.before_commit("move user data", lambda: move_user_data_to_current_ids(catalogue, user, reread=True))
            self._record_changes()
        return ImportReport(result.new, result.updated, result.unchanged, self.notices, new_ids=result.new_ids)

    def import_reviews(self, reviews: Iterable[Review], staged: StagedWords | None = None) -> ReviewImport:
        """Merge reply notes into the reviews, and their scores and decisions into the papers;
        see :meth:`paperdeck.store.store.Store.import_reviews`.

        Raises:
            StoreError: the reviews cannot be read or written, or the import lock cannot be taken.
        """
        catalogue = self.catalogue
        catalogue.load()
        with transaction(self.lock_path.parent), _ImportLock(self.lock_path):
            catalogue.catch_up()
            before = catalogue.held_papers
            forums = {paper.openreview_id for paper in before.values() if paper.openreview_id}
            had_reviews = self.reviews.counts()["notes"] > 0
            report = self.reviews.import_reviews(reviews, forums.__contains__, note_changes=had_reviews, staged=staged)
            if report.changed_forums & forums:
                merged = _with_review_scores(dict(before), self.reviews)
                if merged != before:
                    catalogue.replace(merged, dict(catalogue.held_aliases))
                if had_reviews:  # the first reviews imported are their first snapshot: nothing to compare with
                    from paperdeck.model.changes import paper_changes

                    self.recorded = paper_changes(before, catalogue.held_papers, {}, report.notes, self.now())
                    self._record_changes()
                    report = replace(report, notices=self.notices)
        return report

    def _record_changes(self) -> None:
        """Append the run's changes to the change log, after the import is committed; a log that
        cannot be written does not undo the import: it becomes a notice line."""
        try:
            self.change_log.append(self.recorded)
        except StoreError as exc:
            self.notices = (f"{exc}; the changes of this import are not recorded",)


def move_user_data_to_current_ids(catalogue: Catalogue, user: UserStore, *, reread: bool = False) -> None:
    """Move every user record kept under an id that is now an alias (a merge gave the paper a
    better id, or the record was written or restored under an old one) to the paper's current
    id, each field combined with a record already there by its rule
    (:func:`paperdeck.store.user_fields.combine_records`). The one way records follow papers.

    Args:
        catalogue: whose aliases (as held: parsed) say which ids are old.
        user: the records.
        reread: re-read the user data changed on disk first (an import; a store just opened
            has just read it, and may be loading in a worker thread).

    Raises:
        StoreError: the user data cannot be read or written.
    """
    aliases = catalogue.held_aliases
    if not aliases:
        return
    if reread:  # records another process wrote under an old id move too
        user.reload()
    orphans = {pid: catalogue.resolve(pid) for pid in user.records if pid in aliases}
    if orphans:
        user.move(orphans)


def _with_review_scores(papers: dict[str, Paper], reviews: ReviewStore) -> dict[str, Paper]:
    """``papers`` with each reviewed paper's ratings and confidence taken from its imported
    reviews (:meth:`paperdeck.store.reviews.ReviewStore.summaries`: the reviews themselves
    are the better source), and the decision of a Decision note where it says more than the
    paper's (:func:`paperdeck.store.merge.decision_replaces`: never a decision replaced by none);
    ``papers`` itself when nothing changes."""
    summaries = reviews.summaries()
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


class _ImportLock:
    """The import lock, as a context manager; failures become :class:`StoreError`. On a
    read-only file system no lock is needed (no one can write) and none is taken. Inside a
    transaction the lock is held until the transaction ends (taken once however often asked)."""

    def __init__(self, path: Path) -> None:
        self._lock = FileLock(path, timeout=_IMPORT_LOCK_TIMEOUT_S)
        self._held = False

    def __enter__(self) -> None:
        txn = current()
        if txn is not None and txn.holds(self._lock.path):
            return
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
        if txn is not None:
            txn.keep(self._lock)
            return
        self._held = True

    def __exit__(self, *exc: object) -> None:
        if self._held:
            self._held = False
            self._lock.release()
