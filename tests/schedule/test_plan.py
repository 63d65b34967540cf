"""The plan: chosen papers' events in walking order, clashes, zones; ``paperdeck plan`` as text,
JSON and an iCalendar file read back with ``icalendar``."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from paperdeck.reading.plan import ZoneError, build_plan, time_zone
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SAFETY_NAME, fixture, run

PROGRAMME = "iclr-2026-orals-posters.json"
#: In the fixture (made-up times): three posters of Poster Session 1 (#107, #101, #102 starred in
#: another order), one of Poster Session 2 (15:00-17:30) and an oral of Oral Session 2A (16:00-17:00).
ONE_SESSION = ("openreview:tz9mJmgrdM", "openreview:sbEb0Ld6MK", "openreview:4KVeb0Vv13")
CLASHING = ("openreview:BV4oHxGBx7", "openreview:0cmuYj3WeG")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME), fixture(PROGRAMME)])
    for paper_id in (*ONE_SESSION, CLASHING[0]):
        store.set_star(paper_id, True)
    store.set_status(CLASHING[1], "to-read")
    store.set_note(ONE_SESSION[0], "ask about \x1b[31m the baseline")
    return store.data_dir


def _plan(data_dir: Path, zone: str = "America/Sao_Paulo"):  # type: ignore[no-untyped-def]
    store = Store(data_dir)
    tz, name = time_zone(zone)
    return build_plan({p.id: p for p in store.papers}, store.events_by_paper(), store.all_user_data, tz, name)


def test_the_plan_walks_a_session_by_poster_position_and_flags_the_clash(data_dir: Path) -> None:
    plan = _plan(data_dir)
    assert [(i.event.session, i.event.poster) for i in plan.items] == [
        ("Poster Session 1", "#101"), ("Poster Session 1", "#102"), ("Poster Session 1", "#107"),
        ("Poster Session 2", "#108"), ("Poster Session 2", "#109"), ("Oral Session 2A", ""),
    ]  # fmt: skip
    clashing = {item.uid: item.clashes for item in plan.items if item.clashes}
    # the poster of BV4o (Session 2) and PALC's oral overlap; PALC's own poster and oral are one paper
    assert clashing == {
        "openreview:BV4oHxGBx7/40008": ("openreview:0cmuYj3WeG/40020",),
        "openreview:0cmuYj3WeG/40020": ("openreview:BV4oHxGBx7/40008",),
    }
    assert plan.chosen == 5 and plan.without_events == 0 and plan.clashes == 2


def test_an_unknown_zone_is_one_line() -> None:
    with pytest.raises(ZoneError) as caught:
        time_zone("Mars/Olympus_Mons")
    assert "\n" not in str(caught.value) and "unknown time zone" in str(caught.value)
    with pytest.raises(ZoneError, match="empty time zone name"):  # found by trying: --tz '' was UTC
        time_zone("  ")


def test_plan_prints_times_in_my_zone_with_the_venues_beside(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--data-dir", str(data_dir), "plan", "--tz", "Europe/Paris")
    assert code == 0
    assert "Thursday 2026-04-23 (the venue's day) · ICLR 2026" in out
    assert "\n  Poster Session 1 · Hall 3\n           #101  15:30–18:00 (10:30–13:00 venue)  poster\n" in out
    assert "\n  ⚠ clash  #108  20:00–22:30 (15:00–17:30 venue)  poster\n" in out
    assert out.count("⚠ clash") == 2
    # Every event's text starts in one column, clashing or not (the clash was 7 cells further in).
    events = [line for line in out.splitlines() if "venue)" in line]
    assert events and all(line[:11] in ("  ⚠ clash  ", " " * 11) and line[11] != " " for line in events), events
    titles = [line for line in out.splitlines() if line.startswith(" " * 13) and line.strip()]
    assert titles and all(line.index(line.strip()) == 13 for line in titles)
    # found by trying the product: in Tokyo the 10:30 (UTC-03:00) poster is on the next day there,
    # under the venue's Thursday: the line says which day it is in the user's zone, in one
    # notation (the fifteenth round's tester saw "(+1 day)" beside "Fri 04-24" in one plan)
    code, out, _ = run(capsys, "--data-dir", str(data_dir), "plan", "--tz", "Asia/Tokyo")
    assert code == 0 and "#101  22:30–Fri 01:00 (10:30–13:00 venue)" in out
    assert "#108  Fri 03:00–05:30 (15:00–17:30 venue)" in out
    assert "+1 day" not in out and "04-24 (" not in out
    code, out, err = run(capsys, "--data-dir", str(data_dir), "plan", "--tz", "Nowhere/Atlantis")
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown time zone" in err
    code, out, _ = run(capsys, "--data-dir", str(data_dir), "plan", "--json", "--tz", "UTC")
    data = json.loads(out)
    assert data["zone"] == "UTC" and len(data["events"]) == 6
    first = data["events"][0]
    assert (first["start"], first["start_local"]) == ("2026-04-23T10:30:00-03:00", "2026-04-23T13:30:00+00:00")
    assert (first["venue"], first["year"]) == ("ICLR 2026", 2026)  # named as show --json names it


def test_the_calendar_is_read_back_with_events_times_uids_and_is_stable(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from icalendar import Calendar

    ics = tmp_path / "plan.ics"
    code, out, _ = run(capsys, "--data-dir", str(data_dir), "plan", "--ics", str(ics))
    assert code == 0 and "6 events written" in out
    events = Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert len(events) == 6
    first = events[0]
    assert first["dtstart"].dt == datetime.fromisoformat("2026-04-23T10:30:00-03:00")
    assert first["dtend"].dt == datetime.fromisoformat("2026-04-23T13:00:00-03:00")
    assert str(first["location"]) == "Hall 3, poster #101"
    assert str(first["summary"]).startswith("Poster: Fairness via Independence")
    note_event = next(e for e in events if "baseline" in str(e.get("description", "")))
    assert "\x1b" not in str(note_event["description"])  # the note went through the sanitiser
    assert "https://openreview.net/forum?id=tz9mJmgrdM" in str(note_event["description"])
    uids = [str(e["uid"]) for e in events]
    assert len(set(uids)) == 6
    # the clash is there to see: the two overlapping events
    oral = next(e for e in events if str(e["summary"]).startswith("Oral:"))
    poster = next(e for e in events if "Session 2" in str(e["description"]) and e is not oral)
    assert oral["dtstart"].dt < poster["dtend"].dt and poster["dtstart"].dt < oral["dtend"].dt
    run(capsys, "--data-dir", str(data_dir), "plan", "--ics", str(ics))  # again: the same UIDs
    assert [str(e["uid"]) for e in Calendar.from_ical(ics.read_bytes()).walk("VEVENT")] == uids


def test_export_writes_the_plan_s_calendar_and_keeps_the_file_for_no_event(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``export -o FILE.ics`` writes the events ``plan --ics`` writes; selecting papers none of
    which is starred or to-read with an event writes nothing: the file is kept, one line, status 1."""
    from icalendar import Calendar

    exported, planned = tmp_path / "export.ics", tmp_path / "plan.ics"
    code, out, err = run(capsys, "--data-dir", str(data_dir), "export", "-o", str(exported))
    assert code == 0 and out.startswith(f"wrote 6 events to {exported} (ics)"), err
    assert run(capsys, "--data-dir", str(data_dir), "plan", "--ics", str(planned))[0] == 0
    uids = [[str(e["uid"]) for e in Calendar.from_ical(f.read_bytes()).walk("VEVENT")] for f in (exported, planned)]
    assert uids[0] == uids[1] and len(uids[0]) == 6
    before = exported.read_bytes()
    code, out, err = run(capsys, "--data-dir", str(data_dir), "export", "-is:starred -status:to-read",
                         "-o", str(exported))  # fmt: skip
    assert (code, out) == (1, "") and err.count("\n") == 1
    assert f"nothing written ({exported} left as it was)" in err and exported.read_bytes() == before


def test_the_system_zone_is_its_rules_not_todays_offset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", ":Europe/Paris")
    zone, name = time_zone(None)
    assert name == "Europe/Paris"
    # in April Paris is UTC+2, whatever the offset on the day the plan is made
    assert datetime.fromisoformat("2026-04-23T10:30:00-03:00").astimezone(zone).hour == 15


def test_hostile_programme_text_reaches_no_output_raw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A session, room and title with terminal escapes and a line break that would start a new
    calendar event: shown as visible pictures in the plan, one line, and one event in the .ics."""
    from icalendar import Calendar

    title = "Evil\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:pwned \x1b[31mred"
    store = _one_starred_poster(tmp_path, "EvilEvil01", title, "S \x1b]52;c;aGk=\x07", "R\u202e")
    store.set_note("openreview:EvilEvil01", "line one\nEND:VCALENDAR \x1b[2J")
    ics = tmp_path / "plan.ics"
    code, out, _ = run(capsys, "--data-dir", str(store.data_dir), "plan", "--ics", str(ics))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "␛]52;c;aGk=␇" in out
    events = Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert len(events) == 1
    assert "\x1b" not in ics.read_text() and "\u202e" not in ics.read_text()
    assert "pwned" in str(events[0]["summary"])  # kept as text of the one event's summary


def test_the_calendar_writes_a_title_as_the_plan_shows_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """LaTeX in a title is rendered in the event's summary as in the plan and the app, not raw."""
    from icalendar import Calendar

    title = "(Token-Level) \\textbf{InfoRMIA}: bounds in $\\ell_1$"
    store = _one_starred_poster(tmp_path, "InfoInfo01", title, "Poster Session 1", "Hall 3")
    ics = tmp_path / "plan.ics"
    code, out, _ = run(capsys, "--data-dir", str(store.data_dir), "plan", "--ics", str(ics))
    assert code == 0 and "(Token-Level) InfoRMIA: bounds in ℓ₁" in out
    (event,) = Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert str(event["summary"]) == "Poster: (Token-Level) InfoRMIA: bounds in ℓ₁"


def _one_starred_poster(tmp_path: Path, forum: str, title: str, session: str, room: str) -> Store:
    """A store of one ICLR 2026 paper (OpenReview forum ``forum``, ``title``), starred, with a
    programme of its one poster in ``session`` and ``room``."""
    from paperdeck.model.paper import Paper

    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"openreview:{forum}", title=title, abstract="a" * 200, venue="ICLR", year=2026,
                               openreview_id=forum)])  # fmt: skip
    page = tmp_path / "iclr-2026-orals-posters.json"
    page.write_text(json.dumps({"count": 1, "results": [{
        "id": 1, "name": "x", "eventtype": "Poster", "session": session, "room_name": room,
        "starttime": "2026-04-23T10:00:00-03:00", "endtime": "2026-04-23T11:00:00-03:00",
        "paper_url": f"https://openreview.net/forum?id={forum}"}]}))  # fmt: skip
    import_files(store, [page])
    store.set_star(f"openreview:{forum}", True)
    return store


def test_nothing_to_plan_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME), fixture(PROGRAMME)])
    store.set_star("openreview:yWwrgcBoK3", True)  # accepted, not in the made-up programme
    code, out, _ = run(capsys, "--data-dir", str(store.data_dir), "plan")
    assert code == 0 and "Nothing to plan" in out and "1 chosen paper without an event" in out


@pytest.mark.parametrize("width", [80, 200])
def test_sessions_without_a_time_read_well_at_any_width(tmp_path: Path, width: int) -> None:
    """CVPR 2019's Paper Copilot list names each paper's session, no time: under "Without a
    time", each session's papers, not a line of "no time  session" (said twice already)."""
    from paperdeck.reading.plan import plan_lines

    store = Store(tmp_path / "data")
    import_files(store, [fixture("papercopilot_cvpr2019.json")])
    chosen = store.paper_ids[:3]
    for paper_id in chosen:
        store.set_star(paper_id, True)
    tz, name = time_zone("UTC")
    plan = build_plan({p.id: p for p in store.papers}, store.events_by_paper(), store.all_user_data, tz, name)
    lines = plan_lines(plan, width)
    assert lines[2] == "Without a time · CVPR 2019"
    body = lines[3:]
    assert not any("no time" in line or line.strip() == "session" for line in body), body
    assert not any("  " in line.strip() for line in body), "no double space inside a line"
    assert len(body) == 2 * len(chosen) and all(len(line) <= width for line in lines)
    sessions, titles = body[0::2], body[1::2]
    assert all(line.startswith("  ") and not line.startswith("   ") for line in sessions)
    wanted = {store.paper(pid).title for pid in chosen}  # type: ignore[union-attr]
    # a title too long for the line is cut with an ellipsis, as the list cuts it
    assert all(any(title.startswith(line.strip().removesuffix("…")) for title in wanted) for line in titles), titles
    assert all(line.strip() in wanted or line.endswith("…") for line in titles), titles
