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
from functools import cache

#: The accepted tiers: what ``decision:accept`` (and ``accepted``, the badge word ``acc``) selects.
ACCEPTED = frozenset({"oral", "spotlight", "poster", "accept", "accept-conditional"})
#: What ``decision:reject`` (and ``rejected``, ``rej``) selects: rejected, desk-rejected too.
REJECTED = frozenset({"reject", "desk-rejected"})

#: The list's decision badges (4 cells each); a decision not listed shows none.
BADGES = {
    "oral": "ORAL",
    "spotlight": "SPOT",
    "poster": "POST",
    "accept": "ACC ",
    "accept-conditional": "COND",
    "workshop": "WKSP",
    "reject": "REJ ",
    "withdrawn": "WDRN",
    "desk-rejected": "DESK",
}

#: The names a query may give decisions, folded (lower case, no ``-``, ``_`` or spaces) → the
#: decisions each selects: every decision, the groups, other words readers use, every badge word.
DECISION_NAMES: dict[str, frozenset[str]] = {
    **{name.replace("-", ""): frozenset({name}) for name in (
        "oral", "spotlight", "poster", "accept-conditional", "workshop", "under-review",
        "withdrawn", "desk-rejected", "unknown")},
    "accept": ACCEPTED, "accepted": ACCEPTED,
    "reject": REJECTED, "rejected": REJECTED,
    "conditional": frozenset({"accept-conditional"}), "deskreject": frozenset({"desk-rejected"}),
    "withdraw": frozenset({"withdrawn"}), "pending": frozenset({"under-review"}),
    **{badge.strip().casefold(): ACCEPTED if decision == "accept" else REJECTED if decision == "reject"
       else frozenset({decision}) for decision, badge in BADGES.items()},
}  # fmt: skip


def decisions_named(value: str) -> frozenset[str]:
    """The decisions a query's ``decision:VALUE`` selects: the name ``value`` is (in
    :data:`DECISION_NAMES`; case, ``-``, ``_`` and spaces ignored), else the union of every name it
    starts (``acc``: every accepted tier; ``w``: workshop and withdrawn); empty when it names none."""
    key = re.sub(r"[\s_-]", "", value.casefold())
    exact = DECISION_NAMES.get(key)
    if exact is not None:
        return exact
    if not key:
        return frozenset()
    return frozenset().union(*(found for name, found in DECISION_NAMES.items() if name.startswith(key)))


@cache
def _rules() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The patterns :func:`normalise_decision` tries in turn, compiled at its first call (an
    import; the app's first frame shows no decision read from a source)."""
    return tuple(
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


#: The words a decision written alone is made of (``Accept (Oral)``, ``Desk Reject``, ``Under
#: review``): text of these words only names a decision, never a venue.
_DECISION_WORDS = frozenset(DECISION_NAMES) | {
    "desk", "under", "review", "notable", "top", "submission", "submitted", "final", "decision",
    "paper", "track", "main", "conference", "camera", "ready", "active", "pending",
}  # fmt: skip


@cache
def _word() -> re.Pattern[str]:
    """A word of letters (:func:`bare_decision`), compiled at its first call."""
    return re.compile(r"[^\W\d_]+")


def bare_decision(text: str) -> bool:
    """True for text that names a decision and nothing else (``Accept``, ``Poster``, ``Accept
    (Oral)``, ``Desk Reject``): no year and no word but a decision's. Such text never names a
    venue, whatever column or status it is read from (``ICLR 2026 Poster`` names one)."""
    if any(char.isdigit() for char in text) or normalise_decision(text) == "unknown":
        return False
    return all(word.casefold() in _DECISION_WORDS for word in _word().findall(text))


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
    for pattern, decision in _rules():
        if pattern.search(text):
            return decision
    return "unknown"


def decision_shown(decision: str, raw: str = "") -> str:
    """A paper's decision as the app shows it, for every export that states one (Zotero's Extra
    lines in RIS ``M1`` and CSL-JSON ``note``): the decision, then the source's words for it when
    they differ (``"oral (ICLR 2026 Oral)"``); ``""`` when the decision is unknown, whatever the
    source wrote (a CSV's venue column ``ICLR`` read as its status names no decision: the app says
    ``unknown``, so no export invents one)."""
    if not decision or decision == "unknown":
        return ""
    if not raw or raw.casefold() == decision.casefold():
        return decision
    return f"{decision} ({raw})"
