"""The errors paperdeck raises for the user to read: one line each, naming the file (and line),
its name shown through :func:`~paperdeck.model.safe_text.file_name`."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.safe_text import file_name


class PaperdeckError(Exception):
    """Base of every error meant for the user: ``str(error)`` is one clear line."""


class NothingToDo(PaperdeckError):
    """The command was right, but there was nothing to do: nothing to undo, no paper to act on,
    an empty input to read. One line, nothing changed, and exit status 1 where a wrong command or
    bad input is 2 (the command line's table of exit statuses)."""


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


class AmbiguousId(PaperdeckError):
    """A bare id (no ``kind:`` prefix) names papers of several kinds (``openreview:X`` and
    ``arxiv:X``): the message lists them, so that one can be given whole.

    Attributes:
        given: the id as given.
        candidates: the papers' ids.
    """

    def __init__(self, given: str, candidates: list[str]) -> None:
        from paperdeck.model.safe_text import one_line

        self.given = given
        self.candidates = candidates
        super().__init__(f"{one_line(given)!r} names {len(candidates)} papers: {', '.join(map(one_line, candidates))}")

    def __reduce__(self) -> tuple[type[AmbiguousId], tuple[str, list[str]]]:
        return type(self), (self.given, self.candidates)


class SavedThenInterrupted(KeyboardInterrupt):
    """Ctrl-C came after a change was committed (an import's papers or reviews written), while
    what follows it was made (the search index, the statistics): the change stands, and the
    message says so rather than "nothing was changed". The indexes left are stamped for the
    catalogue before, so they are made again at the next start.

    Attributes:
        message: the line to show (without the ``paperdeck:`` prefix).
    """

    def __init__(self, what: str, undo: str | None = None) -> None:
        taken_back = f" (`{undo}` takes it back)" if undo else ""
        self.message = (
            f"interrupted; {what} was saved{taken_back}; the search index was not finished "
            "and is made again at the next start"
        )
        super().__init__(self.message)
