"""``--venue`` on the commands that select papers: search, list, export and similar keep the
papers of the venues named (any case), and a venue the store does not hold is one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.helpers import fixture, run

COLM = fixture("papercopilot_colm2025.json")  # 8 COLM 2025 posters, cut from Paper Copilot's list


@pytest.fixture
def store_dir(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    """The ICLR 2026 seeds (37 papers) and 8 COLM 2025 papers."""
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", *map(str, seed_files), str(COLM), "--data-dir", data)
    assert code == 0, err
    return data


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    records = json.loads(out)
    assert isinstance(records, list)
    return records


def test_list_and_search_keep_the_venues_named(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    every = _json(capsys, "list", "--data-dir", store_dir)
    assert len(every) == 45
    colm = _json(capsys, "list", "--venue", "colm 2025", "--data-dir", store_dir)
    assert len(colm) == 8 and {(r["venue"], r["year"]) for r in colm} == {("COLM 2025", 2025)}
    both = _json(capsys, "list", "--venue", "COLM 2025", "--venue", "ICLR  2026", "--data-dir", store_dir)
    assert len(both) == 45
    found = _json(capsys, "search", "agents", "--limit", "0", "--data-dir", store_dir)
    in_colm = _json(capsys, "search", "agents", "--limit", "0", "--venue", "COLM 2025", "--data-dir", store_dir)
    assert in_colm and len(in_colm) < len(found)
    assert [r["id"] for r in in_colm] == [r["id"] for r in found if r["venue"] == "COLM 2025"]


def test_export_and_similar_keep_the_venues_named(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "export", "--format", "csv", "--venue", "ICLR 2026", "--data-dir", store_dir)
    assert code == 0, err
    assert len(list(csv.DictReader(io.StringIO(out)))) == 37
    colm = _json(capsys, "list", "--venue", "COLM 2025", "--data-dir", store_dir)
    first = str(colm[0]["id"])
    similar = _json(capsys, "similar", first, "--limit", "3", "--venue", "ICLR 2026", "--data-dir", store_dir)
    assert similar and len(similar) <= 3 and {r["venue"] for r in similar} == {"ICLR 2026"}


def test_a_venue_not_in_the_store_is_one_line(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--venue", "NeurIPS 2018", "--data-dir", store_dir)
    assert code != 0 and not out
    assert err.count("\n") == 1 and "NeurIPS 2018" in err and "'COLM 2025'" in err and "'ICLR 2026'" in err


ICLR2017 = fixture("papercopilot_iclr2017.json")  # 8 ICLR 2017 papers: 4 posters, 3 rejected, 1 workshop


@pytest.fixture
def three_venues(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    data = str(tmp_path / "three")
    code, _, err = run(capsys, "import", *map(str, seed_files), str(COLM), str(ICLR2017), "--data-dir", data)
    assert code == 0, err
    return data


def _stats(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code, out, err = run(capsys, "stats", *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_stats_counts_the_venues_named(three_venues: str, capsys: pytest.CaptureFixture[str]) -> None:
    every = _stats(capsys, "--data-dir", three_venues)
    assert every["papers"] == 53 and len(every["venues"]) == 3  # type: ignore[arg-type]
    colm = _stats(capsys, "--venue", "colm", "--data-dir", three_venues)  # a word start, as venue:colm
    assert colm["papers"] == 8 and [v["venue"] for v in colm["venues"]] == ["COLM 2025"]  # type: ignore[union-attr,index]
    per_review = sum(len(record["rating"].split(";")) for record in json.loads(COLM.read_text("utf-8")))
    assert colm["venues_selected"] == ["COLM 2025"] and colm["reviews"] == per_review == 30  # each review's rating
    two = _stats(capsys, "--venue", "ICLR 2017", "--venue", "2025", "--data-dir", three_venues)
    assert two["papers"] == 16 and two["venues_selected"] == ["COLM 2025", "ICLR 2017"]
    iclr2017 = _stats(capsys, "--venue", "iclr 2017", "--data-dir", three_venues)
    (venue,) = iclr2017["venues"]  # type: ignore[misc]
    assert venue["acceptance_rate"] == pytest.approx(4 / 8) and venue["acceptance_basis"] == "decided"
    code, out, err = run(capsys, "stats", "--venue", "iclr 2017", "--data-dir", three_venues)
    assert code == 0 and out.startswith("ICLR 2017: 8 papers"), err


def test_stats_of_a_venue_not_in_the_store_is_one_line(three_venues: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "--venue", "neurips", "--data-dir", three_venues)
    assert code == 2 and not out
    assert err.count("\n") == 1 and "'neurips'" in err
    assert all(f"'{name}'" in err for name in ("COLM 2025", "ICLR 2017", "ICLR 2026"))


def test_stats_never_prints_one_rating_distribution_for_several_scales(
    three_venues: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "stats", "--data-dir", three_venues)
    assert code == 0, err
    assert "rating distribution: each venue's, on its own scale, in the charts below" in out
    assert "rating distribution:\n" not in out
    code, out, err = run(capsys, "stats", "--venue", "colm", "--data-dir", three_venues)
    assert code == 0 and "rating distribution:\n" in out  # one venue: its own


def test_stats_json_gives_each_venue_its_own_rating_distribution_never_one_pooled(
    three_venues: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _stats(capsys, "--data-dir", three_venues)
    venues = {v["venue"]: v for v in data["venues"]}  # type: ignore[attr-defined]
    colm, iclr2017 = venues["COLM 2025"], venues["ICLR 2017"]
    per_review = [float(r) for record in json.loads(COLM.read_text("utf-8")) for r in record["rating"].split(";")]
    assert sum(colm["rating_distribution"].values()) == len(per_review) == 30
    for venue in venues.values():  # each on its own scale
        values = [float(v) for v in venue["rating_distribution"]]
        scale = venue["scale"]
        assert all(scale["low"] <= v <= scale["high"] for v in values), venue
    by_scale = data["rating_distribution_by_scale"]
    assert isinstance(by_scale, dict)
    rated = {v["scale"]["scale"] for v in venues.values() if v["rated_papers"]}
    assert set(by_scale) == rated
    ten = {
        k: colm["rating_distribution"].get(k, 0) + iclr2017["rating_distribution"].get(k, 0) for k in by_scale["1-10"]
    }
    assert by_scale["1-10"] == ten  # the venues of one scale added up, nothing of another scale
    assert ("rating_distribution" in data) == (len(rated) == 1)
    one = _stats(capsys, "--venue", "colm", "--data-dir", three_venues)
    assert one["rating_distribution"] == colm["rating_distribution"]  # one venue: one scale, kept


@pytest.mark.parametrize("venues", [["iclr 2017"], ["colm"], ["ICLR 2017", "2025"], ["iclr"]])
def test_stats_of_venues_read_from_the_cache_equal_a_fresh_count(
    three_venues: str, venues: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import paperdeck.cli.stats as stats_cli
    from paperdeck.stats.cache import CACHE_FILE

    args = [arg for venue in venues for arg in ("--venue", venue)]
    assert run(capsys, "stats", "--data-dir", three_venues)[0] == 0  # the cache, current
    counted = stats_cli._count

    def not_counted(*_: object, **__: object) -> object:
        raise AssertionError("stats --venue counted afresh beside a current cache")

    monkeypatch.setattr(stats_cli, "_count", not_counted)
    cached = [run(capsys, "stats", *args, *form, "--data-dir", three_venues) for form in ((), ("--json",))]
    monkeypatch.setattr(stats_cli, "_count", counted)
    (Path(three_venues) / CACHE_FILE).unlink()
    fresh = [run(capsys, "stats", *args, *form, "--data-dir", three_venues) for form in ((), ("--json",))]
    assert cached == fresh and cached[0][0] == 0


def test_every_json_output_names_the_venue_as_the_app_does(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``"venue": "ICLR 2026"`` (the venue picker's name), never the source's bare ``"ICLR"``."""
    found = _json(capsys, "search", "agents", "--limit", "0", "--data-dir", store_dir)
    assert found and {r["venue"] for r in found} <= {"ICLR 2026", "COLM 2025"}
    code, out, _ = run(capsys, "show", str(found[0]["id"]), "--json", "--data-dir", store_dir)
    assert code == 0 and json.loads(out)["venue"] in ("ICLR 2026", "COLM 2025")
    code, out, _ = run(capsys, "export", "--format", "json", "--venue", "COLM 2025", "--data-dir", store_dir)
    assert code == 0 and {r["venue"] for r in json.loads(out)} == {"COLM 2025"}
    code, out, _ = run(capsys, "export", "--format", "csv", "--venue", "COLM 2025", "--data-dir", store_dir)
    assert code == 0 and {r["venue"] for r in csv.DictReader(io.StringIO(out))} == {"COLM 2025"}


@pytest.mark.parametrize("command", ["search", "export"])
def test_every_command_taking_a_query_takes_its_words_apart(
    store_dir: str, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """``paperdeck export language model`` is ``paperdeck export "language model"``, as ``search`` is."""
    options = ["--format", "json"] if command == "export" else ["--json", "--limit", "0"]
    apart = run(capsys, command, "language", "model", "-decision:withdrawn", *options, "--data-dir", store_dir)
    joined = run(capsys, command, "language model -decision:withdrawn", *options, "--data-dir", store_dir)
    assert apart[0] == joined[0] == 0, apart[2]
    assert json.loads(apart[1]) == json.loads(joined[1]) and json.loads(apart[1])


def test_stats_say_the_notes_counted_are_not_all_comments(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """COLM 2025's Paper Copilot reviews are ratings alone: the count of stored notes says what it
    counts, never "notes with comments"."""
    code, out, err = run(capsys, "stats", "--data-dir", store_dir)
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.startswith("reviews:")]
    assert "with comments" not in line
    assert line.endswith("notes stored in all (reviews, ratings-only ones too, meta-reviews, decisions, comments)")
