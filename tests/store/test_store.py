"""The store: catalogue and user data apart, atomic durable writes, re-import keeps the user's data."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.atomic import TEMP_PREFIX, TEMP_SUFFIX
from paperdeck.store.store import CATALOGUE_FILE, LEGACY_USER_FILE, Store
from paperdeck.store.user_data import SHARDS, doc_id_for

FIXED_TIME = "2026-11-29T12:00:00+00:00"


def shard_of(data_dir: Path, paper_id: str) -> Path:
    return data_dir / "user" / f"{doc_id_for(paper_id) % SHARDS:02x}.json"


def make_store(path: Path) -> Store:
    return Store(path, now=lambda: FIXED_TIME)


def paper(n: int, **fields: object) -> Paper:
    base: dict[str, object] = {"id": f"abs:{n:016x}", "title": f"Paper {n}", "abstract": f"Abstract {n}."}
    base.update(fields)
    return Paper(**base)  # type: ignore[arg-type]


def test_first_import_of_the_seeds_gives_37_papers_with_distinct_titles(data_dir: Path, seed_files: list[Path]) -> None:
    store = make_store(data_dir)
    report = import_files(store, seed_files)
    assert (report.new, report.updated, report.unchanged) == (37, 0, 0)
    assert len(store.papers) == 37
    titles = [p.title for p in store.papers]
    assert len(set(titles)) == 37 and all(titles)
    shared = [p for p in store.papers if len(p.sources) == 2]
    assert len(shared) == 1
    assert set(shared[0].sources) == {f.name for f in seed_files}


def test_catalogue_and_user_data_round_trip(data_dir: Path, seed_files: list[Path]) -> None:
    store = make_store(data_dir)
    import_files(store, seed_files)
    first, second = store.papers[0].id, store.papers[5].id
    store.set_star(first, True)
    store.set_note(second, "read §3 — the bound is *tight*")
    again = make_store(data_dir)
    assert [p.to_dict() for p in again.papers] == [p.to_dict() for p in store.papers]
    assert again.user_data(first).starred
    assert again.user_data(second).note == "read §3 — the bound is *tight*"
    assert again.user_data(second).created == FIXED_TIME


def test_reimport_keeps_stars_and_notes_and_is_idempotent(data_dir: Path, seed_files: list[Path]) -> None:
    store = make_store(data_dir)
    import_files(store, seed_files)
    target = store.papers[3].id
    store.set_star(target, True)
    store.set_note(target, "keep me")
    report = import_files(make_store(data_dir), seed_files)
    assert (report.new, report.updated, report.unchanged) == (0, 0, 37)
    reopened = make_store(data_dir)
    assert reopened.user_data(target).starred
    assert reopened.user_data(target).note == "keep me"


def test_renamed_and_rewrapped_file_keeps_the_users_data(data_dir: Path, tmp_path: Path) -> None:
    original = tmp_path / "list.txt"
    original.write_text("ICLR 2026 论文列表\n\nWe propose FooNet, a network for foo tasks.\n", "utf-8")
    store = make_store(data_dir)
    import_files(store, [original])
    paper_id = store.papers[0].id
    store.set_star(paper_id, True)
    moved = tmp_path / "elsewhere" / "renamed.txt"
    moved.parent.mkdir()
    moved.write_text("ICLR 2026\n\nWe propose FooNet,\na network for   foo tasks.\n", "utf-8")
    import_files(store, [moved])
    assert [p.id for p in store.papers] == [paper_id]
    assert store.papers[0].sources == ("list.txt", "renamed.txt")
    assert make_store(data_dir).user_data(paper_id).starred


def test_starring_never_rewrites_the_catalogue(data_dir: Path) -> None:
    store = make_store(data_dir)
    store.import_papers([paper(1), paper(2)])
    before = (store.catalogue_path.stat().st_mtime_ns, store.catalogue_path.read_bytes())
    store.toggle_star(paper(1).id)
    store.set_note(paper(2).id, "n")
    assert (store.catalogue_path.stat().st_mtime_ns, store.catalogue_path.read_bytes()) == before


def test_user_data_is_keyed_by_paper_derived_document_ids(data_dir: Path) -> None:
    store = make_store(data_dir)
    store.import_papers([paper(1)])
    store.set_star(paper(1).id, True)
    raw = json.loads(shard_of(data_dir, paper(1).id).read_text("utf-8"))
    assert list(raw["user"]) == [str(doc_id_for(paper(1).id))]
    assert raw["user"][str(doc_id_for(paper(1).id))]["paper_id"] == paper(1).id


def test_unstar_and_empty_note_remove_the_record(data_dir: Path) -> None:
    store = make_store(data_dir)
    pid = paper(1).id
    store.set_star(pid, True)
    store.set_note(pid, "x")
    store.set_star(pid, False)
    assert store.user_data(pid).note == "x"
    store.set_note(pid, "   \n")
    assert store.user_data(pid).is_empty
    assert json.loads(shard_of(data_dir, pid).read_text("utf-8"))["user"] == {}


def test_files_are_private(data_dir: Path) -> None:
    store = make_store(data_dir)
    store.set_star(paper(1).id, True)
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((data_dir / "user").stat().st_mode) == 0o700
    assert stat.S_IMODE(shard_of(data_dir, paper(1).id).stat().st_mode) == 0o600


def test_stray_temp_files_are_cleaned_at_start(data_dir: Path) -> None:
    make_store(data_dir)
    stray = data_dir / f"{TEMP_PREFIX}abc{TEMP_SUFFIX}"
    stray.write_text("{half", "utf-8")
    fresh = data_dir / f"{TEMP_PREFIX}live{TEMP_SUFFIX}"  # another live writer's, about to be renamed
    fresh.write_text("{", "utf-8")
    os.utime(stray, (1_000_000_000, 1_000_000_000))
    make_store(data_dir)
    assert not stray.exists()
    assert fresh.exists()


def test_corrupt_user_file_is_refused_and_left_untouched(data_dir: Path) -> None:
    store = make_store(data_dir)
    store.set_star(paper(1).id, True)
    path = shard_of(data_dir, paper(1).id)
    path.write_bytes(b'{"user": {"1": {"paper_id": "abs:')
    with pytest.raises(StoreError) as caught:
        make_store(data_dir)
    assert str(path) in str(caught.value) and "not valid JSON" in str(caught.value)
    assert path.read_bytes() == b'{"user": {"1": {"paper_id": "abs:'


def test_store_from_a_newer_version_is_refused(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / CATALOGUE_FILE).write_text(
        json.dumps({"meta": {"1": {"app": "paperdeck", "schema": 99}}, "papers": {}}), "utf-8"
    )
    with pytest.raises(StoreError, match="newer paperdeck"):
        make_store(data_dir)


def test_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x", "utf-8")
    with pytest.raises(StoreError, match="is a file"):
        make_store(path)


def test_failed_write_changes_nothing(data_dir: Path) -> None:
    store = make_store(data_dir)
    target = next(
        p for p in (paper(n) for n in range(2, 500)) if shard_of(data_dir, p.id) != shard_of(data_dir, paper(1).id)
    )
    store.set_star(paper(1).id, True)
    shard = shard_of(data_dir, target.id)
    before = {p: p.read_bytes() for p in (data_dir / "user").glob("*.json")}
    if os.geteuid() == 0:
        # root ignores directory permissions: make the write fail by putting a directory in the way.
        shard.mkdir()
        with pytest.raises(StoreError):
            store.set_star(target.id, True)
        shard.rmdir()
    else:
        (data_dir / "user").chmod(0o500)
        try:
            with pytest.raises(StoreError, match="cannot write"):
                store.set_star(target.id, True)
        finally:
            (data_dir / "user").chmod(0o700)
    assert {p: p.read_bytes() for p in (data_dir / "user").glob("*.json")} == before
    assert not store.user_data(target.id).starred
    assert not list((data_dir / "user").glob(f"{TEMP_PREFIX}*"))


def test_kill_9_right_after_a_star_leaves_a_store_that_holds_it(data_dir: Path) -> None:
    store = make_store(data_dir)
    store.import_papers([paper(n) for n in range(50)])
    script = textwrap.dedent(
        f"""
        import sys, time
        from paperdeck.store.store import Store
        store = Store({str(data_dir)!r})
        store.set_star({paper(7).id!r}, True)
        print("starred", flush=True)
        time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "starred"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    reopened = make_store(data_dir)
    assert reopened.user_data(paper(7).id).starred
    assert len(reopened.papers) == 50


def test_schema_1_single_user_file_is_migrated_with_a_backup(data_dir: Path) -> None:
    """The old layout kept every star and note in one user.json: it moves into shards, and a
    timestamped copy of the old file stays next to it."""
    data_dir.mkdir(mode=0o700)
    old = {
        "meta": {"1": {"app": "paperdeck", "schema": 1}},
        "user": {
            str(doc_id_for(paper(1).id)): {
                "paper_id": paper(1).id,
                "starred": True,
                "note": "",
                "created": "c",
                "updated": "u",
            },
            str(doc_id_for(paper(2).id)): {
                "paper_id": paper(2).id,
                "starred": False,
                "note": "kept",
                "created": "c",
                "updated": "u",
            },
        },
    }
    raw = json.dumps(old).encode("utf-8")
    (data_dir / LEGACY_USER_FILE).write_bytes(raw)
    store = make_store(data_dir)
    assert store.user_data(paper(1).id).starred
    assert store.user_data(paper(2).id).note == "kept"
    assert not (data_dir / LEGACY_USER_FILE).exists()
    backups = list(data_dir.glob(f"{LEGACY_USER_FILE}.bak-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == raw
    reopened = make_store(data_dir)
    assert reopened.user_data(paper(1).id).starred and reopened.user_data(paper(2).id).note == "kept"


def test_another_process_changes_are_noticed_on_reload(data_dir: Path) -> None:
    first, second = make_store(data_dir), make_store(data_dir)
    second.set_star(paper(3).id, True)
    assert not first.user_data(paper(3).id).starred
    assert first.reload_user_data() is True
    assert first.user_data(paper(3).id).starred
    assert first.reload_user_data() is False


def test_an_atomic_write_goes_through_a_fresh_private_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file is named for the stray-file cleaning, made by this write alone (a name
    already there is passed over, never opened), private, and gone once the file is replaced."""
    from paperdeck.store import atomic

    taken = tmp_path / f"{TEMP_PREFIX}{bytes(8).hex()}{TEMP_SUFFIX}"
    taken.write_bytes(b"another writer's")
    draws = iter([bytes(8), bytes(8), b"\x01" * 8])
    monkeypatch.setattr(atomic.os, "urandom", lambda n: next(draws))
    made: list[tuple[str, int]] = []
    real_replace = os.replace

    def replace(source: str, target: Path) -> None:
        made.append((source, stat.S_IMODE(os.stat(source).st_mode)))
        real_replace(source, target)

    monkeypatch.setattr(atomic.os, "replace", replace)
    target = tmp_path / "file.json"
    atomic.atomic_write_bytes(target, b'{"a": 1}')
    assert made == [(str(tmp_path / f"{TEMP_PREFIX}{'01' * 8}{TEMP_SUFFIX}"), 0o600)]
    assert target.read_bytes() == b'{"a": 1}' and taken.read_bytes() == b"another writer's"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([taken.name, "file.json"])
