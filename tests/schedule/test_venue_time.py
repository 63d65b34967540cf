"""A programme row given in UTC (``…Z``) keeps the venue's local time: the thirteenth round's
tester starred a paper whose oral was ``"2026-04-24T13:00:00Z"`` among rows at ``-03:00`` (ICLR
2026, Rio de Janeiro) and ``paperdeck plan --tz Asia/Tokyo`` said ``(13:00–13:15 venue)``, ``--tz
UTC`` dropped the venue's time; it is 10:00 there. The iCalendar file stays in UTC."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.schedule import ScheduleEvent
from paperdeck.sources.importer import import_files
from paperdeck.sources.miniconf import in_venue_time
from paperdeck.store.store import Store

from tests.helpers import SAFETY_NAME, fixture, run

PAPER = "openreview:sWs0cCuM8I"


def _programme(tmp_path: Path) -> Path:
    """The fixture programme with the paper's poster given in UTC, as the tester's file had a row."""
    page = json.loads(fixture("iclr-2026-orals-posters.json").read_text("utf-8"))
    row = next(r for r in page["results"] if r.get("paper_url", "").endswith("sWs0cCuM8I"))
    assert row["starttime"] == "2026-04-23T10:30:00-03:00"
    row["starttime"], row["endtime"] = "2026-04-23T13:30:00Z", "2026-04-23T16:00:00+00:00"
    path = tmp_path / "iclr-2026-orals-posters.json"
    path.write_text(json.dumps(page), "utf-8")
    return path


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME), _programme(tmp_path)])
    store.set_star(PAPER, True)
    return store.data_dir


@pytest.mark.parametrize(("zone", "shown"), [("UTC", "13:30–16:00 (10:30–13:00 venue)"),
                                             ("Asia/Tokyo", "22:30–Fri 01:00 (10:30–13:00 venue)"),
                                             ("America/Sao_Paulo", "10:30–13:00  poster")])  # fmt: skip
def test_a_row_given_in_utc_shows_the_venues_time_beside_yours(
    data_dir: Path, capsys: pytest.CaptureFixture[str], zone: str, shown: str
) -> None:
    code, out, err = run(capsys, "plan", "--data-dir", str(data_dir), "--tz", zone)
    assert code == 0, err
    assert shown in out, out
    assert "venue)" in out or zone == "America/Sao_Paulo"


def test_the_calendar_keeps_the_same_instant_in_utc(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ics = tmp_path / "plan.ics"
    code, _, err = run(capsys, "plan", "--data-dir", str(data_dir), "--ics", str(ics))
    assert code == 0, err
    text = ics.read_text("utf-8")
    assert "DTSTART:20260423T133000Z" in text and "DTEND:20260423T160000Z" in text


def _event(start: str, end: str = "") -> ScheduleEvent:
    return ScheduleEvent(event_id=start, kind="oral", session="", room="", poster="", start=start, end=end,
                         venue="ICLR", year=2026, forum_id="", title="t", related=(), link="")  # fmt: skip


def test_the_venues_offset_is_the_one_of_the_same_day_else_the_programmes() -> None:
    events = [
        _event("2026-03-28T10:00:00+01:00"),  # winter time in Europe
        _event("2026-03-29T10:00:00+02:00", "2026-03-29T11:00:00+02:00"),  # summer time from that day
        _event("2026-03-29T13:00:00Z", "2026-03-29T13:15:00Z"),
        _event("2026-03-30T09:00:00Z"),  # no other row that day: the programme's most common offset
        _event("2026-03-31T09:00:00+05:30"),  # an offset given is kept
    ]
    moved = [(e.start, e.end) for e in in_venue_time(events)]
    assert moved[2] == ("2026-03-29T15:00:00+02:00", "2026-03-29T15:15:00+02:00")
    assert moved[3] == ("2026-03-30T11:00:00+02:00", "")
    assert moved[4] == (events[4].start, "") and moved[:2] == [(e.start, e.end) for e in events[:2]]


def test_a_programme_all_in_utc_stays_in_utc() -> None:
    events = [_event("2026-04-23T13:00:00+00:00"), _event("2026-04-24T13:00:00+00:00")]
    assert in_venue_time(events) == tuple(events)
