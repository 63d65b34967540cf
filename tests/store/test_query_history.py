"""The filter bar's history file (``store/query_history.py``): newest first, each query once,
bounded, kept across restarts, and a hostile file read as no history rather than a crash."""

from __future__ import annotations

from pathlib import Path

import orjson
from paperdeck.store.query_history import HISTORY_FILE, MAX_QUERIES, MAX_QUERY_CHARS, QueryHistory


def test_queries_are_kept_newest_first_once_each_across_restarts(tmp_path: Path) -> None:
    history = QueryHistory(tmp_path)
    for query in ("diffusion", 'area:"reinforcement learning" rating>=6', "  diffusion  ", ""):
        history.add(query)
    assert QueryHistory(tmp_path).queries == ["diffusion", 'area:"reinforcement learning" rating>=6']


def test_the_history_is_bounded(tmp_path: Path) -> None:
    history = QueryHistory(tmp_path)
    for n in range(MAX_QUERIES + 5):
        history.add(f"q{n}")
    queries = QueryHistory(tmp_path).queries
    assert len(queries) == MAX_QUERIES
    assert queries[0] == f"q{MAX_QUERIES + 4}"


def test_two_windows_add_to_one_history(tmp_path: Path) -> None:
    one, two = QueryHistory(tmp_path), QueryHistory(tmp_path)
    one.add("first")
    two.add("second")
    assert QueryHistory(tmp_path).queries == ["second", "first"]


def test_a_hostile_file_is_no_history_and_its_text_made_visible(tmp_path: Path) -> None:
    (tmp_path / HISTORY_FILE).write_bytes(b"{not json")
    broken = QueryHistory(tmp_path)
    assert broken.queries == []
    assert broken.problem is not None and HISTORY_FILE in broken.problem
    assert (tmp_path / HISTORY_FILE).read_bytes() == b"{not json"  # left as it is
    (tmp_path / HISTORY_FILE).write_bytes(orjson.dumps(["ok\x1b[31m", 3, None, "x" * (MAX_QUERY_CHARS + 1), ["a"]]))
    assert QueryHistory(tmp_path).queries == ["ok␛[31m"]
