"""The paper record and the user's data about a paper."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_WHITESPACE = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """Return ``text`` folded for comparison: NFKC, case-folded, zero-width removed, whitespace collapsed.

    Two abstracts that differ only in case, line wrapping or spacing normalise to the same string.
    """
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    return _WHITESPACE.sub(" ", text).strip().casefold()


def abstract_id(abstract: str) -> str:
    """Return the stable id of a paper known only by its abstract: ``"abs:"`` + 16 hex digits.

    The digits are the start of the SHA-256 of :func:`normalise_text` of the abstract, so the id
    survives re-wrapping, a moved or renamed file and a re-import.
    """
    digest = hashlib.sha256(normalise_text(abstract).encode("utf-8")).hexdigest()
    return f"abs:{digest[:16]}"


@dataclass(frozen=True, slots=True)
class Paper:
    """One paper of a conference list, as the catalogue keeps it.

    Attributes:
        id: stable id, e.g. ``"abs:1f3a…"`` (seed text) or ``"openreview:00F7BfXLYJ"``.
        title: display title; derived from the abstract when the source had none.
        abstract: the abstract as the source gave it (LaTeX and Markdown kept verbatim).
        venue: conference short name, e.g. ``"ICLR"``; ``""`` when unknown.
        year: conference year, e.g. ``2026``; ``None`` when unknown.
        title_derived: true when ``title`` was derived from the abstract, not given by a source.
        sources: names of the files the paper was read from (file names, no directories).
        authors: author names in byline order.
        keywords: author keywords.
    """

    id: str
    title: str
    abstract: str
    venue: str = ""
    year: int | None = None
    title_derived: bool = False
    sources: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the paper as a JSON-ready dict (lists for tuples)."""
        return {
            "id": self.id,
            "title": self.title,
            "abstract": self.abstract,
            "venue": self.venue,
            "year": self.year,
            "title_derived": self.title_derived,
            "sources": list(self.sources),
            "authors": list(self.authors),
            "keywords": list(self.keywords),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """Build a paper from :meth:`to_dict` output.

        Raises:
            KeyError: ``id``, ``title`` or ``abstract`` is missing.
        """
        return cls(
            id=str(data["id"]),
            title=str(data["title"]),
            abstract=str(data["abstract"]),
            venue=str(data.get("venue") or ""),
            year=data.get("year"),
            title_derived=bool(data.get("title_derived", False)),
            sources=tuple(data.get("sources") or ()),
            authors=tuple(data.get("authors") or ()),
            keywords=tuple(data.get("keywords") or ()),
        )

    @property
    def venue_label(self) -> str:
        """``"ICLR 2026"``-style label; ``""`` when neither venue nor year is known."""
        return " ".join(part for part in (self.venue, str(self.year or "")) if part)


@dataclass(frozen=True, slots=True)
class UserData:
    """What the user wrote about one paper.

    Attributes:
        paper_id: the :attr:`Paper.id` this belongs to.
        starred: whether the paper is starred.
        note: the user's note (Markdown text); ``""`` when there is none.
        created: ISO 8601 UTC time of the first change, e.g. ``"2026-11-29T19:30:00.123456+00:00"``.
        updated: ISO 8601 UTC time of the last change.
    """

    paper_id: str
    starred: bool = False
    note: str = ""
    created: str = ""
    updated: str = ""

    @property
    def is_empty(self) -> bool:
        """True when nothing is starred or written: such a record need not be kept."""
        return not self.starred and not self.note

    def to_dict(self) -> dict[str, Any]:
        """Return the record as a JSON-ready dict."""
        return {
            "paper_id": self.paper_id,
            "starred": self.starred,
            "note": self.note,
            "created": self.created,
            "updated": self.updated,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UserData:
        """Build a record from :meth:`to_dict` output.

        Raises:
            KeyError: ``paper_id`` is missing.
        """
        return cls(
            paper_id=str(data["paper_id"]),
            starred=bool(data.get("starred", False)),
            note=str(data.get("note") or ""),
            created=str(data.get("created") or ""),
            updated=str(data.get("updated") or ""),
        )


__all__ = ["Paper", "UserData", "abstract_id", "normalise_text"]
