"""The fields of the filter bar's query language (:mod:`paperdeck.search.query`): which there are,
what values each takes, and which papers a term of each keeps."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from paperdeck.model.decision import decisions_named
from paperdeck.model.paper import STATUSES, Paper, UserData, clean_tag
from paperdeck.search.corpus import SPANS, text_has
from paperdeck.search.query_terms import Lookups, QueryError, Term

if TYPE_CHECKING:  # the masks are numpy's, imported where a term is evaluated: parsing needs none
    import numpy as np

    from paperdeck.model.review import ReviewSummary

QUERY_HELP = """\
Type words to rank papers (typos and prefixes are fine); add terms to filter them:
  title:  author:  keyword:  area:  abstract:  note:   a word start there, e.g. title:diffusion
  title:*lora   anywhere, inside words too;  case and accents never matter
  review:baseline   in the reviews' text (every review and comment of the conference)
  decision:accept (every accepted tier)  decision:reject  decision:cond  (badge words, prefixes)
  tag:must-read  status:to-read  is:starred  is:followed  has:note  has:tags  has:rating
  like:starred  like:ID   rank by likeness to my stars / to a paper (m on a paper)
  rating>=6  rating:5..7  year:2026    (also > < <= = and open ranges rating:6..)
  reviews>=5  spread>=4  rating_min>=6  rating_max<=4  confidence>=4   from the reviews
  soundness>=3  presentation>=3  contribution>=3   reviewers' mean sub-scores
  is:changed  changed:rating  changed:decision   changed by an import since you last opened it
  "graph neural"    a phrase;  title:"large language" a phrase in a field
  -term  NOT term   exactly the rest;  a OR b  either;  ( ) group;  AND is implied
Examples:
  diffusion decision:oral rating>=6
  area:"reinforcement learning" -decision:withdrawn
  (llm OR "language model") is:starred
"""

_TEXT_FIELDS = ("title", "author", "keyword", "area", "abstract", "note", "review")
#: Numbers from a paper's reviews (:class:`paperdeck.model.review.ReviewSummary`, the rating ones
#: also from a source's ratings): how many reviews, max − min, lowest and highest rating, means.
_REVIEW_NUMBERS = ("reviews", "spread", "rating_min", "rating_max", "confidence", "soundness", "presentation",
                   "contribution")  # fmt: skip
_FIELDS = (*_TEXT_FIELDS, "tag", "status", "decision", "is", "has", "rating", "year", "like", "changed",
           *_REVIEW_NUMBERS)  # fmt: skip
_ALIASES = {"authors": "author", "keywords": "keyword", "notes": "note", "tags": "tag", "ratings": "rating",
            "min_rating": "rating_min", "max_rating": "rating_max", "lowest": "rating_min"}  # fmt: skip
_NUMERIC = ("rating", "year", *_REVIEW_NUMBERS)
_HAS = ("note", "tag", "rating")
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_NUMBER = {"rating": _DECIMAL, "year": re.compile(r"\d{1,6}"), "reviews": re.compile(r"\d{1,6}")}
_NUMBER |= {name: _DECIMAL for name in _REVIEW_NUMBERS if name != "reviews"}
_EXAMPLE = {"rating": "rating>=6", "year": "year:2026", "status": "status:to-read", "decision": "decision:accept"}
_EXAMPLE |= {"is": "is:starred", "has": "has:note", "tag": "tag:must-read", "like": "like:starred"}
_EXAMPLE |= {"changed": "changed:rating"}
#: What ``is:`` names: the user's star, or a change since the user last opened the paper.
_IS = ("starred", "changed", "followed")
_EXAMPLE |= {name: f"{name}>=3" for name in _REVIEW_NUMBERS}


_DECISION_HINT = "accept, reject, withdrawn, desk, oral, spotlight, poster, cond, pending, …"


def _choices(name: str, value: str) -> frozenset[str]:
    """The statuses, decisions, ``is:``, ``has:`` or ``changed:`` values ``value`` names: the one it equals, else
    every one it starts (``skim``: skimmed); ``-``, ``_`` and spaces ignored. Decisions: see
    :func:`paperdeck.model.decision.decisions_named` (``accept``: every accepted tier)."""
    if name == "decision":
        if not (named := decisions_named(value)):
            raise QueryError(f"unknown decision '{value}' — try {_DECISION_HINT}")
        return named
    from paperdeck.model.changes import CHANGE_KINDS  # deferred: a query without changed: needs none

    options = {"status": STATUSES, "is": _IS, "has": _HAS, "changed": CHANGE_KINDS}[name]
    key = re.sub(r"[\s_-]", "", value.casefold())
    if name == "has" and len(key) > 1:
        key = key.removesuffix("s")  # has:notes, has:tags, has:ratings
    folded = {option: option.replace("-", "") for option in options}
    exact = [option for option, f in folded.items() if f == key]
    found = exact or [option for option, f in folded.items() if f.startswith(key)]
    if not found:
        listed = ", ".join(options[:6]) + (", …" if len(options) > 6 else "")
        raise QueryError(f"unknown {name} '{value}' — try {listed}")
    return frozenset(found)


def _number_range(name: str, op: str, value: str) -> tuple[float, float]:
    """The closed range ``(low, high)`` a rating or year ``op`` (``>=``, ``>``, ``<=``, ``<``, ``=``,
    ``..``) ``value`` stands for (``>6`` is from the float after 6; open ends are infinite).

    A rating ``=`` matches the mean as shown, to 2 decimals: ``rating=4.67`` is 4.665 up to 4.675.

    Raises:
        QueryError: ``value`` is not a number (a whole one for a year) or a range of them, or is
            a range whose low end is above its high end (``rating:8..3``: the hint names the
            range the other way round, as a typo is not guessed at).
    """

    def number(text: str) -> float:
        if not _NUMBER[name].fullmatch(text):
            raise QueryError(f"{name} needs a {'whole ' if name == 'year' else ''}number, e.g. {_EXAMPLE[name]}")
        return float(text)

    if op == "..":
        low_text, _, high_text = value.partition("..")
        low = number(low_text) if low_text or not high_text else -math.inf
        high = number(high_text) if high_text else math.inf
        if low > high:
            raise QueryError(f"try {name}:{high_text}..{low_text} — a range goes from low to high")
        return low, high
    x = number(value)
    if op == "=":
        return (x, x) if name in ("year", "reviews") else (x - 0.005, math.nextafter(x + 0.005, -math.inf))
    after, before = math.nextafter(x, math.inf), math.nextafter(x, -math.inf)
    return {">=": (x, math.inf), ">": (after, math.inf), "<=": (-math.inf, x)}.get(op, (-math.inf, before))


def _substring(value: str) -> tuple[str, bool]:
    """A text term's value without its ``*`` marks, and whether it is the substring form (a leading
    ``*``: the text may start inside a word). A trailing ``*`` changes nothing: a value always
    matches words it starts."""
    inner = value.startswith("*")
    return value.strip("*"), inner


def _term_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """The papers one term keeps (right at least ``within``, see :func:`_mask`)."""
    import numpy as np

    papers, users, name = lookups.papers, lookups.users, term.field
    if name == "word":
        return lookups.words(term.value)
    if name == "review":
        value, inner = _substring(term.value)
        forums = lookups.review_forums(value, inner)
        return np.fromiter((p.openreview_id in forums for p in papers), dtype=bool, count=len(papers))
    if name in SPANS or name == "note":
        value, inner = _substring(term.value)
        found = np.zeros(len(papers), dtype=bool) if name == "note" else lookups.text(name, value, inner, within)
        if name in ("phrase", "note"):  # in the note too
            for pid, user in users.items():
                if user.note and (n := lookups.position(pid)) is not None and text_has(user.note, value, inner=inner):
                    found[n] = True
        return found
    if name in _NUMERIC:
        low, high = _number_range(name, term.op, term.value)
        if name == "year":
            years = (p.year if p.year is not None else math.nan for p in papers)
            values = np.fromiter(years, dtype=np.float64, count=len(papers))
        elif name in _REVIEW_NUMBERS:
            values = review_numbers(name, papers, lookups.summaries)
        else:
            means = (p.ratings.mean if p.ratings is not None else math.nan for p in papers)
            values = np.fromiter(means, dtype=np.float64, count=len(papers))
        return (values >= low) & (values <= high)  # NaN (none) is neither
    if name == "decision":
        chosen = decisions_named(term.value)
        return np.fromiter((p.decision in chosen for p in papers), dtype=bool, count=len(papers))
    if name == "has" and "rating" in _choices(name, term.value):
        return np.fromiter((p.ratings is not None for p in papers), dtype=bool, count=len(papers))
    if name == "is" and "followed" in _choices(name, term.value):
        followed = lookups.followed()
        return np.fromiter((p.id in followed for p in papers), dtype=bool, count=len(papers))
    if name == "changed" or (name == "is" and "changed" in _choices(name, term.value)):
        from paperdeck.model.changes import CHANGE_KINDS

        kinds = frozenset(CHANGE_KINDS) if name == "is" else _choices(name, term.value)
        found = np.zeros(len(papers), dtype=bool)
        for pid, changed in lookups.changed.items():
            if changed & kinds and (n := lookups.position(pid)) is not None:
                found[n] = True
        return found
    # The rest is the user's: only the papers with a record can differ from one without.
    found = np.zeros(len(papers), dtype=bool)
    keep = _user_test(term)
    if keep(None):
        found[:] = True
    for pid, user in users.items():
        if (n := lookups.position(pid)) is not None:
            found[n] = keep(user)
    return found


def review_number(name: str, paper: Paper, summary: ReviewSummary | None) -> float:
    """A paper's ``name`` (one of the review numbers: ``reviews``, ``spread``, ``rating_min``,
    ``rating_max``, ``confidence``, ``soundness``, ``presentation``, ``contribution``), NaN when
    unknown: from its reviews' summary, else (the rating ones) from its ratings."""
    ratings = paper.ratings
    value: float | None = None
    if summary is not None and summary.count:
        value = {
            "reviews": summary.count,
            "spread": summary.spread,
            "rating_min": summary.min,
            "rating_max": summary.max,
            "confidence": summary.confidence,
        }.get(name, getattr(summary, name, None))
    elif name == "confidence":
        value = paper.confidence
    elif ratings is not None:
        low, high = ratings.min, ratings.max
        value = {
            "reviews": ratings.count,
            "spread": high - low if high is not None and low is not None else None,
            "rating_min": low,
            "rating_max": high,
        }.get(name)
    return math.nan if value is None else float(value)


def review_numbers(name: str, papers: Sequence[Paper], summaries: Mapping[str, ReviewSummary]) -> np.ndarray:
    """:func:`review_number` of every paper, as a float array."""
    import numpy as np

    get = summaries.get
    numbers = (review_number(name, p, get(p.openreview_id) if p.openreview_id else None) for p in papers)
    return np.fromiter(numbers, dtype=np.float64, count=len(papers))


def _user_test(term: Term) -> Callable[[UserData | None], bool]:
    """Whether a paper with the user's record (``None``: none) passes a ``tag:``, ``status:``,
    ``is:`` or ``has:`` term."""
    name, value = term.field, term.value
    if name == "tag":
        tag = clean_tag(value)
        return lambda u: u is not None and any(t.startswith(tag) for t in u.tags)
    chosen = _choices(name, value)
    if name == "status":
        return lambda u: (u.status if u is not None else "unseen") in chosen
    if name == "is":
        return lambda u: u is not None and u.starred
    if "note" in chosen:  # has: names exactly one (they start with different letters)
        return lambda u: u is not None and bool(u.note.strip())
    if "tag" in chosen:
        return lambda u: u is not None and bool(u.tags)
    raise AssertionError(f"has:{value} is not a user's field")


__all__ = ["QUERY_HELP", "review_number", "review_numbers"]
