"""Normalise the many ways sources write a paper's decision (FORMATS.md, "Status normalisation")."""

from __future__ import annotations

import re

_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), decision)
    for pattern, decision in (
        (r"desk[\s_-]*reject", "desk-rejected"),
        (r"withdraw", "withdrawn"),
        (r"conditional", "accept-conditional"),
        (r"workshop", "workshop"),
        (r"\boral\b", "oral"),
        (r"spotlight", "spotlight"),
        (r"notable[\s-]*top[\s-]*5", "oral"),
        (r"notable[\s-]*top[\s-]*25", "spotlight"),
        (r"\bposter\b", "poster"),
        (r"reject", "reject"),
        (r"conference submission|/submission$|^active$|under review", "under-review"),
        (r"^accept|\baccepted\b|/conference$", "accept"),
    )
)


def normalise_decision(raw: str, *, decisions_out: bool | None = None) -> str:
    """Map a raw status to one of ``paperdeck.model.paper.DECISIONS``.

    Args:
        raw: the source's status or venue string, e.g. ``"ICLR 2026 ConditionalPoster"``,
            ``"ICLR.cc/2026/Conference/Withdrawn_Submission"``, ``"Reject"``.
        decisions_out: for ``"Submitted to ICLR 2025"``-style strings, which mean "under review"
            before the decisions and "rejected" after them; ``None`` when unknown.

    Returns:
        The normalised decision; ``"unknown"`` when nothing matches.
    """
    text = raw.strip()
    if not text:
        return "unknown"
    if re.match(r"submitted to", text, re.IGNORECASE):
        if decisions_out is None:
            return "unknown"
        return "reject" if decisions_out else "under-review"
    for pattern, decision in _RULES:
        if pattern.search(text):
            return decision
    return "unknown"
