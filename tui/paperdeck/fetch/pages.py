"""Fetched pages kept on disk until they are imported, so that an interrupted fetch resumes.

One folder per source under ``<data dir>/fetch/pages/<source key>/``: ``state.json``
(``{"base_url", "what", "limit", "started", "pages", "complete", "cursor", "notes"}``) and the pages, page ``N`` as
``NNNNN/<file name>`` (every page under the same file name, which is the ``sources`` entry the
importer gives the papers). Each page is written atomically before ``state.json`` counts it, so a
``kill -9`` leaves at most a page that is not counted (and is fetched again). A folder whose state
names another server, another request or is older than :data:`RESUME_WITHIN_S` is started afresh.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

from paperdeck.store.atomic import atomic_write_bytes

__all__ = ["RESUME_WITHIN_S", "PageCache", "kept_what"]

#: Pages older than this (seconds) are not resumed from: the fetch starts again.
RESUME_WITHIN_S = 24 * 3600
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def kept_what(root: Path, key: str) -> str:
    """What the pages kept for the source ``key`` under ``root`` were asked for (their state's
    ``"what"``: an invitation, a path), ``""`` when none are kept; reads only, removes nothing."""
    try:
        state = json.loads((root / _UNSAFE.sub("_", key)[:120] / "state.json").read_text("utf-8"))
    except (OSError, ValueError):
        return ""
    what = state.get("what") if isinstance(state, dict) else None
    return what if isinstance(what, str) else ""


class PageCache:
    """The kept pages of one source (see the module docstring).

    Attributes:
        folder: the source's folder.
        file_name: the name every page is kept under.
        pages: the page files kept so far, in order.
        complete: True once the last page is kept.
        cursor: the last note id of the last kept page (where the next page starts), ``""`` if none.
        notes: the notes in the kept pages.
    """

    def __init__(self, root: Path, key: str, file_name: str, identity: dict[str, Any]) -> None:
        self.folder = root / _UNSAFE.sub("_", key)[:120]
        self.file_name = file_name
        self._identity = identity
        self.pages: list[Path] = []
        self.complete = False
        self.cursor = ""
        self.notes = 0
        self._started = time.time()
        self._resume()

    @property
    def resumed(self) -> int:
        """How many pages were found from an earlier, interrupted run."""
        return self._resumed

    def _resume(self) -> None:
        self._resumed = 0
        try:
            state = json.loads((self.folder / "state.json").read_text("utf-8"))
        except (OSError, ValueError):
            state = None
        fresh = (
            isinstance(state, dict)
            and all(state.get(key) == value for key, value in self._identity.items())
            and isinstance(state.get("started"), int | float)
            and time.time() - state["started"] < RESUME_WITHIN_S
            and isinstance(state.get("pages"), int)
        )
        if not fresh:
            self.discard()
            return
        assert isinstance(state, dict)
        pages = [self._page_path(index) for index in range(state["pages"])]
        if not all(page.is_file() for page in pages):
            self.discard()
            return
        self.pages = pages
        self.complete = state.get("complete") is True
        self.cursor = str(state.get("cursor") or "")
        self.notes = int(state.get("notes") or 0)
        self._started = float(state["started"])
        self._resumed = len(pages)

    def _page_path(self, index: int) -> Path:
        return self.folder / f"{index + 1:05d}" / self.file_name

    def add(self, body: bytes, *, last: bool, cursor: str = "", notes: int = 0) -> Path:
        """Keep the next page (``body`` as the server sent it); ``last``: it ends the list;
        ``cursor``: its last note id; ``notes``: how many notes it holds.

        Raises:
            StoreError: the folder cannot be written.
        """
        path = self._page_path(len(self.pages))
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, body)
        self.pages.append(path)
        self.complete = last
        self.cursor = cursor
        self.notes += notes
        state = {**self._identity, "started": self._started, "pages": len(self.pages), "complete": last,
                 "cursor": cursor, "notes": self.notes}  # fmt: skip
        atomic_write_bytes(self.folder / "state.json", json.dumps(state).encode())
        return path

    def discard(self) -> None:
        """Remove the kept pages (after their import, or when they cannot be resumed from)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self.pages = []
        self.complete = False
        self.cursor = ""
        self.notes = 0
