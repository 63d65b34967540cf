"""Score history on real files: the number of reviews kept in several versions, the number whose
rating moved, and the papers whose mean rose or fell, each computed here straight from the raw
review parts and checked against the store after importing them — on the committed cuts
(``tests/data/``) and, in the data suite, on all three whole parts (932 reviews in several
versions, 608 whose rating moved; 561 papers with a review whose first and last ratings differ,
510 whose mean rose, 50 whose mean fell)."""

from __future__ import annotations

import gzip
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.model.review import REVIEW
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SHARED_REVIEWS, review_parts


def _raw_counts(parts: list[Path]) -> dict[str, Any]:
    """From the raw notes: official reviews with more than one distinct ``tmdate``, those whose
    rating took more than one value, and the papers whose mean of first ratings differs from
    their mean of current ratings (up, down)."""
    versions: dict[str, dict[int, float]] = defaultdict(dict)
    forum_of: dict[str, str] = {}
    for part in parts:
        for line in gzip.decompress(part.read_bytes()).splitlines():
            note = orjson.loads(line)
            if not note["invitations"][0].endswith("/-/Official_Review"):
                continue
            versions[note["id"]].setdefault(note["tmdate"], float(note["content"]["rating"]["value"]))
            forum_of[note["id"]] = note["forum"]
    by_forum: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for note_id, by_time in versions.items():
        ordered = [by_time[time] for time in sorted(by_time)]
        by_forum[forum_of[note_id]].append((ordered[0], ordered[-1]))
    up = down = 0
    for pairs in by_forum.values():
        delta = round(sum(last for _, last in pairs) / len(pairs), 3) - round(sum(f for f, _ in pairs) / len(pairs), 3)
        up += delta > 1e-9
        down += delta < -1e-9
    return {
        "several": sum(1 for by_time in versions.values() if len(by_time) > 1),
        "moved": sum(1 for by_time in versions.values() if len(set(by_time.values())) > 1),
        "papers_moved": {forum for forum, pairs in by_forum.items() if any(a != b for a, b in pairs)},
        "up": up,
        "down": down,
    }


def _store_counts(store: Store) -> dict[str, Any]:
    several = moved = 0
    summaries = store.reviews.summaries()
    for _, notes in store.reviews.reviews_of(summaries):
        for note in notes:
            if note.kind == REVIEW:
                several += bool(note.earlier)
                moved += note.moved()
    return {
        "several": several,
        "moved": moved,
        "papers_moved": {forum for forum, summary in summaries.items() if summary.initial_ratings},
        "up": sum(1 for s in summaries.values() if (s.rating_delta or 0) > 0),
        "down": sum(1 for s in summaries.values() if (s.rating_delta or 0) < 0),
    }


def _check(parts: list[Path], data_dir: Path) -> dict[str, Any]:
    expected = _raw_counts(parts)
    import_files(Store(data_dir), parts)
    held = _store_counts(Store(data_dir))
    assert held == expected
    assert sum(s.moved for s in Store(data_dir).reviews.summaries().values()) == expected["moved"]
    return expected


def test_the_cuts_histories_are_those_of_their_lines(data_dir: Path) -> None:
    expected = _check(review_parts(), data_dir)
    assert expected["several"] > 0 and expected["moved"] > 0  # the cuts hold moves to check


@pytest.mark.data
def test_every_review_part_imported_keeps_932_reviews_in_several_versions_608_moved(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    expected = _check(review_parts(SHARED_REVIEWS), tmp_path_factory.mktemp("history") / "data")
    assert (expected["several"], expected["moved"]) == (932, 608)
    assert (len(expected["papers_moved"]), expected["up"], expected["down"]) == (561, 510, 50)
