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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.model.errors import StoreError
from paperdeck.model.ids import canonical_venue_label
from paperdeck.runtime import release_freed_memory
from paperdeck.store.atomic import staged_path, write_failure
from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.rescoring import catalogue_forums, rescore
from paperdeck.store.rows import rows_cache_keyed
from paperdeck.store.transaction import current, transaction

if TYPE_CHECKING:
    from paperdeck.model.changes import PaperChange
    from paperdeck.model.paper import Paper
    from paperdeck.model.review import Review
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.store.catalogue import Catalogue
    from paperdeck.store.changes import ChangeLog
    from paperdeck.store.merge import MergeResult
    from paperdeck.store.patch_record import CataloguePatch
    from paperdeck.store.rescoring import PaperTally
    from paperdeck.store.reviews import MergeProgress, ReviewImport, ReviewSpill, ReviewStore, StagedWords
    from paperdeck.store.transaction import Transaction
    from paperdeck.store.undo import UndoPoint, UndoScope
    from paperdeck.store.user_data import UserStore

__all__ = [
    "IMPORT_LOCK_FILE",
    "TITLE_SOURCE_CHARS",
    "ImportReport",
    "ImportRun",
    "RemoveReport",
    "UndoReport",
    "move_user_data_to_current_ids",
]

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
    #: Papers the library held twice that the import joined to the paper they duplicated.
    joined: int = 0

    def summary(self) -> str:
        """``"37 new, 0 updated, 1 unchanged"``, then ``", 12 papers joined with the paper they
        duplicated"`` when the import joined any."""
        return f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged" + joined_text(self.joined)


def joined_text(joined: int) -> str:
    """``", 12 papers joined with the paper they duplicated"`` (``""`` for none): what an import
    summary adds for the papers the library held twice that it joined."""
    if not joined:
        return ""
    if joined == 1:
        return ", 1 paper joined with the paper it duplicated"
    return f", {joined:,} papers joined with the paper they duplicated"


@dataclass(frozen=True, slots=True)
class RemoveReport:
    """What a removal did: the ids removed (as they were in the catalogue), the ids asked for
    that named no paper, and the notices to show."""

    removed: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UndoReport:
    """What an undo took back: the change (``"import"`` or ``"remove"``, its time and summary),
    the papers it brought back and those it took away (ids), and the papers whose fields it set
    back; ``notices`` to show. ``reviews_back``: the change had imported reviews, and they are set
    back as they were before it; ``reviews_taken_away``: how many reviews and comments fewer the
    store holds then (0 where the import had only changed notes it held already)."""

    what: str
    at: str
    summary: str
    restored: tuple[str, ...] = ()
    taken_away: tuple[str, ...] = ()
    reverted: int = 0
    notices: tuple[str, ...] = ()
    reviews_back: bool = False
    reviews_taken_away: int = 0

    @property
    def reviews_text(self) -> str:
        """What the undo did to the reviews, as the app and ``paperdeck import --undo`` say it:
        ``"51 reviews and comments taken away"``, ``"the reviews set back as they were"`` (the
        import had only changed notes the store held), ``""`` (it had imported none)."""
        if self.reviews_taken_away:
            from paperdeck.model.counts import counted

            return f"{counted(self.reviews_taken_away, 'review or comment', 'reviews and comments')} taken away"
        return "the reviews set back as they were" if self.reviews_back else ""


class ImportRun:
    """One import (:meth:`import_papers`) or review import (:meth:`import_reviews`) into a
    store's parts, or one removal (:meth:`remove_papers`) or undo (:meth:`take_back`), under the
    import lock; make one per change.

    Args:
        catalogue: the store's catalogue (loaded by the run, written by it).
        user: the store's user records (moved to the papers' current ids).
        reviews: the store's reviews (their scores go into the papers; a review import writes them).
        change_log: where the changes are appended once the import is committed.
        lock_path: the import lock's file (:data:`IMPORT_LOCK_FILE` in the data directory).
        now: clock for the changes' times (ISO 8601 UTC text).
        undo: the undo point this run's writes make (:class:`~paperdeck.store.undo.UndoScope`:
            the catalogue, and the reviews, before they are written are kept first), ``None``: none.

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
        undo: UndoScope | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.undo = undo
        self.user = user
        self.reviews = reviews
        self.change_log = change_log
        self.lock_path = lock_path
        self.now = now
        self.recorded: list[PaperChange] = []
        self.notices: tuple[str, ...] = ()
        self._patch_record: CataloguePatch | None = None  # what an import in place changed
        #: Counts every paper as a review import writes the new scores in place (:func:`rescore`).
        self.tally: PaperTally | None = None

    def import_papers(self, papers: Iterable[Paper]) -> ImportReport:
        """Merge ``papers`` into the catalogue (:mod:`paperdeck.store.merge`) and write it once;
        see :meth:`paperdeck.store.store.Store.import_papers`.

        Raises:
            StoreError: the catalogue cannot be read or written, the import lock cannot be taken,
                or the user data cannot be written (then nothing changed).
        """
        from paperdeck.store.merge import merge_into  # deferred: rapidfuzz is not needed to open the store

        catalogue = self.catalogue
        papers = list(papers)
        with transaction(self.lock_path.parent) as txn, _ImportLock(self.lock_path):
            catalogue.last_patch = None
            patched = self._import_in_place(papers)
            if patched is not None:
                result, aliases = patched
                if (made := self._patch_record) is not None:  # kept once committed: the indexes follow it
                    txn.after_commit(lambda: setattr(catalogue, "last_patch", made))
                user = self.user

                def move() -> None:
                    move_user_data_to_current_ids(catalogue, user, reread=True, aliases=aliases)

                txn.before_commit("move user data", move)
                self._record_changes()
                return ImportReport(result.new, result.updated, result.unchanged, self.notices, new_ids=result.new_ids)
            catalogue.load()
            catalogue.catch_up()
            result = merge_into(catalogue.held_papers, catalogue.held_aliases, papers)
            merged = _with_review_scores(_with_derived_titles(result.papers), self.reviews)
            result = result.as_written(catalogue.held_papers, merged)
            if merged != catalogue.held_papers or result.aliases != catalogue.held_aliases:
                before = catalogue.held_papers
                self._keep_before()
                catalogue.replace(merged, result.aliases)
                if before:  # the first import is the first snapshot: nothing to compare with
                    from paperdeck.model.changes import paper_changes

                    self.recorded = paper_changes(before, merged, result.aliases, (), self.now())
            # At the transaction's end (a fetch imports its reviews first): the user-data lock,
            # which a star in another window waits on, is held from the move to the commit.
            user = self.user
            txn.before_commit("move user data", lambda: move_user_data_to_current_ids(catalogue, user, reread=True))
            self._record_changes()
        notices = self.notices
        if result.joined:
            count = len(result.joined)
            notices = (
                f"joined {count:,} paper{'s' if count != 1 else ''} the library held twice (one title written in "
                "LaTeX and plain, or under a withdrawn paper's two forum ids); stars, notes, statuses and tags "
                "kept on the one paper",
                *notices,
            )
        joined = len(result.joined) + len(result.joined_by_title)
        return ImportReport(
            result.new, result.updated, result.unchanged, notices, new_ids=result.new_ids, joined=joined
        )

    def _import_in_place(self, papers: list[Paper]) -> tuple[MergeResult, dict[str, str]] | None:
        """Merge ``papers`` into the catalogue touching only the papers they name: when each is
        a paper of the catalogue by its current id (found by the rows cache's spans, nothing else
        parsed) and the merge adds, renames and re-titles none, those papers are merged and
        written in place (:meth:`~paperdeck.store.catalogue.Catalogue.patch`: the same bytes as
        the whole rewrite), with the undo point and the changes as for it. Returns the merge and
        the catalogue's aliases, or ``None`` when it does not apply (nothing written: then the
        whole catalogue is read and merged). The papers not named are taken to be as a whole
        merge would leave them (their review scores and derived titles applied when they were
        last written), as every write of the catalogue does.

        Raises:
            StoreError: the catalogue cannot be written (then nothing changed).
        """
        from paperdeck.store.merge import PORTABLE_IDS, Merger

        if not papers or any(paper.id.startswith(PORTABLE_IDS) or paper.title_derived for paper in papers):
            return None
        catalogue = self.catalogue
        if not rows_cache_keyed(catalogue.rows_path):
            return None  # merged before titles matched as shown: the whole merge joins its copies once
        named = catalogue.read_named(paper.id for paper in papers)
        if named is None or any(paper.title_derived for paper in named.papers.values()):
            return None
        if any(canonical_venue_label(label) != label for label in named.venues.labels):
            return None  # a venue under an old name (NIPS 2018): the whole merge moves its papers
        aliases = dict(named.spans.aliases)
        result = Merger(named.papers, aliases).merge(papers)
        if result.new or result.renamed or result.aliases != aliases or list(result.papers) != list(named.papers):
            return None
        read: dict[str, ReviewSummary] = {}
        merged = _with_review_scores(result.papers, self.reviews, named=True, read=read)
        if any(paper.title_derived for paper in merged.values()):
            return None
        result = result.as_written(named.papers, merged)
        changed = {pid: paper for pid, paper in merged.items() if paper != named.papers[pid]}
        if changed:
            before = catalogue.stamp()
            if not catalogue.patch(named, changed, self._keep_before):
                return None
            after = catalogue.stamp()  # the file staged: its size and mtime stay as it is moved in place
            if before is not None and after is not None:
                from paperdeck.store.patch_record import CataloguePatch

                positions = dict(zip(named.ids, range(len(named.ids)), strict=True))
                pairs = {positions[pid]: (named.papers[pid], paper) for pid, paper in changed.items()}
                forums = frozenset(paper.openreview_id for paper in result.papers.values() if paper.openreview_id)
                self._patch_record = CataloguePatch(
                    tuple(before), tuple(after), len(named.ids), pairs, summaries=read, forums=forums
                )
            from paperdeck.model.changes import paper_changes

            self.recorded = paper_changes(named.papers, merged, aliases, (), self.now())
        return result, aliases

    def import_reviews(
        self,
        reviews: Iterable[Review] | ReviewSpill,
        staged: StagedWords | None = None,
        progress: MergeProgress | None = None,
    ) -> ReviewImport:
        """Merge reply notes into the reviews, and their scores and decisions into the papers;
        see :meth:`paperdeck.store.store.Store.import_reviews` (``progress``: told as the notes
        are merged, :meth:`~paperdeck.store.reviews.ReviewStore.import_reviews`).

        Raises:
            StoreError: the reviews cannot be read or written, or the import lock cannot be taken.
        """
        catalogue = self.catalogue
        with transaction(self.lock_path.parent) as txn, _ImportLock(self.lock_path):
            # the committed file's stamp, which the saved indexes were made for (None: this
            # transaction wrote the catalogue already)
            committed = catalogue.stamp() if staged_path(catalogue.path) == catalogue.path else None
            had_reviews = self.reviews.counts()["notes"] > 0
            if self.undo is not None:  # the reviews as they are, to take this import back
                self.undo.keep_reviews_before(self.reviews.directory)
            # The catalogue is read once the notes are merged (the first time the merge asks
            # whether a paper is in it, at its end): never held beside the notes being merged. Its
            # forums are read a document at a time, the catalogue not parsed (when the rows cache
            # says where each paper lies), and the new scores written into it a paper at a time.
            forums: set[str] = set()
            parsed = streamed = False

            def known(forum: str) -> bool:
                nonlocal parsed, streamed
                if not parsed:
                    release_freed_memory()  # the merge's batches, handed back before the catalogue is read
                    found = catalogue_forums(catalogue)
                    if found is None:
                        catalogue.load()
                        catalogue.catch_up()
                        held = catalogue.held_papers.values()
                        found = {paper.openreview_id for paper in held if paper.openreview_id}
                    else:
                        streamed = True
                    forums.update(found)
                    parsed = True
                return forum in forums

            report = self.reviews.import_reviews(
                reviews, known, note_changes=had_reviews, staged=staged, progress=progress
            )
            known("")
            if report.changed_forums & forums:
                done = None
                before: Mapping[str, Paper]
                after: Mapping[str, Paper]
                if streamed:  # the papers changed (and those the change log needs) alone
                    keep = {note.forum for note in report.notes} if had_reviews else None
                    summaries = self.reviews.summaries()
                    told = None
                    if progress is not None:
                        scored_count, tell = len(report.changed_forums), progress
                        progress("paper scores", 0, scored_count)

                        def told(read: int, of: int) -> None:
                            """The write's way through the catalogue, in the papers' count."""
                            tell("paper scores", scored_count * read // max(of, 1), scored_count)

                    done = rescore(
                        catalogue, summaries, report.changed_forums, self._keep_before, keep, self.tally, told
                    )
                    del summaries
                    release_freed_memory()  # the old rows and each paper read, handed back
                if done is not None:
                    if done.changed:
                        self._record_scores_patch(txn, committed, catalogue.paper_count)
                    before, after = done.before, done.after
                else:
                    catalogue.load()
                    catalogue.catch_up()
                    before = catalogue.held_papers
                    merged = _with_review_scores(dict(before), self.reviews)
                    if merged != before:
                        self._keep_before()
                        catalogue.replace(merged, dict(catalogue.held_aliases))
                        self._record_scores_patch(txn, committed, len(merged))
                    after = catalogue.held_papers
                from paperdeck.model.changes import paper_changes, rating_moves

                if had_reviews:
                    self.recorded = paper_changes(before, after, {}, report.notes, self.now())
                else:  # the first reviews imported are their first snapshot: no note to compare
                    # with, but a mean rating another source set (the Parquet's) that they move is
                    # logged, or the history would say the old one beside the paper's new one
                    self.recorded = rating_moves(paper_changes(before, after, {}, (), self.now()))
                if had_reviews or self.recorded:
                    self._record_changes()
                    report = replace(report, notices=self.notices)
        return report

    def _record_scores_patch(self, txn: Transaction, before: list[int] | None, count: int) -> None:
        """Once ``txn`` commits, have the catalogue's :attr:`~paperdeck.store.catalogue.Catalogue.last_patch`
        say that this review import rewrote it from the file stamped ``before`` (``None``: not
        known, nothing recorded) without changing any text the search and similarity indexes read:
        the review scores change a paper's ratings, confidence and decision only, so the patch
        holds no pair of papers, and the saved indexes are stamped anew rather than built again."""
        after = self.catalogue.stamp()  # the file staged: its size and mtime stay as it is moved in place
        if before is None or after is None:
            return
        from paperdeck.store.patch_record import CataloguePatch

        made = CataloguePatch(tuple(before), tuple(after), count, {})
        catalogue = self.catalogue
        txn.after_commit(lambda: setattr(catalogue, "last_patch", made))

    def remove_papers(self, paper_ids: Iterable[str]) -> RemoveReport:
        """Take papers out of the catalogue (by id or alias), with the aliases that led to them,
        and record each in the change log (``gone``). Their reviews stay stored by forum id (as
        for a paper not imported yet) and the user's records stay in the user store: both show
        again when the paper is imported again. See :meth:`paperdeck.store.store.Store.remove_papers`.

        Raises:
            StoreError: the catalogue cannot be read or written, or the import lock cannot be
                taken (then nothing changed).
        """
        catalogue = self.catalogue
        catalogue.load()
        asked = list(dict.fromkeys(paper_ids))
        with _ImportLock(self.lock_path):
            catalogue.catch_up()
            before = catalogue.held_papers
            gone: dict[str, None] = {}
            missing: list[str] = []
            for given in asked:
                current = catalogue.resolve(given)
                if current in before:
                    gone[current] = None
                else:
                    missing.append(given)
            if not gone:
                return RemoveReport((), tuple(missing))
            papers = {pid: paper for pid, paper in before.items() if pid not in gone}
            aliases = {old: new for old, new in catalogue.held_aliases.items() if catalogue.resolve(old) not in gone}
            self._keep_before()
            catalogue.replace(papers, aliases)  # the derived titles left stay distinct
            from paperdeck.model.changes import PaperChange

            at = self.now()
            self.recorded = [PaperChange(at, pid, gone=True) for pid in gone]
            self._record_changes()
        return RemoveReport(tuple(gone), tuple(missing), self.notices)

    def take_back(self, point: UndoPoint) -> UndoReport:
        """Set the catalogue back to the one ``point`` kept (the last import or removal taken
        back), and the reviews when it kept them (first: the catalogue's write is the last),
        record what that changed in the change log, and move the user's records made under an
        id the change gave a paper back to the id it had. Under the import lock; the caller
        drops the point once this returns.

        Raises:
            StoreError: the catalogue (or the reviews index, or the schedule, when kept) was changed since the
                point was made (its stamp is not the point's: the point no longer says what was
                before; nothing changed then), the kept files cannot be read, or the store cannot
                be written.
        """
        from paperdeck.model.changes import PaperChange, paper_changes
        from paperdeck.store.catalogue import Catalogue

        catalogue = self.catalogue
        catalogue.load()
        with _ImportLock(self.lock_path):
            catalogue.catch_up()
            from paperdeck.store.schedule import SCHEDULE_FILE
            from paperdeck.store.undo import file_stamp

            reviews_changed = point.reviews is not None and file_stamp(self.reviews.index_path) != point.reviews_after
            schedule_path = self.lock_path.parent / SCHEDULE_FILE
            schedule_changed = point.kept_schedule and file_stamp(schedule_path) != point.schedule_after
            if catalogue.stamp() != point.after or reviews_changed or schedule_changed:
                reason = (
                    f"the catalogue changed after the last {point.what} ({point.at[:19].replace('T', ' ')} UTC); "
                    "nothing was undone"
                )
                raise StoreError(catalogue.path, reason)
            papers: dict[str, Paper] = {}
            aliases: dict[str, str] = {}
            if point.before is not None:
                kept = Catalogue(point.before.parent, rows=False)
                kept.load()
                papers, aliases = dict(kept.held_papers), dict(kept.held_aliases)
            notes_then = notes_now = 0
            if point.reviews is not None:  # first: the catalogue written next is what commits the undo
                notes_now = self.reviews.counts()["notes"]
                notes_then = self.reviews.put_back(point.reviews)
            before, before_aliases = catalogue.held_papers, catalogue.held_aliases
            # Papers the change gave a better id (a seed abstract matched to its record) go back
            # to the id they had, and the user's records made under the newer id go with them.
            renamed = {new: old for old, new in before_aliases.items() if old in papers and new in before}
            renamed = {new: old for new, old in renamed.items() if new not in papers}
            catalogue.replace(papers, aliases)
            at = self.now()
            changed = paper_changes(before, papers, {**aliases, **renamed}, (), at)
            taken_away = tuple(pid for pid in before if pid not in papers and pid not in renamed)
            back = set(renamed.values())
            restored = tuple(pid for pid in papers if pid not in before and pid not in back)
            # Counted as the import counted "updated": any field but the files and the date, not
            # only the fields the change log records (a paper's area or keywords set back count).
            from paperdeck.store.merge import same_data

            set_back = {pid for pid, paper in papers.items() if pid in before and not same_data(before[pid], paper)}
            reverted = len(set_back | back)
            new = {change.paper_id for change in changed if change.new}
            self.recorded = [
                *changed,
                *(PaperChange(at, pid, new=True) for pid in restored if pid not in new),
                *(PaperChange(at, pid, gone=True) for pid in taken_away),
            ]
            self.user.reload()
            if moved := {new: old for new, old in renamed.items() if new in self.user.records}:
                self.user.move(moved)
            move_user_data_to_current_ids(catalogue, self.user)
            # The change log as the change left it: cut back to before it, so that what the change
            # recorded (papers it added, as new) goes with it; a log written since records the undo.
            if point.kept_log and file_stamp(self.change_log.path) == point.log_after:
                self.recorded = []
                self.change_log.cut_back(point.log_before)
            else:
                self._record_changes()
        return UndoReport(point.what, point.at, point.summary, restored, taken_away, reverted, self.notices,
                          reviews_back=point.reviews is not None,
                          reviews_taken_away=max(0, notes_now - notes_then))  # fmt: skip

    def _keep_before(self) -> None:
        """Keep the catalogue as it is, for the undo point, before this run first writes it.

        Raises:
            StoreError: it cannot be kept (then the catalogue is not written).
        """
        if self.undo is not None:
            self.undo.keep_before()

    def _record_changes(self) -> None:
        """Append the run's changes to the change log, after the import is committed; a log that
        cannot be written does not undo the import: it becomes a notice line."""
        try:
            self.change_log.append(self.recorded)
        except StoreError as exc:
            self.notices = (f"{exc}; the changes of this import are not recorded",)


def move_user_data_to_current_ids(
    catalogue: Catalogue, user: UserStore, *, reread: bool = False, aliases: Mapping[str, str] | None = None
) -> None:
    """Move every user record kept under an id that is now an alias (a merge gave the paper a
    better id, or the record was written or restored under an old one) to the paper's current
    id, each field combined with a record already there by its rule
    (:func:`paperdeck.store.user_fields.combine_records`). The one way records follow papers.

    Args:
        catalogue: whose aliases (as held: parsed) say which ids are old.
        user: the records.
        reread: re-read the user data changed on disk first (an import; a store just opened
            has just read it, and may be loading in a worker thread).
        aliases: the catalogue's aliases when it is not parsed (an import in place); default:
            those held.

    Raises:
        StoreError: the user data cannot be read or written.
    """
    aliases = catalogue.held_aliases if aliases is None else aliases
    if not aliases:
        return
    if reread:  # records another process wrote under an old id move too
        user.reload()
    orphans = {pid: catalogue.resolve(pid) for pid in user.records if pid in aliases}
    if orphans:
        user.move(orphans)


def _with_review_scores(
    papers: dict[str, Paper], reviews: ReviewStore, *, named: bool = False, read: dict[str, ReviewSummary] | None = None
) -> dict[str, Paper]:
    """``papers`` with each reviewed paper's ratings and confidence taken from its imported
    reviews (:meth:`paperdeck.store.reviews.ReviewStore.summaries`: the reviews themselves
    are the better source), and the decision of a Decision note where it says more than the
    paper's (:func:`paperdeck.store.merge.decision_replaces`: never a decision replaced by none);
    ``papers`` itself when nothing changes. ``named``: only the summaries of these papers are
    read (a few papers of a large store), not every one; ``read``: filled with the summaries read
    for ``papers`` (when ``named``)."""
    if named:
        summaries = reviews.summaries_of(paper.openreview_id for paper in papers.values() if paper.openreview_id)
        if read is not None:
            read.update(summaries)
    else:
        summaries = reviews.summaries()
    if not summaries:
        return papers
    from paperdeck.store.rescoring import scored

    result = papers
    for paper_id, paper in papers.items():
        summary = summaries.get(paper.openreview_id) if paper.openreview_id else None
        if summary is None:
            continue
        new = scored(paper, summary)
        if new is not None:
            if result is papers:
                result = dict(papers)
            result[paper_id] = new
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
    transaction the lock is held until the transaction ends (taken once however often asked).
    Once taken, the leftovers of killed changes are removed
    (:func:`~paperdeck.store.leftovers.remove_leftovers_locked`)."""

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
        # What killed changes left (their undo staging, review generations no index names):
        # theirs no longer, as no other change runs while the lock is held.
        from paperdeck.store.leftovers import remove_leftovers_locked

        remove_leftovers_locked(self._lock.path.parent)
        if txn is not None:
            txn.keep(self._lock)
            return
        self._held = True

    def __exit__(self, *exc: object) -> None:
        if self._held:
            self._held = False
            self._lock.release()
