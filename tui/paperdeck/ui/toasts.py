"""How long a notification stays: one rule for every toast, applied by
:meth:`PaperApp.notify <paperdeck.ui.app.PaperApp.notify>` whoever calls it.

- An error (``severity="error"``) is something the user must act on: a settings file that cannot
  be read or written, a store that cannot be written, an import or a removal refused. It stays
  until dismissed (a click on it, or the palette's "Dismiss messages"): it vanished after a few
  seconds, perhaps before the user looked.
- Every other toast stays as long as its caller asks (Textual's default when it does not).
"""

from __future__ import annotations

from textual.notifications import SeverityLevel

#: Seconds an error stays: until it is dismissed (a day stands for "never" to Textual's timer).
UNTIL_DISMISSED_S = 24 * 3600.0


def toast_timeout(severity: SeverityLevel, timeout: float | None) -> float | None:
    """Seconds a toast of ``severity`` stays, its caller having asked ``timeout`` (``None``: the default)."""
    if severity == "error":
        return UNTIL_DISMISSED_S
    return timeout


__all__ = ["UNTIL_DISMISSED_S", "toast_timeout"]
