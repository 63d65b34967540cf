"""The errors paperdeck raises for the user to read: one line each, naming the file (and line),
its name shown through :func:`~paperdeck.model.safe_text.file_name`."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.safe_text import file_name


class PaperdeckError(Exception):
    """Base of every error meant for the user: ``str(error)`` is one clear line."""


class SourceError(PaperdeckError):
    """A paper-list file could not be read; nothing from it was imported.

    Attributes:
        path: the file.
        line: 1-based line number of the fault, or ``None`` when it concerns the whole file.
        reason: what is wrong, in a few words.
    """

    def __init__(self, path: Path | str, reason: str, line: int | None = None) -> None:
        self.path = Path(path)
        self.reason = reason
        self.line = line
        where = f"{file_name(self.path)}:{line}" if line is not None else file_name(self.path)
        super().__init__(f"{where}: {reason}")

    def __reduce__(self) -> tuple[type[SourceError], tuple[Path, str, int | None]]:
        # Pickled as made (a file read in another process raises it there).
        return type(self), (self.path, self.reason, self.line)


class StoreError(PaperdeckError):
    """The store could not be opened or written; the files on disk were left as they were.

    Attributes:
        path: the store file or directory concerned.
        reason: what is wrong and what to do, in one line.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{file_name(self.path)}: {reason}")

    def __reduce__(self) -> tuple[type[StoreError], tuple[Path, str]]:
        return type(self), (self.path, self.reason)
