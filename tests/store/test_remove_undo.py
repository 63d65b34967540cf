"""Removing papers and taking back the last import or removal (:mod:`paperdeck.store.undo`): the
catalogue goes back to what it was, the change log says so, and the user's marks on papers taken
away are kept and come back with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError, StoreError
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import backup_json
from paperdeck.store.store import Store
from paperdeck.store.undo import NothingToUndo


def write_list(path: Path, *abstracts: str) -> Path:
    path.write_text("ICLR 2026\n\n" + "\n\n".join(abstracts) + "\n", "utf-8")
    return path


ONE = (
    "We propose FooNet, a network for foo tasks, and we test it on three benchmarks of graphs. It learns "
    "a message-passing rule from data and beats every baseline by a wide margin on all three of them."
)
TWO = "We study the training of kernels for vision and show that a simple schedule is enough."
VENUE = "ICLR 2026 Conference Submission"
THREE = "A third abstract about language models that reason over tables, with a new benchmark."


def test_removed_papers_keep_their_marks_and_get_them_back_when_imported_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    first = write_list(tmp_path / "a.txt", ONE, TWO)
    import_files(store, [first])
    target, other = store.paper_ids
    store.set_star(target, True)
    store.set_note(target, "keep me")
    report = store.remove_papers([target, "abs:nosuchpaper"])
    assert report.removed == (target,) and report.missing == ("abs:nosuchpaper",)
    reopened = Store(tmp_path / "data")
    assert reopened.paper_ids == [other] and reopened.paper(target) is None
    assert reopened.user_data(target).starred and reopened.user_data(target).note == "keep me"
    assert target in json.loads(backup_json(reopened))["records"][0]["paper_id"]
    assert [c.paper_id for c in reopened.changes() if c.gone] == [target]
    import_files(reopened, [first])
    assert reopened.paper_ids == [other, target]
    assert reopened.user_data(target).starred


def test_a_removal_is_undone_and_a_second_undo_has_nothing_to_undo(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE, TWO, THREE)])
    ids = store.paper_ids
    store.remove_papers(ids[:2])
    assert store.paper_ids == ids[2:]
    point = store.undo_point
    assert point is not None and (point.what, point.summary) == ("remove", "removed 2 papers")
    report = store.undo_last_change()
    assert set(report.restored) == set(ids[:2]) and report.taken_away == ()
    assert Store(tmp_path / "data").paper_ids == ids
    with pytest.raises(NothingToUndo):
        store.undo_last_change()


def test_an_import_is_undone_papers_added_and_fields_changed(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    kept = store.papers[0]
    titled = tmp_path / "b.jsonl"
    records = [{"id": "AbCdEfGh12", "content": {"title": "FooNet", "abstract": ONE, "venue": VENUE}},
               {"id": "ZyXwVuTs98", "content": {"title": "Kernels", "abstract": TWO, "venue": VENUE}}]  # fmt: skip
    titled.write_text("\n".join(json.dumps(r) for r in records) + "\n", "utf-8")
    import_files(store, [titled])
    assert store.paper_ids == ["openreview:AbCdEfGh12", "openreview:ZyXwVuTs98"]
    report = store.undo_last_change()
    assert report.what == "import" and report.taken_away == ("openreview:ZyXwVuTs98",)
    assert (report.restored, report.reverted) == ((), 1)
    reopened = Store(tmp_path / "data")
    assert reopened.papers == [kept]
    assert reopened.changes() == []  # the change log as before the import: nothing recorded since


def test_an_undone_import_leaves_no_change_history_and_keeps_the_marks_made_on_its_papers(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    store.first_look()  # the app opened: what comes next is news
    import_files(store, [write_list(tmp_path / "b.txt", ONE, TWO)])
    before = store.changes()
    assert [c.new for c in before] == [True]
    held = set(store.paper_ids)
    import_files(store, [write_list(tmp_path / "c.txt", ONE, TWO, THREE)])
    (added,) = (pid for pid in store.paper_ids if pid not in held)
    store.set_star(added, True)
    assert added in store.changed_since_looked()
    report = store.undo_last_change()
    assert report.taken_away == (added,)
    reopened = Store(tmp_path / "data")
    assert reopened.changes() == before  # no "removed from the store" for the paper it added
    assert added not in reopened.changed_since_looked() and added not in reopened.changes_by_paper()
    assert reopened.user_data(added).starred  # the user's mark is kept, for when it comes back
    import_files(reopened, [write_list(tmp_path / "c.txt", ONE, TWO, THREE)])
    assert reopened.user_data(added).starred and added in reopened.changed_since_looked()


def test_an_undo_after_the_change_log_was_written_since_records_what_it_took_away(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    import_files(store, [write_list(tmp_path / "b.txt", ONE, TWO)])
    log = tmp_path / "data" / "changes.jsonl"
    with log.open("ab") as file:  # another writer's line: the log is not the one the import left
        file.write(b"\n")
    report = store.undo_last_change()
    assert [c.paper_id for c in Store(tmp_path / "data").changes() if c.gone] == list(report.taken_away)


def test_a_refused_import_leaves_the_undo_point_as_it_was(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    point = store.undo_point
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
    with pytest.raises(SourceError):
        import_files(store, [write_list(tmp_path / "b.txt", TWO), passwd])
    assert store.undo_point == point
    assert not list((tmp_path / "data" / "undo").glob(".before-*"))


def test_an_undo_is_refused_when_the_catalogue_changed_since(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    other = Store(tmp_path / "data")
    other.import_papers([Paper(id="abs:other", title="Other", abstract=TWO)])  # made no undo point
    with pytest.raises(StoreError, match="the catalogue changed after the last import"):
        store.undo_last_change()
    assert len(Store(tmp_path / "data").paper_ids) == 2


def test_the_first_import_is_undone_to_an_empty_store(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE, TWO)])
    store.undo_last_change()
    assert Store(tmp_path / "data").is_empty
    assert Store(tmp_path / "data").changes() == []  # it recorded nothing, nor does its undo


def test_an_undone_paper_renamed_by_a_merge_keeps_the_marks_under_its_old_id(tmp_path: Path) -> None:
    """A seed paper that an import matched to its OpenReview record (a better id) goes back to
    the seed id on undo, and its star follows it."""
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    seed_id = store.paper_ids[0]
    record = tmp_path / "b.jsonl"
    content = {"title": "FooNet", "abstract": ONE, "venue": VENUE}
    record.write_text(json.dumps({"id": "AbCdEfGh12", "content": content}) + "\n")
    import_files(store, [record])
    assert store.paper_ids == ["openreview:AbCdEfGh12"]
    store.set_star("openreview:AbCdEfGh12", True)
    store.undo_last_change()
    reopened = Store(tmp_path / "data")
    assert reopened.paper_ids == [seed_id]
    assert reopened.user_data(seed_id).starred and reopened.papers[0].title_derived
    import_files(reopened, [record])  # imported again: the star follows it to its better id
    assert Store(tmp_path / "data").user_data("openreview:AbCdEfGh12").starred


def test_an_import_whose_catalogue_before_cannot_be_kept_is_made_without_an_undo_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [write_list(tmp_path / "a.txt", ONE)])
    assert store.undo_point is not None

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.link", refuse)
    monkeypatch.setattr("shutil.copyfile", refuse)
    import_files(store, [write_list(tmp_path / "b.txt", TWO)])
    assert len(Store(tmp_path / "data").paper_ids) == 2
    assert store.undo_point is None  # the previous point no longer says what came before
    with pytest.raises(NothingToUndo):
        store.undo_last_change()


def test_an_import_of_reviews_is_undone_reviews_and_ratings_both(tmp_path: Path) -> None:
    from tests.helpers import write_review_sample

    sample = write_review_sample(tmp_path)
    store = Store(tmp_path / "data")
    import_files(store, [sample.papers_file])
    papers_before = Store(tmp_path / "data").papers
    first = sample.notes()
    half = tmp_path / "half.json"
    half.write_text(json.dumps(first[: len(first) // 2]), "utf-8")
    import_files(store, [half])
    reviews_then = Store(tmp_path / "data").reviews.counts()
    papers_then = Store(tmp_path / "data").papers
    assert reviews_then["notes"] > 0
    import_files(store, [sample.notes_file])
    notes_all = Store(tmp_path / "data").reviews.counts()["notes"]
    assert notes_all > reviews_then["notes"]
    report = store.undo_last_change()  # the second review import: back to the first's reviews
    assert report.reviews_back and report.reviews_taken_away == notes_all - reviews_then["notes"]
    reopened = Store(tmp_path / "data")
    assert reopened.reviews.counts() == reviews_then and reopened.papers == papers_then
    import_files(store, [sample.notes_file])  # and imported again, it applies as before
    assert Store(tmp_path / "data").reviews.counts()["notes"] > reviews_then["notes"]
    store.undo_last_change()
    store2 = Store(tmp_path / "data")
    assert store2.reviews.counts() == reviews_then
    import_files(store2, [half])  # nothing new: the reviews back are those the first import wrote
    assert store2.reviews.counts() == reviews_then
    leftovers = sorted(p.name for p in (tmp_path / "data" / "reviews").iterdir())
    index = json.loads((tmp_path / "data" / "reviews" / "index.json").read_bytes())
    spans = index["summaries"].replace(".json", ".spans.json")  # the summaries' span index, kept with them
    named = {*index["shards"].values(), index["summaries"], spans, "index.json"}
    assert [n for n in leftovers if n not in named and not n.startswith(index["words"])] == []
    assert spans in leftovers
    assert papers_before != papers_then  # (the reviews did change the papers' ratings)


def test_undoing_the_first_review_import_leaves_no_reviews(tmp_path: Path) -> None:
    from tests.helpers import write_review_sample

    sample = write_review_sample(tmp_path)
    store = Store(tmp_path / "data")
    import_files(store, [sample.papers_file])
    papers_before = Store(tmp_path / "data").papers
    import_files(store, [sample.notes_file])
    notes = Store(tmp_path / "data").reviews.counts()["notes"]
    report = store.undo_last_change()
    reopened = Store(tmp_path / "data")
    assert reopened.reviews.counts()["notes"] == 0 and reopened.reviews.summaries() == {}
    assert reopened.papers == papers_before
    # What the undo says it did: the reviews it took away (no paper was added or changed).
    assert notes > 0 and report.reviews_taken_away == notes and report.reviews_back
    assert report.reviews_text == f"{notes} reviews and comments taken away"


def test_an_undone_import_counts_every_paper_it_set_back_not_only_those_the_change_log_records(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "data")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    record = {"id": "AbCdEfGh12", "content": {"title": "FooNet", "abstract": ONE, "venue": VENUE}}
    first.write_text(json.dumps(record) + "\n", "utf-8")
    import_files(store, [first])
    record["content"]["keywords"] = ["graphs", "message passing"]  # type: ignore[index]
    second.write_text(json.dumps(record) + "\n", "utf-8")
    import_files(store, [second])
    assert store.papers[0].keywords
    report = store.undo_last_change()
    assert (report.restored, report.taken_away, report.reverted) == ((), (), 1)
    assert not Store(tmp_path / "data").papers[0].keywords
