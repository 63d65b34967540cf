"""Only regular files: paperdeck reads and replaces regular files only, and says so in one line.

- ``import`` refuses a FIFO, a character device (a ``/dev/zero`` made here with ``mknod``) and a
  socket before reading a byte: no hang, no reading until memory runs out.
- ``export -o`` into an existing FIFO or character device writes into it (a ``/dev/null`` made
  here), or refuses it (a FIFO no one reads, a ``/dev/full``, a socket) — the node is never
  replaced by a regular file.
- A lock file that is a symbolic link (dangling or not) is refused: its target is never created.
- A store file that is a FIFO is refused, not waited on.
- An empty (0-byte) catalogue beside a rows cache that lists papers is reported, and neither the
  bundled lists nor an import overwrite it.
- A read-only store or export file (``chmod a-w``) is refused, not silently replaced.

Device nodes are made with ``os.mknod`` in a temporary directory, never the system's; the tests
that need it run only as root (which this suite runs as).
"""

from __future__ import annotations

import os
import resource
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from paperdeck.cli.main import main, open_store
from paperdeck.model.errors import SourceError, StoreError
from paperdeck.sources.importer import import_files
from paperdeck.store.store import CATALOGUE_FILE, IMPORT_LOCK_FILE, ROWS_FILE, Store
from paperdeck.store.user_data import USER_DIR

REPO = Path(__file__).resolve().parents[2]
SEED = sorted((REPO / "seeds").glob("*.txt"))[0]
PAPERDECK = [sys.executable, "-m", "paperdeck.cli.main"]
ROOT = os.geteuid() == 0
MEMORY_LIMIT = 1 << 30
needs_root = pytest.mark.skipif(not ROOT, reason="mknod needs root")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``paperdeck ARGS`` in a process of its own: a hang fails the test, not the suite, and a read
    that never ends stops at :data:`MEMORY_LIMIT` instead of filling the machine."""
    return subprocess.run(
        [*PAPERDECK, *map(str, args)], capture_output=True, text=True, timeout=timeout, preexec_fn=_limit_memory
    )


def one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == 2, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperdeck: "), result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def special(tmp_path: Path) -> Iterator[dict[str, Path]]:
    """A FIFO, a zero device, a null device, a full device and a socket, all in ``tmp_path``."""
    nodes = {"fifo": tmp_path / "list.fifo"}
    os.mkfifo(nodes["fifo"])
    if ROOT:
        for name, minor in (("zero", 5), ("null", 3), ("full", 7)):
            nodes[name] = tmp_path / f"dev{name}"
            os.mknod(nodes[name], 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    nodes["socket"] = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(nodes["socket"]))
    yield nodes
    server.close()


def kinds(nodes: dict[str, Path]) -> dict[str, int]:
    return {name: stat.S_IFMT(os.lstat(path).st_mode) for name, path in nodes.items()}


# --- import --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fifo", "socket", pytest.param("zero", marks=needs_root)])
def test_import_refuses_what_is_not_a_file_in_one_line_without_reading_it(
    name: str, special: dict[str, Path], tmp_path: Path
) -> None:
    path = special[name]
    result = run("--data-dir", tmp_path / "data", "import", path, timeout=30)
    one_line_error(result, str(path), "not a regular file")
    with pytest.raises(SourceError, match="not a regular file"):
        import_files(Store(tmp_path / "data"), [SEED, path])
    assert Store(tmp_path / "data").is_empty, "nothing of the batch is imported"


@needs_root
def test_the_app_refuses_a_device_given_as_a_file(special: dict[str, Path], tmp_path: Path) -> None:
    result = run("--data-dir", tmp_path / "data", special["zero"], timeout=30)  # `paperdeck FILE`
    one_line_error(result, str(special["zero"]), "character device")


# --- export --------------------------------------------------------------------------------------


def _store(tmp_path: Path) -> Path:
    data_dir = tmp_path / "data"
    import_files(Store(data_dir), [SEED])
    return data_dir


def test_export_writes_into_a_fifo_that_is_read_and_keeps_it(special: dict[str, Path], tmp_path: Path) -> None:
    data_dir = _store(tmp_path)
    fifo = special["fifo"]
    received: list[bytes] = []
    opened = threading.Event()

    def read() -> None:
        with open(fifo, "rb") as handle:
            opened.set()
            received.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        result = run("--data-dir", data_dir, "export", "--format", "csv", "-o", fifo)
    finally:
        if not opened.is_set():  # let the reader go if the export never opened the FIFO
            with open(fifo, "wb"):
                pass
        reader.join(10)
    assert result.returncode == 0, result.stderr
    assert received and received[0].startswith(b"id,"), received
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_export_refuses_a_fifo_no_one_reads_without_waiting(special: dict[str, Path], tmp_path: Path) -> None:
    data_dir = _store(tmp_path)
    result = run("--data-dir", data_dir, "export", "--format", "md", "-o", special["fifo"], timeout=30)
    one_line_error(result, str(special["fifo"]), "no process is reading")
    assert stat.S_ISFIFO(os.lstat(special["fifo"]).st_mode)


@needs_root
def test_export_writes_into_a_null_device_and_keeps_it(special: dict[str, Path], tmp_path: Path) -> None:
    data_dir = _store(tmp_path)
    before = kinds(special)
    for args in (["--format", "bibtex"], ["--user-data"]):
        assert main(["--data-dir", str(data_dir), "export", *args, "-o", str(special["null"])]) == 0
    assert kinds(special) == before
    assert os.major(os.stat(special["null"]).st_rdev) == 1


@needs_root
@pytest.mark.parametrize("name", ["full", "socket"])
def test_export_refuses_a_full_device_or_a_socket_and_keeps_it(
    name: str, special: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = _store(tmp_path)
    before = kinds(special)
    assert main(["--data-dir", str(data_dir), "export", "--format", "json", "-o", str(special[name])]) == 2
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and str(special[name]) in message
    assert kinds(special) == before


def test_export_refuses_a_read_only_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = _store(tmp_path)
    target = tmp_path / "kept.md"
    target.write_text("the user's own file\n")
    target.chmod(0o444)
    assert main(["--data-dir", str(data_dir), "export", "-o", str(target)]) == 2
    assert "read-only" in capsys.readouterr().err
    assert target.read_text() == "the user's own file\n"


# --- locks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dangling", [True, False], ids=["dangling", "to-a-file"])
@pytest.mark.parametrize("lock", ["import", "user"])
def test_a_lock_file_that_is_a_symbolic_link_is_refused_and_never_followed(
    lock: str, dangling: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = _store(tmp_path)
    target = tmp_path / "elsewhere" / "target"
    target.parent.mkdir()
    if not dangling:
        target.write_bytes(b"")
    link = data_dir / IMPORT_LOCK_FILE if lock == "import" else data_dir / USER_DIR / ".lock"
    link.parent.mkdir(exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    paper_id = Store(data_dir).paper_ids[0]
    args = ["import", str(SEED)] if lock == "import" else ["star", paper_id]
    assert main(["--data-dir", str(data_dir), *args]) == 2
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and "symbolic link" in message and ".lock" in message, message
    assert target.exists() == (not dangling), "the link's target was created"
    assert link.is_symlink()


# --- store files ---------------------------------------------------------------------------------


def test_a_store_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    os.mkfifo(data_dir / CATALOGUE_FILE)
    result = run("--data-dir", data_dir, "list", timeout=30)
    one_line_error(result, CATALOGUE_FILE, "FIFO")
    assert stat.S_ISFIFO(os.lstat(data_dir / CATALOGUE_FILE).st_mode)


def test_an_empty_catalogue_beside_a_rows_cache_of_papers_is_reported_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = _store(tmp_path)
    catalogue = data_dir / CATALOGUE_FILE
    assert (data_dir / ROWS_FILE).exists()
    catalogue.write_bytes(b"")
    for attempt in (lambda: open_store(str(data_dir), []), lambda: Store(data_dir, lazy=True)):
        with pytest.raises(StoreError, match=r"is empty, but rows-cache\.json lists") as caught:
            attempt()
        assert "\n" not in str(caught.value) and str(catalogue) in str(caught.value)
    assert main(["--data-dir", str(data_dir), "import", str(SEED)]) == 2
    assert "is empty, but" in capsys.readouterr().err
    assert catalogue.read_bytes() == b""


def test_an_empty_catalogue_without_a_rows_cache_is_a_fresh_store(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / CATALOGUE_FILE).write_bytes(b"")
    assert Store(data_dir).is_empty


@pytest.mark.parametrize("which", ["catalogue", "shard"])
def test_a_read_only_store_file_is_refused_not_replaced(
    which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = _store(tmp_path)
    store = Store(data_dir)
    paper_id = store.paper_ids[0]
    store.set_note(paper_id, "kept")
    shard = next((data_dir / USER_DIR).glob("*.json"))
    path = data_dir / CATALOGUE_FILE if which == "catalogue" else shard
    before = path.read_bytes()
    path.chmod(0o444)
    other = sorted((REPO / "seeds").glob("*.txt"))[-1]
    args = ["import", str(other)] if which == "catalogue" else ["note", paper_id, "--text", "changed"]
    assert main(["--data-dir", str(data_dir), *args]) == 2
    message = capsys.readouterr().err
    assert message.count("\n") == 1 and str(path) in message and "read-only" in message, message
    assert path.read_bytes() == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
