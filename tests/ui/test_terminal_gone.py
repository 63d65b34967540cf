"""The app ends when its terminal goes away, whatever happened to the signals
(``paperdeck.ui._lines.terminal``): the driver's input ending or failing, its output failing, and
SIGHUP or SIGTERM all end the app the one way (``PaperApp.terminal_gone``), with nothing spinning
and nothing lost. The real process on a real pseudo-terminal: ``tests/e2e/test_hangup.py``."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from paperdeck.store.store import Store
from paperdeck.ui import refresh
from paperdeck.ui._lines.terminal import HangupDriver, TerminalOutput
from paperdeck.ui.app import PaperApp
from textual import events
from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from tests.ui.helpers import SIZE, settle
from tests.waits import GUARD_S, wait_for, wait_until

AppFactory = Callable[..., PaperApp]


class StubApp:
    """What the driver calls on its app: ``call_later`` (from any thread) and ``terminal_gone``,
    counted."""

    def __init__(self) -> None:
        self.gone = 0
        self._loop = asyncio.get_running_loop()

    def call_later(self, callback: Callable[[], object]) -> bool:
        self._loop.call_soon_threadsafe(callback)
        return True

    def terminal_gone(self) -> None:
        self.gone += 1


class RecordingDriver(HangupDriver):
    """The driver with the messages it would post to the app kept here instead."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.messages: list[Message] = []

    def process_message(self, message: Message) -> None:
        self.messages.append(message)


@pytest.fixture
def keep_stop_signals() -> Iterator[None]:
    """LinuxDriver takes SIGTSTP and SIGCONT when made: given back after the test."""
    before = {number: signal.getsignal(number) for number in (signal.SIGTSTP, signal.SIGCONT)}
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


def test_the_app_runs_on_the_watching_driver() -> None:
    """On a POSIX terminal the app's driver is :class:`HangupDriver` (Textual's own elsewhere)."""
    app = PaperApp.__new__(PaperApp)  # only the class's choice of driver is asked
    assert PaperApp.get_driver_class(app) is HangupDriver
    assert issubclass(HangupDriver, LinuxDriver)


@pytest.mark.usefixtures("keep_stop_signals")
async def test_the_end_of_input_ends_the_input_thread_and_tells_the_app_once() -> None:
    """Textual's input thread took the end of input for "nothing yet" and read again at once,
    for ever (a core spinning). Here the keys before it arrive, then the thread ends."""
    app = StubApp()
    driver = RecordingDriver(app)
    read_end, write_end = os.pipe()
    driver.fileno = read_end
    os.write(write_end, b"ab")
    os.close(write_end)
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    try:
        thread.start()
        await wait_until(lambda: not thread.is_alive(), what="the input thread to end at the end of input")
        await wait_until(lambda: app.gone, what="the app told")
    finally:
        driver.exit_event.set()
        thread.join(GUARD_S)
        os.close(read_end)
    assert [message.key for message in driver.messages if isinstance(message, events.Key)] == ["a", "b"]
    assert driver.gone
    driver.terminal_gone()  # told once, however many times it is found
    await asyncio.sleep(0)
    assert app.gone == 1


@pytest.mark.usefixtures("keep_stop_signals")
async def test_an_error_reading_the_terminal_ends_the_input_thread(tmp_path: Path) -> None:
    """A read that fails (``EIO`` on a hung-up terminal; here ``EISDIR``) is the terminal gone."""
    app = StubApp()
    driver = RecordingDriver(app)
    fd = os.open(tmp_path, os.O_RDONLY)  # always "readable"; every read fails
    driver.fileno = fd
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    try:
        thread.start()
        await wait_until(lambda: not thread.is_alive(), what="the input thread to end on a read error")
        await wait_until(lambda: app.gone, what="the app told")
    finally:
        driver.exit_event.set()
        thread.join(GUARD_S)
        os.close(fd)
    assert app.gone == 1


class FailingFile:
    """A terminal hung up: every write fails with ``EIO``."""

    def __init__(self) -> None:
        self.tries = 0

    def write(self, text: str) -> int:
        self.tries += 1
        raise OSError(5, "Input/output error")

    def flush(self) -> None:
        raise OSError(5, "Input/output error")

    def fileno(self) -> int:
        return 2


def test_a_failing_output_is_reported_once_and_never_blocks_the_writes() -> None:
    """Textual's writer thread ended at the first failed write; the app then blocked for ever
    on a write once its queue was full. The output drops what fails, so the writer lives on."""
    gone: list[bool] = []
    failing = FailingFile()
    writer = WriterThread(TerminalOutput(failing, lambda: gone.append(True)))  # type: ignore[arg-type]
    writer.start()
    for _ in range(MAX_QUEUED_WRITES * 4):  # more than the queue holds: would block with a dead writer
        writer.write("\x1b[?25l")
    writer.stop()  # joins: the writer took every write
    assert not writer.is_alive()
    assert gone == [True]
    assert failing.tries == 1  # nothing tried after the first failure


@pytest.mark.usefixtures("keep_stop_signals")
async def test_a_sigcont_without_a_stop_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel sends SIGCONT with a terminal's hang-up: Textual's driver then started a
    second input thread and writer beside the running ones (a second busy loop)."""
    driver = RecordingDriver(StubApp())
    started: list[bool] = []
    monkeypatch.setattr(LinuxDriver, "start_application_mode", lambda self: started.append(True))
    driver._sigcont_application()
    assert started == []
    monkeypatch.setattr(os, "kill", lambda pid, number: None)  # the SIGSTOP that suspends
    monkeypatch.setattr(LinuxDriver, "suspend_application_mode", lambda self: None)
    monkeypatch.setattr("paperdeck.ui._lines.terminal._hung_up", lambda fd: False)
    driver._sigtstp_application()
    driver._sigcont_application()  # after a ctrl+z: resumed
    assert started == [True]


async def test_the_terminal_gone_ends_the_app_and_stops_a_refresh_under_way(make_app: AppFactory) -> None:
    """The refresh's fetch is a child process: it ends with the app, however the app ended."""
    app = make_app()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            refresh._CHILDREN.add(child)
            app.terminal_gone()
            await wait_for(pilot, lambda: not app.is_running, what="the app to end")
        child.wait(GUARD_S)
        assert child.returncode == -signal.SIGTERM
    finally:
        refresh._CHILDREN.discard(child)
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.usefixtures("hangup_signals_at_default")
async def test_sighup_ends_the_app_when_no_note_is_open(make_app: AppFactory, seeded_store: Store) -> None:
    """Not only in the note editor: a hang-up ends the app the way a quit does (its ``on_unmount``
    runs), not by the signal's default (the process killed where it stood)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        os.kill(os.getpid(), signal.SIGHUP)
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert app.return_code in (0, None)
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL


async def test_a_hangup_ignored_at_start_stays_ignored(make_app: AppFactory) -> None:
    """``nohup paperdeck``: SIGHUP stays ignored (the driver still ends the app once its terminal
    is gone); SIGTERM is taken."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN, None)
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, previous)
