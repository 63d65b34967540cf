"""Papers held without their texts: what every paper's query, count and column needs (id, venue,
year, area, decision, ratings, confidence, forum id, number) is held per paper; the texts (title,
abstract, authors, keywords, links, BibTeX…) are read from the paper's span of the catalogue file
when asked for, through a small cache of the papers last read. What a screen shows is read when
shown; what the store holds does not grow with the abstracts.

:class:`CatalogueText` is one catalogue file kept open by its descriptor (the very file the
papers were read from, even once another process's import has renamed a new one over it: the
descriptor holds the old file until the last paper of it is dropped). :class:`LeanPaper` is a
:class:`~paperdeck.model.paper.Paper` whose text fields read it; it equals, hashes and prints as
the full paper it stands for, and :func:`dataclasses.replace` of it makes a full paper.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from array import array
from collections import OrderedDict
from dataclasses import fields
from typing import Any

import orjson

from paperdeck.model.paper import Paper

__all__ = ["LIGHT_FIELDS", "TEXT_FIELDS", "CatalogueText", "DeferredPaper", "LeanPaper"]

#: The fields a lean paper reads from the catalogue file when asked for (the bulk of a paper).
TEXT_FIELDS = (
    "title",
    "abstract",
    "sources",
    "authors",
    "keywords",
    "tldr",
    "arxiv_id",
    "doi",
    "pdf_url",
    "code_url",
    "openreview_url",
    "arxiv_url",
    "bibtex",
    "provenance",
)
#: The fields a lean paper holds (what the queries, counts and columns over every paper read).
LIGHT_FIELDS = tuple(spec.name for spec in fields(Paper) if spec.name not in TEXT_FIELDS)
_ALL_FIELDS = tuple(spec.name for spec in fields(Paper))

#: Papers read whole that a catalogue file keeps (the detail pane's, the rows on screen).
CACHED_PAPERS = 256


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


class CatalogueText:
    """One catalogue file, open by its descriptor, and where each paper lies in it.

    Args:
        fd: a descriptor of the file opened for reading; owned (closed when this is dropped).
        size: the file's size in bytes as checked when opened (no span past it is read).

    Attributes:
        reads: papers parsed from the file since it was opened (tests count them).
        failed: papers whose span no longer held their document (the file was changed in place).
    """

    def __init__(self, fd: int, size: int) -> None:
        self._fd = fd
        # Closed when this is collected, or at exit (a finalizer, unlike __del__, runs before the
        # interpreter tears its modules down).
        weakref.finalize(self, _close, fd)
        self._size = size
        self._starts = array("q")
        self._ends = array("q")
        self._cache: OrderedDict[int, Paper] = OrderedDict()
        self._lock = threading.Lock()
        self.reads = 0
        self.failed = 0
        #: Deferred papers (:class:`DeferredPaper`) parsed since the file was opened (tests count them).
        self.deferred_reads = 0

    def add(self, start: int, end: int) -> int:
        """Record one paper's span (byte offsets ``start`` < ``end`` ≤ the size); its number."""
        self._starts.append(start)
        self._ends.append(end)
        return len(self._starts) - 1

    def document(self, start: int, end: int) -> bytes:
        """The bytes of ``[start, end)`` (short when the file was cut in place)."""
        if not 0 <= start < end <= self._size:
            return b""
        return os.pread(self._fd, end - start, start)

    def paper(self, at: int, fallback: LeanPaper) -> Paper:
        """The full paper number ``at``, parsed from its span (the last :data:`CACHED_PAPERS` kept);
        when the span no longer holds a document of this paper (the file was changed in place,
        which no paperdeck does), ``fallback``'s fields with empty texts (its id as its title)."""
        with self._lock:
            cached = self._cache.get(at)
            if cached is not None:
                self._cache.move_to_end(at)
                return cached
        paper: Paper | None
        try:
            paper = Paper.from_dict(orjson.loads(self.document(self._starts[at], self._ends[at])))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            paper = None
        if paper is None or paper.id != fallback.id:
            self.failed += 1
            light = {name: getattr(fallback, name) for name in LIGHT_FIELDS}
            paper = Paper(title=fallback.id, abstract="", **light)
        with self._lock:
            self.reads += 1
            self._cache[at] = paper
            while len(self._cache) > CACHED_PAPERS:
                self._cache.popitem(last=False)
        return paper

    def light(self, at: int, paper_id: str) -> Paper:
        """Paper number ``at`` parsed from its span for its :data:`LIGHT_FIELDS` (not kept in the
        cache of papers read whole); when the span holds no document of ``paper_id``, a paper of
        that id with every other field at its default (its id as its title), counted in
        :attr:`failed`."""
        paper: Paper | None
        try:
            paper = Paper.from_dict(orjson.loads(self.document(self._starts[at], self._ends[at])))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            paper = None
        with self._lock:
            self.deferred_reads += 1
            if paper is None or paper.id != paper_id:
                self.failed += 1
                paper = None
        return paper if paper is not None else Paper(id=paper_id, title=paper_id, abstract="")


class LeanPaper(Paper):
    """A paper holding :data:`LIGHT_FIELDS`; each of :data:`TEXT_FIELDS` is read from its
    :class:`CatalogueText` when asked for. Made by :meth:`of`; equal to (and hashed as) the full
    paper with the same fields; made anew (``dataclasses.replace``, ``type(paper)(...)``) it is a
    full :class:`~paperdeck.model.paper.Paper`."""

    __slots__ = ("_at", "_text")

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # dataclasses.replace and the merge make a full paper (a lean one is made by of()).
        return Paper(*args, **kwargs)

    @classmethod
    def of(cls, paper: Paper, text: CatalogueText, at: int, paper_id: str | None = None) -> LeanPaper:
        """``paper`` without its texts, read again from ``text``'s paper number ``at``;
        ``paper_id``: a string equal to its id, held instead (the one the catalogue keys it by:
        one string, not two)."""
        lean = object.__new__(cls)  # no __init__: the texts are not set
        setter = object.__setattr__
        for name in LIGHT_FIELDS:
            setter(lean, name, getattr(paper, name))
        if paper_id is not None and paper_id == paper.id:
            setter(lean, "id", paper_id)
        setter(lean, "_text", text)
        setter(lean, "_at", at)
        return lean

    def full(self) -> Paper:
        """The full paper (read from the catalogue file, or its cache)."""
        text: CatalogueText = object.__getattribute__(self, "_text")
        return text.paper(object.__getattribute__(self, "_at"), self)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if not isinstance(other, Paper):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _ALL_FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in _ALL_FIELDS))

    def __reduce__(self) -> tuple[Any, ...]:  # copied or pickled: the full paper
        return (Paper, tuple(getattr(self, name) for name in _ALL_FIELDS))


class DeferredPaper(LeanPaper):
    """A :class:`LeanPaper` of which only the id is held until another field is first asked for:
    then its document is parsed from its :class:`CatalogueText` (:meth:`CatalogueText.light`) and
    its :data:`LIGHT_FIELDS` held from then on, as a lean paper's. The catalogue holds the papers
    outside the venue scope the app opened on so (:meth:`Catalogue.defer_outside
    <paperdeck.store.catalogue.Catalogue.defer_outside>`): a view of that scope never parses them.
    Equal to, hashed and printed as the full paper, as a lean one; safe to read from several
    threads (two first reads parse twice and hold the same values)."""

    __slots__ = ()

    @classmethod
    def deferred(cls, text: CatalogueText, at: int, paper_id: str) -> DeferredPaper:
        """Paper ``paper_id``, number ``at`` of ``text``, nothing of it parsed yet."""
        paper = object.__new__(cls)
        setter = object.__setattr__
        setter(paper, "id", paper_id)
        setter(paper, "_text", text)
        setter(paper, "_at", at)
        return paper

    def __getattr__(self, name: str) -> Any:
        # Called only for a slot not set: the light fields until the first of them is read.
        if name not in _DEFERRED_FIELDS:
            raise AttributeError(name)
        get = object.__getattribute__
        parsed = get(self, "_text").light(get(self, "_at"), get(self, "id"))
        setter = object.__setattr__
        for field in _DEFERRED_FIELDS:
            setter(self, field, getattr(parsed, field))
        return get(self, name)

    @property
    def parsed(self) -> bool:
        """Whether the paper's fields were read from the file yet."""
        try:
            object.__getattribute__(self, "decision")
        except AttributeError:
            return False
        return True


#: What a deferred paper reads at its first use (its id it holds from the start).
_DEFERRED_FIELDS = frozenset(LIGHT_FIELDS) - {"id"}


def _text_field(name: str) -> property:
    def read(self: LeanPaper) -> Any:
        return getattr(self.full(), name)

    read.__name__ = name
    return property(read, doc=f"The paper's {name}, read from the catalogue file.")


for _name in TEXT_FIELDS:
    setattr(LeanPaper, _name, _text_field(_name))
