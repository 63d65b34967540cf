"""The reading list's rules without a UI: marks, ranges, mark-all, targets, status keys, next unseen,
and undo / redo beside another paperdeck writing the same store."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import UserData, with_tags
from paperdeck.reading import history as history_module
from paperdeck.reading.history import History
from paperdeck.reading.marks import Marks
from paperdeck.reading.status import next_unseen, status_after
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.store.user_data import apply_change

VIEW = ["a", "b", "c", "d", "e"]


def test_a_mark_toggles_and_sets_the_anchor() -> None:
    marks = Marks()
    marks.toggle("b", 1)
    assert marks.ids == {"b"} and marks.anchor == 1 and len(marks) == 1 and marks
    marks.toggle("b", 1)
    assert marks.ids == set() and not marks


def test_a_range_runs_from_the_anchor_either_way() -> None:
    marks = Marks()
    marks.toggle("d", 3)
    marks.mark_range(VIEW, 1)
    assert marks.ids == {"b", "c", "d"} and marks.anchor == 1
    fresh = Marks()
    fresh.mark_range(VIEW, 2)  # no anchor: just the row
    assert fresh.ids == {"c"}


def test_mark_all_marks_the_view_then_unmarks_it() -> None:
    marks = Marks()
    marks.toggle("z", 0)  # outside the view: kept either way
    marks.toggle_all(VIEW)
    assert marks.ids == {*VIEW, "z"}
    marks.toggle_all(VIEW)
    assert marks.ids == {"z"}
    marks.toggle_all([])
    assert marks.ids == {"z"}


def test_clear_says_whether_there_were_marks() -> None:
    marks = Marks()
    assert marks.clear() is False
    marks.toggle("a", 0)
    assert marks.clear() is True and marks.anchor is None and not marks.ids


def test_targets_are_every_mark_shown_or_not_else_the_highlighted_paper() -> None:
    marks = Marks()
    assert marks.targets(VIEW, "c") == ["c"]
    assert marks.targets(VIEW, None) == []
    for pid, row in (("e", 4), ("a", 0), ("z", 9)):
        marks.toggle(pid, row)
    assert marks.targets(VIEW, "c") == ["a", "e", "z"]  # the shown in view order, then the hidden
    assert marks.hidden(VIEW) == 1
    assert marks.targets(["q"], "q") == ["a", "e", "z"]  # none shown: every mark, sorted
    assert marks.hidden(["q"]) == 3
    assert marks.everything(VIEW) == ["a", "e", "z"]


def test_the_same_status_key_again_takes_a_single_paper_back_to_unseen() -> None:
    assert status_after("read", ["read"]) == "unseen"
    assert status_after("read", ["to-read"]) == "read"
    assert status_after("read", ["read", "read"]) == "read"  # a bulk change always sets it
    assert status_after("unseen", ["unseen"]) == "unseen"
    assert status_after("read", []) == "read"


def test_next_unseen_wraps_and_says_when_there_is_none() -> None:
    statuses = {"a": "read", "b": "unseen", "c": "read", "d": "read", "e": "unseen"}
    assert next_unseen(VIEW, 1, statuses.__getitem__) == 4
    assert next_unseen(VIEW, 4, statuses.__getitem__) == 1  # wraps past the end
    only = {"a": "unseen", "b": "read"}
    assert next_unseen(["a", "b"], 0, only.__getitem__) == 0  # itself, last
    assert next_unseen(["b"], 0, only.__getitem__) is None


# -- undo and redo beside another writer ----------------------------------------------------------


def marks_of(record: UserData) -> tuple[bool, str, str, tuple[str, ...]]:
    return (record.starred, record.note, record.status, record.tags)


@pytest.fixture
def two_stores(data_dir: Path) -> tuple[Store, Store]:
    """The app's store and another paperdeck's (a CLI, a second app) on one data directory."""
    return Store(data_dir), Store(data_dir)


def test_undo_of_a_star_keeps_the_note_tags_and_status_another_writer_added(two_stores: tuple[Store, Store]) -> None:
    app, other = two_stores
    history = History(app)
    history.record("star", app.change(["p"], lambda r: r.replaced(starred=True)))
    other.change(["p"], lambda r: with_tags(r.replaced(note="theirs", status="read"), add=["x"]))
    history.undo()
    assert marks_of(Store(app.data_dir).user_data("p")) == (False, "theirs", "read", ("x",))
    history.redo()
    assert marks_of(Store(app.data_dir).user_data("p")) == (True, "theirs", "read", ("x",))


def test_undo_of_a_note_keeps_the_star_another_writer_set(two_stores: tuple[Store, Store]) -> None:
    app, other = two_stores
    app.set_note("p", "first")
    history = History(app)
    history.record("note", app.change(["p"], lambda r: r.replaced(note="second")))
    other.set_star("p", True)
    other.set_status("p", "to-read")
    history.undo()
    assert marks_of(Store(app.data_dir).user_data("p")) == (True, "first", "to-read", ())


def test_undo_of_a_tag_removes_only_that_tag(two_stores: tuple[Store, Store]) -> None:
    app, other = two_stores
    history = History(app)
    history.record("tag", app.change(["p", "q"], lambda r: with_tags(r, add=["mine"])))
    other.change(["p", "q"], lambda r: with_tags(r, add=["theirs"]))
    history.undo()
    check = Store(app.data_dir)
    assert check.user_data("p").tags == check.user_data("q").tags == ("theirs",)
    history.redo()
    check = Store(app.data_dir)
    assert check.user_data("p").tags == check.user_data("q").tags == ("mine", "theirs")


def test_undo_of_a_status_takes_back_only_the_status(two_stores: tuple[Store, Store]) -> None:
    """The step set a status, the other writer then a star: undo takes back the status only."""
    app, other = two_stores
    other.set_note("p", "kept")
    history = History(app)
    history.record("mark read", app.change(["p"], lambda r: r.replaced(status="read")))
    other.set_star("p", True)
    history.undo()
    assert marks_of(Store(app.data_dir).user_data("p")) == (True, "kept", "unseen", ())


def test_undo_of_a_note_written_over_elsewhere_keeps_the_other_text(two_stores: tuple[Store, Store]) -> None:
    """The tester's data loss: this window wrote a note, another then saved its own text over it
    (keeping both); undoing this window's note deleted the other's text too. The undo now leaves
    the note as the other wrote it, and says so."""
    app, other = two_stores
    history = History(app)
    history.record("note", app.change(["p"], lambda r: r.replaced(note="text from B")))
    other.change(["p"], lambda r: r.replaced(note=f"text from A\n\n{r.note}"))
    history.undo()
    assert Store(app.data_dir).user_data("p").note == "text from A\n\ntext from B"
    assert history.last_kept == "the note of 1 paper changed elsewhere since: kept as written there"
    assert not history.last_changed  # said "Not undone", not "Undone: note"


def test_undo_of_a_note_changed_elsewhere_keeps_both_texts(two_stores: tuple[Store, Store]) -> None:
    """Undo would bring back an older note over one written elsewhere since: both stay."""
    app, other = two_stores
    app.set_note("p", "first")
    history = History(app)
    history.record("note", app.change(["p"], lambda r: r.replaced(note="second")))
    other.set_note("p", "theirs")
    history.undo()
    assert Store(app.data_dir).user_data("p").note == "theirs\n\nfirst"
    assert history.last_kept == "the note of 1 paper changed elsewhere since: both texts kept"
    assert history.last_changed
    history.redo()  # redo too: "second" is not written over what is there now
    assert Store(app.data_dir).user_data("p").note == "theirs\n\nfirst\n\nsecond"
    assert history.last_kept == "the note of 1 paper changed elsewhere since: both texts kept"
    assert history.last_changed


def _kept_star(store: Store, history: History, paper_ids: list[str]) -> None:
    """A star made as the app makes it: its step kept in the change's transaction, then recorded."""
    step = History.keeping("star")
    history.record(step.label, store.change(paper_ids, lambda r: r.replaced(starred=True), step=step), step.id)


def test_a_step_another_window_undid_is_said_undone_elsewhere_and_not_redoable(
    two_stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tester's window B made a step, window A (restarted) undid it; B's ``u`` said "Undone"
    again and its ctrl+r put the star back. Now B's undo changes nothing, says so, and the step is
    dropped rather than made redoable."""
    window_b, window_a = two_stores
    history_b = History(window_b)
    _kept_star(window_b, history_b, ["p", "q"])
    monkeypatch.setattr(history_module, "SESSION", history_module.new_step_id())  # A: a new session
    history_a = History(window_a)
    step = history_a.next_step(undo=True)
    assert step is not None and step.earlier  # B's: asked first, said not this session's
    history_a.undo()
    assert not Store(window_a.data_dir).user_data("p").starred
    window_b.set_star("q", True)  # after A's undo: B's undo must not take it back
    assert history_b.undo() is not None
    assert history_b.undone_elsewhere
    assert not history_b.can_redo and not history_b.can_undo
    assert Store(window_b.data_dir).user_data("q").starred


def test_a_step_redone_in_this_session_is_this_sessions(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(data_dir)
    _kept_star(store, History(store), ["p", "q"])
    monkeypatch.setattr(history_module, "SESSION", history_module.new_step_id())  # a restart
    history = History(Store(data_dir))
    assert history.undo() is not None and not history.undone_elsewhere
    assert history.redo() is not None
    step = history.next_step(undo=True)
    assert step is not None and not step.earlier
    again = History(Store(data_dir))  # a window opened later in this session
    kept = again.next_step(undo=True)
    assert kept is not None and not kept.earlier
    assert kept.said == "star (2 papers)" and kept.offer == "star of 2 papers"


def test_a_step_is_counted_by_the_papers_it_changed() -> None:
    before, after = UserData("p"), UserData("p", starred=True)
    old_label = history_module.Step("star (37 papers)", ((before, after),) * 36)  # a label kept by an older paperdeck
    assert old_label.said == "star (36 papers)" and old_label.offer == "star of 36 papers"
    one = history_module.Step("star", ((before, after),))
    assert one.said == "star" and one.offer == "star of 1 paper"


def test_undo_and_redo_of_a_status_changed_elsewhere_keep_it(two_stores: tuple[Store, Store]) -> None:
    app, other = two_stores
    history = History(app)
    history.record("mark read", app.change(["p", "q"], lambda r: r.replaced(status="read")))
    other.set_status("p", "dismissed")
    history.undo()
    check = Store(app.data_dir)
    assert (check.user_data("p").status, check.user_data("q").status) == ("dismissed", "unseen")
    assert history.last_kept == "the status of 1 paper changed elsewhere since: kept as written there"
    other.set_status("q", "to-read")
    history.redo()
    check = Store(app.data_dir)
    assert (check.user_data("p").status, check.user_data("q").status) == ("dismissed", "to-read")
    assert history.last_kept == "the status of 2 papers changed elsewhere since: kept as written there"


def test_an_undo_nothing_stood_against_says_nothing_was_kept(two_stores: tuple[Store, Store]) -> None:
    app, other = two_stores
    history = History(app)
    history.record("star", app.change(["p"], lambda r: r.replaced(starred=True, note="n")))
    other.set_star("p", False)  # already what the undo gives
    history.undo()
    assert marks_of(Store(app.data_dir).user_data("p")) == (False, "", "unseen", ())
    assert history.last_kept is None


def test_undo_after_a_merge_renamed_the_paper_goes_to_its_new_id(tmp_path: Path, data_dir: Path) -> None:
    abstract = " ".join(f"word{n}" for n in range(40))
    seed = tmp_path / "seed.txt"
    seed.write_text(f"ICLR 2026\n\n{abstract}\n", "utf-8")
    record = tmp_path / "record.jsonl"
    record.write_text(
        '{"id": "AbCdEfGh12", "content": {"title": "Real", "abstract": "' + abstract + '", '
        '"venue": "ICLR 2026 Conference Submission"}}\n',
        "utf-8",
    )
    store = Store(data_dir)
    import_files(store, [seed])
    [seed_id] = store.paper_ids
    history = History(store)
    history.record("star", store.change([seed_id], lambda r: r.replaced(starred=True, note="n")))
    import_files(store, [record])
    assert store.resolve(seed_id) == "openreview:AbCdEfGh12"
    history.undo()
    assert store.all_user_data == {}
    history.redo()
    assert marks_of(store.user_data("openreview:AbCdEfGh12")) == (True, "n", "unseen", ())


def test_apply_change_touches_only_the_fields_that_changed() -> None:
    before = UserData("p", note="a", tags=("t",))
    after = UserData("p", starred=True, note="a", tags=("t", "u"))
    now = UserData("p", note="b", status="read", tags=("t", "v"))
    assert marks_of(apply_change(now, before, after)) == (True, "b", "read", ("t", "u", "v"))
    assert marks_of(apply_change(now, after, before)) == (False, "b", "read", ("t", "v"))


def test_marking_every_change_seen_is_undone_and_redone(tmp_path: Path, data_dir: Path) -> None:
    """``C`` moved the "every change seen" mark and could not be taken back: it is a step of the
    history, undone (the changed papers are changed again), redone, and undone to no mark at all."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("ICLR 2026\n\n" + " ".join(f"alpha{n}" for n in range(40)) + "\n", "utf-8")
    second.write_text("ICLR 2026\n\n" + " ".join(f"beta{n}" for n in range(40)) + "\n", "utf-8")
    store = Store(data_dir)
    import_files(store, [first])
    assert store.seen_mark() is None
    store.first_look()
    import_files(store, [second])
    changed = set(store.changed_since_looked())
    assert changed
    history = History(store)
    before = store.seen_mark()
    store.mark_all_seen()
    step = history.record_seen("mark every change seen", before, store.seen_mark())
    assert step is not None and store.changed_since_looked() == {}
    assert history.undo() is step and set(Store(data_dir).changed_since_looked()) == changed
    history.redo()
    assert Store(data_dir).changed_since_looked() == {}
    assert history.record_seen("again", store.seen_mark(), store.seen_mark()) is None  # nothing moved
    store.set_seen_mark(None)
    assert Store(data_dir).seen_mark() is None
