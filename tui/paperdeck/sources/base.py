"""What every importer returns, and helpers they share."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper
from paperdeck.sources.decode import decode_text

#: Files larger than this are refused before they are read (bytes).
MAX_FILE_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Skip:
    """A record an importer passed over on purpose: where (``"line 12"``, ``"record 3"``) and why."""

    position: str
    reason: str


@dataclass(frozen=True, slots=True)
class SourceRead:
    """Everything read from one paper-list file.

    Attributes:
        path: the file.
        format: the format name (``"seed"``, ``"openreview"``, ``"papercopilot"``, ``"bibtex"``,
            ``"csv"``, ``"arxiv"``, …).
        papers: the papers, in file order, one per distinct id (later records of the same id merged
            into the first by the importer, or skipped with a reason).
        skipped: records passed over, with reasons (reply notes, rows without a title…).
        notice: a one-line remark for the user (e.g. "no papers in this file"), else ``None``.
    """

    path: Path
    format: str
    papers: tuple[Paper, ...]
    skipped: tuple[Skip, ...] = ()
    notice: str | None = None


def read_bytes(path: Path) -> bytes:
    """The whole file's bytes.

    Raises:
        SourceError: missing, a directory, unreadable, or over :data:`MAX_FILE_BYTES`.
    """
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SourceError(path, f"file too large ({size:,} bytes; at most {MAX_FILE_BYTES:,})")
        return path.read_bytes()
    except OSError as exc:
        raise unreadable(path, exc) from None


def unreadable(path: Path, error: OSError) -> SourceError:
    """The one-line error for a paper-list file that cannot be opened or read."""
    if isinstance(error, IsADirectoryError):
        return SourceError(path, "is a directory, not a paper list")
    if isinstance(error, FileNotFoundError):
        return SourceError(path, "no such file")
    if isinstance(error, PermissionError):
        return SourceError(path, "permission denied")
    return SourceError(path, f"cannot read: {error.strerror or error}")


def read_text(path: Path) -> str:
    """The file decoded as text (UTF-8 with/without BOM, UTF-16 with BOM, GB18030).

    Raises:
        SourceError: unreadable, binary, or in an unknown encoding.
    """
    return decode_text(read_bytes(path), path)
