"""The paper record (the user's data about a paper is :mod:`paperdeck.model.user`'s, named here
as well)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields
from math import fsum
from typing import Any

from paperdeck.model.user import BLANK_TAG, STATUSES, UserData, blank_tag, clean_tag, read_tags, split_tags, with_tags
from paperdeck.text.fold import normalise_text


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


def mean_and_std(scores: Sequence[float]) -> tuple[float, float]:
    """The mean and (population) standard deviation of ``scores`` (not empty), the same to the
    last bit in whatever order the scores come: the sums are exact (:func:`math.fsum`), so a
    paper's ratings read from a file's ``"6;6;7;7;7"`` equal those its reviews give in review
    order (:class:`paperdeck.model.review_summary.ReviewSummary`), and a re-import of an
    unchanged file finds the paper unchanged."""
    mean = exact_sum(scores) / len(scores)
    # A product, not ``** 2``: huge scores then give an infinite spread (which the import
    # boundary drops) instead of raising OverflowError.
    return mean, (exact_sum([(s - mean) * (s - mean) for s in scores]) / len(scores)) ** 0.5


def exact_sum(values: Sequence[float]) -> float:
    """The sum of ``values``, correctly rounded (so the same in any order); for values whose sum
    is no finite number (``inf`` and ``-inf``, an overflow, ``nan``) the plain sum, which is not
    finite either (never an error: the import boundary drops and counts such a value)."""
    try:
        return fsum(values)
    except (OverflowError, ValueError):
        return sum(values)


@dataclass(frozen=True, slots=True)
class Ratings:
    """Review scores of a paper: mean, standard deviation, min, max and number of reviews.

    ``min``/``max`` are ``None`` when a source gives only ``[mean, std]`` (Paper Copilot ``*_avg``).
    ``scale`` is the rating scale recorded at import (:class:`paperdeck.model.venue.Scale` as text,
    ``"1-10"``, ``"0, 2, 4, 6, 8, 10"``), ``""`` when none was: every value is on it.
    """

    mean: float
    std: float | None = None
    min: float | None = None
    max: float | None = None
    count: int | None = None
    scale: str = ""

    @classmethod
    def from_scores(cls, scores: list[float]) -> Ratings | None:
        """Summarise individual scores; ``None`` for an empty list. Mean and standard deviation are
        kept to full precision: each output rounds them once (``± 1.22`` for ratings 6, 6, 7, 9,
        not ``1.225`` rounded again to ``1.23``)."""
        if not scores:
            return None
        mean, std = mean_and_std(scores)
        return cls(mean, std, min(scores), max(scores), len(scores))  # full precision: rounded once, where shown

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``scale`` only when recorded)."""
        data: dict[str, Any] = {"mean": self.mean, "std": self.std, "min": self.min, "max": self.max}
        data["count"] = self.count
        if self.scale:
            data["scale"] = self.scale
        return data

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
            sys.intern(scale) if type(scale := data.get("scale")) is str else "",
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
        modified: when OpenReview last modified the paper's note (its ``tmdate``, else its
            ``mdate``; milliseconds since the epoch), the latest of the records merged into the
            paper; ``None`` when no source gave one. It says which of two records is newer
            (:func:`paperdeck.store.merge.combine`).
        authors_more: the source's author list ends ``and others`` (BibTeX's mark of a list cut
            short): ``authors`` names some of them, not all; shown ``… et al.``, exported back
            as ``and others``.
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
    modified: int | None = None
    authors_more: bool = False

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

    @property
    def library_venue(self) -> str:
        """The venue the paper belongs to in the library (:func:`library_venue`): ``"COLM 2025"``,
        ``"TMLR"``, ``""`` when the source named none."""
        return library_venue(self.venue, self.year)

    def source_of(self, field_name: str) -> str:
        """The source file a field was taken from: as recorded in ``provenance``, else the paper's
        first source (``""`` when it has none)."""
        for name, source in self.provenance:
            if name == field_name:
                return source
        return self.sources[0] if self.sources else ""


#: Venues with no editions (journals, preprint servers, case-folded): a paper of one belongs to the
#: venue whatever its year.
ROLLING_VENUES = frozenset({"arxiv", "corr", "tmlr", "jmlr"})


def authors_line(paper: Paper, separator: str = ", ") -> str:
    """The paper's authors on one line, joined by ``separator``, ``… et al.`` after them when its
    source's list was cut short (:attr:`Paper.authors_more`). Not made safe (the names come
    from a file)."""
    names = separator.join(paper.authors)
    return f"{names} … et al." if paper.authors_more and names else names


def library_venue(venue: str, year: int | None) -> str:
    """The venue a paper of ``venue`` and ``year`` belongs to, as the library groups papers (the
    venue scope, the venue column): the conference and its year as the source names them
    (``"COLM 2025"``, ``"NeurIPS 2018"``); a rolling venue (:data:`ROLLING_VENUES`) without the
    year (``"TMLR"``, ``"arXiv"``); the year alone when the source named no venue (``"2019"``);
    ``""`` when it named neither. White space is collapsed; the text is not made safe (it comes
    from a file: show it through :mod:`paperdeck.model.safe_text`)."""
    name = " ".join(venue.split())
    if name.casefold() in ROLLING_VENUES:
        return name
    return " ".join(part for part in (name, str(year or "")) if part)


_TUPLE_FIELDS = ("sources", "authors", "keywords")
_SHARED_FIELDS = ("venue", "primary_area", "decision", "decision_raw")


def _shared(value: object) -> object:
    """``value`` interned when it is text (else as it is, for the type checks that follow)."""
    return sys.intern(value) if type(value) is str else value


_OPTIONAL_FIELDS = tuple(
    (spec.name, spec.default) for spec in fields(Paper) if spec.name not in ("id", "title", "abstract")
)


__all__ = [
    "BLANK_TAG",
    "DECISIONS",
    "ROLLING_VENUES",
    "STATUSES",
    "Paper",
    "Ratings",
    "UserData",
    "abstract_id",
    "authors_line",
    "blank_tag",
    "clean_tag",
    "exact_sum",
    "library_venue",
    "mean_and_std",
    "normalise_text",
    "read_tags",
    "split_tags",
    "with_tags",
]
