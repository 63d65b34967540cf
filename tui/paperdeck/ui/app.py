"""The paperdeck Textual application."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import PurePath
from time import monotonic, time
from typing import TYPE_CHECKING, ClassVar
from weakref import WeakKeyDictionary

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import Widget
from textual.worker import WorkerFailed

from paperdeck import runtime
from paperdeck.model.errors import PaperdeckError, StoreError
from paperdeck.model.safe_text import document, one_line, web_link
from paperdeck.paths import styles_dir
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui._lines.keys import KeyGate
from paperdeck.ui.commands import BY_ID, bindings
from paperdeck.ui.keymap import KeymapCheck, check_keymap
from paperdeck.ui.screens.main import MainScreen

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode
    from textual.driver import Driver
    from textual.geometry import Size


def _for_a_node_gone(callback: Callable[..., object]) -> bool:
    """Whether ``callback`` is a method of a screen or widget no longer in the app (removed, or
    being removed), other than its ``notify`` (which tells the app)."""
    node = getattr(callback, "__self__", None)
    if not isinstance(node, Widget) or getattr(callback, "__func__", None) is Widget.notify:
        return False
    return node._closing or node._closed or not node.is_attached


class PaperApp(App[None]):
    """Browse a paperdeck store. The store is injected: the app opens no files of its own.

    Args:
        store: the open store (catalogue and user data).
        messages: one-line messages to show once the app is up (e.g. import summaries).
    """

    TITLE = "paperdeck"
    CSS_PATH: ClassVar[list[str | PurePath]] = [str(styles_dir() / name) for name in ("app.tcss", "main.tcss")]
    BINDINGS: ClassVar[list[BindingType]] = bindings("app")

    #: Seconds without a key or mouse event after which the user counts as idle.
    IDLE_S: ClassVar[float] = 1.0
    #: Seconds after the start before what killed imports left in the store is removed (in a
    #: thread: :meth:`Store.remove_leftovers <paperdeck.store.store.Store.remove_leftovers>`).
    LEFTOVERS_AFTER_S: ClassVar[float] = 3.0
    #: Seconds between looks (one ``stat``) at the catalogue for papers another paperdeck imported.
    CATALOGUE_CHECK_S: ClassVar[float] = 2.0
    #: Seconds a catalogue another process replaced is left unread while the search index saved
    #: beside it is still the one of the catalogue held (an import saves it after the catalogue:
    #: read before, the index would be built here from every paper's texts, as large as the store).
    INDEX_WAIT_S: ClassVar[float] = 90.0
    #: The smallest terminal (columns, rows) the screens are laid out for: from 40 columns the
    #: filter bar, its counts and the list fit side by side with their borders; from 9 rows the
    #: list shows three papers between the top bar and the footer. Below, a notice in their place.
    MIN_SIZE: ClassVar[tuple[int, int]] = (40, 9)
    #: Every screen has the class ``-short`` under 16 rows, ``-tall`` from there: on a short
    #: screen the dialogs drop their frames and margins (``dialogs.tcss``), so that from
    #: :attr:`MIN_SIZE` up the note editor shows the text typed and the help some of its keys.
    #: (Textual annotates its own as ``ClassVar[...] | None``, which mypy reads as an instance's.)
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (16, "-tall")]  # type: ignore[misc]
    #: The signals that mean the terminal or the session is going away: they end the app as
    #: :meth:`terminal_gone` does.
    HANGUP_SIGNALS: ClassVar[tuple[int, ...]] = tuple(
        getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)
    )

    def __init__(self, store: Store, messages: Sequence[str] = (), settings: SettingsFile | None = None) -> None:
        #: Each key is handled (and a prompt it opens ready) before the next is handed on; made
        #: first, as ``post_message`` asks it.
        self._key_gate = KeyGate(self)
        super().__init__()
        self.store = store
        self.settings = settings if settings is not None else SettingsFile(store.data_dir)
        self._messages = list(messages)
        #: The error that ended the app, when the store turned out unreadable while it ran (the
        #: catalogue is parsed after the first paint): ``paperdeck`` prints it as the CLI would.
        self.failure: PaperdeckError | None = None
        self._last_input = monotonic()
        #: Keys queued for the app and not handled yet (a burst: "/REAP" sent at once).
        self._keys_queued = 0
        self._reloading = False  # a worker is reading the catalogue again
        #: The catalogue's stamp another process wrote while its saved index lagged, and since when.
        self._index_behind: tuple[list[int], float] | None = None
        self._hangup_signals_taken: list[int] = []  # those of HANGUP_SIGNALS the app handles
        #: When each dialog up opened (``time.time()``, as a toast's ``raised_at``): the toasts from
        #: before wait behind it (:meth:`_refresh_notifications`).
        self._dialogs_opened: WeakKeyDictionary[Screen[object], float] = WeakKeyDictionary()
        self._too_small: Screen[None] | None = None  # the terminal-too-small notice, while pushed
        chosen = self.settings.settings
        #: The user's keymap, checked against the command table: the keys in effect, and what was refused.
        self.keymap: KeymapCheck = check_keymap(chosen.keymap)
        # Before the first frame: a theme set once the app is mounted styles the screen twice.
        #: What config.json held but was refused (:attr:`SettingsFile.refused`, and a theme
        #: name that is no theme here), one phrase each.
        self.settings_refused: tuple[str, ...] = self.settings.refused
        if chosen.theme and chosen.theme in self.available_themes:
            self.theme = chosen.theme
        elif chosen.theme:
            named = repr(one_line(chosen.theme)[:40])
            listed = BY_ID["app.theme"].title
            self.settings_refused += (f"theme {named} is no theme here (the palette's {listed} lists them)",)

    async def on_event(self, event: events.Event) -> None:
        """Input events mark the user as active; a key typed is handed on through the key gate
        (:mod:`paperdeck.ui._lines.keys`): the next key waits for it to be handled, so that a
        burst of keys goes where each was typed (the keys after ``T`` into the tags prompt it
        opens), none dropped. Input that reaches the app once it has begun to close (a key the
        screen handed back to the app, on its way as the app closes) is dropped, as a worker's
        result is (:meth:`call_from_thread`): its bindings would look up the screens being pruned."""
        if isinstance(event, events.InputEvent) and not self.is_running:
            return
        if isinstance(event, events.InputEvent):
            self._last_input = monotonic()
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._keys_queued = max(0, self._keys_queued - 1)
            if (main := self._main_screen()) is not None:  # what it types is painted before work held
                main.query_gate.busy()
            await self._key_gate.pass_key(event, super().on_event)
            return
        await super().on_event(event)

    def post_message(self, message: Message) -> bool:
        """Queue ``message``; a key followed by the key gate, bubbled back to the app, is handled
        by the gate where it waits instead."""
        if self._key_gate.came_back(message):
            return True
        if isinstance(message, events.Key) and not message.is_forwarded:  # (from the driver's thread too)
            self._keys_queued += 1
            if (main := self._main_screen()) is not None:
                main.query_gate.hold()
        return super().post_message(message)

    def call_from_thread(  # type: ignore[override]  # returns None for a result dropped
        self, callback: Callable[..., object], *args: object, **kwargs: object
    ) -> object:
        """Textual's :meth:`~textual.app.App.call_from_thread`, through which every worker tells
        its result: run ``callback`` on the event loop and return what it returns. A result that
        reaches the loop once the app has begun to close is dropped (``None`` returned): the
        screens are being pruned, their widgets gone, and nothing is left to show it on. So is a
        result for a screen or widget (``callback`` one of its methods) no longer in the app (a
        dialog dismissed while its worker counted): its widgets are gone. A notification told
        through such a node (``notify``) still shows: it is the app's.

        Raises:
            RuntimeError: the app is not running, or this is the app's own thread (Textual's).
        """

        def while_running() -> object:
            if not self.is_running or _for_a_node_gone(callback):
                return None
            return callback(*args, **kwargs)

        return super().call_from_thread(while_running)

    @property
    def keys_waiting(self) -> bool:
        """Whether keys came that the app has not handled yet: the work held for a query waits
        for them too (the keys typed after ``/`` are that query's)."""
        return self._keys_queued > 0

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run ``action`` (a key's binding, a palette command), unless the main screen holds it:
        an action on the list's rows while the list does not answer the typed query yet waits
        for the results (:class:`~paperdeck.ui.screens.held_keys.HeldKeys`)."""
        if isinstance(action, str) and isinstance(default_namespace, Widget) and default_namespace.is_attached:
            screen = default_namespace.screen
            if isinstance(screen, MainScreen) and screen.held_keys.hold(action, default_namespace):
                return True
        return await super().run_action(action, default_namespace, namespaces)

    def _main_screen(self) -> MainScreen | None:
        """The main screen (the first of the stack), ``None`` before it is there."""
        stack = self._screen_stacks.get(self._current_mode)
        main = stack[0] if stack else None
        return main if isinstance(main, MainScreen) else None

    def _when_quiet(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` now, or once a query typed in the main screen is painted."""
        if (main := self._main_screen()) is not None:
            main.query_gate.when_quiet(callback)
        else:
            callback()

    @property
    def last_input_at(self) -> float:
        """When the last key or mouse event came (``time.monotonic()``; the app's start before any)."""
        return self._last_input

    def _collect_when_idle(self) -> None:
        """Garbage cycles are collected in full while the user is idle (see paperdeck.runtime)."""
        if monotonic() - self._last_input >= self.IDLE_S:
            runtime.collect_if_due()

    def on_load(self) -> None:
        """Before any screen or worker: an exception of a thread worker raised once the worker
        is cancelled is logged, not lost (:mod:`paperdeck.ui.worker_errors`)."""
        from paperdeck.ui.worker_errors import install

        install(self.log.error)

    def on_mount(self) -> None:
        if self.keymap.applied:
            self.set_keymap(self.keymap.applied)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        # Neither comes between a key and the list answering it painted (QueryGate).
        self.set_interval(self.IDLE_S, partial(self._when_quiet, self._collect_when_idle))
        self.set_interval(self.CATALOGUE_CHECK_S, partial(self._when_quiet, self._check_catalogue_patiently))
        if self.settings.problem:
            self.notify(self.settings.problem, title="Settings not read", severity="error")
        if (report := self.keymap.report(str(self.settings.path), self.settings_refused)) is not None:
            title = "Some settings refused" if self.settings_refused else "Some remapped keys refused"
            self.notify(report, title=title, severity="error")
        for message in self._messages:
            self.notify(message, markup=False, timeout=6)
        self._take_hangup_signals(True)
        self._fit_to_terminal(self.size)
        # What killed imports left (hundreds of MB), removed in a thread once the start is done.
        from paperdeck.ui._lines.timers import one_shot

        one_shot(self, self.LEFTOVERS_AFTER_S, self._remove_leftovers)

    def _remove_leftovers(self) -> None:
        self.run_worker(self.store.remove_leftovers, thread=True, group="leftovers", name="remove leftovers",
                        exit_on_error=False)  # fmt: skip

    def on_resize(self, event: events.Resize) -> None:
        self._fit_to_terminal(event.size)  # the app's size is the new one only once its screen is resized

    def _fit_to_terminal(self, size: Size) -> None:
        """Below :attr:`MIN_SIZE`, a notice saying so in place of the screens, popped as soon as
        the terminal is large enough again: the screens under it are not touched
        (:mod:`~paperdeck.ui.screens.too_small`, imported only then)."""
        columns, rows = self.MIN_SIZE
        small = 0 < size.width < columns or 0 < size.height < rows
        if small and self._too_small is None:
            from paperdeck.ui.screens.too_small import TooSmallScreen

            self._too_small = TooSmallScreen(self.MIN_SIZE)
            self.push_screen(self._too_small)
        elif not small and self._too_small is not None and self.screen is self._too_small:
            self._too_small = None
            self.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the terminal-too-small notice is shown, only quitting is a key: a screen opened
        under it would be laid out at the size that broke it."""
        if self._too_small is not None and self.screen is self._too_small and action not in ("quit", "interrupt"):
            return False
        return super().check_action(action, parameters)

    def _take_hangup_signals(self, take: bool) -> None:
        """Take :attr:`HANGUP_SIGNALS` while the app runs, but for one ignored when it started
        (``nohup``: the driver still ends the app once its terminal is actually gone); back to
        the default once it ends. Not where signals cannot be handled (no POSIX signals, not the
        main thread)."""
        try:
            loop = asyncio.get_running_loop()
            if take:
                taken = [number for number in self.HANGUP_SIGNALS if signal.getsignal(number) != signal.SIG_IGN]
                for number in taken:
                    loop.add_signal_handler(number, self.terminal_gone)
                self._hangup_signals_taken = taken
            else:
                for number in self._hangup_signals_taken:
                    loop.remove_signal_handler(number)
                self._hangup_signals_taken = []
        except (AttributeError, NotImplementedError, RuntimeError, ValueError):
            pass

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver; on a POSIX terminal, one that ends the app when its terminal goes
        away whatever happened to the signals (:mod:`paperdeck.ui._lines.terminal`)."""
        driver = super().get_driver_class()
        if driver.__module__ == "textual.drivers.linux_driver" and driver.__name__ == "LinuxDriver":
            from paperdeck.ui._lines.terminal import HangupDriver

            return HangupDriver
        return driver

    def terminal_gone(self) -> None:
        """The terminal went away (SIGHUP or SIGTERM; its input ended or it could no longer be
        read or written): no one is left to ask, so a note being typed is saved (each note
        editor's :meth:`~paperdeck.ui.screens.note_editor.NoteEditor.keep_unsaved`), then the
        app ends as a quit does (a refresh under way is stopped: :meth:`on_unmount`; a change to
        many papers being written is finished first, its undo step recorded); not before its
        screen is mounted (a screen ended while it mounts fails half-made)."""
        from paperdeck.ui.screens.list_actions import quit_when_written
        from paperdeck.ui.screens.note_editor import NoteEditor

        screens = self.screen_stack
        if screens and not screens[-1].is_mounted:  # gone at the start: the first screen is mounted first
            self.call_after_refresh(self.terminal_gone)
            return
        for screen in screens:
            if isinstance(screen, NoteEditor):
                screen.keep_unsaved()
        if not quit_when_written(self, self.exit, even_failed=True):
            self.exit()

    def _handle_exception(self, error: Exception) -> None:
        """A store found unreadable once the app runs (a worker parsing the catalogue raised a
        :class:`PaperdeckError`) ends the app with that one line (:attr:`failure`, exit status 2),
        as the CLI does, instead of a traceback; any other error is Textual's to report."""
        cause = error.error if isinstance(error, WorkerFailed) else error
        if isinstance(cause, PaperdeckError):
            if self.failure is None:
                self.failure = cause
            self.exit(return_code=2)
            return
        super()._handle_exception(error)

    def get_default_screen(self) -> Screen[None]:
        """The main screen is the app's first screen: not pushed over Textual's empty default
        screen, which would be composed, styled and laid out for nothing before it."""
        return MainScreen(self.store, self.settings)

    def _theme_changed(self, theme: Theme) -> None:
        """Remember the theme picked (command palette: "Theme", the row ``app.theme``)."""
        if theme.name != self.settings.settings.theme:
            self.save_settings(theme=theme.name)

    def save_settings(self, **changes: object) -> None:
        """Change and persist settings; a failure to write is a message, not a crash."""
        from paperdeck.ui.saving import save_settings  # deferred: no setting changes before the first frame

        save_settings(self, self.settings, **changes)

    def on_app_focus(self) -> None:
        """Back in the terminal: pick up what another paperdeck wrote meanwhile."""
        self._check_catalogue_patiently()
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.check_external_changes()

    def _check_catalogue_patiently(self) -> None:
        """:meth:`check_catalogue`, unless the search index saved beside the catalogue lags it
        (:meth:`_index_lags`): then the next look reads it (called every ``CATALOGUE_CHECK_S``
        and when the terminal regains focus)."""
        self.check_catalogue(patient=True)

    def check_catalogue(self, *, patient: bool = False) -> None:
        """When another process changed the catalogue (``paperdeck import`` meanwhile), read it
        again in a worker thread and show it in place; ``patient``: not while the saved search
        index lags it (:meth:`_index_lags`). Not while this app itself writes the catalogue (a
        removal or an undo, :mod:`~paperdeck.ui.screens.removing`): a reload read beside that write
        raced it, and the write shows its own list when done. The look is one ``stat`` (and,
        patient, the saved index's header read)."""
        if self._writing_catalogue():
            return
        if not self._reloading and self.store.catalogue_changed() and not (patient and self._index_lags()):
            self._reloading = True
            self.run_worker(self._reload_catalogue, thread=True, group="catalogue", name="reload catalogue")

    def _writing_catalogue(self) -> bool:
        """Whether a removal or an undo of this app is being written (its worker group)."""
        from paperdeck.ui.screens.removing import GROUP

        return any(worker.group == GROUP and not worker.is_finished for worker in self.workers)

    def _index_lags(self) -> bool:
        """Whether the search index saved beside the catalogue is the one of the catalogue this
        app holds while the file is another, for less than ``INDEX_WAIT_S`` since this app first
        saw that file: the process that wrote it saves the index next (``paperdeck import``), and
        the reload waits for it rather than build the index itself. False when there is no saved
        index, or it was not the held catalogue's (nothing keeps it current: no use waiting)."""
        from paperdeck.search.index_file import INDEX_FILE, saved_stamp

        now = self.store.catalogue_stamp()
        saved = saved_stamp(self.store.data_dir / INDEX_FILE)
        if now is None or saved is None or saved == now or saved != self.store.held_catalogue_stamp():
            self._index_behind = None
            return False
        if self._index_behind is None or self._index_behind[0] != now:
            self._index_behind = (now, monotonic())
        return monotonic() - self._index_behind[1] < self.INDEX_WAIT_S

    def _reload_catalogue(self) -> None:
        """In a worker thread: read the catalogue again, then (on the event loop) show it."""
        before = self.store.paper_count
        known = self.store.paper_ids  # a list sharing the id strings: no set made while both generations are held
        try:
            changed = self.store.reload_catalogue()
        except StoreError as error:
            self.call_from_thread(self._catalogue_not_read, error)
            return
        new_ids = self._new_paper_ids(known) if changed else []
        del known
        if changed:
            for screen in self.screen_stack:  # the indexes of the papers replaced, before the next build
                if isinstance(screen, MainScreen):
                    screen.searcher.drop_stale()
            runtime.release_freed_memory()  # the papers replaced (see paperdeck.runtime)
        self.call_from_thread(self._catalogue_reloaded, changed, before, new_ids)

    def _new_paper_ids(self, known: list[str]) -> list[str]:
        """The papers new to this app, ``known`` its ids before the reload: not under an id it
        knew, nor under one a merge gave one of those. The same ids in the same order (a
        decisions import) are found so without a set of either generation's ids."""
        current = self.store.paper_ids
        if current == known:  # the strings are shared: each compared by identity first
            return []
        kept = {self.store.resolve(paper_id) for paper_id in known}
        return [paper_id for paper_id in current if paper_id not in kept]

    def _catalogue_not_read(self, error: StoreError) -> None:
        self._reloading = False
        self.notify(str(error), title="Cannot read the catalogue again", severity="error", markup=False)

    def _catalogue_reloaded(self, changed: bool, before: int, new_ids: Sequence[str] = ()) -> None:
        self._reloading = False
        if not changed:
            return
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                screen.catalogue_reloaded(new_ids)
        now = self.store.paper_count
        added = f", {now - before:,} new" if now > before else ""
        self.notify(f"The catalogue changed on disk: {now:,} papers{added}.", timeout=4, markup=False)

    def on_unmount(self) -> None:
        """The app is ending: a refresh under way is stopped (it resumes next time), so that the
        process does not wait for it to finish. SIGHUP and SIGTERM are given back to their default."""
        self._take_hangup_signals(False)
        refresh = sys.modules.get("paperdeck.ui.refresh")  # imported only once a refresh began
        if refresh is not None:
            refresh.stop_fetches()

    async def action_quit(self) -> None:
        """Quit (every way: ``q``, ``ctrl+q``, the palette); a note editor holding unsaved text
        asks first. While a change to many papers is written, the quit waits for it ("Saving N
        papers…"; asked again, it still waits): the change is made whole and its undo step
        recorded first (:func:`~paperdeck.ui.screens.list_actions.quit_when_written`); one that
        fails (nothing changed) leaves the app open, its message on screen."""
        from paperdeck.ui.screens.list_actions import quit_when_written
        from paperdeck.ui.screens.note_editor import NoteEditor

        if quit_when_written(self, lambda: self.call_next(self.action_quit)):
            return
        editor = next((s for s in reversed(self.screen_stack) if isinstance(s, NoteEditor) and s.unsaved), None)
        if editor is None:
            self.exit()
        else:
            editor.leave(self.exit, "Quit paperdeck and discard the note you typed?", "Discard and quit")

    async def action_interrupt(self) -> None:
        """``ctrl+c``, as a terminal user's hand expects: copy the text selected in the focused
        filter bar or note, or on the screen; with nothing selected, quit (:meth:`action_quit`,
        which asks before a typed note is discarded). Textual's own ``ctrl+c`` only says how to quit."""
        from textual.widgets import Input, TextArea

        focused = self.focused
        if isinstance(focused, Input | TextArea) and focused.selected_text:
            focused.action_copy()
        elif self.screen.get_selected_text():
            self.screen.action_copy_text()
        else:
            await self.action_quit()

    def action_help(self) -> None:
        from paperdeck.ui.command_help import help_sections  # deferred: the first frame draws no help
        from paperdeck.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_sections(self.keymap.keys)))

    def action_open_link(self, url: str) -> None:
        """Open ``url`` (a link clicked in the detail pane) in the browser, else copy it
        (:func:`paperdeck.ui.links.open_or_copy`)."""
        from paperdeck.ui.links import open_or_copy

        open_or_copy(self, url)

    # The three ways the app hands text to the terminal or the desktop besides the screen itself.
    # Each passes it through paperdeck.model.safe_text first, whoever calls it.

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open ``url`` in the browser (``webbrowser``: an argument list, never a shell) when it is
        an http(s) link (:func:`~paperdeck.model.safe_text.web_link`); any other link is refused
        with a message (``javascript:``, ``file:``, ``data:``, one with control characters)."""
        if web_link(url):
            super().open_url(url, new_tab=new_tab)
        else:
            self.notify(f"Not opened: {url} is not an http(s) link.", severity="warning", timeout=4)

    def copy_to_clipboard(self, text: str) -> None:
        """Copy ``text`` with its control characters made visible, tabs and line ends kept
        (:func:`~paperdeck.model.safe_text.document`): a paste never carries an escape sequence
        from a paper."""
        super().copy_to_clipboard(document(text))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification; its text is never read as markup and its control characters are
        shown (:func:`~paperdeck.model.safe_text.visible`): messages quote titles, tags, view names,
        file names and errors. ``markup`` is accepted for Textual's callers and ignored. How long it
        stays is :func:`~paperdeck.ui.toasts.toast_timeout`'s rule: an error longest, any other at
        least long enough to read it; every one goes."""
        from textual.notifications import Notify

        from paperdeck.ui.toasts import made_toast

        self.post_message(Notify(made_toast(message, title=title, severity=severity, timeout=timeout)))

    def _refresh_notifications(self) -> None:
        """Textual's, but a dialog (a modal screen) shows only the toasts raised since it opened
        (:func:`~paperdeck.ui.toasts.raised_since`): the others, an error that stays among them,
        wait behind it, kept, and show again on the screen it closes to."""
        from textual.css.query import NoMatches
        from textual.screen import ModalScreen
        from textual.widgets._toast import ToastRack

        screen = self.screen_stack[-1] if self.screen_stack else None
        if not isinstance(screen, ModalScreen):
            super()._refresh_notifications()
            return
        from paperdeck.ui.toasts import raised_since  # deferred: the first frame shows no dialog

        opened = self._dialogs_opened.setdefault(screen, time())
        try:
            rack = screen.get_child_by_type(ToastRack)
        except NoMatches:
            return  # none yet: Textual refreshes again once the screen has one
        self.call_later(rack.show, raised_since(self._notifications, opened))

    def action_dismiss_messages(self) -> None:
        """Take away every toast shown before it times out."""
        self.clear_notifications()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's commands (its "Quit" and "Theme" replaced by ours: the table's rows, named and
        documented once), then ours, from the command table (:mod:`paperdeck.ui.palette`)."""
        from paperdeck.ui.palette import palette_commands

        ours = ("Quit", "Theme")
        yield from (command for command in super().get_system_commands(screen) if command.title not in ours)
        yield from palette_commands(self, screen, self.keymap.keys)
