"""Venues and their rating scales: which venue a paper belongs to, and the scale its ratings are on.

A **venue** is a conference or journal and a year as the source names it (``"COLM 2025"``,
``"ICLR 2017"``, ``"TMLR"``): :func:`venue_of` gives a paper's, ``""`` when unknown. Papers of
different venues are never pooled in a mean, a percentile or a chart.

A **scale** (:class:`Scale`) is the set of values a venue's reviewers could choose: ICLR 2026
rates 0, 2, 4, 6, 8 or 10; ICLR 2017 and COLM 2025 rate 1–10; ICLR 2022–2025 1, 3, 5, 6, 8, 10.
How a paper's scale is found (:func:`scale_of`), first that applies:

1. the scale recorded at import on its ratings (:attr:`paperdeck.model.paper.Ratings.scale`,
   see :func:`file_scale`);
2. the venue's known scale (:data:`KNOWN_SCALES`, :func:`known_scale`);
3. none (``None``): the ratings are shown as they are, without a ``/10``.

At import (:func:`file_scale`) the values a file gives for one venue decide: on the venue's known
scale they take it; off it (a 7 in an ICLR 2026 file, a 12 in a 1–10 venue) the file mixes scales
and is refused; for a venue with no known scale the scale is inferred from the values seen
(:func:`inferred_scale`).

A scale is written as text (:meth:`Scale.text`): ``"1-10"`` for every whole number from 1 to 10,
``"0, 2, 4, 6, 8, 10"`` for a list of choices; :meth:`Scale.parse` reads both (and ``"1–10"``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from paperdeck.model.rating_text import mean_text
from paperdeck.values import FrozenValue

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper

__all__ = [
    "KNOWN_SCALES",
    "NO_RATINGS",
    "NO_VENUE",
    "Scale",
    "ScaleError",
    "file_scale",
    "group_scale",
    "inferred_scale",
    "known_scale",
    "mean_text",
    "scale_of",
    "venue_group",
    "venue_of",
]

#: How the papers of no known venue are named where venues are listed.
NO_VENUE = "(venue unknown)"
#: What a venue none of whose papers has a rating shows where its scale would be: a scale known
#: for the venue (NeurIPS 2018's 1–10) is not shown, as it would say the papers were rated on it.
NO_RATINGS = "no ratings"

_TOLERANCE = 1e-6


class ScaleError(ValueError):
    """A rating that is not on the scale its venue rates on (the message says which and where)."""


class Scale(FrozenValue):
    """The values a reviewer of a venue could choose, ascending (at least two).

    Immutable, compared and hashed by its values, as a frozen dataclass is
    (:class:`~paperdeck.values.FrozenValue`: this module is imported before the first paint,
    where making a dataclass would cost more than the rest of the module).

    Attributes:
        values: the choices, ascending: ``(0.0, 2.0, 4.0, 6.0, 8.0, 10.0)``; a range ``1-10`` holds
            every whole number of it.
    """

    __slots__ = ("values",)
    FIELDS = ("values",)

    values: tuple[float, ...]

    def __init__(self, values: tuple[float, ...]) -> None:
        object.__setattr__(self, "values", values)

    @property
    def low(self) -> float:
        """The lowest choice."""
        return self.values[0]

    @property
    def high(self) -> float:
        """The highest choice."""
        return self.values[-1]

    @property
    def is_range(self) -> bool:
        """Every whole number from :attr:`low` to :attr:`high` is a choice."""
        return self.values == tuple(float(v) for v in range(int(self.low), int(self.high) + 1))

    def text(self) -> str:
        """As stored: ``"1-10"`` for a range, else the choices ``"0, 2, 4, 6, 8, 10"``."""
        if self.is_range:
            return f"{_number(self.low)}-{_number(self.high)}"
        return ", ".join(map(_number, self.values))

    @property
    def label(self) -> str:
        """As shown: ``"1–10"`` (an en dash) for a range, else the choices."""
        return self.text().replace("-", "–") if self.is_range else self.text()

    def holds(self, value: float) -> bool:
        """Whether ``value`` is one of the choices (a reviewer's rating on this scale)."""
        return any(abs(value - choice) <= _TOLERANCE for choice in self.values)

    def spans(self, value: float) -> bool:
        """Whether ``value`` lies from :attr:`low` to :attr:`high` (a mean on this scale)."""
        return self.low - _TOLERANCE <= value <= self.high + _TOLERANCE

    def out_of(self, mean: float) -> str:
        """A mean with its scale's top (:func:`mean_text`): ``"6.5/10"``, ``"10/10"``, ``"3.2/5"``."""
        return mean_text(mean, self)

    def to_dict(self) -> dict[str, Any]:
        """For ``--json``: ``{"scale": "1-10", "low": 1, "high": 10, "values": [...]}``."""
        return {"scale": self.text(), "low": self.low, "high": self.high, "values": list(self.values)}

    @staticmethod
    def parse(text: str) -> Scale | None:
        """The scale written ``text`` (:meth:`text`, or with an en dash); ``None`` when it is no scale
        (empty, one value, not numbers, not ascending, a range of more than 100 values)."""
        return _parse(text)


@lru_cache(maxsize=64)
def _parse(text: str) -> Scale | None:
    if not isinstance(text, str) or not text.strip():
        return None
    match = _range().match(text)
    try:
        if match:
            low, high = float(match.group(1)), float(match.group(2))
            if low != int(low) or high != int(high) or not 0 < high - low <= 100:
                return None
            values = tuple(float(v) for v in range(int(low), int(high) + 1))
        else:
            values = tuple(float(part) for part in text.split(","))
    except ValueError:
        return None
    if len(values) < 2 or not all(map(math.isfinite, values)) or list(values) != sorted(set(values)):
        return None
    return Scale(values)


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _key(venue: str) -> str:
    return re.sub(r"[^a-z0-9]", "", venue.casefold())


_ONE_TO_TEN = "1-10"
_ICLR_2022 = "1, 3, 5, 6, 8, 10"
#: The rating scales venues are known to have used, by venue (case and punctuation ignored) and
#: year: the scale of a venue's overall recommendation (``rating``). Sources: each venue's
#: review form on OpenReview (ICLR 2026: 0, 2, 4, 6, 8, 10, ``../reviews/README.md``).
KNOWN_SCALES: dict[tuple[str, int], str] = {
    **{("iclr", year): _ONE_TO_TEN for year in range(2017, 2022)},
    ("iclr", 2022): _ICLR_2022,
    ("iclr", 2023): _ICLR_2022,
    ("iclr", 2024): _ICLR_2022,
    ("iclr", 2025): _ICLR_2022,
    ("iclr", 2026): "0, 2, 4, 6, 8, 10",
    ("colm", 2024): _ONE_TO_TEN,
    ("colm", 2025): _ONE_TO_TEN,
    **{("neurips", year): _ONE_TO_TEN for year in range(2018, 2023)},
}


@cache
def _range() -> re.Pattern[str]:
    """A scale written as a range (``"1-10"``, ``"1–10"``), compiled at its first call."""
    return re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[-–]\s*(-?\d+(?:\.\d+)?)\s*$")


@cache
def _group_year() -> re.Pattern[str]:
    """An OpenReview group's venue and year (``"ICLR.cc/2026/Conference"``), compiled at its first call."""
    return re.compile(r"^(?:.*/)?([^/]+)/((?:19|20)\d{2})(?:/|$)")


@lru_cache(maxsize=256)
def group_scale(group: str) -> Scale | None:
    """The known scale of the venue an OpenReview group names (``"ICLR.cc/2017/Conference"``,
    ``"colmweb.org/COLM/2025/Conference"``: the part before the year, less ``.cc`` / ``.org``,
    and the year); ``None`` when it names none or its scale is not known."""
    match = _group_year().match(group)
    if match is None:
        return None
    name = re.sub(r"\.(?:cc|org|com|net)$", "", match.group(1), flags=re.IGNORECASE)
    return known_scale(name, int(match.group(2)))


def venue_group(venue: str, year: int | None) -> str:
    """The group a venue's reviews name where their file gives none (a Paper Copilot list:
    ``"COLM/2025/Conference"``, read back by :func:`group_scale` and :func:`group_name`); ``""``
    without a venue or a year. A paper's summary ranks it among the papers of its group."""
    return f"{venue}/{year}/Conference" if venue and year else ""


@lru_cache(maxsize=256)
def group_name(group: str) -> str:
    """The venue an OpenReview group names as the user reads it: ``"ICLR.cc/2026/Conference"`` →
    ``"ICLR 2026"``, ``"colmweb.org/COLM/2025/Conference"`` → ``"COLM 2025"`` (the part before the
    year, less ``.cc`` / ``.org``, and the year); a group naming no year is shown whole. Safe text
    on one line (:func:`~paperdeck.model.safe_text.one_line`: the group is read from a file); ``""``
    for ``""``."""
    from paperdeck.model.safe_text import one_line

    match = _group_year().match(group)
    if match is None:
        return one_line(group)
    name = re.sub(r"\.(?:cc|org|com|net)$", "", match.group(1), flags=re.IGNORECASE)
    return one_line(f"{name} {match.group(2)}")


def venue_of(paper: Paper) -> str:
    """The paper's venue as the library groups papers: ``"ICLR 2026"``, ``"TMLR"``; ``""`` when
    neither venue nor year is known (:attr:`Paper.library_venue
    <paperdeck.model.paper.Paper.library_venue>`, the venue scope's name for it too)."""
    return paper.library_venue


def known_scale(venue: str, year: int | None) -> Scale | None:
    """The scale ``venue`` rated on in ``year`` when known (:data:`KNOWN_SCALES`), else ``None``."""
    if year is None:
        return None
    text = KNOWN_SCALES.get((_key(venue), year))
    return Scale.parse(text) if text else None


#: Tops an inferred scale is rounded up to (the scales venues use).
_TOPS = (4, 5, 7, 10)


def inferred_scale(values: Iterable[float]) -> Scale | None:
    """The whole-number range the ratings ``values`` (a venue's, from one file) lie on: from 0 when
    one is below 1, else from 1, up to the first of 4, 5, 7, 10 at least the highest (else that
    highest, rounded up); ``None`` without values or for a negative one."""
    seen = [v for v in values if math.isfinite(v)]
    if not seen or min(seen) < 0:
        return None
    low = 0 if min(seen) < 1 else 1
    top = max(seen)
    high = next((t for t in _TOPS if t >= top), math.ceil(top))
    if high - low > 100:
        return None
    return Scale(tuple(float(v) for v in range(low, max(high, low + 1) + 1)))


def scale_of(paper: Paper) -> Scale | None:
    """The scale ``paper``'s ratings are on (see the module docstring), ``None`` when unknown."""
    ratings = paper.ratings
    if ratings is not None and ratings.scale:
        recorded = Scale.parse(ratings.scale)
        if recorded is not None:
            return recorded
    return known_scale(paper.venue, paper.year)


def file_scale(
    venue: str, year: int | None, ratings: Iterable[tuple[str, float | None, float | None, float | None]]
) -> Scale | None:
    """The scale of one venue's ratings in one file: the venue's known scale, else the one the
    values infer (:func:`inferred_scale`); ``None`` without ratings.

    Args:
        venue, year: the venue (``"ICLR"``, 2026).
        ratings: ``(where, mean, min, max)`` of each rated paper; ``where`` names the record in
            an error (``"paper 12 (openreview:abc)"``); ``min``/``max`` are ``None`` when the
            source gave only a mean.

    Raises:
        ScaleError: a rating is off the venue's known scale (a per-review rating that is none of
            its choices, a mean outside its range): the file mixes scales. The message names the
            record, the value and the scale.
    """
    known = known_scale(venue, year)
    seen: list[float] = []
    name = " ".join(part for part in (venue, str(year or "")) if part) or "this venue"
    for where, mean, low, high in ratings:
        for value in (low, high):
            if value is None:
                continue
            if known is not None and not known.holds(value):
                raise ScaleError(f"{where}: rating {_number(value)} is not on {name}'s scale "
                                 f"({known.label}): the file mixes scales")  # fmt: skip
            seen.append(value)
        if mean is not None:
            if known is not None and not known.spans(mean):
                raise ScaleError(f"{where}: mean rating {_number(mean)} is outside {name}'s scale "
                                 f"({known.label}): the file mixes scales")  # fmt: skip
            if low is None:
                seen.append(mean)
    if not seen:
        return None
    return known or inferred_scale(seen)
