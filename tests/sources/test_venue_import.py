"""Importing other venues' files: each paper's ratings get the scale of its venue (known, or
inferred from the file), a file whose ratings mix scales is refused in one line naming the file
and the record, and Paper Copilot's variants (``rating_avg`` as ``[mean, std]`` or a number,
authors joined by ``;``, ``; ``, ``;  `` or ``, ``) are read right."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Ratings
from paperdeck.sources.importer import read_files

from tests.helpers import fixture


def record(n: int, **fields: Any) -> dict[str, Any]:
    return {"id": f"f{n:09d}", "title": f"Paper {n}", "abstract": f"Abstract {n}.", "status": "Poster",
            "track": "main", **fields}  # fmt: skip


def write(folder: Path, name: str, records: list[dict[str, Any]]) -> Path:
    path = folder / name
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("average", "expected"),
    [
        ("[5.75, 0.4330127018922193]", Ratings(5.75, 0.4330127018922193, scale="1-10")),  # COLM 2025's text
        ([5.75, 0.43], Ratings(5.75, 0.43, scale="1-10")),
        ("5.0", Ratings(5.0, scale="1-10")),  # ICLR 2017's text
        (6.5, Ratings(6.5, scale="1-10")),
    ],
)
def test_rating_avg_as_a_pair_or_a_number_reads_right(tmp_path: Path, average: object, expected: Ratings) -> None:
    path = write(tmp_path, "colm2025.json", [record(1, rating="", rating_avg=average)])
    (read,) = read_files([path])
    assert read.papers[0].ratings == expected and read.papers[0].venue_label == "COLM 2025"


def test_rating_avg_text_that_is_no_list_is_refused_naming_the_file_and_record(tmp_path: Path) -> None:
    path = write(tmp_path, "colm2025.json", [record(1, rating_avg="5"), record(2, rating_avg="[5.75, oops")])
    with pytest.raises(SourceError) as refused:
        read_files([path])
    assert str(refused.value) == (f"{path}: record 2: rating_avg '[5.75, oops' is neither a number nor [mean, std]")


@pytest.mark.parametrize("joined", ["A. One;B. Two;C. Three", "A. One; B. Two; C. Three", "A. One;  B. Two;  C. Three",
                                    "A. One, B. Two, C. Three"])  # fmt: skip
def test_authors_joined_any_of_the_ways_the_files_join_them(tmp_path: Path, joined: str) -> None:
    (read,) = read_files([write(tmp_path, "nips2018.json", [record(1, author=joined)])])
    assert read.papers[0].authors == ("A. One", "B. Two", "C. Three")


def test_a_file_whose_ratings_mix_scales_is_refused_in_one_line(tmp_path: Path) -> None:
    records = [record(1, rating="0;2;4"), record(2, rating="6;8"), record(3, rating="5;7")]
    path = write(tmp_path, "iclr2026.json", records)
    with pytest.raises(SourceError) as refused:
        read_files([path])
    assert str(refused.value) == (
        f"{path}: paper 3 (openreview:f000000003): rating 5 is not on ICLR 2026's scale "
        "(0, 2, 4, 6, 8, 10): the file mixes scales"
    )


def test_a_venue_of_no_known_scale_gets_the_scale_its_values_infer(tmp_path: Path) -> None:
    path = write(tmp_path, "aistats2030.json", [record(1, rating="2;3"), record(2, rating="4;5")])
    (read,) = read_files([path])
    assert {paper.ratings.scale for paper in read.papers if paper.ratings} == {"1-5"}


@pytest.mark.parametrize(("name", "venue", "scale"), [("papercopilot_colm2025.json", "COLM 2025", "1-10"),
                                                      ("papercopilot_iclr2017.json", "ICLR 2017", "1-10")])  # fmt: skip
def test_the_venue_files_record_their_scale(name: str, venue: str, scale: str) -> None:
    (read,) = read_files([fixture(name)])
    rated = [paper for paper in read.papers if paper.ratings is not None]
    assert rated and {paper.venue_label for paper in read.papers} == {venue}
    assert {paper.ratings.scale for paper in rated if paper.ratings} == {scale}
