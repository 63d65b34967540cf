"""Every user field follows its paper through every id change, in every import order.

Hypothesis draws an order of the real-file slices (:mod:`tests.shared_slices`: seeds,
ICLR 2026 dump, Parquet decisions, safety subset, CSV; Paper Copilot ICLR 2018, both 2018 BibTeX
files, author rows; files sharing nothing), splits it into import batches, and before each batch
writes user records of every kind (star, note, status, tags, all of them, one cleared again) on
papers present, and on ids a paper will only get later (as a restored backup or another
paperdeck may have written them: a seed's ``abs:`` id once it is an alias, a forum id not yet
imported). After each import, every record must sit under its paper's current id with every field
as written — records that met on one paper combined: starred if either was, every note, every tag,
a status one of them set, the earliest creation and the latest change time — no record may stay
under an alias, and a store opened again reads the same. The ``slow`` variant runs every order of the ICLR 2026 files
and of the ICLR 2018 files, with a record on every paper after every import.
"""

from __future__ import annotations

import itertools
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from paperdeck.model.paper import STATUSES, UserData
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.store.user_data import MARK_FIELDS, USER_FIELDS, apply_change, apply_change_told, combine_records

from tests.shared_slices import Slices, cut

TAGS = ("method", "baseline", "must-read", "ré-sumé")


@dataclass(frozen=True)
class World:
    slices: Slices
    #: Every id a paper has at some point in some order (current ids and aliases of a full import).
    ids: tuple[str, ...]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    slices = cut(tmp_path_factory.mktemp("slices"))
    store = Store(tmp_path_factory.mktemp("all") / "data")
    for path in slices.all:
        import_files(store, [path])
    return World(slices, tuple(sorted(set(store.paper_ids) | set(store.aliases))))


def mark(kind: int, salt: int) -> dict[str, object]:
    """The fields of a user record of kind ``kind`` (each kind sets other fields)."""
    status = STATUSES[1 + salt % (len(STATUSES) - 1)]
    tags = tuple(sorted({TAGS[salt % len(TAGS)], TAGS[(salt // 3) % len(TAGS)]}))
    note = f"note {salt}: read §3, $x^2$ and the table"
    kinds: list[dict[str, object]] = [
        {"starred": True},
        {"note": note},
        {"status": status},
        {"tags": tags},
        {"starred": True, "note": note, "status": status, "tags": tags},
        {"starred": False, "status": "unseen"},  # a record cleared again
        {"note": note, "tags": tags},
        {"looked": True},  # the paper opened: the time the user last looked at it
        {"starred": True, "looked": True},
    ]
    return kinds[kind % len(kinds)]


KINDS = 9


class Model:
    """What the user wrote, by the paper's current id (exact marks and creation time)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.expected: dict[str, UserData] = {}
        self.records = 0

    def write(self, paper_id: str, fields: dict[str, object]) -> None:
        self.write_many({paper_id: fields})

    def write_many(self, fields: dict[str, dict[str, object]]) -> None:
        """Write these fields on these papers' records in one batch (``looked``: open the paper)."""
        marks = {pid: {k: v for k, v in f.items() if k != "looked"} for pid, f in fields.items()}
        for _, after in self.store.change(list(fields), lambda r: r.replaced(**marks[r.paper_id])):
            self.records += 1
            if after.is_empty:  # an empty record is not kept: nothing of it (not its times) remains
                self.expected.pop(after.paper_id, None)
            else:
                self.expected[after.paper_id] = after
        for paper_id in [pid for pid, f in fields.items() if f.get("looked")]:
            self.records += 1
            looked = self.store.set_looked(paper_id)  # under the paper's current id
            self.expected[looked.paper_id] = looked

    def check(self) -> None:
        """Every written record under its paper's current id, field by field."""
        groups: dict[str, list[UserData]] = {}
        for paper_id, record in self.expected.items():
            groups.setdefault(self.store.resolve(paper_id), []).append(record)
        for paper_id, records in groups.items():
            actual = self.store.user_data(paper_id)
            if len(records) == 1:
                [want] = records
                for name in (*MARK_FIELDS, "created", "updated", "looked"):  # a move stamps nothing
                    assert getattr(actual, name) == getattr(want, name), (paper_id, name, actual, want)
            else:
                assert actual.starred == any(r.starred for r in records)
                assert all(r.note in actual.note for r in records), (actual, records)
                assert set(actual.tags) == {tag for r in records for tag in r.tags}
                set_statuses = {r.status for r in records if r.status != "unseen"} or {"unseen"}
                assert actual.status in set_statuses
                assert actual.created == min(filter(None, (r.created for r in records)), default="")
                assert actual.updated == max(r.updated for r in records)
                assert actual.looked == max(r.looked for r in records)
        self.expected = {pid: self.store.user_data(pid) for pid in groups}
        kept = set(self.expected)
        assert set(self.store.all_user_data) == kept
        assert not kept & set(self.store.aliases)  # nothing left under an old id


def test_every_field_of_the_user_record_has_a_rule() -> None:
    """One table drives moving, combining and undoing records: no field can be forgotten."""
    assert set(USER_FIELDS) == set(UserData.FIELDS)
    assert set(MARK_FIELDS) == {"starred", "note", "status", "tags"}


# No shrinking: an example is a dozen imports, and the failing one is printed as drawn.
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(data=st.data())
def test_user_records_follow_their_papers_in_any_import_order(world: World, data: st.DataObject) -> None:
    order = data.draw(st.permutations(world.slices.all), label="order")
    cuts = data.draw(st.sets(st.integers(1, len(order) - 1), max_size=len(order) - 1), label="batch cuts")
    bounds = [0, *sorted(cuts), len(order)]
    batches = [order[a:b] for a, b in itertools.pairwise(bounds)]
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "data")
        model = Model(store)
        for batch in batches:
            present = sorted(store.paper_ids)
            targets = data.draw(st.lists(st.sampled_from(present), max_size=4), label="papers") if present else []
            targets += data.draw(st.lists(st.sampled_from(world.ids), max_size=2), label="ids to come")
            for paper_id in targets:
                kind, salt = data.draw(st.integers(0, KINDS - 1)), data.draw(st.integers(0, 999))
                model.write(paper_id, mark(kind, salt))
            import_files(store, list(batch))
            model.check()
        again = Store(store.data_dir)
        for paper_id, record in model.expected.items():
            assert again.user_data(paper_id).to_dict() == store.user_data(paper_id).to_dict() == record.to_dict()
        assert again.all_user_data == store.all_user_data


@pytest.mark.slow
def test_every_order_of_every_year_keeps_every_record(world: World) -> None:
    """Every order of the ICLR 2026 files, each beside an order of the ICLR 2018 files (all of
    those orders come round), files imported one by one; before each import a record on every
    paper that has none yet, a new one on a fifth of the others, and records on ids to come."""
    orders_2026 = list(itertools.permutations(world.slices.iclr2026))
    orders_2018 = list(itertools.permutations(world.slices.iclr2018))
    written = 0
    for index, order in enumerate(orders_2026):
        other = orders_2018[index % len(orders_2018)]
        sequence = [path for pair in itertools.zip_longest(order, other) for path in pair if path]
        sequence += world.slices.others
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "data")
            model = Model(store)
            for step, path in enumerate(sequence):
                present = sorted(store.paper_ids)
                chosen = [pid for n, pid in enumerate(present) if pid not in model.expected or n % 5 == step % 5]
                chosen += world.ids[step::9]
                model.write_many({pid: mark(n + step, n * 31 + step) for n, pid in enumerate(chosen)})
                import_files(store, [path])
                model.check()
            written += model.records
    assert written > 0
    print(f"\n{len(orders_2026)} import orders, {written} user records written, all followed their papers")


records = st.builds(
    UserData,
    paper_id=st.just("p"),
    starred=st.booleans(),
    note=st.sampled_from(["", "a", "b", "a longer note\nwith lines"]),
    status=st.sampled_from(STATUSES),
    tags=st.sets(st.sampled_from(TAGS), max_size=3).map(lambda tags: tuple(sorted(tags))),
    created=st.sampled_from(["", "2026-01-01T00:00:00+00:00", "2026-02-01T00:00:00+00:00"]),
    updated=st.sampled_from(["", "2026-03-01T00:00:00+00:00", "2026-04-01T00:00:00+00:00"]),
    looked=st.sampled_from(["", "2026-03-02T00:00:00+00:00", "2026-04-02T00:00:00+00:00"]),
)


@given(kept=records, moving=records)
def test_combining_two_records_drops_nothing(kept: UserData, moving: UserData) -> None:
    combined = combine_records(kept, moving)
    assert combined.looked == max(kept.looked, moving.looked)  # the last time the user opened it
    assert combined.starred == (kept.starred or moving.starred)
    assert kept.note in combined.note and moving.note in combined.note
    assert set(combined.tags) == set(kept.tags) | set(moving.tags)
    assert combined.status in ({kept.status, moving.status} - {"unseen"} or {"unseen"})
    assert combined.created == min(filter(None, (kept.created, moving.created)), default="")
    assert combined.updated == max(kept.updated, moving.updated)
    assert combine_records(kept, UserData("p")) == kept


@given(current=records, before=records, after=records)
def test_a_step_changes_only_the_fields_it_touched(current: UserData, before: UserData, after: UserData) -> None:
    applied, kept = apply_change_told(current, before, after)
    assert apply_change(current, before, after) == applied
    for name in ("starred", "note", "status"):
        now, start, end = getattr(current, name), getattr(before, name), getattr(after, name)
        if start == end or now == end:
            assert getattr(applied, name) == now and name not in kept
        elif now == start:
            assert getattr(applied, name) == end and name not in kept
        else:  # written elsewhere since the step: kept, never overwritten (a note keeps both)
            assert name in kept and (getattr(applied, name) == now if name != "note" else now in applied.note)
            if name == "note" and end:
                assert end in applied.note
    assert "tags" not in kept
    added, removed = set(after.tags) - set(before.tags), set(before.tags) - set(after.tags)
    assert set(applied.tags) == (set(current.tags) - removed) | added
    assert (applied.created, applied.updated) == (current.created, current.updated)
