"""A file named more than once in one import (the same path again, ``./`` before it, a link to
it: overlapping shell patterns) is read once: the report lists it once, says it was named more
than once, and the undo summary counts it once. Fixtures: the bundled seed files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import run


def test_a_file_named_three_times_is_listed_and_read_once(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = seed_files[:2]
    link = tmp_path / "link.txt"
    os.symlink(first, link)
    spelled = Path(os.path.relpath(first, Path.cwd())) if first.is_absolute() else first
    data = str(tmp_path / "data")
    code, out, err = run(capsys, "import", str(first), str(second), f"./{spelled}", str(link), "--data-dir", data)
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == [str(first), str(second)]
    assert lines[2] == f"{first} was named 3 times; read once"
    assert lines[3].startswith("Imported: 37 new,") and len(lines) == 4
    code, out, err = run(capsys, "import", "--undo", "--data-dir", data)
    assert code == 0, err
    assert "(2 files: 37 new, 0 updated)" in out
