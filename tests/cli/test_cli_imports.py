"""What a command of the command line imports: only what it uses (``show`` and ``star`` are run from
scripts, where every module imported is paid at each call)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from paperdeck.cli.main import main

from tests.helpers import ReviewSample

#: Runs one command as the ``paperdeck`` script does, then prints the modules it left imported.
_PROBE = """
import sys
from paperdeck.cli.main import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("\\nMODULES " + " ".join(sorted(sys.modules)))
sys.exit(code)
"""


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory, review_sample: ReviewSample) -> Path:
    """A store of a few reviewed papers (their reviews imported)."""
    data = tmp_path_factory.mktemp("cli-imports") / "data"
    files = [str(review_sample.papers_file), str(review_sample.notes_file)]
    assert main(["import", *files, "--data-dir", str(data)]) == 0
    return data


def _modules(store_dir: Path, *args: str) -> set[str]:
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(store_dir)}
    result = subprocess.run([sys.executable, "-c", _PROBE, *args], env=env, capture_output=True, text=True, check=True)
    line = result.stdout.rsplit("\nMODULES ", 1)[1]
    return set(line.split())


def _first_id(store_dir: Path) -> str:
    from paperdeck.store.store import Store

    return next(pid for pid in Store(store_dir).paper_ids if pid.startswith("openreview:"))


def test_show_imports_no_writer_and_no_change_record(store_dir: Path) -> None:
    loaded = _modules(store_dir, "show", _first_id(store_dir))
    # it reads the paper's review summary (by the quick path: tests/cli/test_cli_quick.py)
    assert {"paperdeck.store.reviews", "paperdeck.store.one_paper"} & loaded
    assert {"tempfile", "random", "shutil", "paperdeck.model.changes"} & loaded == set()


def test_star_imports_no_review_module(store_dir: Path) -> None:
    loaded = _modules(store_dir, "star", _first_id(store_dir))
    # it writes the star (atomically, through a temporary file of its own: no tempfile module)
    assert {"tempfile", "random", "shutil"} & loaded == set()
    assert {"paperdeck.store.reviews", "paperdeck.model.review", "paperdeck.model.changes"} & loaded == set()


def test_a_words_only_search_opens_no_review_store_and_imports_no_numpy(store_dir: Path) -> None:
    words = _modules(store_dir, "search", "learning")
    assert {"numpy", "paperdeck.store.reviews", "paperdeck.model.review", "paperdeck.model.changes"} & words == set()
    # nor the thread pools' futures (no worker thread), nor shutil (argparse's width is read
    # without it), nor the follows (no `is:followed` term)
    assert {"concurrent.futures", "shutil", "paperdeck.search.follows", "paperdeck.store.follows"} & words == set()
    # nor TinyDB (the shards are read, not written), nor the string module
    assert {"tinydb", "string"} & words == set()
    assert "paperdeck.store.follows" in _modules(store_dir, "search", "learning is:followed")
    # a term that reads the reviews' summaries opens the reviews store then
    assert "paperdeck.store.reviews" in _modules(store_dir, "search", "learning reviews>=1")


#: Runs one command as the ``paperdeck`` script does (``main()`` on the process's own arguments),
#: printing the collector's state as the command starts, and again once main() returned.
_COLLECTOR_PROBE = """
import gc, sys
from paperdeck.cli import commands
from paperdeck.cli.main import main
run = commands.COMMANDS[sys.argv[1]]
def probed(store, args):
    print("AT-START", gc.isenabled(), gc.get_freeze_count(), gc.get_count()[0], flush=True)
    return run(store, args)
commands.COMMANDS[sys.argv[1]] = probed
code = main()
sys.stdout.flush()
print("AFTER", gc.get_freeze_count())
sys.exit(code)
"""


def test_a_command_line_command_runs_with_what_it_imported_and_opened_frozen(store_dir: Path) -> None:
    """The modules, the parser and the opened store live until the process exits: they are frozen
    before the command runs; the collector is on again for a command that writes (it walks only
    what the command makes), and stays off for one that reads and prints (search, list, show); a
    main() called in a process that goes on (argv given) freezes nothing."""
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(store_dir)}
    paper_id = _first_id(store_dir)
    # (with --json: the full path; a plain `show ID` or `star ID` takes the quick one, which opens no store)
    for args, collecting in ((["search", "learning"], "False"), (["show", paper_id, "--json"], "False"),
                             (["star", paper_id, "--json"], "True")):  # fmt: skip
        result = subprocess.run([sys.executable, "-c", _COLLECTOR_PROBE, *args], env=env, capture_output=True,
                                text=True, check=True)  # fmt: skip
        start = next(line for line in result.stdout.splitlines() if line.startswith("AT-START"))
        enabled, frozen, young = start.split()[1:]
        assert enabled == collecting and int(frozen) > 10_000 and int(young) < 100
    import gc

    before = gc.get_freeze_count()
    assert main(["search", "learning", "--data-dir", str(store_dir)]) == 0
    assert gc.get_freeze_count() == before


#: The modules a bare interpreter holds, then those ``paperdeck --version`` added (as the script runs it).
_VERSION_PROBE = """
import sys
before = set(sys.modules)
from paperdeck.cli.main import main
code = main(["--version"])
sys.stdout.flush()
print("\\nMODULES " + " ".join(sorted(set(sys.modules) - before)))
sys.exit(code)
"""


def test_version_is_answered_before_anything_is_imported() -> None:
    result = subprocess.run([sys.executable, "-c", _VERSION_PROBE], capture_output=True, text=True, check=True)
    printed, modules = result.stdout.rsplit("\nMODULES ", 1)
    from paperdeck import __version__

    assert printed == f"paperdeck {__version__}\n"
    # the package, the command line's module and the __future__ its annotations need: nothing else
    # (no argparse, pathlib, typing, orjson, nor any other room of paperdeck)
    assert set(modules.split()) <= {"paperdeck", "paperdeck.cli", "paperdeck.cli.main", "__future__"}
    assert "paperdeck.cli.main" in modules.split()


#: Runs one command as the script does, recording every file opened (the ``open`` audit event: the
#: built-in open, os.open, mmap's file), then prints them and the modules left imported.
_OPEN_PROBE = """
import os, sys
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from paperdeck.cli.main import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("\\nOPENED " + "\\0".join(opened) + "\\nMODULES " + " ".join(sorted(sys.modules)))
sys.exit(code)
"""


def _opened(store_dir: Path, *args: str) -> tuple[list[str], set[str]]:
    """The files of the store ``paperdeck ARGS`` opened (names relative to it) and its modules."""
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(store_dir)}
    result = subprocess.run([sys.executable, "-c", _OPEN_PROBE, *args], env=env, capture_output=True, text=True,
                            check=True)  # fmt: skip
    opened, modules = result.stdout.rsplit("\nOPENED ", 1)[1].split("\nMODULES ")
    inside = [os.path.relpath(path, store_dir) for path in opened.split("\0") if path.startswith(str(store_dir))]
    return inside, set(modules.split())


@pytest.mark.parametrize("command", ["show", "star", "reviews", "note"])
def test_a_command_on_one_paper_reads_neither_the_rows_cache_nor_the_whole_catalogue(
    store_dir: Path, command: str
) -> None:
    extra = ["--text", "a note"] if command == "note" else []
    opened, modules = _opened(store_dir, command, _first_id(store_dir), *extra)
    assert "rows-cache.json" not in opened  # its ids and spans grow with the store
    assert "paper-index.bin" in opened
    assert opened.count("catalogue.json") == 1  # the paper's document, read alone
    assert not any(name.startswith("reviews/") for name in opened) or command in ("show", "reviews")
    # nothing the command does not need: no UI, no fuzzy matching, no arrays, no programme module
    # in a store without one; no LaTeX for a paper without markup (the sample's reviews have some)
    assert {"textual", "rapidfuzz", "numpy", "paperdeck.store.schedule"} & modules == set()
    assert "pylatexenc" not in modules or command == "reviews"
    assert len(opened) <= 12
