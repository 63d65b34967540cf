"""The fields of the filter bar's query language (:mod:`paperdeck.search.query`), declared once in
:data:`FIELDS`: each field's name and aliases, the kind of value it takes, an example, what it does,
and which papers a term of it keeps. The parser's dispatch (:func:`field_named`), its hints, the
help (:data:`QUERY_HELP`) and the docs' page (:func:`query_markdown`) are derived from it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias

from paperdeck.model.decision import decisions_named
from paperdeck.model.user import STATUSES, clean_tag
from paperdeck.search.corpus import text_has
from paperdeck.search.query_terms import Lookups, QueryError, Term

if TYPE_CHECKING:  # the masks are numpy's, imported where a term is evaluated: parsing needs none
    import numpy as np

    from paperdeck.model.paper import Paper, UserData
    from paperdeck.model.review_summary import ReviewSummary
    from paperdeck.model.schedule import ScheduleEvent

#: Which papers a term keeps: one bool per paper of ``lookups.papers``, right at least for the
#: papers ``within`` (``None``: all; the others may be anything).
Evaluator: TypeAlias = Callable[[Term, Lookups, "np.ndarray | None"], "np.ndarray"]
#: What a field's value is: ``"text"`` (matched from a word start, or anywhere after a ``*``),
#: ``"number"`` (compared: ``>=``, ``>``, ``<=``, ``<``, ``=``, ranges ``a..b``), ``"choice"`` (one
#: of a few names, or the start of one), ``"tag"`` (a tag's start), ``"like"`` (a paper to rank by
#: likeness to: not a filter) or ``"when"`` (a day or a time range of a programme's events,
#: checked by :func:`when_value`).
Kind: TypeAlias = Literal["text", "number", "choice", "tag", "like", "when"]

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_WHOLE = re.compile(r"\d{1,6}")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the query language.

    Attributes:
        name: as typed before ``:`` (lower case).
        kind: what its value is (:data:`Kind`).
        example: a term of it, given in the hint when a value is missing or malformed.
        help: what a term of it keeps, one Markdown sentence (the docs' page).
        evaluate: which papers a term of it keeps.
        aliases: other names typed for it (``authors:``).
        usage: the terms the help (:data:`QUERY_HELP`) shows for it (default: ``example``).
        hint: the help's note after them; fields in a row with the same hint share its line.
        number: a number field's value, as a pattern (a whole number is equal exactly, a decimal
            to the 2 decimals shown).
        needs: a number field's value, as the hint says it (``"a whole number"``).
        cost: how dear a term of it is to evaluate, relatively (cheap terms first under ``AND``).
    """

    name: str
    kind: Kind
    example: str
    help: str
    evaluate: Evaluator
    aliases: tuple[str, ...] = ()
    usage: str = ""
    hint: str = ""
    number: re.Pattern[str] | None = None
    needs: str = "a number"
    cost: int = 1


@dataclass(frozen=True, slots=True)
class Syntax:
    """A piece of the query language that is no field: ``usage`` and ``hint`` as the help shows
    them (on the line after field ``after``'s, or at the end when ``""``), ``help`` as the docs'
    page says it (Markdown)."""

    usage: str
    hint: str
    help: str
    after: str = ""


def unknown_field_note(typed: str, op: str = ":") -> str | None:
    """What the counts say of a word typed as a field term but searched as text: ``typed:`` (a
    word before a colon that is no field) names the nearest field when one is close (``venu:`` →
    ``venue:``), else every field; ``typed OP`` (a comparison, ``ratng>=6``) names the nearest
    field that compares so (``ratng>=: did you mean rating>=?``; ``!=`` is ``-rating=``), and is
    ``None`` when none is close (``p<0.05`` is text, said nothing of). Close is
    :func:`difflib.get_close_matches`' ratio of 0.7 or more over the fields' names and aliases, and
    a typo or two from the field (:func:`within_a_typo`)."""
    field = field_named(typed)
    if op == "!=":  # no comparison of the language: "not equal" is the negated term
        meant = field.name if field is not None else _near(typed, number=False)
        if meant is None:
            return None
        return f"{'unknown comparison' if field is not None else 'unknown field'} {typed}!=: did you mean -{meant}=?"
    if op != ":":
        if field is not None:  # a field that took it would have made it a term, not text
            return None
        meant = _near(typed, number=op != "=")
        return None if meant is None else f"unknown field {typed}{op}: did you mean {meant}{op}?"
    meant = _closest(typed, [name for name in _BY_NAME if "_" not in name or name in {f.name for f in FIELDS}])
    if meant is not None:
        return f"unknown field {typed}: did you mean {meant}:?"
    return f"unknown field {typed}: fields are " + " ".join(f"{field.name}:" for field in FIELDS)


def meant_field(typed: str, op: str = ":") -> str | None:
    """The field a word typed as a field term most likely meant, as :func:`unknown_field_note`
    names it (``decison`` ``:`` → ``"decision"``, ``ratng`` ``>=`` → ``"rating"``, ``rating``
    ``!=`` → ``"rating"``: its ``-rating=``); ``None`` when no field is close."""
    field = field_named(typed)
    if op == "!=":
        return field.name if field is not None else _near(typed, number=False)
    if field is not None:
        return None
    if op != ":":
        return _near(typed, number=op != "=")
    return _closest(typed, [name for name in _BY_NAME if "_" not in name or name in {f.name for f in FIELDS}])


def within_a_typo(typed: str, meant: str) -> bool:
    """Whether ``typed`` is the name or an alias of the field ``meant`` with a typo or two: at
    most one edit (an insertion, deletion, substitution or swap of two neighbours: optimal string
    alignment distance) for a name of up to four letters, two for a longer one (``decison`` →
    ``decision``, ``yaer`` → ``year``; ``vision`` is three from ``session``). Closer than
    :func:`difflib.get_close_matches`' ratio alone: ``vision`` is close to ``decision`` by it."""
    from rapidfuzz.distance import OSA

    field = _BY_NAME.get(meant.casefold())
    if field is None:
        return False
    allowed = 1 if len(typed) <= 4 else 2
    names = (field.name, *field.aliases)
    return any(OSA.distance(typed.casefold(), name, score_cutoff=allowed) <= allowed for name in names)


def _near(typed: str, number: bool) -> str | None:
    """The name of the field whose name or alias is closest to ``typed`` (ratio 0.7 or more), of
    the number fields only when ``number``; ``None`` when none is close."""

    return _closest(typed, [name for name, field in _BY_NAME.items() if not number or field.kind == "number"])


def _closest(typed: str, names: list[str]) -> str | None:
    """The field named by the one of ``names`` (names and aliases) closest to ``typed`` by
    :func:`difflib.get_close_matches`' ratio (0.7 or more), if ``typed`` is a typo or two from that
    field (:func:`within_a_typo`: ``vision`` is close to ``decision`` by the ratio, three edits
    away, so no field is meant); ``None`` otherwise."""
    import difflib

    near = difflib.get_close_matches(typed.casefold(), names, n=1, cutoff=0.7)
    if not near or not within_a_typo(typed, _BY_NAME[near[0]].name):
        return None
    return _BY_NAME[near[0]].name


def short_note(note: str) -> str:
    """The short form of a query's note (:func:`unknown_field_note`'s: without the fields'
    list) for counts with little room; ``""`` when it has none."""
    head, sep, _ = note.partition(": fields are ")
    if sep:
        return head + ":"
    head, sep, rest = note.partition(": did you mean ")
    return f"{head.removeprefix('unknown field ').removeprefix('unknown comparison ')}: → {rest}" if sep else ""


def field_named(typed: str) -> Field | None:
    """The field ``typed`` names (its name or an alias, any case), ``None`` when none: then the
    term is text (``dpo:`` is the word ``dpo``)."""
    return _BY_NAME.get(typed.casefold())


# --- what a term of each field keeps ------------------------------------------------------------


def _substring(value: str) -> tuple[str, bool]:
    """A text term's value without its ``*`` marks, and whether it is the substring form (a leading
    ``*``: the text may start inside a word). A trailing ``*`` changes nothing: a value always
    matches words it starts."""
    inner = value.startswith("*")
    return value.strip("*"), inner


def _in_notes(found: np.ndarray, value: str, inner: bool, lookups: Lookups) -> np.ndarray:
    """``found`` with the papers whose note has ``value`` (see :func:`_substring`) set too."""
    for pid, user in lookups.users.items():
        if user.note and (n := lookups.position(pid)) is not None and text_has(user.note, value, inner=inner):
            found[n] = True
    return found


def _text_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """A paper field's text (title, author, keyword, area, abstract) or a phrase (also in the note)."""
    value, inner = _substring(term.value)
    found = lookups.text(term.field, value, inner, within)
    return _in_notes(found, value, inner, lookups) if term.field == "phrase" else found


def _note_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    value, inner = _substring(term.value)
    return _in_notes(np.zeros(len(lookups.papers), dtype=bool), value, inner, lookups)


def _review_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    papers = lookups.papers
    forums = lookups.review_forums(*_substring(term.value))
    return np.fromiter((p.openreview_id in forums for p in papers), dtype=bool, count=len(papers))


def _in_range(term: Term, values: np.ndarray) -> np.ndarray:
    low, high = number_range(term.field, term.op, term.value)
    return (values >= low) & (values <= high)  # NaN (none) is neither


def _rating_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    papers = lookups.papers
    means = (p.ratings.mean if p.ratings is not None else math.nan for p in papers)
    return _in_range(term, np.fromiter(means, dtype=np.float64, count=len(papers)))


def venue_compact(label: str) -> str:
    """A venue's compact form: its name lower-cased with the spaces removed (``"ICLR 2017"`` →
    ``iclr2017``), the spelling ``paperdeck fetch`` names venues by; ``venue:iclr2017`` finds it."""
    return "".join(label.split()).casefold()


def venue_matcher(value: str) -> Callable[[str], bool]:
    """Whether a venue label (``"ICLR 2017"``; ``""``: none, never matched) has a ``venue:``
    term's ``value``: from a word start (``*``: anywhere), or by its compact form
    (:func:`venue_compact`: ``iclr2017``, ``iclr201``). A venue's other name finds it too
    (``venue:nips`` and ``venue:nips2018`` NeurIPS: :func:`paperdeck.model.ids.canonical_venue_label`)."""
    from paperdeck.model.ids import canonical_venue_label

    value, inner = _substring(value)
    values = dict.fromkeys((value, canonical_venue_label(value)))
    spaced = re.sub(r"(?<=[^\d\s])(?=\d+$)", " ", value.strip())  # nips2018 → nips 2018: its other name
    compacts = {venue_compact(one) for one in (*values, canonical_venue_label(spaced))} - {""}

    def matches(label: str) -> bool:
        if not label:
            return False
        if any(text_has(label, one, inner=inner) for one in values):
            return True
        compact = venue_compact(label)
        return any((one in compact) if inner else compact.startswith(one) for one in compacts)

    return matches


def _venue_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """The papers whose venue (``"ICLR 2017"``) has the value (:func:`venue_matcher`): each
    distinct venue is matched once."""
    import numpy as np

    from paperdeck.search.venue_ranks import venue_labels

    matches = venue_matcher(term.value)
    labels = venue_labels(lookups.papers)
    matched = {label: matches(label) for label in set(labels)}
    return np.fromiter(map(matched.__getitem__, labels), dtype=bool, count=len(labels))


def _rating_pct_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    from paperdeck.search.venue_ranks import rating_percentiles

    return _in_range(term, rating_percentiles(lookups.papers))


def _year_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    papers = lookups.papers
    years = (p.year if p.year is not None else math.nan for p in papers)
    return _in_range(term, np.fromiter(years, dtype=np.float64, count=len(papers)))


def _review_number_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    return _in_range(term, review_numbers(term.field, lookups.papers, lookups.summaries))


def _move_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """``moved:``/``review_moved:`` ``up``, ``down`` or ``any`` (see :func:`rating_moves`)."""
    import numpy as np

    moves = rating_moves(lookups.papers, lookups.summaries)
    chosen = choices(term.field, term.value)
    if term.field == "moved":
        delta = moves.delta  # NaN (no ratings) is neither above nor below 0
        return (delta > 0) if "up" in chosen else (delta < 0) if "down" in chosen else (np.abs(delta) > 0)
    return moves.review_up if "up" in chosen else moves.review_down if "down" in chosen else moves.review_any


def _move_number_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    moves = rating_moves(lookups.papers, lookups.summaries)
    return _in_range(term, moves.initial if term.field == "rating_initial" else moves.delta)


class RatingMoves(NamedTuple):
    """How each paper's ratings moved during the discussion, one value per paper of a sequence
    (numpy arrays, float64 or bool).

    Attributes:
        initial: the mean of each official review's first rating
            (:attr:`~paperdeck.model.review_summary.ReviewSummary.rating_initial`); NaN without reviews.
        delta: current mean − ``initial``
            (:attr:`~paperdeck.model.review_summary.ReviewSummary.rating_delta`); NaN without reviews.
        review_up, review_down: a review's current rating is above (below) its first.
        review_any: a review's rating took more than one value (even when it came back).
    """

    initial: np.ndarray
    delta: np.ndarray
    review_up: np.ndarray
    review_down: np.ndarray
    review_any: np.ndarray


#: The last :func:`rating_moves` made, with what it was made of (a query over a whole conference
#: asks for it at every keystroke: the columns are made once per catalogue and summaries).
_MOVES: list[tuple[Sequence[Paper], int, Mapping[str, ReviewSummary], int, RatingMoves]] = []


def rating_moves(papers: Sequence[Paper], summaries: Mapping[str, ReviewSummary]) -> RatingMoves:
    """The :class:`RatingMoves` columns of ``papers`` from their reviews' ``summaries`` (by forum
    id), made once for equal papers and the same summaries object (of the same length) and reused."""
    import numpy as np

    for made_papers, papers_len, made_summaries, summaries_len, moves in _MOVES:
        # The store gives a new list of the same papers each time: equal lists hold the same
        # objects, which the comparison sees at once (it compares objects only when they differ).
        same_summaries = made_summaries is summaries and summaries_len == len(summaries)
        if same_summaries and papers_len == len(papers) and made_papers == papers:
            return moves
    count = len(papers)
    initial = np.full(count, math.nan)
    delta = np.full(count, math.nan)
    up, down, any_ = (np.zeros(count, dtype=bool) for _ in range(3))
    get = summaries.get
    for n, paper in enumerate(papers):
        forum = paper.openreview_id
        summary = get(forum) if forum else None
        if summary is None or summary.mean is None:
            continue
        firsts = summary.initial_ratings
        any_[n] = summary.moved > 0
        if not firsts:
            initial[n], delta[n] = summary.mean, 0.0
            continue
        initial[n] = summary.rating_initial
        delta[n] = summary.rating_delta
        pairs = list(zip(firsts, summary.ratings, strict=False))
        up[n] = any(now > first for first, now in pairs)
        down[n] = any(now < first for first, now in pairs)
    moves = RatingMoves(initial, delta, up, down, any_ | up | down)
    _MOVES[:] = [(list(papers), count, summaries, len(summaries), moves)]
    return moves


def first_means_of(papers: Sequence[Paper], summaries: Mapping[str, ReviewSummary]) -> dict[str, float]:
    """The papers whose mean rating moved during the discussion, by paper id, with the mean of
    each review's first rating (:attr:`~paperdeck.model.review_summary.ReviewSummary.rating_initial`)."""
    found: dict[str, float] = {}
    get = summaries.get
    for paper in papers:
        summary = get(paper.openreview_id) if paper.openreview_id else None
        if summary is not None and summary.initial_ratings and summary.rating_delta:
            initial = summary.rating_initial
            if initial is not None:
                found[paper.id] = initial
    return found


def _decision_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    papers, chosen = lookups.papers, decisions_named(term.value)
    return np.fromiter((p.decision in chosen for p in papers), dtype=bool, count=len(papers))


def _changed_in(kinds: frozenset[str], lookups: Lookups) -> np.ndarray:
    """The papers an import changed in one of ``kinds`` since the user last opened them."""
    import numpy as np

    found = np.zeros(len(lookups.papers), dtype=bool)
    for pid, changed in lookups.changed.items():
        if changed & kinds and (n := lookups.position(pid)) is not None:
            found[n] = True
    return found


def _changed_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    return _changed_in(choices("changed", term.value), lookups)


def _is_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    chosen, papers = choices("is", term.value), lookups.papers
    if "followed" in chosen:
        followed = lookups.followed()
        return np.fromiter((p.id in followed for p in papers), dtype=bool, count=len(papers))
    if "changed" in chosen:
        from paperdeck.model.changes import CHANGE_KINDS

        return _changed_in(frozenset(CHANGE_KINDS), lookups)
    return _user_mask(term, lookups, within)


def _has_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    import numpy as np

    papers = lookups.papers
    if "rating" in choices("has", term.value):
        return np.fromiter((p.ratings is not None for p in papers), dtype=bool, count=len(papers))
    return _user_mask(term, lookups, within)


def _user_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """A term on the user's records: only the papers with a record can differ from one without."""
    import numpy as np

    found = np.zeros(len(lookups.papers), dtype=bool)
    keep = _user_test(term)
    if keep(None):
        found[:] = True
    for pid, user in lookups.users.items():
        if (n := lookups.position(pid)) is not None:
            found[n] = keep(user)
    return found


def _user_test(term: Term) -> Callable[[UserData | None], bool]:
    """Whether a paper with the user's record (``None``: none) passes a ``tag:``, ``status:``,
    ``is:starred`` or ``has:`` (note, tags) term."""
    name, value = term.field, term.value
    if name == "tag":
        from paperdeck.search.words import unspaced

        tag = clean_tag(value)
        if unspaced(tag):  # a script without spaces has no word starts: anywhere in a tag
            return lambda u: u is not None and any(tag in t for t in u.tags)
        return lambda u: u is not None and any(t.startswith(tag) for t in u.tags)
    chosen = choices(name, value)
    if name == "status":
        return lambda u: (u.status if u is not None else "unseen") in chosen
    if name == "is":
        return lambda u: u is not None and u.starred
    if "note" in chosen:  # has: names exactly one (they start with different letters)
        return lambda u: u is not None and bool(u.note.strip())
    if "tag" in chosen:
        return lambda u: u is not None and bool(u.tags)
    raise AssertionError(f"has:{value} is not a user's field")


def _events_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """A term on the papers' programme events (``session:``, ``room:``, ``day:``, ``time:``): the
    papers with an event that passes it."""
    import numpy as np

    found = np.zeros(len(lookups.papers), dtype=bool)
    keep = _event_test(term)
    for pid, events in lookups.events.items():
        if (n := lookups.position(pid)) is not None and any(keep(event) for event in events):
            found[n] = True
    return found


def _event_test(term: Term) -> Callable[[ScheduleEvent], bool]:
    """Whether an event passes a ``session:``, ``room:``, ``day:`` or ``time:`` term (days and
    times are the venue's, as the programme gives them)."""
    if term.field in ("session", "room"):
        value, inner = _substring(term.value)
        if term.field == "session":
            return lambda e: text_has(e.session, value, inner=inner)
        # the room and the poster position each on its own: a phrase never runs from one into the
        # other (`room:"Pavilion 4 & 5"` is not room "Pavilion 4" at poster "#5")
        return lambda e: text_has(e.room, value, inner=inner) or text_has(e.poster, value, inner=inner)
    if term.field == "day":
        wanted = when_value("day", term.value)
        return lambda e: any(_day_matches(day, wanted) for day in e.days())
    low, high = when_value("time", term.value)
    assert isinstance(low, int) and isinstance(high, int)

    def running(event: ScheduleEvent) -> bool:
        start, end = event.starts, event.ends
        if start is None or end is None:
            return False
        first = start.hour * 60 + start.minute
        last = first + max(1, int((end - start).total_seconds() // 60))  # past 24 h: across midnight
        windows = ((low - 1440, high - 1440), (low, high), (low + 1440, high + 1440))  # the days before, after
        return any(first < hi and lo < last for lo, hi in windows)

    return running


#: Weekday names as ``day:`` takes them, Monday first (a prefix of two letters or more names one).
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DATE = re.compile(r"(?:(\d{4})-)?(\d{1,2})-(\d{1,2})")
_CLOCK = re.compile(r"(\d{1,2})(?:[:h.](\d{2}))?")


def _day_matches(day: str, wanted: tuple[object, object]) -> bool:
    """Whether the ISO date ``day`` is the weekday or date :func:`when_value` read."""
    from datetime import date

    kind, value = wanted
    if kind == "weekday":
        return date.fromisoformat(day).weekday() == value
    assert isinstance(value, tuple)
    year, month_day = value
    return day[5:] == month_day and (year is None or day[:4] == year)


def when_value(name: str, value: str) -> tuple[object, object]:
    """A ``day:`` or ``time:`` value, read: ``day:`` a weekday (``thu``, ``Thursday``; two letters
    or more) → ``("weekday", 3)``, or a date (``2026-04-23``, ``04-23``) → ``("date", (year or
    None, "04-23"))``; ``time:`` a clock time (``14``, ``14:30``: the events running then) or a
    range (``10..12``, ``9:30..``, ``..11``: the events overlapping it) → ``(low, high)`` in minutes
    after midnight, the venue's; a range past midnight is the night (``22..2`` → ``(1320, 1560)``,
    22:00 to 02:00 the next day).

    Raises:
        QueryError: not a weekday, a date, a time or a range (the hint gives an example).
    """
    text = value.strip().casefold()
    if name == "day":
        key = re.sub(r"[^a-z]", "", text)
        if len(key) >= 2 and key == text and (days := [n for n, d in enumerate(_WEEKDAYS) if d.startswith(key)]):
            return "weekday", days[0]
        match = _DATE.fullmatch(text)
        if match and 1 <= int(match[2]) <= 12 and 1 <= int(match[3]) <= 31:
            return "date", (match[1], f"{int(match[2]):02d}-{int(match[3]):02d}")
        raise QueryError(f"day needs a weekday or a date, e.g. day:thu or day:2026-04-23 (not '{value}')")

    def minutes(part: str, default: int) -> int:
        if not part:
            return default
        match = _CLOCK.fullmatch(part)
        if match is None or int(match[1]) > 24 or int(match[2] or 0) > 59:
            raise QueryError(f"time needs a time or a range, e.g. time:14 or time:10:30..12 (not '{value}')")
        return int(match[1]) * 60 + int(match[2] or 0)

    if ".." in text:
        low_text, _, high_text = text.partition("..")
        if not low_text and not high_text:
            raise QueryError("time needs a time or a range, e.g. time:14 or time:10:30..12")
        low, high = minutes(low_text, 0), minutes(high_text, 1440)
        if low == high:
            raise QueryError(f"time:{value} is no range: give two different times, e.g. time:10..12")
        return low, (high if low < high else high + 1440)  # a range past midnight is the night
    at = minutes(text, 0)
    return at, at + 1


def _id_keys(value: str) -> tuple[frozenset[str], frozenset[str]]:
    """The ids ``value`` (an id, a canonical id or a link) names: as written (OpenReview ids and
    canonical ids are case-sensitive) and case-folded (arXiv ids, DOIs)."""
    from paperdeck.model.ids import arxiv_id, openreview_id_from_url

    value = value.strip().strip("<>")
    exact = {value}
    folded: set[str] = set()
    if (forum := openreview_id_from_url(value)) != "":
        exact.add(forum)
    kind, _, rest = value.partition(":")
    if kind.casefold() in ("openreview", "arxiv", "doi") and rest and not rest.startswith("//"):
        exact.add(rest)
    if "doi.org/" in value.casefold():
        folded.add(value.casefold().split("doi.org/", 1)[1])
    if kind.casefold() == "doi":
        folded.add(rest.casefold())
    if (arxiv := arxiv_id(value)) != "":
        folded.add(arxiv.casefold())
    return frozenset(exact), frozenset(folded)


def _id_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """The paper ``id:`` names: by its OpenReview forum id, its arXiv id, its DOI or its
    canonical id, given as such or as a link (``https://openreview.net/forum?id=X``)."""
    import numpy as np

    exact, folded = _id_keys(term.value)
    papers = lookups.papers

    def named(paper: Paper) -> bool:
        if paper.id in exact or paper.openreview_id in exact or f"openreview:{paper.openreview_id}" in exact:
            return True
        return bool(folded) and (paper.arxiv_id.casefold() in folded or paper.doi.casefold() in folded)

    found = np.fromiter(map(named, papers), dtype=bool, count=len(papers))
    if found.any():
        return found
    # OpenReview ids are case-sensitive, but one typed or pasted in another case (a lower-cased
    # link) means the paper whose id it is but for case: found when no id is it exactly.
    lowered = frozenset(key.casefold() for key in exact)

    def named_but_for_case(paper: Paper) -> bool:
        return paper.id.casefold() in lowered or (
            paper.openreview_id != ""
            and (paper.openreview_id.casefold() in lowered or f"openreview:{paper.openreview_id}".casefold() in lowered)
        )

    return np.fromiter(map(named_but_for_case, papers), dtype=bool, count=len(papers))


def _ranks_only(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    raise AssertionError("like: ranks, it is no filter (parse_query keeps it out of the tree)")


def term_mask(term: Term, lookups: Lookups, within: np.ndarray | None) -> np.ndarray:
    """The papers one term keeps, right at least for the papers ``within`` (``None``: all): a word
    as the ranking finds it, a phrase in the texts and the note, a field's term by its
    :attr:`Field.evaluate`."""
    if term.field == "word":
        return lookups.words(term.value)
    if term.field == "phrase":
        return _text_mask(term, lookups, within)
    return _BY_NAME[term.field].evaluate(term, lookups, within)


def term_cost(term: Term) -> int:
    """How dear ``term`` is to evaluate, relatively: the papers' fields cheapest, text scans dearest."""
    if term.field in _PSEUDO_COST:
        return _PSEUDO_COST[term.field]
    return _BY_NAME[term.field].cost


# --- the fields ---------------------------------------------------------------------------------

_TEXT_HINT = "a word start there, e.g. title:diffusion"


def _range_hint(open_range: str) -> str:
    """The help's hint of a number field: the other comparisons, and an open range of that field."""
    return f"(also > < <= = and open ranges {open_range})"


_START = "with the value at the start of a word"
_PHRASE = (
    "a value of several words is a phrase: its words one after another, in that order, with only spaces or "
    'punctuation between (`title:"weak baseline"` finds “Weak, baselines”, not “weak and baseline”)'
)


def _review_number(name: str, aliases: tuple[str, ...], usage: str, hint: str, help: str) -> Field:
    """A decimal number from the paper's reviews (:func:`review_number`)."""
    return Field(name, "number", f"{name}>=3", help, _review_number_mask, aliases=aliases, usage=usage, hint=hint,
                 number=_DECIMAL)  # fmt: skip


#: Every field, in the order the help lists them.
FIELDS: tuple[Field, ...] = (
    Field("title", "text", "title:diffusion",
          f"{_START} in the title: `title:lora` finds “LoRA”, “(LoRA)”, not “Exploration”; {_PHRASE}",
          _text_mask, usage="title:", hint=_TEXT_HINT, cost=3),
    Field("author", "text", "author:diffusion", f"{_START} in an author's name: `author:tram` finds Tramèr",
          _text_mask, aliases=("authors",), usage="author:", hint=_TEXT_HINT, cost=3),
    Field("keyword", "text", "keyword:diffusion", f"{_START} in a keyword", _text_mask, aliases=("keywords",),
          usage="keyword:", hint=_TEXT_HINT, cost=3),
    Field("area", "text", "area:diffusion", f'{_START} in the primary area: `area:"reinforcement learning"`',
          _text_mask, usage="area:", hint=_TEXT_HINT, cost=3),
    Field("abstract", "text", "abstract:diffusion", f"{_START} in the abstract", _text_mask, usage="abstract:",
          hint=_TEXT_HINT, cost=5),
    Field("note", "text", "note:diffusion", f"{_START} in your note", _note_mask, aliases=("notes",), usage="note:",
          hint=_TEXT_HINT),
    Field("review", "text", "review:diffusion",
          "whose imported reviews (every review, meta-review, decision and comment, any section) have the "
          "word at a word start (`review:*former`: anywhere in a word); several words "
          "(`review:\"weak baseline\"`) are a phrase, as in the title: one after another within one "
          "section of one note",
          _review_mask, usage="review:baseline",
          hint="in the reviews' text (every review and comment of the conference)", cost=4),
    Field("decision", "choice", "decision:accept",
          "with that decision: `accept` every accepted tier (oral, spotlight, poster, conditional, plain "
          "accept), `reject` (desk rejections too), `withdrawn`, `desk`, `pending`; one tier: `oral`, "
          "`spotlight`, `poster`, `conditional`, `workshop`, `unknown`; badge words (`ORAL`, `SPOT`, `REJ`…) "
          "and the start of any of these work (`decision:cond`)",
          _decision_mask, usage="decision:accept (every accepted tier)  decision:reject  decision:cond",
          hint="(badge words, prefixes)"),
    Field("tag", "tag", "tag:must-read", "with a tag starting so (`tag:must`; in a script written without spaces, "
          "holding it: `tag:学習` finds `機械学習`)", _user_mask, aliases=("tags",)),
    Field("status", "choice", "status:to-read",
          "with that reading status (prefixes work: `status:skim`; a paper you never touched is `unseen`)",
          _user_mask),
    Field("is", "choice", "is:starred",
          "`is:starred` starred; `is:followed` matched by something you follow; `is:changed` changed by an "
          "import since you last opened it",
          _is_mask, usage="is:starred  is:followed"),
    Field("has", "choice", "has:note", "`has:note` annotated, `has:tags` tagged, `has:rating` rated", _has_mask,
          usage="has:note  has:tags  has:rating"),
    Field("like", "like", "like:starred",
          "not a filter: ranks the list by likeness to your starred papers (leaving them out), or to the "
          "paper `like:ID` (leaving it out); outside `OR`, `NOT` and parentheses only",
          _ranks_only, usage="like:starred  like:ID", hint="rank by likeness to my stars / to a paper (m on a paper)"),
    Field("id", "text", "id:ukGxWd2aDG",
          "the paper with that OpenReview forum id, arXiv id, DOI or canonical id (`id:openreview:ukGxWd2aDG`); "
          "a link to it works too (`id:https://openreview.net/forum?id=ukGxWd2aDG`), and so does a link or a "
          "canonical id pasted alone; a bare pasted id (`ukGxWd2aDG`) finds that paper or the word. Ids are "
          "matched exactly (OpenReview's are case-sensitive); when none is, one that differs only in case "
          "is found (`id:ukgxwd2adg`, a lower-cased link)",
          _id_mask, usage="id:ukGxWd2aDG  (or paste a link)", hint="the paper with that id or link"),
    Field("rating", "number", "rating>=6",
          "by mean rating, the paper's own mean on its venue's scale (`rating_pct` compares across venues): "
          "`>=`, `>`, `<=`, `<`, `=` (to the 2 decimals shown), ranges `rating:5..7` (low to "
          "high), open ranges `rating:6..`; a paper without ratings matches no rating term",
          _rating_mask, aliases=("ratings",), usage="rating>=6  rating:5..7", hint=_range_hint("rating:6.."),
          number=_DECIMAL),
    Field("rating_pct", "number", "rating_pct>=90",
          "by the paper's mean rating as a percentile within its venue (0–100: `rating_pct>=90` its venue's top "
          "tenth), comparable across venues that rate on different scales; a paper without ratings matches none",
          _rating_pct_mask, aliases=("pct",), usage="rating_pct>=90", hint="percentile within its venue",
          number=_DECIMAL),
    Field("venue", "text", "venue:colm",
          f"{_START} in the paper's venue (`venue:colm`, `venue:\"iclr 2017\"`, `venue:2019`), or its compact "
          "form, the name lower-cased without spaces, as `paperdeck fetch` spells it (`venue:iclr2017`); "
          "`-venue:colm` keeps exactly the others, papers of no known venue too. With the venue scope (`c`) "
          "on some venues, `venue:` terms alone, or with words (`venue:colm diffusion`), say how many matches "
          "the scope hides (`+3 elsewhere`): the papers of the venues outside the scope the terms name, or "
          "those of them the words find (as they rank over the whole library); with another field term, none",
          _venue_mask, aliases=("venues",), usage="venue:colm", hint="conference or year, e.g. venue:iclr2017"),
    Field("year", "number", "year:2026", "by year, a whole number (the same comparisons and ranges)", _year_mask,
          usage="year:2026  year:2024..2025", hint=_range_hint("year:2025.."), number=_WHOLE, needs="a whole number"),
    Field("reviews", "number", "reviews>=3", "by how many imported reviews rate the paper", _review_number_mask,
          usage="reviews>=5", hint="from the reviews", number=_WHOLE),
    _review_number("spread", (), "spread>=4", "from the reviews", "by the reviews' max − min rating"),
    _review_number("rating_min", ("min_rating", "lowest"), "rating_min>=6", "from the reviews", "by the lowest rating"),
    _review_number("rating_max", ("max_rating",), "rating_max<=4", "from the reviews", "by the highest rating"),
    _review_number("confidence", (), "confidence>=4", "from the reviews", "by the reviewers' mean confidence"),
    *(
        _review_number(name, (), f"{name}>=3", "reviewers' mean sub-scores",
                       f"by the reviewers' mean {name} (ICLR's 1–4 scale)")
        for name in ("soundness", "presentation", "contribution")
    ),
    Field("session", "text", 'session:"poster session 1"',
          f"{_START} in the name of one of the paper's sessions (an imported programme): "
          "`session:oral` finds “Oral Session 2A”",
          _events_mask, usage="session:", hint="in the programme (paperdeck import a programme file)"),
    Field("room", "text", "room:hall",
          f"{_START} in one of its events' room or poster position (a phrase in one of them: "
          '`room:"pavilion 4 & 5"` is not room “Pavilion 4” at poster “#5”)', _events_mask, usage="room:",
          hint="in the programme (paperdeck import a programme file)"),
    Field("day", "when", "day:thu",
          "presented that day, the venue's: a weekday (`day:thu`, `day:thursday`) or a date (`day:2026-04-23`, "
          "`day:04-23`); an event across midnight is on both days",
          _events_mask, usage="day:thu  day:2026-04-23",
          hint="when it is presented, the venue's time"),
    Field("time", "when", "time:10..12",
          "presented at that time of day, the venue's: `time:14` running at 14:00, `time:10:30..12` overlapping "
          "10:30 to 12:00, open ranges `time:15..`; a range past midnight is the night: `time:22..2` 22:00 to 02:00",
          _events_mask, hint="when it is presented, the venue's time"),
    Field("rating_initial", "number", "rating_initial<5",
          "by the mean of each review's first rating, before the discussion moved it (the current mean when no "
          "rating moved)", _move_number_mask, aliases=("initial",), usage="rating_initial<5",
          hint="the first ratings' mean, current − first", number=_DECIMAL),
    Field("rating_delta", "number", "rating_delta>=1",
          "by how far the mean rating moved: current mean − `rating_initial` (`rating_delta<0`: fell)",
          _move_number_mask, aliases=("delta",), hint="the first ratings' mean, current − first",
          number=_DECIMAL),
    Field("moved", "choice", "moved:up",
          "whose mean rating moved during the discussion: `up` (`rating_delta>0`), `down` (`<0`), `any`; "
          "`-moved:up` is every other paper",
          _move_mask, usage="moved:up  moved:down  moved:any",
          hint="ratings moved in the discussion"),
    Field("review_moved", "choice", "review_moved:any",
          "with a review whose rating changed, even when the mean did not: `any`, `up` (a review's current "
          "rating above its first), `down`",
          _move_mask, hint="ratings moved in the discussion"),
    Field("changed", "choice", "changed:rating",
          "changed by an import (a file or a fetch) since you last opened the paper: `rating` (its mean or a "
          "review's), `decision`, `confidence`, `reviews` (added or removed), `title`, `abstract`, `new` (a new "
          "paper); `is:changed`: any of these",
          _changed_mask, usage="is:changed  changed:rating  changed:decision",
          hint="changed by an import since you last opened it"),
)  # fmt: skip

_BY_NAME: dict[str, Field] = {name: f for f in FIELDS for name in (f.name, *f.aliases)}
#: The terms that are no field: a word (ranked, and a set of papers under OR and NOT), a phrase.
_PSEUDO_COST = {"word": 2, "phrase": 5}
#: What ``is:`` names: the user's star, or a change since the user last opened the paper.
_IS = ("starred", "changed", "followed")
_HAS = ("note", "tag", "rating")
_MOVES_NAMES = ("up", "down", "any")

#: The help's syntax that is no field, in its order.
SYNTAX: tuple[Syntax, ...] = (
    Syntax("title:*lora", "anywhere, inside words too;  case and accents never matter",
           "a text term's value with a leading `*` matches **anywhere**, inside words too (“Exploration”); a "
           "trailing `*` changes nothing. Case and accents never matter: `author:tramer` is `author:Tramèr`",
           after="note"),
    Syntax('"graph neural"', 'a phrase;  title:"large language" a phrase in a field',
           "a phrase: its words one after another, in that order, only spaces or punctuation between (`&`, `-`, "
           "`/`…), within one value (never from one author or keyword into the next, nor from an event's room "
           "into its poster position), the first a whole word (with `*`, a word's end), the "
           "last a word's start, in the title, keywords, abstract or your note; `title:\"large language\"` "
           "in one field, `review:\"weak baseline\"` in the reviews"),
    Syntax("-term  NOT term", "exactly the rest;  a OR b  either;  ( ) group;  AND is implied",
           "`-term`, `NOT term`: exactly the papers `term` does not keep (`x` and `-x` split the list in two); "
           "`a OR b` either; `( … )` groups; `AND` is implied and binds tighter than `OR` (capitals only)"),
    Syntax("a b OR c", "is (a b) OR c: a space binds tighter than OR;  a (b OR c) for the other",
           "is `(a b) OR c`: a space (or `AND`) binds tighter than `OR`; write `a (b OR c)` for the other "
           "reading. Such a query without parentheses is said beside the counts (`a b OR c means (a b) OR c`)"),
)  # fmt: skip
_HEADER = "Type words to rank papers (typos and prefixes are fine); add terms to filter them:"
EXAMPLES = (
    "diffusion decision:oral rating>=6",
    'area:"reinforcement learning" -decision:withdrawn',
    '(llm OR "language model") is:starred',
)


def _help() -> str:
    """:data:`QUERY_HELP` from :data:`FIELDS`, :data:`SYNTAX` and :data:`EXAMPLES`."""

    def syntax_lines(after: str) -> list[str]:
        return [f"  {syntax.usage}   {syntax.hint}" for syntax in SYNTAX if syntax.after == after]

    lines = [_HEADER]
    line: list[str] = []
    for n, field in enumerate(FIELDS):
        line.append(field.usage or field.example)
        if n + 1 == len(FIELDS) or FIELDS[n + 1].hint != field.hint:
            lines.append("  " + "  ".join(line) + (f"   {field.hint}" if field.hint else ""))
            lines += syntax_lines(field.name)
            line = []
    lines += syntax_lines("")
    return "\n".join([*lines, "Examples:", *(f"  {example}" for example in EXAMPLES), ""])


#: The query language in short, one term or syntax a line, then three examples after a line
#: ``Examples:`` (the app's help shows it).
QUERY_HELP = _help()


def query_markdown() -> str:
    """The query language as a Markdown page: how words and terms combine, a table of the fields
    (field, aliases, example, what it does), a table of the syntax, and examples; ends with a new
    line."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    out = [
        "# The filter bar's query language",
        "",
        "Plain words **rank**: they search titles, keywords, authors, abstracts and your notes; a paper must",
        "match every word; a word matches exactly, as a prefix (`specul decod`), with a typo (`difusion`: one",
        "edit, two from 9 letters, three from 13; `difu` for a word's start, when nothing else matches, or",
        "when what it starts is rare and one typo from a far more common word: `difussion`, then `diffusion`), or",
        "as the initials of a title (`gnn`). Field terms",
        "**filter**, and mix freely with words. A word before",
        "a colon that is no field is text (`dpo: robust preference` searches those words; `p<0.05` too), a",
        "misspelt field (`decison:oral`) runs nothing and says the field meant, and a term with no letter or",
        "digit (`?`) is ignored.",
        "",
        "## Fields",
        "",
        "| field | aliases | example | what it does (keeps papers …) |",
        "|---|---|---|---|",
    ]
    for field in FIELDS:
        aliases = " ".join(f"`{alias}:`" for alias in field.aliases)
        out.append(f"| `{field.name}:` | {aliases} | `{cell(field.example)}` | {cell(field.help)} |")
    out += ["", "## Syntax", "", "| syntax | what it does |", "|---|---|"]
    out += [f"| `{cell(syntax.usage.strip())}` | {cell(syntax.help)} |" for syntax in SYNTAX]
    out += ["", "## Examples", "", *(f"- `{example}`" for example in EXAMPLES), ""]
    return "\n".join(out)


# --- values --------------------------------------------------------------------------------------

_DECISION_HINT = "accept, reject, withdrawn, desk, oral, spotlight, poster, cond, pending, …"


def choices(name: str, value: str) -> frozenset[str]:
    """The statuses, decisions, ``is:``, ``has:`` or ``changed:`` values ``value`` names: the one it equals, else
    every one it starts (``skim``: skimmed); ``-``, ``_`` and spaces ignored. Decisions: see
    :func:`paperdeck.model.decision.decisions_named` (``accept``: every accepted tier).

    Raises:
        QueryError: ``value`` names none (the hint lists some).
    """
    if name == "decision":
        if not (named := decisions_named(value)):
            raise QueryError(f"unknown decision '{value}' — try {_DECISION_HINT}")
        return named
    from paperdeck.model.changes import CHANGE_KINDS  # deferred: a query without changed: needs none

    options = {"status": STATUSES, "is": _IS, "has": _HAS, "changed": CHANGE_KINDS, "moved": _MOVES_NAMES,
               "review_moved": _MOVES_NAMES}[name]  # fmt: skip
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


def number_range(name: str, op: str, value: str) -> tuple[float, float]:
    """The closed range ``(low, high)`` a number field's (``rating``, ``year``…) ``op`` (``>=``,
    ``>``, ``<=``, ``<``, ``=``, ``..``) ``value`` stands for (``>6`` is from the float after 6; open
    ends are infinite).

    A decimal ``=`` matches the value as shown, to 2 decimals: ``rating=4.67`` is 4.665 up to 4.675;
    a whole number's (``year``, ``reviews``) is exact.

    Raises:
        QueryError: ``value`` is not a number (a whole one for a year) or a range of them, or is
            a range whose low end is above its high end (``rating:8..3``: the hint names the
            range the other way round, as a typo is not guessed at).
    """
    field = _BY_NAME[name]
    pattern = field.number
    assert pattern is not None, name

    def number(text: str) -> float:
        if not pattern.fullmatch(text):
            raise QueryError(f"{name} needs {field.needs}, e.g. {field.example}")
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
        return (x, x) if pattern is _WHOLE else (x - 0.005, math.nextafter(x + 0.005, -math.inf))
    after, before = math.nextafter(x, math.inf), math.nextafter(x, -math.inf)
    return {">=": (x, math.inf), ">": (after, math.inf), "<=": (-math.inf, x)}.get(op, (-math.inf, before))


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


__all__ = [
    "EXAMPLES", "FIELDS", "QUERY_HELP", "SYNTAX", "Evaluator", "Field", "Kind", "RatingMoves", "Syntax", "choices",
    "field_named", "first_means_of", "number_range", "query_markdown", "rating_moves", "review_number",
    "review_numbers", "term_cost", "term_mask", "venue_compact", "venue_matcher", "when_value",
]  # fmt: skip
