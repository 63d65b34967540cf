"""The programme's query terms: ``session:``, ``room:``, ``day:`` and ``time:`` (the venue's days
and times), and their one-line hints."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.search.query import parse_query
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SAFETY_NAME, fixture, run


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = Store(tmp_path_factory.mktemp("schedule") / "data")
    import_files(store, [fixture(SAFETY_NAME), fixture("iclr-2026-orals-posters.json")])
    return store.data_dir


def _ids(capsys: pytest.CaptureFixture[str], data_dir: Path, query: str) -> set[str]:
    code, out, err = run(capsys, "--data-dir", str(data_dir), "search", query, "--limit", "0", "--json")
    assert code == 0, err
    import json

    return {paper["id"] for paper in json.loads(out)}


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ('session:"poster session 1"', 8),  # the title-joined papers too
        ("session:oral", 1),
        ("room:amphi", 1),
        ("room:#119", 1),
        ("day:thu", 13),  # sessions 1, 2 and the oral
        ("day:thursday", 13),
        ("day:2026-04-24", 7),
        ("day:04-25", 1),  # the poster across midnight is on both days
        ("day:fri day:sat", 1),
        ("time:16..17", 5),  # session 2's posters and the oral
        ("time:23:30", 2),
        ("time:..10:30", 1),  # only the night poster, running past midnight
        ("time:13..15", 0),  # between the sessions: ends and starts touch, no overlap
        ("-day:thu", 34),
    ],
)
def test_schedule_terms_keep_the_papers_with_a_matching_event(
    query: str, count: int, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(_ids(capsys, data_dir, query)) == count


def test_a_time_range_past_midnight_is_the_night(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fifteenth round's tester: ``time:22..2`` answered ``try time:2..22``, the day, the
    opposite of the night session it meant: it is 22:00 to 02:00, the events running then."""
    night = _ids(capsys, data_dir, "time:22..2")
    assert night and night == _ids(capsys, data_dir, "time:22..") | _ids(capsys, data_dir, "time:..2")
    assert night != _ids(capsys, data_dir, "time:2..22")
    assert parse_query("time:22..2").error is None
    from paperdeck.search.query_fields import FIELDS

    assert "`time:22..2` 22:00 to 02:00" in next(f for f in FIELDS if f.name == "time").help  # in docs/query.md


@pytest.mark.parametrize(
    ("query", "hint"),
    [
        ("day:xyz", "day needs a weekday or a date"),
        ("day:2026-13-01", "day needs a weekday or a date"),
        ("time:25", "time needs a time or a range"),
        ("time:12..12", "time:12..12 is no range: give two different times"),
        ("session:", "needs a value"),
    ],
)
def test_a_bad_value_is_a_one_line_hint(query: str, hint: str) -> None:
    error = parse_query(query).error
    assert error is not None and hint in error and "\n" not in error


#: Made-up rooms and poster positions for the first events of the programme fixture: the room
#: "Pavilion 4" with poster numbers that a phrase running from the room into them would find.
_ROOMS = (
    ("Pavilion 4", "#5"),
    ("Pavilion 4", "#512"),
    ("Pavilion 4 & 5", "#101"),
    ("Pavilion 4-5", "#102"),
    ("Pavilion 4/5", "#103"),
    ("Pavilion 45", "#104"),
    ("Pavilion 5", "#4"),
)


@pytest.fixture(scope="module")
def rooms_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import json

    folder = tmp_path_factory.mktemp("rooms")
    programme = json.loads(fixture("iclr-2026-orals-posters.json").read_bytes())
    for event, (room, poster) in zip(programme["results"], _ROOMS, strict=False):
        event["room_name"], event["poster_position"] = room, poster
    made = folder / "iclr-2026-orals-posters.json"
    made.write_text(json.dumps(programme), "utf-8")
    store = Store(folder / "data")
    import_files(store, [fixture(SAFETY_NAME), made])
    return store.data_dir


def _in_rooms(store_dir: Path, *rooms: str) -> set[str]:
    """The papers with an event in one of ``rooms`` (as :data:`_ROOMS` names them)."""
    store = Store(store_dir)
    return {pid for pid, events in store.events_by_paper().items() if any(e.room in rooms for e in events)}


@pytest.mark.parametrize("typed", ["Pavilion 4 & 5", "Pavilion 4-5", "Pavilion 4/5", "pavilion 4 - 5"])
def test_a_room_phrase_matches_the_whole_phrase_not_the_room_and_its_poster(
    typed: str, rooms_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A phrase is found within the room, or within the poster position, never from one into the
    other: "Pavilion 4" at poster "#5" (or "#512") is no room "Pavilion 4 & 5"."""
    whole = _in_rooms(rooms_dir, "Pavilion 4 & 5", "Pavilion 4-5", "Pavilion 4/5")
    assert len(whole) == 3 and not whole & _in_rooms(rooms_dir, "Pavilion 4")
    assert _ids(capsys, rooms_dir, f'room:"{typed}"') == whole
    assert _ids(capsys, rooms_dir, f'room:"{typed}" OR room:"Pavilion 45"') == whole | _in_rooms(
        rooms_dir, "Pavilion 45"
    )
    # the last word is a word's start, as ever: "Pavilion 4" finds "Pavilion 45"
    assert _ids(capsys, rooms_dir, 'room:"Pavilion 4"') == whole | _in_rooms(rooms_dir, "Pavilion 4", "Pavilion 45")
    assert len(_ids(capsys, rooms_dir, "room:#5")) == 2  # the poster position alone is still found
