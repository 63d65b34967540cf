"""A paper's rank ("top 18 % of N rated in ICLR 2026") is within its own venue: the reviews of another
venue, rated on another scale, are never in its count."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.review import Review
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import REPLIES_SAMPLE_NAME, fixture


def test_the_rank_counts_only_the_papers_of_the_same_venue(tmp_path: Path) -> None:
    notes = json.loads(fixture(REPLIES_SAMPLE_NAME).read_text(encoding="utf-8"))
    iclr_forums = {note["forum"] for note in notes if note.get("domain") == "ICLR.cc/2026/Conference"}
    colm = []
    for note in notes:
        other = dict(note, id=note["id"] + "C", forum=note["forum"] + "C", domain="colmweb.org/COLM/2025/Conference")
        if other.get("replyto"):
            other["replyto"] = note["replyto"] + "C"
        rating = (note.get("content") or {}).get("rating")
        if isinstance(rating, dict) and rating.get("value") == 0:  # COLM rates 1–10: a 0 refuses the file
            other["content"] = dict(note["content"], rating={"value": 1})
        colm.append(other)
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(notes + colm), encoding="utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [path])
    summaries = store.reviews.summaries()
    rated = [forum for forum in iclr_forums if summaries[forum].mean is not None]
    assert rated and {summaries[forum].venue for forum in rated} == {"ICLR.cc/2026/Conference"}
    for forum in rated:
        iclr, other = store.reviews.rank(forum), store.reviews.rank(forum + "C")
        assert iclr is not None and other is not None
        assert iclr.of == other.of == len(rated)  # not 2 × len(rated): the venues are apart
        assert iclr.top == other.top
        assert iclr.label().endswith(f" % of {len(rated):,} rated in ICLR 2026"), iclr.label()
        assert other.label().endswith(f" % of {len(rated):,} rated in COLM 2025"), other.label()


def test_a_summary_names_its_notes_venue_and_keeps_it() -> None:
    notes = [Review("r1", "f", "f", "review", scores=(("rating", 6.0),), venue_id="ICLR.cc/2017/conference")]
    summary = ReviewSummary.of(notes)
    assert summary.venue == "ICLR.cc/2017/conference"
    assert ReviewSummary.from_dict(summary.to_dict()) == summary
    assert ReviewSummary.of([Review("r1", "f", "f", "review", scores=(("rating", 6.0),))]).venue == ""


def test_two_files_recording_different_scales_settle_on_one_in_any_order() -> None:
    from paperdeck.model.paper import Ratings
    from paperdeck.store.merge import enriched

    known, inferred = Ratings(8.0, 1.4, 6.0, 10.0, 4, "0, 2, 4, 6, 8, 10"), Ratings(8.0, scale="1-10")
    assert enriched(known, inferred).scale == enriched(inferred, known).scale == "0, 2, 4, 6, 8, 10"
    assert enriched(Ratings(8.0), inferred).scale == enriched(inferred, Ratings(8.0)).scale == "1-10"


def test_a_rank_names_its_venue_as_safe_text_and_says_nothing_of_all() -> None:
    from paperdeck.model.review_summary import Rank
    from paperdeck.model.venue import group_name

    assert Rank(0.18, 19_499, "ICLR.cc/2026/Conference").label() == "top 18 % of 19,499 rated in ICLR 2026"
    assert Rank(0.001, 5, "colmweb.org/COLM/2025/Conference").label() == "top 1 % of 5 rated in COLM 2025"
    assert Rank(0.5, 4).label() == "top 50 % of 4 rated"  # no venue named: none claimed
    group = "Evil\x1b[31m\u202e/Conference"  # no year: the group shown whole, made safe
    shown = Rank(0.5, 4, group).label()
    assert shown == "top 50 % of 4 rated in " + group_name(group)
    assert "\x1b" not in shown and "\u202e" not in shown and "Evil" in shown
