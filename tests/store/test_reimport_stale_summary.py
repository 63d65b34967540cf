"""Re-importing an unchanged Paper Copilot file on a store an older paperdeck wrote counts 0 updated.

The fourteenth round: a store built before the rating spread was summed exactly (the thirteenth
round's ``mean_and_std``) holds, for some papers, the spread its review summaries gave then:
COLM 2025's ``5;6;7;7;7`` as ``0.7999999999999999`` where the file now gives ``0.8``. The merge
took the file's ``0.8`` (a change: "1 updated"), then the store set the paper's ratings back from
its unchanged review summary (``0.7999999999999999``) and wrote the catalogue byte for byte as it
was, so every re-import said "updated" while nothing changed. What is counted now is the paper as
the store writes it (:meth:`~paperdeck.store.merge.MergeResult.as_written`), and a field's source
recorded as the paper's first file is no change (the catalogue file does not record it)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from paperdeck.model import review_summary
from paperdeck.model.paper import Paper, Ratings
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import Merger, same_data
from paperdeck.store.store import Store

from tests.helpers import fixture

FILE = "papercopilot_colm2025.json"
#: The spread of ``5;6;7;7;7`` summed in review order by a plain ``sum`` (before the thirteenth
#: round), and summed exactly (as a file's scores and the reviews give it now).
STALE, EXACT = 0.7999999999999999, 0.8


def _plain_sum(values: Iterable[float]) -> float:
    """Left to right, rounding at each addition, as Python 3.11's ``sum`` adds floats (3.12's
    ``sum`` compensates, and would not give the older bits)."""
    total = 0.0
    for value in values:
        total += value
    return total


def _older_mean_and_std(scores: list[float]) -> tuple[float, float]:
    """The mean and spread as paperdeck summed them before the thirteenth round (plain sums)."""
    mean = _plain_sum(scores) / len(scores)
    return mean, (_plain_sum((s - mean) * (s - mean) for s in scores) / len(scores)) ** 0.5


def _one_record_file(tmp_path: Path) -> Path:
    """The first COLM 2025 record of the fixture, its scores those of ``H6so82c2Sw`` (``5;6;7;7;7``),
    its reviewers named so that review order is ``7;5;6;7;7``: an order whose plain sum differs."""
    record = json.loads(fixture(FILE).read_text("utf-8"))[0]
    record.update(rating="5;6;7;7;7", reviewers="b;c;a;d;e", confidence="3;4;4;5;4")
    path = tmp_path / FILE
    path.write_text(json.dumps([record]), "utf-8")
    return path


def test_re_importing_on_a_store_with_a_stale_review_summary_counts_no_paper_updated(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _one_record_file(tmp_path)
    with monkeypatch.context() as older:  # the store as an older paperdeck wrote it
        older.setattr(review_summary, "mean_and_std", _older_mean_and_std)
        assert import_files(Store(data_dir), [path]).new == 1
    (paper,) = Store(data_dir).papers
    assert paper.ratings is not None and paper.ratings.std == STALE  # the stale bits, as stored
    written = (data_dir / "catalogue.json").read_bytes()
    for _ in range(3):  # each in a store opened again, as the CLI does
        again = import_files(Store(data_dir), [path])
        assert (again.new, again.updated, again.unchanged) == (0, 0, 1)
    assert (data_dir / "catalogue.json").read_bytes() == written


def _stale_paper() -> Paper:
    return Paper(
        "openreview:H6so82c2Sw",
        "A paper",
        "An abstract long enough to be one. " * 4,
        venue="COLM",
        year=2025,
        openreview_id="H6so82c2Sw",
        ratings=Ratings(6.4, STALE, 5.0, 7.0, 5, "1-10"),
        sources=(FILE,),
    )


def test_a_paper_the_reviews_set_back_as_it_was_is_counted_unchanged() -> None:
    """The merge takes the file's spread (a change); written, the paper's ratings are its review
    summary's again, its provenance naming the file it came from anyway: unchanged."""
    stale = _stale_paper()
    from_file = Paper(
        stale.id,
        stale.title,
        stale.abstract,
        venue="COLM",
        year=2025,
        openreview_id="H6so82c2Sw",
        ratings=Ratings(6.4, EXACT, 5.0, 7.0, 5, "1-10"),
        sources=(FILE,),
    )
    result = Merger({stale.id: stale}, {}).merge([from_file])
    assert (result.updated, result.unchanged) == (1, 0)
    merged = result.papers[stale.id]
    assert merged.provenance == (("ratings", FILE),)
    written = {stale.id: Paper.from_dict({**merged.to_dict(), "ratings": stale.ratings.to_dict()})}
    counted = result.as_written({stale.id: stale}, written)
    assert (counted.updated, counted.unchanged, counted.updated_ids) == (0, 1, ())
    # a paper that did change as written stays updated
    assert result.as_written({stale.id: stale}, result.papers) is result


def test_a_source_recorded_as_the_papers_first_file_is_no_change() -> None:
    stale = _stale_paper()
    assert same_data(stale, Paper.from_dict({**stale.to_dict()}))
    from dataclasses import replace

    assert same_data(stale, replace(stale, provenance=(("ratings", FILE),)))
    assert not same_data(stale, replace(stale, provenance=(("ratings", "other.csv"),)))
