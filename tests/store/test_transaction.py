"""The transaction (:mod:`paperdeck.store.transaction`): staged files renamed at the commit, all
or none; a journal left by a kill rolled forward once, however often recovery runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.store import transaction as txn_module
from paperdeck.store.atomic import atomic_write_bytes, staged_path
from paperdeck.store.store import Store
from paperdeck.store.transaction import JOURNAL_PREFIX, recover, transaction

from tests.store.faults import Killed


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def test_files_written_in_a_transaction_appear_at_its_end_together(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"old a")
    with transaction(tmp_path) as txn:
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        atomic_write_bytes(tmp_path / "b.json", b"new b")
        assert (tmp_path / "a.json").read_bytes() == b"old a" and not (tmp_path / "b.json").exists()
        assert staged_path(tmp_path / "a.json").read_bytes() == b"new a"  # what the writer reads back
        with transaction(tmp_path) as inner:  # joins
            assert inner is txn
            atomic_write_bytes(tmp_path / "c.json", b"new c")
        assert not (tmp_path / "c.json").exists()
    assert _files(tmp_path) == {"a.json": b"new a", "b.json": b"new b", "c.json": b"new c", ".commit.lock": b""}


def test_an_error_in_the_block_leaves_every_file_as_it_was_and_no_staged_file(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"old a")
    ran: list[str] = []
    with pytest.raises(ZeroDivisionError), transaction(tmp_path) as txn:
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        atomic_write_bytes(tmp_path / "b.json", b"new b")
        txn.after_commit(lambda: ran.append("after"))
        _ = 1 / 0
    assert _files(tmp_path) == {"a.json": b"old a"} and ran == []


def test_an_os_error_in_the_block_says_nothing_was_changed(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="nothing was changed"), transaction(tmp_path):
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        raise OSError(28, "No space left on device", str(tmp_path / "b.json"))
    assert _files(tmp_path) == {}


def test_appends_are_made_at_the_commit_and_a_journal_replayed_twice_appends_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "changes.jsonl"
    log.write_bytes(b'{"first": 1}\n{"cut sh')  # a line cut short: the append starts a line of its own
    real = txn_module._roll_forward

    def killed(root: Path, steps: list[dict[str, object]]) -> None:
        raise Killed

    monkeypatch.setattr(txn_module, "_roll_forward", killed)
    with pytest.raises(Killed), transaction(tmp_path) as txn:
        txn.stage_append(log, b'{"second": 2}\n')
        atomic_write_bytes(tmp_path / "catalogue.json", b"{}")
    assert log.read_bytes() == b'{"first": 1}\n{"cut sh'  # killed after the journal: nothing moved yet
    assert len(list(tmp_path.glob(f"{JOURNAL_PREFIX}*"))) == 1
    monkeypatch.setattr(txn_module, "_roll_forward", real)
    journal = next(tmp_path.glob(f"{JOURNAL_PREFIX}*"))
    kept = journal.read_bytes()
    assert recover(tmp_path) == 1
    expected = b'{"first": 1}\n{"cut sh\n{"second": 2}\n'
    assert log.read_bytes() == expected and (tmp_path / "catalogue.json").read_bytes() == b"{}"
    journal.write_bytes(kept)  # as if killed again after the renames, before the journal went
    assert recover(tmp_path) == 1 and log.read_bytes() == expected
    assert recover(tmp_path) == 0 and not list(tmp_path.glob(f"{JOURNAL_PREFIX}*"))


def test_a_store_opened_after_a_kill_past_the_commit_finishes_the_import_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path)
    store.import_papers([Paper(id="title:a", title="Deep nets", abstract="")])

    def killed(root: Path, steps: list[dict[str, object]]) -> None:
        raise Killed

    real = txn_module._roll_forward
    monkeypatch.setattr(txn_module, "_roll_forward", killed)
    with pytest.raises(Killed):
        Store(tmp_path).import_papers([Paper(id="title:b", title="Wide nets", abstract="")])
    monkeypatch.setattr(txn_module, "_roll_forward", real)
    reopened = Store(tmp_path)
    assert reopened.recovered == 1
    assert sorted(reopened.paper_ids) == ["title:a", "title:b"]
    assert Store(tmp_path).recovered == 0


def test_staged_files_of_a_killed_transaction_are_never_renamed(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"old a")
    with pytest.raises(Killed), transaction(tmp_path):
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        raise Killed
    assert recover(tmp_path) == 0
    assert (tmp_path / "a.json").read_bytes() == b"old a"
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".paperdeck-")]


def test_a_removal_is_a_step_of_the_journal_made_with_the_rest_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.json").write_bytes(b"old a")
    (tmp_path / "gone.json").write_bytes(b"taken away")
    with pytest.raises(ZeroDivisionError), transaction(tmp_path) as txn:  # not committed: nothing goes
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        txn.stage_removal(tmp_path / "gone.json")
        _ = 1 / 0
    assert _files(tmp_path) == {"a.json": b"old a", "gone.json": b"taken away"}

    def killed(root: Path, steps: list[dict[str, object]]) -> None:
        raise Killed

    real = txn_module._roll_forward
    monkeypatch.setattr(txn_module, "_roll_forward", killed)
    with pytest.raises(Killed), transaction(tmp_path) as txn:  # killed past the journal
        atomic_write_bytes(tmp_path / "a.json", b"new a")
        txn.stage_removal(tmp_path / "gone.json")
    assert (tmp_path / "gone.json").exists()
    monkeypatch.setattr(txn_module, "_roll_forward", real)
    journal = next(tmp_path.glob(f"{JOURNAL_PREFIX}*"))
    kept = journal.read_bytes()
    assert recover(tmp_path) == 1
    assert {name: data for name, data in _files(tmp_path).items() if not name.startswith(".")} == {"a.json": b"new a"}
    journal.write_bytes(kept)  # replayed: the file already gone is a step done
    assert recover(tmp_path) == 1 and not (tmp_path / "gone.json").exists()


def test_files_a_killed_process_staged_are_removed_when_the_store_opens(tmp_path: Path) -> None:
    """A review import killed before its commit leaves its staged shards (hundreds of MB on the
    whole conference): the next opening removes those of a process that is gone, at once, and
    keeps a live process's and any a journal still waits to rename."""
    import subprocess
    import sys

    from paperdeck.store.atomic import STAGED_PREFIX, clean_stray_temp_files, staged_prefix

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    reviews = tmp_path / "reviews"
    reviews.mkdir()
    left = reviews / f"{STAGED_PREFIX}{dead.stdout.strip()}-abc.tmp"
    live = reviews / f"{staged_prefix()}def.tmp"
    for path in (left, live):
        path.write_bytes(b"staged")
    journal = tmp_path / f"{JOURNAL_PREFIX}0.json"
    journal.write_bytes(b"")  # a journal waits: nothing staged is touched (recovery comes first)
    assert clean_stray_temp_files(reviews, root=tmp_path) == 0
    journal.unlink()
    Store(tmp_path)
    assert not left.exists() and live.exists()
