"""What ``paperdeck fetch SOURCE`` names: a short venue name, an OpenReview venue id, or a Paper
Copilot list.

- ``iclr2026``-style short names: a conference of :data:`CONFERENCES` and a year, which give the
  OpenReview venue id (``ICLR.cc/2026/Conference``);
- any OpenReview venue id (``NeurIPS.cc/2025/Conference``, ``ICML.cc/2025/Conference``), fetched
  as ``<venue id>/-/Submission``;
- ``papercopilot:iclr2026``: the file ``iclr/iclr2026.json`` of Paper Copilot's paperlists;
- ``arxiv:QUERY``: an arXiv API query (``arxiv:ti:diffusion AND cat:cs.LG``), its first
  :data:`ARXIV_RESULTS` results, newest first;
- ``iclr2026:schedule``: the conference's programme from its Miniconf site (:data:`SITES`, or the
  site a setting names), ``/static/virtual/data/iclr-2026-orals-posters.json``: sessions, rooms
  and times joined to the papers already in the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdeck.model.errors import PaperdeckError

__all__ = ["ARXIV_RESULTS", "CONFERENCES", "SITES", "FetchSource", "UnknownSource", "parse_source", "short_name"]

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
    "tmlr": "TMLR",
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
_SHORT = re.compile(r"^([a-z]+)[-_ ]?((?:19|20)\d{2})$", re.IGNORECASE)
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
        """The submissions' invitation, ``<venue id>/-/Submission``."""
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
            raise UnknownSource("paperdeck fetch: arxiv: needs a query of at most 500 characters (arxiv:ti:diffusion)")
        return FetchSource("arxiv", f"arxiv:{query}", path=query)
    schedule = _SCHEDULE.match(text)
    if schedule:
        conf, year = schedule.group(1).lower(), schedule.group(2)
        site = SITES.get(conf)
        if site is None:
            known = ", ".join(sorted(SITES))
            raise UnknownSource(f"paperdeck fetch: {text!r}: no programme site known for {conf} (one of: {known})")
        name = "neurips" if conf == "nips" else conf
        path = f"/static/virtual/data/{name}-{year}-orals-posters.json"
        return FetchSource("schedule", f"{conf}{year}:schedule", path=path, site=site)
    copilot = _COPILOT.match(text)
    if copilot:
        conf, year = copilot.group(1).lower(), copilot.group(2)
        return FetchSource("papercopilot", f"papercopilot:{conf}{year}", path=f"{conf}/{conf}{year}.json")
    short = _SHORT.match(text)
    if short:
        conf, year = short.group(1).lower(), short.group(2)
        group = CONFERENCES.get(conf)
        if group is None:
            known = ", ".join(sorted(CONFERENCES))
            raise UnknownSource(
                f"paperdeck fetch: {text!r}: no such conference in the venue table ({known}); "
                "give an OpenReview venue id such as ICLR.cc/2026/Conference"
            )
        return FetchSource("openreview", f"{conf}{year}", venue_id=f"{group}/{year}/Conference")
    if _VENUE_ID.match(text) and len(text) <= 200:
        return FetchSource("openreview", text, venue_id=text.removesuffix("/-/Submission"))
    raise UnknownSource(
        f"paperdeck fetch: {text[:80]!r} is not a venue: give a short name (iclr2026), an OpenReview "
        "venue id (ICLR.cc/2026/Conference), papercopilot:iclr2026, arxiv:QUERY or iclr2026:schedule"
    )


def short_name(venue: str, year: int | None) -> str | None:
    """``"iclr2026"`` for a store's venue ``ICLR`` and year 2026 when the table knows the
    conference, else ``None``."""
    key = venue.strip().lower()
    if year is None or key not in CONFERENCES:
        return None
    return f"{key}{year}"
