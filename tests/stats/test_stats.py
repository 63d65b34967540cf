"""The statistics' figures (:mod:`paperdeck.stats`) and ``paperdeck stats``: checked against counts
made straight from a slice of the real files' cuts in ``tests/data/`` (the dump, the raw review notes, the Parquet
decisions), and the arithmetic's own rules (property tests)."""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paperdeck.cli.main import main
from paperdeck.model.paper import Paper, Ratings, UserData
from paperdeck.stats.bars import PARTS, bar, stacked_bar
from paperdeck.stats.figures import NO_AREA, figures_of

from tests.helpers import DECISIONS_NAME, fixture, review_parts, submission_parts

DUMP = submission_parts()[0]
REVIEWS = review_parts()[0]
PARQUET = fixture(DECISIONS_NAME)
#: Papers in the slice: the first of the dump (its reviews are the first lines of the reviews part);
#: the cut in tests/data/ holds the first 125 and their reviews, 5 more are imported later.
SLICE = 120


def _is_review(note: dict[str, Any]) -> bool:
    return any(str(i).endswith("/-/Official_Review") for i in note.get("invitations", ()))


@pytest.fixture(scope="module")
def sliced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The slice's files, a store holding them, and the raw records to count from."""
    import pyarrow.parquet as pq

    folder = tmp_path_factory.mktemp("stats-slice")
    records = []
    with DUMP.open("rb") as handle:
        for line in handle:
            records.append(json.loads(line))
            if len(records) == SLICE:
                break
    forums = {r["id"] for r in records}
    (folder / "papers.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    notes: dict[str, dict[str, Any]] = {}  # by id, the latest version (as the review store keeps)
    kept = []
    with gzip.open(REVIEWS, "rt", encoding="utf-8") as handle:
        for line in handle:
            note = json.loads(line)
            if note["forum"] not in forums:
                break  # grouped by paper in the dump's order: the slice's replies are the first lines
            kept.append(line)
            held = notes.get(note["id"])
            if held is None or note["tmdate"] > held["tmdate"]:
                notes[note["id"]] = note
    (folder / "reviews.jsonl.gz").write_bytes(gzip.compress("".join(kept).encode("utf-8")))
    table = pq.read_table(PARQUET)
    ids = table.column("openreview_id").to_pylist()
    decisions = table.take([i for i, pid in enumerate(ids) if pid in forums])
    pq.write_table(decisions, folder / "decisions.parquet")
    data = str(folder / "data")
    files = [str(folder / name) for name in ("papers.jsonl", "decisions.parquet", "reviews.jsonl.gz")]
    assert main(["import", *files, "--data-dir", data, "--json"]) == 0
    return {"data": data, "records": records, "notes": notes, "accepted": decisions.to_pylist()}


def _stats(capsys: pytest.CaptureFixture[str], data: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["stats", "--data-dir", data, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out)["figures"])


def _ratings_by_forum(notes: dict[str, dict[str, Any]]) -> dict[str, list[float]]:
    by_forum: dict[str, list[float]] = {}
    for note in notes.values():
        if _is_review(note) and "rating" in note["content"]:
            by_forum.setdefault(note["forum"], []).append(float(note["content"]["rating"]["value"]))
    return by_forum


def test_rating_distributions_match_the_raw_review_notes(
    sliced: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    figures = _stats(capsys, sliced["data"])
    by_forum = _ratings_by_forum(sliced["notes"])
    every = [rating for ratings in by_forum.values() for rating in ratings]
    assert len(every) > 300
    reviews = figures["review_ratings"]
    assert reviews["counts"] == {f"{k:g}": v for k, v in sorted(Counter(every).items())}
    assert reviews["total"] == len(every)
    assert reviews["mean"] == pytest.approx(sum(every) / len(every), abs=1e-3)
    means = [round(sum(r) / len(r), 3) for r in by_forum.values()]
    buckets = figures["mean_ratings"]["buckets"]
    assert sum(buckets.values()) == figures["reviewed_papers"] == len(means)  # the bars sum to the reviewed papers
    expected = Counter(f"{min(math.floor(m), 9)}–{min(math.floor(m), 9) + 1}" for m in means)
    assert {k: v for k, v in buckets.items() if v} == dict(expected)
    assert figures["mean_ratings"]["mean"] == pytest.approx(sum(means) / len(means), abs=1e-3)
    confidences = Counter(
        float(n["content"]["confidence"]["value"])
        for n in sliced["notes"].values()
        if _is_review(n) and "rating" in n["content"] and "confidence" in n["content"]
    )
    assert figures["confidence"]["counts"] == {f"{k:g}": v for k, v in sorted(confidences.items())}
    per_paper = Counter(len(r) for r in by_forum.values())
    assert figures["reviews_per_paper"]["counts"] == {str(k): v for k, v in sorted(per_paper.items())}


def test_acceptance_by_area_matches_the_parquet_decisions(
    sliced: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    figures = _stats(capsys, sliced["data"])
    accepted = {row["openreview_id"] for row in sliced["accepted"]}
    assert len(accepted) > 20
    areas: dict[str, Counter[str]] = {}
    for record in sliced["records"]:
        content = record["content"]
        area = content.get("primary_area") or NO_AREA
        withdrawn = "Withdrawn" in content.get("venue", "")
        kind = "accepted" if record["id"] in accepted else "withdrawn" if withdrawn else "pending"
        areas.setdefault(area, Counter())[kind] += 1
    by_area = figures["decisions_by_area"]
    assert set(by_area) == set(areas)
    for area, counts in areas.items():
        row = by_area[area]
        assert (row["accepted"], row["pending"], row["withdrawn"]) == (
            counts["accepted"], counts["pending"], counts["withdrawn"]
        ), area  # fmt: skip
        decided = counts["accepted"] + counts["pending"]
        rate = counts["accepted"] / decided if decided else None  # an area of withdrawn papers only: no rate
        assert row["acceptance_rate"] == pytest.approx(rate), area


def test_a_papers_percentile_matches_an_independent_count(sliced: dict[str, Any]) -> None:
    from paperdeck.store.store import Store

    store = Store(sliced["data"])
    figures = figures_of(store.papers, store.reviews.summaries(), store.all_user_data)
    by_forum = _ratings_by_forum(sliced["notes"])
    means = {forum: sum(r) / len(r) for forum, r in by_forum.items()}
    for forum in sorted(means)[:25]:
        place = figures.place(means[forum])
        assert place is not None
        below = sum(1 for m in means.values() if m < means[forum])
        assert place.below == below
        assert place.percentile == pytest.approx(100 * below / len(means))
        assert figures.mean_ratings[place.bucket].low == min(math.floor(means[forum]), 9)


def test_stats_prints_bars_on_a_terminal_and_plain_columns_when_piped(
    sliced: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    capsys.readouterr()
    assert main(["stats", "--data-dir", sliced["data"]]) == 0
    piped = capsys.readouterr().out
    # the charts of the statistics screen, as it lays them out (rates in whole percents)
    assert "Every review's rating · " in piped and "Papers' mean ratings · " in piped
    assert "Decisions by primary area" in piped and "Acceptance rate by mean rating" in piped
    assert "the highlighted paper" not in piped  # no paper is highlighted on the command line
    assert not set(piped) & set("█▏▎▍▌▋▊▉▓▒░")
    assert all(line == line.rstrip() for line in piped.splitlines())
    assert re.search(r" \d{1,3}%$", piped, re.MULTILINE) and not re.search(r"\d\.\d%", piped)
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "121")  # the width piped charts are laid out for
    assert main(["stats", "--data-dir", sliced["data"]]) == 0
    shown = capsys.readouterr().out
    assert "█" in shown and "█ read  ▓ skimmed  ▒ to-read  ░ dismissed" in shown

    def words(text: str) -> list[str]:
        """The lines without their bars (nor empty lines, the lines that were only a bar, the bars'
        key, the venues' strips (their dots) and their axis)."""
        lines = (" ".join(re.sub("[█▏▎▍▌▋▊▉▓▒░·]", "", line).split()) for line in text.splitlines())
        return [line for line in lines if line and "(blank: unseen)" not in line and "a cell per rating" not in line]

    assert words(shown) == words(piped)


# -- the arithmetic's rules ------------------------------------------------------------------------

_MEANS = st.lists(st.one_of(st.none(), st.floats(0, 10, allow_nan=False)), max_size=60)


def _papers(means: list[float | None]) -> list[Paper]:
    decisions = ("poster", "reject", "under-review", "withdrawn", "unknown", "oral")
    return [
        Paper(id=f"p{i}", title="t", abstract="", decision=decisions[i % len(decisions)],
              primary_area=("a", "b", "")[i % 3], ratings=None if m is None else Ratings(m, count=1 + i % 4))
        for i, m in enumerate(means)
    ]  # fmt: skip


@given(_MEANS)
def test_the_histogram_counts_every_rated_paper_once(means: list[float | None]) -> None:
    figures = figures_of(_papers(means), {}, {})
    rated = [m for m in means if m is not None]
    assert sum(b.count for b in figures.mean_ratings) == figures.reviewed == len(rated)
    assert sum(a.papers for a in figures.by_area) == figures.papers == len(means)
    assert sum(b.decided for b in figures.acceptance_by_rating) <= len(rated)
    for mean in rated:
        place = figures.place(mean)
        assert place is not None
        bucket = figures.mean_ratings[place.bucket]
        assert bucket.low <= mean <= bucket.high
        assert place.percentile + 100 * place.top == pytest.approx(100)


def test_progress_counts_statuses_and_stars_by_area() -> None:
    papers = _papers([5.0, 6.0, None, 3.0, 7.0, 8.0])
    users = {"p0": UserData("p0", starred=True, status="read"), "p3": UserData("p3", status="to-read")}
    figures = figures_of(papers, {}, users)
    assert figures.progress.count("read") == 1 and figures.progress.count("to-read") == 1
    assert figures.progress.count("unseen") == 4 and figures.progress.starred == 1
    by_area = {p.label: p for p in figures.progress_by_area}
    assert by_area["a"].count("read") == 1 and by_area["a"].count("to-read") == 1 and by_area["a"].starred == 1
    assert by_area[NO_AREA].papers == 2


def test_no_ratings_and_no_decisions_give_no_rates() -> None:
    figures = figures_of([Paper(id="p", title="t", abstract="")], {}, {})
    assert figures.reviewed == 0 and figures.mean_of_means is None and figures.place(5.0) is None
    assert not figures.decisions_known and all(a.rate is None for a in figures.by_area)
    assert json.loads(json.dumps(figures.to_dict()))["papers"] == 1


def _eighths(drawn: str) -> int:
    return sum(8 if c == "█" else PARTS.index(c) for c in drawn)


@given(st.integers(0, 1000), st.integers(0, 1000), st.integers(1, 60))
def test_a_larger_count_never_draws_a_shorter_bar(a: int, b: int, width: int) -> None:
    low, high = sorted((a, b))
    largest = max(high, 1)
    assert _eighths(bar(low, largest, width)) <= _eighths(bar(high, largest, width)) <= 8 * width
    assert (bar(low, largest, width) == "") == (low == 0)
    assert _eighths(bar(largest, largest, width)) == 8 * width


@given(st.lists(st.integers(0, 500), min_size=1, max_size=4), st.integers(1, 60))
def test_a_stacked_bar_fits_its_width(parts: list[int], width: int) -> None:
    total = sum(parts) + 7
    drawn = stacked_bar(parts, total, width)
    assert len(drawn) <= width
    assert len(stacked_bar(parts, sum(parts), width)) == (width if sum(parts) else 0)


def test_stats_reads_its_cache_and_counts_the_marks_afresh(
    sliced: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import shutil

    from paperdeck.stats.cache import CACHE_FILE
    from paperdeck.store.store import Store

    data = tmp_path / "data"
    shutil.copytree(sliced["data"], data)
    assert (data / CACHE_FILE).is_file()  # the import kept the figures
    ids = Store(data).paper_ids
    for paper_id, status in ((ids[0], "read"), (ids[1], "to-read"), (ids[7], "skimmed")):
        assert main(["status", paper_id, status, "--data-dir", str(data)]) == 0
    assert main(["star", ids[0], ids[3], "--data-dir", str(data)]) == 0

    def expected() -> dict[str, Any]:
        store = Store(data)
        figures = figures_of(store.papers, store.reviews.summaries(), store.all_user_data).to_dict()
        figures.pop("venues")  # printed at the top level of --json
        return figures

    cached = _stats(capsys, str(data))
    assert cached == expected()
    assert cached["progress"]["statuses"]["read"] == 1 and cached["progress"]["starred"] == 2
    (data / CACHE_FILE).write_text("{not json", "utf-8")
    assert _stats(capsys, str(data)) == cached  # a broken cache is counted again …
    assert json.loads((data / CACHE_FILE).read_bytes())["schema"] == 9  # … and written anew
    extra = tmp_path / "extra.jsonl"
    with DUMP.open("rb") as handle:
        lines = [line for _, line in zip(range(SLICE + 5), handle, strict=False)][SLICE:]
    extra.write_bytes(b"".join(lines))
    assert main(["import", str(extra), "--data-dir", str(data), "--json"]) == 0  # new papers: counted again
    after = _stats(capsys, str(data))
    assert after["papers"] == cached["papers"] + 5 and after == expected()


def test_every_chart_is_laid_out_in_plain_lines_with_or_without_bars() -> None:
    from paperdeck.stats.charts import CHARTS, chart_lines, percent

    assert [chart.key for chart in CHARTS] == [
        "ratings", "areas", "acceptance", "reviews", "moves", "progress", "venues",
    ]  # fmt: skip
    users = {"p0": UserData("p0", starred=True, status="read"), "p3": UserData("p3", status="to-read")}
    figures = figures_of(_papers([5.0, 6.0, None, 3.0, 7.0, 8.0, 1.5]), {}, users)
    place = figures.place(6.0)
    for chart in CHARTS:
        for width in (30, 80, 200):
            drawn = [line.text for line in chart_lines(chart.key, figures, width, place, highlighting=True)]
            plain = [line.text for line in chart_lines(chart.key, figures, width, bars=False)]
            assert drawn and plain and max(map(len, drawn)) <= max(width, 60), (chart.key, width)
            assert not set("".join(plain)) & set("█▏▎▍▌▋▊▉▓▒░"), chart.key
    marked = chart_lines("ratings", figures, 80, place, highlighting=True)
    assert [segment for line in marked for segment in line.segments if segment[1] == "mark"]
    unrated = chart_lines("ratings", figures, 80, None, highlighting=True)
    assert any(line.text == "  the highlighted paper has no rating" for line in unrated)
    assert not any("highlighted" in line.text for line in chart_lines("ratings", figures, 80))
    assert (percent(None), percent(0.5), percent(2 / 3), percent(1.0)) == ("—", "50%", "67%", "100%")
    assert percent(5 / 12, 1) == "41.7%"
