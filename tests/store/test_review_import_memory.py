"""What a review import holds at once, counted (issue 32: its peak at 5 × was the merge with the
catalogue parsed beside the notes, every score summary held twice, and both search indexes built
again although no text they read had changed).

- The catalogue is read once the notes are merged, never while a batch of notes is held (a
  document at a time, never parsed whole: ``test_review_rescore.py``).
- Each score summary is held once as a document: its JSON text, not a parsed tree beside the
  :class:`~paperdeck.model.review_summary.ReviewSummary` made for the papers' scores; the summaries file
  is still ``orjson.dumps`` of the documents, byte for byte.
- The import records that it changed no text the indexes read
  (:attr:`~paperdeck.store.catalogue.Catalogue.last_patch`, no pair of papers), so the saved
  search and similarity indexes are stamped anew, not built from every paper.

The files are the committed cuts of the real dump and review parts (``tests/data/``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.cli.commands import cmd_import
from paperdeck.sources.importer import import_files
from paperdeck.store import import_run
from paperdeck.store import reviews as review_store
from paperdeck.store.catalogue import Catalogue
from paperdeck.store.reviews import ReviewSpill
from paperdeck.store.store import Store

from tests.helpers import review_parts, submission_parts


def _dump_store(directory: Path) -> Store:
    store = Store(directory, lazy=True, rows=False, user_records=False)  # as the command line opens it
    import_files(store, submission_parts())
    return store


def test_the_catalogue_is_read_after_the_notes_are_merged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _dump_store(tmp_path / "s")
    events: list[str] = []
    batches, load = ReviewSpill.batches, Catalogue.load

    def counted_batches(self: ReviewSpill) -> Any:
        for batch in batches(self):
            events.append("batch")
            yield batch
        events.append("merged")

    def counted_load(self: Catalogue) -> None:
        events.append("parsed" if not self.loaded else "held")
        load(self)

    forums = import_run.catalogue_forums

    def counted_forums(catalogue: Catalogue) -> Any:
        events.append("read")
        return forums(catalogue)

    monkeypatch.setattr(ReviewSpill, "batches", counted_batches)
    monkeypatch.setattr(Catalogue, "load", counted_load)
    monkeypatch.setattr(import_run, "catalogue_forums", counted_forums)
    store = Store(tmp_path / "s", lazy=True, rows=False, user_records=False)  # as the command line opens it
    summary = import_files(store, review_parts())
    assert summary.reviews is not None and summary.reviews.new > 0
    assert "batch" in events and "read" in events
    assert events.index("read") > events.index("merged")  # never beside a batch of notes
    assert events.count("read") == 1
    assert "parsed" not in events  # read a document at a time (tests/store/test_review_rescore.py)


def test_each_summary_is_held_once_as_its_json_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _dump_store(tmp_path / "s")
    held: list[dict[str, Any]] = []
    encoded = review_store._encoded_object_pieces

    def counted(entries: dict[str, Any], spans: list[Any]) -> Any:
        held.append(entries)
        return encoded(entries, spans)

    monkeypatch.setattr(review_store, "_encoded_object_pieces", counted)
    import_files(store, review_parts())
    assert len(held) == 1
    entries = held[0]
    assert entries and all(isinstance(value, bytes) for value in entries.values())
    reviews_dir = tmp_path / "s" / "reviews"
    index = orjson.loads((reviews_dir / "index.json").read_bytes())
    written = (reviews_dir / index["summaries"]).read_bytes()
    docs = orjson.loads(written)
    assert written == orjson.dumps(docs)  # what one dump of every document writes, byte for byte
    assert set(docs) == set(entries) and len(docs) == index["papers"]
    again = Store(tmp_path / "s")
    assert {forum: summary.to_dict() for forum, summary in again.reviews.summaries().items()} == docs


def test_the_saved_indexes_are_stamped_anew_not_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.searcher import INDEX_FILE, SIMILARITY_FILE
    from paperdeck.search.similar import SimilarityIndex

    directory = tmp_path / "s"
    store = _dump_store(directory)
    from paperdeck.cli.caches import save_indexes

    save_indexes(store)  # as the dump's import leaves them
    index_before = (directory / INDEX_FILE).read_bytes()
    builds: list[str] = []
    search_build, similar_build = SearchIndex.from_papers, SimilarityIndex.from_papers

    def search_counted(*args: Any, **kwargs: Any) -> Any:
        builds.append("search")
        return search_build(*args, **kwargs)

    def similar_counted(*args: Any, **kwargs: Any) -> Any:
        builds.append("similar")
        return similar_build(*args, **kwargs)

    monkeypatch.setattr(SearchIndex, "from_papers", search_counted)
    monkeypatch.setattr(SimilarityIndex, "from_papers", similar_counted)
    store = Store(directory, lazy=True, rows=False, user_records=False)  # as the command line opens it
    stamp_before = store.catalogue_stamp()
    args = argparse.Namespace(files=[str(p) for p in review_parts()], format=None, undo=False, json=True, venue=None)
    assert cmd_import(store, args) == 0
    stamp = store.catalogue_stamp()
    assert stamp is not None and stamp != stamp_before  # the papers' scores were written
    assert store.catalogue.last_patch is not None and not store.catalogue.last_patch.papers
    assert builds == []  # neither index built from the papers
    index_after = (directory / INDEX_FILE).read_bytes()
    assert len(index_after) - len(index_before) == len(str(stamp)) - len(str(stamp_before))
    assert orjson.dumps(stamp).replace(b",", b", ") in index_after[:4096]
    opened = Store(directory)
    assert isinstance(SearchIndex.load(directory / INDEX_FILE, opened.catalogue_stamp(), opened.paper_ids), SearchIndex)
    assert SimilarityIndex.load(directory / SIMILARITY_FILE, opened.catalogue_stamp()) is not None


def test_the_similarity_file_is_stamped_anew_without_weighing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No text the similarity index reads changed: its file is copied with the new stamp, every
    other member byte for byte, and no weight is computed again (at 5 × that weighing was the
    review import's last peak)."""
    import zipfile

    from paperdeck.cli.caches import save_indexes
    from paperdeck.search.searcher import SIMILARITY_FILE
    from paperdeck.search.similar import SimilarityIndex

    directory = tmp_path / "s"
    save_indexes(_dump_store(directory))
    with zipfile.ZipFile(directory / SIMILARITY_FILE) as saved:
        before = {info.filename: saved.read(info) for info in saved.infolist()}
    weighed: list[int] = []
    weigh = SimilarityIndex._weigh

    def counted(self: SimilarityIndex, counts: Any) -> None:
        weighed.append(1)
        weigh(self, counts)

    monkeypatch.setattr(SimilarityIndex, "_weigh", counted)
    store = Store(directory, lazy=True, rows=False, user_records=False)
    args = argparse.Namespace(files=[str(p) for p in review_parts()], format=None, undo=False, json=True, venue=None)
    assert cmd_import(store, args) == 0
    assert weighed == []
    stamp = Store(directory).catalogue_stamp()
    assert stamp is not None and SimilarityIndex.load(directory / SIMILARITY_FILE, stamp) is not None
    with zipfile.ZipFile(directory / SIMILARITY_FILE) as saved:
        after = {info.filename: saved.read(info) for info in saved.infolist()}
    assert after.keys() == before.keys() and after["stamp.npy"] != before["stamp.npy"]
    assert {name: data for name, data in after.items() if name != "stamp.npy"} == {
        name: data for name, data in before.items() if name != "stamp.npy"
    }


def test_a_similarity_file_of_other_papers_is_not_stamped_anew(tmp_path: Path) -> None:
    from paperdeck.cli.caches import save_indexes
    from paperdeck.search.searcher import SIMILARITY_FILE
    from paperdeck.search.similar import SimilarityIndex

    directory = tmp_path / "s"
    store = _dump_store(directory)
    save_indexes(store)
    stamp = Store(directory).catalogue_stamp()
    assert stamp is not None
    path = directory / SIMILARITY_FILE
    kept = path.read_bytes()
    assert not SimilarityIndex.restamp(path, stamp, [1, 2], ["not", "these"])
    assert not SimilarityIndex.restamp(path, [1, 2], [3, 4], Store(directory).paper_ids)
    assert path.read_bytes() == kept
    assert SimilarityIndex.restamp(path, stamp, [1, 2], Store(directory).paper_ids)
    assert SimilarityIndex.load(path, [1, 2]) is not None


def test_the_summaries_file_pieces_are_one_dump_of_the_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_store, "_PIECE_BYTES", 1_000)
    docs = {f"forum{n}": {"count": n, "mean": n / 3, "scale": "1-10"} for n in range(500)}
    entries = {forum: orjson.dumps(doc) for forum, doc in docs.items()}
    spans: list[tuple[str, tuple[int, int]]] = []
    pieces = list(review_store._encoded_object_pieces(entries, spans))
    whole = b"".join(pieces)
    assert len(pieces) > 10 and whole == orjson.dumps(docs)
    assert [key for key, _ in spans] == list(docs)
    assert all(whole[start:end] == orjson.dumps(key) + b":" + entries[key] for key, (start, end) in spans)
    assert b"".join(review_store._encoded_object_pieces({}, [])) == orjson.dumps({})


def test_a_held_summary_takes_its_length_not_orjsons_buffer() -> None:
    import tracemalloc

    doc = {"count": 3, "mean": 5.333, "std": 1.2, "venue": "ICLR.cc/2026/Conference"}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = [review_store._exact(orjson.dumps(doc)) for _ in range(1_000)]
        size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held[0] == orjson.dumps(doc)
    assert size < 1_000 * 300  # orjson's own results: ~4 KiB each


def test_staged_notes_are_told_by_their_versions_in_any_order() -> None:
    from paperdeck.model.review import Review

    notes = [Review(f"n{k}", "F", "F", "review", tmdate=k + 1) for k in range(3)]
    staged = review_store.StagedWords()
    try:
        staged.add(notes)
        unit = staged.unit("F", notes[::-1])
        assert unit is not None
        assert staged.unit("F", notes[:2]) is None
        assert staged.unit("F", [*notes[:2], Review("n2", "F", "F", "review", tmdate=9)]) is None
        assert staged.unit("G", notes) is None
    finally:
        staged.close()
