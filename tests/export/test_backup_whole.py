"""The user-data backup is whole: follows and saved views go with the marks, a restore adds them in
the same transaction (keeping what the store has already), a backup of the older shape still
restores, and "unchanged" counts only records the store had already (a paper only opened is
restored with its time)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from paperdeck.cli.main import main
from paperdeck.model.errors import StoreError
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import BackupError, backup_json, read_backup, restore_backup
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store


@pytest.fixture
def seeded(tmp_path: Path, seed_files: list[Path]) -> Store:
    store = Store(tmp_path / "data")
    import_files(store, seed_files)
    return store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_follows_and_views_go_into_the_backup_and_come_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tester's steps: follow, back up, import the backup into an empty store."""
    first, empty, backup = str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "b.json")
    run(capsys, "--data-dir", first, "follow", "keyword", "diffusion")
    run(capsys, "--data-dir", first, "follow", "author", "Jane Doe")
    SettingsFile(Path(first)).save_view("Orals", "decision:oral")
    said = run(capsys, "--data-dir", first, "export", "--user-data", "-o", backup)
    assert said == f"backed up 0 records, 2 follows, 1 saved view to {backup}\n"
    said = run(capsys, "--data-dir", empty, "import", backup)
    assert "2 follows: 2 added, 0 already there; 1 saved view: 1 added, 0 already there" in said
    following = run(capsys, "--data-dir", empty, "following", "--json")
    followed = [(f["kind"], f["value"]) for f in json.loads(following)]
    assert followed == [("keyword", "diffusion"), ("author", "Jane Doe")]
    assert SettingsFile(Path(empty)).settings.views == {"Orals": "decision:oral"}


def test_a_follow_or_view_already_there_is_kept_as_it_is(seeded: Store, tmp_path: Path) -> None:
    seeded.follows.add("keyword", "diffusion")
    SettingsFile(seeded.data_dir).save_view("Orals", "decision:oral")
    SettingsFile(seeded.data_dir).save_view("Mine", "is:starred")
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    fresh = Store(tmp_path / "fresh")
    fresh.follows.add("keyword", "DIFFUSION")
    fresh.follows.add("author", "Jane Doe")
    SettingsFile(fresh.data_dir).save_view("orals", "decision:oral rating>=6")
    report = restore_backup(fresh, read_backup(path))
    assert (report.follows_added, report.follows_kept, report.views_added, report.views_kept) == (0, 1, 1, 1)
    assert [(f.kind, f.value) for f in Store(fresh.data_dir).follows.all()] == [
        ("keyword", "DIFFUSION"),
        ("author", "Jane Doe"),
    ]
    assert SettingsFile(fresh.data_dir).settings.views == {"orals": "decision:oral rating>=6", "Mine": "is:starred"}


def test_a_backup_of_the_older_shape_still_restores(seeded: Store, tmp_path: Path) -> None:
    paper = seeded.papers[0].id
    seeded.set_star(paper, True)
    document = json.loads(backup_json(seeded))
    del document["follows"], document["views"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    fresh = Store(tmp_path / "fresh")
    report = restore_backup(fresh, read_backup(path))
    assert (report.restored, report.follows_added, report.views_added) == (1, 0, 0)
    assert report.summary() == (
        "1 record: 1 restored, 0 unchanged; it is for a paper not in the store yet (kept for when it is imported)"
    )
    assert fresh.user_data(paper).starred and fresh.follows.all() == ()


def test_a_paper_only_opened_is_restored_not_unchanged(seeded: Store, tmp_path: Path) -> None:
    opened, starred = seeded.papers[0].id, seeded.papers[1].id
    seeded.set_looked(opened)
    seeded.set_star(starred, True)
    looked = seeded.user_data(opened).looked
    assert looked
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    fresh = Store(tmp_path / "fresh")
    report = restore_backup(fresh, read_backup(path))
    assert (report.restored, report.unchanged) == (2, 0)
    assert Store(fresh.data_dir).user_data(opened).looked == looked
    again = restore_backup(fresh, read_backup(path))
    assert (again.restored, again.unchanged) == (0, 2)


def test_follows_views_and_marks_are_restored_together_or_not_at_all(seeded: Store, tmp_path: Path) -> None:
    seeded.set_star(seeded.papers[0].id, True)
    seeded.follows.add("keyword", "diffusion")
    SettingsFile(seeded.data_dir).save_view("Orals", "decision:oral")
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "config.json").write_text("{not json", encoding="utf-8")  # settings it cannot write
    with pytest.raises(StoreError, match="nothing was restored"):
        restore_backup(Store(fresh), read_backup(path))
    again = Store(fresh)
    assert again.all_user_data == {} and again.follows.all() == ()


@pytest.mark.parametrize(
    ("follows", "views", "said"),
    [
        ('"x"', "{}", '"follows" is not a list'),
        ('[{"kind": "planet", "value": "Mars"}]', "{}", "follow 1: kind 'planet'"),
        ('[{"kind": "author", "value": "A", "added": "yesterday"}]', "{}", "follow 1:"),
        ("[]", '{"Orals": 3}', "view 'Orals': its query is not text"),
        ("[]", "[]", '"views" is not an object'),
    ],
)
def test_a_malformed_follow_or_view_refuses_the_backup(tmp_path: Path, follows: str, views: str, said: str) -> None:
    path = tmp_path / "backup.json"
    path.write_text(
        f'{{"paperdeck": "user-data backup", "schema": 1, "records": [], "follows": {follows}, "views": {views}}}',
        encoding="utf-8",
    )
    with pytest.raises(BackupError, match=re.escape(said)):
        read_backup(path)
