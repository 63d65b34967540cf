"""The one toast that shows a query's hint whole (it is cut beside the filter bar): at most one
at a time, and gone as soon as the query changes or is valid.

The counts line is where a query's hint lives; a toast only shows whole what is cut there (the
list of fields of an ``unknown field`` note, a long hint), once the query has stayed as it is for
a while. Each toast replaced the last but for its six seconds, so typing ``ven:`` then ``venu:``
stacked two, and fixing the query to ``venue:`` left them over valid results.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from textual.notifications import Notification

from paperdeck.ui._lines.timers import one_shot

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

#: Seconds the toast stays, unless the query changes first.
TOAST_S = 6.0


class QueryToast:
    """The query's toast on ``screen``, shown ``after_s`` seconds after it was asked for.

    Args:
        screen: the screen whose app shows the toast.
        after_s: seconds the query must stay as it is before its hint is shown.
    """

    def __init__(self, screen: Screen[None], after_s: float) -> None:
        self._screen = screen
        self._after_s = after_s
        self._timer: Timer | None = None
        self._told: str | None = None  # the last hint shown (once per hint)
        #: The toast on screen, and the query it is about.
        self._shown: tuple[Notification, str] | None = None

    def later(self, hint: str, query: str, current: Callable[[], Collection[str | None]]) -> None:
        """Show ``hint`` about ``query`` after ``after_s``, when it is then still one of the
        ``current`` hints (and was not shown before); the last one asked for replaces this."""
        if self._timer is not None:
            self._timer.stop()

        def tell() -> None:
            self._timer = None
            if hint in current() and self._told != hint:
                self._told = hint
                self.dismiss()
                notification = Notification(hint, "Query", "warning", TOAST_S, markup=False)
                self._shown = (notification, query)
                # Added here, not posted (as Textual's ``notify`` does): a ``Notify`` still queued
                # for the app when the query changed would not be found by :meth:`dismiss`, and
                # the app would show it afterwards, over the results of another query.
                from paperdeck.ui._lines.notifications import show_notification  # deferred: after a pause in the typing

                show_notification(self._screen.app, notification)

        self._timer = one_shot(self._screen, self._after_s, tell)

    def keep_for(self, query: str) -> None:
        """Take the toast away unless it is about ``query``, the query shown now; its hint may
        then be shown again, after the next pause (typing went on after a pause that showed it)."""
        if self._shown is not None and self._shown[1] != query:
            self.dismiss()
            self._told = None

    def dismiss(self) -> None:
        """Take the toast away, if one is shown: it is in the app's notifications from the moment
        it was asked for, so none comes after it was taken away."""
        shown, self._shown = self._shown, None
        if shown is not None:  # taken away unless it expired meanwhile
            from paperdeck.ui._lines.notifications import withdraw_notification  # deferred: as show_notification

            withdraw_notification(self._screen.app, shown[0])


__all__ = ["QueryToast"]
