"""A second fetch after the server changed ratings and decisions (:meth:`ApiServer.change_ratings`,
:meth:`ApiServer.decide`) brings exactly those changes into the store; and the full-size fetch
(all 19,630 ICLR 2026 submissions with their 81,870 replies) in at most 25 requests (``slow``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from paperdeck.fetch.client import Limits
from paperdeck.fetch.run import FetchOptions, fetch
from paperdeck.store.store import Store

from tests.fetch.api_server import PASSWORD, USER, ApiServer, iclr2026_encoded
from tests.fetch.helpers import ICLR, options


def _state(store: Store) -> tuple[dict[str, Any], dict[str, str]]:
    """Each paper's review ratings (by forum) and decision."""
    ratings = {forum: summary.ratings for forum, summary in store.reviews.summaries().items()}
    decisions = {paper.openreview_id: paper.decision for paper in store.papers}
    return ratings, decisions


def _refetch_after_changes(
    server: ApiServer, data_dir: Path, options: FetchOptions, ratings: int, decisions: int
) -> None:
    fetch(Store(data_dir), [ICLR], options)
    before_ratings, before_decisions = _state(Store(data_dir))
    rated = server.change_ratings(ratings)
    decided = server.decide(decisions)
    assert len(rated) == ratings and len(decided) == decisions
    store = Store(data_dir)
    fetch(store, [ICLR], options)
    after_ratings, after_decisions = _state(Store(data_dir))
    assert {f for f in after_ratings if after_ratings[f] != before_ratings.get(f)} == set(rated)
    for forum, (_, old, new) in rated.items():
        assert sorted(after_ratings[forum]) == sorted(
            [*before_ratings[forum]][:0] + _swap(before_ratings[forum], old, new)
        )
    moved = {f for f in after_decisions if after_decisions[f] != before_decisions.get(f)}
    assert moved == set(decided)
    expected = {"Accept (Oral)": "oral", "Accept (Poster)": "poster", "Reject": "reject"}
    assert all(after_decisions[forum] == expected[text] for forum, text in decided.items())
    # `paperdeck changes --json` says exactly those (the first fetch into an empty store is the
    # baseline, and records nothing).
    import contextlib
    import io
    import json

    from paperdeck.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["changes", "--json", "--data-dir", str(data_dir)]) == 0
    papers = json.loads(out.getvalue())["papers"]
    forum = {item["id"]: item["id"].removeprefix("openreview:") for item in papers}
    assert {forum[item["id"]] for item in papers if item["scores"]} == set(rated)
    assert {forum[item["id"]] for item in papers if item["decision"]} == set(decided)
    for item in papers:
        if item["decision"]:
            assert item["decision"]["new"] == expected[decided[forum[item["id"]]]]


def _swap(ratings: tuple[float, ...], old: int, new: int) -> list[float]:
    values = list(ratings)
    values.remove(float(old))
    return sorted([*values, float(new)])


def test_a_second_fetch_brings_exactly_the_changed_ratings_and_decisions(
    server: ApiServer, login: None, data_dir: Path
) -> None:
    fetch(Store(data_dir), [ICLR], options(server))
    _refetch_after_changes(server, data_dir, options(server), ratings=20, decisions=6)


@pytest.mark.slow
@pytest.mark.data
def test_the_full_iclr_2026_in_at_most_25_requests_then_200_ratings_and_30_decisions(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
    with ApiServer(encoded=iclr2026_encoded()) as server:
        full = FetchOptions(openreview_url=server.url, limits=Limits(timeout_s=120), use_keyring=False)
        summary = fetch(Store(data_dir), [ICLR], full)
        assert summary.requests <= 25 and summary.pages == 20 and summary.notes == 19_630
        store = Store(data_dir)
        assert len(store.papers) == 19_630
        assert summary.imported.reviews is not None
        assert summary.imported.reviews.new == len(set(_replies(server)))  # 80,693: one note per id
        _refetch_after_changes(server, data_dir, full, ratings=200, decisions=30)


def _replies(server: ApiServer) -> list[str]:
    import orjson

    assert server.encoded is not None
    return [r["id"] for _, data in server.encoded for r in orjson.loads(data)["details"]["directReplies"]]
