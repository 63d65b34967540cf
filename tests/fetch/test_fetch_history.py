"""A fetch that finds a review changed on the server adds a version to its history; a fetch that
finds nothing changed adds none (:mod:`paperdeck.store.review_history`, through the local API server)."""

from __future__ import annotations

from pathlib import Path

from paperdeck.fetch.run import fetch
from paperdeck.model.review import ReviewVersion
from paperdeck.store.store import Store

from tests.fetch.api_server import ApiServer
from tests.fetch.helpers import ICLR, options


def test_a_fetch_that_finds_a_review_changed_adds_a_version(server: ApiServer, login: None, data_dir: Path) -> None:
    fetch(Store(data_dir), [ICLR], options(server))
    before = {f: {r.id: r for r in notes} for f, notes in Store(data_dir).reviews.reviews_of(server.ids())}
    changed = server.change_ratings(3)
    fetch(Store(data_dir), [ICLR], options(server))
    store = Store(data_dir)
    for forum, (review_id, old, new) in changed.items():
        review = next(r for r in store.reviews.reviews(forum) if r.id == review_id)
        first = before[forum][review_id]
        assert review.score_path() == (float(old), float(new))
        assert review.earlier == (ReviewVersion(first.tmdate, first.scores),)
        summary = store.reviews.summary(forum)
        assert summary is not None and summary.moved == 1
    kept = {f: {r.id: r.history() for r in notes} for f, notes in store.reviews.reviews_of(server.ids())}
    fetch(Store(data_dir), [ICLR], options(server))  # nothing changed on the server: nothing added
    again = {f: {r.id: r.history() for r in notes} for f, notes in Store(data_dir).reviews.reviews_of(server.ids())}
    assert again == kept
