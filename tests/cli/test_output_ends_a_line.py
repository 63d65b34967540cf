"""Every command's output ends with a newline: the shell's next prompt starts on a line of its own
(a tester's find: ``paperdeck completion bash`` ended mid-line, the prompt running on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run

SHELL_COMMANDS = [("completion", "bash"), ("completion", "zsh"), ("completion", "fish"), ("man",)]


@pytest.mark.parametrize("words", SHELL_COMMANDS, ids=" ".join)
def test_a_shell_script_or_page_ends_a_line(capsys: pytest.CaptureFixture[str], words: tuple[str, ...]) -> None:
    code, out, _ = run(capsys, *words)
    assert code == 0 and out.endswith("\n"), out[-40:]


STORE_COMMANDS = [
    ("show", "{id}"),
    ("show", "--raw", "{id}"),
    ("show", "--json", "{id}"),
    ("reviews", "{id}"),
    ("search", "learning"),
    ("list",),
    ("stats",),
    ("following",),
    ("changes",),
    ("plan",),
    ("star", "{id}"),
    ("tag", "{id}", "later"),
    ("export", "--format", "bibtex"),
    ("export", "--format", "markdown"),
]


@pytest.mark.parametrize("words", STORE_COMMANDS, ids=" ".join)
def test_a_command_on_a_store_ends_its_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed_files: list[Path], words: tuple[str, ...]
) -> None:
    data = str(tmp_path / "data")
    assert run(capsys, "import", *map(str, seed_files), "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "list", "--data-dir", data)
    assert code == 0
    paper = next(word for word in out.split() if ":" in word)  # the first row's id
    code, out, err = run(capsys, *(w.format(id=paper) for w in words), "--data-dir", data)
    assert out.endswith("\n") or out == "", out[-80:]
    assert err.endswith("\n") or err == "", err[-80:]
