"""A per-review rating that is no rating (``"x"``, ``-3``) is never dropped without a word: a Paper
Copilot or CSV file holding one is refused in one line naming the file, the record and the values,
and changes nothing (not the venue's scale either); an OpenReview submission note holding one is
skipped as a malformed record, as that format skips its malformed records. ``-1`` stays Paper
Copilot's "no rating"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.cli.main import main
from paperdeck.model.venue import scale_of
from paperdeck.sources import openreview
from paperdeck.store.store import Store


def record(n: int, rating: str) -> dict[str, Any]:
    return {"id": f"B1E7Pwq{n:03d}", "title": f"Paper {n}", "abstract": f"Abstract {n}.", "status": "Reject",
            "track": "main", "site": f"https://openreview.net/forum?id=B1E7Pwq{n:03d}", "rating": rating}  # fmt: skip


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_papercopilot_rating_that_is_none_refuses_the_file_naming_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    good = write(tmp_path / "iclr2017.json", [record(1, "4;5;6"), record(2, "5;6;6")])
    assert run(capsys, "--data-dir", data, "import", str(good))[0] == 0
    (before,) = {str(scale_of(p)) for p in Store(Path(data)).papers}
    # the tester's hostile4.json: one record's list mixes words, a value off the scale, a negative
    bad = write(tmp_path / "iclr2017-more.json", [record(1, "4;5;6"), record(3, "x;y;11;-3"), record(4, "6;7")])
    status, out, err = run(capsys, "--data-dir", data, "import", str(bad))
    assert status != 0 and "Imported" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(bad) in lines[0] and "record 2" in lines[0], err
    assert "'x;y;11;-3'" in lines[0] and "x, y, -3 are not ratings" in lines[0], err
    papers = Store(Path(data)).papers
    assert sorted(p.id for p in papers) == ["openreview:B1E7Pwq001", "openreview:B1E7Pwq002"]
    assert {str(scale_of(p)) for p in papers} == {before}


def test_a_venue_without_a_known_scale_keeps_its_scale_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tester's file names no venue: its ratings' scale is read from its values, so one
    stray 11 among words would have made it 1–11 for every paper of the file."""
    data = str(tmp_path / "data")
    bad = write(tmp_path / "hostile4.json", [record(1, "4;5;6"), record(2, "x;y;11;-3")])
    status, _, err = run(capsys, "--data-dir", data, "import", str(bad))
    assert status != 0 and "record 2" in err
    assert Store(Path(data)).papers == []


def test_a_csv_rating_that_is_none_refuses_the_file_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "list.csv"
    path.write_text("title,rating\nA paper,5;6;8\nAnother paper,5;x;8\n", encoding="utf-8")
    status, _, err = run(capsys, "--data-dir", str(tmp_path / "data"), "import", str(path))
    assert status != 0
    assert f"{path}:3:" in err and "'5;x;8'" in err and "x is not a rating" in err
    assert Store(tmp_path / "data").papers == []


def test_an_openreview_note_with_a_rating_that_is_none_is_a_malformed_record(tmp_path: Path) -> None:
    def note(n: int, rating: object) -> dict[str, Any]:
        return {"id": f"OrNote{n:04d}", "content": {"title": {"value": f"Paper {n}"},
                "abstract": {"value": "An abstract."}, "rating": {"value": rating}}}  # fmt: skip

    path = write(tmp_path / "notes.json", [note(1, "5;6"), note(2, [5, "x", 6]), note(3, "6;8")])
    read = openreview.read(path)
    assert [p.title for p in read.papers] == ["Paper 1", "Paper 3"]
    ((position, reason),) = ((s.position, s.reason) for s in read.skipped)
    assert position == "record 2" and reason.startswith("malformed record: rating '5;x;6'"), reason


@pytest.mark.parametrize(
    ("given", "taken"),
    [
        ("5;6;8", [5.0, 6.0, 8.0]),
        ("6;0;-1;8", [6.0, 0.0, 8.0]),  # -1 is Paper Copilot's "no rating"; 0 is a rating
        ([6, 8, 0, -1], [6.0, 8.0, 0.0]),
        ("-1", []),
        ("0;0", []),
        ("", []),
        (None, []),
        ("5; 6 ;", [5.0, 6.0]),
    ],
)
def test_review_ratings_takes_every_rating(given: object, taken: list[float]) -> None:
    from paperdeck.sources.common import review_ratings

    assert review_ratings(given) == taken


@pytest.mark.parametrize("given", ["x;y;11;-3", "5;-3", [5, True], "6;1e3", "5;\x1b[31m"])
def test_review_ratings_refuses_what_is_no_rating(given: object) -> None:
    from paperdeck.sources.common import review_ratings

    with pytest.raises(ValueError, match=r"not a rating|not ratings") as caught:
        review_ratings(given)
    assert "\x1b" not in str(caught.value)
