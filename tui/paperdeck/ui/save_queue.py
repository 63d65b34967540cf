"""The user's marks saved behind the UI: a star, a status, tags or a note is queued and written in
a thread, one save after the other in the order they were made (so two saves of one paper land in
that order), while the keyboard goes on. A save that nothing holds up (no save before it, the
store's lock free) is on disk before the next key, as if written at once: the UI waits for it up to
:attr:`SaveQueue.AT_ONCE_S`, and only a save that takes longer (the lock held by another
paperdeck) is left to finish behind the UI.

The UI shows each change at once (:meth:`SaveQueue.shown` applies the saves not yet written over
the record the store holds), so a key pressed while another paperdeck holds the store's lock is
never lost nor typed into the wrong place: the save waits for the lock in the thread, the UI says
"saving…" while it waits (after :attr:`SaveQueue.WAITING_NOTE_S`), and a save that fails (the lock
held over its timeout, a full disk) is said in one line and taken back from the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.css.query import NoMatches
from textual.screen import Screen

from paperdeck.model.errors import StoreError
from paperdeck.model.user import UserData
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit
from paperdeck.ui._lines.timers import one_shot

__all__ = ["SaveQueue"]

#: A save's outcome: ``(before, after)`` of each record changed, and the error when it failed.
Finished = Callable[[list[tuple[UserData, UserData]], StoreError | None], None]


@dataclass(eq=False)
class _Save:
    ids: list[str]
    change: Callable[[UserData], UserData]
    finished: Finished
    shown: Callable[[UserData], UserData]
    step: StepEdit | None = None
    changes: list[tuple[UserData, UserData]] = field(default_factory=list)
    error: StoreError | None = None
    written: threading.Event = field(default_factory=threading.Event)
    told: bool = False  # its outcome was told (by the event loop: no lock needed)
    #: The event loop's context when the save was made (the app Textual looks up is in it): its
    #: outcome is told in it, not in the writing thread's empty one.
    context: contextvars.Context = field(default_factory=contextvars.copy_context)


class SaveQueue:
    """The saves of one screen's changes, written in order by one thread at a time.

    Args:
        screen: whose workers write the saves, and whose app runs their ``finished`` callbacks.
        store: where the saves go.
        waiting: told ``True`` when a save has waited :attr:`WAITING_NOTE_S` (the store's lock is
            held elsewhere), ``False`` once every save is written; on the event loop.
    """

    #: Seconds a save may take before the UI says "saving…".
    WAITING_NOTE_S: ClassVar[float] = 0.3
    #: Seconds the UI waits for a save with none before it (then it is on disk before the next key).
    AT_ONCE_S: ClassVar[float] = 0.25

    def __init__(self, screen: Screen[Any], store: Store, waiting: Callable[[bool], None]) -> None:
        self._screen = screen
        self._store = store
        self._waiting = waiting
        self._saves: deque[_Save] = deque()  # not written yet, oldest first (the first may be being written)
        self._lock = threading.Lock()
        self._draining = False  # a thread is writing the saves
        self._idle = threading.Condition(self._lock)
        self._said_waiting = False
        self._when_idle: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None  # where a save's outcome is told

    @property
    def pending(self) -> bool:
        """Whether some save is not written yet."""
        with self._lock:
            return bool(self._saves)

    def shown(self, paper_id: str) -> UserData:
        """The paper's record as the user made it: the store's, with the saves not written yet
        applied in order (each save's change is a setting, not a toggle: applying one already
        written again changes nothing)."""
        record = self._store.user_data(paper_id)
        with self._lock:
            changes = [save.shown for save in self._saves if paper_id in save.ids]
        for change in changes:
            record = change(record)
        return record

    def submit(
        self,
        ids: Sequence[str],
        change: Callable[[UserData], UserData],
        finished: Finished,
        shown: Callable[[UserData], UserData] | None = None,
        step: StepEdit | None = None,
    ) -> None:
        """Queue ``change`` of ``ids``; ``finished`` is called on the event loop once it is written
        (or failed), after every save submitted before it. ``shown``: how the change is shown until
        then, when ``change`` itself is no setting (it reads the record to merge with it).
        ``step``: its undo step, kept in the write's transaction (:meth:`Store.change`)."""
        save = _Save(list(ids), change, finished, shown or change, step)
        self._loop = asyncio.get_running_loop()
        with self._lock:
            alone = not self._saves
            self._saves.append(save)
            start = not self._draining
            self._draining = True
        if start:
            threading.Thread(target=self._drain, name="paperdeck-saves", daemon=True).start()
        if alone and save.written.wait(self.AT_ONCE_S):
            self._written(save)  # nothing held it up: told now, before the next key
            return
        one_shot(self._screen, self.WAITING_NOTE_S, self._check_waiting)

    def when_idle(self, then: Callable[[], None]) -> None:
        """Call ``then`` (on the event loop) once every save queued now is written: at once when
        none is waiting."""
        if not self.pending:
            then()
            return
        self._when_idle.append(then)

    def _drain(self) -> None:
        """In a thread of its own: write the saves, oldest first, until none is left."""
        while True:
            with self._lock:
                if not self._saves:
                    self._draining = False
                    self._idle.notify_all()
                    return
                save = self._saves[0]
            self._write(save)
            with self._lock:
                self._saves.popleft()
            loop = self._loop
            try:  # not waited for: the event loop may be waiting for this thread (flush)
                if loop is not None:
                    loop.call_soon_threadsafe(self._written, save, context=save.context)
            except RuntimeError:  # the app has ended: nothing left to show it on
                pass

    def _write(self, save: _Save) -> None:
        try:
            save.changes = self._store.change(save.ids, save.change, step=save.step)
        except StoreError as error:
            save.error = error
        finally:
            save.written.set()

    def _written(self, save: _Save) -> None:
        """On the event loop: a save is on disk (or failed); tell its screen (once), and say when
        the last one waiting is written. A screen that is going (the app ends) is not told."""
        if not save.told:  # told at once (submit), then again from the thread: once
            save.told = True
            with contextlib.suppress(NoMatches):
                save.finished(save.changes, save.error)
        if not self.pending:
            if self._said_waiting:
                self._said_waiting = False
                self._waiting(False)
            callbacks, self._when_idle = self._when_idle, []
            for then in callbacks:
                then()

    def _check_waiting(self) -> None:
        if self.pending and not self._said_waiting:
            self._said_waiting = True
            self._waiting(True)

    def flush(self, timeout: float | None = None) -> bool:
        """Have every save queued written before returning (the app is closing, or a save that
        must be on disk at once comes after them); the outcome of each is told as usual. Returns
        whether all were written within ``timeout`` seconds (``None``: however long the lock
        is held, up to its own timeout per save). Blocks the event loop: for those cases only."""
        with self._lock:
            if self._draining and not self._idle.wait_for(lambda: not self._draining, timeout):
                return False
            left = list(self._saves)
        for save in left:  # none is draining them: written here, in order
            self._write(save)
            with self._lock:
                self._saves.popleft()
            self._written(save)
        return True
