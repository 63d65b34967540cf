"""The rebuttal lens on the real ICLR 2026 reviews (``data``): the number of papers ``moved:up``
and ``moved:down`` through the query engine, checked against counts computed here straight from
the three review parts.

A paper's move, by the issue's definition: the mean of its official reviews' current ratings
(each review's latest version, by ``tmdate``) − the mean of each review's first rating (its
oldest version giving one); ``moved:up`` when above 0, ``moved:down`` when below. Only a paper
with a review seen in several versions can move, so the store is built of those papers (their
dump records and every version of every note of theirs, as the parts hold them): the counts are
the whole conference's. Needs every version kept by the import (the hist-store branch).
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.cli.selecting import select_ids
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SHARED_DATA, SHARED_REVIEWS, review_parts, submission_parts, submissions_of

pytestmark = pytest.mark.data

OFFICIAL_REVIEW = "/-/Official_Review"


def _notes() -> list[dict[str, Any]]:
    return [
        orjson.loads(line)
        for part in review_parts(SHARED_REVIEWS)
        for line in gzip.decompress(part.read_bytes()).splitlines()
    ]


def _moves(notes: list[dict[str, Any]]) -> tuple[dict[str, float], set[str]]:
    """Each paper's move (current mean − first mean) by forum, and the forums with a note in
    several versions."""
    versions: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)  # note id → tmdate → note
    for note in notes:
        versions[note["id"]][note.get("tmdate") or note.get("mdate") or 0] = note
    several = {next(iter(v.values()))["forum"] for v in versions.values() if len(v) > 1}
    first: dict[str, list[float]] = defaultdict(list)
    now: dict[str, list[float]] = defaultdict(list)
    for by_time in versions.values():
        ordered = [by_time[time] for time in sorted(by_time)]
        if not any(inv.endswith(OFFICIAL_REVIEW) for inv in ordered[-1]["invitations"]):
            continue
        rated = [n["content"]["rating"]["value"] for n in ordered if "rating" in n["content"]]
        if not rated or "rating" not in ordered[-1]["content"]:
            continue
        forum = ordered[-1]["forum"]
        first[forum].append(float(rated[0]))
        now[forum].append(float(rated[-1]))
    moves = {forum: sum(now[forum]) / len(now[forum]) - sum(first[forum]) / len(first[forum]) for forum in now}
    return moves, several


def test_moved_up_and_down_count_what_the_review_parts_say(tmp_path: Path) -> None:
    notes = _notes()
    moves, several = _moves(notes)
    up = {forum for forum, delta in moves.items() if delta > 1e-9}
    down = {forum for forum, delta in moves.items() if delta < -1e-9}
    assert up and down and (up | down) <= several  # a paper moves only through a review's versions
    kept = tmp_path / "several-versions.jsonl.gz"
    kept.write_bytes(gzip.compress(b"\n".join(orjson.dumps(n) for n in notes if n["forum"] in several)))
    papers = submissions_of(several, tmp_path / "papers.jsonl", submission_parts(SHARED_DATA))
    store = Store(tmp_path / "data")
    import_files(store, [papers, kept])
    by_forum = {paper.id: paper.openreview_id for paper in store.papers}

    def kept_by(query: str) -> set[str]:
        return {by_forum[pid] for pid in select_ids(store, query)}

    assert (len(kept_by("moved:up")), len(kept_by("moved:down"))) == (len(up), len(down))
    assert kept_by("moved:up") == up and kept_by("moved:down") == down
    assert kept_by("-moved:any") == set(by_forum.values()) - up - down
