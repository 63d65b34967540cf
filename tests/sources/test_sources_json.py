"""The OpenReview, Paper Copilot JSON and Parquet readers: the real files (their cuts in
``tests/data/``; the whole files in the tests marked ``data``) and small inline cases."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Ratings
from paperdeck.sources import detect_format, openreview, papercopilot, parquet, read_source
from paperdeck.sources.base import Skip

from tests.helpers import (
    COPILOT_2018_NAME,
    DECISIONS_NAME,
    FIXTURES,
    REPLIES_SAMPLE_NAME,
    SAFETY_NAME,
    SHARED_DATA,
    submission_parts,
)

#: The whole files (the tests marked ``data``).
RT_PARTS = submission_parts(SHARED_DATA)
FLAT = SHARED_DATA / SAFETY_NAME
PC2018 = SHARED_DATA / COPILOT_2018_NAME
PARQUET = SHARED_DATA / DECISIONS_NAME
#: Copied whole into tests/data/.
REPLIES = FIXTURES / REPLIES_SAMPLE_NAME
MY_FORMATS = {"openreview", "papercopilot", "parquet"}


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def jsonl(*records: Any) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def raw_note(note_id: str = "AbCdEf1234", **content: Any) -> dict[str, Any]:
    """A raw OpenReview API v2 submission note: every content field wrapped in ``{"value": …}``."""
    fields = {
        "title": "Sparse Attention for Long Contexts",
        "abstract": "We study sparse attention. " * 5,
        "authors": ["Ada Lovelace", "Alan Turing"],
        "keywords": ["attention", "long context, efficiency"],
        "TL;DR": "Sparse attention scales.",
        "primary_area": "foundation or frontier models",
        "venue": "ICLR 2026 Poster",
        "venueid": "ICLR.cc/2026/Conference",
        "pdf": "/pdf/0123456789abcdef.pdf",
        **content,
    }
    return {
        "id": note_id,
        "forum": note_id,
        "number": 42,
        "invitations": ["ICLR.cc/2026/Conference/-/Submission"],
        "domain": "ICLR.cc/2026/Conference",
        "cdate": 1757998013559,
        "content": {key: {"value": value} for key, value in fields.items()},
    }


def review_note(forum: str = "AbCdEf1234") -> dict[str, Any]:
    return {
        "id": "RvW0000001",
        "forum": forum,
        "replyto": forum,
        "number": 1,
        "invitations": ["ICLR.cc/2026/Conference/Submission42/-/Official_Review"],
        "domain": "ICLR.cc/2026/Conference",
        "content": {"rating": {"value": 6}, "summary": {"value": "Fine."}},
    }


def rt_note(note_id: str, number: int, **overrides: Any) -> dict[str, Any]:
    """A ReviewTracker flattened note (plain ``content`` values, top-level ``withdrawn``)."""
    content: dict[str, Any] = {
        "title": f"Paper {number}",
        "abstract": "An abstract long enough. " * 5,
        "tldr": "",
        "keywords": ["a", "b"],
        "primary_area": "optimization",
        "venue": "ICLR 2026 Conference Submission",
        "pdf": f"/pdf/{number:040d}.pdf",
        "supplementary_material": "",
    }
    content.update(overrides)
    record = {"id": note_id, "number": number, "cdate": 1, "mdate": 2, "content": content}
    record["withdrawn"] = content["venue"].endswith("Withdrawn Submission")
    return record


# --- real files ----------------------------------------------------------------------------------


@pytest.mark.data
def test_reviewtracker_parts_hold_19630_submissions() -> None:
    reads = [openreview.read(path) for path in RT_PARTS]
    assert [len(r.papers) for r in reads] == [6544, 6544, 6542]
    assert all(r.skipped == () and r.notice is None and r.format == "openreview" for r in reads)
    papers = [paper for r in reads for paper in r.papers]
    assert len({paper.id for paper in papers}) == 19_630
    assert Counter(paper.decision for paper in papers) == {
        "under-review": 17_279,
        "withdrawn": 2_351,
    }
    withdrawn = {p.decision_raw for p in papers if p.decision == "withdrawn"}
    assert withdrawn == {"ICLR 2026 Conference Withdrawn Submission"}
    assert {(paper.venue, paper.year) for paper in papers} == {("ICLR", 2026)}
    assert all(paper.authors == () and paper.ratings is None for paper in papers)
    numbers = [paper.number or 0 for paper in papers]
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] == 25_649
    # pdf: relative paths prefixed; the 79 empty ones fall back to the pdf?id= link
    assert all(paper.pdf_url.startswith("https://openreview.net/pdf") for paper in papers)
    assert sum(paper.pdf_url.startswith("https://openreview.net/pdf?id=") for paper in papers) == 79
    assert sum(bool(paper.tldr) for paper in papers) == 19_630 - 9_563
    # keyword items that themselves contain separators are kept whole
    assert sum(any("," in k or ";" in k for k in paper.keywords) for paper in papers) == 1_384
    first = reads[0].papers[0]
    assert first.id == "openreview:h7qdCvhMdb" and first.openreview_id == "h7qdCvhMdb"
    assert first.openreview_url == "https://openreview.net/forum?id=h7qdCvhMdb"
    assert first.sources == (RT_PARTS[0].name,)
    assert first.source_of("abstract") == first.source_of("decision") == RT_PARTS[0].name
    assert "authors" not in dict(first.provenance)  # the snapshot has none


@pytest.mark.perf
def test_reviewtracker_parts_read_fast() -> None:
    started = time.perf_counter()
    reads = [openreview.read(path) for path in RT_PARTS]
    elapsed = time.perf_counter() - started
    assert sum(len(r.papers) for r in reads) == 19_630
    assert elapsed < 6.0, f"reading the three parts took {elapsed:.2f} s"


@pytest.mark.data
def test_flat_safety_subset_has_423_accepted_papers_with_authors() -> None:
    result = openreview.read(FLAT)
    assert len(result.papers) == 423 and result.skipped == ()
    assert Counter(p.decision for p in result.papers) == {
        "poster": 401,
        "oral": 20,
        "accept-conditional": 2,
    }
    conditional = Counter(p.decision_raw for p in result.papers if p.decision == "accept-conditional")
    assert conditional == {"ICLR 2026 ConditionalPoster": 1, "ICLR 2026 ConditionalOral": 1}
    assert all(p.authors and (p.venue, p.year) == ("ICLR", 2026) for p in result.papers)
    by_id = {p.openreview_id: p for p in result.papers}
    paper = by_id["sWs0cCuM8I"]
    assert paper.number == 25344  # from the Submission25344 invitation
    assert paper.authors == ("Chloe Li", "Mary Phuong", "Daniel Tan")
    assert paper.pdf_url == "https://openreview.net/pdf?id=sWs0cCuM8I"
    assert any("Florian Tramèr" in p.authors for p in result.papers)
    assert all(p.source_of("authors") == FLAT.name for p in result.papers)


def test_raw_v2_replies_sample_is_all_skipped_with_reasons() -> None:
    result = openreview.read(REPLIES)
    assert result.papers == ()
    assert len(result.skipped) == 51
    assert result.skipped[0] == Skip("record 1", "reply note (Official_Review), not a submission")
    kinds = Counter(skip.reason for skip in result.skipped)
    assert kinds == {
        "reply note (Official_Review), not a submission": 47,
        "reply note (Official_Comment), not a submission": 2,
        "reply note (Public_Comment), not a submission": 1,
        "reply note (Withdrawal), not a submission": 1,
    }
    assert result.notice is not None and "no papers" in result.notice


@pytest.mark.data
def test_papercopilot_2018_has_995_distinct_papers() -> None:
    result = papercopilot.read(PC2018)
    papers = result.papers
    assert len(papers) == 995 and result.skipped == ()
    assert len({p.id for p in papers}) == 995
    assert Counter(p.decision_raw for p in papers) == {
        "Reject": 496,
        "Poster": 314,
        "Workshop": 90,
        "Withdraw": 69,
        "Oral": 23,
        "Active": 3,
    }
    assert Counter(p.decision for p in papers)["under-review"] == 3
    assert {(p.venue, p.year) for p in papers} == {("ICLR", 2018)}
    assert all(p.id == f"openreview:{p.openreview_id}" for p in papers)
    # accepted papers: the forum link comes from `openreview`, not the iclr.cc `site`
    assert all(p.openreview_url.startswith("https://openreview.net/forum?id=") for p in papers)
    assert sum(bool(p.code_url) for p in papers) == 257
    assert sum("github.com" in p.code_url for p in papers) == 197
    assert all(p.ratings is None or (p.ratings.min or 0) > 0 for p in papers)
    unrated = [p for p in papers if p.ratings is None]
    assert len(unrated) == 23 and all(p.confidence is None for p in unrated)
    assert sum(p.keywords == () for p in papers) == 106
    counting = next(p for p in papers if p.openreview_id == "B12Js_yRb")
    assert counting.authors == ("Yan Zhang", "Jonathon Hare", "Adam Prügel-Bennett")
    assert counting.code_url == "https://github.com/Cyanogenoid/vqa-counting"
    ratings = counting.ratings
    assert ratings is not None and counting.confidence is not None  # 6, 6, 4: kept whole, rounded when shown
    assert (ratings.mean, ratings.std, ratings.min, ratings.max, ratings.count) == pytest.approx(
        (16 / 3, (8 / 9) ** 0.5, 4.0, 6.0, 3)
    )
    assert counting.confidence == pytest.approx(10 / 3)


@pytest.mark.data
def test_parquet_has_5358_accepted_papers_that_join_the_other_files() -> None:
    result = parquet.read(PARQUET)
    papers = result.papers
    assert len(papers) == 5_358 and result.skipped == ()
    assert Counter(p.decision for p in papers) == {
        "poster": 5_120,
        "oral": 223,
        "accept-conditional": 15,
    }
    assert {(p.venue, p.year) for p in papers} == {("ICLR", 2026)}
    # every paper's mean equals Paper Copilot's rating_avg: the 44 zero scores (ICLR 2026's
    # "strong reject") are kept as scores
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(PARQUET, columns=["openreview_id", "rating", "rating_avg"]).to_pylist()
    by_id = {p.openreview_id: p for p in papers}
    for row in table:
        ratings = by_id[row["openreview_id"]].ratings
        assert ratings is not None and ratings.count == len(row["rating"])
        assert ratings.mean == pytest.approx(row["rating_avg"][0], abs=0.001)
    assert sum(p.ratings is not None and p.ratings.min == 0 for p in papers) == 43
    assert all(p.pdf_url == f"https://openreview.net/pdf?id={p.openreview_id}" for p in papers)
    ids = {p.id for p in papers}
    assert {p.id for p in openreview.read(FLAT).papers} <= ids


def test_the_cuts_read_as_the_whole_files_do() -> None:
    """The cuts in tests/data/ keep the papers the tests above name: the first submission, a
    safety paper's authors and number, an accented author, Paper Copilot's counting paper, and
    Parquet rows joining the safety subset."""
    first = openreview.read(submission_parts()[0]).papers[0]
    assert first.id == "openreview:h7qdCvhMdb" and first.authors == () and first.decision == "under-review"
    flat = openreview.read(FIXTURES / SAFETY_NAME).papers
    paper = {p.openreview_id: p for p in flat}["sWs0cCuM8I"]
    assert paper.number == 25344 and paper.authors == ("Chloe Li", "Mary Phuong", "Daniel Tan")
    assert any("Florian Tramèr" in p.authors for p in flat)
    assert {p.decision for p in flat} == {"poster", "oral", "accept-conditional"}
    counting = next(p for p in papercopilot.read(FIXTURES / COPILOT_2018_NAME).papers if p.openreview_id == "B12Js_yRb")
    assert counting.authors == ("Yan Zhang", "Jonathon Hare", "Adam Prügel-Bennett")
    assert counting.ratings == Ratings.from_scores([4.0, 6.0, 6.0]) and counting.confidence == pytest.approx(10 / 3)
    assert (round(counting.ratings.mean, 3), round(counting.ratings.std or 0, 3)) == (5.333, 0.943)
    decided = {p.id for p in parquet.read(FIXTURES / DECISIONS_NAME).papers}
    assert {p.id for p in flat} <= decided


def test_real_files_are_detected_as_their_format() -> None:
    for path in [*submission_parts(), FIXTURES / SAFETY_NAME, REPLIES]:
        assert detect_format(path) == "openreview", path.name
    assert detect_format(FIXTURES / COPILOT_2018_NAME) == "papercopilot"
    assert detect_format(FIXTURES / DECISIONS_NAME) == "parquet"
    for name in (
        "iclr2018_openreview-bibtex_from-papercopilot.bib",
        "iclr2018_smart-scholar.bib",
        "iclr2025_title_authors_affiliations_decision.csv",
        "iclr2026_accepted_optimization-area_with-llm-notes.csv",
        "iclr2023_submissions_number_title.tsv",
    ):
        path = FIXTURES / name
        head = path.read_bytes()[:65_536].decode("utf-8", errors="replace").lstrip("\ufeff")
        assert not any(module.sniff(path, head) for module in (openreview, papercopilot, parquet))
        assert detect_format(path) not in MY_FORMATS


# --- OpenReview shapes ---------------------------------------------------------------------------


def test_raw_v2_submission_note_maps_every_field(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.json", json.dumps([raw_note(), review_note()]))
    result = read_source(path)
    assert result.format == "openreview"
    (paper,) = result.papers
    assert result.skipped == (Skip("record 2", "reply note (Official_Review), not a submission"),)
    assert paper.id == "openreview:AbCdEf1234"
    assert paper.title == "Sparse Attention for Long Contexts"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.keywords == ("attention", "long context, efficiency")  # items not split
    assert paper.tldr == "Sparse attention scales."
    assert (paper.venue, paper.year, paper.number) == ("ICLR", 2026, 42)
    assert (paper.decision, paper.decision_raw) == ("poster", "ICLR 2026 Poster")
    assert paper.pdf_url == "https://openreview.net/pdf/0123456789abcdef.pdf"
    assert paper.openreview_url == "https://openreview.net/forum?id=AbCdEf1234"
    assert paper.ratings is None and paper.confidence is None
    assert paper.sources == ("notes.json",)
    assert dict(paper.provenance)["title"] == "notes.json"
    assert "ratings" not in dict(paper.provenance)


def test_wrapped_api_response(tmp_path: Path) -> None:
    body = {"notes": [review_note(), raw_note()], "count": 2}
    path = write(tmp_path, "response.json", json.dumps(body, indent=1))
    assert detect_format(path) == "openreview"
    result = openreview.read(path)
    assert [p.openreview_id for p in result.papers] == ["AbCdEf1234"]
    assert result.skipped[0].position == "record 1"


def test_reviewtracker_jsonl_withdrawn_and_empty_pdf(tmp_path: Path) -> None:
    withdrawn = rt_note("Wd00000001", 7, venue="ICLR 2026 Conference Withdrawn Submission", pdf="")
    path = write(tmp_path, "rt.jsonl", jsonl(rt_note("Rt00000001", 3), withdrawn))
    assert detect_format(path) == "openreview"
    first, second = openreview.read(path).papers
    assert (first.decision, first.number) == ("under-review", 3)
    assert first.pdf_url == f"https://openreview.net/pdf/{3:040d}.pdf"
    assert second.decision == "withdrawn"
    assert second.pdf_url == "https://openreview.net/pdf?id=Wd00000001"


def test_withdrawn_flag_wins_over_the_venue(tmp_path: Path) -> None:
    record = rt_note("Rt00000001", 3)
    record["withdrawn"] = True
    (paper,) = openreview.read(write(tmp_path, "rt.jsonl", jsonl(record))).papers
    assert (paper.decision, paper.decision_raw) == ("withdrawn", "ICLR 2026 Conference Submission")


def test_flat_note_decision_from_venueid_and_number_from_invitations(tmp_path: Path) -> None:
    base = {
        "title": "A flat note",
        "abstract": "Text " * 30,
        "invitations": ["ICLR.cc/2025/Conference/Submission77/-/Full_Submission"],
        "pdf": "",
    }
    rejected = {
        **base,
        "id": "Flat000001",
        "forum": "Flat000001",
        "venue": "Submitted to ICLR 2025",
        "venueid": "ICLR.cc/2025/Conference/Rejected_Submission",
    }
    accepted = {**base, "id": "Flat000002", "venueid": "ICLR.cc/2025/Conference", "url": ""}
    result = openreview.read(write(tmp_path, "flat.jsonl", jsonl(rejected, accepted)))
    first, second = result.papers
    assert (first.decision, first.decision_raw) == (
        "reject",
        "ICLR.cc/2025/Conference/Rejected_Submission",
    )
    assert (first.venue, first.year, first.number) == ("ICLR", 2025, 77)
    assert second.decision == "accept"
    assert second.openreview_url == "https://openreview.net/forum?id=Flat000002"


def test_ratings_only_when_present_and_placeholders_ignored(tmp_path: Path) -> None:
    record = {"id": "Rated00001", "title": "Rated", "abstract": "x", "venue": "ICLR 2026 Poster",
              "rating": [6, 8, 0, -1], "confidence": "4;3;"}  # fmt: skip
    (paper,) = openreview.read(write(tmp_path, "rated.jsonl", jsonl(record, rt_note("B" * 10, 1)))).papers[:1]
    assert paper.ratings == Ratings.from_scores([6, 8, 0])  # -1 is no score; 0 is a score
    assert paper.confidence == 3.5


def test_duplicate_ids_keep_the_first(tmp_path: Path) -> None:
    later = rt_note("Rt00000001", 3, title="A later title")
    path = write(tmp_path, "dup.jsonl", jsonl(rt_note("Rt00000001", 3), rt_note("Rt00000002", 4), later))
    result = openreview.read(path)
    assert [p.title for p in result.papers] == ["Paper 3", "Paper 4"]
    assert result.skipped == (Skip("line 3", "duplicate id openreview:Rt00000001"),)


def test_note_without_title_is_skipped(tmp_path: Path) -> None:
    note = raw_note()
    del note["content"]["title"]
    result = openreview.read(write(tmp_path, "notes.json", json.dumps([note])))
    assert result.papers == ()
    assert result.skipped == (Skip("record 1", "note without a title (Submission), not a submission"),)


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("broken.jsonl", jsonl(rt_note("Rt00000001", 1)) + '{"id": "x", "title": }\n', 2),
        ("blank-lines.jsonl", jsonl(rt_note("Rt00000001", 1)) + "\n\n" + "{oops\n", 4),
        ("broken.json", '[\n  {"id": "a", "title": "t"},\n  {"id": "b", "title": "t",}\n]\n', 3),
        ("truncated.json", '{"notes": [\n  {"id": "a"', 2),
    ],
)
def test_invalid_json_names_the_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    path = write(tmp_path, name, text)
    with pytest.raises(SourceError) as caught:
        openreview.read(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: not valid JSON: ")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("42", "expected an array of records"),
        ('"a string"', "expected an array of records"),
        ('{"papers": []}', "expected an array of records"),
        ("[1, 2]", "record 1: expected an object, got a number"),
        ('[{"id": "", "foo": 1}]', "record 1: no id, title or abstract"),
        ('[{"title": ["a", "list"]}]', "record 1: title is an array, expected text"),
    ],
)
def test_records_of_the_wrong_shape_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        openreview.read(write(tmp_path, "bad.json", text))


def test_a_bad_record_among_sound_ones_is_skipped_with_its_reason(tmp_path: Path) -> None:
    text = jsonl(rt_note("Rt00000001", 1), rt_note("Rt00000002", 2), [1, 2])
    result = openreview.read(write(tmp_path, "late.jsonl", text))
    assert [paper.openreview_id for paper in result.papers] == ["Rt00000001", "Rt00000002"]
    assert [(skip.position, skip.reason) for skip in result.skipped] == [
        ("line 3", "malformed record: expected an object, got an array")
    ]


def test_a_file_of_mostly_bad_records_is_refused_naming_the_first(tmp_path: Path) -> None:
    text = jsonl(rt_note("Rt00000001", 1), [1, 2], rt_note("Rt00000003", 3, title=["a", "list"]))
    with pytest.raises(SourceError) as caught:
        openreview.read(write(tmp_path, "late.jsonl", text))
    assert caught.value.line == 2
    assert "line 2: expected an object, got an array" in str(caught.value)


@pytest.mark.parametrize("odd", ["../../x", "a/b", "nul\x00here", "esc\x1b[2J", "rtl\u202eexe", "x" * 65, "a b"])
def test_a_note_whose_id_is_not_a_plain_token_is_skipped_and_counted(tmp_path: Path, odd: str) -> None:
    text = jsonl(raw_note("AbCdEf1234"), raw_note(odd))
    result = openreview.read(write(tmp_path, "odd.jsonl", text))
    assert [paper.id for paper in result.papers] == ["openreview:AbCdEf1234"]
    assert len(result.skipped) == 1 and result.skipped[0].reason.startswith("odd id (")
    assert "\x1b" not in result.skipped[0].reason and "\u202e" not in result.skipped[0].reason


@pytest.mark.parametrize(
    ("value", "scores"),
    [("6;8", [6.0, 8.0]), (" 5.5 ", [5.5]), ("1e309", [float("inf")]), ("1e3", []), ("1x", []), (True, []),
     ([6, "8", "1e2", None], [6.0, 8.0]), ("٣", []), ("-1;6", [6.0])],
)  # fmt: skip
def test_scores_in_note_files_are_read_strictly(value: object, scores: list[float]) -> None:
    from paperdeck.sources.jsonfile import parse_scores

    assert parse_scores(value) == scores  # "1e309" is never 1: infinity, dropped and counted at the boundary


@pytest.mark.parametrize("text", ["[]", "", "  \n", '{"notes": [], "count": 0}'])
def test_empty_input_gives_no_papers_and_a_notice(tmp_path: Path, text: str) -> None:
    result = openreview.read(write(tmp_path, "empty.json", text))
    assert result.papers == () and result.skipped == ()
    assert result.notice is not None and "no papers" in result.notice


def test_bom_and_utf16_are_accepted(tmp_path: Path) -> None:
    text = jsonl(rt_note("Rt00000001", 1, title="Über Flüsse"), rt_note("Rt00000002", 2))
    bom = openreview.read(write(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + text.encode("utf-8")))
    utf16 = openreview.read(write(tmp_path, "u16.json", json.dumps([raw_note()]).encode("utf-16")))
    assert bom.papers[0].title == "Über Flüsse" and len(bom.papers) == 2
    assert utf16.papers[0].openreview_id == "AbCdEf1234"


def test_single_note_object_is_one_record(tmp_path: Path) -> None:
    path = write(tmp_path, "one.json", json.dumps(raw_note(), indent=2))
    assert detect_format(path) == "openreview"
    assert len(openreview.read(path).papers) == 1


# --- Paper Copilot JSON --------------------------------------------------------------------------


def pc_record(forum_id: str = "B1xyz_AB-", **overrides: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": forum_id,
        "title": "Counting Things",
        "track": "main",
        "status": "Poster",
        "tldr": "We count.",
        "abstract": "  An abstract with surrounding space.  ",
        "keywords": "counting;vision",
        "primary_area": "",
        "author": "Ann One;Bo Two",
        "github": "",
        "site": f"https://openreview.net/forum?id={forum_id}",
        "rating": "5;6;8",
        "confidence": "4;4;3",
        "rating_avg": 6.333,
        "confidence_avg": 3.667,
    }
    record.update(overrides)
    return record


def test_papercopilot_record_maps_every_field(tmp_path: Path) -> None:
    path = write(tmp_path, "iclr2019.json", json.dumps([pc_record()]))
    assert detect_format(path) == "papercopilot"
    (paper,) = read_source(path).papers
    assert paper.id == "openreview:B1xyz_AB-"
    assert (paper.venue, paper.year) == ("ICLR", 2019)
    assert paper.authors == ("Ann One", "Bo Two")
    assert paper.keywords == ("counting", "vision")
    assert paper.abstract == "An abstract with surrounding space."
    assert (paper.decision, paper.decision_raw) == ("poster", "Poster")
    assert paper.ratings == Ratings.from_scores([5, 6, 8])
    assert paper.confidence == pytest.approx(11 / 3)
    assert paper.pdf_url == "https://openreview.net/pdf?id=B1xyz_AB-"
    assert paper.openreview_url == "https://openreview.net/forum?id=B1xyz_AB-"
    assert paper.tldr == "We count."
    assert dict(paper.provenance)["ratings"] == "iclr2019.json"


@pytest.mark.parametrize("missing", ["", 0, -1, "0", "-1", None])
def test_papercopilot_placeholder_numbers_mean_no_ratings(tmp_path: Path, missing: Any) -> None:
    record = pc_record(rating="", confidence="", rating_avg=missing, confidence_avg=missing)
    (paper,) = papercopilot.read(write(tmp_path, "iclr2019.json", json.dumps([record]))).papers
    assert paper.ratings is None and paper.confidence is None
    assert "ratings" not in dict(paper.provenance)


def test_papercopilot_averages_as_mean_std_pairs(tmp_path: Path) -> None:
    records = [
        pc_record("Paper00001", rating="", rating_avg=[5.5, 0.5], confidence="", confidence_avg=[3.0, 0.0]),
        pc_record("Paper00002", rating="6;0;-1;8", rating_avg=[7.0, 1.0]),
        pc_record("Paper00003", rating="", rating_avg=4.25),
        pc_record("Paper00004", rating="0;0", rating_avg=[0.0, 0.0], confidence="0;-1", confidence_avg=-1),
    ]
    path = write(tmp_path, "iclr2026.json", json.dumps(records))
    first, second, third, fourth = papercopilot.read(path).papers
    assert first.ratings == Ratings(5.5, 0.5) and first.confidence == 3.0
    assert second.ratings == Ratings.from_scores([6, 0, 8])  # -1 is no score; 0 is one
    assert third.ratings == Ratings(4.25)
    assert fourth.ratings is None and fourth.confidence is None  # never a 0 rating


@pytest.mark.parametrize(
    ("github", "url"),
    [
        (
            "[![github](/images/github_icon.svg) owner/repo](https://github.com/owner/repo)",
            "https://github.com/owner/repo",
        ),
        (
            "[![github](/images/github_icon.svg) a/b](https://github.com/a/b) + "
            "[![Papers with Code](/images/pwc_icon.svg) 3 community implementations]"
            "(https://paperswithcode.com/paper/?openreview=X)",
            "https://github.com/a/b",
        ),
        (
            "[![Papers with Code](/images/pwc_icon.svg) 4 community implementations]"
            "(https://paperswithcode.com/paper/?openreview=B1DmUzWAW)",
            "https://paperswithcode.com/paper/?openreview=B1DmUzWAW",
        ),
        ("https://github.com/plain/url", "https://github.com/plain/url"),
        ("", ""),
        ("see the paper", ""),
    ],
)
def test_github_markdown_gives_the_code_url(github: str, url: str) -> None:
    assert papercopilot.code_url(github) == url


def test_papercopilot_accepted_paper_links_and_venue_from_site(tmp_path: Path) -> None:
    accepted = pc_record(
        "HkAccepted",
        site="https://iclr.cc/virtual/2018/poster/307",
        openreview="https://openreview.net/forum?id=HkAccepted",
        pdf="/pdf?id=HkAccepted",
    )
    (paper,) = papercopilot.read(write(tmp_path, "list.json", json.dumps([accepted]))).papers
    assert (paper.venue, paper.year) == ("ICLR", 2018)
    assert paper.openreview_url == "https://openreview.net/forum?id=HkAccepted"
    assert paper.pdf_url == "https://openreview.net/pdf?id=HkAccepted"


def test_papercopilot_venue_from_status_or_name() -> None:
    assert papercopilot.venue_year(Path("iclr_2026.parquet"), []) == ("ICLR", 2026)
    assert papercopilot.venue_year(Path("x_neurips2025.json"), []) == ("NeurIPS", 2025)
    assert papercopilot.venue_year(Path("list.json"), [{"status": "ICLR 2026 Oral"}]) == (
        "ICLR",
        2026,
    )
    assert papercopilot.venue_year(Path("list.json"), [{"status": "Poster"}]) == ("", None)


def test_papercopilot_ids_placeholders_duplicates_and_errors(tmp_path: Path) -> None:
    no_forum = pc_record("", site="", title="A paper known by title only")
    placeholder = pc_record("", site="", title="Withdrawn")
    duplicate = pc_record(title="Same id again")
    records = [pc_record(), no_forum, placeholder, duplicate]
    result = papercopilot.read(write(tmp_path, "iclr2018.json", json.dumps(records)))
    assert [p.id.split(":")[0] for p in result.papers] == ["openreview", "title"]
    assert result.papers[1].openreview_url == "" and result.papers[1].pdf_url == ""
    assert result.skipped == (
        Skip("record 3", "no id and a placeholder title ('Withdrawn')"),
        Skip("record 4", "duplicate id openreview:B1xyz_AB-"),
    )
    refusals = [
        ([3], "record 1: expected an object, got a number"),
        ([{"status": "Poster", "track": "main"}], "record 1: no id, title or abstract"),
    ]
    for bad, message in refusals:
        with pytest.raises(SourceError, match=message):
            papercopilot.read(write(tmp_path, "bad.json", json.dumps(bad)))
    with pytest.raises(SourceError) as caught:
        papercopilot.read(write(tmp_path, "broken.json", '[\n{"id": "a",\n "title": tru}\n]'))
    assert caught.value.line == 3


def test_papercopilot_and_openreview_sniffs_do_not_overlap(tmp_path: Path) -> None:
    pc = write(tmp_path, "list.json", json.dumps([pc_record()], indent=2))
    note = write(tmp_path, "notes.json", json.dumps([raw_note()], indent=2))
    pc_head, note_head = pc.read_text(), note.read_text()
    assert papercopilot.sniff(pc, pc_head) and not openreview.sniff(pc, pc_head)
    assert openreview.sniff(note, note_head) and not papercopilot.sniff(note, note_head)
    # a first record longer than the 64 KiB head is still recognised by its keys
    long_pc = json.dumps([pc_record(abstract="x" * 70_000)])[:65_536]
    long_note = json.dumps([raw_note(abstract="x" * 70_000)])[:65_536]
    assert papercopilot.sniff(pc, long_pc) and not openreview.sniff(pc, long_pc)
    assert openreview.sniff(note, long_note) and not papercopilot.sniff(note, long_note)


# --- Parquet -------------------------------------------------------------------------------------


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_parquet_rows_map_like_papercopilot(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = [
        {
            "openreview_id": "PqRow00001",
            "title": "A Parquet paper",
            "abstract": "Abstract.",
            "status": "ICLR 2026 ConditionalPoster",
            "primary_area": "optimization",
            "keywords": ["a, b", "c"],
            "rating": [6, 0, 8],
            "rating_avg": [4.667, 3.399],
            "confidence": [3, 4, 4],
            "site": "https://openreview.net/forum?id=PqRow00001",
            "pdf_link": "https://openreview.net/pdf?id=PqRow00001",
        },
        {
            "openreview_id": None,
            "title": "Second",
            "abstract": "More.",
            "status": "Oral",
            "primary_area": "",
            "keywords": [],
            "rating": [],
            "rating_avg": [0.0, 0.0],
            "confidence": [],
            "site": "https://openreview.net/forum?id=PqRow00002",
            "pdf_link": None,
        },
    ]
    path = write_parquet(tmp_path / "accepted.bin", rows)
    assert detect_format(path) == "parquet"  # by the PAR1 magic, whatever the name
    first, second = read_source(path).papers
    assert (first.venue, first.year) == ("ICLR", 2026)  # from the status
    assert first.keywords == ("a, b", "c")
    assert (first.decision, first.decision_raw) == (
        "accept-conditional",
        "ICLR 2026 ConditionalPoster",
    )
    assert first.ratings == Ratings.from_scores([6, 0, 8])
    assert first.confidence == pytest.approx(11 / 3)
    assert second.id == "openreview:PqRow00002"  # parsed from `site`
    assert second.ratings is None and second.confidence is None
    assert second.pdf_url == "https://openreview.net/pdf?id=PqRow00002"


def test_parquet_venue_from_file_name(tmp_path: Path) -> None:
    row = {"openreview_id": "PqRow00001", "title": "T", "abstract": "A", "status": "Poster"}
    path = write_parquet(tmp_path / "iclr_2026_subset.parquet", [row])
    (paper,) = parquet.read(path).papers
    assert (paper.venue, paper.year, paper.decision) == ("ICLR", 2026, "poster")


def test_parquet_refusals(tmp_path: Path) -> None:
    garbage = write(tmp_path, "garbage.parquet", b"PAR1 this is not parquet")
    with pytest.raises(SourceError, match="not a valid Parquet file"):
        parquet.read(garbage)
    no_title = write_parquet(tmp_path / "no_title.parquet", [{"openreview_id": "X"}])
    with pytest.raises(SourceError, match="no 'title' column"):
        parquet.read(no_title)
    bad_row = write_parquet(tmp_path / "bad_row.parquet", [{"title": None, "abstract": None, "id": None}])
    with pytest.raises(SourceError, match="row 1: no id, title or abstract"):
        parquet.read(bad_row)


def test_parquet_without_pyarrow_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(SourceError) as caught:
        parquet.read(PARQUET)
    assert caught.value.reason == (
        "reading Parquet needs pyarrow: make parquet, or .venv/bin/pip install -e '.[parquet]', in the checkout"
    )
