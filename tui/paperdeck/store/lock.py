"""An exclusive lock on a file, across processes (POSIX ``flock``), for read-modify-write of the
user's data. Two paperdeck windows on one store take turns instead of losing each other's stars.

Built on the standard library (``fcntl``) rather than the ``filelock`` package, whose import alone
would take a noticeable share of a cold start.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path
from types import TracebackType

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no fcntl; paperdeck then runs without a lock
    fcntl = None  # type: ignore[assignment]

_POLL_S = 0.005
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # not on Windows
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO put there does not wait for a writer


class LockTimeout(OSError):
    """The lock was held by another process for longer than the timeout (an ``OSError``)."""


class FileLock:
    """An exclusive, non-reentrant lock held on ``path`` (created 0600 when missing).

    Args:
        path: the lock file.
        timeout: seconds to wait for another holder before :class:`LockTimeout`.
    """

    def __init__(self, path: Path | str, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, waiting up to ``timeout`` seconds.

        Raises:
            LockTimeout: another process held it all that time.
            OSError: the lock file cannot be opened (e.g. a read-only directory), or it is a
                symbolic link or not a regular file (``strerror`` says so; it is left as it is).
        """
        # O_NOFOLLOW: a lock file that is a symbolic link (dangling or not) is refused; followed,
        # it would create or lock a file somewhere else, outside the data directory.
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK, 0o600)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OSError(
                    errno.ELOOP, f"the lock file {self.path.name} is a symbolic link; remove it", str(self.path)
                ) from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            reason = f"the lock file {self.path.name} is not a regular file; remove it"
            raise OSError(errno.EINVAL, reason, str(self.path))
        if fcntl is None:  # pragma: no cover
            self._fd = fd
            return
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(f"{self.path} is locked by another process") from None
                time.sleep(_POLL_S)
                continue
            self._fd = fd
            return

    def release(self) -> None:
        """Let the lock go (closing the descriptor releases it even if unlock fails); a no-op when
        it is not held."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()
