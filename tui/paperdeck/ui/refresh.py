"""The app's refresh: fetch the store's venue again (:mod:`paperdeck.fetch`) in a worker thread.

What is fetched: the sources of the last fetch that landed (:func:`paperdeck.fetch.run.last_sources`),
else the store's most common venue and year that the venue table knows (``ICLR 2026`` →
``iclr2026``). Nothing is fetched unless the user asks (the palette's "Refresh").

The fetch writes through a store of its own on the same data directory, as ``paperdeck fetch`` in
another terminal would; the app then reads the new catalogue as it does after any outside import
(:meth:`paperdeck.ui.app.PaperApp.check_catalogue`). Meanwhile the list stays usable and the counts
beside the filter bar say how far the fetch has got. The login comes from the environment or the
kept token (the app never prompts); a failure is one notification, and the store is unchanged.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import one_line

if TYPE_CHECKING:
    from paperdeck.fetch.run import FetchProgress, FetchSummary
    from paperdeck.store.store import Store

GROUP = "refresh"


class MainScreen(Protocol):
    """What the refresh needs of the main screen (:class:`paperdeck.ui.screens.main.MainScreen`)."""

    store: Store

    @property
    def app(self) -> Any: ...

    def notify(self, message: str, *, title: str = ..., severity: Any = ..., timeout: float | None = ...,
               markup: bool = ...) -> None: ...  # fmt: skip

    def set_refresh_note(self, text: str) -> None: ...


def refresh_sources(screen: MainScreen) -> list[str]:
    """What a refresh fetches (see the module docstring); ``[]`` when the store names no known venue.
    Reads the catalogue: call it in a worker."""
    from paperdeck.fetch.run import last_sources
    from paperdeck.fetch.venues import short_name

    names = last_sources(screen.store.data_dir)
    if names:
        return names
    venues = Counter((paper.venue, paper.year) for paper in screen.store.papers)
    for (venue, year), _ in venues.most_common():
        name = short_name(venue, year)
        if name is not None:
            return [name]
    return []


def start_refresh(screen: MainScreen) -> None:
    """Start a refresh in a worker, unless one is under way (then say so)."""
    if any(worker.group == GROUP and not worker.is_finished for worker in screen.app.workers):
        screen.notify("A refresh is under way.", timeout=2)
        return
    screen.set_refresh_note("refreshing…")
    screen.app.run_worker(lambda: _refresh(screen), thread=True, group=GROUP, name="refresh", exit_on_error=False)


def _refresh(screen: MainScreen) -> None:
    """In a worker thread: fetch, then (on the event loop) show the result."""
    from paperdeck.fetch.run import FetchOptions, fetch
    from paperdeck.fetch.venues import parse_source
    from paperdeck.store.store import Store

    app = screen.app
    try:
        names = refresh_sources(screen)
        if not names:
            app.call_from_thread(
                _finished, screen, None, "Nothing to refresh: fetch a venue first (paperdeck fetch iclr2026)."
            )
            return
        sources = [parse_source(name) for name in names]

        def progress(state: FetchProgress) -> None:
            total = f" of {state.total:,}" if state.total else ""
            text = f"fetching {state.source}: {state.notes:,}{total}" if state.stage == "fetching" else "importing…"
            app.call_from_thread(screen.set_refresh_note, one_line(text))

        summary = fetch(Store(screen.store.data_dir), sources, FetchOptions(), progress)
    except PaperdeckError as error:
        app.call_from_thread(_finished, screen, None, str(error))
        return
    app.call_from_thread(_finished, screen, summary, "")


def _finished(screen: MainScreen, summary: FetchSummary | None, error: str) -> None:
    screen.set_refresh_note("")
    if summary is None:
        screen.notify(error, title="Refresh", severity="warning" if error.startswith("Nothing") else "error",
                      markup=False, timeout=8)  # fmt: skip
        return
    screen.notify(summary.summary(), title="Refreshed", markup=False, timeout=6)
    screen.app.check_catalogue()
