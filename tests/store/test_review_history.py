"""Every version of a review is kept: within one file, across files, across imports and across
fetches (:mod:`paperdeck.store.review_history`); bad versions are handled, never a reordered or
invented history; what changed tells a move already in the history from a new one. (Across
fetches: ``tests/fetch/test_fetch_history.py``.)"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.review import Review, ReviewVersion
from paperdeck.sources.importer import import_files
from paperdeck.store.review_history import CONFLICT, NO_RATING, merge_versions
from paperdeck.store.store import Store

from tests.helpers import ReviewSample

FORUM = "PaperAAAA1"
DAY = 86_400_000
T0 = 1_762_943_444_955  # review 6EPtdgcB1V's first version


def _note(
    rating: Any, tmdate: int | None, note_id: str = "ReviewXX01", confidence: int = 4, **extra: Any
) -> dict[str, Any]:
    content: dict[str, Any] = {"summary": {"value": f"text at {tmdate}"}, "confidence": {"value": confidence}}
    if rating is not None:
        content["rating"] = {"value": rating}
    note: dict[str, Any] = {
        "id": note_id,
        "forum": FORUM,
        "replyto": FORUM,
        "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"],
        "signatures": ["ICLR.cc/2026/Conference/Submission1/Reviewer_tLpQ"],
        "domain": "ICLR.cc/2026/Conference",
        "cdate": T0 - DAY,
        "content": content,
        **extra,
    }
    if tmdate is not None:
        note["tmdate"] = note["mdate"] = tmdate
    return note


def _write(path: Path, notes: list[dict[str, Any]]) -> Path:
    path.write_bytes(gzip.compress("".join(json.dumps(note) + "\n" for note in notes).encode()))
    return path


def _stored(store: Store, note_id: str = "ReviewXX01") -> Review:
    return next(review for review in Store(store.data_dir).reviews.reviews(FORUM) if review.id == note_id)


def _path(review: Review) -> list[tuple[int, float | None]]:
    return [(version.time, version.score("rating")) for version in review.history()]


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_versions_out_of_order_in_one_file_are_kept_in_time_order(data_dir: Path, tmp_path: Path) -> None:
    store = Store(data_dir)
    notes = [_note(6, T0 + DAY), _note(8, T0 + 3 * DAY), _note(4, T0)]
    summary = import_files(store, [_write(tmp_path / "r.jsonl.gz", notes)])
    review = _stored(store)
    assert _path(review) == [(T0, 4.0), (T0 + DAY, 6.0), (T0 + 3 * DAY, 8.0)]
    assert review.section("summary") == f"text at {T0 + 3 * DAY}"  # the latest version's text is current
    assert review.score_path() == (4.0, 6.0, 8.0) and review.moved()
    assert summary.reviews is not None and (summary.reviews.new, summary.reviews.versions) == (1, 2)
    held = store.reviews.summary(FORUM)
    assert held is not None and held.initial_ratings == (4.0,) and held.ratings == (8.0,) and held.moved == 1
    assert held.rating_delta == 4.0


def test_re_importing_the_same_file_adds_nothing_and_leaves_the_store_byte_identical(
    data_dir: Path, tmp_path: Path
) -> None:
    path = _write(tmp_path / "r.jsonl.gz", [_note(6, T0), _note(8, T0 + DAY), _note(6, T0)])
    store = Store(data_dir)
    import_files(store, [path])
    before = _tree(data_dir / "reviews")
    again = import_files(Store(data_dir), [path])
    assert again.reviews is not None
    assert (again.reviews.new, again.reviews.updated, again.reviews.unchanged, again.reviews.versions) == (0, 0, 1, 0)
    assert _tree(data_dir / "reviews") == before
    assert _path(_stored(store)) == [(T0, 6.0), (T0 + DAY, 8.0)]  # the duplicate version is one


def test_a_version_at_the_time_of_another_with_other_scores_is_counted_and_the_first_kept(
    data_dir: Path, tmp_path: Path
) -> None:
    notes = [_note(6, T0), _note(2, T0), _note(8, T0 + DAY)]
    summary = import_files(Store(data_dir), [_write(tmp_path / "r.jsonl.gz", notes)])
    assert _path(_stored(Store(data_dir))) == [(T0, 6.0), (T0 + DAY, 8.0)]
    assert summary.skipped[CONFLICT] == 1
    assert f"1 {CONFLICT}" in summary.summary()


def test_a_version_without_a_rating_or_with_a_non_numeric_one_is_skipped_and_counted(
    data_dir: Path, tmp_path: Path
) -> None:
    notes = [_note(6, T0), _note(None, T0 + DAY), _note("high", T0 + 2 * DAY), _note(8, T0 + 3 * DAY)]
    notes += [_note(4, T0 + 3 * DAY, note_id=f"Other{i:05d}") for i in range(3)]  # sound ones beside
    summary = import_files(Store(data_dir), [_write(tmp_path / "r.jsonl.gz", notes)])
    assert _path(_stored(Store(data_dir))) == [(T0, 6.0), (T0 + 3 * DAY, 8.0)]
    assert summary.skipped[NO_RATING] == 1
    assert summary.skipped["malformed reply"] == 1  # "high": the reader skips the reply


def test_a_version_without_a_time_takes_the_imports_and_a_second_import_adds_nothing(
    data_dir: Path, tmp_path: Path
) -> None:
    store = Store(data_dir)
    import_files(store, [_write(tmp_path / "a.jsonl.gz", [_note(6, T0)])])
    timeless = _note(8, None)
    timeless.pop("cdate")
    path = _write(tmp_path / "b.jsonl.gz", [timeless])
    import_files(Store(data_dir), [path])
    history = _stored(store).history()
    assert [version.score("rating") for version in history] == [6.0, 8.0]
    assert history[-1].time > T0  # the import's time: after every version with one
    import_files(Store(data_dir), [path])
    assert _stored(store).history() == history


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_versions_across_files_and_across_imports_build_one_history_whatever_the_order(
    data_dir: Path, tmp_path: Path, order: tuple[int, ...]
) -> None:
    files = [_write(tmp_path / f"day{i}.jsonl.gz", [_note(4 + 2 * i, T0 + i * DAY)]) for i in range(3)]
    import_files(Store(data_dir), [files[order[0]], files[order[1]]])  # two files, one import
    import_files(Store(data_dir), [files[order[2]]])  # a third, later
    review = _stored(Store(data_dir))
    assert _path(review) == [(T0, 4.0), (T0 + DAY, 6.0), (T0 + 2 * DAY, 8.0)]
    assert review.section("summary") == f"text at {T0 + 2 * DAY}"


def test_an_older_version_arriving_later_is_history_not_a_change(data_dir: Path, tmp_path: Path) -> None:
    store = Store(data_dir)
    import_files(store, [_write(tmp_path / "a.jsonl.gz", [_note(6, T0 + DAY)])])
    older = import_files(Store(data_dir), [_write(tmp_path / "b.jsonl.gz", [_note(4, T0)])])
    assert older.reviews is not None and older.reviews.updated == 1 and older.reviews.notes == ()
    assert _path(_stored(store)) == [(T0, 4.0), (T0 + DAY, 6.0)]
    newer = import_files(Store(data_dir), [_write(tmp_path / "c.jsonl.gz", [_note(8, T0 + 2 * DAY)])])
    assert newer.reviews is not None
    (note,) = newer.reviews.notes  # the move after what was stored is a change, from the stored current
    assert [(s.old, s.new, s.old_time, s.new_time) for s in note.scores] == [(6.0, 8.0, T0 + DAY, T0 + 2 * DAY)]


def test_merge_versions_never_reorders_or_invents() -> None:
    def review(rating: float, time: int, earlier: tuple[ReviewVersion, ...] = ()) -> Review:
        return Review("R1", FORUM, FORUM, "review", tmdate=time, scores=(("rating", rating),), earlier=earlier)

    stored = review(8, 30, (ReviewVersion(10, (("rating", 4.0),)),))
    merged = merge_versions(stored, [review(6, 20), review(4, 10), review(8, 30)], now_ms=99)
    assert merged.review is not None and merged.added == 1 and not merged.current_changed
    assert [(v.time, v.score("rating")) for v in merged.review.history()] == [(10, 4.0), (20, 6.0), (30, 8.0)]
    assert merge_versions(merged.review, [review(6, 20)], now_ms=99).added == 0
    assert merge_versions(None, [], now_ms=99).review is None


def test_what_changed_a_move_in_the_history_before_the_last_look_is_no_change_one_after_is(
    review_sample: ReviewSample, data_dir: Path, tmp_path: Path
) -> None:
    notes = review_sample.notes()
    first = next(n for n in notes if n["invitations"][0].endswith("/-/Official_Review"))
    rating = first["content"]["rating"]["value"]

    def version(value: int, days: int) -> dict[str, Any]:
        note = json.loads(json.dumps(first))
        note["content"]["rating"]["value"] = value
        note["tmdate"] = first["tmdate"] + days * DAY
        return note

    earlier = version(rating + 2 if rating <= 6 else rating - 2, -3)
    store = Store(data_dir)
    # the baseline already holds a move (two versions in one file): history, shown as the review's path
    import_files(store, [review_sample.papers_file, _write(tmp_path / "base.jsonl.gz", [earlier, *notes])])
    store.first_look()  # the app opened the store: what follows is news
    paper = f"openreview:{first['forum']}"
    review = next(r for r in store.reviews.reviews(first["forum"]) if r.id == first["id"])
    assert review.moved() and store.changed_since_looked() == {}
    # an even older version, fetched after the look: it joins the history, and is no change
    import_files(Store(data_dir), [_write(tmp_path / "older.jsonl.gz", [version(0, -6)])])
    store = Store(data_dir)
    assert len(next(r for r in store.reviews.reviews(first["forum"]) if r.id == first["id"]).history()) == 3
    assert store.changed_since_looked() == {} and store.changes_by_paper() == {}
    # a newer version after the look: a change, from the current version the user saw
    import_files(Store(data_dir), [_write(tmp_path / "newer.jsonl.gz", [version(10, 2)])])
    store = Store(data_dir)
    assert "rating" in store.changed_since_looked()[paper]
    (move,) = store.changes_by_paper()[paper].scores
    assert (move.old, move.new, move.old_time) == (rating, 10.0, first["tmdate"])
