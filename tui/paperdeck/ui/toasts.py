"""How long a notification stays: one rule for every toast, applied by
:meth:`PaperApp.notify <paperdeck.ui.app.PaperApp.notify>` whoever calls it.

- An error (``severity="error"``) is something the user must act on: a settings file that cannot
  be read or written, a store that cannot be written, an import or a removal refused. It stays
  ``ERROR_S`` seconds, longer than any other (it vanished after a few seconds, perhaps before the
  user looked), and then goes like the others: none stays for good (one that did stayed over every
  screen and every later message). A click on it or the palette's "Dismiss messages" takes it
  away sooner.
- Every other toast stays at least ``CONFIRM_S`` seconds, long enough to read what was done
  ("Copied the title and link: …"; ``y`` said it for 1.5 s), or longer when its caller asks it,
  but never longer than an error.

Where a toast shows: on a dialog (a modal screen), only the toasts raised since it opened (what the
dialog itself says); the ones from before wait hidden behind it, kept, and show again when it
closes (:func:`raised_since`): an error that stays covered the dialog's field at 80×24.
"""

from __future__ import annotations

from textual.notifications import Notification, Notifications, SeverityLevel

from paperdeck.model.safe_text import one_line, visible

#: Seconds a confirmation (any toast that is no error) stays at least.
CONFIRM_S = 3.5

#: The longest a confirmation quotes of what it is about (a title, a link), in characters.
QUOTE_CHARS = 60

#: Seconds an error stays (unless dismissed sooner): long enough to notice and read, not for good.
ERROR_S = 20.0


def toast_timeout(severity: SeverityLevel, timeout: float | None) -> float:
    """Seconds a toast of ``severity`` stays, its caller having asked ``timeout`` (``None``: none):
    an error ``ERROR_S``, any other at least ``CONFIRM_S``; none longer than ``ERROR_S``."""
    if severity == "error":
        return ERROR_S
    return min(ERROR_S, max(CONFIRM_S, timeout if timeout is not None else CONFIRM_S))


def made_toast(
    message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None
) -> Notification:
    """The toast :meth:`PaperApp.notify <paperdeck.ui.app.PaperApp.notify>` shows for these
    arguments, not shown yet: its text never read as markup, its control characters shown
    (:func:`~paperdeck.model.safe_text.visible`), its title on one line, staying
    :func:`toast_timeout` seconds."""
    return Notification(visible(message), one_line(title), severity, toast_timeout(severity, timeout), markup=False)


def raised_since(notifications: Notifications, opened: float) -> Notifications:
    """The ones of ``notifications`` raised at ``opened`` (a ``time.time()``) or later, the toasts
    a dialog opened then shows; the others are not touched (they are kept, not dismissed)."""
    shown = Notifications()
    for notification in notifications:
        if notification.raised_at >= opened:
            shown.add(notification)
    return shown


def quoted(text: str) -> str:
    """``text`` on one line, shortened to ``QUOTE_CHARS`` (with ``…``), as a confirmation quotes
    what it is about; :meth:`PaperApp.notify` makes its control characters visible."""
    line = " ".join(text.split())
    return line if len(line) <= QUOTE_CHARS else line[: QUOTE_CHARS - 1].rstrip() + "…"


__all__ = ["CONFIRM_S", "ERROR_S", "QUOTE_CHARS", "made_toast", "quoted", "raised_since", "toast_timeout"]
