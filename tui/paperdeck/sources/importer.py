"""Import paper-list files into the store: every file read first, then one merge, all or nothing."""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from paperdeck import runtime
from paperdeck.model.counts import counted
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import file_name, one_line
from paperdeck.sources import read_source
from paperdeck.sources.base import (
    BytesTold,
    RecordsTold,
    Skip,
    SourceRead,
    reading_ahead,
    telling_bytes,
    telling_records,
)
from paperdeck.sources.validate import Checked, check_read
from paperdeck.store.atomic import not_a_file
from paperdeck.store.backup import RestoreReport, restore_backup
from paperdeck.store.import_run import joined_text
from paperdeck.store.reviews import ReviewImport, ReviewSpill, StagedWords
from paperdeck.store.schedule import ScheduleImport
from paperdeck.store.store import ImportReport, Store

#: Called before each file is read: ``(index, total, path)``.
Progress = Callable[[int, int, Path], None]
#: Called as what the files held is merged, once they are read: ``(what, done, total)``, what
#: being ``"papers"`` (once, before the papers are merged: ``done`` 0), then, for reviews, those
#: of :data:`~paperdeck.store.reviews.MergeProgress` (``"reviews"`` once a shard of the reviews
#: read is merged: how many of them are, of how many; the word index, the papers' scores).
Merging = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import did.

    Attributes:
        files: the files read, with their detected formats and paper counts.
        new, updated, unchanged: papers added, changed and found as they were.
        joined: papers the library held twice that the import joined to the paper they duplicated.
        skipped: records passed over, by reason.
        dropped: values dropped at the import boundary (the field left unknown), by reason
            (``"non-finite rating"``: :mod:`paperdeck.sources.validate`).
        notices: one-line remarks (e.g. a file with no papers).
        restored: the user-data backups restored (:mod:`paperdeck.store.backup`), as ``(path, report)``.
        reviews: what the reviews import did (:mod:`paperdeck.store.reviews`), ``None`` when the
            files held no reply notes (those are then not counted as skipped).
        new_ids: the ids of the papers added (:attr:`paperdeck.store.store.ImportReport.new_ids`).
        schedule: what the programme's events did (:mod:`paperdeck.store.schedule`), ``None`` when
            the files held none.
        file_reviews: the reply notes (reviews and comments) read from each of ``files``, in order.
        skipped_where: where the first :data:`NAMED_SKIPS` records of each reason of ``skipped``
            are, file and place (``"papercopilot_iclr2017.json record 302, id SJUdkecgx"``), so
            that the summary names them.
    """

    files: tuple[tuple[str, str, int], ...] = ()
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    joined: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    notices: tuple[str, ...] = ()
    restored: tuple[tuple[str, RestoreReport], ...] = ()
    reviews: ReviewImport | None = None
    new_ids: tuple[str, ...] = ()
    schedule: ScheduleImport | None = None
    file_reviews: tuple[int, ...] = ()
    skipped_where: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def summary(self) -> str:
        """``"19,630 new, 0 updated, 0 unchanged, 1 skipped (1 record without a title:
        papercopilot_iclr2017.json record 302, id SJUdkecgx)"``, with ``", 12 papers joined with
        the paper they duplicated"`` after the unchanged when the import joined any: each reason
        with where its first records are (``"and 48 more"``), then what was dropped, when anything
        was: ``", 2 values dropped (1 non-finite rating; 1 non-finite confidence)"``."""
        text = f"{self.new:,} new, {self.updated:,} updated, {self.unchanged:,} unchanged" + joined_text(self.joined)
        total = sum(self.skipped.values())
        text += f", {total:,} skipped"
        if total:
            reasons = "; ".join(
                counted(count, reason, _PLURAL_REASONS.get(reason, reason)) + self._where(reason, count)
                for reason, count in self.skipped.most_common()
            )
            text += f" ({reasons})"
        total = sum(self.dropped.values())
        if total:
            reasons = "; ".join(f"{count:,} {reason}" for reason, count in self.dropped.most_common())
            text += f", {counted(total, 'value')} dropped ({reasons})"
        if self.reviews is not None:
            text += f"; {self.reviews.summary()}"
        if self.schedule is not None:
            text += f"; {self.schedule.summary()}"
        return text

    def _where(self, reason: str, count: int) -> str:
        """``": a.json record 302, b.bib line 9 and 4 more"``: where the records skipped for
        ``reason`` are, each with its file's name."""
        where = self.skipped_where.get(reason, ())
        if not where:
            return ""
        more = f" and {count - len(where):,} more" if count > len(where) else ""
        return f": {', '.join(where)}{more}"


#: How many records of each skip reason the summary names.
NAMED_SKIPS = 3


def _skip_where(skip: Skip, path: Path) -> str:
    """Where a skipped record is: its file's name and its place in it, with its id when its reason
    gives one (``"papercopilot_iclr2017.json record 302, id X"``)."""
    found = _REASON_ID.search(skip.reason)
    where = f"{file_name(path.name)} {skip.position}"
    return one_line(f"{where}, id {found.group(1)}" if found else where)


#: The id a skip reason gives, ``"(id X)"``.
_REASON_ID = re.compile(r"\(id ([^)\s]+)\)")


def read_files(
    paths: Sequence[Path], format: str | None = None, progress: Progress | None = None, venue: str = ""
) -> list[SourceRead]:
    """Read every file (in ``format``, or each one's detected format), in order, each checked and
    normalised at the import boundary (:func:`paperdeck.sources.validate.check_read`).

    Args:
        paths: the paper-list files.
        format: a ``--format`` name (:data:`paperdeck.sources.FORMAT_NAMES`), ``None`` to detect.
        progress: called before each file is read.
        venue: the venue of the papers whose file names none (``--venue``,
            :func:`paperdeck.sources.validate.check_read`); ``""``: none given.

    Returns:
        One :class:`SourceRead` per path, in order (a user-data backup's has no papers and
        :attr:`SourceRead.backup` set).

    Raises:
        SourceError: a file cannot be read, is not a regular file, or holds a value over its size
            limit; raised before anything is imported.
    """
    return [checked.read for checked in _read_checked(paths, format, progress, venue=venue)]


def _read_checked(
    paths: Sequence[Path],
    format: str | None,
    progress: Progress | None,
    on_read: Callable[[SourceRead], SourceRead | None] | None = None,
    venue: str = "",
    told: BytesTold | None = None,
    records: RecordsTold | None = None,
) -> list[Checked]:
    """Each path read and checked, in order (``venue``: the one given for papers whose file names
    none); ``on_read`` sees each read as it is made, and what it returns (when not ``None``) is
    kept instead (the read without what it took); ``told`` how far a gzip file's reading is
    (:func:`paperdeck.sources.base.telling_bytes`), after ``progress`` named the file, and
    ``records`` how far the parse of its records is (:func:`paperdeck.sources.base.telling_records`)."""
    checked = []
    snapshot: tuple[Path, str] | None = None  # the first snapshot file read, and its conference
    with reading_ahead() as ahead, telling_bytes(told), telling_records(records):
        for index, path in enumerate(paths):
            if progress is not None:
                progress(index, len(paths), path)
            check_regular_file(path)
            checked.append(check_read(read_source(path, format), venue))
            if index + 1 < len(paths) and on_read is None:
                # decompressed while this one is checked: not while it is read, so that this
                # file's bytes and the next one's are never both held
                ahead(paths[index + 1])
            snapshot = _one_conference(checked[-1].read, snapshot)
            if on_read is not None and (kept := on_read(checked[-1].read)) is not None:
                checked[-1] = replace(checked[-1], read=kept)
                # what the read held (its bytes, records, reviews) is freed: given back, so that
                # the next file's does not come on top of what the C library kept of it
                runtime.release_freed_memory()
            if index + 1 < len(paths) and on_read is not None:
                # decompressed once this one's reviews are put aside (``on_read``): never beside them
                ahead(paths[index + 1])
    return checked


def _one_conference(read: SourceRead, first: tuple[Path, str] | None) -> tuple[Path, str] | None:
    """The first Paper Copilot snapshot of an import and its conference, once ``read`` is checked
    against it (:mod:`paperdeck.sources.papercopilot`: one conference's snapshots build one
    history).

    Raises:
        SourceError: ``read`` is a snapshot of another conference than ``first``.
    """
    from paperdeck.sources.papercopilot import snapshot_day

    if read.format != "papercopilot" or not read.reviews or not read.papers or snapshot_day(read.path) is None:
        return first
    paper = read.papers[0]
    conference = f"{paper.venue} {paper.year or ''}".strip()
    if first is None:
        return (read.path, conference)
    if conference != first[1]:
        reason = (
            f"a Paper Copilot snapshot of {one_line(conference)}, but {one_line(first[0].name)} is one of "
            f"{one_line(first[1])}: import the snapshots of one conference together"
        )
        raise SourceError(read.path, reason)
    return first


def distinct_files(paths: Sequence[Path]) -> tuple[list[Path], tuple[str, ...]]:
    """``paths`` with each file once, in the order first named, and a notice for each file named
    more than once (``"000_….txt was named 2 times; read once"``): the same path twice, or two
    spellings of one file (``./a.json`` and ``a.json``, a link and its target), as a shell's
    overlapping patterns give. Read twice, it was listed twice in the import's report and
    counted twice in its undo summary, though it added nothing. A path that cannot be looked
    up is kept as it is (its reader says why)."""
    kept: list[Path] = []
    seen: dict[tuple[int, int] | Path, int] = {}
    named: list[int] = []
    for path in paths:
        try:
            info = os.stat(path)
            key: tuple[int, int] | Path = (info.st_dev, info.st_ino)
        except OSError:
            key = path
        if key in seen:
            named[seen[key]] += 1
            continue
        seen[key] = len(kept)
        kept.append(path)
        named.append(1)
    notices = tuple(
        f"{file_name(path)} was named {times} times; read once"
        for path, times in zip(kept, named, strict=True)
        if times > 1
    )
    return kept, notices


def check_regular_file(path: Path) -> None:
    """Refuse a path that is a FIFO, a device or a socket: ``/dev/zero`` never ends, a FIFO may
    never be written to. A missing path or a directory is left to the readers (they say so).

    Raises:
        SourceError: ``path`` exists and is neither a regular file nor a directory.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise SourceError(path, f"{not_a_file(mode)}; paperdeck imports only files")


def import_files(
    store: Store,
    paths: Sequence[Path],
    format: str | None = None,
    progress: Progress | None = None,
    venue: str = "",
    merging: Merging | None = None,
    told: BytesTold | None = None,
    records: RecordsTold | None = None,
) -> ImportSummary:
    """Read all ``paths``, then merge their papers into ``store`` in one catalogue write.

    ``progress`` is told before each file is read, ``told`` how far a gzip file's reading is
    (``done`` of its ``size`` compressed bytes: a review part takes seconds), ``records`` how far
    the parse of a file's records is, after its bytes (``done`` of its ``total`` records, a batch
    at a time: the parse is most of a review part's reading), ``merging`` as what
    they held is merged (the reviews a shard at a time: a large file's reviews take seconds to
    merge).

    ``venue`` (``paperdeck import --venue "COLM 2025"``) is the venue of the papers whose file
    names none; when none is given, each file with such papers gets one notice naming it and
    suggesting ``--venue`` (:func:`no_venue_notice`).

    A paperdeck user-data backup among ``paths`` (the ``"backup"`` row of
    :data:`paperdeck.sources.FORMATS`, read whatever ``format`` says) is restored instead, after the
    papers are imported (so its records find them).

    Raises:
        SourceError: a file cannot be read or is not a regular file (a FIFO, a device), a value
            is over its size limit, or a backup is malformed (``BackupError``); nothing
            at all was imported or restored.
        StoreError: the catalogue, the reviews or the user data cannot be written; nothing
            changed (papers and reviews are one transaction; when a backup cannot be restored,
            the papers read with it stay imported). The reason says which is true.
    """
    for path in paths:
        check_regular_file(path)  # every path, before any is read
    paths, repeated = distinct_files(paths)
    staged: list[StagedWords] = []  # the reviews' words, folded while the next files are read
    # The reviews read are put aside by shard as each file is read, and merged a batch of shards
    # at a time: never every note of every file held at once.
    spill = ReviewSpill(store.data_dir)
    spilled: dict[int, int] = {}  # ids of the reads whose reviews were put aside: how many

    def stage(read: SourceRead) -> SourceRead | None:
        if not read.reviews:
            return None
        if not staged:
            staged.append(store.reviews.stage_words())
        staged[0].add(read.reviews)
        spill.add(read.reviews)
        # kept without its reviews (put aside) and the skips of its reply notes (not counted as
        # skipped records when the file had reviews; one per note, else held to the end)
        kinds = [skip for skip in read.skipped if _reason_kind(skip.reason) != "reply note"]
        kept = replace(read, reviews=(), skipped=tuple(kinds))
        spilled[id(kept)] = len(read.reviews)
        return kept

    # Reading a conference makes millions of objects: no collector pass walks them all meanwhile.
    with runtime.collector_paused():
        try:
            checked = _read_checked(paths, format, progress, stage, venue, told, records)
            backups = [item.read.backup for item in checked if item.read.backup is not None]
            # the paper lists (one may carry marks too: paperdeck's CSV export)
            checked = [item for item in checked if item.read.backup is None or item.read.papers]
            reads = [item.read for item in checked]
            papers: list[Paper] = [paper for read in reads for paper in read.papers]
            events = [event for read in reads for event in read.events]
            # Files of reviews (or a programme) only leave the papers as they are: no merge of the
            # whole catalogue for none.
            merge = bool(reads or not backups) and bool(papers or not (spill.count or events))
            # One change `paperdeck import --undo` takes back, written as one transaction: the
            # papers and their reviews, both or neither.
            with store.undoable("import") as undo, store.transaction():
                if merging is not None and merge and papers:
                    merging("papers", 0, len(papers))
                report = store.import_papers(papers) if merge else ImportReport()
                files = tuple((str(read.path), read.format, len(read.papers)) for read in reads)
                file_reviews = tuple(spilled.get(id(read), 0) for read in reads)
                # a file of reviews alone says so on its own line (files, file_reviews), not a notice too
                notices = tuple(
                    read.notice for read in reads if read.notice and not (id(read) in spilled and not read.papers)
                ) + tuple(notice for read in reads if (notice := no_venue_notice(read)))
                skipped: Counter[str] = Counter()
                skipped_where: dict[str, tuple[str, ...]] = {}
                dropped: Counter[str] = Counter()
                for item in checked:
                    # reply notes read as reviews are counted there, not as skipped records
                    had_reviews = id(item.read) in spilled
                    for skip in item.read.skipped:
                        reason = _reason_kind(skip.reason)
                        if had_reviews and reason == "reply note":
                            continue
                        skipped[reason] += 1
                        if len(where := skipped_where.get(reason, ())) < NAMED_SKIPS:
                            skipped_where[reason] = (*where, _skip_where(skip, item.read.path))
                    dropped.update(item.dropped)
                # The papers read are merged: let go of before the reviews are (a review file's
                # submissions are papers too: ~100 MB at five times a conference).
                had_papers = bool(papers)
                del checked, reads, papers
                staged_words = staged[0] if staged else None
                # the reviews of the papers this import added are how it found them: not changes
                review_report = (
                    store.import_reviews(spill, staged_words, report.new_ids, merging) if spill.count else None
                )
                # the programme's events join the papers as they are after this import's merge
                schedule_report = store.import_events(events) if events else None
                if events and not (had_papers or spill.count):
                    # A programme alone changes no paper: the undo point left would take back the
                    # import before it, behind the user's back. Dropped with this change: an undo
                    # now says there is nothing to undo.
                    from paperdeck.store.undo import drop_undo_point

                    drop_undo_point(store.data_dir)
                    undo.discard()  # and this change makes none
                undo.summary = _undo_summary(report, review_report, len(files))
                undo.new_ids = report.new_ids  # the papers an undo takes away: the user's marks on them named
        finally:
            for words in staged:
                words.close()
            staged.clear()
            spill.close()
        if review_report is not None:  # review versions left out of the notes' histories
            skipped.update(dict(review_report.skipped))
        del events  # freed now: the collector, back on, finds little to walk
    restored = tuple((str(backup.path), restore_backup(store, backup)) for backup in backups)
    return ImportSummary(
        files=files,
        file_reviews=file_reviews,
        new=report.new,
        updated=report.updated,
        unchanged=report.unchanged,
        joined=report.joined,
        skipped=skipped,
        skipped_where=skipped_where,
        dropped=dropped,
        notices=(*repeated, *notices, *report.notices, *(review_report.notices if review_report else ())),
        restored=restored,
        reviews=review_report,
        new_ids=report.new_ids,
        schedule=schedule_report,
    )


def no_venue_notice(read: SourceRead) -> str:
    """One line when papers of ``read`` have no venue (neither the file nor ``--venue`` named
    one): ``"mylist.json: its 418 papers name no venue, nor does the file's name; name it with
    --venue, as in: paperdeck import --venue "COLM 2025" mylist.json"``; ``""`` when every paper has one."""
    missing = sum(1 for paper in read.papers if not paper.venue)
    if not missing:
        return ""
    name = file_name(read.path.name)
    which = f"its {counted(missing, 'paper')}" if missing == len(read.papers) else f"{missing:,} of its papers"
    verb = "names" if missing == 1 else "name"
    return (
        f"{name}: {which} {verb} no venue, nor does the file's name; "
        f'name it with --venue, as in: paperdeck import --venue "COLM 2025" {name}'
    )


def _undo_summary(report: ImportReport, reviews: ReviewImport | None, files: int) -> str:
    """What an import did, as its undo point says it: ``"2 files: 37 new, 1 updated"``, then
    ``"; reviews: 51 new, 1 updated"`` when it brought reviews."""
    text = f"{counted(files, 'file')}: {report.new:,} new, {report.updated:,} updated"
    if reviews is not None:
        text += f"; reviews: {reviews.new:,} new, {reviews.updated:,} updated"
    return text


#: Skip reasons (:func:`_reason_kind`) said of more than one record.
_PLURAL_REASONS = {
    "reply note": "reply notes",
    "note without a title": "notes without a title",
    "no title": "records without a title",
    "record without a title": "records without a title",
}


def _reason_kind(reason: str) -> str:
    """A skip reason without its specifics, for counting (``"reply note (X)"`` → ``"reply note"``)."""
    return reason.split(" (", 1)[0].split(":", 1)[0].strip()
