"""An import's progress moves while the reviews read are merged, not only from file to file.

The fourteenth round: importing the full ICLR 2026 dump with its three review parts, the bar said
``reading iclr2026_reviews_reviewtracker.part3of3.jsonl.gz`` for 7–8 s at 62 %: the last part read,
then the papers merged and all 81,870 reviews merged and their word index written, with nothing
said. The merge now tells :data:`~paperdeck.sources.importer.Merging` what it merges — the papers
once, the reviews once a shard's are merged (how many of how many), then the word index — and the
command line's bar says it (``merging reviews 12,345/81,870``). Counted here, not timed."""

from __future__ import annotations

import io
from pathlib import Path

from paperdeck.cli.output import ImportBar
from paperdeck.sources.importer import import_files
from paperdeck.store.reviews import ReviewSpill, shard_of
from paperdeck.store.store import Store

from tests.helpers import ReviewSample


def test_an_import_tells_the_papers_then_each_shard_of_reviews_merged(
    data_dir: Path, review_sample: ReviewSample
) -> None:
    told: list[tuple[str, int, int]] = []
    files: list[str] = []
    summary = import_files(
        Store(data_dir),
        [review_sample.papers_file, review_sample.notes_file],
        progress=lambda index, count, path: files.append(path.name),
        merging=lambda what, done, total: told.append((what, done, total)),
    )
    assert files == [review_sample.papers_file.name, review_sample.notes_file.name]
    notes = review_sample.notes()
    assert told[0] == ("papers", 0, 12)
    merged = [(done, total) for what, done, total in told if what == "reviews"]
    shards = {shard_of(note["forum"]) for note in notes}
    assert len(merged) == len(shards) > 1  # once a shard's notes are merged
    assert all(total == len(notes) for _, total in merged)
    dones = [done for done, _ in merged]
    assert dones == sorted(dones) and dones[0] > 0 and dones[-1] == len(notes)
    after = [what for what, _, _ in told[told.index(("reviews", len(notes), len(notes))) + 1 :]]
    assert after[0] == "review words"
    words = [(done, total) for what, done, total in told if what == "review words"]
    assert words[0][0] == 0 and len(words) > 2 and words[-1][0] == words[-1][1]  # its parts, to the last
    assert summary.reviews is not None and summary.reviews.new + summary.reviews.unchanged > 0


def test_the_reviews_merged_count_every_version_read_once(tmp_path: Path, review_sample: ReviewSample) -> None:
    """A note read twice (two versions) counts twice, as the spill counts it: the last call says all."""
    from paperdeck.sources import read_source

    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file])
    reviews = list(read_source(review_sample.notes_file).reviews)
    spill = ReviewSpill(tmp_path)
    try:
        spill.add([*reviews, reviews[0]])  # the first note read again
        told: list[tuple[str, int, int]] = []
        store.import_reviews(spill, progress=lambda what, done, total: told.append((what, done, total)))
    finally:
        spill.close()
    merged = [(done, total) for what, done, total in told if what == "reviews"]
    assert merged[-1] == (len(reviews) + 1, len(reviews) + 1)


def test_the_bar_says_what_is_merged_and_moves_through_the_merge() -> None:
    from rich.console import Console
    from rich.progress import Progress

    console = Console(file=io.StringIO(), width=80, force_terminal=False)
    with Progress(console=console, auto_refresh=False) as progress:
        bar = ImportBar(progress, files=2)
        task = progress.tasks[0]
        bar.reading(1, 2, Path("reviews.jsonl.gz"))
        assert (task.description, task.completed) == ("reading reviews.jsonl.gz", 1)
        bar.merging("papers", 0, 19_630)
        assert (task.description, task.completed) == ("merging 19,630 papers", 2)
        steps = []
        for done in (12_345, 40_000, 81_870):
            bar.merging("reviews", done, 81_870)
            steps.append(task.completed)
        assert task.description == "merging reviews 81,870/81,870"
        assert steps == sorted(steps) and 2 < steps[0] < steps[-1] < 3
        bar.merging("review words", 0, 19_499)
        assert task.description == "indexing the reviews' words" and steps[-1] <= task.completed < 3
        begun = task.completed
        bar.merging("review words", 30, 100)  # the index's parts, as the word index process writes them
        assert task.description == "indexing the reviews' words" and begun < task.completed < 3
        bar.step("indexing for search and similar papers")
        assert task.completed == 3
        bar.done()
        assert task.completed == task.total == 4


def test_the_papers_scores_move_as_the_catalogue_is_written(data_dir: Path) -> None:
    """bar14: ``writing N papers' scores`` sat still for 1.5 s at the full store; the write in
    place now tells how far through the catalogue it is, in the papers' count, in the same pass."""
    from tests.helpers import review_parts, submission_parts

    import_files(Store(data_dir), submission_parts())
    told: list[tuple[int, int]] = []
    import_files(
        Store(data_dir, lazy=True, rows=False, user_records=False),  # as the command line opens it
        review_parts(),
        merging=lambda what, done, total: told.append((done, total)) if what == "paper scores" else None,
    )
    dones = [done for done, _ in told]
    total = told[0][1]
    assert total > 0 and all(of == total for _, of in told)
    assert dones[0] == 0 and dones[-1] == total and dones == sorted(dones)
    assert len(set(dones)) > 10  # moving through the write, not only its start and end
