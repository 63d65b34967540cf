"""The rows cache's ids line read in part: the first screen's ids parsed at opening, the others
when first asked for (:class:`PendingIds`), and the list's view of every id that asks for them
only past its first screen (:class:`IdsView`).

At 98,150 papers, parsing the whole ids line costs ~5 ms of CPU before the first paint, which
shows 50 rows of it at most. The ids before the first screen's end are parsed alone when that is
plainly exact: none of them holds a backslash (so no escape, and a ``","`` between two ids is
their separator: a quote inside an id would be escaped); else the line is parsed whole at once,
as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

import orjson

#: How many ids an :class:`IdsView` looks up by position (its ``at``) before it asks for every id:
#: the store's look-up reads the id with its row line, which the row then needs, so as many as
#: the catalogue reads rows so (``catalogue._ROW_READS``: a query typed key by key draws a
#: screenful of other rows at each key, whose ids are all new).
AT_LOOKUPS = 512


class PendingIds:
    """The ids line of a rows cache (``line``, still encoded) with its first ids parsed
    (``first``); ``count``: how many ids the cache's header says it holds (its length). Parse the
    rest with :meth:`parse`. (A plain class: a dataclass's costs its making at every start.)"""

    __slots__ = ("count", "first", "line")

    def __init__(self, line: bytes, first: list[str]) -> None:
        self.line, self.first, self.count = line, first, len(first)

    def __len__(self) -> int:
        return self.count

    def parse(self) -> list[str] | None:
        """Every id of the line, in order; ``None`` when the line is broken: not a JSON array
        of ``count`` texts beginning with ``first``."""
        try:
            ids = orjson.loads(self.line)
        except ValueError:
            return None
        if not (type(ids) is list and len(ids) == self.count):
            return None
        try:
            "".join(ids)  # TypeError unless every id is text (a C pass)
        except TypeError:
            return None
        return ids if ids[: len(self.first)] == self.first else None


def parse_ids_line(line: bytes, wanted: int) -> list[str] | PendingIds:
    """The ids line parsed whole (a list: orjson's, checked by the reader), or, when it holds
    more than ``wanted`` ids and its first ``wanted`` hold no backslash, those alone
    (:class:`PendingIds`; its ``count`` is set by the reader from the header).

    Raises:
        ValueError: the line is not JSON (parsed whole).
    """
    end = 0
    if wanted > 0 and line[:2] == b'["':
        find = line.find
        for _ in range(wanted):
            end = find(b'","', end + 1)
            if end < 0:
                break
        if end > 0 and line.find(b"\\", 0, end) < 0:
            try:
                first = orjson.loads(line[: end + 1] + b"]")
            except ValueError:
                first = None
            if type(first) is list and len(first) == wanted:
                return PendingIds(line, first)
    ids: list[str] = orjson.loads(line)
    return ids


class IdsView(Sequence[str]):
    """Every paper id in catalogue order as the list shows them at the first paint: ``count`` of
    them, the ``first`` known, the others (and any slice, iteration or search) from ``every()``
    (the store's ids: the ids line parsed then), asked once.

    ``at`` (optional): looks up the id at one position past the ``first`` alone (``None``: not
    found so, then ``every()`` is asked), kept, for the first :data:`AT_LOOKUPS` such ids only,
    so that a screenful of ids read by position (a ranking's rows, drawn again and again) parses
    nothing more, while a pass over many positions parses every id once."""

    __slots__ = ("_all", "_at", "_count", "_every", "_first", "_found")

    def __init__(
        self,
        first: list[str],
        count: int,
        every: Callable[[], list[str]],
        at: Callable[[int], str | None] | None = None,
    ) -> None:
        self._first, self._count, self._every = first, count, every
        self._all: list[str] | None = None
        self._at = at
        self._found: dict[int, str] = {}  # the ids looked up by position, kept: a row is drawn again

    def _ids(self) -> list[str]:
        ids = self._all
        if ids is None:
            ids = self._all = self._every()
        return ids

    def __len__(self) -> int:
        return self._count if self._all is None else len(self._all)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if type(index) is int and self._all is None:
            if 0 <= index < len(self._first):
                return self._first[index]
            found = self._found.get(index)
            if found is not None:
                return found
            at = self._at
            if at is not None and 0 <= index < self._count and len(self._found) < AT_LOOKUPS:
                found = at(index)
                if found is not None:
                    self._found[index] = found
                    return found
        return self._ids()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __contains__(self, value: object) -> bool:
        return value in self._ids()

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._ids())

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        return self._ids().index(value, start, len(self) if stop is None else stop)  # type: ignore[arg-type]

    def count(self, value: object) -> int:
        return self._ids().count(value)  # type: ignore[arg-type]
