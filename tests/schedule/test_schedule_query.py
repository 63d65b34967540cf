"""The programme's query terms: ``session:``, ``room:``, ``day:`` and ``time:`` (the venue's days
and times), and their one-line hints."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.search.query import parse_query
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SAFETY_NAME, fixture, run


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = Store(tmp_path_factory.mktemp("schedule") / "data")
    import_files(store, [fixture(SAFETY_NAME), fixture("iclr-2026-orals-posters.json")])
    return store.data_dir


def _ids(capsys: pytest.CaptureFixture[str], data_dir: Path, query: str) -> set[str]:
    code, out, err = run(capsys, "--data-dir", str(data_dir), "search", query, "--limit", "0", "--json")
    assert code == 0, err
    import json

    return {paper["id"] for paper in json.loads(out)}


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ('session:"poster session 1"', 8),  # the title-joined papers too
        ("session:oral", 1),
        ("room:amphi", 1),
        ("room:#119", 1),
        ("day:thu", 13),  # sessions 1, 2 and the oral
        ("day:thursday", 13),
        ("day:2026-04-24", 7),
        ("day:04-25", 1),  # the poster across midnight is on both days
        ("day:fri day:sat", 1),
        ("time:16..17", 5),  # session 2's posters and the oral
        ("time:23:30", 2),
        ("time:..10:30", 1),  # only the night poster, running past midnight
        ("time:13..15", 0),  # between the sessions: ends and starts touch, no overlap
        ("-day:thu", 34),
    ],
)
def test_schedule_terms_keep_the_papers_with_a_matching_event(
    query: str, count: int, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(_ids(capsys, data_dir, query)) == count


@pytest.mark.parametrize(
    ("query", "hint"),
    [
        ("day:xyz", "day needs a weekday or a date"),
        ("day:2026-13-01", "day needs a weekday or a date"),
        ("time:25", "time needs a time or a range"),
        ("time:12..10", "try time:10..12"),
        ("session:", "needs a value"),
    ],
)
def test_a_bad_value_is_a_one_line_hint(query: str, hint: str) -> None:
    error = parse_query(query).error
    assert error is not None and hint in error and "\n" not in error
