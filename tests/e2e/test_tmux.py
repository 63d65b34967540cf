"""End to end: the installed ``paperdeck`` in a real terminal (tmux), typed at like a person.

Filter, star, write a note, quit; start again and find both.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.waits import GUARD_S

pytestmark = pytest.mark.e2e

PAPERDECK = Path(sys.executable).parent / "paperdeck"


class Terminal:
    """One tmux session running a command; read the screen, send keys.

    Each terminal has a tmux server of its own (``tmux -S SOCKET``, :attr:`tmux`): a user's tmux,
    or another test's, never sees its session, and a ``tmux kill-server`` of theirs never ends it.
    """

    def __init__(self, command: list[str], env: dict[str, str], width: int = 120, height: int = 36) -> None:
        self.name = f"paperdeck-e2e-{uuid.uuid4().hex[:8]}"
        self.socket = Path(tempfile.gettempdir()) / f"{self.name}.tmux"
        #: The tmux command line of this terminal's own server.
        self.tmux = ["tmux", "-S", str(self.socket)]
        exports = [f"{key}={value}" for key, value in env.items()]
        subprocess.run(
            [
                *self.tmux,
                "new-session",
                "-d",
                "-s",
                self.name,
                "-x",
                str(width),
                "-y",
                str(height),
                "env",
                *exports,
                *command,
            ],
            check=True,
        )

    def screen(self) -> str:
        result = subprocess.run(
            [*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True, check=False
        )
        return result.stdout

    def wait_for(self, text: str, timeout: float = GUARD_S) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")

    def wait_ready(self, text: str, timeout: float = GUARD_S) -> str:
        """Wait for ``text`` and for the search index ("indexing…" gone)."""
        self.wait_for(text, timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if "indexing" not in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"the index was never ready; the screen was:\n{self.screen()}")

    def burst(self, *keys: str) -> None:
        """Send keys in one go, faster than the app can handle them one by one."""
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*self.tmux, "send-keys", "-t", self.name, key], check=True)
            time.sleep(0.15)

    def type(self, text: str) -> None:
        for char in text:  # one key at a time, as a person types
            subprocess.run([*self.tmux, "send-keys", "-t", self.name, "-l", char], check=True)
            time.sleep(0.03)

    def alive(self) -> bool:
        return subprocess.run([*self.tmux, "has-session", "-t", self.name], capture_output=True).returncode == 0

    def wait_exit(self, timeout: float = GUARD_S) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                return
            time.sleep(0.1)
        raise AssertionError(f"paperdeck did not quit; the screen was:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-session", "-t", self.name], capture_output=True, check=False)
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, check=False)
        self.socket.unlink(missing_ok=True)


def user_records(data_dir: Path) -> list[dict[str, object]]:
    """Every user record on disk, read straight from the shards (``user/00.json`` … ``3f.json``;
    not the follows, nor the undo steps kept beside them), not through paperdeck."""
    return [
        record
        for shard in sorted((data_dir / "user").glob("[0-9a-f][0-9a-f].json"))
        for record in json.loads(shard.read_text("utf-8"))["user"].values()
    ]


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: .ci/run installs it; locally run `apt-get install tmux`")
    assert PAPERDECK.exists(), f"{PAPERDECK} is missing: run `make test`, which installs it"
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def test_filter_star_note_quit_and_find_them_again(terminals: list[Terminal], tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = {"PAPERDECK_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}

    first = Terminal([str(PAPERDECK)], env)
    terminals.append(first)
    first.wait_ready("37 papers")
    first.burst("/", "R", "E", "A", "P")  # typed at once: no key may be lost or go elsewhere
    first.wait_for(" of 37")
    screen = first.wait_for("REAP: Router-weighted")
    first.burst("Enter", "s")  # the star must land on the paper, not in the filter bar
    first.wait_for("★ 1")
    assert "REAPs" not in first.screen()
    first.keys("n")
    first.wait_for("ctrl+s save")
    # Typed and saved in one burst: the save must come after every character.
    first.burst("-l", "Check the [bold] pruning table, 5% claim")
    first.burst("C-s")
    first.wait_for("Note saved")
    first.keys("q")
    first.wait_exit()
    assert "REAP" in screen

    records = user_records(data_dir)
    assert len(records) == 1
    assert records[0]["starred"] is True
    assert records[0]["note"] == "Check the [bold] pruning table, 5% claim"

    second = Terminal([str(PAPERDECK)], env)
    terminals.append(second)
    second.wait_ready("37 papers · ★ 1")
    # At once: a key pressed while the catalogue is still being parsed is kept (tests/ui/test_keys_at_start.py).
    second.keys("S")
    screen = second.wait_for("1 of 37 · ★ 1 · starred only")
    assert "★✎ REAP" in screen
    second.keys("Enter")  # the paper full screen: its note below the abstract's head at any size
    second.wait_for("Check the [bold] pruning table, 5% claim")
    second.keys("Escape")
    second.wait_for("1 of 37 · ★ 1 · starred only")
    second.keys("q")
    second.wait_exit()


def test_note_through_a_fake_editor(terminals: list[Terminal], tmp_path: Path) -> None:
    """``N`` suspends the app, runs $EDITOR on the note file, and saves what it wrote."""
    editor = tmp_path / "fake editor"  # a space in the path: arguments, never a shell
    editor.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        "path = sys.argv[-1]\n"
        "text = open(path).read()\n"
        "assert text.index('Write your note above') < text.index('- id: '), text\n"
        "open(path, 'a').write('Edited in $EDITOR: see table 2')\n"
    )
    editor.chmod(0o755)
    data_dir = tmp_path / "data"
    env = {"PAPERDECK_DATA_DIR": str(data_dir), "TERM": "xterm-256color", "VISUAL": shlex.quote(str(editor))}
    terminal = Terminal([str(PAPERDECK)], env)
    terminals.append(terminal)
    terminal.wait_ready("37 papers")
    terminal.keys("N")
    terminal.wait_for("Note saved")
    screen = terminal.wait_for("Edited in $EDITOR: see table 2")
    assert "✎" in screen
    terminal.keys("q")
    terminal.wait_exit()
    notes = [record["note"] for record in user_records(data_dir)]
    assert notes == ["Edited in $EDITOR: see table 2"]


#: paperdeck, waiting for the user data's lock as long as a test holds it (the store's 10 s, in
#: the tests that hold it while they type through tmux, ran out on a loaded machine).
PATIENT_PAPERDECK = [
    sys.executable,
    "-c",
    "import paperdeck.store.user_data as u; u._LOCK_TIMEOUT_S = 600.0; "
    "from paperdeck.cli.main import main; raise SystemExit(main())",
]


def test_keys_typed_while_another_paperdeck_holds_the_store_land_where_typed(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    """A tag's Enter while the store's lock is held elsewhere: the app does not wait for the lock,
    the next keys go to the list and the next tag prompt (never ``ujttui8`` in one tag), "saving…"
    shows, and once the lock is free both tags are on disk, each on its own paper."""
    import os

    from paperdeck.store.lock import FileLock

    data_dir = tmp_path / "data"
    env = {"PAPERDECK_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}
    env["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")  # the paperdeck under test
    first = Terminal(PATIENT_PAPERDECK, env)
    terminals.append(first)
    first.wait_ready("37 papers")
    (data_dir / "user").mkdir(mode=0o700, exist_ok=True)
    other = FileLock(data_dir / "user" / ".lock", timeout=5.0)  # another paperdeck, writing
    other.acquire()
    try:
        first.keys("T")  # typed as a person types, the screen never waited for
        first.type("ujt")
        first.keys("Enter", "j", "T")
        first.type("tui8")
        first.keys("Enter")
        first.wait_for("saving…")
        assert not user_records(data_dir)  # nothing written while the lock is held
    finally:
        other.release()
    deadline = time.monotonic() + GUARD_S
    while time.monotonic() < deadline and len(user_records(data_dir)) < 2:
        time.sleep(0.1)
    records = user_records(data_dir)
    assert sorted(tuple(r["tags"]) for r in records) == [("tui8",), ("ujt",)], records  # type: ignore[arg-type]
    assert len({r["paper_id"] for r in records}) == 2
    first.keys("q")
    first.wait_exit()


@pytest.mark.parametrize("locked", [False, True], ids=["free", "locked"])
def test_a_burst_of_keys_lands_where_typed(terminals: list[Terminal], tmp_path: Path, locked: bool) -> None:
    """Tags, moves and a star sent in one ``send-keys`` (all in the app's input at once), the store's
    lock held by another paperdeck or not: the keys after ``T`` go to the tags prompt it opens
    (none dropped before the prompt has focus), those after its Enter to the list."""
    import os

    from paperdeck.store.lock import FileLock

    data_dir = tmp_path / "data"
    env = {"PAPERDECK_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}
    env["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")  # the paperdeck under test
    first = Terminal(PATIENT_PAPERDECK, env)
    terminals.append(first)
    first.wait_ready("37 papers")
    (data_dir / "user").mkdir(mode=0o700, exist_ok=True)
    other = FileLock(data_dir / "user" / ".lock", timeout=5.0)  # another paperdeck, writing
    if locked:
        other.acquire()
    try:
        first.burst("T", "u", "j", "t", "Enter", "j", "T", "t", "u", "i", "8", "Enter", "j", "s")
        first.wait_for("★ starred")  # the last key: a star on the third paper, shown in its detail
        if locked:
            first.wait_for("saving…")
            assert not user_records(data_dir)  # nothing written while the lock is held
    finally:
        if locked:
            other.release()
    deadline = time.monotonic() + GUARD_S
    while time.monotonic() < deadline and len(user_records(data_dir)) < 3:
        time.sleep(0.1)
    records = user_records(data_dir)
    tags = sorted(tuple(r["tags"]) for r in records if r["tags"])  # type: ignore[arg-type]
    assert tags == [("tui8",), ("ujt",)], records
    assert [r["starred"] for r in records].count(True) == 1, records
    assert len({r["paper_id"] for r in records}) == 3, records
    first.keys("q")
    first.wait_exit()
