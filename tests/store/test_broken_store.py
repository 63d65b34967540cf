"""A store paperdeck cannot read or write: one clear line naming the file and what to do, the
command exits non-zero with ``paperdeck: <message>`` and no traceback, and no byte of the
existing files changes.

Broken: a truncated or invalid catalogue or user shard, another program's TinyDB file, a
directory where a file should be (and a file where a directory should be), a store written by a
newer paperdeck (schema 99). Unwritable: a read-only file system (simulated: the tests run as
root, whom permissions do not stop) and a full disk (the write fails with ENOSPC).

And privacy: the text of a note never appears in an error message or in log output.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from paperdeck.cli.main import main, open_store
from paperdeck.model.errors import PaperdeckError, StoreError
from paperdeck.sources.importer import import_files
from paperdeck.store.atomic import TEMP_PREFIX, TEMP_SUFFIX
from paperdeck.store.store import CATALOGUE_FILE, LEGACY_USER_FILE, Store
from paperdeck.store.user_data import SHARDS, USER_DIR, doc_id_for

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
PAPERDECK = Path(sys.executable).parent / "paperdeck"
SECRET = "my private thoughts on reviewer 2 (do not share)"
SECRET_TOO = "second private note, never to be printed"
#: Words of the advice a message must end with: what the user can do about it.
ADVICE = ("move it aside", "restore", "upgrade", "--data-dir", "free some", "check", "try again")


def tree(directory: Path) -> dict[str, bytes | None]:
    """Every path under ``directory``: file → its bytes' SHA-256, directory → ``None``."""
    found: dict[str, bytes | None] = {}
    for path in sorted(directory.rglob("*")):
        key = str(path.relative_to(directory))
        found[key] = None if path.is_dir() else hashlib.sha256(path.read_bytes()).digest()
    return found


def shard_of(data_dir: Path, paper_id: str) -> Path:
    return data_dir / USER_DIR / f"{doc_id_for(paper_id) % SHARDS:02x}.json"


class Sample:
    """A store with 19 papers, one starred, one with a private note."""

    def __init__(self, data_dir: Path) -> None:
        store = Store(data_dir)
        import_files(store, [sorted(SEEDS.glob("*.txt"))[0]])
        self.data_dir = data_dir
        self.ids = store.paper_ids
        self.starred, self.noted = self.ids[0], self.ids[1]
        store.set_star(self.starred, True)
        store.set_note(self.noted, SECRET)
        self.catalogue = data_dir / CATALOGUE_FILE
        self.note_shard = shard_of(data_dir, self.noted)


def assert_clear(message: str, culprit: Path) -> None:
    """One line that names the file and says what to do, without the user's notes."""
    assert message.splitlines() == [message], f"not one line: {message!r}"
    assert str(culprit) in message, f"{culprit} not named: {message!r}"
    assert any(word in message for word in ADVICE), f"no advice: {message!r}"
    assert SECRET not in message and SECRET_TOO not in message, "a note leaked"
    assert "Traceback" not in message


# --- the broken stores -----------------------------------------------------------------------


def _truncate(path: Path) -> Path:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])
    return path


def _replace_with_directory(path: Path) -> Path:
    path.unlink()
    path.mkdir()
    (path / "kept.txt").write_text("not ours to delete", "utf-8")
    return path


def _foreign_tinydb(path: Path) -> Path:
    path.write_text(json.dumps({"_default": {"1": {"task": "buy milk", "done": False}}}), "utf-8")
    return path


def _other_apps_meta(path: Path) -> Path:
    path.write_text(
        json.dumps({"meta": {"1": {"app": "reading-log", "schema": 1}}, "items": {"1": {"x": 1}}}),
        "utf-8",
    )
    return path


def _newer(path: Path) -> Path:
    data = json.loads(path.read_bytes())
    data["meta"] = {"1": {"app": "paperdeck", "schema": 99}}
    path.write_text(json.dumps(data), "utf-8")
    return path


def _user_dir_is_a_file(sample: Sample) -> Path:
    user = sample.data_dir / USER_DIR
    shutil.rmtree(user)
    user.write_text("a file where the user-data directory should be", "utf-8")
    return user


def _legacy_truncated(sample: Sample) -> Path:
    legacy = sample.data_dir / LEGACY_USER_FILE
    record = {"paper_id": sample.noted, "starred": True, "note": SECRET, "created": "c", "updated": "u"}
    raw = json.dumps({"meta": {"1": {"app": "paperdeck", "schema": 1}}, "user": {"7": record}})
    legacy.write_text(raw[: raw.index(SECRET) + 10], "utf-8")  # cut inside the note
    return legacy


def _malformed_user_record(sample: Sample) -> Path:
    data = json.loads(sample.note_shard.read_bytes())
    for doc in data["user"].values():
        if doc.get("note") == SECRET:
            doc["status"] = SECRET_TOO  # not a status: the message must not quote the value
    sample.note_shard.write_text(json.dumps(data), "utf-8")
    return sample.note_shard


BREAKAGES: dict[str, Callable[[Sample], Path]] = {
    "truncated catalogue": lambda s: _truncate(s.catalogue),
    "invalid catalogue": lambda s: (s.catalogue.write_bytes(b'{"papers": {"1": [1, 2,]}}'), s.catalogue)[1],
    "catalogue not an object": lambda s: (s.catalogue.write_bytes(b"[]"), s.catalogue)[1],
    "truncated user shard": lambda s: _truncate(s.note_shard),
    "invalid user shard": lambda s: (s.note_shard.write_bytes(b"\x00\xff{garbage"), s.note_shard)[1],
    "malformed user record": _malformed_user_record,
    "another app's TinyDB as catalogue": lambda s: _foreign_tinydb(s.catalogue),
    "another app's TinyDB as a shard": lambda s: _foreign_tinydb(s.note_shard),
    "another app's meta": lambda s: _other_apps_meta(s.catalogue),
    "catalogue is a directory": lambda s: _replace_with_directory(s.catalogue),
    "user shard is a directory": lambda s: _replace_with_directory(s.note_shard),
    "user directory is a file": _user_dir_is_a_file,
    "newer catalogue (schema 99)": lambda s: _newer(s.catalogue),
    "newer user shard (schema 99)": lambda s: _newer(s.note_shard),
    "truncated schema-1 user.json": _legacy_truncated,
}


@pytest.fixture(params=list(BREAKAGES), ids=list(BREAKAGES))
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Sample, Path]:
    """A sample store broken one way; returns it and the file at fault."""
    sample = Sample(tmp_path / "data")
    culprit = BREAKAGES[request.param](sample)
    return sample, culprit


def test_a_broken_store_is_refused_with_one_clear_line_and_left_as_it_is(
    broken: tuple[Sample, Path], capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    sample, culprit = broken
    data_dir = sample.data_dir
    before = tree(data_dir)
    caplog.set_level(logging.DEBUG)
    for lazy in (False, True):
        with pytest.raises(StoreError) as caught:
            Store(data_dir, lazy=lazy).load()
        assert_clear(str(caught.value), culprit)
    with pytest.raises(PaperdeckError) as caught:
        open_store(str(data_dir), [])  # what `paperdeck` does before it opens the app
    assert_clear(str(caught.value), culprit)
    # The commands that write: each refuses, none overwrites.
    seed = sorted(SEEDS.glob("*.txt"))[1]
    for argv in (
        ["star", sample.ids[2]],
        ["unstar", sample.starred],
        ["note", sample.noted, "--text", SECRET_TOO],
        ["import", str(seed)],
        ["show", sample.noted],
    ):
        assert main([*argv, "--data-dir", str(data_dir)]) != 0, argv
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("paperdeck: ") and err.endswith("\n"), (argv, err)
        assert_clear(err.removeprefix("paperdeck: ").rstrip("\n"), culprit)
    assert tree(data_dir) == before, "a refused store was changed"
    assert SECRET not in caplog.text and SECRET_TOO not in caplog.text


def test_the_installed_command_refuses_every_broken_store_without_a_traceback(
    tmp_path: Path,
) -> None:
    """``paperdeck list --data-dir …`` in a subprocess, for every breakage at once."""
    runs = {}
    for name, breakage in BREAKAGES.items():
        sample = Sample(tmp_path / name.replace(" ", "-").replace("'", ""))
        culprit = breakage(sample)
        runs[name] = (sample, culprit, tree(sample.data_dir), subprocess.Popen(
            [str(PAPERDECK), "list", "--json", "--data-dir", str(sample.data_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ))  # fmt: skip
    for name, (sample, culprit, before, process) in runs.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode not in (0, None), f"{name}: exit {process.returncode}"
        assert "Traceback" not in err, f"{name}: {err}"
        assert out == "", name
        assert err.startswith("paperdeck: ") and err.count("\n") == 1, f"{name}: {err!r}"
        assert_clear(err.removeprefix("paperdeck: ").rstrip("\n"), culprit)
        assert tree(sample.data_dir) == before, f"{name}: the store was changed"


def test_the_data_directory_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "data"
    path.write_text("not a directory", "utf-8")
    assert main(["list", "--data-dir", str(path)]) == 2
    err = capsys.readouterr().err
    assert_clear(err.removeprefix("paperdeck: ").rstrip("\n"), path)
    assert path.read_text("utf-8") == "not a directory"


# --- unwritable: read-only, full disk --------------------------------------------------------


def _fail(code: int) -> OSError:
    return OSError(code, os.strerror(code))


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A read-only file system as Linux reports it: reads work, every change fails with EROFS
    (``mkdir`` of an existing directory reports EEXIST first). Simulated: root ignores modes."""
    real_open = os.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def open_(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if flags & writing:
            raise _fail(errno.EROFS)
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    def mkdir(path: object, *args: object, **kwargs: object) -> None:
        if os.path.lexists(path):  # type: ignore[arg-type]
            raise _fail(errno.EEXIST)
        raise _fail(errno.EROFS)

    def refuse(*args: object, **kwargs: object) -> None:
        raise _fail(errno.EROFS)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "mkdir", mkdir)
    for name in ("replace", "rename", "unlink", "chmod", "utime", "rmdir", "link"):
        monkeypatch.setattr(os, name, refuse)
    yield


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A full disk: a file's data does not fit (ENOSPC on its fsync, as ext4 and NFS report a
    write that could not be allocated); creating and renaming still work."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise _fail(errno.ENOSPC)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    yield


def _temp_files(data_dir: Path) -> list[Path]:
    return [p for p in data_dir.rglob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}")]


@pytest.mark.parametrize("condition", ["read_only", "disk_full"])
def test_an_unwritable_store_refuses_each_write_clearly_and_changes_nothing(
    condition: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    sample = Sample(tmp_path / "data")
    data_dir = sample.data_dir
    store = Store(data_dir)
    before = tree(data_dir)
    caplog.set_level(logging.DEBUG)
    request.getfixturevalue(condition)
    advice = "read-only" if condition == "read_only" else "free some"
    # The store still opens and reads: nothing is lost, the user can copy it elsewhere.
    reopened = Store(data_dir)
    assert reopened.user_data(sample.noted).note == SECRET
    assert main(["list", "--starred", "--data-dir", str(data_dir)]) == 0
    assert sample.starred in capsys.readouterr().out
    writes: list[Callable[[], object]] = [
        lambda: store.set_star(sample.ids[3], True),
        lambda: store.toggle_star(sample.starred),
        lambda: store.set_note(sample.noted, SECRET_TOO),
        lambda: store.set_note(sample.noted, ""),
        lambda: import_files(store, [sorted(SEEDS.glob("*.txt"))[1]]),
    ]
    for write in writes:
        with pytest.raises(StoreError) as caught:
            write()
        message = str(caught.value)
        assert advice in message, message
        assert_clear(message, caught.value.path)
        assert caught.value.path in (data_dir / USER_DIR, data_dir / CATALOGUE_FILE) or (
            caught.value.path.parent == data_dir / USER_DIR
        )
    # What the app shows is what is on disk: the refused changes are not pretended.
    assert not store.user_data(sample.ids[3]).starred
    assert store.user_data(sample.starred).starred
    assert store.user_data(sample.noted).note == SECRET
    assert len(store.papers) == len(sample.ids)
    for argv in (["star", sample.ids[4]], ["note", sample.noted, "--text", SECRET_TOO]):
        assert main([*argv, "--data-dir", str(data_dir)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("paperdeck: ") and advice in err
        assert_clear(err.removeprefix("paperdeck: ").rstrip("\n"), data_dir)
    assert not _temp_files(data_dir)
    assert tree(data_dir) == before, "an unwritable store was changed"
    assert SECRET not in caplog.text and SECRET_TOO not in caplog.text


def test_a_foreign_tinydb_file_is_never_replaced_by_a_first_import(tmp_path: Path) -> None:
    """Pointed at another program's data, paperdeck must not take the file for an empty store
    and write its catalogue over it (the app imports the bundled lists into an empty store)."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    foreign = _foreign_tinydb(data_dir / CATALOGUE_FILE)
    raw = foreign.read_bytes()
    with pytest.raises(StoreError) as caught:
        open_store(str(data_dir), [])
    assert_clear(str(caught.value), foreign)
    assert foreign.read_bytes() == raw


def test_an_empty_tinydb_file_is_an_empty_store(tmp_path: Path) -> None:
    """A file with tables but no data (as TinyDB creates) holds nothing to protect."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / CATALOGUE_FILE).write_text('{"_default": {}}', "utf-8")
    store = Store(data_dir)
    assert store.is_empty
    import_files(store, [sorted(SEEDS.glob("*.txt"))[0]])
    assert len(Store(data_dir).papers) == 19


def test_a_shard_broken_while_the_app_runs_is_reported_on_every_reload(tmp_path: Path) -> None:
    """The app re-reads changed shards every 2 s: a shard broken meanwhile must keep failing
    (not be taken as read after the first error and silently ignored), and stay untouched."""
    sample = Sample(tmp_path / "data")
    running = Store(sample.data_dir)
    raw = _truncate(sample.note_shard).read_bytes()
    for _ in range(2):
        with pytest.raises(StoreError) as caught:
            running.reload_user_data()
        assert_clear(str(caught.value), sample.note_shard)
    assert running.user_data(sample.noted).note == SECRET  # what it read before stays shown
    with pytest.raises(StoreError):
        running.set_note(sample.noted, SECRET_TOO)
    assert sample.note_shard.read_bytes() == raw
