"""Reader for a conference programme as Miniconf sites publish it (ICLR, NeurIPS, ICML, COLM:
``https://<host>/static/virtual/data/<conf>-<year>-orals-posters.json``).

A page object ``{"count": N, "results": [...]}`` whose rows have ``id``, ``name`` (the title),
``authors``, ``eventtype`` or ``event_type`` (``Poster``/``Oral``), ``session``, ``room_name``,
``poster_position``, ``starttime``/``endtime`` (ISO 8601 with the offset), ``virtualsite_url``,
``paper_url`` and ``sourceurl`` (the OpenReview forum), ``related_events_ids`` and ``visible``.
Every field is optional and hostile. A programme makes **no paper**: it reads events
(:class:`~paperdeck.model.schedule.ScheduleEvent`) that the import joins to the catalogue's papers
(by forum id, else by title within the venue: :mod:`paperdeck.store.schedule`).

Rows passed over, each with a counted reason: workshops, ``visible: false``, placeholders
(``2026-Oral--placeholder``), events that are no paper's (an invited talk, a social), rows without
a title or forum link, times that are not ISO 8601 or have no offset, an end before the start, a
row of another year than the programme's, and a second row of an event already read. A page with
``count: 0`` (not yet published) reads nothing and says so.

Times keep the venue's local time: a row given in UTC (``…T13:00:00Z``) in a programme whose other
rows name the venue's offset (``-03:00``) is read at that offset (``10:00-03:00``, the same
instant; :func:`in_venue_time`), so that the plan shows the venue's clock for every row.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from paperdeck.model.errors import SourceError
from paperdeck.model.ids import normalise_title, openreview_id_from_url, valid_openreview_id
from paperdeck.model.safe_text import web_link
from paperdeck.model.schedule import MAX_FIELD_CHARS, ScheduleEvent, parse_offset_time
from paperdeck.sources.base import Skip, SourceRead, read_bytes
from paperdeck.sources.common import collapse
from paperdeck.sources.jsonfile import json_kind, text_value

NAME = "schedule"

_COUNT = re.compile(r'"count"\s*:\s*\d')
_ROW_KEYS = re.compile(r'"(eventtype|event_type|starttime|poster_position|room_name|related_events_ids)"\s*:')
_PLACEHOLDER = re.compile(r"placeholder", re.IGNORECASE)
_KINDS = {"poster": "poster", "oral": "oral", "spotlight": "oral", "spotlight poster": "poster"}
_FILE_VENUE_YEAR = re.compile(r"(?:^|[^a-z])(iclr|neurips|nips|icml|colm|cvpr|iccv|eccv)[_\- ]?((?:19|20)\d{2})(?!\d)")
_VENUES = {"iclr": "ICLR", "neurips": "NeurIPS", "nips": "NeurIPS", "icml": "ICML", "colm": "COLM",
           "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV"}  # fmt: skip
_SITE_YEAR = re.compile(r"/virtual/((?:19|20)\d{2})/")


def sniff(path: Path, head: str) -> bool:
    """A JSON object with ``results`` whose head has ``"count": N`` near its start, or names
    programme fields (``eventtype``, ``starttime``, ``poster_position``…)."""
    text = head.lstrip()
    if not text.startswith("{") or '"results"' not in text:
        return False
    return bool(_COUNT.search(text[:400])) or len(set(_ROW_KEYS.findall(text))) >= 2


def read(path: Path) -> SourceRead:
    """Read a Miniconf programme file: its events, no papers.

    Raises:
        SourceError: unreadable, not valid JSON, or not a page object with a ``results`` array
            (one line naming the file).
    """
    import orjson

    raw = read_bytes(path).removeprefix(b"\xef\xbb\xbf")
    try:
        page = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise SourceError(path, f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from None
    if not isinstance(page, dict) or not isinstance(page.get("results", []), list):
        got = json_kind(page) if not isinstance(page, dict) else f"results as {json_kind(page.get('results'))}"
        raise SourceError(path, f'expected a programme page {{"count": N, "results": [...]}}, got {got}')
    rows = page.get("results") or []
    if page.get("count") == 0 or not rows:
        return SourceRead(path, NAME, (), notice=f"{path.name}: the programme lists no events yet (count 0)")
    venue, year = _venue_year(path, rows)
    events: list[ScheduleEvent] = []
    skipped: list[Skip] = []
    seen: set[str] = set()
    alike: set[tuple[str, str, str, str]] = set()
    for index, row in enumerate(rows):
        position = f"row {index + 1}"
        try:
            event = _event(row, venue, year)
        except _Skipped as exc:
            skipped.append(Skip(position, str(exc)))
            continue
        same = (event.forum_id or normalise_title(event.title), event.kind, event.start, event.session)
        if event.event_id in seen or same in alike:  # the same id, or the same slot under another id
            skipped.append(Skip(position, f"duplicate event ({event.event_id})"))
            continue
        seen.add(event.event_id)
        alike.add(same)
        events.append(event)
    notice = None if events else f"{path.name}: no event of a paper in this programme"
    return SourceRead(path, NAME, (), tuple(skipped), notice, events=in_venue_time(events))


def in_venue_time(events: list[ScheduleEvent]) -> tuple[ScheduleEvent, ...]:
    """``events`` with the times given in UTC (``Z``, ``+00:00``) moved to the venue's offset, the
    same instants: the offset the programme's other rows name (the most common one on the same
    UTC day, else in the whole programme, so that a change to summer time within the week is
    followed). A programme all in UTC stays so (its venue's offset is unknown); a row given at
    any other offset keeps it."""
    days: dict[date, Counter[timedelta]] = {}
    every: Counter[timedelta] = Counter()
    for event in events:
        for text in (event.start, event.end):
            when = _time(text)
            offset = when.utcoffset() if when is not None else None
            if when is not None and offset:  # a zero offset names no venue
                days.setdefault(when.astimezone(UTC).date(), Counter())[offset] += 1
                every[offset] += 1
    if not every:
        return tuple(events)
    fallback = every.most_common(1)[0][0]

    def moved(text: str) -> str:
        when = _time(text)
        if when is None or when.utcoffset():
            return text
        on_day = days.get(when.astimezone(UTC).date())
        offset = on_day.most_common(1)[0][0] if on_day else fallback
        return when.astimezone(timezone(offset)).isoformat()

    result = []
    for event in events:
        start, end = moved(event.start), moved(event.end)
        result.append(event if (start, end) == (event.start, event.end) else replace(event, start=start, end=end))
    return tuple(result)


def _time(text: str) -> datetime | None:
    """An event's stored time (ISO 8601 with its offset), ``None`` when it has none."""
    return datetime.fromisoformat(text) if text else None


class _Skipped(Exception):
    """A row passed over on purpose; the message is the reason (its kind before any ``" ("``)."""


def _venue_year(path: Path, rows: list[Any]) -> tuple[str, int | None]:
    """The programme's venue and year: from the file name (``iclr-2026-orals-posters.json``), else
    the year most rows' ``virtualsite_url`` names (``/virtual/2026/``)."""
    match = _FILE_VENUE_YEAR.search(path.name.casefold())
    if match:
        return _VENUES[match.group(1)], int(match.group(2))
    years: dict[int, int] = {}
    for row in rows[:500]:
        url = row.get("virtualsite_url") if isinstance(row, dict) else None
        found = _SITE_YEAR.search(url) if isinstance(url, str) else None
        if found:
            years[int(found.group(1))] = years.get(int(found.group(1)), 0) + 1
    return "", max(years, key=lambda y: years[y]) if years else None


def _text(row: dict[str, Any], *names: str) -> str:
    """The first of ``names`` that is text in ``row``: HTML entities undone (twice at most: a
    doubly escaped ``&amp;amp;``), white space collapsed, at most :data:`MAX_FIELD_CHARS`; a list,
    an object or a boolean is no text (``""``)."""
    for name in names:
        try:
            value = text_value(row.get(name), name)
        except ValueError:
            continue
        if value:
            for _ in range(2):
                if "&" not in value:
                    break
                value = html.unescape(value)
            return collapse(value)[:MAX_FIELD_CHARS]
    return ""


def _event(row: object, venue: str, year: int | None) -> ScheduleEvent:
    """One row as an event.

    Raises:
        _Skipped: the row is passed over (the reason says why).
    """
    if not isinstance(row, dict):
        raise _Skipped(f"not an object ({json_kind(row)})")
    if row.get("visible") is False:
        raise _Skipped("not visible")
    event_id = _text(row, "id", "uid")
    title = _text(row, "name", "title")
    kind_text = _text(row, "eventtype", "event_type").casefold()
    session = _text(row, "session")
    if _PLACEHOLDER.search(event_id) or _PLACEHOLDER.search(title):
        raise _Skipped("placeholder")
    if "workshop" in kind_text or "workshop" in session.casefold():
        raise _Skipped("workshop")
    kind = _KINDS.get(kind_text, "poster" if not kind_text else "")
    if not kind:
        raise _Skipped(f"not a paper's event ({kind_text[:40]})")
    if not event_id:
        raise _Skipped("no event id")
    forum = ""
    for name in ("paper_url", "sourceurl", "openreview_url"):
        url = row.get(name)
        if isinstance(url, str) and (forum := openreview_id_from_url(url)):
            break
    if not forum and not title:
        raise _Skipped("no title and no forum link")
    try:
        start = parse_offset_time(_text(row, "starttime", "start_time"))
        end = parse_offset_time(_text(row, "endtime", "end_time"))
    except ValueError as exc:
        raise _Skipped(str(exc)) from None
    if start is None and end is not None:
        raise _Skipped("an end and no start")
    if start is not None and end is not None and end < start:
        raise _Skipped("ends before it starts")
    if year is not None and start is not None and start.year != year:
        raise _Skipped(f"another year ({start.year})")
    site = row.get("virtualsite_url")
    site_year = _SITE_YEAR.search(site) if isinstance(site, str) else None
    if year is not None and site_year and int(site_year.group(1)) != year:
        raise _Skipped(f"another year ({site_year.group(1)})")
    related = row.get("related_events_ids")
    related_ids: tuple[str, ...] = ()
    if isinstance(related, list):
        related_ids = tuple(str(r)[:40] for r in related[:20] if isinstance(r, int | str) and not isinstance(r, bool))
    return ScheduleEvent(
        event_id=event_id[:80], kind=kind, session=session, room=_text(row, "room_name", "room"),
        poster=_text(row, "poster_position"), start=start.isoformat() if start else "",
        end=end.isoformat() if end else "", venue=venue, year=year,
        forum_id=forum if valid_openreview_id(forum) else "", title=title, related=related_ids,
        link=web_link(site) if isinstance(site, str) else "",
    )  # fmt: skip
