"""End to end: the app ends when its terminal goes away, whether or not a hang-up signal reaches it.

A terminal closing (a window closed, ``tmux kill-session``, an SSH connection lost) is told by
SIGHUP only to the session's leader: under ``make run`` that is ``make``, which waits for the
app instead of passing the signal on; under ``nohup`` the signal is ignored. The app must notice
by itself (its input ends, its output fails), end without spinning, and lose nothing: the note
being typed is saved, no lock is left held.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_tmux import PAPERDECK, Terminal, user_records
from tests.waits import block_until

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
#: An escape sequence the app writes (cursor moves, colours, modes): taken out of the output, the
#: text drawn on the screen is left, whatever frames it was split into.
ESCAPE = re.compile(r"\x1b(?:\[[0-9;?<>=$ ]*[A-Za-z~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def _env(data_dir: Path) -> dict[str, str]:
    """The app's environment: this one (its ``PYTHONPATH`` picks the code under test), a fresh
    data directory (the bundled seeds are imported at the first start)."""
    return {**os.environ, "TERM": "xterm-256color", "PAPERDECK_DATA_DIR": str(data_dir)}


def _hang_ups_never_arrive() -> None:
    """In the child before it runs the app: a session of its own on the pseudo-terminal (it is
    the session's leader, as a program started by a terminal emulator is: the kernel sends it
    SIGHUP and SIGCONT when the terminal goes), with SIGHUP both ignored and blocked."""
    os.setsid()
    fcntl.ioctl(1, termios.TIOCSCTTY, 0)  # its output: the terminal in every test here
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})


class Pty:
    """The app on a pseudo-terminal whose far end this test holds: read what it draws, type."""

    def __init__(self, data_dir: Path, stdin: int | None = None, **env: str) -> None:
        self.primary, secondary = os.openpty()
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        self.process = subprocess.Popen(
            [str(PAPERDECK)],
            stdin=secondary if stdin is None else stdin,
            stdout=secondary,
            stderr=secondary,
            env={**_env(data_dir), **env},
            preexec_fn=_hang_ups_never_arrive,
            close_fds=True,
        )
        os.close(secondary)
        self.output = bytearray()
        self.closed = False

    def text(self) -> str:
        """What the app drew so far, escape sequences taken out."""
        return ESCAPE.sub("", self.output.decode("utf-8", "replace"))

    def read(self) -> None:
        while select.select([self.primary], [], [], 0)[0]:
            try:
                chunk = os.read(self.primary, 65536)
            except OSError:  # the app closed its end
                return
            if not chunk:
                return
            self.output += chunk

    def wait_for(self, text: str) -> None:
        def drawn() -> bool:
            self.read()
            return text in self.text()

        block_until(drawn, what=lambda: f"{text!r} on the screen; the app drew:\n{self.text()[-2000:]}")

    def type(self, text: str) -> None:
        os.write(self.primary, text.encode())

    def close(self) -> None:
        """Close the terminal: this end of the pseudo-terminal, the last one (a window closed)."""
        if not self.closed:
            self.closed = True
            os.close(self.primary)


@pytest.fixture
def pty_app(tmp_path: Path) -> Iterator[Pty]:
    assert PAPERDECK.exists(), f"{PAPERDECK} is missing: run `make test`, which installs it"
    app = Pty(tmp_path / "data")
    yield app
    app.close()
    if app.process.poll() is None:
        app.process.kill()
        app.process.wait()


def _cpu_ticks(pid: int) -> int | None:
    """The CPU time (user and system, in clock ticks) process ``pid`` has used; None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def _lock_free(path: Path) -> bool:
    """Whether no process holds the lock on ``path`` (a missing file is no lock)."""
    if not path.exists():
        return True
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def test_closing_the_terminal_ends_the_app_and_saves_the_note_typed(pty_app: Pty, tmp_path: Path) -> None:
    pty_app.wait_for("37 papers")
    pty_app.type("n")
    pty_app.wait_for("ctrl+s save")
    pty_app.type("Typed before the window closed")
    pty_app.wait_for("Typed before the window closed")
    pty_app.close()  # the kernel hangs the terminal up; the SIGHUP it sends is ignored and blocked

    # Seconds of CPU the app may use from here on, however long it takes to end: enough to save
    # and shut down (well under a second of CPU), far below a busy loop's share of the guard's 30 s.
    ticks_per_s = os.sysconf("SC_CLK_TCK")
    start = _cpu_ticks(pty_app.process.pid)
    assert start is not None
    spent: list[int] = []

    def ended() -> bool:
        ticks = _cpu_ticks(pty_app.process.pid)
        if ticks is not None:
            spent.append(ticks - start)
        return pty_app.process.poll() is not None

    block_until(ended, what=lambda: f"the app to end; CPU used since the close: {spent[-1:]} ticks")
    assert not spent or max(spent) < 5 * ticks_per_s, f"the app spun: {max(spent)} ticks of CPU"
    assert pty_app.process.returncode == 0
    notes = [record["note"] for record in user_records(tmp_path / "data")]
    assert notes == ["Typed before the window closed"]
    data_dir = tmp_path / "data"
    assert _lock_free(data_dir / "user" / ".lock") and _lock_free(data_dir / ".import.lock")


def test_closing_the_terminal_under_the_external_editor_keeps_what_it_wrote(tmp_path: Path) -> None:
    """``N`` runs $EDITOR with the app suspended (its driver stopped); the terminal closes under
    the editor, which ends at its end of input. The app, resuming on a terminal that is gone,
    saves what the editor wrote and ends."""
    mark = tmp_path / "editor-ran"
    editor = tmp_path / "editor"
    editor.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "open(sys.argv[-1], 'a').write('Written in the editor')\n"
        f"open({str(mark)!r}, 'w').write('writing done')\n"
        "try:\n"
        "    while os.read(0, 100):  # until the end of input: the terminal gone\n"
        "        pass\n"
        "except OSError:\n"
        "    pass\n"
    )
    editor.chmod(0o755)
    app = Pty(tmp_path / "data", VISUAL=str(editor))
    try:
        app.wait_for("37 papers")
        app.type("N")
        drew = lambda: f"the editor to run; the app drew:\n{app.text()[-2000:]}"  # noqa: E731
        block_until(lambda: (app.read(), mark.exists())[1], what=drew)
        app.close()
        block_until(lambda: app.process.poll() is not None, what="the app to end")
    finally:
        app.close()
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
    assert app.process.returncode == 0
    assert [record["note"] for record in user_records(tmp_path / "data")] == ["Written in the editor"]


def test_an_input_ended_from_the_start_ends_the_app(tmp_path: Path) -> None:
    """``paperdeck < /dev/null`` on a terminal: its input ends at once. Textual's input thread spun
    on it for ever; the app now ends, once its first screen is up, with no error."""
    app = Pty(tmp_path / "data", stdin=subprocess.DEVNULL)
    try:
        block_until(lambda: (app.read(), app.process.poll() is not None)[1], what="the app to end")
        app.read()
    finally:
        app.close()
        if app.process.poll() is None:
            app.process.kill()
            app.process.wait()
    assert app.process.returncode == 0, app.text()[-2000:]
    assert "Error" not in app.text() and "Traceback" not in app.text()


def _processes_under(session_pid: int) -> list[tuple[int, str]]:
    """Every process whose session is ``session_pid`` (``ps``): its id and command line."""
    out = subprocess.run(["ps", "-eww", "-o", "pid=,sid=,args="], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        pid, sid, *args = line.split(None, 2)
        if int(sid) == session_pid:
            found.append((int(pid), " ".join(args)))
    return found


def test_make_run_in_tmux_ends_with_its_session(tmp_path: Path) -> None:
    """``make run`` (the README's command) in a tmux session, then ``tmux kill-session``: make is
    the session's leader and gets the SIGHUP; it waits for the app without passing it on. The
    app must notice by itself, so that neither it nor make is left behind."""
    if shutil.which("tmux") is None or shutil.which("make") is None:
        pytest.fail("tmux and make are needed: .ci/run installs them; locally `apt-get install tmux make`")
    venv = Path(sys.executable).parent.parent
    env = {key: value for key, value in _env(tmp_path / "data").items() if key in ("PYTHONPATH", "TERM")}
    env["PAPERDECK_DATA_DIR"] = str(tmp_path / "data")
    # -o: the venv counts as installed (the test runs the recipe; it never installs anything).
    # The flags of a make this test may run under (`make test`) are not the inner make's.
    unset = ["env", "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL"]
    command = [*unset, "make", "-s", "-C", str(ROOT), "-o", f"{venv}/.installed-app", "run", f"VENV={venv}"]
    terminal = Terminal(command, env)
    try:
        terminal.wait_ready("37 papers")
        leader = subprocess.run(
            [*terminal.tmux, "display-message", "-p", "-t", terminal.name, "#{pane_pid}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        session = os.getsid(int(leader))
        assert any("bin/paperdeck" in args for _, args in _processes_under(session))
    finally:
        terminal.close()  # tmux kill-session
    try:
        block_until(lambda: not _processes_under(session), what=lambda: f"no process left: {_processes_under(session)}")
    finally:  # what this test started is not left running when it fails
        for pid, _ in _processes_under(session):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_quit_typed_at_once_ends_the_app_cleanly(pty_app: Pty) -> None:
    """``q`` typed before the first frame (the keys wait in the terminal): the app ends with no
    error, although its footer, mounted after the first frame, was never put in its row."""
    pty_app.type("q")
    block_until(lambda: (pty_app.read(), pty_app.process.poll() is not None)[1], what="the app to end")
    pty_app.read()
    assert pty_app.process.returncode == 0, pty_app.text()[-2000:]
    assert "Error" not in pty_app.text() and "Traceback" not in pty_app.text()
