"""Papers as JSON objects for the command line's ``--json`` output."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from paperdeck.model.paper import Paper, Ratings, UserData


def paper_record(paper: Paper, user: UserData) -> dict[str, Any]:
    """Every field of ``paper`` (lists for tuples, ``null`` for unknowns) plus the user's
    ``starred``, ``note``, ``status``, ``tags`` and the note's ``created`` / ``updated`` times.

    Shape: ``{"id": str, "title": str, "authors": [str], "decision": str, "sources": [str],
    "starred": bool, "note": str, "status": str, "tags": [str], …}``; ``ratings`` is
    ``{"mean", "std", "min", "max", "count"}`` or ``null`` when there are no ratings yet.
    ``venue`` is the venue's full name as the app names it (:attr:`Paper.library_venue`:
    ``"ICLR 2026"``, ``"TMLR"``; ``""`` when the source named none), not the source's bare
    conference name; ``year`` stays beside it.
    """
    record: dict[str, Any] = {}
    for spec in fields(Paper):
        value = getattr(paper, spec.name)
        if isinstance(value, Ratings):
            value = value.to_dict()
        elif spec.name == "provenance":
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        record[spec.name] = value
    record["venue"] = paper.library_venue  # the name the app shows (`ICLR 2026`), one for every JSON output
    record.update(
        starred=user.starred,
        note=user.note,
        status=user.status,
        tags=list(user.tags),
        note_created=user.created or None,
        note_updated=user.updated or None,
    )
    return record
