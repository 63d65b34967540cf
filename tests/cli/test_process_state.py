"""``main(argv)`` called in a process that goes on (a test, a script) leaves that process's
environment as it found it: what the command line sets up for itself (``OPENBLAS_NUM_THREADS``
before numpy's import) is for the process's own command line (``main()``) alone. A variable left
set by one test was seen by every later test of its worker process and by the children they ran.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from paperdeck.cli.main import main

REPO = Path(__file__).resolve().parents[2]
SEEDS = sorted((REPO / "seeds").glob("*.txt"))


@pytest.mark.parametrize("command", [["--version"], ["import"], ["list", "--json"]], ids=["version", "import", "list"])
def test_main_with_its_arguments_leaves_the_environment_as_it_found_it(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = command if command == ["--version"] else ["--data-dir", str(tmp_path / "data"), *command]
    if command == ["import"]:
        argv += [str(path) for path in SEEDS]
    else:
        assert main(["--data-dir", str(tmp_path / "data"), "import", *map(str, SEEDS)]) == 0
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    before = dict(os.environ)
    assert main(argv) == 0
    capsys.readouterr()
    assert dict(os.environ) == before
