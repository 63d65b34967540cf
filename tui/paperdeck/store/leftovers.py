"""What killed changes left in a store, removed: an undo point's staging (``undo/.before-<pid>-…``,
``.schedule-<pid>-…``, ``.reviews-<pid>-…/``) whose process no longer runs, and the review files
(``reviews/*.gN.json``, ``words.gN.*``) of generations the reviews index no longer names (an
import killed between its commit and the removal of the generation before: hundreds of MB).

Only under the import lock, taken here at once or not at all (another process importing: nothing
is touched, its staging and its generation's files are its own), or held by the caller
(:func:`remove_leftovers_locked`). A staging name carries the process id that made it
(:meth:`UndoScope.keep_before <paperdeck.store.undo.UndoScope.keep_before>`); one of a process
still running (this one included) is left, whatever its age. The review files are left while a
journal waits (:func:`~paperdeck.store.transaction.recover` renames the files it names first).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import orjson

from paperdeck.store.lock import FileLock, LockTimeout
from paperdeck.store.reviews import INDEX_FILE, REVIEWS_DIR, generation_files_named
from paperdeck.store.undo import UNDO_DIR

#: An undo point's staging name: what it stages and the id of the process that staged it.
_STAGED = re.compile(r"^\.(?:before|schedule|reviews)-(\d+)-[0-9a-f]+(?:\.json)?$")


def process_gone(pid: int) -> bool:
    """Whether no process ``pid`` runs (another user's process runs: it is not gone)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def remove_leftovers(data_dir: Path, lock_path: Path) -> int:
    """Take the import lock (``lock_path``) at once, remove the leftovers of killed changes in
    ``data_dir`` (:func:`remove_leftovers_locked`) and let the lock go; ``0`` and nothing touched
    when another process holds the lock, or it cannot be taken (a read-only store). Best effort:
    never raises for a file that cannot be removed. Returns how many entries were removed."""
    if not data_dir.is_dir():
        return 0
    lock = FileLock(lock_path, timeout=0.0)
    try:
        lock.acquire()
    except (LockTimeout, OSError):
        return 0
    try:
        return remove_leftovers_locked(data_dir)
    finally:
        lock.release()


def remove_leftovers_locked(data_dir: Path) -> int:
    """Remove, the caller holding the import lock, the undo staging of processes no longer
    running and the review generation files the reviews index does not name (not while a
    journal waits, nor when the index cannot be read). Returns how many entries were removed."""
    removed = 0
    undo = data_dir / UNDO_DIR
    with contextlib.suppress(OSError):
        for entry in undo.iterdir() if undo.is_dir() else ():
            found = _STAGED.match(entry.name)
            if found is None or int(found.group(1)) == os.getpid() or not process_gone(int(found.group(1))):
                continue
            with contextlib.suppress(OSError):
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
                removed += 1
    reviews = data_dir / REVIEWS_DIR
    if any(data_dir.glob(".paperdeck-journal-*")) or not (reviews / INDEX_FILE).is_file():
        return removed
    try:
        index = orjson.loads((reviews / INDEX_FILE).read_bytes())
        named, words = generation_files_named(index)
    except (OSError, ValueError, TypeError, AttributeError):
        return removed
    with contextlib.suppress(OSError):
        for path in [*reviews.glob("*.g[0-9]*.json"), *reviews.glob("words.g[0-9]*")]:
            if path.name in named or (words and path.name.startswith(f"{words}.")):
                continue
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed


__all__ = ["process_gone", "remove_leftovers", "remove_leftovers_locked"]
