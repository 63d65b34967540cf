"""What ``paperdeck fetch SOURCE`` names, and what an OpenReview venue's group says about it.

Sources:

- ``iclr2026``-style short names: a conference of :data:`CONFERENCES` and a year, which give the
  OpenReview venue id (``ICLR.cc/2026/Conference``; :data:`VENUE_IDS` for those that break the
  pattern, ICLR 2017's ``ICLR.cc/2017/conference``); a journal of :data:`JOURNALS` is rolling, one
  venue for every year (``tmlr`` and ``tmlr2025`` are both ``TMLR``);
- any OpenReview venue id (``NeurIPS.cc/2025/Conference``, ``ICML.cc/2025/Conference``);
- ``papercopilot:colm2025``: the file ``colm/colm2025.json`` of Paper Copilot's paperlists (the
  venue's folder, then the venue and year);
- ``arxiv:QUERY``: an arXiv API query (``arxiv:ti:diffusion AND cat:cs.LG``), its first
  :data:`ARXIV_RESULTS` results, newest first;
- ``iclr2026:schedule``: the conference's programme from its Miniconf site (:data:`SITES`, or the
  site a setting names), ``/static/virtual/data/iclr-2026-orals-posters.json``: sessions, rooms
  and times joined to the papers already in the store.

An OpenReview venue is read as OpenReview's own how-to does: its group first (``GET
/groups?id=<venue id>``; the new API returns old venues' groups too, without a ``domain``: those
venues' notes are on the old host), whose ``content`` (API v2: each field ``{"value": …}``; API v1: plain
values) names the submissions' invitation (``submission_id``, else ``<venue id>/-/<submission_name>``),
the venue ids of its submissions, withdrawn and desk-rejected papers, its reply names
(``review_name``, ``meta_review_name``, ``decision_name``) and the review's rating field
(``review_rating``): :func:`venue_group` reads them into a :class:`VenueGroup`. A group without
a usable submission name falls back to the pattern (:func:`pattern_invitations`: ``<venue
id>/-/Submission`` on API v2; ``Blind_Submission``, then ``Submission`` on API v1, where ICLR ≤ 2023
lives), and the fetch says so. Every name read from a group is hostile data: a name that is not a
plain token (:data:`_NAME`), or an invitation outside the venue, counts as missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from paperdeck.model.errors import PaperdeckError

__all__ = [
    "ARXIV_RESULTS",
    "CONFERENCES",
    "JOURNALS",
    "SITES",
    "VENUE_IDS",
    "FetchSource",
    "UnknownSource",
    "VenueGroup",
    "parse_source",
    "pattern_invitations",
    "short_name",
    "venue_group",
]

#: Short conference names → the OpenReview group they use (``<group>/<year>/Conference``).
CONFERENCES: dict[str, str] = {
    "iclr": "ICLR.cc",
    "neurips": "NeurIPS.cc",
    "nips": "NeurIPS.cc",
    "icml": "ICML.cc",
    "colm": "colmweb.org/COLM",
    "corl": "robot-learning.org/CoRL",
    "aistats": "aistats.org/AISTATS",
    "uai": "auai.org/UAI",
}
#: Conferences whose programme is on a Miniconf site → the site (``paperdeck fetch iclr2026:schedule``).
SITES: dict[str, str] = {
    "iclr": "https://iclr.cc",
    "neurips": "https://neurips.cc",
    "nips": "https://neurips.cc",
    "icml": "https://icml.cc",
    "colm": "https://colmweb.org",
}
_SCHEDULE = re.compile(r"^([a-z]+)[-_ ]?((?:19|20)\d{2}):schedule$", re.IGNORECASE)
#: Short names whose venue id breaks the pattern (ICLR 2017's group is lower case on the old API).
VENUE_IDS: dict[str, str] = {"iclr2017": "ICLR.cc/2017/conference"}
#: Short journal names → their OpenReview venue id: a rolling journal is one venue for every year.
JOURNALS: dict[str, str] = {"tmlr": "TMLR"}
_SHORT = re.compile(r"^([a-z]+)[-_ ]?((?:19|20)\d{2})$", re.IGNORECASE)
_JOURNAL = re.compile(r"^([a-z]+)(?:[-_ ]?((?:19|20)\d{2}))?$", re.IGNORECASE)
#: A name a group may give (``Submission``, ``Official_Review``): a plain token.
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,79}$")
_VENUE_ID = re.compile(r"^[A-Za-z0-9][\w.\-]*(?:/[\w.\-]+)+$")
#: Most results one ``arxiv:`` source asks for (one request).
ARXIV_RESULTS = 200
_COPILOT = re.compile(r"^papercopilot:([a-z]+)[-_]?((?:19|20)\d{2})$", re.IGNORECASE)


class UnknownSource(PaperdeckError):
    """A ``fetch`` source that names no venue paperdeck knows how to fetch."""


@dataclass(frozen=True, slots=True)
class FetchSource:
    """One thing to fetch.

    Attributes:
        kind: ``"openreview"``, ``"papercopilot"``, ``"arxiv"`` or ``"schedule"`` (the import format
            of its pages).
        name: what the user typed, normalised (``iclr2026``, ``papercopilot:iclr2026``, a venue id).
        venue_id: the OpenReview venue id (``ICLR.cc/2026/Conference``); ``""`` for Paper Copilot.
        path: the Paper Copilot file path under its root (``iclr/iclr2026.json``), the arXiv
            query, or the programme's path on its site; ``""`` otherwise.
        site: a programme's site (``https://iclr.cc``); ``""`` otherwise.
    """

    kind: str
    name: str
    venue_id: str = ""
    path: str = ""
    site: str = ""

    @property
    def invitation(self) -> str:
        """The submissions' invitation by the API v2 pattern, ``<venue id>/-/Submission`` (what a
        venue whose group names none is asked for)."""
        return f"{self.venue_id}/-/Submission"

    @property
    def file_name(self) -> str:
        """The name the fetched pages are imported under (a paper's ``sources`` entry):
        ``openreview-ICLR.cc-2026-Conference.json``, ``papercopilot-iclr2026.json``."""
        if self.kind == "papercopilot":
            return f"papercopilot-{self.path.rsplit('/', 1)[-1]}"
        if self.kind == "schedule":  # the venue and year in the name, as the reader takes them
            return f"schedule-{self.path.rsplit('/', 1)[-1]}"
        if self.kind == "arxiv":
            return f"arxiv-{re.sub(r'[^A-Za-z0-9]+', '-', self.path).strip('-')[:60] or 'query'}.xml"
        return f"openreview-{self.venue_id.replace('/', '-')}.json"


def parse_source(text: str) -> FetchSource:
    """The source ``text`` names.

    Raises:
        UnknownSource: a short name whose conference is not in :data:`CONFERENCES`, or text that
            is neither a short name, a venue id nor ``papercopilot:CONFYEAR``.
    """
    text = text.strip()
    if text.lower().startswith("arxiv:"):
        query = " ".join(text[6:].split())
        if not query or len(query) > 500:
            raise UnknownSource("arxiv: needs a query of at most 500 characters (arxiv:ti:diffusion)")
        return FetchSource("arxiv", f"arxiv:{query}", path=query)
    schedule = _SCHEDULE.match(text)
    if schedule:
        conf, year = schedule.group(1).lower(), schedule.group(2)
        site = SITES.get(conf)
        if site is None:
            known = ", ".join(sorted(SITES))
            raise UnknownSource(f"{text!r}: no programme site known for {conf} (one of: {known})")
        name = "neurips" if conf == "nips" else conf
        path = f"/static/virtual/data/{name}-{year}-orals-posters.json"
        return FetchSource("schedule", f"{conf}{year}:schedule", path=path, site=site)
    journal = _JOURNAL.match(text)
    if journal and journal.group(1).lower() in JOURNALS:
        conf = journal.group(1).lower()
        return FetchSource("openreview", conf, venue_id=JOURNALS[conf])
    copilot = _COPILOT.match(text)
    if copilot:
        conf, year = copilot.group(1).lower(), copilot.group(2)
        return FetchSource("papercopilot", f"papercopilot:{conf}{year}", path=f"{conf}/{conf}{year}.json")
    short = _SHORT.match(text)
    if short:
        conf, year = short.group(1).lower(), short.group(2)
        group = CONFERENCES.get(conf)
        if group is None:
            known = ", ".join(sorted({*CONFERENCES, *JOURNALS}))
            raise UnknownSource(
                f"{text!r}: no such conference in the venue table ({known}); "
                "give an OpenReview venue id such as ICLR.cc/2026/Conference"
            )
        venue_id = VENUE_IDS.get(f"{conf}{year}", f"{group}/{year}/Conference")
        return FetchSource("openreview", f"{conf}{year}", venue_id=venue_id)
    if _VENUE_ID.match(text) and len(text) <= 200:
        return FetchSource("openreview", text, venue_id=text.removesuffix("/-/Submission"))
    raise UnknownSource(
        f"{text[:80]!r} is not a venue: give a short name (iclr2026), an OpenReview "
        "venue id (ICLR.cc/2026/Conference), papercopilot:iclr2026, arxiv:QUERY or iclr2026:schedule"
    )


def short_name(venue: str, year: int | None) -> str | None:
    """``"iclr2026"`` for a store's venue ``ICLR`` and year 2026 when the table knows the
    conference, ``"tmlr"`` for a journal of :data:`JOURNALS` (any year), else ``None``."""
    key = venue.strip().lower()
    if key in JOURNALS:
        return key
    if year is None or key not in CONFERENCES:
        return None
    return f"{key}{year}"


def pattern_invitations(venue_id: str, api: int) -> tuple[str, ...]:
    """The submissions' invitations to try, in order, for a venue whose group names none: API v2
    ``(<venue id>/-/Submission,)``; API v1 (``api == 1``) the anonymous ``Blind_Submission`` first
    (ICLR 2018–2023: its notes carry the reviews), then ``Submission`` and ICLR 2017's lower-case
    ``submission``."""
    if api == 1:
        return tuple(f"{venue_id}/-/{name}" for name in ("Blind_Submission", "Submission", "submission"))
    return (f"{venue_id}/-/Submission",)


@dataclass(frozen=True, slots=True)
class VenueGroup:
    """What an OpenReview venue group says (see the module docstring); each name ``""`` when the
    group gives none (or none usable).

    Attributes:
        venue_id: the group's id (``ICLR.cc/2026/Conference``).
        api: ``2`` (api2.openreview.net, ``{"value": …}`` content) or ``1`` (the old host).
        submission_invitation: the submissions' invitation the group names
            (``ICLR.cc/2026/Conference/-/Submission``), ``""`` when it names none.
        submission_venue_id, withdrawn_venue_id, desk_rejected_venue_id: the ``venueid`` of papers
            under review, withdrawn and desk-rejected (``ICLR.cc/2026/Conference/Withdrawn_Submission``).
        review_name, meta_review_name, decision_name: the reply invitations' last parts
            (``Official_Review``, ``Meta_Review``, ``Decision``).
        rating_name: the review field holding the rating (``rating``, ``overall_recommendation``).
        domain: the group's ``domain`` (its venue id): set on API v2 venues only; a group the new
            API returns without one is an API v1 venue's, whose notes the old host holds.
    """

    venue_id: str
    api: int = 2
    submission_invitation: str = ""
    submission_venue_id: str = ""
    withdrawn_venue_id: str = ""
    desk_rejected_venue_id: str = ""
    review_name: str = ""
    meta_review_name: str = ""
    decision_name: str = ""
    rating_name: str = ""
    domain: str = ""

    @property
    def invitations(self) -> tuple[str, ...]:
        """The submissions' invitations to ask for, in order: the one the group names, else the
        pattern's (:func:`pattern_invitations`)."""
        if self.submission_invitation:
            return (self.submission_invitation,)
        return pattern_invitations(self.venue_id, self.api)

    @property
    def named(self) -> bool:
        """True when the group names the submissions' invitation (no pattern is guessed)."""
        return bool(self.submission_invitation)


def venue_group(document: Any, venue_id: str, api: int = 2) -> VenueGroup | None:
    """The group ``venue_id`` in a ``GET /groups?id=…`` answer (``{"groups": [{"id", "content"}]}``),
    ``None`` when the answer holds no group of that id (the host does not hold the venue).

    Content values are read wrapped (``{"value": "Submission"}``, API v2) or plain (API v1);
    a value that is not a plain token (or, for ids, not inside the venue) is left out.

    Raises:
        ValueError: the answer is not ``{"groups": [...]}`` (one line, for the caller to name the URL).
    """
    groups = document.get("groups") if isinstance(document, dict) else None
    if not isinstance(groups, list):
        raise ValueError('the answer is not a list of groups ({"groups": [...]})')
    group = next((g for g in groups if isinstance(g, dict) and g.get("id") == venue_id), None)
    if group is None:
        return None
    content = group.get("content")
    content = content if isinstance(content, dict) else {}

    def value(key: str) -> str:
        raw = content.get(key)
        raw = raw.get("value") if type(raw) is dict else raw
        return raw.strip() if isinstance(raw, str) and len(raw) <= 300 else ""

    def name(key: str) -> str:
        text = value(key)
        return text if _NAME.match(text) else ""

    def inside(key: str) -> str:
        text = value(key)
        return text if text.startswith(venue_id + "/") and _VENUE_ID.match(text) else ""

    invitation = value("submission_id")
    if not (invitation.startswith(f"{venue_id}/-/") and _NAME.match(invitation.removeprefix(f"{venue_id}/-/"))):
        submission = name("submission_name")
        invitation = f"{venue_id}/-/{submission}" if submission else ""
    return VenueGroup(
        venue_id=venue_id,
        api=api,
        submission_invitation=invitation,
        submission_venue_id=inside("submission_venue_id"),
        withdrawn_venue_id=inside("withdrawn_venue_id"),
        desk_rejected_venue_id=inside("desk_rejected_venue_id"),
        review_name=name("review_name"),
        meta_review_name=name("meta_review_name"),
        decision_name=name("decision_name"),
        rating_name=name("review_rating"),
        domain=domain if isinstance(domain := group.get("domain"), str) and len(domain) <= 300 else "",
    )
