"""A catalogue file read again a paper at a time, as a store wrote it (:class:`WrittenCatalogue`,
:meth:`Catalogue.written <paperdeck.store.catalogue.Catalogue.written>`), and the papers an import
in place reads alone (:class:`NamedPapers`, :meth:`Catalogue.read_named
<paperdeck.store.catalogue.Catalogue.read_named>`). Apart from :mod:`paperdeck.store.catalogue`
because the app's start needs none of them: their classes are made where an import, a removal or
the indexes read the file again, not before the first paint (a dataclass costs ~1 ms to make).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.store.atomic import malformed
from paperdeck.store.span_read import span_bytes

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.store.rows import CatalogueSpans, PaperRow, RowColumns, VenueRuns

#: ``(inode, mtime in ns, size in bytes)`` of a file (:func:`paperdeck.store.rows.file_stamp`).
Stamp = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class NamedPapers:
    """Papers read alone by :meth:`Catalogue.read_named`, with what :meth:`Catalogue.patch`
    needs of the catalogue file they were read from: its stamp, every paper id in order, the
    named papers by id, every paper's span and the aliases, the rows cache's rows (each its JSON
    line, or decoded), columns and venues."""

    stamp: Stamp
    ids: list[str]
    papers: dict[str, Paper]
    spans: CatalogueSpans
    rows: dict[str, PaperRow | bytes]
    columns: RowColumns
    venues: VenueRuns
    #: Each venue's columns, when the rows cache holds them.
    venue_columns: dict[str, RowColumns] | None = None


@dataclass(frozen=True, slots=True)
class WrittenCatalogue:
    """A catalogue file as a store wrote it (:meth:`Catalogue.written`): its path, its
    ``(inode, mtime_ns, size)`` stamp then, its papers' ids in catalogue order laid end to end
    (``id_text``; paper ``i``'s ends at ``id_ends[i]``), and where each paper's document lies in
    the file: ``bounds[2 * i]`` to ``bounds[2 * i + 1]`` (byte offsets)."""

    path: Path
    stamp: Stamp
    id_text: str
    id_ends: array[int]
    bounds: array[int]
    #: How many documents have been parsed from the file (one item: the count), by every reader.
    parsed: list[int] = field(default_factory=lambda: [0])

    @property
    def ids(self) -> list[str]:
        """The papers' ids, in catalogue order (a new list each time)."""
        from itertools import chain

        text, ends = self.id_text, self.id_ends
        return [text[start:end] for start, end in zip(chain((0,), ends), ends, strict=False)]

    @property
    def held_stamp(self) -> list[int]:
        """``[size, mtime_ns]`` (:meth:`Catalogue.held_stamp`'s form: what caches are keyed by)."""
        _, mtime_ns, size = self.stamp
        return [size, mtime_ns]

    def papers(self) -> Iterator[Paper]:
        """The papers, parsed one document at a time from the file read a piece at a time (of
        about :data:`PIECE_BYTES`), in catalogue order: each can be dropped once used, so the
        catalogue is never held whole, nor its papers all at once.

        Raises:
            StoreError: the file is no longer the one written (replaced: its inode, or its size,
                differs), ends early, or a document is not where its span says or does not parse
                (a reader that stops there has had only papers of the file as written).
        """
        from paperdeck.model.paper import Paper

        paper_of = Paper.from_dict
        for paper_id, document in self._documents():
            try:
                paper = paper_of(document)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise StoreError(self.path, f"a paper written cannot be read again ({malformed(exc)})") from None
            if paper.id != paper_id:
                raise StoreError(self.path, f"holds {paper.id!r} where {paper_id!r} was written")
            yield paper

    def indexed(self) -> Iterator[IndexedText]:
        """What the search and similarity indexes read of each paper (:class:`IndexedText`: its
        id, title, abstract, whether the title was derived, authors and keywords), read as
        :meth:`papers` reads the papers (a piece of the file at a time, in catalogue order) but
        without making a :class:`~paperdeck.model.paper.Paper` of each: the other fields of a
        document are parsed and dropped. Each field is as :meth:`papers` would give it (authors
        and keywords as lists, not tuples).

        Raises:
            StoreError: as :meth:`papers`; also a document whose id, title or abstract is not
                text, or whose authors or keywords are not a list.
        """
        for paper_id, document in self._documents():
            try:
                text = IndexedText(
                    document["id"],
                    document["title"],
                    document["abstract"],
                    document.get("title_derived", False),
                    document.get("authors", ()),
                    document.get("keywords", ()),
                )
            except (KeyError, TypeError, AttributeError) as exc:
                raise StoreError(self.path, f"a paper written cannot be read again ({malformed(exc)})") from None
            if not (type(text.id) is type(text.title) is type(text.abstract) is str) or not all(
                type(names) in (list, tuple) for names in (text.authors, text.keywords)
            ):
                raise StoreError(self.path, f"a paper written cannot be read again ({paper_id!r}: a field's type)")
            if text.id != paper_id:
                raise StoreError(self.path, f"holds {text.id!r} where {paper_id!r} was written")
            yield text

    def _documents(self) -> Iterator[tuple[str, Any]]:
        """Each paper's id as written and its document parsed (JSON, not checked further), in
        catalogue order, from the file read a piece at a time; :attr:`parsed` counts them.

        Raises:
            StoreError: the file is no longer the one written (replaced: its inode, or its size,
                differs), ends early, or a document is not where its span says or does not parse.
        """
        loads = orjson.loads
        try:
            with self.path.open("rb") as handle:
                status = os.fstat(handle.fileno())
                if (status.st_ino, status.st_size) != (self.stamp[0], self.stamp[2]):
                    raise StoreError(self.path, "was replaced while it was read again")
                bounds, text, ends = self.bounds, self.id_text, self.id_ends
                spans = span_bytes(handle, ((bounds[2 * n], bounds[2 * n + 1]) for n in range(len(ends))))
                for n, piece in enumerate(spans):
                    paper_id = text[ends[n - 1] if n else 0 : ends[n]]
                    document = loads(piece)
                    if type(document) is not dict:
                        raise StoreError(self.path, f"holds no paper where {paper_id!r} was written")
                    self.parsed[0] += 1
                    yield paper_id, document
        except EOFError:
            raise StoreError(self.path, "ends before a paper's span") from None
        except OSError as exc:
            raise StoreError(self.path, f"cannot be read again ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise StoreError(self.path, f"a paper written cannot be read again ({malformed(exc)})") from None


def written_of(path: Path, stamp: Stamp, spans: dict[str, tuple[int, int]]) -> WrittenCatalogue:
    """The :class:`WrittenCatalogue` of the file at ``path`` stamped ``stamp``, its papers' ``spans``."""
    from itertools import accumulate, chain

    # Held as one text and arrays, not the objects made paper by paper while the papers were
    # read and written: those are spread over the memory the papers took, and would keep it.
    ends = array("q", accumulate(map(len, spans)))
    bounds = array("q", chain.from_iterable(spans.values()))
    return WrittenCatalogue(path, stamp, "".join(spans), ends, bounds)


class IndexedText(NamedTuple):
    """What the search and similarity indexes read of a paper (the fields of
    :class:`~paperdeck.model.paper.Paper` of these names), read from the catalogue file without
    making the paper (:meth:`WrittenCatalogue.indexed`)."""

    id: str
    title: str
    abstract: str
    title_derived: bool
    authors: Sequence[str]
    keywords: Sequence[str]
