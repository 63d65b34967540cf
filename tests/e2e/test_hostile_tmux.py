"""End to end: hostile paper lists of every format, imported with the installed ``paperdeck``, shown
in a real terminal (tmux) whose every byte from the app is logged (``tmux pipe-pane``).

The raw log must hold no escape sequence that came from the data: no payload marker, no OSC 52
but the app's own clipboard writes of clean text, no OSC 8 hyperlink to anything but http(s), no
raw ESC, BEL or C1 control left once the app's own sequences are taken out
(:func:`tests.hostile_corpus.terminal_log_problems`).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from paperdeck.model.errors import PaperdeckError
from paperdeck.sources import read_source

from tests.e2e.test_tmux import PAPERDECK, Terminal, terminals  # noqa: F401 (the fixture)
from tests.hostile_corpus import WRITERS, terminal_log_problems, write_corpus

pytestmark = pytest.mark.e2e


def importable(paths: list[Path]) -> list[Path]:
    """The hostile files paperdeck takes (a text file with NUL in it is refused as a whole)."""
    kept = []
    for path in paths:
        try:
            read_source(path)
        except PaperdeckError:
            continue
        kept.append(path)
    return kept


def test_a_raw_terminal_log_over_hostile_papers_holds_no_sequence_from_the_data(
    terminals: list[Terminal],  # noqa: F811
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    files = importable(write_corpus(tmp_path / "files"))
    assert {path.name.split("-")[1] for path in files} >= {name.split("-")[0] for name in WRITERS}
    result = subprocess.run(
        [str(PAPERDECK), "--data-dir", str(data_dir), "import", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout + result.stderr

    log = tmp_path / "terminal.log"
    env = {"PAPERDECK_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}
    # The app starts once the pipe is in place, so the log holds its very first byte.
    terminal = Terminal(["sh", "-c", f"sleep 1; exec {PAPERDECK}"], env)
    terminals.append(terminal)
    subprocess.run([*terminal.tmux, "pipe-pane", "-o", "-t", terminal.name, f"cat >> {log}"], check=True)
    terminal.wait_ready("papers", timeout=40)
    for step in range(60):
        terminal.keys("j")
        if step % 6 == 0:
            terminal.keys("y")  # the title and link to the clipboard (the app's own OSC 52)
            terminal.keys("o")  # the link chooser, or a refused link's message
            time.sleep(0.3)
            terminal.keys("Escape")
    terminal.keys("G")
    terminal.keys("q")
    terminal.wait_exit()

    raw = log.read_bytes()
    assert len(raw) > 10_000, "the log caught nothing"
    text = raw.decode("utf-8", errors="replace")
    problems = terminal_log_problems(text)
    assert not problems, f"{len(problems)} problems, e.g. {problems[:5]}"
    assert "␛" in text  # the data's escapes were drawn, made visible
