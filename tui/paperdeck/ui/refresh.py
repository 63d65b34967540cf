"""The app's refresh: fetch the store's venue again (``paperdeck fetch`` in a process of its own,
watched from a worker thread).

What is fetched: the sources of the last fetch that landed (:func:`paperdeck.fetch.run.last_sources`),
else the store's most common venue and year that the venue table knows (``ICLR 2026`` →
``iclr2026``). Nothing is fetched unless the user asks (the palette's "Refresh").

The fetch is ``paperdeck fetch SOURCE… --json --progress-json`` run as a child process on the same
data directory, as in another terminal, at a lower scheduling priority: its pages, parsing and
import never take the app's interpreter (a keystroke does not wait behind them) nor its memory,
and the CPU goes to the app first. The app then reads the new
catalogue as it does after any outside import (:meth:`paperdeck.ui.app.PaperApp.check_catalogue`).
Meanwhile the list stays usable and the counts beside the filter bar say how far the fetch has got
(the child's progress lines). The login comes from the environment or the kept token (the child
never prompts: its standard input is not a terminal); a failure is one notification (the child's
error line), and the store is unchanged. Quitting the app stops a fetch under way; the same
refresh later resumes from its kept pages.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import one_line

if TYPE_CHECKING:
    from textual.app import App

    from paperdeck.store.store import Store

GROUP = "refresh"
#: How much lower the fetch's scheduling priority is than the app's (``nice``): on a machine with few
#: cores its parsing and import would otherwise take the CPU from the app's keystrokes.
BACKGROUND_NICENESS = 19


def refresh_sources(store: Store) -> list[str]:
    """What a refresh of ``store`` fetches (see the module docstring); ``[]`` when the store names
    no known venue. Reads the catalogue: call it in a worker."""
    from paperdeck.fetch.run import last_sources
    from paperdeck.fetch.venues import short_name

    names = last_sources(store.data_dir)
    if names:
        return names
    venues = Counter((paper.venue, paper.year) for paper in store.papers)
    for (venue, year), _ in venues.most_common():
        name = short_name(venue, year)
        if name is not None:
            return [name]
    return []


def start_refresh(app: App[Any], store: Store, note: Callable[[str], None]) -> None:
    """Start a refresh of ``store`` in a worker of ``app`` (the paperdeck app: it reads the
    catalogue again once the fetch landed), unless one is under way (then say so). ``note`` shows
    how far it has got beside the counts (``""``: no refresh runs); called on the event loop."""
    if any(worker.group == GROUP and not worker.is_finished for worker in app.workers):
        app.notify("A refresh is under way.")
        return
    note("refreshing…")
    app.run_worker(lambda: _refresh(app, store, note), thread=True, group=GROUP, name="refresh", exit_on_error=False)


def _refresh(app: App[Any], store: Store, note: Callable[[str], None]) -> None:
    """In a worker thread: run the fetch, follow its progress, then (on the event loop) show the result."""
    try:
        names = refresh_sources(store)
    except PaperdeckError as error:
        app.call_from_thread(_finished, app, note, "", str(error))
        return
    if not names:
        nothing = "Nothing to refresh: fetch a venue first (paperdeck fetch iclr2026)."
        app.call_from_thread(_finished, app, note, "", nothing)
        return
    summary, failure = run_fetch_process(store.data_dir, names, lambda text: app.call_from_thread(note, text))
    app.call_from_thread(_finished, app, note, summary, failure)


def run_fetch_process(data_dir: Path, names: list[str], note: Callable[[str], None]) -> tuple[str, str]:
    """Run ``paperdeck fetch NAMES…`` on ``data_dir`` in a child process, passing each progress
    step to ``note`` as one line of text; returns ``(summary, "")`` when the fetch landed, else
    ``("", error)`` (the child's last error line, sanitised). Blocks until the child ends: call it
    in a worker thread."""
    import json
    import subprocess
    import sys

    argv = [sys.executable, "-m", "paperdeck", "fetch", *names, "--json", "--progress-json"]
    argv += ["--data-dir", str(data_dir)]
    try:
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        return "", f"the fetch could not be started: {exc.strerror or exc}"
    with contextlib.suppress(OSError, AttributeError):  # background work: the app's keystrokes come first
        os.setpriority(os.PRIO_PROCESS, child.pid, os.getpriority(os.PRIO_PROCESS, 0) + BACKGROUND_NICENESS)
    _CHILDREN.add(child)
    said: list[str] = []
    try:
        assert child.stderr is not None and child.stdout is not None
        for raw in child.stderr:  # until the child closes it (it ends)
            text = raw.decode("utf-8", "replace").strip()
            try:
                state = json.loads(text)
            except ValueError:
                state = None
            if type(state) is dict and state.get("stage") in ("fetching", "importing"):
                note(one_line(_progress_text(state)))
            elif text:  # a notice (a server asked, a retry) or, last, the error line
                said.append(text)
                note(one_line(text.removeprefix("paperdeck: ")))
        output = child.stdout.read()
        code = child.wait()
    finally:
        _CHILDREN.discard(child)
    if code == 0:
        try:
            data = json.loads(output)
            notices = [str(line) for line in data.get("notices") or ()]  # no public reviews, the old host…
            return one_line("; ".join([str(data["summary"]), *notices])), ""
        except (ValueError, KeyError, TypeError):
            return "fetched", ""
    if code < 0:  # ended by a signal (the app quitting: stop_fetches)
        return "", "the fetch was stopped; the next refresh resumes from the pages it kept"
    error = said[-1].removeprefix("paperdeck: ") if said else f"the fetch stopped (exit status {code})"
    return "", one_line(error)


def _progress_text(state: dict[str, Any]) -> str:
    """One progress line of the child (see ``paperdeck fetch --progress-json``) as the counts show it."""
    if state.get("stage") != "fetching":
        pages, read = state.get("pages"), state.get("read")
        if type(pages) is not int or type(read) is not int or pages <= 0:
            return "importing…"
        if read >= pages:
            return f"importing {state.get('source')}: merging {pages:,} pages"
        return f"importing {state.get('source')}: page {read + 1:,} of {pages:,}"
    total = state.get("total")
    notes = state.get("notes")
    of = f" of {total:,}" if type(total) is int and total else ""
    return f"fetching {state.get('source')}: {notes if type(notes) is int else 0:,}{of}"


def short_progress(text: str) -> str:
    """A refresh's progress line (:func:`_progress_text`) in a few cells, for a narrow terminal
    where the whole line does not fit beside the counts: ``"↻ 42%"`` (of a known total), ``"↻ 1,234"``
    (notes so far), ``"↻ importing"``, else ``"↻"`` and the line's first word."""
    import re

    if text.startswith("fetching "):
        found = re.search(r": ([\d,]+)(?: of ([\d,]+))?$", text)
        if found is not None:
            done, total = int(found[1].replace(",", "")), int((found[2] or "0").replace(",", ""))
            return f"↻ {min(100, done * 100 // total)}%" if total else f"↻ {done:,}"
    word = text.split(maxsplit=1)[0].rstrip("…:") if text.strip() else ""
    return f"↻ {word}" if word else "↻"


#: Fetches under way (stopped when the app's process ends: see :func:`stop_fetches`).
_CHILDREN: set[subprocess.Popen[bytes]] = set()


def fetches_under_way() -> list[subprocess.Popen[bytes]]:
    """The child fetches running now (one per refresh under way)."""
    return list(_CHILDREN)


def stop_fetches() -> None:
    """Stop the fetches under way (the app is quitting): each is all or nothing and resumes from
    its kept pages next time."""
    for child in list(_CHILDREN):
        with contextlib.suppress(OSError):
            child.terminate()


atexit.register(stop_fetches)


def _finished(app: Any, note: Callable[[str], None], summary: str, error: str) -> None:
    """On the event loop: the refresh ended; say how (``summary``, else ``error``) and, when the
    fetch landed, have ``app`` (the paperdeck app) read the catalogue again."""
    note("")
    if not summary:
        app.notify(error, title="Refresh", severity="warning" if error.startswith("Nothing") else "error",
                   markup=False, timeout=8)  # fmt: skip
        return
    app.notify(summary, title="Refreshed", markup=False, timeout=6)
    app.check_catalogue()
