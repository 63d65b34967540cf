"""The wheel installs one top-level package, ``paperdeck``, with its styles, seeds and manual page inside it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_wheel_holds_paperdeck_only_with_its_styles_and_seeds(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path),
         str(REPO)],
        check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("paperdeck-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"paperdeck"}
    assert "paperdeck/_data/styles/main.tcss" in names
    assert "paperdeck/_data/man/paperdeck.1" in names  # the manual page generated from the parser
    assert {f"paperdeck/_data/seeds/{p.name}" for p in (REPO / "seeds").glob("*.txt")} <= set(names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "paperdeck = paperdeck.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
