"""A store opened for a command (``user_records=False``) reads and checks every user shard at once
but makes only the records asked for: what it answers and writes is what a store that made them
all answers and writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper, UserData
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, UserStore, doc_id_for

FIXED_TIME = "2026-11-29T12:00:00+00:00"
PAPERS = [Paper(id=f"abs:{n:016x}", title=f"Paper {n}", abstract=f"Abstract {n}.") for n in range(300)]


def shard_number(paper_id: str) -> int:
    return doc_id_for(paper_id) % SHARDS


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A store of 300 papers, every third starred, every fifth noted, every seventh to-read."""
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(PAPERS)
    ids = [p.id for p in PAPERS]
    store.change(ids[::3], lambda r: UserData(r.paper_id, starred=True))
    for pid in ids[::5]:
        store.set_note(pid, f"note on {pid}")
    for pid in ids[::7]:
        store.set_status(pid, "to-read")
    return tmp_path / "data"


def lazy_store(data_dir: Path) -> Store:
    return Store(data_dir, now=lambda: FIXED_TIME, lazy=True, rows=False, user_records=False)


def test_a_lazy_store_answers_as_an_eager_one(data_dir: Path) -> None:
    eager, lazy = Store(data_dir), lazy_store(data_dir)
    for paper in PAPERS:
        assert lazy.user_data(paper.id) == eager.user_data(paper.id)
    assert lazy_store(data_dir).all_user_data == eager.all_user_data
    assert lazy_store(data_dir).user_counts() == eager.user_counts()
    assert lazy_store(data_dir).all_tags == eager.all_tags


def test_asking_for_one_record_makes_only_that_record(data_dir: Path) -> None:
    user = UserStore(data_dir / "user", lambda: FIXED_TIME, {}, lambda data, path: None, lazy=True)
    assert user._records == {}  # read and checked, nothing made
    wanted = PAPERS[3].id
    assert user.get(wanted).starred
    assert user.get(wanted) is user.get(wanted)  # made once
    assert user._records == {} and shard_number(wanted) in user._unmade
    assert set(user._alone[shard_number(wanted)][1]) == {wanted}
    assert user.get(PAPERS[1].id) == UserData(PAPERS[1].id)  # nothing said about it
    eager = Store(data_dir)
    assert user.get(wanted) == eager.user_data(wanted)
    assert user.records == eager.all_user_data  # every record, once all are asked for
    assert not user._unmade and not user._alone


def test_a_record_made_alone_is_the_one_making_its_shard_keeps(data_dir: Path) -> None:
    """Two documents of one paper in a shard (the later one worth keeping wins, an empty one does
    not), a paper id that is not text: the record made alone is what making the shard gives."""
    target = PAPERS[3].id  # starred
    path = data_dir / "user" / f"{shard_number(target):02x}.json"
    data = json.loads(path.read_bytes())
    table = data["user"]
    doc = next(d for d in table.values() if d["paper_id"] == target)
    table["1"] = {**doc, "starred": False, "note": "", "status": "unseen", "tags": []}  # empty: not kept
    table["2"] = {**doc, "note": "the later one"}
    number = next(n for n in range(10_000) if shard_number(str(n)) == shard_number(target))  # in this shard
    table["3"] = {**doc, "paper_id": number, "note": "an id given as a number"}
    path.write_text(json.dumps(data), "utf-8")
    eager = Store(data_dir)
    assert eager.user_data(str(number)).note == "an id given as a number"
    for pid in (target, str(number), "openreview:none"):
        assert lazy_store(data_dir).user_data(pid) == eager.user_data(pid)
    assert eager.user_data(target).note == "the later one"


def test_a_write_through_a_lazy_store_keeps_the_other_records_of_its_shard(data_dir: Path) -> None:
    eager = Store(data_dir)
    target = PAPERS[3].id  # starred
    neighbours = [p.id for p in PAPERS if shard_number(p.id) == shard_number(target) and p.id != target]
    assert eager.user_data(target).starred and neighbours
    lazy = lazy_store(data_dir)
    lazy.set_star(target, False)  # its shard not read before: the record as read at open is stale
    assert not lazy.user_data(target).starred
    for pid in neighbours:
        assert lazy.user_data(pid) == eager.user_data(pid)
    expected = {pid: record for pid, record in eager.all_user_data.items() if pid != target}  # an empty record goes
    assert lazy.all_user_data == expected == Store(data_dir).all_user_data
    lazy.set_star(target, True)
    assert lazy_store(data_dir).user_data(target).starred and lazy.user_data(target).starred


def test_records_only_making_says_are_good_are_made_at_once_as_before(data_dir: Path) -> None:
    """Documents the quick check does not vouch for (a status of 0, tags as a string) are made at
    open: they are records all the same, as an eager store makes them."""
    path = data_dir / "user" / f"{shard_number(PAPERS[0].id):02x}.json"
    data = json.loads(path.read_bytes())
    doc = next(iter(data["user"].values()))
    doc["status"], doc["tags"] = 0, "ab"
    path.write_text(json.dumps(data), "utf-8")
    eager = Store(data_dir)
    assert eager.user_data(doc["paper_id"]).tags == ("a", "b")
    assert lazy_store(data_dir).all_user_data == eager.all_user_data


@pytest.mark.parametrize("status", ["nonsense", ["to-read"], 7])
def test_a_malformed_record_in_a_shard_not_asked_for_still_refuses_the_store(data_dir: Path, status: object) -> None:
    asked = PAPERS[0].id
    other = next(p.id for p in PAPERS if shard_number(p.id) != shard_number(asked))
    path = data_dir / "user" / f"{shard_number(other):02x}.json"
    data = json.loads(path.read_bytes())
    next(iter(data["user"].values()))["status"] = status
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(StoreError) as eager:
        Store(data_dir)
    with pytest.raises(StoreError) as lazy:
        lazy_store(data_dir)
    assert str(lazy.value) == str(eager.value) and str(path) in str(lazy.value)


def test_the_notes_of_a_lazy_store_are_an_eager_ones_without_making_a_record(data_dir: Path) -> None:
    path = data_dir / "user" / f"{shard_number(PAPERS[0].id):02x}.json"
    data = json.loads(path.read_bytes())
    odd = next(iter(data["user"].values()))
    odd["note"] = 5  # not text: made as "5"
    path.write_text(json.dumps(data), "utf-8")
    eager = Store(data_dir)
    expected = {pid: record.note for pid, record in eager.all_user_data.items() if record.note}
    assert expected[odd["paper_id"]] == "5" and len(expected) == 60
    lazy = lazy_store(data_dir)
    asked = PAPERS[5].id  # noted: its shard's records made first
    assert lazy.user_data(asked).note == f"note on {asked}"
    assert lazy.user_notes == expected == eager.user_notes
    assert set(lazy._user._records) == {pid for pid in lazy._user._records if shard_number(pid) == shard_number(asked)}


def test_a_papers_shard_is_the_same_whichever_sha256_hashes_its_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """The document id is the first 52 bits of hashlib's SHA-256 of the id, at the first id
    hashed (the import made then) as at any later one."""
    import hashlib

    from paperdeck.store import user_data

    ids = [f"openreview:{n:08d}" for n in range(50)] + ["abs:ünïcode", ""]
    expected = [int(hashlib.sha256(pid.encode("utf-8")).hexdigest()[:13], 16) for pid in ids]
    monkeypatch.setattr(user_data, "_sha256", None)
    assert [doc_id_for(pid) for pid in ids] == expected
    assert [doc_id_for(pid) for pid in ids] == expected


def _edit_shard_of(data_dir: Path, paper_id: str, change: object) -> None:
    """Apply ``change`` (a callable taking the shard's "user" table) to the shard of ``paper_id``."""
    path = data_dir / "user" / f"{shard_number(paper_id):02x}.json"
    data = json.loads(path.read_bytes())
    change(data["user"])  # type: ignore[operator]
    path.write_text(json.dumps(data), "utf-8")


def test_the_counts_of_a_lazy_store_are_an_eager_ones_without_making_a_record(data_dir: Path) -> None:
    """Counted from the documents: a record with nothing in it is not counted, whatever says so
    (a note, tags, a status, a time it was opened, a star of any true value)."""
    ids = [p.id for p in PAPERS]
    kinds = {
        ids[1]: {"starred": False, "note": "", "status": "", "tags": []},  # empty: not kept
        ids[2]: {"starred": False, "note": "", "status": None, "tags": None, "looked": ""},  # empty
        ids[4]: {"starred": False, "tags": ["x"]},
        ids[8]: {"starred": False, "looked": "2026-11-29T12:00:00+00:00"},
        ids[11]: {"starred": False, "status": "read"},
        ids[13]: {"starred": 1},
        ids[16]: {"starred": False, "note": 5},
    }
    for paper_id, fields in kinds.items():

        def change(table: dict[str, dict[str, object]], paper_id: str = paper_id, fields: dict = fields) -> None:
            table[str(doc_id_for(paper_id))] = {"paper_id": paper_id, **fields}

        _edit_shard_of(data_dir, paper_id, change)
    eager = Store(data_dir)
    lazy = lazy_store(data_dir)
    assert lazy.user_counts() == eager.user_counts()
    assert lazy._user._records == {}  # nothing made to count them
    assert lazy.user_data(ids[4]).tags == ("x",) and lazy.user_counts() == eager.user_counts()
    assert lazy.all_user_data == eager.all_user_data and lazy.user_counts() == eager.user_counts()


def test_the_counts_of_a_lazy_store_with_two_documents_of_one_paper_make_the_records(data_dir: Path) -> None:
    """Only making the records says which of two documents of one paper is kept: the counts make
    them, then count them as an eager store does."""
    target = PAPERS[3].id  # starred, in its own shard
    other_shard = next(p.id for p in PAPERS if shard_number(p.id) != shard_number(target))

    def change(table: dict[str, dict[str, object]]) -> None:
        table["1"] = {"paper_id": target, "starred": False, "status": "read"}

    _edit_shard_of(data_dir, other_shard, change)
    eager = Store(data_dir)
    lazy = lazy_store(data_dir)
    assert lazy.user_counts() == eager.user_counts()
    assert not lazy._user._unmade  # made to be counted
    assert lazy.user_data(target) == eager.user_data(target)


def test_a_record_made_alone_is_the_one_its_shard_gives_after_a_write(data_dir: Path) -> None:
    """A write makes the shard's records (its record read again from disk): the record made alone
    before is not given again."""
    target = PAPERS[3].id
    lazy = lazy_store(data_dir)
    assert lazy.user_data(target).starred  # made alone
    lazy.set_star(target, False)
    assert not lazy.user_data(target).starred
    assert shard_number(target) not in lazy._user._unmade and shard_number(target) not in lazy._user._alone
