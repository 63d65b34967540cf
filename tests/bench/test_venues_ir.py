"""bench/venues_bench.py's instruction counts of the app runs: none without valgrind, a failed run
never counted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import venues_bench

#: Stands in for valgrind: writes a count to its ``--log-file`` and runs the rest, ending as it does.
FAKE_VALGRIND = """#!{python}
import subprocess, sys
args = sys.argv[1:]
log = next(arg.split("=", 1)[1] for arg in args if arg.startswith("--log-file="))
with open(log, "w") as out:
    out.write("==1== Collected : 1234\\n")
sys.exit(subprocess.run([arg for arg in args if not arg.startswith("--")]).returncode)
"""


@pytest.fixture
def fake_valgrind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "valgrind"
    script.write_text(FAKE_VALGRIND.format(python=sys.executable))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")


def test_no_venue_instruction_counts_without_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert venues_bench.measure_open_filter_ir(Path("/nowhere"), Path("/nowhere")) == {}


@pytest.mark.usefixtures("fake_valgrind")
def test_a_run_is_counted_and_a_failed_one_raises() -> None:
    env = dict(os.environ)
    assert venues_bench._instructions([sys.executable, "-c", "pass"], env) == 1234
    # A run that failed part way (a frame never painted in time) would count part of the run.
    with pytest.raises(subprocess.CalledProcessError):
        venues_bench._instructions([sys.executable, "-c", "import sys; sys.exit(3)"], env)


def test_the_counted_runs_type_with_the_cursor_still_and_wait_for_the_screen() -> None:
    argv = venues_bench._app_argv(Path("/store"))
    script = argv[2]
    assert script.startswith(venues_bench._UNDER_CALLGRIND) and script.endswith(venues_bench._APP_TYPING)
    assert argv[3:] == ["/store", *venues_bench.APP_QUERIES]
    from textual.pilot import Pilot
    from textual.widgets import Input

    blink = Input.__dict__["cursor_blink"]  # a reactive, true by default
    waits = Pilot._wait_for_screen.__defaults__
    try:
        exec(venues_bench._UNDER_CALLGRIND, {})
        assert Input.cursor_blink is False
        assert Pilot._wait_for_screen.__defaults__ == (3600.0,)
    finally:
        Input.cursor_blink = blink
        Pilot._wait_for_screen.__defaults__ = waits
