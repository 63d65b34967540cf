"""One rule for bad input, every format (docs/importing.md, "Bad input"): a file that is not what it
claims (broken structure, a value over its size limit) is refused whole, in one line naming the file
and the record, nothing imported; a score that stands for no finite number (rating, confidence or any
other score) is dropped and counted, the rest of the file imported.

The tester's files of the thirteenth round (``/tmp/tester13/host/``) showed the formats disagreeing;
the OpenReview cuts are ``tests/data/hostile13_*`` (origin in ``tests/data/README.md``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import fixture

HOSTILE_PAPERS = fixture("hostile13_openreview_escapes-nan-rating.jsonl")


def _copilot(tmp_path: Path, rating: str, confidence: str) -> Path:
    records = json.loads(fixture("papercopilot_colm2025.json").read_text("utf-8"))[:2]
    records[1]["rating"], records[1]["confidence"] = rating, confidence
    path = tmp_path / "papercopilot_colm2025.json"
    path.write_text(json.dumps(records), "utf-8")
    return path


def test_an_openreview_submissions_nan_rating_is_dropped_and_counted(data_dir: Path) -> None:
    store = Store(data_dir)
    summary = import_files(store, [HOSTILE_PAPERS])
    assert summary.new == 2 and summary.dropped == {"non-finite rating": 1}
    assert store.paper("openreview:HostNaN002").ratings is None  # type: ignore[union-attr]


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e309"])
def test_a_paper_copilot_rating_for_no_finite_number_drops_that_rating_alone_counted(
    data_dir: Path, tmp_path: Path, value: str
) -> None:
    """The fifteenth round's tester: ``"1e309;5;6"`` lost the paper's every rating and its reviews
    (``rating: no ratings yet``). Now that one value is left out and counted, as a confidence is:
    the mean is the other reviews', their reviews kept, and the one left without a score out."""
    store = Store(data_dir)
    summary = import_files(store, [_copilot(tmp_path, f"6;{value};7", "3;4;4")])
    assert summary.new == 2 and summary.dropped == {"non-finite rating": 1}, summary.dropped
    paper = next(p for p in store.papers if p.title.startswith("Learning Effective Language"))
    assert paper.ratings is not None and (paper.ratings.mean, paper.ratings.count) == (6.5, 2)
    assert paper.confidence is not None
    scores = sorted(dict(review.scores).get("rating", -1) for review in store.reviews.reviews(paper.openreview_id))
    assert scores == [-1, 6.0, 7.0]  # the bad rating's review keeps its confidence, no rating


def test_a_paper_copilot_review_with_no_finite_score_left_is_left_out(data_dir: Path, tmp_path: Path) -> None:
    store = Store(data_dir)
    summary = import_files(store, [_copilot(tmp_path, "6;1e309;7", "3;NaN;4")])
    assert summary.dropped == {"non-finite rating": 1, "non-finite confidence": 1}, summary.dropped
    paper = next(p for p in store.papers if p.title.startswith("Learning Effective Language"))
    assert paper.ratings is not None and paper.ratings.count == 2 and paper.confidence == 3.5
    assert sorted(dict(review.scores)["rating"] for review in store.reviews.reviews(paper.openreview_id)) == [6.0, 7.0]


def test_a_csv_rating_or_confidence_for_no_finite_number_drops_that_value_alone(data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "iclr2026.csv"
    path.write_text(
        'title,abstract,ratings,confidence\nA paper,An abstract long enough to be one,"nan;4;6","3;inf;4"\n', "utf-8"
    )
    store = Store(data_dir)
    summary = import_files(store, [path])
    assert summary.dropped == {"non-finite rating": 1, "non-finite confidence": 1}, summary.dropped
    ratings = store.papers[0].ratings
    assert ratings is not None and (ratings.mean, ratings.count) == (5.0, 2) and store.papers[0].confidence == 3.5


def test_an_openreview_notes_rating_list_drops_its_non_finite_value_alone(data_dir: Path, tmp_path: Path) -> None:
    note = {"id": "OrNan00001", "content": {"title": {"value": "A paper"}, "rating": {"value": "1e309;4;6"},
            "abstract": {"value": "An abstract long enough to be imported as a paper."}}}  # fmt: skip
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps(note) + "\n", "utf-8")
    store = Store(data_dir)
    summary = import_files(store, [path])
    assert summary.dropped == {"non-finite rating": 1}, summary.dropped
    ratings = store.papers[0].ratings
    assert ratings is not None and (ratings.mean, ratings.count) == (5.0, 2)


def test_a_paper_copilot_confidence_for_no_finite_number_is_dropped_and_counted(data_dir: Path, tmp_path: Path) -> None:
    store = Store(data_dir)
    summary = import_files(store, [_copilot(tmp_path, "6;6;7", "3;Infinity;4")])
    assert summary.new == 2 and summary.dropped == {"non-finite confidence": 1}, summary.dropped
    paper = next(p for p in store.papers if p.title.startswith("Learning Effective Language"))
    # that review's confidence is left out; the paper's is the mean of the ones kept, its rating whole
    assert paper.confidence == 3.5 and paper.ratings is not None and paper.ratings.count == 3


def test_an_over_long_title_refuses_the_file_naming_the_record(data_dir: Path, tmp_path: Path) -> None:
    record = json.loads(HOSTILE_PAPERS.read_text("utf-8").splitlines()[1])
    record["content"]["title"]["value"] = "T" * 5_000
    path = tmp_path / "hostile.jsonl"
    path.write_text(HOSTILE_PAPERS.read_text("utf-8") + json.dumps(record).replace("HostNaN002", "HostBig003") + "\n")
    store = Store(data_dir)
    with pytest.raises(SourceError) as caught:
        import_files(store, [path])
    message = str(caught.value)
    assert str(path) in message and "paper 3 (openreview:HostBig003)" in message and "5,000" in message
    assert not (data_dir / "catalogue.json").exists() or not store.papers


def test_an_unclosed_bibtex_entry_refuses_the_file_naming_its_line(data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "hostile.bib"
    good = "@misc{c, title={Preprint}, journal={CoRR}, eprint={2501.00001}, abstract={An abstract long enough.}}\n"
    path.write_text(good + "@inproceedings{open,\n title={Never closed},\n year={2026}\n" + good.replace("c,", "d,"))
    store = Store(data_dir)
    with pytest.raises(SourceError) as caught:
        import_files(store, [path])
    assert f"{path}:" in str(caught.value) and "\n" not in str(caught.value)
    assert not store.papers
