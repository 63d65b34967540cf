"""A paper's decision: the many status and venue strings sources write, mapped to one vocabulary.

Sources seen write, e.g., ``Oral`` / ``ICLR 2026 Oral`` (oral), ``ICLR 2025 Spotlight`` (spotlight),
``ICLR 2026 Poster`` (poster), ``ICLR 2026 ConditionalPoster`` (accept-conditional), ``Reject`` or a
venue id ending ``/Rejected_Submission`` (reject), ``ICLR 2026 Conference Submission`` or a venue id
ending ``/Submission`` before decisions and Paper Copilot's ``Active`` (under-review),
``Withdraw`` / ``… Withdrawn Submission`` (withdrawn), ``… Desk Rejected Submission`` or
``Desk Reject`` (desk-rejected), ``Workshop`` / ``ICLRWorkshop`` (workshop); an accepted paper's
venue id is ``ICLR.cc/<year>/Conference`` with no suffix (accept). ``Submitted to ICLR 2025``
means under review before the decisions and rejected after them.
"""

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
    """Map a raw status to one of :data:`paperdeck.model.paper.DECISIONS`.

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
