"""The import boundary: every paper an importer read is checked and normalised here, once, before
it reaches the store, so that the catalogue written is always one paperdeck can read back.

- Numbers: a rating, standard deviation, confidence that is not finite (``inf``, ``nan``,
  ``1e999``), and a count, year or submission number that is negative, absurd or beyond what JSON
  keeps exactly, is dropped (the field becomes unknown) and counted by reason
  (:attr:`Checked.dropped`, e.g. ``"non-finite rating"``).
- Text: every text field is a ``str`` with no lone surrogate (those cannot be written as UTF-8);
  a broken one is repaired with U+FFFD.
- Sizes: a field over its limit (:data:`LIMITS`, :data:`MAX_AUTHORS`, :data:`MAX_KEYWORDS`)
  refuses the whole file with one :class:`~paperdeck.model.errors.SourceError` line naming the
  paper, the field, its size and the limit: no real paper list has such values, and cutting one
  short would silently change a paper.
- Venues: a venue known under another name (:data:`paperdeck.model.ids.VENUE_ALIASES`: ``NIPS``)
  takes the library's name (``NeurIPS``), and an id built from the venue (``title:nips-2018:…``)
  is built from that name (``title:neurips-2018:…``): one venue, one label, one id space. A
  paper whose file names no venue takes the one the import was given (``--venue``), if any.

:func:`check_read` is what :mod:`paperdeck.sources.importer` calls for every file of every format.
"""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import SourceError
from paperdeck.model.ids import canonical_id, canonical_venue, venue_and_year, venue_renamed_id
from paperdeck.model.paper import Paper, Ratings
from paperdeck.sources.base import SourceRead

if TYPE_CHECKING:
    from paperdeck.model.review import Review

__all__ = [
    "LIMITS",
    "MAX_AUTHORS",
    "MAX_KEYWORDS",
    "Checked",
    "check_paper",
    "check_read",
    "reviews_grouped",
    "with_venue",
]

#: Longest value accepted per text field, in characters (far above any real paper's); a list
#: field's limit applies to each of its items.
LIMITS: dict[str, int] = {
    "id": 500,
    "title": 2_000,
    "abstract": 100_000,
    "venue": 200,
    "sources": 1_000,
    "authors": 500,
    "keywords": 500,
    "primary_area": 500,
    "decision_raw": 500,
    "tldr": 10_000,
    "openreview_id": 200,
    "arxiv_id": 200,
    "doi": 500,
    "pdf_url": 4_096,
    "code_url": 4_096,
    "openreview_url": 4_096,
    "arxiv_url": 4_096,
    "bibtex": 100_000,
}
#: Most authors and keywords one paper may have (the largest physics collaborations sign ~3,000).
MAX_AUTHORS = 10_000
MAX_KEYWORDS = 500
#: Largest integer kept (JSON readers keep integers exact up to 2**53).
_MAX_INT = 2**53
_YEARS = range(1000, 10_000)
_SURROGATE = re.compile("[\ud800-\udfff]")
_TEXT_FIELDS = tuple(name for name in LIMITS if name not in ("sources", "authors", "keywords"))
_LIST_FIELDS = (("sources", None), ("authors", MAX_AUTHORS), ("keywords", MAX_KEYWORDS))
_TEXT_LIMITS = tuple(LIMITS[name] for name in _TEXT_FIELDS)
_get_texts = operator.attrgetter(*_TEXT_FIELDS)
_get_lists = operator.attrgetter(*(name for name, _ in _LIST_FIELDS))


@dataclass(frozen=True, slots=True)
class Checked:
    """A file's papers after :func:`check_read`.

    Attributes:
        read: the read, its papers normalised (same order, same count).
        dropped: values dropped, by reason (``"non-finite rating"``, ``"year out of range"`` …).
    """

    read: SourceRead
    dropped: Counter[str]


def check_read(read: SourceRead, venue: str = "") -> Checked:
    """Check and normalise every paper of ``read`` (see the module docstring).

    ``venue`` (``paperdeck import --venue "COLM 2025"``: a label as the venue picker shows it) is
    the venue of the papers whose file names none (a Paper Copilot list renamed ``mylist.json``, a
    CSV without a venue column): they take it, and its year when they have none, their ids built
    from a venue following (:func:`with_venue`). A paper whose file names its venue keeps it. It
    is applied here, once, for every format. What the reader itself left out
    (:attr:`SourceRead.dropped`: a review's score for no finite number) is counted with the rest.

    Raises:
        SourceError: a value over its size limit, naming the file, the paper (its number in the
            file and its id) and the field; nothing of the file is imported then.
    """
    dropped: Counter[str] = Counter(dict(read.dropped))
    papers = []
    given = venue_and_year(venue) if venue.strip() else None
    groups: dict[str, str] = {}  # the forum of each paper that took the venue given: its group
    for number, paper in enumerate(read.papers, start=1):
        if given is not None and not paper.venue:
            paper = with_venue(paper, *given)
            from paperdeck.model.venue import venue_group

            if paper.openreview_id and (group := venue_group(paper.venue, paper.year)):
                groups[paper.openreview_id] = group
        try:
            papers.append(check_paper(paper, dropped))
        except ValueError as exc:
            raise SourceError(read.path, f"paper {number} ({_short(paper.id)}): {exc}; is the file broken?") from None
    return Checked(replace(read, papers=with_scales(read, papers), reviews=reviews_grouped(read, groups)), dropped)


def reviews_grouped(read: SourceRead, groups: dict[str, str]) -> tuple[Review, ...]:
    """``read``'s reviews, each one that names no venue group (a Paper Copilot list's reviews,
    when its file's name names no venue) given the group of its paper's venue when the paper
    took the venue given (``groups``: by forum), as the file named for the venue would have given
    it: their summaries rank the paper among its venue's papers, not among the papers of no venue."""
    if not groups or not read.reviews:
        return read.reviews
    return tuple(
        replace(review, venue_id=groups[review.forum]) if not review.venue_id and review.forum in groups else review
        for review in read.reviews
    )


def with_venue(paper: Paper, venue: str, year: int | None) -> Paper:
    """``paper`` (of no venue) of ``venue``, and of ``year`` when it has none, its id built from
    its venue and year (``title:unknown-unknown:…`` → ``title:colm-2025:…``) following; an id
    that is not built from them (a forum id, an arXiv id, a DOI) stays, and a paper with a
    submission number takes the number's id (``iclr2023#2``), as from a file named for its venue."""
    new_year = paper.year or year
    paper_id = venue_renamed_id(paper.id, "", venue, paper.year, new_year)
    if paper.number is not None and paper_id != paper.id and paper_id.startswith("title:") and new_year:
        # a submission number is an id within its venue and year, as the file named for them gives
        paper_id = canonical_id(venue=venue, year=new_year, number=paper.number, title=paper.title)
    return replace(paper, venue=venue, year=new_year, id=paper_id)


def with_scales(read: SourceRead, papers: list[Paper]) -> tuple[Paper, ...]:
    """``papers`` (of ``read``) with the scale of their ratings recorded (:attr:`Ratings.scale`), one
    scale per venue of the file (:func:`paperdeck.model.venue.file_scale`: the venue's known
    scale, else the one its values infer); a paper whose reader recorded one keeps it.

    Raises:
        SourceError: a rating is off its venue's known scale (the file mixes scales), naming the
            paper (its number in the file and its id), the value and the scale.
    """
    from paperdeck.model.venue import ScaleError, file_scale

    venues: dict[tuple[str, int | None], list[int]] = {}
    for n, paper in enumerate(papers):
        if paper.ratings is not None and not paper.ratings.scale:
            venues.setdefault((paper.venue, paper.year), []).append(n)
    if not venues:
        return tuple(papers)
    result = list(papers)
    for (venue, year), positions in venues.items():
        rated = (
            (f"paper {n + 1} ({_short(papers[n].id)})", r.mean, r.min, r.max)
            for n in positions
            if (r := papers[n].ratings) is not None
        )
        try:
            scale = file_scale(venue, year, rated)
        except ScaleError as exc:
            raise SourceError(read.path, str(exc)) from None
        if scale is None:
            continue
        text = scale.text()
        for n in positions:
            ratings = papers[n].ratings
            assert ratings is not None
            result[n] = replace(papers[n], ratings=replace(ratings, scale=text))
    return tuple(result)


def check_paper(paper: Paper, dropped: Counter[str]) -> Paper:
    """``paper`` normalised (see the module docstring); what was dropped is added to ``dropped``.

    Raises:
        ValueError: a value over its size limit (the message names the field, its size and the
            limit, never the value).
    """
    changes: dict[str, Any] = {} if _sound_texts(paper) else _repaired_texts(paper)
    texts = _get_texts(paper)
    for name, text, limit in zip(_TEXT_FIELDS, texts, _TEXT_LIMITS, strict=True):
        value = changes.get(name, text) if changes else text
        if len(value) > limit:
            _check_size(name, len(value))
    for name, most in _LIST_FIELDS:
        items = changes.get(name, getattr(paper, name))
        if most is not None and len(items) > most:
            raise ValueError(f"it has {len(items):,} {name}, more than the {most:,} a real paper has")
        if items:
            _check_size(name, max(map(len, items)), item=True)
    ratings = _ratings(paper.ratings, dropped)
    if ratings is not paper.ratings:
        changes["ratings"] = ratings
    confidence = _finite(paper.confidence, "confidence", dropped)
    if confidence is not paper.confidence:
        changes["confidence"] = confidence
    if paper.year is not None and _whole(paper.year) not in _YEARS:
        _drop("year out of range", dropped)
        changes["year"] = None
    number = paper.number
    if number is not None and not 0 <= _whole(number) <= _MAX_INT:
        _drop("submission number out of range", dropped)
        changes["number"] = None
    venue = changes.get("venue", paper.venue)
    if venue and (canonical := canonical_venue(venue)) != venue:  # "NIPS" → "NeurIPS": one venue, one id space
        changes["venue"] = canonical
        changes["id"] = venue_renamed_id(paper.id, venue, canonical, paper.year)
    return replace(paper, **changes) if changes else paper


def _sound_texts(paper: Paper) -> bool:
    """Whether every text of ``paper`` is a ``str`` without lone surrogates (one check over all of
    them: the common case, which must cost little at a full conference's scale)."""
    sources, authors, keywords = _get_lists(paper)
    if not (type(sources) is tuple and type(authors) is tuple and type(keywords) is tuple):
        return False
    try:
        joined = "".join((*_get_texts(paper), *sources, *authors, *keywords, *map("".join, paper.provenance)))
        if not joined.isascii():
            joined.encode("utf-8")  # a lone surrogate cannot be encoded
    except (TypeError, UnicodeEncodeError):
        return False
    return True


def _repaired_texts(paper: Paper) -> dict[str, Any]:
    """The text fields of ``paper`` that are not sound, repaired (see :func:`_text`)."""
    changes: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        value = getattr(paper, name)
        text = _text(value)
        if text is not value:
            changes[name] = text
    for name, _ in _LIST_FIELDS:
        items = getattr(paper, name)
        texts = tuple(_text(item) for item in items)
        if type(items) is not tuple or any(new is not old for new, old in zip(texts, items, strict=True)):
            changes[name] = texts
    provenance = tuple((_text(field), _text(source)) for field, source in paper.provenance)
    if provenance != paper.provenance:
        changes["provenance"] = provenance
    return changes


def _check_size(name: str, size: int, item: bool = False) -> None:
    limit = LIMITS[name]
    if size > limit:
        what = f"one of its {name}" if item else f"its {name.replace('_', ' ')}"
        raise ValueError(f"{what} has {size:,} characters, more than the {limit:,} a real one has")


def _text(value: object) -> str:
    """``value`` as text with no lone surrogate (the same object when it already is)."""
    if type(value) is not str:
        value = "" if value is None else str(value)
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return _SURROGATE.sub("\ufffd", value)
    return value


def _whole(value: object) -> int:
    """``value`` as an int, or -1 (out of every range) when it is none (a bool, a float …)."""
    return value if type(value) is int else -1


def _drop(reason: str, dropped: Counter[str]) -> None:
    """Count a value dropped for ``reason`` (the caller makes it unknown)."""
    dropped[reason] += 1


def _finite(value: float | None, what: str, dropped: Counter[str]) -> float | None:
    """``value`` when it is a finite number (an int becomes a float), else ``None`` (counted)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        _drop(f"non-finite {what}", dropped)
        return None
    return value if type(value) is float else float(value)


def _ratings(ratings: Ratings | None, dropped: Counter[str]) -> Ratings | None:
    """``ratings`` with non-finite parts dropped (all of it when the mean is not finite)."""
    if ratings is None:
        return None
    mean = _finite(ratings.mean, "rating", dropped)
    if mean is None:
        return None
    std, low, high = (_finite(value, "rating", dropped) for value in (ratings.std, ratings.min, ratings.max))
    count = ratings.count
    if count is not None and not 0 <= _whole(count) <= _MAX_INT:
        _drop("rating count out of range", dropped)
        count = None
    checked = Ratings(mean, std, low, high, count, ratings.scale)
    return ratings if checked == ratings and type(ratings.mean) is float else checked


def _short(paper_id: str) -> str:
    text = _text(paper_id)
    return text if len(text) <= 80 else f"{text[:77]}…"
