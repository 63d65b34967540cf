"""A backup restore that changed nothing is not noted in the undo point: the thirteenth round's
tester saw ``Z`` after ``bk.json: user-data backup, 1 record: 0 restored, 1 unchanged`` still warn
that "a backup restore came after the import … the restored marks" (the CLI's ``import --undo``
asked for ``--yes`` alike: one function, :func:`paperdeck.store.undo.restore_came_after`)."""

from __future__ import annotations

from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.backup import read_backup, restore_backup, write_backup
from paperdeck.store.store import Store
from paperdeck.store.undo import restore_came_after


def test_a_restore_that_changed_nothing_is_not_said_to_have_come_after(
    data_dir: Path, seed_files: list[Path], tmp_path: Path
) -> None:
    seeded_store = Store(data_dir)
    import_files(seeded_store, seed_files)  # the import keeps an undo point
    paper_id = seeded_store.paper_ids[0]
    seeded_store.change([paper_id], lambda record: record.replaced(starred=True))
    write_backup(seeded_store, tmp_path / "bk.json")
    report = restore_backup(seeded_store, read_backup(tmp_path / "bk.json"))
    assert (report.restored, report.unchanged) == (0, 1)
    point = seeded_store.undo_point
    assert point is not None and point.restored_at is None and restore_came_after(point) is None
    seeded_store.change([paper_id], lambda record: record.replaced(starred=False))
    assert restore_backup(seeded_store, read_backup(tmp_path / "bk.json")).restored == 1  # this one changed a mark
    point = seeded_store.undo_point
    assert point is not None and point.restored_at and restore_came_after(point)
