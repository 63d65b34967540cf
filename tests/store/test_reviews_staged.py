"""The reviews import's faster path: words folded while the files are read, the collector paused.

The words an import folds as it reads each file (:class:`paperdeck.store.reviews.StagedWords`, in
a thread of the import's process) must give the index the import would make from the notes it stores —
also for a paper whose notes are on two files, a note replaced by a newer one, and a paper that
had notes stored before. Slices of the real review parts' cuts (``tests/data/``) are read.
"""

from __future__ import annotations

import gc
import gzip
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store import reviews as review_store
from paperdeck.store.review_words import WordIndex, WordIndexBuilder
from paperdeck.store.store import Store

from tests.helpers import review_parts

PARTS = review_parts()


def _lines(part: Path, start: int, count: int) -> list[dict[str, Any]]:
    with gzip.open(part, "rb") as handle:
        return [json.loads(line) for line in itertools.islice(handle, start, start + count)]


def _write(path: Path, notes: list[dict[str, Any]]) -> Path:
    path.write_bytes(gzip.compress(b"".join(json.dumps(note).encode() + b"\n" for note in notes)))
    return path


def _words(store: Store) -> dict[str, set[bytes]]:
    """Each paper's words in the store's review word index."""
    index = store.reviews.word_index()
    assert isinstance(index, WordIndex)
    found: dict[str, set[bytes]] = {forum: set() for forum in index.forums}
    for number, word in enumerate(index.words()):
        for paper in index.postings[index.starts[number] : index.starts[number + 1]].tolist():
            found[index.forums[paper]].add(word)
    return found


def _state(data_dir: Path) -> tuple[dict[str, set[bytes]], dict[str, Any], dict[str, list[dict[str, Any]]]]:
    store = Store(data_dir)
    summaries = {forum: summary.to_dict() for forum, summary in store.reviews.summaries().items()}
    notes = {forum: [review.to_dict() for review in store.reviews.reviews(forum)] for forum in summaries}
    return _words(store), summaries, notes


@pytest.mark.parametrize(("batches", "mixed"), [(True, True), (True, False), (False, True)])
def test_words_folded_while_reading_are_those_the_import_would_fold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batches: bool, mixed: bool
) -> None:
    """Three slices of the real parts and (``mixed``) a fourth file with a newer version of a
    note of the first (its paper on two files), a note on a paper stored before: the store made
    with the words staged is the one made from the same notes without staging."""
    if batches:  # several batches, folded in the thread one after another
        monkeypatch.setattr(WordIndexBuilder, "BATCH_BYTES", 1 << 16)
    taken: list[bool] = []
    unit = review_store.StagedWords.unit

    def spy(self: review_store.StagedWords, forum: str, notes: list[Any]) -> int | None:
        found = unit(self, forum, notes)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(review_store.StagedWords, "unit", spy)
    stored = _lines(PARTS[0], 0, 40)
    first, second, third = (_lines(part, 40 if n == 0 else 0, 120) for n, part in enumerate(PARTS))
    newer = json.loads(json.dumps(first[5]))
    newer["tmdate"] += 1000
    newer["content"]["weaknesses"]["value"] = "Zygomorphic quixotic baselines"
    later = json.loads(json.dumps(stored[0]))
    later.update(id="laterNote1", cdate=later["cdate"] + 1, tmdate=later["tmdate"] + 1)
    later["content"]["summary"]["value"] = "Xerophilous ablations"
    extra = [newer, dict(first[6], id="sameForumNew1"), later] if mixed else []
    files = [_write(tmp_path / f"{name}.jsonl.gz", notes)
             for name, notes in (("a", first), ("b", second), ("c", third), ("d", extra)) if notes]  # fmt: skip
    staged_dir, plain_dir = tmp_path / "staged", tmp_path / "plain"
    if mixed:
        for data_dir in (staged_dir, plain_dir):
            import_files(Store(data_dir), [_write(tmp_path / "stored.jsonl.gz", stored)])
    taken.clear()
    summary = import_files(Store(staged_dir), files)
    plain = Store(plain_dir)
    plain.import_reviews([review for path in files for review in read_source(path).reviews])
    words, summaries, notes = _state(staged_dir)
    assert (words, summaries, notes) == _state(plain_dir)
    ids = {note["id"] for note in [*first, *second, *third, *extra]}
    assert summary.reviews is not None and (summary.reviews.new, summary.reviews.updated) == (len(ids), 0)
    if mixed:
        assert b"zygomorphic" in words[newer["forum"]] and b"xerophilous" in words[later["forum"]]
    assert set(words) == {note["forum"] for note in [*(stored if mixed else []), *first, *second, *third]}
    assert all(taken) if not mixed else (any(taken) and not all(taken))  # staged, but for the mixed papers
    again = import_files(Store(staged_dir), files)  # nothing new: nothing staged, nothing written
    assert again.reviews is not None and again.reviews.new == again.reviews.updated == 0
    assert _state(staged_dir) == (words, summaries, notes)


def test_an_import_pauses_the_collector_and_leaves_it_as_it_found_it(data_dir: Path, tmp_path: Path) -> None:
    good = _write(tmp_path / "good.jsonl.gz", _lines(PARTS[0], 0, 20))
    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(good.read_bytes()[:-40])
    seen: list[bool] = []

    def progress(index: int, total: int, path: Path) -> None:
        seen.append(gc.isenabled())

    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            import_files(Store(data_dir), [good], progress=progress)
            assert gc.isenabled() is enabled
            with pytest.raises(SourceError, match="truncated gzip"):  # read ahead, raised in its turn
                import_files(Store(data_dir), [good, truncated], progress=progress)
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)
