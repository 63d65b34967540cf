"""How long a notification stays: one rule for every toast, applied by
:meth:`PaperApp.notify <paperdeck.ui.app.PaperApp.notify>` whoever calls it.

- An error (``severity="error"``) is something the user must act on: a settings file that cannot
  be read or written, a store that cannot be written, an import or a removal refused. It stays
  until dismissed (a click on it, or the palette's "Dismiss messages"): it vanished after a few
  seconds, perhaps before the user looked.
- Every other toast stays at least ``CONFIRM_S`` seconds, long enough to read what was done
  ("Copied the title and link: …"; ``y`` said it for 1.5 s), or longer when its caller asks it.
"""

from __future__ import annotations

from textual.notifications import SeverityLevel

#: Seconds a confirmation (any toast that is no error) stays at least.
CONFIRM_S = 3.5

#: The longest a confirmation quotes of what it is about (a title, a link), in characters.
QUOTE_CHARS = 60

#: Seconds an error stays: until it is dismissed (a day stands for "never" to Textual's timer).
UNTIL_DISMISSED_S = 24 * 3600.0


def toast_timeout(severity: SeverityLevel, timeout: float | None) -> float:
    """Seconds a toast of ``severity`` stays, its caller having asked ``timeout`` (``None``: none)."""
    if severity == "error":
        return UNTIL_DISMISSED_S
    return max(CONFIRM_S, timeout if timeout is not None else CONFIRM_S)


def quoted(text: str) -> str:
    """``text`` on one line, shortened to ``QUOTE_CHARS`` (with ``…``), as a confirmation quotes
    what it is about; :meth:`PaperApp.notify` makes its control characters visible."""
    line = " ".join(text.split())
    return line if len(line) <= QUOTE_CHARS else line[: QUOTE_CHARS - 1].rstrip() + "…"


__all__ = ["CONFIRM_S", "QUOTE_CHARS", "UNTIL_DISMISSED_S", "quoted", "toast_timeout"]
