"""bench/scale.py: the copies a scale run imports are new, valid papers, and their reviews follow them.

On the review sample of ``tests/data`` (51 OpenReview notes on 12 ICLR 2026 papers, and those
papers' ReviewTracker records: :func:`tests.helpers.write_review_sample`).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.ids import valid_openreview_id

from tests.helpers import run, write_review_sample

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import scale

COPIES = 3


@pytest.fixture
def scaled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Path], list[Path], list[dict[str, Any]]]:
    """The sample scaled 3 × (the dump part and the review part of :func:`scale.scaled_files`),
    and the sample's notes."""
    sample = write_review_sample(tmp_path)
    notes = sample.notes()
    part = tmp_path / "reviews.part1of1.jsonl.gz"
    with gzip.open(part, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(note) + "\n" for note in notes)
    monkeypatch.setattr(scale, "DUMP", [sample.papers_file])
    monkeypatch.setattr(scale, "REVIEW_PARTS", [part])
    dump, reviews = scale.scaled_files(COPIES, tmp_path / "scaled")
    return dump, reviews, notes


def _lines(path: Path) -> list[dict[str, Any]]:
    text = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _text(field: Any) -> str:
    return str(field["value"] if isinstance(field, dict) else field)


def test_copies_have_new_valid_ids(scaled: tuple[list[Path], list[Path], list[dict[str, Any]]]) -> None:
    dump, reviews, notes = scaled
    papers = [record for path in dump for record in _lines(path)]
    ids = [paper["id"] for paper in papers]
    assert len(ids) == COPIES * 12
    assert len(set(ids)) == len(ids)
    assert all(valid_openreview_id(paper_id) for paper_id in ids)
    titles = [_text(paper["content"]["title"]) for paper in papers]
    assert len(set(titles)) == len(titles)  # a copy's title is marked [k]
    note_ids = [note["id"] for path in reviews for note in _lines(path)]
    assert len(note_ids) == COPIES * len(notes)
    assert len(set(note_ids)) == len(note_ids)
    assert all(valid_openreview_id(note_id) for note_id in note_ids)


def test_reviews_follow_their_paper(scaled: tuple[list[Path], list[Path], list[dict[str, Any]]]) -> None:
    _, reviews, notes = scaled
    assert len(reviews) == COPIES  # the original part and one file per copy
    renumbered = 0
    for k, path in enumerate(reviews[1:], start=1):
        for note, original in zip(_lines(path), notes, strict=True):
            assert note["forum"] == scale.copy_id(original["forum"], k)
            assert note["replyto"] == scale.copy_id(original["replyto"], k)
            for key in ("signatures", "invitations"):
                for value, was in zip(note.get(key, []), original.get(key, []), strict=True):
                    numbered = re.search(r"/Submission(\d+)/", was)
                    if numbered is not None:
                        renumbered += 1
                        new = f"/Submission{int(numbered.group(1)) + k * scale.NUMBER_STEP}/"
                        assert value == was.replace(numbered.group(0), new)
    assert renumbered >= len(notes)  # every copy's notes name their copy's submission


def test_the_scaled_files_import_as_distinct_papers_with_their_reviews(
    scaled: tuple[list[Path], list[Path], list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    dump, reviews, _ = scaled
    code, out, err = run(capsys, "import", "--json", *map(str, dump))
    assert code == 0, err
    assert json.loads(out)["papers"] == COPIES * 12
    code, out, err = run(capsys, "import", "--json", *map(str, reviews))
    assert code == 0, err
    attached = json.loads(out)["reviews"]
    assert attached["papers"] == COPIES * 12  # every copy's reviews on that copy
    assert attached["waiting"] == 0  # none left waiting for a paper the store does not hold
