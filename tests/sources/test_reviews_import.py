"""Reviews: reply notes read from every shape (and gzip), stored by paper, summarised at import.

The real sample and cuts of the real review parts (``tests/data/``) are read; expected numbers are
computed here straight from the files.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.review import AUTHOR_RESPONSE, REVIEW, Review
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import REPLIES_SAMPLE_NAME, fixture, review_parts, submissions_of

SAMPLE = fixture(REPLIES_SAMPLE_NAME)
HOSTILE_PAPERS = fixture("hostile13_openreview_escapes-nan-rating.jsonl")
HOSTILE_REVIEW = fixture("hostile13_openreview_review-table-image.jsonl")
PARTS = review_parts()


def _notes(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_bytes())
    return data if isinstance(data, list) else data["notes"]


def _head_lines(path: Path, count: int) -> list[bytes]:
    with gzip.open(path, "rb") as handle:
        return list(itertools.islice(handle, count))


def _expected(notes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per forum: count, mean, min, max, std and the confidence mean of the official reviews,
    straight from the raw notes (deduplicated by note id, the latest tmdate kept)."""
    latest: dict[str, dict[str, Any]] = {}
    for note in notes:
        held = latest.get(note["id"])
        if held is None or note["tmdate"] > held["tmdate"]:
            latest[note["id"]] = note
    by_forum: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for note in latest.values():
        if note["invitations"][0].endswith("/-/Official_Review"):
            by_forum[note["forum"]].append(note["content"])
    expected = {}
    for forum, contents in by_forum.items():
        ratings = [c["rating"]["value"] for c in contents]
        mean = sum(ratings) / len(ratings)
        std = (sum((r - mean) ** 2 for r in ratings) / len(ratings)) ** 0.5
        confidences = [c["confidence"]["value"] for c in contents]
        expected[forum] = {
            "count": len(ratings),
            "mean": mean,
            "min": min(ratings),
            "max": max(ratings),
            "std": std,
            "confidence": sum(confidences) / len(confidences),
        }
    return expected


def _tree(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` by relative path, as a SHA-256 of its bytes."""
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.name != ".import.lock"
    }


def _check_summaries(store: Store, expected: dict[str, dict[str, Any]]) -> None:
    summaries = store.reviews.summaries()
    assert set(expected) <= set(summaries)
    for forum, numbers in expected.items():
        summary = summaries[forum]
        got = {name: getattr(summary, name) for name in numbers}
        assert got == pytest.approx(numbers), forum
        assert summary.spread == numbers["max"] - numbers["min"]


def test_the_real_sample_imports_its_51_notes_as_reviews(data_dir: Path) -> None:
    read = read_source(SAMPLE)
    assert len(read.reviews) == 51 and not read.papers
    kinds = {review.kind for review in read.reviews}
    assert kinds == {REVIEW, AUTHOR_RESPONSE, "withdrawal", "public-comment"}
    store = Store(data_dir)
    summary = import_files(store, [SAMPLE])
    assert summary.reviews is not None and summary.reviews.new == 51
    assert summary.reviews.papers == 12 and summary.reviews.waiting == 12  # no paper imported yet
    assert not summary.skipped  # reply notes are reviews now, not skipped records
    assert "12 papers not imported yet" in summary.summary()
    _check_summaries(store, _expected(_notes(SAMPLE)))
    first = _notes(SAMPLE)[0]
    reviews = store.reviews.reviews(first["forum"])
    mine = next(review for review in reviews if review.id == first["id"])
    assert mine.section("weaknesses") == first["content"]["weaknesses"]["value"]
    assert mine.score("rating") == first["content"]["rating"]["value"]
    assert mine.signature.startswith("Reviewer_")


def test_a_slice_of_every_real_part_imports_with_summaries_computed_from_the_lines(
    data_dir: Path, tmp_path: Path
) -> None:
    paths, notes = [], []
    for number, part in enumerate(PARTS, start=1):
        lines = _head_lines(part, 300)
        notes += [json.loads(line) for line in lines]
        path = tmp_path / f"part{number}.jsonl.gz"
        path.write_bytes(gzip.compress(b"".join(lines)))
        paths.append(path)
    forums = {note["forum"] for note in notes}
    papers = submissions_of(forums, tmp_path / "papers.jsonl")
    store = Store(data_dir)
    summary = import_files(store, [*paths, papers])
    assert summary.reviews is not None
    assert summary.reviews.papers == len(forums) and summary.reviews.waiting == 0
    assert summary.reviews.new == len({note["id"] for note in notes})
    _check_summaries(store, _expected(notes))
    assert all(s.scale == "0, 2, 4, 6, 8, 10" for s in store.reviews.summaries().values() if s.count)


def test_re_import_is_idempotent_and_leaves_the_store_byte_identical(data_dir: Path) -> None:
    store = Store(data_dir)
    import_files(store, [SAMPLE])
    before = _tree(data_dir)
    again = import_files(store, [SAMPLE])
    assert again.reviews is not None and (again.reviews.new, again.reviews.updated) == (0, 0)
    assert again.reviews.unchanged == 51
    assert _tree(data_dir) == before


def test_a_newer_tmdate_replaces_the_note_and_the_change_is_recorded(data_dir: Path, tmp_path: Path) -> None:
    notes = _notes(SAMPLE)
    store = Store(data_dir)
    import_files(store, [SAMPLE])
    note = next(n for n in notes if n["invitations"][0].endswith("Official_Review"))
    changed = json.loads(json.dumps(note))
    changed["tmdate"] += 1000
    changed["content"]["rating"]["value"] = 10
    older = json.loads(json.dumps(note))
    older["tmdate"] -= 1000
    older["content"]["rating"]["value"] = 0
    path = tmp_path / "changed.json"
    path.write_text(json.dumps([changed, older]))
    summary = import_files(store, [path])
    assert summary.reviews is not None and summary.reviews.updated == 1
    review = next(r for r in store.reviews.reviews(note["forum"]) if r.id == note["id"])
    assert review.score("rating") == 10
    assert store.reviews.summary(note["forum"]).max == 10  # type: ignore[union-attr]
    (moved,) = summary.reviews.notes  # the note's rating move, by note id, with both tmdates
    old_rating = note["content"]["rating"]["value"]
    assert [(s.review, s.field, s.old, s.new, s.old_time, s.new_time) for s in moved.scores] == [
        (note["id"], "rating", old_rating, 10, note["tmdate"], changed["tmdate"])
    ]
    assert store.changes() == []  # its paper is not in the catalogue: it will arrive as a new paper
    path.write_text(json.dumps([older]))  # an older version never replaces a newer one
    summary = import_files(store, [path])
    assert summary.reviews is not None and summary.reviews.unchanged == 1
    assert next(r for r in store.reviews.reviews(note["forum"]) if r.id == note["id"]).score("rating") == 10


def _submission(forum: str, replies_key: str, replies: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": forum,
        "forum": forum,
        "invitations": ["ICLR.cc/2026/Conference/-/Submission"],
        "domain": "ICLR.cc/2026/Conference",
        "content": {"title": {"value": "A paper on reviews"}, "abstract": {"value": "An abstract " * 20}},
        "details": {replies_key: replies},
    }


@pytest.mark.parametrize("shape", ["array", "lines", "notes", "directReplies", "replies"])
@pytest.mark.parametrize("compressed", [False, True])
def test_every_shape_is_read_plain_or_gzip_compressed(tmp_path: Path, shape: str, compressed: bool) -> None:
    notes = _notes(SAMPLE)
    if shape == "array":
        raw = json.dumps(notes).encode()
    elif shape == "lines":
        raw = b"".join(json.dumps(note).encode() + b"\n" for note in notes)
    elif shape == "notes":
        raw = json.dumps({"notes": notes, "count": len(notes)}).encode()
    else:
        by_forum: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for note in notes:
            reply = dict(note)
            if shape == "replies":
                reply.pop("forum")  # the submission says which paper
            by_forum[note["forum"]].append(reply)
        raw = json.dumps({"notes": [_submission(f, shape, r) for f, r in by_forum.items()]}).encode()
    path = tmp_path / ("notes.json.gz" if compressed else "notes.json")
    path.write_bytes(gzip.compress(raw) if compressed else raw)
    read = read_source(path)
    assert sorted(r.id for r in read.reviews) == sorted(n["id"] for n in notes)
    assert len(read.papers) == (12 if shape in ("directReplies", "replies") else 0)


def test_scores_as_strings_and_other_years_fields_are_kept() -> None:
    from paperdeck.sources.review_notes import note_review

    note = {
        "id": "r1",
        "forum": "f1",
        "replyto": "f1",
        "invitations": ["ICLR.cc/2024/Conference/Submission9/-/Official_Review"],
        "signatures": ["ICLR.cc/2024/Conference/Submission9/Reviewer_ab12"],
        "content": {
            "rating": {"value": "6: marginally above the acceptance threshold"},
            "confidence": {"value": "4: You are confident in your assessment"},
            "correctness": {"value": "3 good"},
            "technical_novelty": {"value": 2},
            "summary": {"value": "A *summary* with $x^2$."},
        },
    }
    review = note_review(note)
    assert review.score("rating") == 6 and review.score("confidence") == 4
    assert review.score("correctness") == 3 and review.score("technical_novelty") == 2
    assert dict(review.score_labels)["rating"] == "marginally above the acceptance threshold"
    assert review.section("summary") == "A *summary* with $x^2$."
    assert Review.from_dict(review.to_dict()) == review
    summary = ReviewSummary.of([review])
    assert ReviewSummary.from_dict(summary.to_dict()) == summary


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of bad input: the file, and what its error line must say."""
    good = _notes(SAMPLE)[0]

    def lines(*notes: Any, name: str) -> Path:
        path = tmp_path / name
        path.write_bytes(b"".join((n if isinstance(n, bytes) else json.dumps(n).encode()) + b"\n" for n in notes))
        return path

    no_forum = {k: v for k, v in good.items() if k not in ("forum", "replyto")} | {"id": "noForum1"}
    no_forum["replyto"] = "someOtherNote"
    bad_score = json.loads(json.dumps(good))
    bad_score.update(id="bad1")
    bad_score["content"]["rating"]["value"] = "excellent"
    absurd = json.loads(json.dumps(good))
    absurd.update(id="absurd1")
    absurd["content"]["rating"]["value"] = 1e308  # a number, but on no review scale
    exponent = json.loads(json.dumps(good))
    exponent.update(id="exp1")
    exponent["content"]["rating"]["value"] = "1e3"  # never 1000: no exponent is read
    huge = json.loads(json.dumps(good))
    huge.update(id="huge1")
    huge["content"]["weaknesses"]["value"] = "w" * 10_000_000
    raw = b"".join(json.dumps(n).encode() + b"\n" for n in (good, dict(good, id="second")))
    bad_utf8 = tmp_path / "bad-utf8.jsonl.gz"
    bad_utf8.write_bytes(gzip.compress(raw + json.dumps(dict(good, id="third")).encode().replace(b"This", b"Th\xffs")))
    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(gzip.compress(raw * 50)[:-200])
    return {
        "malformed note": (lines(good, b'{"id": "x", "forum": ', name="malformed.jsonl"), ":2:"),
        "only malformed replies": (lines(no_forum, bad_score, absurd, [1, 2], name="allbad.jsonl"), "noForum1"),
        "not an object": (lines(good, [1, 2], name="array.jsonl"), "malformed record"),
        "no forum": (lines(good, no_forum, name="noforum.jsonl"), "malformed reply"),
        "non-numeric score": (lines(good, bad_score, name="score.jsonl"), "malformed reply"),
        "score off every scale": (lines(good, absurd, name="absurd.jsonl"), "malformed reply"),
        "exponent score": (lines(good, exponent, name="exponent.jsonl"), "malformed reply"),
        "10 MB review": (lines(good, huge, name="huge.jsonl"), "huge1"),
        "invalid UTF-8 in gzip": (bad_utf8, ":3"),
        "truncated gzip": (truncated, "truncated gzip"),
    }


@pytest.mark.parametrize(
    "kind", ["malformed note", "only malformed replies", "10 MB review", "invalid UTF-8 in gzip", "truncated gzip"]
)
def test_bad_input_is_one_line_naming_file_and_place_and_changes_nothing(
    data_dir: Path, tmp_path: Path, kind: str
) -> None:
    path, where = _bad_inputs(tmp_path)[kind]
    store = Store(data_dir)
    import_files(store, [SAMPLE])
    before = _tree(data_dir)
    with pytest.raises(SourceError) as caught:
        import_files(store, [SAMPLE, path])
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and where in message, message
    assert _tree(data_dir) == before


@pytest.mark.parametrize(
    "kind",
    ["not an object", "no forum", "non-numeric score", "score off every scale", "exponent score"],
)
def test_a_bad_reply_among_sound_ones_is_skipped_and_counted(data_dir: Path, tmp_path: Path, kind: str) -> None:
    path, reason = _bad_inputs(tmp_path)[kind]
    store = Store(data_dir)
    summary = import_files(store, [path])
    assert summary.skipped == {reason: 1}, summary.skipped
    assert summary.reviews is not None and summary.reviews.new == 1
    assert f"1 skipped (1 {reason}: {path.name} line 2)" in summary.summary()


def test_a_meta_reviews_text_recommendation_is_a_section_not_a_refusal() -> None:
    from paperdeck.sources.review_notes import note_review

    note = {
        "id": "Meta000001", "forum": "Forum00001", "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Meta_Review"],
        "content": {"recommendation": {"value": "Accept (Poster)"}, "metareview": {"value": "Sound."},
                    "confidence": {"value": "4: confident"}},
    }  # fmt: skip
    review = note_review(note)
    assert review.section("recommendation") == "Accept (Poster)" and review.score("confidence") == 4
    scored = note_review({**note, "content": {"recommendation": {"value": "8: accept"}}})
    assert scored.score("recommendation") == 8


@pytest.mark.parametrize("text", ["1e3", "1x", "0x10", "٣", "1_000", "6e0: accept", "infinite"])
def test_a_score_is_read_strictly(text: str) -> None:
    from paperdeck.sources.review_notes import note_review

    note = {"id": "Review0001", "forum": "Forum00001", "invitations": ["V/Submission1/-/Official_Review"],
            "content": {"rating": {"value": text}}}  # fmt: skip
    with pytest.raises(ValueError, match="rating is not a number"):
        note_review(note)


@pytest.mark.parametrize("field", ["rating", "confidence", "soundness", "technical_novelty"])
@pytest.mark.parametrize("text", ["1e309", "Infinity", "-inf", "NaN", " nan "])
def test_a_score_for_no_finite_number_is_dropped_and_counted_the_review_kept(field: str, text: str) -> None:
    from collections import Counter

    from paperdeck.sources.review_notes import note_review

    content = {"rating": {"value": 6}, "confidence": {"value": 4}, "soundness": {"value": "3 good"},
               "technical_novelty": {"value": 2}, "summary": {"value": "Short."}}  # fmt: skip
    note = {"id": "Review0001", "forum": "Forum00001", "invitations": ["V/Submission1/-/Official_Review"],
            "content": {**content, field: {"value": text}}}  # fmt: skip
    dropped: Counter[str] = Counter()
    review = note_review(note, dropped)
    assert dropped == {f"non-finite {field}": 1}
    assert review.score(field) is None and review.section("summary") == "Short."
    assert {name for name, _ in review.scores} == set(content) - {field, "summary"}


def test_a_reviews_non_finite_confidence_is_dropped_and_counted_as_a_papers_rating_is(
    data_dir: Path, tmp_path: Path
) -> None:
    """The tester's file, thirteenth round: one review whose confidence is ``"Infinity"`` refused
    the import (``confidence is not a number``) while a paper's ``"NaN"`` rating was dropped and
    counted; both are now one rule: the value dropped and counted, the rest imported."""
    path = tmp_path / "hostile_reviews.jsonl"
    path.write_text(
        HOSTILE_REVIEW.read_text("utf-8").replace('"confidence": {"value": 4}', '"confidence": {"value": "Infinity"}'),
        "utf-8",
    )
    store = Store(data_dir)
    summary = import_files(store, [HOSTILE_PAPERS, path])
    assert summary.dropped == {"non-finite rating": 1, "non-finite confidence": 1}, summary.dropped
    assert summary.reviews is not None and summary.reviews.new == 1 and summary.new == 2
    assert "2 values dropped (1 non-finite rating; 1 non-finite confidence)" in summary.summary()
    (review,) = store.reviews.reviews("HostEsc001")
    assert review.score("rating") == 6 and review.score("confidence") is None


@pytest.mark.parametrize("number", ["1e309", "-1e309"])
def test_a_reviews_confidence_too_large_for_a_float_as_a_json_number_is_dropped_and_counted(
    data_dir: Path, tmp_path: Path, number: str
) -> None:
    """The tester's file, thirteenth round: ``"confidence": {"value": 1e309}`` (a JSON number, not
    text) refused the whole file (``not valid JSON: number is infinity when parsed as double``);
    the line is now read by the standard library, the value dropped and counted as ``"1e309"``
    in text is. The paper file is read as JSON Lines (two lines), the review file whole."""
    path = tmp_path / "hostile_reviews.jsonl"
    path.write_text(
        HOSTILE_REVIEW.read_text("utf-8").replace('"confidence": {"value": 4}', f'"confidence": {{"value": {number}}}'),
        "utf-8",
    )
    papers = tmp_path / "papers.jsonl"
    papers.write_text(HOSTILE_PAPERS.read_text("utf-8").replace('{"value": "NaN"}', f'{{"value": {number}}}'), "utf-8")
    store = Store(data_dir)
    summary = import_files(store, [papers, path])
    assert summary.dropped == {"non-finite rating": 1, "non-finite confidence": 1}, summary.dropped
    assert summary.reviews is not None and summary.reviews.new == 1 and summary.new == 2
    (review,) = store.reviews.reviews("HostEsc001")
    assert review.score("rating") == 6 and review.score("confidence") is None


@pytest.mark.parametrize("odd", ["../../x", "a/b", "nul\x00", "esc\x1b[2J", "rtl\u202eexe", "x" * 65, "tab\there"])
def test_a_reply_whose_id_or_forum_is_not_a_plain_token_is_malformed(odd: str) -> None:
    from paperdeck.sources.review_notes import note_review

    note = {"id": "Review0001", "forum": "Forum00001", "invitations": ["V/Submission1/-/Official_Review"],
            "content": {"rating": {"value": 6}}}  # fmt: skip
    assert note_review(note).score("rating") == 6
    for field in ("id", "forum"):
        with pytest.raises(ValueError, match="plain token"):
            note_review({**note, field: odd})


@pytest.mark.parametrize("reviews_first", [False, True])
def test_the_papers_ratings_come_from_their_reviews_whichever_arrives_first(
    data_dir: Path, tmp_path: Path, reviews_first: bool
) -> None:
    notes = _notes(SAMPLE)
    papers = submissions_of({note["forum"] for note in notes}, tmp_path / "papers.jsonl")
    store = Store(data_dir)
    for path in [SAMPLE, papers] if reviews_first else [papers, SAMPLE]:
        import_files(store, [path])
    expected = _expected(notes)
    for forum, numbers in expected.items():
        paper = store.paper(f"openreview:{forum}")
        assert paper is not None and paper.ratings is not None
        assert (paper.ratings.mean, paper.ratings.min, paper.ratings.max, paper.ratings.count) == (
            numbers["mean"], numbers["min"], numbers["max"], numbers["count"]
        )  # fmt: skip
        assert paper.confidence == numbers["confidence"]
    reopened = Store(data_dir)  # on disk, and in the rows the list paints from
    forum = next(iter(expected))
    row = reopened.row(f"openreview:{forum}")
    assert row is not None


def _decision_note(forum: str, text: str, tmdate: int = 1_765_000_000_000) -> dict[str, Any]:
    return {
        "id": f"dec{forum}",
        "forum": forum,
        "replyto": forum,
        "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Decision"],
        "signatures": ["ICLR.cc/2026/Program_Chairs"],
        "cdate": tmdate,
        "tmdate": tmdate,
        "content": {"decision": {"value": text}, "comment": {"value": "Congratulations."}},
    }


def test_a_decision_note_wins_over_none_and_never_the_other_way(data_dir: Path, tmp_path: Path) -> None:
    notes = _notes(SAMPLE)
    forums = sorted({note["forum"] for note in notes})
    papers = submissions_of(set(forums), tmp_path / "papers.jsonl")
    store = Store(data_dir)
    import_files(store, [papers, SAMPLE])
    undecided = next(f for f in forums if store.paper(f"openreview:{f}").decision in ("unknown", "under-review"))  # type: ignore[union-attr]
    path = tmp_path / "decision.json"
    path.write_text(json.dumps([_decision_note(undecided, "Accept (Oral)")]))
    import_files(store, [path])
    paper = store.paper(f"openreview:{undecided}")
    assert paper is not None and paper.decision == "oral" and paper.decision_raw == "Accept (Oral)"
    assert store.reviews.summary(undecided).decision == "Accept (Oral)"  # type: ignore[union-attr]
    import_files(store, [papers, SAMPLE])  # a decision-less source again: the decision stays
    assert store.paper(f"openreview:{undecided}").decision == "oral"  # type: ignore[union-attr]
