"""A data directory that cannot be listed (EIO from ``scandir``/``listdir``) or another disk fault
at start: every command says so in one line naming the path, with no traceback."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store

from tests.helpers import run

COMMANDS = [
    ["list"],
    ["search", "nets"],
    ["show", "title:a"],
    ["star", "title:a", "title:b"],
    ["status", "title:a", "read"],
    ["tag", "title:a", "later"],
    ["note", "title:a", "--text", "mine"],
    ["changes"],
    ["stats"],
    ["following"],
    ["reviews", "title:a"],
]


@pytest.fixture
def unlistable(tmp_path: Path) -> Iterator[Path]:
    """A store of two papers whose directory (and every one under it) fails to be listed."""
    data_dir = tmp_path / "data"
    Store(data_dir).import_papers([Paper(id=f"title:{n}", title=f"Deep nets {n}", abstract="") for n in "ab"])
    real_scandir, real_listdir = os.scandir, os.listdir
    root = str(data_dir)

    def refused(real: Any) -> Any:
        def call(path: Any = ".") -> Any:
            if os.fsdecode(path).startswith(root):
                raise OSError(errno.EIO, os.strerror(errno.EIO), os.fsdecode(path))
            return real(path)

        return call

    os.scandir, os.listdir = refused(real_scandir), refused(real_listdir)
    try:
        yield data_dir
    finally:
        os.scandir, os.listdir = real_scandir, real_listdir


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_an_unlistable_data_directory_is_one_line_naming_it(
    command: list[str], unlistable: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, *command, "--data-dir", str(unlistable))
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "data" in err and "Input/output error" in err


def test_an_os_error_no_part_reports_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    Store(data_dir).import_papers([Paper(id="title:a", title="Deep nets", abstract="")])
    import paperdeck.cli.commands as commands

    def broken(store: Store, args: Any) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(data_dir / "catalogue.json"))

    monkeypatch.setitem(commands.COMMANDS, "list", broken)
    code, _, err = run(capsys, "list", "--data-dir", str(data_dir))
    assert code == 2
    assert err.strip().count("\n") == 0 and "catalogue.json" in err and "Input/output error" in err


def test_a_command_that_finishes_an_interrupted_import_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.store import transaction
    from paperdeck.store.store import RECOVERED

    from tests.store.faults import Killed

    data_dir = tmp_path / "data"
    Store(data_dir).import_papers([Paper(id="title:a", title="Deep nets", abstract="")])

    def killed(root: Path, steps: object) -> None:
        raise Killed

    with monkeypatch.context() as patched:
        patched.setattr(transaction, "_roll_forward", killed)
        with pytest.raises(Killed):
            Store(data_dir).import_papers([Paper(id="title:b", title="Wide nets", abstract="")])
    code, out, err = run(capsys, "list", "--data-dir", str(data_dir))
    assert code == 0 and RECOVERED in err and "Wide nets" in out
    code, _, err = run(capsys, "list", "--data-dir", str(data_dir))
    assert code == 0 and RECOVERED not in err
