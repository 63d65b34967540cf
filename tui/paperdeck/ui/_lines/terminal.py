"""A terminal driver that notices its terminal going away.

When a terminal closes (a window closed, ``tmux kill-session``, an SSH connection lost), the
kernel hangs it up: reading it returns end of input at once, writing it fails (``EIO``), and only
the session's leader is sent SIGHUP (and SIGCONT). Whether the app hears of it by a signal
depends on what started it: a shell passes the hang-up on to its jobs, ``make`` waits for its
child instead, ``nohup`` and ``trap '' HUP`` ignore it. Textual's ``LinuxDriver`` does not look
at the terminal itself: its input thread takes the end of input for "nothing yet" and selects
again at once (a busy loop, one core), and the SIGCONT of the hang-up makes it start a second
input thread and writer beside the first (two busy loops); a write that fails ends its writer
thread, after which the app blocks on its next write once the writer's queue is full.

:class:`HangupDriver` is that driver with the terminal watched: end of input or an error reading
it, and an error writing it, are "the terminal is gone", which it tells the app once (its
``terminal_gone()``, else ``exit()``), on the event loop, as a SIGHUP does; nothing is read
after that, nothing is written, and nothing spins.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import threading
from codecs import getincrementaldecoder
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message

#: Bytes read from the terminal at once (as Textual reads).
_READ_SIZE = 1024 * 4


class TerminalOutput:
    """The terminal's output as Textual's writer thread writes it: a write or flush that fails
    (``EIO``: the terminal hung up; ``EPIPE``; any ``OSError``) is reported once to ``gone``, and
    from then on everything is dropped, so that the writer thread lives on and the app never
    blocks on a full queue of writes.

    Args:
        file: the terminal's output (Textual's: ``sys.__stderr__``).
        gone: called (in the writer's thread) the first time a write fails.
    """

    def __init__(self, file: IO[str], gone: Callable[[], None]) -> None:
        self._file = file
        self._gone = gone
        self.failed = False

    def _failed(self) -> None:
        if not self.failed:
            self.failed = True
            self._gone()

    def write(self, text: str) -> None:
        if self.failed:
            return
        try:
            self._file.write(text)
        except OSError:
            self._failed()

    def flush(self) -> None:
        if self.failed:
            return
        try:
            self._file.flush()
        except OSError:
            self._failed()

    def fileno(self) -> int:
        return self._file.fileno()


class HangupDriver(LinuxDriver):
    """Textual's ``LinuxDriver`` that ends the app when its terminal goes away (see the module
    docstring): the end of its input or an error reading it (the input thread), an error writing
    it (:class:`TerminalOutput`), or application mode started (or resumed after ``ctrl+z``) on a
    terminal already hung up call :meth:`terminal_gone`.

    Textual internals touched: ``LinuxDriver.run_input_thread`` (copied, the reading changed),
    ``LinuxDriver._file`` (wrapped), ``_sigtstp_application`` / ``_sigcont_application``
    (a SIGCONT resumes only what a SIGTSTP suspended).
    """

    def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None):
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._gone_lock = threading.Lock()
        self._gone = False
        self._stopped_by_signal = False
        if self._file is not None:  # Textual's output: sys.__stderr__
            self._file = TerminalOutput(self._file, self.terminal_gone)  # type: ignore[assignment]

    @property
    def gone(self) -> bool:
        """Whether the terminal was found gone."""
        return self._gone

    def terminal_gone(self) -> None:
        """The terminal is gone: tell the app once (its ``terminal_gone()`` when it has one, else
        ``exit()``), on its event loop, among its messages (so not before it handles messages).
        Callable from any thread, any number of times."""
        with self._gone_lock:
            if self._gone:
                return
            self._gone = True
        # Through the app's messages (``call_later`` is safe from any thread, as Textual's input
        # thread uses it): handled once the app is up and in order, as a quit key would be; an
        # app already ending takes no more (and a closed loop, none at all).
        with contextlib.suppress(RuntimeError):
            self._app.call_later(self._tell_app)

    def _tell_app(self) -> None:
        hook = getattr(self._app, "terminal_gone", None)
        if callable(hook):
            hook()
        else:
            self._app.exit()

    def write(self, data: str) -> None:
        """Textual's, except that nothing is written once the terminal was found gone before
        application mode started (there is no writer then)."""
        if self._writer_thread is None and self._gone:
            return
        super().write(data)

    def start_application_mode(self) -> None:
        """Textual's, unless the terminal is gone (then only :meth:`terminal_gone`)."""
        if self._gone or _hung_up(self.fileno):
            self.terminal_gone()
            return
        super().start_application_mode()  # type: ignore[no-untyped-call]

    def _sigtstp_application(self, *args: Any) -> None:
        self._stopped_by_signal = self._auto_restart
        super()._sigtstp_application(*args)

    def _sigcont_application(self, *args: Any) -> None:
        """Resume only what :meth:`_sigtstp_application` suspended. The kernel sends SIGCONT with
        the hang-up of a terminal, to a running app: Textual's driver would start a second input
        thread and writer beside the running ones."""
        if not self._stopped_by_signal:
            return
        self._stopped_by_signal = False
        super()._sigcont_application(*args)

    def run_input_thread(self) -> None:
        """Textual 8.2.8's ``LinuxDriver.run_input_thread``, copied, with two changes: the end of
        input (``os.read`` gives ``b""``, which Textual took for "nothing yet" and selected again
        at once) or an error reading (``EIO``) ends the thread and calls :meth:`terminal_gone`;
        the input goes through :class:`PasteEscapes` before the parser."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)

        fileno = self.fileno
        EVENT_READ = selectors.EVENT_READ

        parser = XTermParser(self._debug)
        feed = PasteEscapes().feeding(parser)
        tick = parser.tick

        decode = getincrementaldecoder("utf-8")().decode

        def process_selector_events(
            selector_events: list[tuple[selectors.SelectorKey, int]], final: bool = False
        ) -> bool:
            """Process events from the selector; False once the terminal is gone."""
            for last, (_selector_key, mask) in loop_last(selector_events):
                if mask & EVENT_READ:
                    try:
                        data = os.read(fileno, _READ_SIZE)
                    except BlockingIOError:  # another process made the terminal non-blocking
                        continue
                    except OSError:
                        return False
                    if not data:
                        return False
                    unicode_data = decode(data, final=final and last)
                    if not unicode_data:  # the start of a character: the rest comes next
                        break
                    for event in feed(unicode_data):
                        self.process_message(event)
            for event in tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                if not process_selector_events(selector.select(0.1)):
                    self.terminal_gone()
                    return
            selector.unregister(self.fileno)
            process_selector_events(selector.select(0.1), final=True)

        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass


#: What a terminal sends around a bracketed paste (xterm's, asked for by Textual).
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
#: What an escape character inside a paste becomes: SYMBOL FOR ESCAPE, as the CLI shows one.
PASTED_ESCAPE = "\u241b"


class PasteEscapes:
    """The terminal's input, between Textual's reading and its parser: an escape character inside
    a bracketed paste (coloured terminal output copied into a note) is made :data:`PASTED_ESCAPE`.

    Textual 8.2.8's ``XTermParser`` takes an escape inside a paste for the start of a key: the text
    after it comes as keys, ahead of the paste event that ends with the text before it, so the
    pasted text arrived reordered (the second half first), a tab in it moved the focus, and a
    note saved it so. Called with each decoded chunk in order; returns the text to feed on.
    Outside a paste nothing is changed or held back (a lone ``escape`` key is never delayed); a
    paste's start or end split across two chunks is found across them.
    """

    def __init__(self) -> None:
        self._pasting = False
        self._start_seen = 0  # outside a paste: how much of PASTE_START the text passed on ended with
        self._held = ""  # inside a paste: the end of a chunk that may be the start of PASTE_END

    def __call__(self, text: str) -> str:
        out: list[str] = []
        if not self._pasting and self._start_seen:
            rest = PASTE_START[self._start_seen :]
            if text.startswith(rest):
                out.append(rest)
                text = text[len(rest) :]
                self._pasting = True
            elif rest.startswith(text):  # still a part of it: wait for the next chunk
                out.append(text)
                self._start_seen += len(text)
                return "".join(out)
            self._start_seen = 0
        text = self._held + text
        self._held = ""
        while text:
            if not self._pasting:
                at = text.find(PASTE_START)
                if at < 0:
                    out.append(text)
                    self._start_seen = _ends_with_part_of(text, PASTE_START)
                    break
                out.append(text[: at + len(PASTE_START)])
                text = text[at + len(PASTE_START) :]
                self._pasting = True
            else:
                at = text.find(PASTE_END)
                if at < 0:
                    held = _ends_with_part_of(text, PASTE_END)
                    out.append(text[: len(text) - held].replace("\x1b", PASTED_ESCAPE))
                    self._held = text[len(text) - held :]
                    break
                out.append(text[:at].replace("\x1b", PASTED_ESCAPE) + PASTE_END)
                text = text[at + len(PASTE_END) :]
                self._pasting = False
        return "".join(out)

    def feeding(self, parser: XTermParser) -> Callable[[str], Iterator[Message]]:
        """``parser.feed`` with the input through this guard first: text, or ``""`` for the end
        of input (what is held back is fed first)."""

        def feed(text: str) -> Iterator[Message]:
            if text:
                if guarded := self(text):  # empty while a chunk's end may begin a paste's end
                    yield from parser.feed(guarded)
                return
            if held := self.flush():  # the end of input inside a paste
                yield from parser.feed(held)
            yield from parser.feed("")

        return feed

    def flush(self) -> str:
        """What is held back at the end of input (a paste never ended)."""
        held, self._held = self._held.replace("\x1b", PASTED_ESCAPE), ""
        return held


def _ends_with_part_of(text: str, marker: str) -> int:
    """The length of the longest end of ``text`` that begins ``marker`` (shorter than it)."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-size:]):
            return size
    return 0


def _hung_up(fd: int) -> bool:
    """Whether ``fd`` reports a hang-up or an error now (``poll``, no wait); False where ``poll``
    is missing."""
    try:
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        return any(events & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, events in poll.poll(0))
    except (AttributeError, OSError, ValueError):
        return False
