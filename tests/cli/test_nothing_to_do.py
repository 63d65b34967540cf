"""Exit status 1 is "the command was right, but there was nothing to do" (docs/cli.md's table):
every such path of every subcommand says why in one line, changes nothing and exits 1; a wrong
command or bad input stays 2, a paper already as asked 0.

A tester's find (round 16): ``import --undo`` and ``remove --undo`` with nothing to undo, and
``note ID </dev/null``, exited 2, as for a wrong command."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from paperdeck.store.store import Store

from tests.helpers import SEEDS, run


@pytest.fixture
def data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> str:
    """A store of the bundled seeds, as the command line made it, its import undone: nothing
    left to undo, no paper starred, no note."""
    folder = str(tmp_path / "data")
    assert run(capsys, "import", *map(str, sorted(SEEDS.glob("*.txt"))), "--data-dir", folder)[0] == 0
    assert run(capsys, "import", "--undo", "--data-dir", folder)[0] == 0
    assert run(capsys, "import", *map(str, sorted(SEEDS.glob("*.txt"))), "--data-dir", folder)[0] == 0
    assert run(capsys, "remove", Store(Path(folder)).paper_ids[0], "--data-dir", folder)[0] == 0
    assert run(capsys, "remove", "--undo", "--data-dir", folder)[0] == 0
    return folder


def files(data: str) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in sorted(Path(data).rglob("*")) if path.is_file()}


NOTHING_TO_DO = [
    (("import", "--undo"), "", "nothing to undo: no import to take back"),
    (("remove", "--undo"), "", "nothing to undo: no removal to take back"),
    (("remove", "zzqqxxnonesuch"), "", "no paper matches 'zzqqxxnonesuch'; nothing was removed"),
    (("note", "{id}"), "", "standard input was empty: the note of"),
    (("note", "{id}"), " \n\n", "standard input was empty: the note of"),
    (("similar", "--starred"), "", "nothing is starred yet"),
    (("search", "like:starred"), "", "like:starred ranks by your starred papers: star some first"),
    (("export", "like:starred", "--format", "json"), "", "star some first"),
]


@pytest.mark.parametrize(
    ("command", "stdin", "said"), NOTHING_TO_DO, ids=lambda value: " ".join(value) if isinstance(value, tuple) else None
)
def test_nothing_to_do_is_one_line_and_exit_status_1(
    capsys: pytest.CaptureFixture[str], data: str, command: tuple[str, ...], stdin: str, said: str
) -> None:
    paper_id = Store(Path(data)).paper_ids[0]
    before = files(data)
    sys_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        code, out, err = run(capsys, *(part.format(id=paper_id) for part in command), "--data-dir", data)
    finally:
        sys.stdin = sys_stdin
    assert (code, out, err.count("\n")) == (1, "", 1), (code, out, err)
    assert said in err, err
    assert files(data) == before  # nothing changed


def test_the_other_kind_of_change_is_nothing_to_undo_and_names_its_command(
    capsys: pytest.CaptureFixture[str], data: str
) -> None:
    run(capsys, "remove", Store(Path(data)).paper_ids[0], "--data-dir", data)
    code, _, err = run(capsys, "import", "--undo", "--data-dir", data)
    assert code == 1 and "`paperdeck remove --undo` takes it back" in err


def test_a_wrong_command_stays_2_and_a_paper_already_as_asked_0(capsys: pytest.CaptureFixture[str], data: str) -> None:
    paper_id = Store(Path(data)).paper_ids[0]
    assert run(capsys, "remove", "--undo", "x", "--data-dir", data)[0] == 2  # takes no ids
    assert run(capsys, "import", "--data-dir", data)[0] == 2  # no files, no --undo
    assert run(capsys, "similar", "--data-dir", data)[0] == 2  # neither an id nor --starred
    assert run(capsys, "note", "openreview:nonesuch", "--text", "x", "--data-dir", data)[0] == 2  # unknown id
    assert run(capsys, "search", "like:openreview:nonesuch", "--data-dir", data)[0] == 2  # names no paper
    assert run(capsys, "untag", paper_id, "never-there", "--data-dir", data)[0] == 0  # already so
    assert run(capsys, "unstar", paper_id, "--data-dir", data)[0] == 0
    assert run(capsys, "unfollow", "author", "Nobody Here", "--data-dir", data)[0] == 0
