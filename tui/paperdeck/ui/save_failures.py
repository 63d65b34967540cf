"""The "Not saved" toasts of the user's changes, each taken away once a later save of its kind
succeeds.

A save that fails (the store locked by another process, a directory that cannot be written) says
so in an error toast that stays ``ERROR_S`` seconds. The user tries again and it works: the toast
must not stay on screen saying the opposite. Each kind of save (``star``, ``status``, ``tag``,
``note``, ``undo``, ``redo``) keeps the toast of its last failure; a save of that kind that
succeeds takes it away, and a later failure of the kind replaces it. A save of another kind
leaves it: the change that failed is still not saved. The main screen's reread of the user's data
keeps its "Cannot read your data" toast as the kind ``read`` the same way: one at a time, taken
away by the next read that succeeds.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.notifications import Notification

from paperdeck.ui._lines.notifications import show_notification, withdraw_notification
from paperdeck.ui.toasts import made_toast


class SaveFailures:
    """The failed saves' toasts of one screen's changes, by kind.

    Args:
        app: the app that shows the toasts (made as every toast is: :func:`~paperdeck.ui.toasts.made_toast`).
    """

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._shown: dict[str, Notification] = {}

    def failed(self, kind: str, message: str, title: str = "Not saved") -> None:
        """On the event loop: show ``message`` as an error toast titled ``title``, the failure of a
        save of ``kind``; it replaces the kind's earlier one."""
        self.saved(kind)
        notification = made_toast(message, title=title, severity="error")
        self._shown[kind] = notification
        show_notification(self._app, notification)

    def saved(self, kind: str) -> None:
        """On the event loop: a save of ``kind`` succeeded; take its last failure's toast away (if
        it is still shown)."""
        notification = self._shown.pop(kind, None)
        if notification is not None:
            withdraw_notification(self._app, notification)


__all__ = ["SaveFailures"]
