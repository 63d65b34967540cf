"""The plan's times (:mod:`paperdeck.reading.plan`), from the fifteenth round's tester: an event
over three days said ``(+1 day)`` and no end day at the venue; a row at ``+14:00`` among ``-03:00``
rows was headed by the wrong day with the wrong venue time; ``--tz Asia/Tokyo`` mixed ``(+1 day)``
and ``Fri 04-24``; at 40 columns the times were cut before the kind and the poster gave way. The
sixteenth round's: at 40×12 the poster number gave way before the venue's time, and it is what
finds the poster: it stays while the user's time does."""

from __future__ import annotations

from paperdeck.model.paper import Paper, UserData
from paperdeck.model.schedule import ScheduleEvent
from paperdeck.reading.plan import build_plan, plan_lines, time_zone


def _event(event_id: str, start: str, end: str, poster: str = "#100") -> ScheduleEvent:
    return ScheduleEvent(event_id=event_id, kind="poster", session="Poster Session 1", room="Hall 3",
                         poster=poster, start=start, end=end, venue="ICLR", year=2026)  # fmt: skip


def _lines(events: dict[str, list[ScheduleEvent]], zone: str, width: int = 200) -> list[str]:
    papers = {pid: Paper(id=pid, title=f"Paper {pid}", abstract="", venue="ICLR", year=2026) for pid in events}
    users = {pid: UserData(paper_id=pid, starred=True) for pid in events}
    tz, name = time_zone(zone)
    return plan_lines(build_plan(papers, events, users, tz, name), width)


def test_an_event_over_three_days_names_its_end_day_in_both_zones() -> None:
    lines = _lines({"a": [_event("1", "2026-04-23T09:00:00-03:00", "2026-04-26T18:00:00-03:00")]}, "UTC")
    assert "           #100  12:00–Sun 21:00 (09:00–Sun 18:00 venue)  poster" in lines, lines
    assert not any("+1 day" in line for line in lines)


def test_a_row_at_its_own_offset_is_placed_at_the_venues() -> None:
    events = {
        "a": [_event("1", "2026-04-23T10:30:00-03:00", "2026-04-23T13:00:00-03:00", "#101")],
        "b": [_event("2", "2026-04-23T15:00:00-03:00", "2026-04-23T17:30:00-03:00", "#102")],
        "c": [_event("3", "2026-04-24T10:30:00+14:00", "2026-04-24T11:30:00+14:00", "#103")],
    }
    lines = _lines(events, "America/Sao_Paulo")
    assert not any(line.startswith("Friday") for line in lines), lines
    assert "           #103  17:30–18:30  poster" in lines, lines  # the venue's Thursday, its time
    lines = _lines(events, "UTC")
    assert "           #103  20:30–21:30 (17:30–18:30 venue)  poster" in lines, lines


def test_times_on_another_day_here_are_in_one_notation() -> None:
    events = {
        "a": [_event("1", "2026-04-23T10:30:00-03:00", "2026-04-23T13:00:00-03:00", "#101")],
        "b": [_event("2", "2026-04-23T15:00:00-03:00", "2026-04-23T17:30:00-03:00", "#102")],
    }
    lines = _lines(events, "Asia/Tokyo")
    assert "           #101  22:30–Fri 01:00 (10:30–13:00 venue)  poster" in lines, lines
    assert "           #102  Fri 03:00–05:30 (15:00–17:30 venue)  poster" in lines, lines


def test_in_a_narrow_plan_the_time_gives_way_last() -> None:
    events = {"a": [_event("1", "2026-04-23T10:30:00-03:00", "2026-04-23T13:00:00-03:00")]}
    by_width = {width: _lines(events, "UTC", width)[4] for width in (60, 48, 36, 28, 24)}
    assert by_width[60] == "           #100  13:30–16:00 (10:30–13:00 venue)  poster"
    assert by_width[48] == "           #100  13:30–16:00 (10:30–13:00 venue)"  # the kind first
    assert by_width[36] == "           #100  13:30–16:00"  # then the venue's time, whole
    assert by_width[28] == "           #100  13:30–16:00"  # the poster kept (40 columns' plan)
    assert by_width[24] == "           13:30–16:00"
    assert _lines(events, "UTC", 20)[4] == "           13:30–16…"


def test_when_and_where_names_the_end_day_of_an_event_over_days() -> None:
    event = _event("1", "2026-04-23T09:00:00-03:00", "2026-04-26T18:00:00-03:00")
    assert "Thursday 2026-04-23 09:00–Sun 18:00 (UTC-03:00)" in event.when_and_where()
