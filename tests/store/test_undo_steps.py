"""The app's undo steps kept beside the user data (``user/undo-steps.json``): written in the
transaction of the change each undoes (a kill at any writing call leaves both or neither), bounded,
and a file that cannot be read is said once, ignored and never overwritten."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from paperdeck.model.errors import PaperdeckError
from paperdeck.reading.history import History
from paperdeck.store import undo_steps
from paperdeck.store.store import Store
from paperdeck.store.transaction import NOT_FINISHED
from paperdeck.store.undo_steps import UNDO_JOURNAL_FILE, UNDO_STEPS_FILE, StepEdit, StepUndoneElsewhere
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.store.faults import Faults, Killed, copy_tree, count_calls

NOW = "2026-12-01T10:00:00.000000+00:00"
BY_HAND = ["p:00", "p:01"]


def _store(data_dir: Path) -> Store:
    return Store(data_dir, now=lambda: NOW)


def _spread(count: int) -> list[str]:
    """``count`` paper ids, each in a user-data shard of its own."""
    chosen: dict[int, str] = {}
    n = 0
    while len(chosen) < count:
        pid = f"p:{n:02d}x"
        chosen.setdefault(doc_id_for(pid) % SHARDS, pid)
        n += 1
    return list(chosen.values())


BULK = _spread(6)


@pytest.fixture
def template(tmp_path: Path) -> Path:
    """Two papers starred by hand (no step kept: as the CLI writes them)."""
    data_dir = tmp_path / "template"
    _store(data_dir).change(BY_HAND, lambda r: r.replaced(starred=True))
    return data_dir


def _star_all(data_dir: Path) -> None:
    """The bulk star, its step kept (as the app writes it)."""
    _store(data_dir).change(BULK, lambda r: r.replaced(starred=True), step=StepEdit("bulk", "star (6 papers)"))


def _undo_last(data_dir: Path) -> None:
    """A new session's ``u``: the step kept by the session before, undone."""
    history = History(_store(data_dir))
    assert history.undo() is not None


def _seen(data_dir: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The starred papers and the kept steps' ids, as a restarted store reads them."""
    store = _store(data_dir)
    starred = tuple(sorted(pid for pid, record in store.all_user_data.items() if record.starred))
    return starred, tuple(step.id for step in store.undo_steps.steps())


Seen = tuple[tuple[str, ...], tuple[str, ...]]


def _faulted_at_each_call(template: Path, work: Path, operation: Callable[[Path], None], kind: str) -> set[Seen]:
    """What a restarted store holds after a fault of ``kind`` at each writing call of
    ``operation``; an error must say that nothing was changed, and be true."""
    total = count_calls(template, work, operation)
    assert total > 10
    before = _seen(copy_tree(template, work / "before"))
    outcomes = set()
    for call in range(1, total + 1):
        data_dir = copy_tree(template, work / "run")
        error: str | None = None
        with Faults(data_dir, call, kind) as faults, contextlib.suppress(Killed):
            try:
                operation(data_dir)
            except (PaperdeckError, OSError) as exc:
                error = str(exc)
        assert faults.fired
        seen = _seen(data_dir)
        if error is not None and NOT_FINISHED not in error:
            assert "nothing was changed" in error and seen == before, (call, error)
        outcomes.add(seen)
    return outcomes


@pytest.mark.parametrize("kind", ["kill", "eio", "enospc"])
def test_the_step_is_written_in_the_transaction_of_its_change(template: Path, tmp_path: Path, kind: str) -> None:
    outcomes = _faulted_at_each_call(template, tmp_path, _star_all, kind)
    before = (tuple(BY_HAND), ())
    after = (tuple(sorted([*BY_HAND, *BULK])), ("bulk",))
    assert outcomes == {before, after}  # never the stars without their step, nor the step alone


@pytest.mark.parametrize("kind", ["kill", "eio"])
def test_an_undo_takes_its_step_off_in_its_own_transaction(template: Path, tmp_path: Path, kind: str) -> None:
    starred = tmp_path / "starred"
    copy_tree(template, starred)
    _star_all(starred)
    outcomes = _faulted_at_each_call(starred, tmp_path, _undo_last, kind)
    assert outcomes == {(tuple(sorted([*BY_HAND, *BULK])), ("bulk",)), (tuple(BY_HAND), ())}


def test_a_new_session_undoes_the_step_of_the_last_one(template: Path) -> None:
    _star_all(template)
    history = History(_store(template))
    step = history.next_step(undo=True)
    assert step is not None and step.earlier and step.offer == "star of 6 papers"
    history.undo()
    assert _seen(template) == (tuple(BY_HAND), ())
    history.redo()  # put back where it is kept
    assert _seen(template) == (tuple(sorted([*BY_HAND, *BULK])), ("bulk",))
    assert History(_store(template)).undo() is not None
    assert _seen(template) == (tuple(BY_HAND), ())


def test_the_steps_kept_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path / "data")
    for n in range(undo_steps.MAX_STEPS + 5):
        store.change([f"p:{n:03d}"], lambda r: r.replaced(starred=True), step=StepEdit(f"s{n}", "star"))
    ids = [step.id for step in store.undo_steps.steps()]
    assert ids == [f"s{n}" for n in range(5, undo_steps.MAX_STEPS + 5)]
    monkeypatch.setattr(undo_steps, "MAX_BYTES", 3_000)  # about 8 one-paper steps
    many = [f"q:{n:03d}" for n in range(40)]
    store.change(many, lambda r: r.replaced(status="read"), step=StepEdit("big", "mark read (40 papers)"))
    kept = store.undo_steps.steps()
    assert [step.id for step in kept] == ["big"]  # the newest is kept whatever its size
    assert len(kept[0].changes) == 40
    store.change(["p:000"], lambda r: r.replaced(note="n"), step=StepEdit("note", "note"))
    assert [step.id for step in store.undo_steps.steps()] == ["note"]  # the big one is the oldest past the bound


@pytest.mark.parametrize(
    "content",
    [
        b'{"meta": {"1": {"app": "paperdeck", "schema": 2}}, "steps": [{"id": "a", "lab',  # cut short
        b'{"tasks": [1, 2, 3]}',  # another program's
        b'{"meta": {"1": {"app": "paperdeck", "schema": 2}}, "steps": [{"id": 1}]}',  # a step that is none
    ],
)
def test_a_steps_file_that_cannot_be_read_is_said_ignored_and_kept(
    template: Path, content: bytes, tmp_path: Path
) -> None:
    path = template / "user" / UNDO_STEPS_FILE
    path.write_bytes(content)
    store = _store(template)
    history = History(store)
    assert not history.can_undo
    assert history.problem is not None and UNDO_STEPS_FILE in history.problem
    assert "\n" not in history.problem
    _star_all(template)  # the change is made; its step is not written over the file
    assert path.read_bytes() == content
    assert _seen(template)[0] == tuple(sorted([*BY_HAND, *BULK]))


def test_a_kept_label_is_shown_as_one_line_of_visible_text(template: Path) -> None:
    _store(template).change(["p:09"], lambda r: r.replaced(starred=True), step=StepEdit("x", "star\x1b[2J\nnow"))
    step = History(_store(template)).next_step(undo=True)
    assert step is not None and step.label == "star␛[2J now"


def test_a_second_undo_of_a_step_is_refused_changing_nothing(template: Path) -> None:
    """Two windows undo one step: the second's transaction is given up (its records too) and it is
    told so, rather than undoing it again; the file remembers the undone ids, bounded."""
    _star_all(template)
    first, second = History(_store(template)), History(_store(template))
    first.undo()
    assert _store(template).undo_steps.undone() == ["bulk"]
    _store(template).change(BULK[:1], lambda r: r.replaced(starred=True))  # starred again meanwhile
    step = second.next_step(undo=True)
    assert step is not None
    with pytest.raises(StepUndoneElsewhere):
        _store(template).change(BULK[:1], lambda r: r.replaced(starred=False), step=step.undo_edit(undo=True))
    assert _store(template).user_data(BULK[0]).starred  # the transaction was given up
    first.redo()  # a redo puts it back: no longer undone
    assert _store(template).undo_steps.undone() == []


def test_a_file_of_an_older_paperdeck_without_sessions_is_read(template: Path) -> None:
    """The file as paperdeck wrote it before sessions, undone ids and the journal: read alone."""
    _star_all(template)
    journal = template / "user" / UNDO_JOURNAL_FILE
    step = orjson.loads(journal.read_bytes())["step"]
    journal.unlink()
    del step["session"]
    path = template / "user" / UNDO_STEPS_FILE
    path.write_bytes(orjson.dumps({"meta": {"1": {"app": "paperdeck", "schema": 2}}, "steps": [step]}))
    history = History(_store(template))
    step = history.next_step(undo=True)
    assert step is not None and step.earlier and step.said == "star (6 papers)"
    assert history.undo() is not None and not history.undone_elsewhere


def test_the_undone_ids_kept_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(undo_steps, "MAX_UNDONE", 2)
    store = _store(tmp_path / "data")
    for n in range(3):
        store.change([f"p:{n}"], lambda r: r.replaced(starred=True), step=StepEdit(f"s{n}", "star"))
    history = History(store)
    for _ in range(3):
        assert history.undo() is not None and not history.undone_elsewhere
    assert _store(store.data_dir).undo_steps.undone() == ["s1", "s0"]  # the last two, oldest first


# The sixteenth round (left16): a star rewrote ``user/undo-steps.json`` whole (up to 4 MB, ~2.6 ms
# of the save thread a star). A change now appends its step to ``user/undo-steps.journal`` in its
# transaction, and the file is written whole only when the journal is at its bounds.


def _one_star(data_dir: Path) -> None:
    """A one-paper star, its step kept (as the app writes it)."""
    _store(data_dir).change(["p:zz"], lambda r: r.replaced(starred=True), step=StepEdit("one", "star"))


def test_a_step_is_one_line_appended_not_the_file_written_again(template: Path) -> None:
    monkey = pytest.MonkeyPatch()
    with monkey.context() as patched:
        patched.setattr(undo_steps, "MAX_JOURNAL_LINES", 1)  # the bulk step compacted into the file
        _star_all(template)
        _one_star(template)
    path, journal = template / "user" / UNDO_STEPS_FILE, template / "user" / UNDO_JOURNAL_FILE
    assert not journal.exists() and [step["id"] for step in orjson.loads(path.read_bytes())["steps"]] == ["bulk", "one"]
    written = path.read_bytes()
    inode = path.stat().st_ino
    for n in range(3):
        _store(template).change([f"p:{n}y"], lambda r: r.replaced(starred=True), step=StepEdit(f"s{n}", "star"))
    assert path.read_bytes() == written and path.stat().st_ino == inode  # the file is not written
    lines = journal.read_bytes().splitlines()
    assert [orjson.loads(line)["id"] for line in lines] == ["s0", "s1", "s2"]
    assert all(len(line) < 600 for line in lines)  # a one-paper step, whatever the file holds
    assert [step.id for step in _store(template).undo_steps.steps()] == ["bulk", "one", "s0", "s1", "s2"]
    History(_store(template)).undo()  # an undo is a line too: the step taken off, its id undone
    assert path.read_bytes() == written
    assert orjson.loads(journal.read_bytes().splitlines()[-1]) == {"id": "s2", "undone": True}
    store = _store(template)
    assert [step.id for step in store.undo_steps.steps()] == ["bulk", "one", "s0", "s1"]
    assert store.undo_steps.undone() == ["s2"]


def test_the_journal_at_its_bounds_is_compacted_into_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(undo_steps, "MAX_JOURNAL_LINES", 3)
    store = _store(tmp_path / "data")
    journal = store.data_dir / "user" / UNDO_JOURNAL_FILE
    sizes = []
    for n in range(7):
        store.change([f"p:{n}"], lambda r: r.replaced(starred=True), step=StepEdit(f"s{n}", "star"))
        sizes.append(len(journal.read_bytes().splitlines()) if journal.exists() else 0)
    assert sizes == [1, 2, 3, 0, 1, 2, 3]  # the fourth edit wrote the file whole, the journal removed
    data = orjson.loads((store.data_dir / "user" / UNDO_STEPS_FILE).read_bytes())
    assert [step["id"] for step in data["steps"]] == ["s0", "s1", "s2", "s3"]
    assert [step.id for step in _store(store.data_dir).undo_steps.steps()] == [f"s{n}" for n in range(7)]
    monkeypatch.setattr(undo_steps, "MAX_JOURNAL_BYTES", 100)  # a line over the bytes' bound: compacted too
    store.change(["p:9"], lambda r: r.replaced(starred=True), step=StepEdit("s7", "star"))
    assert not journal.exists()
    assert [step.id for step in _store(store.data_dir).undo_steps.steps()] == [f"s{n}" for n in range(8)]


def test_a_journal_replayed_over_the_file_it_was_compacted_into_reads_the_same(template: Path) -> None:
    """A reader between a compaction's two steps (the file renamed, the journal not yet removed)
    applies the journal's lines again: each line applied twice gives what it gave once."""
    _star_all(template)
    _one_star(template)
    History(_store(template)).undo()  # "one" undone
    journal = template / "user" / UNDO_JOURNAL_FILE
    lines = journal.read_bytes()
    store = _store(template)
    seen = ([step.id for step in store.undo_steps.steps()], store.undo_steps.undone())
    assert seen == (["bulk"], ["one"])
    store.undo_steps._write_whole(store.undo_steps._read(), store.undo_steps.undone())
    journal.write_bytes(lines)  # still there
    again = _store(template)
    assert ([step.id for step in again.undo_steps.steps()], again.undo_steps.undone()) == seen


@pytest.mark.parametrize("kind", ["kill", "eio", "enospc"])
def test_a_compaction_is_written_in_the_transaction_of_its_change(
    template: Path, tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The star that finds the journal at its bounds writes the file whole and removes the
    journal: a fault at each call leaves the change with its step (and the earlier one), or neither."""
    _one_star(template)  # the journal's one line
    monkeypatch.setattr(undo_steps, "MAX_JOURNAL_LINES", 1)
    outcomes = _faulted_at_each_call(template, tmp_path, _star_all, kind)
    before = (tuple(sorted([*BY_HAND, "p:zz"])), ("one",))
    after = (tuple(sorted([*BY_HAND, *BULK, "p:zz"])), ("one", "bulk"))
    assert outcomes == {before, after}


def test_a_journal_that_cannot_be_read_is_said_ignored_and_kept(template: Path) -> None:
    _one_star(template)
    journal = template / "user" / UNDO_JOURNAL_FILE
    content = b'{"id": "x", "step": {"id": "x"}}\n'  # a step that is none
    journal.write_bytes(content)
    history = History(_store(template))
    assert not history.can_undo
    assert history.problem is not None and UNDO_JOURNAL_FILE in history.problem and "\n" not in history.problem
    _star_all(template)
    assert journal.read_bytes() == content
    assert _seen(template)[0] == tuple(sorted([*BY_HAND, *BULK, "p:zz"]))
