"""Import paper-list files into the store: every file read first, then one merge, all or nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper
from paperdeck.sources import read_source
from paperdeck.sources.base import SourceRead
from paperdeck.store.backup import RestoreReport, UserDataBackup, is_backup, read_backup, restore_backup
from paperdeck.store.store import ImportReport, Store

#: Longest title and abstract accepted, in characters (far above any real paper's).
MAX_TITLE_CHARS = 2_000
MAX_ABSTRACT_CHARS = 100_000

#: Called before each file is read: ``(index, total, path)``.
Progress = Callable[[int, int, Path], None]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import did.

    Attributes:
        files: the files read, with their detected formats and paper counts.
        new, updated, unchanged: papers added, changed and found as they were.
        skipped: records passed over, by reason.
        notices: one-line remarks (e.g. a file with no papers).
        restored: the user-data backups restored (:mod:`paperdeck.store.backup`), as ``(path, report)``.
    """

    files: tuple[tuple[str, str, int], ...] = ()
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    notices: tuple[str, ...] = ()
    restored: tuple[tuple[str, RestoreReport], ...] = ()

    def summary(self) -> str:
        """``"19630 new, 0 updated, 0 unchanged, 51 skipped (51 reply note)"``."""
        text = f"{self.new} new, {self.updated} updated, {self.unchanged} unchanged"
        total = sum(self.skipped.values())
        text += f", {total} skipped"
        if total:
            reasons = "; ".join(f"{count} {reason}" for reason, count in self.skipped.most_common(4))
            more = len(self.skipped) - 4
            text += f" ({reasons}{f'; {more} other reasons' if more > 0 else ''})"
        return text


def read_files(paths: Sequence[Path], format: str | None = None, progress: Progress | None = None) -> list[SourceRead]:
    """Read every file (in ``format``, or each one's detected format), in order.

    Args:
        paths: the paper-list files.
        format: a ``--format`` name (:data:`paperdeck.sources.FORMAT_NAMES`), ``None`` to detect.
        progress: called before each file is read.

    Returns:
        One :class:`SourceRead` per path, in order.

    Raises:
        SourceError: a file cannot be read; raised before anything is imported.
    """
    reads = []
    for index, path in enumerate(paths):
        if progress is not None:
            progress(index, len(paths), path)
        read = read_source(path, format)
        _check_sizes(read)
        reads.append(read)
    return reads


def _check_sizes(read: SourceRead) -> None:
    """Refuse papers no real list has: an "abstract" of megabytes is a broken file, and showing or
    indexing it would stall the app.

    Raises:
        SourceError: a title or abstract over the limits, naming the paper.
    """
    for number, paper in enumerate(read.papers, start=1):
        for name, text, limit in (
            ("title", paper.title, MAX_TITLE_CHARS),
            ("abstract", paper.abstract, MAX_ABSTRACT_CHARS),
        ):
            if len(text) > limit:
                raise SourceError(
                    read.path,
                    f"paper {number} ({paper.id}): its {name} has {len(text):,} characters, "
                    f"more than the {limit:,} a real one has; is the file broken?",
                )


def import_files(
    store: Store,
    paths: Sequence[Path],
    format: str | None = None,
    progress: Progress | None = None,
) -> ImportSummary:
    """Read all ``paths``, then merge their papers into ``store`` in one catalogue write.

    A paperdeck user-data backup among ``paths`` (:func:`paperdeck.store.backup.is_backup`, whatever
    ``format`` says) is restored instead, after the papers are imported (so its records find them).

    Raises:
        SourceError: a file cannot be read, or a backup is malformed (``BackupError``); nothing
            at all was imported or restored.
        StoreError: the catalogue or the user data cannot be written; nothing changed (when a
            backup cannot be restored, the papers read with it stay imported).
    """
    backup_paths = [path for path in paths if is_backup(path)]
    list_paths = [path for path in paths if path not in backup_paths]
    backups: list[UserDataBackup] = [read_backup(path) for path in backup_paths]
    reads = read_files(list_paths, format, progress)
    papers: list[Paper] = [paper for read in reads for paper in read.papers]
    report = store.import_papers(papers) if reads or not backups else ImportReport()
    restored = tuple((str(backup.path), restore_backup(store, backup)) for backup in backups)
    skipped: Counter[str] = Counter()
    for read in reads:
        skipped.update(_reason_kind(skip.reason) for skip in read.skipped)
    return ImportSummary(
        files=tuple((str(read.path), read.format, len(read.papers)) for read in reads),
        new=report.new,
        updated=report.updated,
        unchanged=report.unchanged,
        skipped=skipped,
        notices=tuple(read.notice for read in reads if read.notice),
        restored=restored,
    )


def _reason_kind(reason: str) -> str:
    """A skip reason without its specifics, for counting (``"reply note (X)"`` → ``"reply note"``)."""
    return reason.split(" (", 1)[0].split(":", 1)[0].strip()
