"""A programme file read and joined to the catalogue's papers: the fixture's rows, the bad rows,
the store's file, a re-import, and CVPR's sessions."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.schedule import ScheduleEvent, parse_offset_time
from paperdeck.sources import detect_format, read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.schedule import SCHEDULE_FILE
from paperdeck.store.store import Store

from tests.helpers import SAFETY_NAME, fixture

PROGRAMME = "iclr-2026-orals-posters.json"


def _page(
    tmp_path: Path, rows: list[object], name: str = "iclr-2026-orals-posters.json", count: int | None = None
) -> Path:
    path = tmp_path / name
    path.write_bytes(orjson.dumps({"count": len(rows) if count is None else count, "results": rows}))
    return path


def _row(n: int, **fields: object) -> dict[str, object]:
    return {"id": n, "name": f"Paper {n}", "eventtype": "Poster", "session": "S",
            "starttime": "2026-04-23T10:00:00-03:00", "endtime": "2026-04-23T12:00:00-03:00", **fields}  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME)])
    return store


def test_the_fixture_is_detected_and_read_as_events_with_each_bad_row_counted() -> None:
    path = fixture(PROGRAMME)
    assert detect_format(path) == "schedule"
    read = read_source(path)
    assert read.papers == () and len(read.events) == 22
    assert [skip.reason for skip in read.skipped] == [
        "workshop", "not visible", "placeholder", "duplicate event (40003)", "time without an offset",
        "ends before it starts", "another year (2025)",
    ]  # fmt: skip
    night = next(e for e in read.events if e.event_id == "40019")
    assert night.days() == ("2026-04-24", "2026-04-25")  # across midnight: two days
    assert {e.venue for e in read.events} == {"ICLR"} and {e.year for e in read.events} == {2026}


def test_import_joins_by_forum_then_title_never_makes_a_paper_and_lists_the_unmatched(store: Store) -> None:
    before = len(store.papers)
    summary = import_files(store, [fixture(PROGRAMME)])
    assert summary.new == 0 and len(store.papers) == before
    assert summary.schedule is not None
    assert (summary.schedule.events, summary.schedule.papers) == (21, 20)
    assert [e.title for e in summary.schedule.unmatched] == ["A Made-Up Paper That No Catalogue Holds"]
    events = store.events_by_paper()
    # paper 5 of the fixture has no forum link: joined by its title
    assert [e.session for e in events["openreview:Us00XndbVi"]] == ["Poster Session 1"]
    # one paper, its poster and its oral: two events, in time order
    assert [e.kind for e in events["openreview:0cmuYj3WeG"]] == ["poster", "oral"]
    data = orjson.loads((store.data_dir / SCHEDULE_FILE).read_bytes())
    assert data["meta"]["1"]["app"] == "paperdeck" and len(data["events"]) == 21


def test_importing_the_programme_again_updates_it_instead_of_adding(store: Store, tmp_path: Path) -> None:
    import_files(store, [fixture(PROGRAMME)])
    import_files(store, [fixture(PROGRAMME)])
    assert sum(len(v) for v in store.events_by_paper().values()) == 21
    moved = orjson.loads(fixture(PROGRAMME).read_bytes())
    moved["results"] = moved["results"][:3]
    moved["results"][0]["room_name"] = "Hall 9"
    path = tmp_path / PROGRAMME
    path.write_bytes(orjson.dumps(moved))
    summary = import_files(store, [path])
    assert summary.schedule is not None and summary.schedule.removed == 18
    assert [e.room for e in store.events_by_paper()["openreview:sWs0cCuM8I"]] == ["Hall 9"]


def test_a_programme_with_no_matching_paper_stores_nothing_and_says_so(store: Store, tmp_path: Path) -> None:
    summary = import_files(store, [_page(tmp_path, [_row(1), _row(2)])])
    assert summary.schedule is not None and summary.schedule.events == 0 and len(summary.schedule.unmatched) == 2
    assert store.events_by_paper() == {}


def test_count_zero_is_refused_saying_so(tmp_path: Path) -> None:
    """A programme of no event yet yields nothing to import: refused, as every such file is."""
    with pytest.raises(SourceError, match=r"the programme lists no events yet \(count 0\); nothing was imported"):
        read_source(_page(tmp_path, [], count=0))


def test_escaped_titles_are_undone_and_hostile_fields_skipped_or_kept_as_text(tmp_path: Path) -> None:
    rows = [
        _row(1, name="R&amp;amp;D for A &lt;b&gt;", authors=[{"fullname": "Jos&amp;eacute;"}]),
        _row(2, starttime=["not", "text"], endtime=None),  # a list where text belongs: no time
        _row(3, eventtype="Invited Talk"),
        _row(4, event_type="Workshop Poster", eventtype=None),
        "not an object",
        _row(5, starttime="yesterday"),
        _row(6, session="ICLR 2026 Workshop on Things"),
    ]
    read = read_source(_page(tmp_path, rows))
    assert [e.title for e in read.events] == ["R&D for A <b>", "Paper 2"]
    assert read.events[1].start == ""
    assert [s.reason for s in read.skipped] == [
        "not a paper's event (invited talk)", "workshop", "not an object (a string)",
        "not an ISO 8601 time", "workshop",
    ]  # fmt: skip


def test_not_a_page_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "iclr-2026-orals-posters.json"
    path.write_text('{"count": 3, "results": {"a": 1}}')
    with pytest.raises(SourceError) as caught:
        read_source(path, "schedule")
    assert "\n" not in str(caught.value) and "programme page" in str(caught.value)


def test_times_need_offsets_and_events_overlap_by_time() -> None:
    with pytest.raises(ValueError, match="without an offset"):
        parse_offset_time("2026-04-23T10:00:00")
    a = ScheduleEvent("1", start="2026-04-23T10:00:00-03:00", end="2026-04-23T12:00:00-03:00")
    b = ScheduleEvent("2", start="2026-04-23T14:30:00+00:00", end="2026-04-23T16:00:00+00:00")  # 11:30 there
    c = ScheduleEvent("3", start="2026-04-23T12:00:00-03:00", end="2026-04-23T13:00:00-03:00")
    assert a.overlaps(b) and b.overlaps(a) and not a.overlaps(c) and not ScheduleEvent("4").overlaps(a)
    assert ScheduleEvent.from_dict(a.to_dict()) == a


def test_cvpr_sessions_are_events_without_a_time(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    summary = import_files(store, [fixture("papercopilot_cvpr2019.json")])
    assert summary.schedule is not None and summary.schedule.papers == len(store.papers) == 8
    events = [e for evs in store.events_by_paper().values() for e in evs]
    assert {e.kind for e in events} == {"session"} and all(e.start == "" for e in events)
    first = store.papers[0]
    assert store.events_by_paper()[first.id][0].session == "Low-Level & Optimization"


def test_papers_and_programme_in_one_import_are_all_or_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paperdeck.model.errors import StoreError
    from paperdeck.store import schedule

    store = Store(tmp_path / "data")

    def full_disk(self: schedule.ScheduleStore, events: object) -> int:
        raise StoreError(self.path, "cannot write: No space left on device")

    monkeypatch.setattr(schedule.ScheduleStore, "replace_events", full_disk)
    with pytest.raises(StoreError, match="No space left"):
        import_files(store, [fixture(SAFETY_NAME), fixture(PROGRAMME)])
    reopened = Store(tmp_path / "data")
    assert reopened.papers == [] and reopened.events_by_paper() == {}  # the papers' write was not kept either
    monkeypatch.undo()
    import_files(reopened, [fixture(SAFETY_NAME), fixture(PROGRAMME)])
    assert len(Store(tmp_path / "data").events_by_paper()) == 20


def test_show_says_when_and_where(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run

    import_files(store, [fixture(PROGRAMME)])
    code, out, _ = run(capsys, "--data-dir", str(store.data_dir), "show", "0cmuYj3WeG")
    assert code == 0
    assert "when: Oral · Thursday 2026-04-23 16:00–17:00 (UTC-03:00) · Oral Session 2A · Amphitheater" in out
    code, out, _ = run(capsys, "--data-dir", str(store.data_dir), "show", "0cmuYj3WeG", "--json")
    import json

    assert [e["kind"] for e in json.loads(out)["events"]] == ["poster", "oral"]


def test_after_a_programme_alone_an_undo_takes_back_nothing(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run

    import_files(store, [fixture(PROGRAMME)])
    code, _, err = run(capsys, "--data-dir", str(store.data_dir), "import", "--undo")
    assert code != 0 and "nothing to undo" in err.casefold()
    assert len(Store(store.data_dir).papers) == 47  # the papers' import stays


def test_the_same_slot_under_another_id_is_a_duplicate(tmp_path: Path) -> None:
    forum = "https://openreview.net/forum?id=sWs0cCuM8I"
    rows = [_row(1, paper_url=forum), _row(2, paper_url=forum), _row(3, paper_url=forum, session="T")]
    read = read_source(_page(tmp_path, rows))
    assert [e.event_id for e in read.events] == ["1", "3"]
    assert [s.reason for s in read.skipped] == ["duplicate event (2)"]


def test_an_import_of_papers_and_their_programme_is_undone_both(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [fixture(SAFETY_NAME), fixture(PROGRAMME)])
    assert store.events_by_paper() and (store.data_dir / SCHEDULE_FILE).is_file()
    store.undo_last_change()
    reopened = Store(store.data_dir)
    assert reopened.papers == [] and reopened.events_by_paper() == {}
    assert not (store.data_dir / SCHEDULE_FILE).exists()  # as before the import: no programme


def test_an_undo_puts_back_the_programme_as_it_was_byte_for_byte(store: Store) -> None:
    import_files(store, [fixture(PROGRAMME)])
    before = (store.data_dir / SCHEDULE_FILE).read_bytes()
    events = store.events_by_paper()
    moved = [{**_row(1, name=store.papers[0].title), "starttime": "2026-04-25T10:00:00-03:00",
              "endtime": "2026-04-25T12:00:00-03:00"}]  # fmt: skip
    import_files(store, [fixture(SAFETY_NAME), _page(store.data_dir.parent, moved)])
    assert store.events_by_paper() != events  # the programme is replaced by the new one
    store.undo_last_change()
    assert (store.data_dir / SCHEDULE_FILE).read_bytes() == before
    assert Store(store.data_dir).events_by_paper() == events


def test_removed_papers_take_their_events_with_them_and_an_undo_brings_them_back(store: Store) -> None:
    import_files(store, [fixture(PROGRAMME)])
    events = store.events_by_paper()
    gone = next(iter(events))
    store.remove_papers([gone])
    reopened = Store(store.data_dir)
    assert gone not in reopened.events_by_paper()
    assert reopened.events_by_paper() == {pid: evs for pid, evs in events.items() if pid != gone}
    assert gone not in {e.paper_id for e in reopened.schedule.events()}
    reopened.undo_last_change()
    assert Store(store.data_dir).events_by_paper() == events


def test_an_undo_is_refused_when_the_programme_changed_since(store: Store) -> None:
    from paperdeck.model.errors import StoreError

    import_files(store, [fixture(PROGRAMME)])
    store.remove_papers([store.papers[0].id])
    path = store.data_dir / SCHEDULE_FILE
    path.write_bytes(path.read_bytes() + b" ")  # another process wrote the programme since
    with pytest.raises(StoreError, match="nothing was undone"):
        store.undo_last_change()
    assert len(Store(store.data_dir).papers) == 46


def test_a_paper_no_event_names_has_none_and_no_event_is_made(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    import_files(store, [fixture(PROGRAMME)])
    events = store.events_by_paper()
    reopened = Store(store.data_dir)
    assert reopened.event_papers() == frozenset(events)
    unnamed = next(paper.id for paper in reopened.papers if paper.id not in events)
    made: list[object] = []
    monkeypatch.setattr(ScheduleEvent, "from_dict", classmethod(lambda cls, doc: made.append(doc)))
    assert reopened.events_of(unnamed) == () and not reopened.has_events(unnamed)
    assert made == []  # the events were not made for it
    monkeypatch.undo()
    assert reopened.events_of("openreview:Us00XndbVi") == events["openreview:Us00XndbVi"]


def test_the_papers_events_name_are_read_again_when_the_file_changes(store: Store, tmp_path: Path) -> None:
    import_files(store, [fixture(PROGRAMME)])
    assert "openreview:sWs0cCuM8I" in store.event_papers()
    moved = orjson.loads(fixture(PROGRAMME).read_bytes())
    moved["results"] = moved["results"][:3]
    path = tmp_path / PROGRAMME
    path.write_bytes(orjson.dumps(moved))
    import_files(store, [path])
    assert store.event_papers() == frozenset(store.events_by_paper())
