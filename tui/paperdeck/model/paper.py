"""The paper record and the user's data about a paper."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any


@cache
def _invisible() -> re.Pattern[str]:
    """The zero-width characters :func:`normalise_text` removes; compiled at the first text that is
    not ASCII (a class of characters past Latin-1 is compiled into a 64K-entry map)."""
    return re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def normalise_text(text: str) -> str:
    """Return ``text`` folded for comparison: NFKC, case-folded, zero-width removed, whitespace collapsed.

    Two abstracts that differ only in case, line wrapping or spacing normalise to the same string.
    """
    if not text.isascii():
        text = _invisible().sub("", unicodedata.normalize("NFKC", text))
    return " ".join(text.split()).casefold()


def abstract_id(abstract: str) -> str:
    """Return the stable id of a paper known only by its abstract: ``"abs:"`` + 16 hex digits.

    The digits are the start of the SHA-256 of :func:`normalise_text` of the abstract, so the id
    survives re-wrapping, a moved or renamed file and a re-import.
    """
    import hashlib  # deferred (its OpenSSL set-up is slow to import): opening the app needs no hash

    digest = hashlib.sha256(normalise_text(abstract).encode("utf-8")).hexdigest()
    return f"abs:{digest[:16]}"


#: Normalised decisions, in the order a reader ranks them (:func:`paperdeck.model.decision.normalise_decision`).
DECISIONS = (
    "oral",
    "spotlight",
    "poster",
    "accept",
    "accept-conditional",
    "workshop",
    "under-review",
    "reject",
    "withdrawn",
    "desk-rejected",
    "unknown",
)


@dataclass(frozen=True, slots=True)
class Ratings:
    """Review scores of a paper: mean, standard deviation, min, max and number of reviews.

    ``min``/``max`` are ``None`` when a source gives only ``[mean, std]`` (Paper Copilot ``*_avg``).
    """

    mean: float
    std: float | None = None
    min: float | None = None
    max: float | None = None
    count: int | None = None

    @classmethod
    def from_scores(cls, scores: list[float]) -> Ratings | None:
        """Summarise individual scores; ``None`` for an empty list."""
        if not scores:
            return None
        mean = sum(scores) / len(scores)
        # A product, not ``** 2``: huge scores then give an infinite spread (which the import
        # boundary drops) instead of raising OverflowError.
        std = (sum((s - mean) * (s - mean) for s in scores) / len(scores)) ** 0.5
        return cls(round(mean, 3), round(std, 3), min(scores), max(scores), len(scores))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"mean": self.mean, "std": self.std, "min": self.min, "max": self.max, "count": self.count}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Ratings | None:
        """Inverse of :meth:`to_dict`; ``None`` passes through."""
        if not data:
            return None
        return cls(
            float(data["mean"]),
            data.get("std"),
            data.get("min"),
            data.get("max"),
            data.get("count"),
        )


@dataclass(frozen=True, slots=True)
class Paper:
    """One paper of a conference list, as the catalogue keeps it: the one record every source maps to.

    Attributes:
        id: canonical id: ``"openreview:<forum id>"``, ``"arxiv:<id>"``, ``"doi:<doi>"``,
            ``"title:<venue>-<year>:<hash>"`` or, for seed text, ``"abs:<hash>"``.
        title: display title; derived from the abstract when the source had none.
        abstract: the abstract as the source gave it (LaTeX and Markdown kept verbatim).
        venue: conference short name, e.g. ``"ICLR"``; ``""`` when unknown.
        year: conference year, e.g. ``2026``; ``None`` when unknown.
        title_derived: true when ``title`` was derived from the abstract, not given by a source.
        sources: names of the files the paper was read from (file names, no directories).
        authors: author names in byline order.
        keywords: author keywords.
        primary_area: subject area (ICLR's 21 areas), ``""`` when unknown.
        decision: one of :data:`DECISIONS`.
        decision_raw: the status string as the source wrote it (``"ICLR 2026 ConditionalPoster"``).
        ratings: review ratings, ``None`` when there are none yet (never shown as 0).
        confidence: mean reviewer confidence, ``None`` when unknown.
        tldr: the authors' one-line summary.
        openreview_id: OpenReview forum id (case-sensitive), ``""`` when none.
        arxiv_id: arXiv id without version, ``""`` when none.
        doi: DOI, ``""`` when none.
        number: submission number within the venue and year, ``None`` when unknown.
        pdf_url, code_url, openreview_url, arxiv_url: links, ``""`` when none.
        bibtex: the source's BibTeX entry, as written, ``""`` when it gave none.
        provenance: ``(field, source file)`` pairs: which file each field came from; a field not
            listed came from the first of ``sources`` (only the exceptions are written to disk).
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
    primary_area: str = ""
    decision: str = "unknown"
    decision_raw: str = ""
    ratings: Ratings | None = None
    confidence: float | None = None
    tldr: str = ""
    openreview_id: str = ""
    arxiv_id: str = ""
    doi: str = ""
    number: int | None = None
    pdf_url: str = ""
    code_url: str = ""
    openreview_url: str = ""
    arxiv_url: str = ""
    bibtex: str = ""
    provenance: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the paper as a JSON-ready dict (lists for tuples; defaults left out;
        ``provenance`` as ``{field: source}``)."""
        data: dict[str, Any] = {"id": self.id, "title": self.title, "abstract": self.abstract}
        for name, default in _OPTIONAL_FIELDS:
            value = getattr(self, name)
            if value == default:
                continue
            if name == "ratings":
                value = value.to_dict()
            elif name == "provenance":
                first = self.sources[0] if self.sources else ""
                value = {field: source for field, source in value if source != first}
                if not value:
                    continue
            elif isinstance(value, tuple):
                value = list(value)
            data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """Build a paper from :meth:`to_dict` output (kept lean: every paper of the catalogue goes
        through it when the store opens).

        Raises:
            KeyError: ``id``, ``title`` or ``abstract`` is missing.
            TypeError, ValueError: a field is unknown or has the wrong type.
        """
        values = dict(data)
        for name in _TUPLE_FIELDS:
            value = values.get(name)
            if value is not None:
                values[name] = tuple(value)
        # Texts most papers share (file names, areas, decisions) are held once, not once a paper.
        if values.get("sources"):
            values["sources"] = tuple(map(_shared, values["sources"]))
        for name in _SHARED_FIELDS:
            if type(text := values.get(name)) is str:
                values[name] = sys.intern(text)
        provenance = values.get("provenance")
        if provenance is not None:
            pairs = provenance.items() if isinstance(provenance, dict) else map(tuple, provenance)
            values["provenance"] = tuple(tuple(map(_shared, pair)) for pair in pairs)
        if "ratings" in values:
            values["ratings"] = Ratings.from_dict(values["ratings"])
        paper = cls(**values)
        if not isinstance(paper.id, str) or not isinstance(paper.title, str) or not isinstance(paper.abstract, str):
            raise TypeError("id, title and abstract must be strings")
        return paper

    @property
    def venue_label(self) -> str:
        """``"ICLR 2026"``-style label; ``""`` when neither venue nor year is known."""
        return " ".join(part for part in (self.venue, str(self.year or "")) if part)

    def source_of(self, field_name: str) -> str:
        """The source file a field was taken from: as recorded in ``provenance``, else the paper's
        first source (``""`` when it has none)."""
        for name, source in self.provenance:
            if name == field_name:
                return source
        return self.sources[0] if self.sources else ""


_TUPLE_FIELDS = ("sources", "authors", "keywords")
_SHARED_FIELDS = ("venue", "primary_area", "decision", "decision_raw")


def _shared(value: object) -> object:
    """``value`` interned when it is text (else as it is, for the type checks that follow)."""
    return sys.intern(value) if type(value) is str else value
_OPTIONAL_FIELDS = tuple(
    (spec.name, spec.default) for spec in fields(Paper) if spec.name not in ("id", "title", "abstract")
)


@dataclass(frozen=True, slots=True)
class UserData:
    """What the user said about one paper.

    Attributes:
        paper_id: the :attr:`Paper.id` this belongs to.
        starred: whether the paper is starred.
        note: the user's note (Markdown text); ``""`` when there is none.
        status: reading status, one of :data:`STATUSES` (``"unseen"`` by default).
        tags: the user's tags, sorted, each without spaces at its ends.
        created: ISO 8601 UTC time of the first change, e.g. ``"2026-11-29T19:30:00.123456+00:00"``.
        updated: ISO 8601 UTC time of the last change.
        looked: ISO 8601 UTC time the user last opened the paper (its reader or its reviews),
            ``""`` when never: a change an import records after it marks the paper changed.
    """

    paper_id: str
    starred: bool = False
    note: str = ""
    status: str = "unseen"
    tags: tuple[str, ...] = ()
    created: str = ""
    updated: str = ""
    looked: str = ""

    @property
    def is_empty(self) -> bool:
        """True when nothing is starred, written, read or tagged and the paper was never opened:
        such a record need not be kept."""
        return not self.starred and not self.note and self.status == "unseen" and not self.tags and not self.looked

    def same_marks(self, other: UserData) -> bool:
        """True when both say the same (star, note, status, tags), whatever their timestamps."""
        return (self.starred, self.note, self.status, self.tags) == (
            other.starred,
            other.note,
            other.status,
            other.tags,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the record as a JSON-ready dict (``looked`` only when set)."""
        data: dict[str, Any] = {
            "paper_id": self.paper_id,
            "starred": self.starred,
            "note": self.note,
            "status": self.status,
            "tags": list(self.tags),
            "created": self.created,
            "updated": self.updated,
        }
        if self.looked:
            data["looked"] = self.looked
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UserData:
        """Build a record from :meth:`to_dict` output (records of schema 1 lack status and tags).

        Raises:
            KeyError: ``paper_id`` is missing.
            ValueError: the status is not one of :data:`STATUSES`.
        """
        # Read for every record at start-up: strings are taken as they are, only other values
        # converted.
        get = data.get
        status = get("status") or "unseen"
        if status not in _STATUS_SET:
            status = str(status)
            if status not in _STATUS_SET:
                raise ValueError(f"unknown reading status {status!r}")
        paper_id, note, tags = data["paper_id"], get("note") or "", get("tags")
        created, updated, looked = get("created") or "", get("updated") or "", get("looked") or ""
        if cls is not UserData:
            return cls(
                paper_id if type(paper_id) is str else str(paper_id),
                bool(get("starred", False)),
                note if type(note) is str else str(note),
                status,
                tuple(sorted({str(tag) for tag in tags})) if tags else (),
                created if type(created) is str else str(created),
                updated if type(updated) is str else str(updated),
                looked if type(looked) is str else str(looked),
            )
        # Built as a plain object of the same slots, then given its class: the frozen class's
        # __init__ sets each field through object.__setattr__, several times slower, and every
        # record of the store is read at start-up.
        record = _UserDataSlots()
        record.paper_id = paper_id if type(paper_id) is str else str(paper_id)
        record.starred = bool(get("starred", False))
        record.note = note if type(note) is str else str(note)
        record.status = status
        record.tags = tuple(sorted({str(tag) for tag in tags})) if tags else ()
        record.created = created if type(created) is str else str(created)
        record.updated = updated if type(updated) is str else str(updated)
        record.looked = looked if type(looked) is str else str(looked)
        record.__class__ = UserData  # type: ignore[assignment]
        return record  # type: ignore[return-value]


class _UserDataSlots:
    """The layout of :class:`UserData` (its slots, in its order), without its frozen ``__setattr__``:
    :meth:`UserData.from_dict` fills one, then makes it a :class:`UserData`."""

    __slots__ = UserData.__slots__
    paper_id: str
    starred: bool
    note: str
    status: str
    tags: tuple[str, ...]
    created: str
    updated: str
    looked: str


#: Reading statuses, in the order a reader moves through them.
STATUSES = ("unseen", "skimmed", "to-read", "read", "dismissed")
_STATUS_SET = frozenset(STATUSES)


def clean_tag(text: str) -> str:
    """A tag as stored: trimmed, lower-cased, inner white space as ``-`` (``" Must Read "`` →
    ``"must-read"``); ``""`` for a blank one."""
    return "-".join(text.casefold().split())


#: Why a blank tag is refused (one line; the CLI and the app's tag prompt say it).
BLANK_TAG = "a tag cannot be empty or blank: give it a letter, digit or sign"


def blank_tag(texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` is a tag that :func:`clean_tag` leaves empty (``""``, ``"  "``):
    refused with :data:`BLANK_TAG`, never taken for a tag already there or not there."""
    return any(not clean_tag(text) for text in texts)


def with_tags(record: UserData, add: Iterable[str] = (), remove: Iterable[str] = ()) -> UserData:
    """``record`` with tags added and removed (cleaned, sorted, no duplicates)."""
    tags = set(record.tags) | {clean_tag(t) for t in add}
    tags -= {clean_tag(t) for t in remove}
    tags.discard("")
    return replace(record, tags=tuple(sorted(tags)))


__all__ = ["DECISIONS", "STATUSES", "Paper", "Ratings", "UserData", "abstract_id", "normalise_text"]
