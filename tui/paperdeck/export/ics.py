"""The user's plan as an iCalendar file (RFC 5545), written with the ``icalendar`` library.

One ``VEVENT`` per chosen event with a time (an event without one, a CVPR session, has no place in
a calendar and is counted): the paper's title as its summary, the room and poster position as its
location, the session, the paper's link and the user's note in its description, the link as its
URL; times in UTC. Every text is data from a file, passed through :mod:`paperdeck.model.safe_text` first. Each
event's ``UID`` is made from the paper's id and the programme's event id
(:attr:`~paperdeck.model.schedule.PlanItem.uid`), so exporting again and importing the file into
the same calendar updates the events instead of adding copies; ``DTSTAMP`` is the export's time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from paperdeck.export.titles import shown_title
from paperdeck.model.safe_text import document, one_line, web_link
from paperdeck.model.schedule import PlanItem

__all__ = ["UID_DOMAIN", "calendar_bytes", "empty_calendar_reason", "event_uid", "write_calendar"]

#: The domain part of every UID paperdeck writes.
UID_DOMAIN = "paperdeck"


def event_uid(item: PlanItem) -> str:
    """The stable UID of a plan item: 24 hex digits of the SHA-256 of ``"<paper id>/<event id>"``
    (ids may hold any character; a UID should not), then ``@paperdeck``."""
    digest = hashlib.sha256(item.uid.encode("utf-8")).hexdigest()[:24]
    return f"{digest}@{UID_DOMAIN}"


def empty_calendar_reason(items: Sequence[PlanItem]) -> str | None:
    """Why the calendar of ``items`` would hold no event, in a few words, or ``None`` when it holds
    one at least (an item with a time). A calendar of nothing is not written: an export of nothing
    keeps the file it would replace, as every export format does."""
    if any(item.event.starts is not None and item.event.ends is not None for item in items):
        return None
    if items:
        return f"none of the {len(items):,} events of these papers has a time"
    return "none of these papers is starred or to-read with an event in an imported programme"


def calendar_bytes(items: Sequence[PlanItem], now: datetime | None = None) -> tuple[bytes, int]:
    """The iCalendar file of ``items`` and how many were left out for want of a time.

    Args:
        items: the plan's items (:func:`paperdeck.reading.plan.build_plan`).
        now: the export's time (``DTSTAMP``); the current UTC time by default.
    """
    from icalendar import Calendar, Event

    stamp = now or datetime.now(UTC)
    calendar = Calendar()
    calendar.add("prodid", "-//paperdeck//my schedule//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", "paperdeck: my schedule")
    left_out = 0
    for item in items:
        event, start, end = item.event, item.event.starts, item.event.ends
        if start is None or end is None:
            left_out += 1
            continue
        entry = Event()
        entry.add("uid", event_uid(item))
        entry.add("dtstamp", stamp)
        # in UTC (``…Z``): a fixed offset has no zone name a calendar knows (a TZID of "UTC-03:00"
        # without its VTIMEZONE is read as floating local time)
        entry.add("dtstart", start.astimezone(UTC))
        entry.add("dtend", max(end, start).astimezone(UTC))
        kind = "Oral" if event.kind == "oral" else "Poster" if event.kind == "poster" else "Session"
        entry.add("summary", f"{kind}: {shown_title(item.title)}")
        location = ", ".join(x for x in (event.room, f"poster {event.poster}" if event.poster else "") if x)
        if location:
            entry.add("location", one_line(location))
        link = web_link(item.link) if item.link else ""
        lines = [x for x in (event.session, link) if x]
        if item.note.strip():
            lines += ["", "My note:", item.note.strip()]
        if lines:
            entry.add("description", document("\n".join(lines)))
        if link:
            entry.add("url", link)
        if event.venue:
            entry.add("categories", [one_line(f"{event.venue} {event.year or ''}".strip())])
        calendar.add_component(entry)
    return calendar.to_ical(), left_out


def write_calendar(path: Path, items: Sequence[PlanItem], *, data_dir: Path | None = None) -> int:
    """Write the iCalendar file of ``items`` to ``path`` atomically (:func:`paperdeck.export.formats.write_export`);
    returns how many items were left out for want of a time.

    Raises:
        ExportError: ``path`` is inside ``data_dir``.
        StoreError: the file cannot be written.
    """
    from paperdeck.export.formats import write_export

    payload, left_out = calendar_bytes(items)
    write_export(path, payload, data_dir=data_dir)
    return left_out
