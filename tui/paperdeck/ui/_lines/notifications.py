"""One toast shown and taken away by the caller that holds it.

Textual's public API shows a toast (``App.notify``, which returns nothing) and takes every toast
away (``App.clear_notifications``), but none takes away one toast: a caller that must withdraw
its own (an error made wrong by a later success) holds the ``Notification`` and adds it itself.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.notifications import Notification


def show_notification(app: App[Any], notification: Notification) -> None:
    """Show ``notification`` at once (on the event loop): added to the app's notifications, not
    posted as ``App.notify`` does, so that :func:`withdraw_notification` finds it at any time."""
    app._notifications.add(notification)
    app._refresh_notifications()


def withdraw_notification(app: App[Any], notification: Notification) -> None:
    """Take ``notification`` away if it is still shown (not expired, dismissed or cleared)."""
    if notification in app._notifications:
        app._unnotify(notification)


def withdraw_titled(app: App[Any], title: str) -> None:
    """Take away every toast shown with ``title`` (a notice whose work is done)."""
    for notification in [n for n in app._notifications if n.title == title]:
        app._unnotify(notification)


__all__ = ["show_notification", "withdraw_notification", "withdraw_titled"]
