"""Helpers the paper-list readers share: venue and year from text and file names, and papers
that one file holds twice.

Venue/year parsing and the file-name fallback (``iclr2025_….csv`` → ICLR 2025) serve the CSV,
BibTeX and arXiv Atom readers; :func:`merge_papers` joins a paper's repeated rows or entries
(CSV, BibTeX); :func:`collect` keeps the first paper of each id and skips later ones as
duplicates (OpenReview, Paper Copilot JSON, Parquet), with :func:`provenance_pairs` for the
provenance those readers record.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import fields, replace
from pathlib import Path

from paperdeck.model.counts import counted
from paperdeck.model.decision import bare_decision
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import one_line
from paperdeck.sources.base import Skip, SourceRead

__all__ = [
    "collapse",
    "collect",
    "excerpt",
    "finite_scores",
    "known_venue",
    "merge_papers",
    "provenance_pairs",
    "review_ratings",
    "score_number",
    "venue_from_decision",
    "venue_from_text",
    "venue_year_from_filename",
    "year_from_text",
]

# --- Venue and year ---------------------------------------------------------------------------

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_FILE_VENUE = re.compile(r"^([a-z]+)[-_ ]?((?:19|20)\d{2})(?!\d)", re.IGNORECASE)
_SHORT_VENUE = re.compile(r"^[A-Za-z][A-Za-z&\-]{1,15}$")
_VENUE_BEFORE_YEAR = re.compile(r"\b([A-Z][A-Za-z&\-]{1,15})\s*'?(?:19|20)\d{2}\b")
#: Venue names spelled out or abbreviated → the short name the app shows.
_KNOWN_VENUES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), short)
    for pattern, short in (
        (r"international conference on learning representations|\biclr", "ICLR"),
        (r"international conference on machine learning|\bicml\b", "ICML"),
        (r"neural information processing systems|\bneurips\b", "NeurIPS"),
        (r"computer vision and pattern recognition|\bcvpr\b", "CVPR"),
        (r"transactions on machine learning research|\btmlr\b", "TMLR"),
        (r"journal of machine learning research|\bjmlr\b", "JMLR"),
    )
)
_ACRONYMS = re.compile(r"\b(NIPS|ICCV|ECCV|EMNLP|NAACL|ACL|AAAI|IJCAI|AISTATS|COLT|UAI|KDD)\b", re.IGNORECASE)


def collapse(text: str) -> str:
    """``text`` with every whitespace run one space, trimmed."""
    return " ".join(text.split())


def excerpt(text: str, limit: int = 120) -> str:
    """File text quoted in an error message: one line, control characters made visible, at most
    ``limit`` characters (a header of 100,000 ``[`` must not become a 100,000-character error)."""
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def known_venue(text: str) -> str:
    """The short name of a well-known venue named in ``text`` (``"ICLR"``), else ``""``."""
    for pattern, short in _KNOWN_VENUES:
        if pattern.search(text):
            return short
    match = _ACRONYMS.search(text)
    return match.group(1).upper() if match else ""


@functools.lru_cache(maxsize=1024)
def venue_from_text(text: str) -> str:
    """The venue a conference/booktitle string names: a known venue, a bare short name as
    written (``NIPS``), or the word before a year (``FOO 2024 Poster`` → ``FOO``); else ``""``.
    A decision written alone (``Accept``, ``Poster``: :func:`~paperdeck.model.decision.bare_decision`)
    is never a venue, nor is a decision word before a year (``Accept 2024``)."""
    text = collapse(text)
    if not text:
        return ""
    if _SHORT_VENUE.match(text):
        return known_venue(text) or ("" if bare_decision(text) else text)
    return venue_from_decision(text)


@functools.lru_cache(maxsize=1024)
def venue_from_decision(text: str) -> str:
    """The venue a decision or status string names (``ICLR 2026 Poster`` → ``ICLR``): a known
    venue, or the word before a year when it is no decision word (``FOO 2024 Oral`` → ``FOO``);
    else ``""``. A bare word is a decision, not a venue: ``Accept``, ``Oral``, ``Accept (Oral)``
    and ``Foo`` name none, so a paper's id never changes with its decision."""
    text = collapse(text)
    known = known_venue(text)
    if known:
        return known
    match = _VENUE_BEFORE_YEAR.search(text)
    return match.group(1) if match and not bare_decision(match.group(1)) else ""


@functools.lru_cache(maxsize=1024)
def year_from_text(text: str) -> int | None:
    """The first plausible year (1900 to 2099) in ``text``, else ``None``."""
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None


def venue_year_from_filename(path: Path) -> tuple[str, int | None]:
    """``("ICLR", 2025)`` from ``iclr2025_….csv`` or ``iclr-2025.bib``; ``("", None)`` otherwise."""
    match = _FILE_VENUE.match(path.name)
    if match is None:
        return "", None
    word = match.group(1)
    return known_venue(word) or word.upper(), int(match.group(2))


# --- Scores -------------------------------------------------------------------------------------

_SCORE_TEXT = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*")


def score_number(value: object) -> float | None:
    """A score from an int, a float or plain decimal text (``"6"``, ``" 6.5 "``, ``"-1"``), else
    ``None`` (words, booleans, ``"1e3"``: no exponent is read, so ``"1e309"`` is never 1).

    Text or a float that stands for no finite number (``"inf"``, ``"NaN"``, ``"1e999"``) is
    returned as that non-finite float, so that the import boundary
    (:mod:`paperdeck.sources.validate`) drops and counts it; so is a number past any float."""
    if type(value) is float:
        return value
    if type(value) is int:
        return float(value) if -(10**300) < value < 10**300 else float("inf")
    if type(value) is not str or not value.isascii():
        return None
    if _SCORE_TEXT.fullmatch(value):
        return float(value)
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number - number != 0 else None  # only the non-finite: NaN - NaN, inf - inf


def review_ratings(value: object) -> list[float]:
    """The per-review ratings a record gives as a list or ``"5;6;8"`` text (``";"`` or ``","``
    between them), each read by :func:`score_number`; a ``-1`` is no rating (Paper Copilot's
    placeholder) and is left out; ``[]`` when it gives none (``None``, ``""``, empty items, only
    ``-1``, all zeros: as :func:`paperdeck.sources.jsonfile.parse_scores`).

    The one rule of every format that carries per-review ratings (Paper Copilot, CSV, OpenReview
    submission notes): a rating is taken only when every value is one, so that a record's mean
    never silently stands on some of its reviews.

    Raises:
        ValueError: a value is not a number (``"x"``, ``true``, ``"1e3"``) or is below 0 other
            than ``-1`` (a non-finite one is left to the import boundary, which drops it); the
            message names the values (safe text on one line, cut short).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    items: list[object]
    if isinstance(value, str):
        items = list(re.split(r"[;,]", value))
    else:
        items = list(value) if isinstance(value, list | tuple) else [value]
    items = [item.strip() if isinstance(item, str) else item for item in items]
    items = [item for item in items if item != ""]
    scores = [score_number(item) for item in items]
    # -1 is Paper Copilot's "no rating"; a non-finite value passes (the import boundary drops it)
    bad = [
        item
        for item, score in zip(items, scores, strict=True)
        if score is None or (-math.inf < score < 0 and score != -1)
    ]
    if bad:
        given = value if isinstance(value, str) else ";".join(map(str, items))
        shown = ", ".join(one_line(str(item))[:20] for item in bad[:5]) + (", …" if len(bad) > 5 else "")
        raise ValueError(
            f"rating {one_line(given)[:60]!r}: {shown} {'is not a rating' if len(bad) == 1 else 'are not ratings'} "
            "(a number from 0 up)"
        )
    taken = [score for score in scores if score is not None and score != -1]
    return taken if any(taken) else []


def finite_scores(scores: list[float], what: str, dropped: Counter[str] | None) -> list[float]:
    """``scores`` (one paper's per-review scores, as :func:`review_ratings` and
    :func:`~paperdeck.sources.jsonfile.parse_scores` read them) without those that stand for no
    finite number (``"1e309"``, ``"NaN"``), each counted in ``dropped`` as ``"non-finite <what>"``:
    one review's bad score never takes its paper's other scores with it (the paper's mean is made
    of the rest), and the import's summary counts exactly the values left out."""
    kept = [score for score in scores if math.isfinite(score)]
    if dropped is not None and len(kept) != len(scores):
        dropped[f"non-finite {what}"] += len(scores) - len(kept)
    return kept


# --- Papers seen twice -------------------------------------------------------------------------


def merge_papers(first: Paper, later: Paper) -> Paper:
    """``first`` with what ``later`` adds: empty fields filled, new authors appended, a known
    decision replacing ``unknown``. Used when one file holds the same paper twice."""
    changes: dict[str, object] = {}
    for spec in fields(Paper):
        mine, theirs = getattr(first, spec.name), getattr(later, spec.name)
        if spec.name in {"authors", "sources"}:
            extra = tuple(item for item in theirs if item not in mine)
            if extra:
                changes[spec.name] = mine + extra
        elif spec.name in {"decision", "decision_raw"}:
            if first.decision == "unknown" and later.decision != "unknown":
                changes[spec.name] = theirs
        elif mine == spec.default and theirs != spec.default:
            changes[spec.name] = theirs
    return replace(first, **changes) if changes else first  # type: ignore[arg-type]


def provenance_pairs(path: Path, fields: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``(field, file name)`` for each field: the provenance pairs papers from ``path`` share."""
    return tuple((field, path.name) for field in fields)


def collect(
    path: Path, format: str, results: Iterable[tuple[str, Paper | str]], dropped: Counter[str] | None = None
) -> SourceRead:
    """A :class:`SourceRead` from ``(position, paper or skip reason)`` pairs: the first paper of
    each id is kept, a later one is skipped as a duplicate; a notice when there are no papers.
    ``dropped``: the values the reader left out (:func:`finite_scores`), read once ``results`` is."""
    papers: dict[str, Paper] = {}
    skipped: list[Skip] = []
    for position, result in results:
        if isinstance(result, str):
            skipped.append(Skip(position, result))
        elif result.id in papers:
            skipped.append(Skip(position, f"duplicate id {result.id}"))
        else:
            papers[result.id] = result
    notice = None
    if not papers:
        notice = f"{path}: no papers in this file"
        notice += f" ({counted(len(skipped), 'record')} skipped)" if skipped else ""
    left_out = tuple(dropped.items()) if dropped else ()
    return SourceRead(path, format, tuple(papers.values()), tuple(skipped), notice, dropped=left_out)
