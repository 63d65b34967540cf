"""Per-system-call fault injection into a data directory, and a store's state as one value.

:class:`Faults` replaces, while it is active, the ``os`` functions the store writes through
(``open``, ``write``, ``fsync``, ``ftruncate``, ``replace``, ``rename``, ``unlink``, ``remove``,
``mkdir``, ``rmdir``) with ones that count each call on a path inside the data directory (or on a
descriptor opened there) and, at call number ``fail_at``, fail it: ``OSError(EIO)``,
``OSError(ENOSPC)``, a real ``SIGKILL`` of the process (``"sigkill"``), or :class:`Killed` — a
simulated ``kill -9``: no ``except Exception`` catches it, and every later call into the
directory raises it again, so nothing more reaches the disk (the process is dead); the test then
opens a fresh store, as a restart would.

:func:`state` is what a store holds, as data: papers, aliases, user records, reviews (every
shard the index names, and its summaries), the change log. Two stores hold the same when their
states are equal. :func:`check_operation` runs an operation with a fault at each call in turn
and counts the half states (neither the whole before nor the whole after) and the false messages.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from paperdeck.model.errors import PaperdeckError, StoreError
from paperdeck.model.paper_json import paper_record
from paperdeck.model.user import UserData
from paperdeck.store.store import Store
from paperdeck.store.transaction import NOT_FINISHED

KINDS = ("eio", "enospc", "kill")
NOTHING_CHANGED = "nothing was changed"


class Killed(BaseException):
    """A simulated ``kill -9`` at a system call."""


class Faults:
    """Count (and, at ``fail_at``, fail) the writing system calls into ``root``; see the module
    docstring. ``calls``: how many were made; ``fired``: whether the fault was injected."""

    def __init__(self, root: Path, fail_at: int = 0, kind: str = "eio") -> None:
        self.root = os.path.realpath(root)
        self.fail_at = fail_at
        self.kind = kind
        self.calls = 0
        self.fired = False
        self.dead = False
        self._fds: set[int] = set()
        self._real: dict[str, Any] = {}

    def _ours(self, path: Any) -> bool:
        if isinstance(path, int):
            return path in self._fds
        try:
            name = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        return name == self.root or name.startswith(self.root + os.sep)

    def _hit(self, path: Any = None) -> None:
        if self.dead:
            raise Killed
        self.calls += 1
        if self.calls != self.fail_at:
            return
        self.fired = True
        if self.kind == "sigkill":  # the real thing, in a process of its own
            os.kill(os.getpid(), signal.SIGKILL)
        if self.kind == "kill":
            self.dead = True
            raise Killed
        code = errno.EIO if self.kind == "eio" else errno.ENOSPC
        raise OSError(code, os.strerror(code), *([] if path is None or isinstance(path, int) else [os.fsdecode(path)]))

    def __enter__(self) -> Faults:
        real = self._real = {name: getattr(os, name) for name in _PATCHED}

        def by_path(name: str, *arguments: int) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                if any(self._ours(args[n]) for n in arguments if n < len(args)):
                    self._hit(args[0])
                return real[name](*args, **kwargs)

            return call

        def open_(path: Any, *args: Any, **kwargs: Any) -> int:
            ours = self._ours(path)
            if ours:
                self._hit(path)
            fd: int = real["open"](path, *args, **kwargs)
            if ours:
                self._fds.add(fd)
            return fd

        def close(fd: int) -> None:
            self._fds.discard(fd)
            real["close"](fd)

        os.open = open_
        os.close = close
        for name in ("write", "fsync", "ftruncate", "unlink", "remove", "mkdir", "rmdir"):
            setattr(os, name, by_path(name, 0))
        for name in ("replace", "rename"):
            setattr(os, name, by_path(name, 0, 1))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, function in self._real.items():
            setattr(os, name, function)


_PATCHED = ("open", "close", "write", "fsync", "ftruncate", "replace", "rename", "unlink", "remove", "mkdir", "rmdir")


def state(data_dir: Path, *, times: bool = True) -> bytes:
    """What the store in ``data_dir`` holds (opened as a restart would), as canonical bytes;
    without ``times``, the user records' ``created`` and ``updated`` are left out (a command run
    in another process stamps them with the real clock)."""
    store = Store(data_dir)
    papers = sorted((paper_record(p, UserData(p.id)) for p in store.papers), key=lambda r: r["id"])  # marks: below
    users = {pid: record.to_dict() for pid, record in sorted(store.all_user_data.items())}
    if not times:
        users = {pid: {k: v for k, v in doc.items() if k not in ("created", "updated")} for pid, doc in users.items()}
    reviews: dict[str, Any] = {}
    index_path = data_dir / "reviews" / "index.json"
    if index_path.exists():
        index = orjson.loads(index_path.read_bytes())
        names = [*index["shards"].values(), index.get("summaries")]
        reviews = {"notes": index.get("notes")}
        for name in filter(None, names):
            reviews[str(name).split(".g")[0]] = orjson.loads((data_dir / "reviews" / str(name)).read_bytes())
    changes = [change.to_dict() for change in store.changes()]
    schedule = sorted(
        (event.to_dict() for event in store.schedule.events()), key=lambda d: (d["id"], d.get("paper", ""))
    )
    whole = {"papers": papers, "aliases": store.aliases, "user": users, "reviews": reviews, "changes": changes,
             "schedule": schedule}  # fmt: skip
    return orjson.dumps(whole, option=orjson.OPT_SORT_KEYS)


@dataclass
class Outcome:
    """What the injections into one operation gave."""

    runs: int = 0
    half_states: list[str] = field(default_factory=list)
    false_messages: list[str] = field(default_factory=list)
    completed: int = 0
    unchanged: int = 0


def check_operation(
    template: Path,
    work: Path,
    operation: Callable[[Path], object],
    calls: Iterable[int],
    kinds: Iterable[str] = KINDS,
    outcome: Outcome | None = None,
) -> Outcome:
    """Run ``operation`` (given a data directory) on a copy of ``template``, with a fault of each
    kind at each call number of ``calls`` in turn, then open the store as a restart would; count
    the half states and the false messages: an error that does not say the change is saved when
    it was made, or says so when it was not, or a store error that does not say "nothing was
    changed" when nothing was; a success whose change is not all there. (An error of another
    part — a fetch's page cache — that names no change is not taken as false.)
    ``work`` is scratch space."""
    outcome = outcome or Outcome()
    before = state(copy_tree(template, work / "before"))
    after_dir = copy_tree(template, work / "after")
    operation(after_dir)
    after = state(after_dir)
    assert before != after, "the operation changes nothing: nothing to test"
    kinds = tuple(kinds)
    for call in calls:
        for kind in kinds:
            data_dir = copy_tree(template, work / "run")
            message: str | None = None
            store_error = killed = False
            with Faults(data_dir, call, kind) as faults:
                try:
                    operation(data_dir)
                except Killed:
                    killed = True
                except (PaperdeckError, OSError) as exc:
                    message = str(exc)
                    store_error = isinstance(exc, StoreError)
            if not faults.fired:
                continue
            outcome.runs += 1
            where = f"call {call} ({kind})"
            try:
                seen = state(data_dir)
            except (PaperdeckError, OSError) as exc:  # a store left unreadable: half of something
                outcome.half_states.append(f"{where}: unreadable after it ({exc})")
                continue
            if seen not in (before, after):
                outcome.half_states.append(where)
                continue
            made = seen == after
            outcome.completed += made
            outcome.unchanged += not made
            if killed:
                continue
            if message is None:
                if not made:
                    outcome.false_messages.append(f"{where}: succeeded, but nothing is changed")
            elif made and NOT_FINISHED not in message:
                outcome.false_messages.append(f"{where}: changed, yet said {message!r}")
            elif not made and (NOT_FINISHED in message or (store_error and NOTHING_CHANGED not in message)):
                outcome.false_messages.append(f"{where}: unchanged, yet said {message!r}")
    return outcome


def count_calls(template: Path, work: Path, operation: Callable[[Path], object]) -> int:
    """How many writing calls ``operation`` makes into a copy of ``template``."""
    data_dir = copy_tree(template, work / "count")
    with Faults(data_dir) as faults:
        operation(data_dir)
    return faults.calls


def copy_tree(template: Path, target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(template, target, symlinks=True)
    return target
