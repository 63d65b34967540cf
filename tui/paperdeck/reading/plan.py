"""The user's conference plan: the starred or to-read papers that have events, in walking order.

:func:`build_plan` chooses the events, orders them by day (the venue's local date), then session
(by its start, then its name), then poster position (numbers compared as numbers), and flags
clashes: two chosen events of different papers whose times overlap in another session or room
(posters of one session are a walk through the hall, not a clash). :func:`time_zone` names the
user's zone; :func:`plan_lines` and :func:`plan_dict` lay the plan out for a terminal and for
scripts, each time in the user's zone with the venue's beside it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Any

from paperdeck.model.counts import counted
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.safe_text import one_line, shown_line, web_link
from paperdeck.model.schedule import PlanItem, ScheduleEvent

__all__ = ["Plan", "build_plan", "plan_dict", "plan_lines", "time_zone"]

_NUMBER = re.compile(r"\d+")


class ZoneError(ValueError):
    """A time zone name that names no zone (the message is the one line to show)."""


def time_zone(name: str | None) -> tuple[tzinfo, str]:
    """The user's time zone and its name: ``name`` (an IANA name, ``"Europe/Paris"``), else the
    system's (:func:`_system_zone_name`; a fixed offset when the system names no zone).

    Raises:
        ZoneError: ``name`` names no zone, or is blank (``--tz ''``), in one line.
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if name is not None and not name.strip():
        raise ZoneError("an empty time zone name: give an IANA name such as Europe/Paris, or leave --tz out")
    if not name:
        system = _system_zone_name()
        if system:
            try:
                return ZoneInfo(system), system
            except (ZoneInfoNotFoundError, ValueError, OSError):
                pass
        local = datetime.now().astimezone().tzinfo  # a fixed offset: today's, not the conference's
        assert local is not None
        return local, local.tzname(None) or "local"

    try:
        return ZoneInfo(name), name
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ZoneError(f"unknown time zone {one_line(name)!r}; give an IANA name such as Europe/Paris") from None


def _system_zone_name() -> str:
    """The system's IANA zone name: ``$TZ`` (without a leading ``:``), else what ``/etc/localtime``
    links to (``…/zoneinfo/Europe/Paris``); ``""`` when neither names one. A zone's rules, not
    today's offset: a conference in April is shown in April's time."""
    import os
    from pathlib import Path

    named = os.environ.get("TZ", "").removeprefix(":").strip()
    if named and not named.startswith("/"):
        return named
    link = Path(named or "/etc/localtime")
    try:
        target = str(link.resolve())
    except OSError:
        return ""
    _, found, zone = target.partition("/zoneinfo/")
    return zone if found else ""


@dataclass(frozen=True, slots=True)
class Plan:
    """The plan: its items in walking order, and the zone its times are shown in.

    Attributes:
        items: the chosen events, ordered (:func:`build_plan`).
        zone: the user's time zone; zone_name its name.
        chosen: how many papers are starred or to-read; without_events: how many of them have no
            event (left out of the plan).
    """

    items: tuple[PlanItem, ...]
    zone: tzinfo
    zone_name: str
    chosen: int = 0
    without_events: int = 0

    @property
    def clashes(self) -> int:
        """How many items clash with another."""
        return sum(1 for item in self.items if item.clashes)


def _position_key(text: str) -> tuple[int, str]:
    """A poster position's place in a walk: its first number (``"#12"`` before ``"#101"``), then its text."""
    found = _NUMBER.search(text)
    return (int(found.group()) if found else 1 << 30), text


def _order(item: PlanItem) -> tuple[Any, ...]:
    event = item.event
    start = event.starts
    day = event.days()[0] if event.days() else "~"  # events without a time last
    return (day, start.timestamp() if start else 0.0, event.session.casefold(), _position_key(event.poster),
            item.title.casefold(), event.event_id)  # fmt: skip


def _link(paper: Paper) -> str:
    for url in (paper.openreview_url, paper.arxiv_url, paper.pdf_url):
        if url and web_link(url):
            return url
    if paper.openreview_id:
        return f"https://openreview.net/forum?id={paper.openreview_id}"
    return ""


def _venue_offsets(events: Mapping[str, Sequence[ScheduleEvent]]) -> Callable[[ScheduleEvent], ScheduleEvent]:
    """What places an event at its venue's offset: the programme's own (the offset most of its
    venue and year's rows name on the event's UTC day, else in the whole programme; a zero offset
    names no venue). An event given at another offset (``+14:00`` among ``-03:00`` rows) is moved
    to the venue's, the same instant: its day and venue time are the venue's. A programme all in
    UTC keeps its times."""
    days: dict[tuple[str, int | None], dict[date, Counter[timedelta]]] = {}
    every: dict[tuple[str, int | None], Counter[timedelta]] = {}
    for paper_events in events.values():
        for event in paper_events:
            when = event.starts
            offset = when.utcoffset() if when is not None else None
            if when is None or not offset:
                continue
            programme = (event.venue.casefold(), event.year)
            days.setdefault(programme, {}).setdefault(when.astimezone(UTC).date(), Counter())[offset] += 1
            every.setdefault(programme, Counter())[offset] += 1

    def placed(event: ScheduleEvent) -> ScheduleEvent:
        start, end = event.starts, event.ends
        programme = (event.venue.casefold(), event.year)
        if start is None or end is None or programme not in every:
            return event
        on_day = days[programme].get(start.astimezone(UTC).date())
        offset = (on_day or every[programme]).most_common(1)[0][0]
        if start.utcoffset() == offset and end.utcoffset() == offset:
            return event
        zone = timezone(offset)
        moved_end = end.astimezone(zone).isoformat() if event.end else ""
        return replace(event, start=start.astimezone(zone).isoformat(), end=moved_end)

    return placed


def build_plan(
    papers: Mapping[str, Paper],
    events: Mapping[str, Sequence[ScheduleEvent]],
    users: Mapping[str, UserData],
    zone: tzinfo,
    zone_name: str,
) -> Plan:
    """The plan of the papers the user starred or marked to-read that have events.

    Args:
        papers: the catalogue's papers by id.
        events: each paper's events by paper id (:meth:`Store.events_by_paper
            <paperdeck.store.store.Store.events_by_paper>`).
        users: the user's records by paper id.
        zone, zone_name: the user's time zone (:func:`time_zone`).
    """
    items: list[PlanItem] = []
    chosen = without = 0
    at_venue = _venue_offsets(events)
    for paper_id, user in users.items():
        reasons = [r for r, yes in (("starred", user.starred), ("to-read", user.status == "to-read")) if yes]
        paper = papers.get(paper_id)
        if not reasons or paper is None:
            continue
        chosen += 1
        paper_events = events.get(paper_id, ())
        without += not paper_events
        for event in paper_events:
            event = at_venue(event)
            items.append(PlanItem(paper_id, paper.title, event, _link(paper), user.note, ", ".join(reasons)))
    items.sort(key=_order)
    clashes: dict[int, list[str]] = {}
    for i, a in enumerate(items):
        for j in range(i + 1, len(items)):
            b = items[j]
            if a.paper_id == b.paper_id or (a.event.session, a.event.room) == (b.event.session, b.event.room):
                continue
            if a.event.overlaps(b.event):
                clashes.setdefault(i, []).append(b.uid)
                clashes.setdefault(j, []).append(a.uid)
    flagged = tuple(replace(item, clashes=tuple(clashes.get(n, ()))) for n, item in enumerate(items))
    return Plan(flagged, zone, zone_name, chosen, without)


def _clock(when: datetime) -> str:
    return when.strftime("%H:%M")


def _at(when: datetime, day: date) -> str:
    """``when``'s clock, its weekday before it when it is not on ``day`` (``"Fri 01:00"``), with
    its date too a week or more away (``"Fri 05-01 01:00"``)."""
    if when.date() == day:
        return _clock(when)
    if abs((when.date() - day).days) >= 7:
        return f"{when:%a %m-%d} {_clock(when)}"
    return f"{when:%a} {_clock(when)}"


def _span(start: datetime, end: datetime, day: date) -> str:
    """``"10:30–13:00"``: a start and an end, each with its weekday when it falls on another
    date than the one before it (the start than ``day``, the end than the start):
    ``"22:30–Fri 01:00"``, ``"Fri 03:00–05:30"``, ``"09:00–Sun 18:00"``. One notation for every
    time of the plan, the user's and the venue's."""
    return f"{_at(start, day)}–{_at(end, start.date())}"


def _times(event: ScheduleEvent, zone: tzinfo) -> tuple[str, str]:
    """``("13:30–16:00", "10:30–13:00 venue")``: the event's times in the user's zone, and the
    venue's beside them when they differ (``""`` then); ``("no time", "")`` without a time. The
    days are headed by the venue's date: a time on another date says its weekday
    (:func:`_span`)."""
    start, end = event.starts, event.ends
    if start is None or end is None:
        return "no time", ""
    mine = _span(start.astimezone(zone), end.astimezone(zone), start.date())
    there = _span(start, end, start.date())
    return mine, ("" if there == mine else f"{there} venue")


def _event_text(event: ScheduleEvent, zone: tzinfo, cells: int | None = None) -> str:
    """An event's line in the plan: its poster, times and kind, each once. An event without a
    time is under the day heading "Without a time", and a kind that is the session itself
    (``"session"``: a paper list naming each paper's session, as CVPR 2019's) is said by the
    session line above it: neither is said again (``""`` when nothing is left: no line, not
    ``"no time  session"``).

    Within ``cells`` terminal cells (``None``: no limit) the parts give way in order, each whole:
    the kind, then the venue's time, then the poster position (what finds the poster in the hall);
    the user's time gives way last (the caller cuts what is still too wide)."""
    poster, kind, mine, there = one_line(event.poster), "", "", ""
    if event.starts is not None and event.ends is not None:
        mine, there = (one_line(part) for part in _times(event, zone))
    if event.kind.casefold() != "session":
        kind = one_line(event.kind)

    def joined() -> str:
        return "  ".join(part for part in (poster, f"{mine} ({there})" if there else mine, kind) if part)

    text = joined()
    for give_way in ("kind", "there", "poster"):
        if cells is None or _cells(text) <= cells:
            break
        if give_way == "kind":
            kind = ""
        elif give_way == "poster" and mine:  # without a time, the poster is all there is
            poster = ""
        elif give_way == "there":
            there = ""
        text = joined()
    return text


def _cells(text: str) -> int:
    """How many terminal cells ``text`` takes (a wide character two)."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


#: What starts the line of an event that clashes (:func:`plan_lines`), and of one that does not:
#: as wide, so that every event's text starts in one column.
CLASH_GUTTER = "  ⚠ clash  "
EVENT_GUTTER = " " * len(CLASH_GUTTER)
#: What starts the line of an event's paper title: under the event's text, two cells in.
TITLE_INDENT = " " * (len(CLASH_GUTTER) + 2)


def _fit(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` terminal cells with an ellipsis, as the list cuts its titles (a
    wide character is two cells; nothing is cut mid-character), else as it is."""
    if text.isascii() and text.isprintable():
        return text[: cells - 1] + "…" if len(text) > cells else text
    from rich.text import Text

    fitted = Text(text, no_wrap=True, end="")
    fitted.truncate(max(cells, 1), overflow="ellipsis")
    return fitted.plain


def plan_lines(plan: Plan, width: int = 80, starts: list[int] | None = None) -> list[str]:
    """The plan for a terminal, every text through the sanitiser and cut to ``width`` cells, an
    ellipsis where a line is cut::

        Thursday 2026-04-23 · ICLR 2026                     a day (the venue's date), no indent
          Poster Session 1 · Hall 3                         a session and its room, 2 spaces
                   #101  15:30–18:00 (10:30–13:00 venue)  poster   an event, 11 spaces
          ⚠ clash  #108  20:00–22:30 (15:00–17:30 venue)  poster   or "⚠ clash" in them
                     Fairness via Independence: …           its paper's title, 13 spaces

    Times are in the user's zone, the venue's beside them when they differ; ``⚠ clash`` starts
    the line of an event that overlaps another chosen one, in the gutter every event line has,
    so that every event starts in one column (a narrow terminal cuts a line's end, never the
    mark). The last lines count the chosen papers without an event and the clashes. ``starts``,
    when given, gets the index of each item's first line (its event's, else its title's), in the
    plan's order, and the lines of item ``n`` run to ``starts[n]``'s title line."""
    lines = [f"My schedule — times in {one_line(plan.zone_name)}"]
    if not plan.items:
        lines.append("Nothing to plan: no starred or to-read paper has an event (import a programme first).")
    day: str | None = None
    place: tuple[str, str] | None = None
    for item in plan.items:
        event = item.event
        days = event.days()
        this_day = days[0] if days else ""
        if this_day != day:
            day, place = this_day, None
            start = event.starts
            heading = f"{start:%A} {this_day} (the venue's day)" if start is not None else "Without a time"
            venue = f" · {event.venue} {event.year or ''}".rstrip() if event.venue else ""
            lines += ["", _fit(one_line(f"{heading}{venue}"), width)]
        if (event.session, event.room) != place:
            place = (event.session, event.room)
            lines.append("  " + _fit(one_line(" · ".join(x for x in place if x) or "no session named"), width - 2))
        if starts is not None:
            starts.append(len(lines))
        if (text := _event_text(event, plan.zone, width - len(EVENT_GUTTER))) or item.clashes:
            lines.append(_fit(f"{CLASH_GUTTER if item.clashes else EVENT_GUTTER}{text}", width))
        lines.append(_fit(f"{TITLE_INDENT}{shown_line(item.title)}", width))
    if plan.without_events:
        count = plan.without_events
        lines += ["", f"{counted(count, 'chosen paper')} without an event (not in a programme)"]
    if plan.clashes:
        lines.append(f"{plan.clashes:,} events clash (⚠): their times overlap in different sessions")
    return lines


def plan_dict(plan: Plan) -> dict[str, Any]:
    """The plan for scripts: ``{"zone", "chosen", "without_events", "events": [...]}``, each event
    with its paper, title, kind, session, room, poster, day, its times with the venue's offset and in
    the user's zone (ISO 8601), link, note, why chosen and the uids it clashes with."""
    from paperdeck.model.paper import library_venue  # the venue named as every JSON output names it

    out = []
    for item in plan.items:
        event = item.event
        start, end = event.starts, event.ends
        out.append({
            "uid": item.uid, "paper": item.paper_id, "title": item.title, "event": event.event_id,
            "kind": event.kind, "session": event.session, "room": event.room, "poster": event.poster,
            "venue": library_venue(event.venue, event.year), "year": event.year,
            "day": event.days()[0] if event.days() else None,
            "start": event.start or None, "end": event.end or None,
            "start_local": start.astimezone(plan.zone).isoformat() if start else None,
            "end_local": end.astimezone(plan.zone).isoformat() if end else None,
            "link": item.link, "note": item.note, "reason": item.reason, "clashes": list(item.clashes),
        })  # fmt: skip
    return {"zone": plan.zone_name, "chosen": plan.chosen, "without_events": plan.without_events, "events": out}
