"""JSON and JSON Lines paper-list files: their records, and the values found in them.

Shared by the readers of OpenReview notes (:mod:`.openreview`) and Paper Copilot JSON
(:mod:`.papercopilot`, whose record mapping the Parquet reader reuses): loading a JSON array,
an OpenReview API response ``{"count": N, "notes": [...]}``, one object or JSON Lines (UTF-8,
else decoded as text first); peeking at the first record for format detection; naming a JSON
value's kind in error messages; and review scores given as a list, a ``"5;6;8"`` string or a
number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from paperdeck.model.errors import SourceError
from paperdeck.sources.base import read_bytes
from paperdeck.sources.decode import decode_text

__all__ = [
    "NOTES_KEY",
    "JsonRecords",
    "LinesNotUtf8",
    "first_record",
    "json_kind",
    "load_json_records",
    "parse_scores",
]

#: The start of an OpenReview API response: ``{"notes": [`` or ``{"count": N, "notes": [``.
NOTES_KEY = re.compile(r'^\s*\{\s*(?:"count"\s*:\s*\d+\s*,\s*)?"notes"\s*:\s*\[')
_NOT_SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")
#: Infinity: a score below 0 is missing (``-1``), but ``-inf`` is a non-finite score, kept for the boundary.
_INF = float("inf")
_KINDS: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}


@dataclass(frozen=True, slots=True)
class JsonRecords:
    """The records of a JSON or JSON Lines file: ``records`` (any JSON values) and, for JSON
    Lines, the 1-based ``lines`` they were on (``None`` for one JSON document)."""

    records: MutableSequence[Any]
    lines: list[int] | None

    def position(self, index: int) -> str:
        """Where record ``index`` (0-based) is: ``"line 12"`` in JSON Lines, else ``"record 3"``."""
        return f"line {self.lines[index]}" if self.lines is not None else f"record {index + 1}"

    def line(self, index: int) -> int | None:
        """The 1-based line of record ``index`` in JSON Lines, else ``None``."""
        return self.lines[index] if self.lines is not None else None


class _NotUtf8(Exception):
    """The bytes are not UTF-8: decode them as text first (UTF-16, GB18030)."""


class LinesNotUtf8(Exception):
    """A line of JSON Lines read lazily (``load_json_records(lazy=True)``) is not UTF-8: read the
    file again without ``lazy`` (it is decoded as text first)."""


class _LazyLines(MutableSequence[Any]):
    """The records of JSON Lines, each parsed when it is taken (and again if taken again): the
    file's bytes are held, never every record at once. ``records[i] = None`` (a reader dropping
    what it has read) is accepted and changes nothing; records cannot be added or removed.

    Raises:
        SourceError: (indexing) the line is not valid JSON, naming it.
        LinesNotUtf8: (indexing) the line is not UTF-8.
    """

    def __init__(self, raw: bytes, spans: list[tuple[int, int]], lines: list[int], path: Path) -> None:
        self._view = memoryview(raw)
        self._spans, self._lines, self._path = spans, lines, path

    def __len__(self) -> int:
        return len(self._spans)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        start, end = self._spans[index]
        try:
            return _loads(self._view[start:end], self._path, self._lines[index])
        except _NotUtf8:
            raise LinesNotUtf8 from None

    def __setitem__(self, index: Any, value: Any) -> None:
        return None

    def __delitem__(self, index: Any) -> None:
        raise TypeError("the records of a file read lazily cannot be removed")

    def insert(self, index: int, value: Any) -> None:
        raise TypeError("the records of a file read lazily cannot be added to")


def load_json_records(path: Path, *, lazy: bool = False) -> JsonRecords:
    """Read a JSON array, a ``{"notes": [...]}`` object, one object, or JSON Lines.

    ``lazy``: JSON Lines of more than one line are parsed a line at a time as each record is
    taken (``records`` is then a sequence, not a list: for a reader that takes each record once,
    so that the parsed records are never all held); a line that is not valid JSON raises when it
    is taken, one that is not UTF-8 raises :class:`LinesNotUtf8` then.

    Raises:
        SourceError: unreadable, not valid JSON (naming the line), or a top-level value that is
            neither an array of records nor an object.
    """
    raw = read_bytes(path)
    try:
        return _parse_records(raw, path, lazy)
    except _NotUtf8:
        return _parse_records(decode_text(raw, path).encode("utf-8"), path)


_TOO_LARGE = "number is infinity when parsed as double"


def _parse(data: bytes | memoryview) -> Any:
    """``data`` parsed by orjson; a document orjson refuses only for a number too large for a
    float (``1e309``) is parsed again by the standard library, which reads it as ``inf`` (the
    value is then dropped and counted as a non-finite score, as ``"1e309"`` in text is).

    Raises:
        orjson.JSONDecodeError: orjson's error (also when the standard library refuses too).
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if exc.msg != _TOO_LARGE:
            raise
        try:
            return json.loads(bytes(data))
        except (ValueError, RecursionError):
            raise exc from None


def _loads(data: bytes | memoryview, path: Path, line: int | None = None) -> Any:
    try:
        return _parse(data)
    except orjson.JSONDecodeError as exc:
        if "UTF-8" in exc.msg:
            raise _NotUtf8 from None
        reason = f"not valid JSON: {exc.msg} (column {exc.colno})"
        raise SourceError(path, reason, exc.lineno if line is None else line) from None


def _parse_records(raw: bytes, path: Path, lazy: bool = False) -> JsonRecords:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _NotUtf8
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    start = _NOT_SPACE.search(raw)  # not raw.strip(): no copy of the whole file
    if start is None:
        return JsonRecords([], None)
    if raw[start.start() : start.start() + 1] == b"{":
        # Lines as views of ``raw`` (no copy of the file as lines), each parsed as it is met.
        view = memoryview(raw)
        lines = _text_lines(raw)
        number, first_start, first_end = next(lines)
        if _NOT_SPACE.search(raw, first_end) is not None and _is_object(view[first_start:first_end]):
            if lazy:
                spans, numbers = [(first_start, first_end)], [number]
                for number, begin, end in lines:
                    spans.append((begin, end))
                    numbers.append(number)
                return JsonRecords(_LazyLines(raw, spans, numbers, path), numbers)
            records, numbers = [_loads(view[first_start:first_end], path, number)], [number]
            for number, begin, end in lines:
                records.append(_loads(view[begin:end], path, number))
                numbers.append(number)
            return JsonRecords(records, numbers)
    value = _loads(raw, path)
    if isinstance(value, dict) and isinstance(value.get("notes"), list):
        return JsonRecords(value["notes"], None)
    if isinstance(value, dict) and ("content" in value or "id" in value or "title" in value):
        return JsonRecords([value], None)
    if not isinstance(value, list):
        expected = 'expected an array of records or {"notes": [...]}'
        raise SourceError(path, f"{expected}, got {json_kind(value)}")
    return JsonRecords(value, None)


def _text_lines(raw: bytes) -> Iterator[tuple[int, int, int]]:
    """``(1-based line number, start, end)`` of each line of ``raw`` (split at ``\\n``) holding
    anything but ASCII whitespace, in order."""
    size, at, number = len(raw), 0, 0
    while at <= size:
        end = raw.find(b"\n", at)
        if end < 0:
            end = size
        number += 1
        if _NOT_SPACE.search(raw, at, end) is not None:
            yield number, at, end
        at = end + 1


def _is_object(line: bytes | memoryview) -> bool:
    try:
        return isinstance(_parse(line), dict)
    except orjson.JSONDecodeError:
        return False


def text_value(value: Any, field: str) -> str:
    """A JSON text field, stripped; ``""`` when missing; numbers become text.

    Raises:
        ValueError: a list, an object or a boolean where text belongs.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"{field} is {json_kind(value)}, expected text")


def json_kind(value: object) -> str:
    """``"a number"``, ``"an array"``, ``"null"`` … for error messages."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return "a number"
    return _KINDS.get(type(value), type(value).__name__)


def first_record(head: str) -> dict[str, Any] | None:
    """The first record of a JSON or JSON Lines file, from its first bytes; ``None`` if none."""
    text = head.lstrip()
    notes = NOTES_KEY.match(text)
    value: Any = None
    if notes is not None:
        value = _raw_decode(text, notes.end())
    elif text.startswith("["):
        value = _raw_decode(text, 1)
    elif text.startswith("{"):
        try:
            value = json.loads(text.split("\n", 1)[0])  # JSON Lines, or a one-line document
        except (ValueError, RecursionError):  # nested too deep to be a record: not one either
            value = _raw_decode(text, 0)
    return value if isinstance(value, dict) else None


def _raw_decode(text: str, start: int) -> Any:
    while start < len(text) and text[start].isspace():
        start += 1
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except (ValueError, RecursionError):  # RecursionError: ``[[[[…`` nested thousands deep
        return None


def parse_scores(value: object) -> list[float]:
    """Review scores from a list, a ``"5;6;8"`` string or a number, each read strictly
    (:func:`paperdeck.sources.common.score_number`: ``"1e3"``, ``true`` are no scores). A value for
    no finite number (``"1e309"``, ``"NaN"``, ``"-inf"``) is kept as that non-finite float, so that
    the mean made of them is not finite and the import boundary drops and counts it
    (:mod:`paperdeck.sources.validate`): a mean never silently stands on some of the reviews.

    ``""``, ``None`` and negative numbers (``-1``) are missing; so is a value that is all zeros
    (``0``, ``"0"``, ``[0.0, 0.0]``): there is never a 0 rating. A 0 among other scores is kept,
    as ICLR 2026 scores reviews 0, 2, 4, 6, 8 or 10 ("strong reject" is 0).
    """
    from paperdeck.sources.common import score_number

    items: Any = value.split(";") if isinstance(value, str) else value
    scores: list[float] = []
    for item in items if isinstance(items, list | tuple) else [items]:
        score = score_number(item)  # strict: "1e309" is never 1 (it is infinity)
        if score is not None and not -_INF < score < 0:  # -1 means "no score"; NaN and ±inf kept
            scores.append(score)
    return scores if any(scores) else []
