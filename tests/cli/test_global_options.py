"""The global option (``--data-dir DIR``, also as ``--data-dir=DIR``) works in every position of
every command — before the command, after it, after its arguments — with or without ``--`` before
the arguments, as the README shows (``paperdeck --data-dir D search -- -decision:withdrawn``).

The default store (``$PAPERDECK_DATA_DIR``, pointed at a temporary directory here) is never
looked at or created when ``--data-dir`` is given.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from paperdeck.cli.main import COMMAND_NAMES, main
from paperdeck.cli.shell import SHELL_COMMANDS
from paperdeck.paths import DATA_DIR_ENV
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

REPO = Path(__file__).resolve().parents[2]
SEEDS = sorted((REPO / "seeds").glob("*.txt"))


def _forms(data_dir: Path) -> dict[str, list[str]]:
    return {"spaced": ["--data-dir", str(data_dir)], "joined": [f"--data-dir={data_dir}"]}


#: Where the option goes, around ``COMMAND ARGS`` (``dash``: a ``--`` before the arguments).
#: ``c`` is the command with its own options, ``a`` its arguments.
POSITIONS = {
    "before": lambda o, c, a, dash: [*o, *c, *dash, *a],
    "after-command": lambda o, c, a, dash: [*c, *o, *dash, *a],
    "after-arguments": lambda o, c, a, dash: [*c, *a, *o] if not dash else [*c, *o, *dash, *a],
}


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("store") / "data"
    import_files(Store(data_dir), [SEEDS[0]])
    return data_dir


@pytest.fixture(scope="module")
def copilot_server() -> Iterator[str]:
    """A local Paper Copilot root serving a few ICLR 2018 papers (``paperdeck fetch`` needs no login there)."""
    from tests.fetch.api_server import ApiServer
    from tests.helpers import COPILOT_2018_NAME, fixture

    with ApiServer() as server:
        records = json.loads(fixture(COPILOT_2018_NAME).read_text("utf-8"))[:5]
        server.copilot["iclr/iclr2018.json"] = json.dumps(records).encode()
        yield server.url + "/pc"


@pytest.fixture(autouse=True)
def default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, copilot_server: str) -> Path:
    default = tmp_path / "default-store"
    monkeypatch.setenv(DATA_DIR_ENV, str(default))
    monkeypatch.setenv("PAPERDECK_PAPERCOPILOT_URL", copilot_server)
    return default


def _commands(store_dir: Path, tmp_path: Path) -> dict[str, list[str]]:
    """Each command with arguments it accepts (ones that start with ``-`` need ``--``)."""
    paper_id = Store(store_dir).paper_ids[0]
    return {
        "import": [str(SEEDS[0])],
        "search": ["graph"],
        "list": [],
        "show": [paper_id],
        "reviews": [paper_id],
        "stats": [],
        "star": [paper_id],
        "unstar": [paper_id],
        "note": [paper_id],
        "status": [paper_id, "read"],
        "tag": [paper_id, "moe"],
        "untag": [paper_id, "moe"],
        "export": ["graph"],  # with --format csv (see OPTIONS); a query that selects papers
        "similar": [paper_id],
        "follow": ["keyword", "graph"],
        "unfollow": ["keyword", "graph"],
        "following": [],
        "changes": [],
        "fetch": ["papercopilot:iclr2018"],  # from the local server (copilot_server)
        "remove": [paper_id],  # the first paper then: each case removes another
        "plan": [],
    }


def test_every_command_is_covered(store_dir: Path, tmp_path: Path) -> None:
    commands = _commands(store_dir, tmp_path)
    assert set(commands) == set(COMMAND_NAMES) - SHELL_COMMANDS  # those open no store
    assert {name for name, args in commands.items() if not args} == set(NO_ARGUMENTS)


#: A command's own options, given right after it.
OPTIONS = {"export": ["--format", "csv"]}
#: Commands without arguments (nothing to put after ``--``).
NO_ARGUMENTS = ("list", "stats", "following", "changes", "plan")
CASES = [
    pytest.param(command, position, form, dash, id=f"{command}-{position}-{form}{'-dash' if dash else ''}")
    for command in COMMAND_NAMES
    if command not in SHELL_COMMANDS
    for position in POSITIONS
    for form in ("spaced", "joined")
    for dash in (False, True)
    if not (dash and command in NO_ARGUMENTS)
]


@pytest.mark.parametrize(("command", "position", "form", "dash"), CASES)
def test_the_data_dir_option_works_in_every_position(
    command: str,
    position: str,
    form: str,
    dash: bool,
    store_dir: Path,
    tmp_path: Path,
    default_store: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if command == "note":
        monkeypatch.setattr("sys.stdin", io.StringIO("a note\n"))
    args = _commands(store_dir, tmp_path)[command]
    own = [command, *OPTIONS.get(command, [])]
    argv = POSITIONS[position](_forms(store_dir)[form], own, args, ["--"] if dash else [])
    code = main(argv)
    assert code == 0, (argv, capsys.readouterr().err)
    assert not default_store.exists(), f"{argv}: the default store was created"


@pytest.mark.parametrize("form", ["spaced", "joined"])
def test_a_query_starting_with_a_dash_after_dash_dash_as_the_readme_shows(
    form: str, store_dir: Path, default_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = _forms(store_dir)[form]
    assert main([*options, "search", "--json", "--", "-decision:withdrawn"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found and all(paper["decision"] != "withdrawn" for paper in found)
    assert not default_store.exists()


def test_import_after_dash_dash_goes_to_the_store_given(tmp_path: Path, default_store: Path) -> None:
    data_dir = tmp_path / "given"
    assert main(["--data-dir", str(data_dir), "import", "--", str(SEEDS[1])]) == 0
    assert not Store(data_dir).is_empty
    assert not default_store.exists(), "the default store was created"


def test_the_option_after_the_command_wins_over_the_one_before(tmp_path: Path, store_dir: Path) -> None:
    other = tmp_path / "other"
    assert main(["--data-dir", str(other), "import", str(SEEDS[1]), "--data-dir", str(store_dir)]) == 0
    assert not other.exists()
