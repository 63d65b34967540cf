"""A store found broken once the app runs — the list painted from the rows cache, the catalogue
parsed after in a worker — ends the app with the one line the CLI gives for the same store
(exit status 2), not a traceback of hundreds of lines.

The breakages are those of tests/store/test_broken_store.py that the rows cache lets past the
first paint: a rating written as ``null`` (what a non-finite imported rating became), a paper
record without its title, a catalogue cut short.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from paperdeck.cli.main import main
from paperdeck.model.errors import StoreError
from paperdeck.sources.importer import import_files
from paperdeck.store.rows import file_stamp, write_rows_cache
from paperdeck.store.store import CATALOGUE_FILE, ROWS_FILE, Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import SIZE
from tests.waits import wait_for


def _null_rating(document: dict[str, dict[str, dict[str, object]]]) -> bytes:
    first = next(iter(document["papers"].values()))
    first["ratings"] = {"mean": None, "std": None, "min": None, "max": None, "count": 3}
    return orjson.dumps(document)


def _no_title(document: dict[str, dict[str, dict[str, object]]]) -> bytes:
    del next(iter(document["papers"].values()))["title"]
    return orjson.dumps(document)


def _cut(document: dict[str, dict[str, dict[str, object]]]) -> bytes:
    raw = orjson.dumps(document)
    return raw[: len(raw) // 2]


BREAKAGES: dict[str, Callable[[dict[str, dict[str, dict[str, object]]]], bytes]] = {
    "null-rating": _null_rating,
    "no-title": _no_title,
    "cut-short": _cut,
}


def _broken_store(data_dir: Path, seed_files: list[Path], breakage: str) -> None:
    """A store whose rows cache matches a catalogue that does not parse."""
    store = Store(data_dir)
    import_files(store, seed_files)
    catalogue = data_dir / CATALOGUE_FILE
    catalogue.write_bytes(BREAKAGES[breakage](orjson.loads(catalogue.read_bytes())))
    stamp = file_stamp(catalogue)
    assert stamp is not None
    write_rows_cache(data_dir / ROWS_FILE, catalogue, stamp, store.papers)


@pytest.mark.parametrize("breakage", list(BREAKAGES))
async def test_a_catalogue_found_broken_after_the_first_paint_ends_the_app_with_the_clis_line(
    breakage: str, tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    _broken_store(data_dir, seed_files, breakage)
    store = Store(data_dir, lazy=True)  # opens: the rows cache matches
    assert not store.loaded
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:  # raises what the app did not handle
        # Not settle(): waiting for the workers re-raises the parse's error when it comes during
        # the wait (a loaded machine), though the app handles it; the app's own answer is waited for.
        await wait_for(pilot, lambda: app.failure is not None, what="the app to take the catalogue's error")
    assert isinstance(app.failure, StoreError)
    assert app.return_code == 2
    capsys.readouterr()
    assert main(["--data-dir", str(data_dir), "list"]) == 2
    cli_line = capsys.readouterr().err
    assert cli_line == f"paperdeck: {app.failure}\n"
    assert cli_line.count("\n") == 1 and str(data_dir / CATALOGUE_FILE) in cli_line


def test_the_paperdeck_command_prints_the_line_after_the_app_ends(tmp_path: Path, seed_files: list[Path]) -> None:
    """The real start, in a pseudo-terminal: the app paints, finds the catalogue broken, restores
    the terminal and prints the CLI's one line; exit status 2."""
    data_dir = tmp_path / "data"
    _broken_store(data_dir, seed_files, "null-rating")
    primary, secondary = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    process = subprocess.Popen(
        [sys.executable, "-m", "paperdeck.cli.main", "--data-dir", str(data_dir)],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        close_fds=True,
    )
    os.close(secondary)
    output = bytearray()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    else:
        process.kill()
    os.close(primary)
    assert process.wait(10) == 2
    text = output.decode("utf-8", "replace")
    assert "Traceback" not in text
    (line,) = [line for line in text.splitlines() if "paperdeck: " in line]
    assert line.strip().endswith("paperdeck will not overwrite it") and CATALOGUE_FILE in line
