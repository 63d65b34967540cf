"""Opening a paper's link: in the browser when there is one, else onto the clipboard.

Over SSH, or on a machine with no browser, :func:`webbrowser.open` finds none and Textual's
``App.open_url`` does nothing and says nothing. :func:`open_or_copy` asks :mod:`webbrowser` in a
worker thread (a browser that starts slowly never holds up the screen) and, when no browser took
the link, copies it over OSC 52 (``App.copy_to_clipboard``, which works over SSH) and says so.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from paperdeck.model.safe_text import one_line, web_link


def open_in_browser(url: str) -> bool:
    """Whether a browser took ``url``: :func:`webbrowser.open` found one (``$BROWSER`` or the
    platform's) and it started; ``False`` when none could be found or started. Blocks until the
    browser command returns: call it in a thread."""
    import webbrowser  # deferred: not needed before a link is opened

    try:
        return bool(webbrowser.open(url))
    except (webbrowser.Error, OSError):
        return False


def open_or_copy(app: App[Any], url: str) -> None:
    """Open ``url`` in the browser, else copy it to the clipboard and say so in a notification.

    Only ``http(s)`` links are opened or copied (anything else gets a warning). In ``textual
    serve`` (a web driver) the link goes to the user's browser through Textual. The browser is
    asked in a worker thread; the notification comes when it has answered.
    """
    if not web_link(url):
        app.notify(f"Not opened: {url} is not an http(s) link.", severity="warning", timeout=4)
        return
    if app.is_web:
        app.open_url(url)
        return

    def ask() -> None:
        opened = open_in_browser(url)
        app.call_from_thread(_answered, app, url, opened)

    app.run_worker(ask, thread=True, group="open-link", name="open link")


def _answered(app: App[Any], url: str, opened: bool) -> None:
    if opened:
        app.notify("Opened the link in the browser.")
        return
    app.copy_to_clipboard(url)
    app.notify(f"No browser found: copied the link instead (OSC 52).\n{one_line(url)}", timeout=5, markup=False)
