"""The main screen's start-up: the catalogue parsed and the search index read or built after the
first frame, in a worker thread that waits for pauses in the typing."""

from __future__ import annotations

import string
import threading
from time import monotonic

from textual.worker import Worker

#: Queries the search index ranks ahead as it is built: each the first keystroke of a search.
_WARM = string.ascii_lowercase + string.digits
#: Seconds between looks, while the start-up worker waits, at whether the app is closing.
_CANCEL_CHECK_S = 0.05


def _prepare_queries() -> None:
    """Import what the first query typed takes (its parse, its selection, its titles' marks), so
    that its first key does not wait for the imports."""
    import paperdeck.search.highlight
    import paperdeck.search.selection  # noqa: F401


def _waited(event: threading.Event, seconds: float, worker: Worker[object]) -> bool:
    """In a thread worker: wait up to ``seconds`` for ``event``; False when ``worker`` was
    cancelled meanwhile (looked at every ``_CANCEL_CHECK_S``)."""
    deadline = monotonic() + seconds
    while not worker.is_cancelled:
        left = deadline - monotonic()
        if left <= 0 or event.wait(min(left, _CANCEL_CHECK_S)):
            return True
    return False
