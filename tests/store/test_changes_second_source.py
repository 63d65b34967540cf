"""What the change log says when a second source moves what the first set (a tester's find, on
333 ICLR 2026 papers): the Paper Copilot Parquet brought a paper already in the store (under
review) its decision and its pre-discussion mean (``rating 4.5``, ratings ``[2, 4, 6, 6]``), then
the first review notes imported made it 7.0, unlogged: the history said ``first imported
2026-12-07: decision poster, rating 4.5`` under a header saying 7.0, and ``show --json`` named the
Parquet for the ratings.

The store here is made of the cuts in ``tests/data/`` of the real files the tester imported: the
ReviewTracker submissions (266 ICLR 2026 papers, under review), the Paper Copilot Parquet (126 of
them accepted) and the ReviewTracker review parts (their notes), in that order."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.changes import PaperChange, with_baseline
from paperdeck.sources.importer import import_files
from paperdeck.store.rescoring import REVIEWS_SOURCE
from paperdeck.store.store import Store

from tests.helpers import fixture

#: A paper of the cuts the Parquet rated 4.5 and its review notes 6.
MOVED = "openreview:AaZVrbElhC"


def _store(data_dir: Path) -> Store:
    store = Store(data_dir)
    import_files(store, [fixture(f"iclr2026_submissions_reviewtracker.part{n}of3.jsonl") for n in (1, 2, 3)])
    import_files(store, [fixture("iclr2026_accepted_papercopilot-derived.parquet")])
    import_files(store, [fixture(f"iclr2026_reviews_reviewtracker.part{n}of3.jsonl.gz") for n in (1, 2, 3)])
    return store


def test_the_first_reviews_log_the_ratings_they_move_and_are_named_for_them(data_dir: Path) -> None:
    store = _store(data_dir)
    row = store.row(MOVED)
    assert row is not None and row.rating == 6.0
    assert [c.mean for c in store.paper_changes(MOVED)] == [(None, 4.5), (4.5, 6.0)]
    last_mean: dict[str, float | None] = {}
    for change in store.changes(""):
        if change.mean is not None:
            last_mean[change.paper_id] = change.mean[1]
    assert last_mean, "the Parquet's means are logged"
    for paper_id, mean in last_mean.items():  # the log never ends on a mean the paper no longer has
        now = store.row(paper_id)
        assert now is not None and now.rating is not None and mean is not None, paper_id
        assert abs(now.rating - mean) < 0.01, (paper_id, mean, now.rating)
    paper = store.paper(MOVED)
    assert paper is not None and paper.source_of("ratings") == REVIEWS_SOURCE
    assert paper.source_of("decision") == "iclr2026_accepted_papercopilot-derived.parquet"


def test_the_history_of_a_paper_already_present_is_not_its_first_import(data_dir: Path) -> None:
    store = _store(data_dir)
    store.first_look()  # the app opens the store: everything so far is the baseline
    (history,) = store.paper_history(MOVED)
    line = history.lines()[0]
    assert line.startswith("as first seen ") and line.endswith(": decision poster, rating 6"), line


def test_a_log_that_missed_a_move_says_no_rating_the_paper_no_longer_has() -> None:
    logged = [PaperChange(at="2026-12-07T19:49:33+00:00", paper_id="openreview:HQuboWvFA1",
                          decision=("under-review", "poster"), mean=(None, 4.5))]  # fmt: skip
    baseline = "2026-12-07T20:00:00+00:00"
    assert with_baseline(logged, baseline, 7.0)[0].lines() == ["as first seen 2026-12-07: decision poster"]
    assert with_baseline(logged, baseline, 4.5)[0].lines() == ["as first seen 2026-12-07: decision poster, rating 4.5"]
    added = [PaperChange(at=logged[0].at, paper_id="openreview:HQuboWvFA1", new=True, mean=(None, 4.5))]
    assert with_baseline(added, baseline)[0].lines() == ["first imported 2026-12-07: rating 4.5"]
