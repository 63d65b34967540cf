"""Two more venues for the local API servers of :mod:`tests.fetch.api_server`, built from the Paper
Copilot cuts in ``tests/data/`` (``papercopilot_colm2025.json``, ``papercopilot_iclr2017.json``: the
first 8 records of ``shared/data``'s files, see ``tests/data/README.md``).

Each record becomes a submission note whose replies give back the record's per-review ``rating``
and ``confidence`` (``5;6;6;6``) as OpenReview shows them, as strings (``"6: Marginally above
acceptance threshold"``, the 1–10 scale both venues used):

- :func:`colm2025_notes`: API v2 (``{"value": …}`` content, ``invitations``), venue
  ``colmweb.org/COLM/2025/Conference``; besides the reviews, replies of other kinds: a meta-review
  with a text ``recommendation``, a decision, an official comment signed by the authors, an ethics
  review (paper 1) and a kind of the venue's own, ``Reviewer_Flag`` (paper 2);
- :func:`iclr2017_notes`: API v1 as the old host (``api.openreview.net``) returns it: one
  ``invitation`` (``ICLR.cc/2017/conference/-/submission``, reviews ``…/-/paper<N>/official/review``,
  decisions ``…/-/paper<N>/acceptance``), plain content values.

The replies' texts are made up; the titles, abstracts, authors and ratings are the records'.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers import fixture

COLM = "colmweb.org/COLM/2025/Conference"
ICLR2017 = "ICLR.cc/2017/conference"
#: The 1–10 scale's labels (ICLR 2017–2019; COLM 2025 rates 1–10 too).
LABELS = {
    1: "Trivial or wrong", 2: "Strong rejection", 3: "Clear rejection", 4: "Ok but not good enough - rejection",
    5: "Marginally below acceptance threshold", 6: "Marginally above acceptance threshold", 7: "Good paper, accept",
    8: "Top 50% of accepted papers, clear accept", 9: "Top 15% of accepted papers, strong accept",
    10: "Top 5% of accepted papers, seminal paper",
}  # fmt: skip
_DECISIONS = {"Poster": "Accept (Poster)", "Oral": "Accept (Oral)", "Spotlight": "Accept (Spotlight)",
              "Workshop": "Invite to Workshop Track", "Reject": "Reject"}  # fmt: skip


def records(name: str) -> list[dict[str, Any]]:
    """The records of the Paper Copilot cut ``papercopilot_<name>.json``."""
    loaded: list[dict[str, Any]] = json.loads(fixture(f"papercopilot_{name}.json").read_text("utf-8"))
    return loaded


def ratings_of(record: dict[str, Any]) -> list[int]:
    """The record's per-review ratings (``"5;6;6;6"`` → ``[5, 6, 6, 6]``)."""
    return [int(value) for value in record["rating"].split(";") if value.strip()]


def _confidences(record: dict[str, Any]) -> list[int]:
    values = [int(value) for value in str(record.get("confidence") or "").split(";") if value.strip()]
    return values + [3] * (len(ratings_of(record)) - len(values))


def _colm_reply(forum: str, number: int, suffix: str, kind: str, signature: str, when: int,
                **content: Any) -> dict[str, Any]:  # fmt: skip
    """One API v2 reply on COLM 2025's paper ``number`` (``forum``), its content wrapped."""
    paper = f"{COLM}/Submission{number}"
    return {
        "id": f"{forum[:6]}{suffix}", "forum": forum, "replyto": forum, "number": when,
        "invitations": [f"{paper}/-/{kind}", f"{COLM}/-/Edit"], "signatures": [f"{paper}/{signature}"],
        "readers": ["everyone"], "domain": COLM, "cdate": 1_750_000_000_000 + when,
        "tmdate": 1_750_000_000_000 + when, "version": 2,
        "content": {key: {"value": value} for key, value in content.items()},
    }  # fmt: skip


def _colm_replies(record: dict[str, Any], number: int) -> list[dict[str, Any]]:
    forum = record["id"]
    replies = []
    for index, (rating, confidence) in enumerate(zip(ratings_of(record), _confidences(record), strict=True), 1):
        replies.append(_colm_reply(
            forum, number, f"Rv{index:02d}", "Official_Review", f"Reviewer_r{index}", index,
            rating=f"{rating}: {LABELS[rating]}", confidence=f"{confidence}: The reviewer is confident",
            summary="What the paper does.", strengths="Clear.", weaknesses="Few baselines.",
        ))  # fmt: skip
    decision = _DECISIONS.get(record["status"], "Reject")
    replies.append(_colm_reply(forum, number, "Meta01", "Meta_Review", "Area_Chair_a1", 20,
                               metareview="The reviewers agree.", recommendation=decision))  # fmt: skip
    replies.append(_colm_reply(forum, number, "Dec001", "Decision", "Program_Chairs", 30, decision=decision))
    replies.append(_colm_reply(forum, number, "Auth01", "Official_Comment", "Authors", 25, comment="We thank you."))
    if number == 1:
        replies.append(_colm_reply(forum, number, "Eth001", "Ethics_Review", "Ethics_Reviewer_e1", 26,
                                   ethics_concerns="None found."))  # fmt: skip
    if number == 2:
        replies.append(_colm_reply(forum, number, "Flag01", "Reviewer_Flag", "Reviewer_r1", 27, flag="Look again."))
    return replies


def colm2025_notes(with_replies: bool = True) -> list[dict[str, Any]]:
    """COLM 2025's records as API v2 submission notes with their replies (see the module docstring);
    ``with_replies=False``: none at all (a venue with no public reviews)."""
    notes = []
    for number, record in enumerate(records("colm2025"), start=1):
        forum = record["id"]
        authors = [name.strip() for name in record.get("author", "").split(";") if name.strip()]
        content = {"title": record["title"], "abstract": record["abstract"], "authors": authors,
                   "keywords": [k for k in record.get("keywords", "").split(";") if k], "venue": "COLM 2025",
                   "venueid": COLM}  # fmt: skip
        notes.append({
            "id": forum, "forum": forum, "number": number, "invitations": [f"{COLM}/-/Submission"], "domain": COLM,
            "cdate": 1_740_000_000_000, "tmdate": 1_740_000_000_000, "version": 2,
            "content": {key: {"value": value} for key, value in content.items()},
            "details": {"directReplies": _colm_replies(record, number) if with_replies else []},
        })  # fmt: skip
    return notes


def iclr2017_notes() -> list[dict[str, Any]]:
    """ICLR 2017's records as API v1 submission notes with their reviews and decision."""
    notes = []
    for number, record in enumerate(records("iclr2017"), start=1):
        forum = record["id"]
        replies = [
            {"id": f"{forum[:6]}R{index}", "forum": forum, "replyto": forum,
             "invitation": f"{ICLR2017}/-/paper{number}/official/review",
             "signatures": [f"{ICLR2017}/paper{number}/AnonReviewer{index}"], "cdate": 2 + index, "tmdate": 2 + index,
             "content": {"title": "A review", "rating": f"{rating}: {LABELS[rating]}",
                         "confidence": f"{confidence}: The reviewer is fairly confident", "review": "Sound work."}}
            for index, (rating, confidence) in enumerate(zip(ratings_of(record), _confidences(record), strict=True), 1)
        ]  # fmt: skip
        replies.append({
            "id": f"{forum[:6]}D0", "forum": forum, "replyto": forum,
            "invitation": f"{ICLR2017}/-/paper{number}/acceptance", "signatures": ["ICLR.cc/2017/pcs"],
            "cdate": 50, "tmdate": 50,
            "content": {"title": "ICLR committee final decision", "decision": _DECISIONS[record["status"]],
                        "comment": "The committee's decision."},
        })  # fmt: skip
        notes.append({
            "id": forum, "forum": forum, "number": number, "invitation": f"{ICLR2017}/-/submission",
            "cdate": 1_478_000_000_000, "tmdate": 1_478_000_000_000,
            "content": {"title": record["title"], "abstract": record["abstract"],
                        "authors": [a.strip() for a in record.get("author", "").split(";") if a.strip()],
                        "TL;DR": record.get("tldr", ""), "keywords": ["Deep learning"]},
            "details": {"directReplies": replies},
        })  # fmt: skip
    return notes


def v1_group(venue_id: str) -> dict[str, Any]:
    """A venue group as the old API returns one: no ``content`` naming its submissions."""
    return {"id": venue_id, "members": [], "web": "// a web page"}
