"""A conference's programme: where and when a paper is presented (its events).

An event is catalogue data (the same for every user): one oral or poster slot of one paper, from a
programme file (a Miniconf ``orals-posters`` JSON) or a paper list that names a session (Paper
Copilot's CVPR lists: an event without a time). A paper has any number of events (an oral and its
poster are one paper with two events). Times are timezone-aware: the programme's own offset is
kept (the venue's local time), and shown beside the user's zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

__all__ = ["ScheduleEvent", "parse_offset_time"]

#: Longest text kept of a session, room, poster position or kind (characters).
MAX_FIELD_CHARS = 300


def parse_offset_time(text: str) -> datetime | None:
    """An ISO 8601 time with its UTC offset (``"2026-04-24T10:00:00-07:00"``, ``…Z``), ``None``
    when ``text`` is empty.

    Raises:
        ValueError: not an ISO 8601 time, or one without an offset (its zone is unknown: the
            message says which).
    """
    text = text.strip()
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("not an ISO 8601 time") from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("time without an offset")
    return when


@dataclass(frozen=True, slots=True)
class ScheduleEvent:
    """One presentation of one paper.

    Attributes:
        event_id: the programme's id of the event (a Miniconf ``id``, as text), or
            ``"session:<name>"`` for a paper list's session; unique within its venue and year.
        paper_id: the paper's id in the catalogue (``""`` while not yet joined).
        kind: ``"oral"``, ``"poster"`` or ``"session"`` (a session name, no kind known).
        session: the session's name, ``""`` when none.
        room: the room's name, ``""`` when none.
        poster: the poster position (``"#312"``, ``"Hall 3 #12"``), ``""`` when none.
        start, end: ISO 8601 times with the venue's UTC offset, ``""`` when unknown (an event
            without a time: a CVPR session); ``end`` is never before ``start``.
        venue, year: the programme's venue and year (``"ICLR"``, 2026), ``""``/``None`` unknown.
        forum_id: the OpenReview forum id the programme gives, ``""`` when none (a join key).
        title: the paper's title as the programme gives it (a join key; HTML entities undone).
        related: the ids of the paper's other events (oral ↔ poster), as the programme gives them.
        link: the event's page on the conference site (an absolute http(s) URL) or ``""``.
    """

    event_id: str
    paper_id: str = ""
    kind: str = "poster"
    session: str = ""
    room: str = ""
    poster: str = ""
    start: str = ""
    end: str = ""
    venue: str = ""
    year: int | None = None
    forum_id: str = ""
    title: str = ""
    related: tuple[str, ...] = ()
    link: str = ""

    @property
    def starts(self) -> datetime | None:
        """The start as an aware datetime (the venue's offset), ``None`` when unknown."""
        return datetime.fromisoformat(self.start) if self.start else None

    @property
    def ends(self) -> datetime | None:
        """The end as an aware datetime, ``None`` when unknown (an event with a start and no end
        ends when it starts)."""
        if self.end:
            return datetime.fromisoformat(self.end)
        return self.starts

    @property
    def key(self) -> tuple[str, str, int | None, str]:
        """What tells events apart in the store: venue, year (a programme's ids are its own), id
        and paper (a session's id is shared by its papers)."""
        return (self.venue.casefold(), self.event_id, self.year, self.paper_id)

    def overlaps(self, other: ScheduleEvent) -> bool:
        """Whether both have times and they overlap (touching ends do not: a talk may end at 10:00
        and the next start then; an event without an end is an instant)."""
        a, b = self.starts, other.starts
        a_end, b_end = self.ends, other.ends
        if a is None or b is None or a_end is None or b_end is None:
            return False
        tick = timedelta(microseconds=1)  # an instant lasts a tick: inside the other, or not
        a_end, b_end = max(a_end, a + tick), max(b_end, b + tick)
        return a < b_end and b < a_end

    def days(self) -> tuple[str, ...]:
        """The venue-local dates (``"2026-04-24"``) the event touches: one, two across midnight,
        none without a time."""
        start, end = self.starts, self.ends
        if start is None or end is None:
            return ()
        out: list[str] = []
        day = start.date()
        last = (end - timedelta(microseconds=1)).date() if end > start else start.date()
        while day <= last and len(out) < 8:
            out.append(day.isoformat())
            day += timedelta(days=1)
        return tuple(out)

    def when_and_where(self) -> str:
        """When and where, the venue's time (its offset named): ``"Poster · Thursday 2026-04-23
        10:30–13:00 (UTC-03:00) · Poster Session 1 · Hall 3 · #101"``, an end on another day with
        its weekday (``"09:00–Sun 18:00"``); without a time, the kind and the session alone.
        Data: pass it through the sanitiser before output."""
        start, end = self.starts, self.ends
        when = ""
        if start is not None and end is not None:
            ends_on = "" if end.date() == start.date() else f"{end:%a} "
            ends_on += f"{end:%m-%d} " if (end.date() - start.date()).days >= 7 else ""
            when = f"{start:%A %Y-%m-%d %H:%M}–{ends_on}{end:%H:%M}"
            when += f" ({start.tzname() or ''})"
        parts = [self.kind.capitalize(), when, self.session, self.room, self.poster]
        return " · ".join(part for part in parts if part)

    def to_dict(self) -> dict[str, Any]:
        """The stored document: every field, empty ones left out."""
        out: dict[str, Any] = {"id": self.event_id}
        for name, value in (
            ("paper", self.paper_id), ("kind", self.kind), ("session", self.session), ("room", self.room),
            ("poster", self.poster), ("start", self.start), ("end", self.end), ("venue", self.venue),
            ("year", self.year), ("forum", self.forum_id), ("title", self.title),
            ("related", list(self.related)), ("link", self.link),
        ):  # fmt: skip
            if value not in ("", None, []):
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: Any) -> ScheduleEvent:
        """An event from its stored document (:meth:`to_dict`).

        Raises:
            ValueError: not an event document (no id, a field of the wrong type, a time without
                an offset, an end before the start).
        """
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not data["id"]:
            raise ValueError("not an event (no id)")
        texts = {}
        for name in ("paper", "kind", "session", "room", "poster", "start", "end", "venue", "forum", "title", "link"):
            value = data.get(name, "")
            if not isinstance(value, str):
                raise ValueError(f"event {data['id']!r}: {name} is not text")
            texts[name] = value[:MAX_FIELD_CHARS] if name != "title" else value
        year = data.get("year")
        if year is not None and (not isinstance(year, int) or isinstance(year, bool)):
            raise ValueError(f"event {data['id']!r}: year is not a whole number")
        related = data.get("related", [])
        if not isinstance(related, list) or not all(isinstance(r, str) for r in related):
            raise ValueError(f"event {data['id']!r}: related is not a list of ids")
        start, end = parse_offset_time(texts["start"]), parse_offset_time(texts["end"])
        if start is not None and end is not None and end < start:
            raise ValueError(f"event {data['id']!r}: ends before it starts")
        return cls(
            event_id=data["id"], paper_id=texts["paper"], kind=texts["kind"] or "poster", session=texts["session"],
            room=texts["room"], poster=texts["poster"], start=texts["start"], end=texts["end"],
            venue=texts["venue"], year=year, forum_id=texts["forum"], title=texts["title"],
            related=tuple(related), link=texts["link"],
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlanItem:
    """One chosen event of the user's plan (:func:`paperdeck.reading.plan.build_plan`).

    Attributes:
        paper_id, title: the paper's id and title (data: sanitise before output).
        event: the event.
        link: the paper's page (its OpenReview forum, else another web link), ``""`` when none.
        note: the user's note on the paper (Markdown), ``""`` when none.
        reason: why the paper is chosen: ``"starred"``, ``"to-read"`` or ``"starred, to-read"``.
        clashes: the ids (``"<paper id>/<event id>"``) of the other chosen events whose times
            overlap this one's in another session or room.
    """

    paper_id: str
    title: str
    event: ScheduleEvent
    link: str = ""
    note: str = ""
    reason: str = "starred"
    clashes: tuple[str, ...] = ()

    @property
    def uid(self) -> str:
        """The event's stable id in the plan and a calendar: ``"<paper id>/<event id>"`` (the same
        at every export, so a calendar re-imported updates its events)."""
        return f"{self.paper_id}/{self.event.event_id}"
