"""``paperdeck WORD``: a mistyped subcommand is named as one (``did you mean search?``), not read as a
file that does not exist; the corpus of typos is made from the subcommands the parser declares."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from paperdeck.cli.main import build_command_parser

from tests.helpers import run


def _commands() -> list[str]:
    parser = build_command_parser()
    actions = parser._subparsers._group_actions if parser._subparsers is not None else []
    return [name for a in actions if isinstance(a, argparse._SubParsersAction) for name in a.choices]


COMMANDS = _commands()


def _typos(name: str) -> set[str]:
    """One slip of the hand each: two neighbouring letters swapped, one left out (names of four
    letters and more), one doubled."""
    swapped = {name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1)}
    dropped = {name[:i] + name[i + 1 :] for i in range(len(name))} if len(name) >= 4 else set()
    doubled = {name[:i] + name[i] + name[i:] for i in range(len(name))}
    return (swapped | dropped | doubled) - set(COMMANDS) - {name}


def _distance(a: str, b: str) -> int:
    """Edit distance with neighbouring swaps (optimal string alignment)."""
    rows = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


CORPUS = sorted((typo, name) for name in COMMANDS for typo in _typos(name))


def test_the_corpus_covers_every_subcommand() -> None:
    assert len(COMMANDS) >= 19 and "search" in COMMANDS
    assert {name for _, name in CORPUS} == set(COMMANDS)


def test_every_typo_of_every_subcommand_suggests_a_command_one_slip_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no file of the typo's name
    data = tmp_path / "data"
    wrong: list[str] = []
    for typo, _ in CORPUS:
        code, out, err = run(capsys, "--data-dir", str(data), typo)
        found = re.fullmatch(rf'paperdeck: no command or file "{re.escape(typo)}" — did you mean ([a-z]+)\?\n', err)
        if code != 2 or out or found is None or _distance(typo, found[1]) != 1:
            wrong.append(f"{typo}: {code} {err!r}")
    assert not wrong, wrong
    assert not data.exists()  # nothing was opened, let alone made


def test_the_serach_of_the_issue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "serach", "diffusion")
    assert (code, out, err) == (2, "", 'paperdeck: no command or file "serach" — did you mean search?\n')


def test_a_word_close_to_no_command_lists_the_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--data-dir", str(tmp_path / "data"), "xyzzy")
    assert code == 2 and not out and err.count("\n") == 1
    assert err.startswith('paperdeck: no command or file "xyzzy"; commands: ')
    assert all(name in err for name in COMMANDS)


def test_a_missing_path_is_still_a_missing_file_and_an_existing_one_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed_files: list[Path]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--data-dir", str(tmp_path / "data"), "lists/serach.csv")
    assert code == 2 and "serach.csv: no such file" in err and "did you mean" not in err
    # A file named like a typo is a file: it is imported (here, the app is stood in for).
    Path("serach").write_bytes(seed_files[0].read_bytes())
    from paperdeck.cli import main as cli_main

    assert cli_main._mistyped_command(["serach"]) is None
    assert cli_main._mistyped_command(["--data-dir", "x", "serach"]) is None
    Path("serach").unlink()
    assert cli_main._mistyped_command(["--data-dir", "x", "serach"]) is not None
    assert cli_main._mistyped_command(["--format=csv", "--data-dir=x", "--format", "csv", "serach"]) is not None
