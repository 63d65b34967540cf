"""Papers held without their texts, and their other fields as columns: what every paper's query,
count and column needs (id, venue, year, area, decision, ratings, confidence, forum id, number) is
held in :class:`PaperColumns`, an array per field (a small code per paper into a table of the
distinct values for the repeated ones: texts, years, ratings; machine numbers for the others),
not a Python object per field per paper; the texts (title, abstract, authors, keywords, links,
BibTeX…) are read from the paper's span of the catalogue file when asked for, through a small
cache of the papers last read. What a screen shows is read when shown; what the store holds does
not grow with the abstracts, and ~100 bytes a paper with the rest.

:class:`CatalogueText` is one catalogue file kept open by its descriptor (the very file the
papers were read from, even once another process's import has renamed a new one over it: the
descriptor holds the old file until the last paper of it is dropped). :class:`LeanPaper` is a
view of one paper of a :class:`PaperColumns` (two slots: the columns and its number); it passes
for the :class:`~paperdeck.model.paper.Paper` it stands for (``isinstance``, ``dataclasses.fields``,
equality, hash, ``repr``, :meth:`~paperdeck.model.paper.Paper.to_dict`), and
:func:`dataclasses.replace` of it makes a full paper.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from array import array
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import fields
from itertools import repeat
from typing import Any

import orjson

from paperdeck.model.paper import Paper, Ratings

__all__ = ["LIGHT_FIELDS", "TEXT_FIELDS", "CatalogueText", "DeferredPaper", "LeanPaper", "PaperColumns"]

#: The fields a lean paper reads from the catalogue file when asked for (the bulk of a paper).
TEXT_FIELDS = (
    "title",
    "abstract",
    "sources",
    "authors",
    "authors_more",
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
        deferred_reads: deferred papers (:class:`DeferredPaper`) parsed since the file was opened.
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
        self.deferred_reads = 0

    def add(self, start: int, end: int) -> int:
        """Record one paper's span (byte offsets ``start`` < ``end`` ≤ the size); its number."""
        self._starts.append(start)
        self._ends.append(end)
        return len(self._starts) - 1

    def add_many(self, starts: array[int], ends: array[int]) -> int:
        """Record several papers' spans at once (as :meth:`add` each, in order); the number of
        the first."""
        first = len(self._starts)
        self._starts.extend(starts)
        self._ends.extend(ends)
        return first

    def document(self, start: int, end: int) -> bytes:
        """The bytes of ``[start, end)`` (short when the file was cut in place)."""
        if not 0 <= start < end <= self._size:
            return b""
        return os.pread(self._fd, end - start, start)

    def paper(self, at: int, fallback: Any) -> Paper:
        """The full paper number ``at`` (``fallback``: its :class:`LeanPaper`), parsed from its
        span (the last :data:`CACHED_PAPERS` kept); when the span no longer holds a document of
        this paper (the file was changed in place, which no paperdeck does), ``fallback``'s
        fields with empty texts (its id as its title)."""
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


#: What a column holds aside (in its ``odd`` table) instead of in its array.
_ODD = object()
# The kinds of a number column's value.
_NONE, _FLOAT, _INT, _ASIDE = 0, 1, 2, 3
#: The forum id of a paper whose id is ``openreview:`` + it (most of them): not held twice.
_OPENREVIEW = "openreview:"
#: The light fields held as codes into a table of their values (few distinct values).
_CODED_FIELDS = ("venue", "year", "title_derived", "primary_area", "decision", "decision_raw", "ratings")


class _Coded:
    """One field held as a small code per paper (``array('H')``) into a table of its distinct
    values (venues, years, areas, decisions, flags, ratings: a few hundred to a few thousand
    values for 100,000 papers, each value one shared object); a value the table cannot take
    (unhashable, or past 65,535 distinct ones) is kept aside."""

    __slots__ = ("codes", "index", "key", "odd", "taken", "values")

    def __init__(self, key: Callable[[Any], Hashable] | None = None) -> None:
        self.codes = array("H")
        self.values: list[Any] = [_ODD]  # code 0: kept aside, in odd
        self.index: dict[Hashable, int] = {}
        self.odd: dict[int, Any] = {}
        #: What makes two values one: by default equal and of one type (2026 is not 2026.0).
        self.key = key
        #: While taking papers from another column (:meth:`take`): it, and its codes → these.
        self.taken: tuple[_Coded, dict[int, int]] | None = None

    def add(self, value: Any) -> None:
        code: int | None = None
        try:
            key = (type(value), value) if self.key is None else self.key(value)
            code = self.index.get(key)
            if code is None and len(self.values) < 0xFFFF:
                code = self.index[key] = len(self.values)
                self.values.append(value)
        except TypeError:  # unhashable (a hostile file): kept aside
            code = None
        if code is None:
            self.odd[len(self.codes)] = value
            code = 0
        self.codes.append(code)

    def add_nones(self, count: int) -> None:
        """``count`` papers whose value is ``None`` (as :meth:`add` of ``None`` each, in bulk)."""
        if count <= 0:
            return
        self.add(None)
        code = self.codes[-1]
        if code == 0:  # the table is full: each kept aside, as add does
            for _ in range(count - 1):
                self.add(None)
            return
        self.codes.extend(array("H", (code,)) * (count - 1))

    def get(self, at: int) -> Any:
        value = self.values[self.codes[at]]
        return self.odd[at] if value is _ODD else value

    def take(self, other: _Coded, at: int) -> None:
        """Add ``other``'s value of paper ``at`` (the same value; a code of ``other`` is looked up
        once, then mapped: :attr:`taken` holds ``other`` until :meth:`PaperColumns.taken` ends it)."""
        code = other.codes[at]
        if code:
            taken = self.taken
            if taken is None or taken[0] is not other:
                taken = self.taken = (other, {})
            mine = taken[1].get(code)
            if mine is not None:
                self.codes.append(mine)
                return
            self.add(other.values[code])
            if self.codes[-1]:
                taken[1][code] = self.codes[-1]
            return
        self.add(other.odd[at])

    def set(self, at: int, value: Any) -> None:
        """Paper ``at``'s value, taken again (a deferred paper's, once parsed)."""
        self.odd.pop(at, None)
        size = len(self.codes)
        self.add(value)  # its code found (or the value kept aside at ``size``) as for a new paper
        self.codes[at] = self.codes.pop()
        if size in self.odd:
            self.odd[at] = self.odd.pop(size)


class _Numbers:
    """One number field (``None``, int or float) held as a machine number per paper (``typecode``:
    ``"d"`` for floats, an int code for ints) and a kind byte; a value it does not hold exactly
    (an int past the array's range, a float in an int column, text in a hostile file) is kept
    aside as it is. An int in a float column comes back an int."""

    __slots__ = ("kinds", "odd", "values")

    def __init__(self, typecode: str) -> None:
        self.values = array(typecode)
        self.kinds = bytearray()
        self.odd: dict[int, Any] = {}

    def add(self, value: Any) -> None:
        kind = _ASIDE
        if value is None:
            kind = _NONE
        elif type(value) is float and self.values.typecode == "d" and value == value:  # not NaN
            kind = _FLOAT
        elif type(value) is int:
            kind = _INT
        if kind in (_FLOAT, _INT):
            try:
                self.values.append(value)
            except (OverflowError, TypeError):
                kind = _ASIDE
            else:
                if self.values[-1] == value:  # an int past 2**53 in a float column is not
                    self.kinds.append(kind)
                    return
                self.values.pop()
                kind = _ASIDE
        if kind == _ASIDE:
            self.odd[len(self.kinds)] = value
        self.values.append(0)
        self.kinds.append(kind)

    def add_nones(self, count: int) -> None:
        """``count`` papers whose value is ``None`` (as :meth:`add` of ``None`` each, in bulk)."""
        self.values.extend(array(self.values.typecode, (0,)) * count)
        self.kinds.extend(bytes((_NONE,)) * count)

    def set(self, at: int, value: Any) -> None:
        """Paper ``at``'s value, taken again (a deferred paper's, once parsed)."""
        self.odd.pop(at, None)
        size = len(self.kinds)
        self.add(value)  # held (or kept aside at ``size``) as for a new paper
        self.kinds[at] = self.kinds.pop()
        self.values[at] = self.values.pop()
        if size in self.odd:
            self.odd[at] = self.odd.pop(size)

    def take(self, other: _Numbers, at: int) -> None:
        """Add ``other``'s value of paper ``at`` (of the same type code)."""
        kind = other.kinds[at]
        if kind == _ASIDE:
            self.add(other.odd[at])
            return
        self.values.append(other.values[at])
        self.kinds.append(kind)

    def get(self, at: int) -> Any:
        kind = self.kinds[at]
        if kind == _FLOAT:
            return self.values[at]
        if kind == _INT:
            return int(self.values[at])
        if kind == _NONE:
            return None
        return self.odd[at]


class PaperColumns:
    """The :data:`LIGHT_FIELDS` of the papers of one catalogue file, a column per field, and the
    file their texts are read from. Papers are numbered in the order :meth:`add` took them (the
    number is also their span's in :attr:`text`).

    Args:
        text: the catalogue file the papers were read from.

    Attributes:
        text: as given.
        ids: each paper's id (the very string the catalogue keys it by).
    """

    def __init__(self, text: CatalogueText) -> None:
        self.text = text
        self.ids: list[str] = []
        self._coded = {name: _Coded(_ratings_key if name == "ratings" else None) for name in _CODED_FIELDS}
        self._numbers = {"confidence": _Numbers("d"), "number": _Numbers("q"), "modified": _Numbers("q")}
        # openreview_id: "" (0), the id's part after "openreview:" (1), or kept aside (2)
        self._forum = bytearray()
        self._forum_aside: dict[int, Any] = {}
        #: The deferred papers' numbers not parsed yet (:meth:`defer`, :meth:`fill`).
        self.pending: set[int] = set()
        self._filling = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, paper: Paper, start: int, end: int, paper_id: str | None = None) -> LeanPaper:
        """Take ``paper``'s light fields (its texts are read again from ``[start, end)`` of the
        file); ``paper_id``: a string equal to its id, held instead (the catalogue's key: one
        string, not two). The view of the paper taken."""
        at = self.text.add(start, end)
        assert at == len(self.ids), "a catalogue file's papers are all taken by one PaperColumns"
        self.ids.append(paper_id if paper_id is not None and paper_id == paper.id else paper.id)
        for name, coded in self._coded.items():
            coded.add(getattr(paper, name))
        for name, numbers in self._numbers.items():
            numbers.add(getattr(paper, name))
        forum = paper.openreview_id
        if forum == "":
            self._forum.append(0)
        elif type(forum) is str and paper.id.startswith(_OPENREVIEW) and paper.id[len(_OPENREVIEW) :] == forum:
            self._forum.append(1)
        else:
            self._forum.append(2)
            self._forum_aside[at] = forum
        lean: LeanPaper = LeanPaper(self, at)
        return lean

    def defer(self, start: int, end: int, paper_id: str) -> DeferredPaper:
        """Take paper ``paper_id`` at ``[start, end)`` of the file without parsing it: its light
        fields are parsed at the first read of one (:meth:`fill`). The view of the paper."""
        at = self.text.add(start, end)
        assert at == len(self.ids), "a catalogue file's papers are all taken by one PaperColumns"
        self.ids.append(paper_id)
        for coded in self._coded.values():
            coded.add(None)
        for numbers in self._numbers.values():
            numbers.add(None)
        self._forum.append(0)
        self.pending.add(at)
        deferred: DeferredPaper = DeferredPaper(self, at)
        return deferred

    def defer_many(self, starts: array[int], ends: array[int], paper_ids: list[str]) -> list[DeferredPaper]:
        """Take the papers ``paper_ids`` at ``[starts[i], ends[i])`` of the file without parsing
        them, as :meth:`defer` each (the same columns, the same views) but in bulk: no Python
        call per paper but the view's making. The views, in order.

        Raises:
            ValueError: the three are not of one length.
        """
        count = len(paper_ids)
        if len(starts) != count or len(ends) != count:
            raise ValueError("defer_many: as many starts, ends and ids")
        first = self.text.add_many(starts, ends)
        assert first == len(self.ids), "a catalogue file's papers are all taken by one PaperColumns"
        self.ids.extend(paper_ids)
        for coded in self._coded.values():
            coded.add_nones(count)
        for numbers in self._numbers.values():
            numbers.add_nones(count)
        self._forum.extend(bytes(count))
        taken = range(first, first + count)
        self.pending.update(taken)
        # The views made in three passes in C (no Python call per view).
        views: list[DeferredPaper] = list(map(_new_view, repeat(DeferredPaper, count)))
        deque(map(_set_columns, views, repeat(self, count)), 0)
        deque(map(_set_at, views, taken), 0)
        return views

    def forums_apart(self) -> dict[str, tuple[str, ...]]:
        """The papers read whose OpenReview forum id is not their id less ``openreview:``, by
        that forum: their ids (any other paper read has that forum, or none; a deferred paper's
        is not known until it is read). Made from the few kept aside, not from every paper."""
        apart: dict[str, tuple[str, ...]] = {}
        ids = self.ids
        for at, forum in list(self._forum_aside.items()):  # (a copy: a paper filled meanwhile adds one)
            if type(forum) is str and forum:
                apart[forum] = (*apart.get(forum, ()), ids[at])
        return apart

    def take(self, other: PaperColumns, at: int, start: int, end: int) -> LeanPaper | None:
        """Take paper ``at`` of ``other`` (the columns of an older file of the same catalogue)
        without parsing it, when its document at ``[start, end)`` of this file is byte for byte
        the one at its span of ``other``'s file: its light fields copied (a deferred paper not
        parsed yet stays deferred), its id the very string ``other`` holds. The view of the paper
        taken, or ``None`` (nothing taken) when the documents differ or either is unreadable.
        Call :meth:`taken` once done (the columns hold ``other`` until then)."""
        old = other.text
        try:
            document = self.text.document(start, end)
            if not document or document != old.document(old._starts[at], old._ends[at]):
                return None
        except OSError:
            return None
        paper_id = other.ids[at]
        if at in other.pending:  # checked first: a fill under way sets every value before it clears this
            return self.defer(start, end, paper_id)
        mine = self.text.add(start, end)
        assert mine == len(self.ids), "a catalogue file's papers are all taken by one PaperColumns"
        self.ids.append(paper_id)
        for name, coded in self._coded.items():
            coded.take(other._coded[name], at)
        for name, numbers in self._numbers.items():
            numbers.take(other._numbers[name], at)
        forum = other._forum[at]
        self._forum.append(forum)
        if forum == 2:
            self._forum_aside[mine] = other._forum_aside[at]
        # At the same number (an import in place), the int the old view holds: not one more
        # object per paper while both generations are held.
        lean: LeanPaper = LeanPaper(self, at if at == mine else mine)
        return lean

    def taken(self) -> None:
        """Done taking papers from other columns (:meth:`take`): the maps to them let go of."""
        for coded in self._coded.values():
            coded.taken = None

    def fill(self, at: int) -> None:
        """Parse deferred paper ``at``'s light fields into the columns, once (two threads at once
        parse twice and set the same values; the paper counts as parsed once both are set).
        A span that no longer holds the paper gives it every field's default
        (:meth:`CatalogueText.light`)."""
        with self._filling:  # one at a time: each set appends to a column, then takes it back
            if at in self.pending:
                self._fill(at)

    def _fill(self, at: int) -> None:
        paper = self.text.light(at, self.ids[at])
        for name, coded in self._coded.items():
            coded.set(at, getattr(paper, name))
        for name, numbers in self._numbers.items():
            numbers.set(at, getattr(paper, name))
        forum = paper.openreview_id
        self._forum_aside.pop(at, None)
        if forum == "":
            self._forum[at] = 0
        elif type(forum) is str and paper.id[len(_OPENREVIEW) :] == forum and paper.id.startswith(_OPENREVIEW):
            self._forum[at] = 1
        else:
            self._forum[at] = 2
            self._forum_aside[at] = forum
        self.pending.discard(at)

    def value(self, at: int, name: str) -> Any:
        """Paper number ``at``'s field ``name`` (one of :data:`LIGHT_FIELDS`), as the full
        paper holds it (equal, of the same type; the ratings one object shared by the papers
        with the same).

        Raises:
            KeyError: ``name`` is not a light field.
        """
        if name == "id":
            return self.ids[at]
        coded = self._coded.get(name)
        if coded is not None:
            return coded.get(at)
        if name == "openreview_id":
            kind = self._forum[at]
            if kind == 1:
                return self.ids[at][len(_OPENREVIEW) :]
            return "" if kind == 0 else self._forum_aside[at]
        return self._numbers[name].get(at)


def _ratings_key(ratings: Any) -> Hashable:
    """What makes two ratings one: every field equal and of one type (a ``min`` of 6 is not one
    of 6.0: it is written back as it was read)."""
    if type(ratings) is not Ratings:
        return (type(ratings), ratings)
    values = (ratings.mean, ratings.std, ratings.min, ratings.max, ratings.count, ratings.scale)
    return (Ratings, *((type(value), value) for value in values))


class LeanPaper:
    """One paper of a :class:`PaperColumns`: each of :data:`LIGHT_FIELDS` read from its column,
    each of :data:`TEXT_FIELDS` from the catalogue file (:meth:`full`). Made by
    :meth:`PaperColumns.add`. It passes for the full paper it stands for: an instance of
    :class:`~paperdeck.model.paper.Paper` (its ``__class__``), with its fields, methods and
    properties, equal to and hashed as it; made anew (``dataclasses.replace``,
    ``type(paper)(...)`` as the merge does) it is a full :class:`~paperdeck.model.paper.Paper`."""

    __slots__ = ("_at", "_columns")
    _at: int
    _columns: PaperColumns
    __dataclass_fields__ = Paper.__dataclass_fields__
    __match_args__ = Paper.__match_args__

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 2 and not kwargs and type(args[0]) is PaperColumns:
            lean = object.__new__(cls)
            object.__setattr__(lean, "_columns", args[0])
            object.__setattr__(lean, "_at", args[1])
            return lean
        # dataclasses.replace and the merge make a full paper (a lean one is made by the columns).
        return Paper(*args, **kwargs)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(lean, Paper); dataclasses.replace makes a Paper
        return Paper

    @property
    def _text(self) -> CatalogueText:
        """The catalogue file the texts are read from."""
        return self._columns.text

    def full(self) -> Paper:
        """The full paper (read from the catalogue file, or its cache)."""
        return self._columns.text.paper(self._at, self)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a paper is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a paper is frozen")

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

    def __repr__(self) -> str:
        return repr(self.full())


def _text_field(name: str) -> property:
    def read(self: LeanPaper) -> Any:
        return getattr(self.full(), name)

    read.__name__ = name
    return property(read, doc=f"The paper's {name}, read from the catalogue file.")


def _light_field(name: str) -> property:
    def read(self: LeanPaper) -> Any:
        return self._columns.value(self._at, name)

    read.__name__ = name
    return property(read, doc=f"The paper's {name}, read from its column.")


def _coded_field(name: str) -> property:
    def read(self: LeanPaper) -> Any:  # the common case inline: the queries read these of every paper
        coded = self._columns._coded[name]
        value = coded.values[coded.codes[self._at]]
        return coded.odd[self._at] if value is _ODD else value

    read.__name__ = name
    return property(read, doc=f"The paper's {name}, read from its column.")


def _id(self: LeanPaper) -> str:
    return self._columns.ids[self._at]


def _openreview_id(self: LeanPaper) -> Any:
    columns, at = self._columns, self._at
    kind = columns._forum[at]
    if kind == 1:
        return columns.ids[at][11:]  # len(_OPENREVIEW)
    return "" if kind == 0 else columns._forum_aside[at]


def _number_field(name: str) -> property:
    def read(self: LeanPaper) -> Any:
        return self._columns._numbers[name].get(self._at)

    read.__name__ = name
    return property(read, doc=f"The paper's {name}, read from its column.")


for _name in TEXT_FIELDS:
    setattr(LeanPaper, _name, _text_field(_name))
for _name in LIGHT_FIELDS:
    setattr(LeanPaper, _name, _light_field(_name))
for _name in _CODED_FIELDS:
    setattr(LeanPaper, _name, _coded_field(_name))
for _name in ("confidence", "number", "modified"):
    setattr(LeanPaper, _name, _number_field(_name))
LeanPaper.id = property(_id, doc="The paper's id.")  # type: ignore[attr-defined]
LeanPaper.openreview_id = property(_openreview_id, doc="The paper's OpenReview forum id.")  # type: ignore[attr-defined]
# Paper's methods and properties (to_dict, venue_label, library_venue, source_of…) read fields
# by name: they work on a lean paper as they are.
for _name, _value in vars(Paper).items():
    if _name.startswith("__") or _name in _ALL_FIELDS or isinstance(_value, classmethod | staticmethod):
        continue
    if callable(_value) or isinstance(_value, property):
        setattr(LeanPaper, _name, _value)


class DeferredPaper(LeanPaper):
    """A :class:`LeanPaper` of which only the id is known until another field is first read: then
    its document is parsed from the catalogue file into its columns (:meth:`PaperColumns.fill`)
    and it reads as a lean paper from then on. The catalogue holds the papers outside the venue
    scope the app opened on so (:meth:`Catalogue.defer_outside
    <paperdeck.store.catalogue.Catalogue.defer_outside>`): a view of that scope never parses them.
    Equal to, hashed and printed as the full paper, as a lean one; safe to read from several
    threads."""

    __slots__ = ()

    @property
    def parsed(self) -> bool:
        """Whether the paper's fields were read from the file yet."""
        return self._at not in self._columns.pending


def _deferred_field(name: str) -> property:
    lean = getattr(LeanPaper, name)

    def read(self: DeferredPaper) -> Any:
        columns, at = self._columns, self._at
        if at in columns.pending:
            columns.fill(at)
        return lean.fget(self)

    read.__name__ = name
    return property(read, doc=lean.__doc__)


for _name in LIGHT_FIELDS:
    if _name != "id":
        setattr(DeferredPaper, _name, _deferred_field(_name))


# What PaperColumns.defer_many makes its views with: each as ``DeferredPaper(columns, at)`` makes
# it, without the constructor's checks.
_new_view = object.__new__
_set_columns = LeanPaper.__dict__["_columns"].__set__
_set_at = LeanPaper.__dict__["_at"].__set__
