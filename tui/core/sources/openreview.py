"""Reader for OpenReview notes: OpenReview API v2 notes and the flattened dumps made from them.

Shapes (FORMATS.md columns V2, RT, FV2), as a JSON array, JSON Lines or an API response
``{"notes": [...], "count": N}``: the raw OpenReview API v2 note (``content.X.value`` wrappers,
venue in ``domain``); the ReviewTracker flattened note (plain ``content.title``, top-level
``withdrawn``/``number``); the flat OpenReview v2 note (``title``, ``authors``, ``venue``,
``venueid``, ``invitations``, ``pdf``, ``url`` at the top). Reply notes (reviews, comments:
``forum`` differs from ``id``) and notes without a title are skipped with a reason.

The JSON helpers here (:func:`load_json_records`, :func:`first_record`, :func:`collect`, …) are
shared with the Paper Copilot JSON and Parquet readers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from tui.core.decision import normalise_decision
from tui.core.errors import SourceError
from tui.core.ids import canonical_id
from tui.core.paper import Paper, Ratings
from tui.core.sources.base import Skip, SourceRead, read_bytes
from tui.core.sources.decode import decode_text

NAME = "openreview"
DESCRIPTION = "OpenReview notes: API v2 JSON, JSON Lines, ReviewTracker or flattened dumps"

OPENREVIEW = "https://openreview.net"
_NOTE_KEYS = ("forum", "invitations", "venueid", "replyto", "domain")
_NOTES_KEY = re.compile(r'^\s*\{\s*(?:"count"\s*:\s*\d+\s*,\s*)?"notes"\s*:\s*\[')
_NOTE_KEY_TEXT = re.compile(r'"(?:content|forum|invitations)"\s*:')
_SUBMISSION_NUMBER = re.compile(r"/Submission(\d+)(?:/|$)")
_VENUE_YEAR_TEXT = re.compile(r"^\s*([A-Za-z][\w&\-]*)\s+((?:19|20)\d{2})\b")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_TLDR_KEYS = ("TLDR", "tldr", "TL;DR")
_KINDS: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
#: Paper fields a note can provide, recorded in ``provenance`` when not empty.
NOTE_FIELDS = (
    "title", "abstract", "venue", "year", "authors", "keywords", "primary_area", "decision",
    "ratings", "confidence", "tldr", "number", "pdf_url", "openreview_url",
)  # fmt: skip


# --- JSON files (shared with the Paper Copilot readers) ---------------------------------------


@dataclass(frozen=True, slots=True)
class JsonRecords:
    """The records of a JSON or JSON Lines file: ``records`` (any JSON values) and, for JSON
    Lines, the 1-based ``lines`` they were on (``None`` for one JSON document)."""

    records: list[Any]
    lines: list[int] | None

    def position(self, index: int) -> str:
        """Where record ``index`` (0-based) is: ``"line 12"`` in JSON Lines, else ``"record 3"``."""
        return f"line {self.lines[index]}" if self.lines is not None else f"record {index + 1}"

    def line(self, index: int) -> int | None:
        """The 1-based line of record ``index`` in JSON Lines, else ``None``."""
        return self.lines[index] if self.lines is not None else None


class _NotUtf8(Exception):
    """The bytes are not UTF-8: decode them as text first (UTF-16, GB18030)."""


def load_json_records(path: Path) -> JsonRecords:
    """Read a JSON array, a ``{"notes": [...]}`` object, one object, or JSON Lines.

    Raises:
        SourceError: unreadable, not valid JSON (naming the line), or a top-level value that is
            neither an array of records nor an object.
    """
    raw = read_bytes(path)
    try:
        return _parse_records(raw, path)
    except _NotUtf8:
        return _parse_records(decode_text(raw, path).encode("utf-8"), path)


def _loads(data: bytes, path: Path, line: int | None = None) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if "UTF-8" in exc.msg:
            raise _NotUtf8 from None
        reason = f"not valid JSON: {exc.msg} (column {exc.colno})"
        raise SourceError(path, reason, exc.lineno if line is None else line) from None


def _parse_records(raw: bytes, path: Path) -> JsonRecords:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _NotUtf8
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    if not raw.strip():
        return JsonRecords([], None)
    if raw.lstrip().startswith(b"{"):
        lines = raw.split(b"\n")
        first = next(i for i, line in enumerate(lines) if line.strip())
        if any(line.strip() for line in lines[first + 1 :]) and _is_object(lines[first]):
            numbers = [number for number, line in enumerate(lines, 1) if line.strip()]
            return JsonRecords([_loads(lines[n - 1], path, n) for n in numbers], numbers)
    value = _loads(raw, path)
    if isinstance(value, dict) and isinstance(value.get("notes"), list):
        return JsonRecords(value["notes"], None)
    if isinstance(value, dict) and ("content" in value or "id" in value or "title" in value):
        return JsonRecords([value], None)
    if not isinstance(value, list):
        expected = 'expected an array of records or {"notes": [...]}'
        raise SourceError(path, f"{expected}, got {json_kind(value)}")
    return JsonRecords(value, None)


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


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
    notes = _NOTES_KEY.match(text)
    value: Any = None
    if notes is not None:
        value = _raw_decode(text, notes.end())
    elif text.startswith("["):
        value = _raw_decode(text, 1)
    elif text.startswith("{"):
        try:
            value = json.loads(text.split("\n", 1)[0])  # JSON Lines, or a one-line document
        except ValueError:
            value = _raw_decode(text, 0)
    return value if isinstance(value, dict) else None


def _raw_decode(text: str, start: int) -> Any:
    while start < len(text) and text[start].isspace():
        start += 1
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except ValueError:
        return None


def parse_scores(value: object) -> list[float]:
    """Review scores from a list, a ``"5;6;8"`` string or a number.

    ``""``, ``None`` and negative numbers (``-1``) are missing; so is a value that is all zeros
    (``0``, ``"0"``, ``[0.0, 0.0]``): there is never a 0 rating. A 0 among other scores is kept,
    as ICLR 2026 scores reviews 0, 2, 4, 6, 8 or 10 ("strong reject" is 0).
    """
    items: Any = value.split(";") if isinstance(value, str) else value
    scores: list[float] = []
    for item in items if isinstance(items, list | tuple) else [items]:
        if isinstance(item, bool) or not isinstance(item, int | float | str):
            continue
        try:
            score = float(item)
        except ValueError:
            continue
        if score >= 0 and score == score:  # -1 means "no score"; NaN is dropped
            scores.append(score)
    return scores if any(scores) else []


def provenance_pairs(path: Path, fields: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``(field, file name)`` for each field: the provenance pairs papers from ``path`` share."""
    return tuple((field, path.name) for field in fields)


def collect(path: Path, format: str, results: Iterable[tuple[str, Paper | str]]) -> SourceRead:
    """A :class:`SourceRead` from ``(position, paper or skip reason)`` pairs: the first paper of
    each id is kept, a later one is skipped as a duplicate; a notice when there are no papers."""
    papers: dict[str, Paper] = {}
    skipped: list[Skip] = []
    for position, result in results:
        if isinstance(result, str):
            skipped.append(Skip(position, result))
        elif result.id in papers:
            skipped.append(Skip(position, f"duplicate id {result.id}"))
        else:
            papers[result.id] = result
    notice = None
    if not papers:
        notice = f"{path}: no papers in this file"
        notice += f" ({len(skipped)} records skipped)" if skipped else ""
    return SourceRead(path, format, tuple(papers.values()), tuple(skipped), notice)


# --- OpenReview notes --------------------------------------------------------------------------


def sniff(path: Path, head: str) -> bool:
    """An OpenReview note file: JSON whose first record has ``content`` or note envelope keys."""
    if head.strip() == "[]" or _NOTES_KEY.match(head):
        return True
    record = first_record(head)
    if record is not None:
        return is_note(record)
    text = head.lstrip()  # a first record longer than the head: look for note keys
    return text.startswith(("[", "{")) and _NOTE_KEY_TEXT.search(text) is not None


def is_note(record: dict[str, Any]) -> bool:
    """True when ``record`` looks like an OpenReview note (raw, ReviewTracker or flat)."""
    return isinstance(record.get("content"), dict) or any(key in record for key in _NOTE_KEYS)


def read(path: Path) -> SourceRead:
    """Read OpenReview notes (API v2, ReviewTracker or flat; JSON, JSON Lines or ``{"notes": …}``).

    Raises:
        SourceError: unreadable, invalid JSON (naming the line), or a record that is not an object
            or has no id, title or abstract; nothing is returned from a partly broken file.
    """
    document = load_json_records(path)
    pairs = provenance_pairs(path, NOTE_FIELDS)

    def results() -> Iterator[tuple[str, Paper | str]]:
        for index, record in enumerate(document.records):
            try:
                yield document.position(index), note_paper(record, (path.name,), pairs)
            except ValueError as exc:
                reason = f"{document.position(index)}: {exc}"
                raise SourceError(path, reason, document.line(index)) from None

    return collect(path, NAME, results())


def note_paper(
    record: Any, sources: tuple[str, ...], pairs: tuple[tuple[str, str], ...]
) -> Paper | str:
    """The paper in one OpenReview note, or why the note is skipped (a ``str``).

    ``sources`` is the paper's ``sources``; ``pairs`` are the provenance pairs of
    :data:`NOTE_FIELDS`, in that order.

    Raises:
        ValueError: not a note: not an object, no id, title or abstract, or a field of the
            wrong type.
    """
    if not isinstance(record, dict):
        raise ValueError(f"expected an object, got {json_kind(record)}")
    content = record.get("content")
    note = content if isinstance(content, dict) else {}
    note_id = _text(record.get("id"), "id")
    forum, replyto = record.get("forum"), record.get("replyto")
    if (forum and note_id and forum != note_id) or (replyto and replyto != note_id):
        return f"reply note ({_note_kind(record)}), not a submission"
    title, abstract = _field(note, record, "title"), _field(note, record, "abstract")
    if not title:
        if not note_id and not abstract:
            raise ValueError("no id, title or abstract: not an OpenReview note")
        return f"note without a title ({_note_kind(record)}), not a submission"
    invitations = record.get("invitations")
    if not isinstance(invitations, list):
        invitations = []
    venue_text, venueid = _field(note, record, "venue"), _field(note, record, "venueid")
    first_invitation = next((i for i in invitations if isinstance(i, str)), "")
    domain = _text(record.get("domain"), "domain")
    venue, year = _venue_year(domain, venueid, first_invitation, venue_text)
    decision, decision_raw = _decision(venue_text, venueid, record.get("withdrawn") is True)
    number = record.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        found = (_SUBMISSION_NUMBER.search(i) for i in invitations if isinstance(i, str))
        number = next((int(match.group(1)) for match in found if match), None)
    pdf = _field(note, record, "pdf")
    if not pdf and note_id:
        pdf = f"{OPENREVIEW}/pdf?id={note_id}"
    elif pdf.startswith("/"):
        pdf = OPENREVIEW + pdf
    url = _field(note, record, "url")
    if "openreview.net" not in url:
        url = f"{OPENREVIEW}/forum?id={note_id}" if note_id else ""
    ratings = confidence = None
    if "rating" in note or "rating" in record:
        ratings = Ratings.from_scores(parse_scores(_value(note, record, "rating")))
        confidence = Ratings.from_scores(parse_scores(_value(note, record, "confidence")))
    authors = _strings(_value(note, record, "authors"), "authors")
    keywords = _strings(_value(note, record, "keywords"), "keywords")
    primary_area = _field(note, record, "primary_area")
    tldr = next((text for key in _TLDR_KEYS if (text := _field(note, record, key))), "")
    try:
        paper_id = canonical_id(
            openreview_id=note_id, venue=venue, year=year, number=number, title=title
        )
    except ValueError:
        return f"no id and a placeholder title ({title!r})"
    known = decision != "unknown"
    given = (title, abstract, venue, year, authors, keywords, primary_area, known,
             ratings, confidence, tldr, number is not None, pdf, url)  # fmt: skip
    return Paper(
        id=paper_id,
        title=title,
        abstract=abstract,
        venue=venue,
        year=year,
        sources=sources,
        authors=authors,
        keywords=keywords,
        primary_area=primary_area,
        decision=decision,
        decision_raw=decision_raw,
        ratings=ratings,
        confidence=confidence.mean if confidence else None,
        tldr=tldr,
        openreview_id=note_id,
        number=number,
        pdf_url=pdf,
        openreview_url=url,
        provenance=tuple(pair for pair, value in zip(pairs, given, strict=True) if value),
    )


def _value(note: dict[str, Any], record: dict[str, Any], key: str) -> Any:
    """Field ``key`` of a note: in ``content`` (unwrapping ``{"value": …}``), else top level."""
    value = note.get(key)
    if value is None:
        value = record.get(key)
    return value.get("value") if type(value) is dict else value


def _field(note: dict[str, Any], record: dict[str, Any], key: str) -> str:
    """Text field ``key`` of a note (see :func:`_value`), stripped; ``""`` when missing."""
    value = note.get(key)
    if value is None:
        value = record.get(key)
    if type(value) is dict:
        value = value.get("value")
    if type(value) is str:
        return value.strip()
    return "" if value is None else _text(value, key)


def _text(value: Any, field: str) -> str:
    """A text field, stripped; ``""`` when missing. Numbers become text; lists and objects fail."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"{field} is {json_kind(value)}, expected text")


def _strings(value: Any, field: str) -> tuple[str, ...]:
    """Names or keywords, items as given (only a plain ``;``- or ``,``-joined string is split)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = value.split(";" if ";" in value else ",")
    if not isinstance(value, list):
        raise ValueError(f"{field} is {json_kind(value)}, expected a list")
    if all(type(item) is str for item in value):
        return tuple(text for item in value if (text := item.strip()))
    return tuple(text for item in value if (text := _text(item, field)))


def _note_kind(record: dict[str, Any]) -> str:
    """``"Official_Review"`` from the note's invitation ``…/Submission1/-/Official_Review``."""
    invitations = record.get("invitations")
    for invitation in invitations if isinstance(invitations, list) else [record.get("invitation")]:
        if isinstance(invitation, str) and "/-/" in invitation:
            return invitation.rsplit("/-/", 1)[1]
    return "unknown type"


@lru_cache(maxsize=4096)
def _venue_year(domain: str, venueid: str, invitation: str, venue: str) -> tuple[str, int | None]:
    """``("ICLR", 2026)`` from ``ICLR.cc/2026/Conference…`` ids, else from ``ICLR 2026 Poster``."""
    for group in (domain, venueid, invitation):
        parts = group.split("/")
        for index in range(1, len(parts)):
            if _YEAR.match(parts[index]):
                return parts[index - 1].split(".")[0], int(parts[index])
    match = _VENUE_YEAR_TEXT.match(venue)
    return (match.group(1), int(match.group(2))) if match else ("", None)


@lru_cache(maxsize=4096)
def _decision(venue: str, venueid: str, withdrawn: bool) -> tuple[str, str]:
    """``(decision, decision_raw)`` from the venue string, else the venue id; ``withdrawn`` wins."""
    decision, raw = normalise_decision(venue), venue
    if decision == "unknown" and venueid:
        decision, raw = normalise_decision(venueid), venueid
    if withdrawn and decision != "withdrawn":
        decision, raw = "withdrawn", raw or "withdrawn"
    return decision, raw
