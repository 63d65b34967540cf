"""Documents of a file read by their spans, a piece at a time: the catalogue read again paper by
paper (:meth:`paperdeck.store.catalogue.Catalogue.papers_read_again`'s documents, and a review
import's rescoring, :mod:`paperdeck.store.rescoring`), never the whole file held."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

#: Bytes read at a time (at least: a longer span is read whole).
PIECE_BYTES = 1 << 20


def span_bytes(handle: BinaryIO, spans: Iterable[tuple[int, int]]) -> Iterator[bytes]:
    """The bytes of each ``(start, end)`` span of the file ``handle`` reads, in the order given
    (ascending spans read each byte once), read :data:`PIECE_BYTES` or a span's length at a time;
    each is valid until the next is taken.

    Raises:
        EOFError: the file ends before a span's end.
        OSError: the file cannot be read.
    """
    buffer, base = b"", 0  # buffer holds the file's bytes from offset base
    for start, end in spans:
        if start < base or end > base + len(buffer):
            kept = buffer[start - base :] if base <= start < base + len(buffer) else b""
            handle.seek(start + len(kept))
            buffer = kept + handle.read(max(PIECE_BYTES, end - start - len(kept)))
            base = start
            if end > base + len(buffer):
                raise EOFError(f"the file ends before the span {start}–{end}")
        yield buffer[start - base : end - base]


def bytes_between(handle: BinaryIO, at: int, stop: int) -> Iterator[bytes]:
    """The file's bytes from offset ``at`` (where ``handle`` stands) up to ``stop``, in pieces of
    at most :data:`PIECE_BYTES` (a file copied around the documents a patch replaces).

    Raises:
        OSError: the file ends before ``stop``, or cannot be read.
    """
    while at < stop:
        chunk = handle.read(min(PIECE_BYTES, stop - at))
        if not chunk:
            raise OSError(f"{getattr(handle, 'name', 'the file')} ends before a paper's span")
        at += len(chunk)
        yield chunk
