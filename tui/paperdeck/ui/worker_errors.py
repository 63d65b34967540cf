"""Exceptions of thread work nobody waits for any more: logged, never lost.

Textual runs a thread worker (``run_worker(thread=True)``, ``@work(thread=True)``) in the event
loop's default executor, as ``asyncio.to_thread`` runs an async worker's thread work. Once such a
worker is cancelled (its dialog dismissed, an ``exclusive`` worker of its group started), Textual
stops waiting for the thread; an exception the thread raises after that went nowhere. The app's
executor (:class:`ReportingExecutor`, the loop's default from the app's start, :func:`install`)
logs it with its traceback in the app's log (Textual's ``app.log``: the devtools console, and the
file ``TEXTUAL_LOG`` names). An exception of a worker that is not cancelled is left to Textual,
which logs it and reports it (:meth:`PaperApp._handle_exception
<paperdeck.ui.app.PaperApp._handle_exception>`).
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from textual.worker import NoActiveWorker, Worker, get_current_worker

T = TypeVar("T")


class ReportingExecutor(ThreadPoolExecutor):
    """The thread pool of the app's loop: work submitted by a worker (the one active where it is
    submitted) that raises once that worker is cancelled is told to ``report`` (a line naming the
    worker and the exception, then the traceback), on the loop of the app; the exception is raised
    on as before."""

    def __init__(self, loop: asyncio.AbstractEventLoop, report: Callable[[str], object]) -> None:
        super().__init__(thread_name_prefix="paperdeck")
        self._loop = loop
        self._report = report

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        try:
            worker = get_current_worker()
        except NoActiveWorker:
            return super().submit(fn, *args, **kwargs)
        return super().submit(self._reporting, worker, fn, *args, **kwargs)

    def _reporting(self, worker: Worker[Any], fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            if worker.is_cancelled:
                told = "".join(traceback.format_exception(error)).rstrip()
                self._tell(f"Worker {worker.name!r} (cancelled) raised {error!r}:\n{told}")
            raise

    def _tell(self, text: str) -> None:
        try:
            self._loop.call_soon_threadsafe(self._report, text)
        except RuntimeError:  # the loop closed (the app ended): logged from this thread
            self._report(text)


def install(report: Callable[[str], object]) -> None:
    """Make a :class:`ReportingExecutor` telling ``report`` the running loop's default executor
    (call it on the loop, before the first worker starts)."""
    loop = asyncio.get_running_loop()
    loop.set_default_executor(ReportingExecutor(loop, report))


__all__ = ["ReportingExecutor", "install"]
