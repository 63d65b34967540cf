"""``paperdeck reviews ID``, and the review numbers ``show`` and ``stats`` carry."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ReviewSample, run


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def notes(review_sample: ReviewSample) -> list[dict[str, Any]]:
    return review_sample.notes()


@pytest.fixture
def store_dir(
    tmp_path: Path, notes: list[dict[str, Any]], review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]
) -> str:
    papers, sample = review_sample.papers_file, review_sample.notes_file
    hostile = json.loads(json.dumps(notes[0]))
    hostile["id"] = "hostile001"
    hostile["tmdate"] += 1
    hostile["content"]["weaknesses"]["value"] = "red \x1b[31mtext\x1b[0m [bold]markup[/bold] \x9b2J"
    extra = tmp_path / "hostile.json"
    extra.write_text(json.dumps([hostile]))
    data = str(tmp_path / "data")
    imported = run_json(capsys, "import", str(papers), str(sample), str(extra), "--data-dir", data)
    assert imported["reviews"] == {"new": 52, "updated": 0, "unchanged": 0, "papers": 12, "waiting": 0, "versions": 0}
    return data


def test_reviews_prints_every_note_with_scores_and_json(
    store_dir: str, notes: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    forum = notes[0]["forum"]
    mine = [n for n in notes if n["forum"] == forum]
    data = run_json(capsys, "reviews", forum, "--data-dir", store_dir)
    assert {r["id"] for r in data["reviews"]} == {n["id"] for n in mine} | {"hostile001"}
    ratings = [n["content"]["rating"]["value"] for n in mine if "rating" in n["content"]] + [
        notes[0]["content"]["rating"]["value"]
    ]
    assert data["summary"]["count"] == len(ratings)
    assert data["summary"]["spread"] == max(ratings) - min(ratings)
    code, out, _ = run(capsys, "reviews", forum, "--data-dir", store_dir)
    assert code == 0 and "weaknesses:" in out and f"from {len(ratings)} reviews" in out
    assert "\x1b" not in out and "\x9b" not in out and "␛[31m" in out and "[bold]markup[/bold]" in out


def test_show_json_carries_the_score_summary(
    store_dir: str, notes: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    forum = notes[-1]["forum"]
    shown = run_json(capsys, "show", forum, "--data-dir", store_dir)
    ratings = [n["content"]["rating"]["value"] for n in notes if n["forum"] == forum and "rating" in n["content"]]
    assert shown["review_summary"]["count"] == len(ratings)
    assert shown["review_summary"]["ratings"] == ratings
    code, out, _ = run(capsys, "show", forum, "--data-dir", store_dir)
    assert code == 0 and f"from {len(ratings)} reviews" in out


def test_stats_reports_reviewed_papers_reviews_and_the_rating_distribution(
    store_dir: str, notes: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    stats = run_json(capsys, "stats", "--data-dir", store_dir)
    rated = [n for n in notes if n["invitations"][0].endswith("Official_Review")] + [notes[0]]
    assert stats["reviews"] == len(rated) and stats["review_notes"] == len(notes) + 1
    assert stats["reviewed_papers"] == len({n["forum"] for n in rated})
    expected = Counter(f"{n['content']['rating']['value']:g}" for n in rated)
    assert stats["rating_distribution"] == dict(sorted(expected.items(), key=lambda kv: float(kv[0])))
    code, out, _ = run(capsys, "stats", "--data-dir", store_dir)
    assert code == 0 and "rating distribution:" in out


def test_a_reviews_only_import_leaves_a_similarity_index_that_fits_the_catalogue(
    tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reviews change the papers' ratings, so the catalogue: the import saves the similarity index
    again (the same index: none of its texts changed), and the app's first "more like this" reads it
    instead of building it."""
    from paperdeck.search.searcher import SIMILARITY_FILE
    from paperdeck.search.similar import SimilarityIndex
    from paperdeck.store.store import Store

    data = tmp_path / "data"
    run_json(capsys, "import", str(review_sample.papers_file), "--data-dir", str(data))
    stamp_before = Store(data).catalogue_stamp()
    built: list[int] = []
    real_init = SimilarityIndex.__init__

    def counted_init(self: SimilarityIndex, papers: Any) -> None:
        built.append(len(papers))
        real_init(self, papers)

    monkeypatch.setattr(SimilarityIndex, "__init__", counted_init)
    run_json(capsys, "import", str(review_sample.notes_file), "--data-dir", str(data))
    store = Store(data)
    assert store.catalogue_stamp() != stamp_before  # the reviews' ratings reached the catalogue
    stamp = store.catalogue_stamp()
    assert stamp is not None
    assert SimilarityIndex.load(data / SIMILARITY_FILE, stamp) is not None
    assert built == []  # the titles and abstracts it reads are as they were: stamped anew, not rebuilt


def test_reviews_of_a_paper_without_any_say_so_once(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    paper_id = run_json(capsys, "list", "--limit", "1", "--data-dir", data)[0]["id"]
    code, out, _ = run(capsys, "reviews", paper_id, "--data-dir", data)
    lines = out.splitlines()
    assert code == 0 and lines[1:] == [f"id: {paper_id}", "reviews: none imported"], out


def test_a_reviews_only_import_says_each_file_once_and_the_papers_it_updated(
    tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of reply notes alone is one line (its notes, not "0 papers" and a notice after it),
    and the summary says which papers' ratings the notes updated (no paper record changed)."""
    data = str(tmp_path / "data")
    run_json(capsys, "import", str(review_sample.papers_file), "--data-dir", data)
    code, out, err = run(capsys, "import", str(review_sample.notes_file), "--data-dir", data)
    assert code == 0, err
    name = review_sample.notes_file
    notes = len(review_sample.notes())
    lines = out.splitlines()
    assert lines[0] == f"{name}: {notes:,} reviews and comments (openreview)"
    assert not any("no papers in this file" in line for line in lines)
    assert lines[1].startswith("Imported: 0 new, 0 updated")
    papers = len({n["forum"] for n in review_sample.notes()})
    assert f"; {papers:,} papers' reviews and ratings updated" in lines[1]
    code, out, err = run(capsys, "import", str(review_sample.notes_file), "--data-dir", data)
    assert code == 0 and "ratings updated" not in out  # the same notes again: nothing updated
    (entry,) = run_json(capsys, "import", str(review_sample.notes_file), "--data-dir", data)["files"]
    assert (entry["papers"], entry["reviews"]) == (0, notes)
