"""A paper whose file names no venue is not ranked "in" the venue its reviews' group names: the list
says ``no venue`` and the detail ``venue unknown``, so neither the detail pane nor the reviews screen
(``R``) says ``the only paper rated in ICLR 2026`` (the fifteenth round's tester). A rank among the
papers of no venue would mix lists and scales that share nothing: such a paper is not ranked.

The notes are cut from the tester's ``/tmp/tester15/hostile/subs.jsonl`` and ``revs.jsonl`` (an
OpenReview submission without a venue, two ICLR 2026 official reviews), the hostile text left out."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail

from tests.ui.helpers import SIZE, open_reviews, settle, static_text

GROUP = "ICLR.cc/2026/Conference"
SUBMISSION = {
    "id": "HostRev001", "number": 99991, "cdate": 1756727991855, "mdate": 1759898279329,
    "content": {"title": "A paper whose file names no venue",
                "abstract": "An abstract long enough to be imported as a paper about reviews without a venue."},
}  # fmt: skip


def _review(number: int, rating: int) -> dict[str, object]:
    return {
        "id": f"HRv000000{number}", "forum": "HostRev001", "replyto": "HostRev001", "number": number,
        "signatures": [f"{GROUP}/Submission99991/Reviewer_{'AB'[number - 1] * 4}"], "readers": ["everyone"],
        "invitations": [f"{GROUP}/Submission99991/-/Official_Review"], "domain": GROUP,
        "cdate": 1761785407369, "mdate": 1762915434229,
        "content": {"summary": {"value": "A summary."}, "rating": {"value": rating}, "confidence": {"value": 4}},
    }  # fmt: skip


def _store(tmp_path: Path, venue: str = "") -> Store:
    submission = dict(SUBMISSION, content=dict(SUBMISSION["content"], **({"venue": venue} if venue else {})))  # type: ignore[arg-type]
    papers, reviews = tmp_path / "subs.jsonl", tmp_path / "revs.jsonl"
    papers.write_text(json.dumps(submission) + "\n", "utf-8")
    reviews.write_text("".join(json.dumps(_review(n, r)) + "\n" for n, r in ((1, 6), (2, 2))), "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [papers, reviews])
    return store


async def test_a_paper_with_no_venue_is_not_ranked_in_its_reviews_venue(tmp_path: Path) -> None:
    store = _store(tmp_path)
    (paper,) = store.papers
    assert not paper.venue and store.reviews.paper_rank(paper) is None
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = static_text(app.screen.query_one(PaperDetail))
        assert "rating 4.0" in detail and "rated in" not in detail and "only paper rated" not in detail, detail
        _screen, text, _heads = await open_reviews(pilot)
        assert "2 reviews" in text or "rating" in text, text
        assert "rated in" not in text and "only paper rated" not in text, text


def test_a_paper_with_its_venue_is_ranked_in_it(tmp_path: Path) -> None:
    store = _store(tmp_path, venue="ICLR 2026 Poster")
    (paper,) = store.papers
    rank = store.reviews.paper_rank(paper)
    assert paper.venue == "ICLR" and rank is not None and rank.label() == "the only paper rated in ICLR 2026"
