"""Reader for Paper Copilot paperlists JSON, as the GitHub repository ``papercopilot/paperlists``
publishes it (one file per conference and year, e.g. ``iclr/iclr2018.json``).

A JSON array of flat records: ``id`` (the OpenReview forum id), ``title``,
``abstract``, ``status``, ``track``, ``author`` and ``keywords`` (``;``-joined strings), per-review
``rating``/``confidence`` (``"5;6;8"``) with ``rating_avg``/``confidence_avg`` (a float, or
``[mean, std]`` in newer files), ``site``/``openreview``/``pdf`` links (``site`` is an iclr.cc
virtual-poster page for accepted papers, whose forum URL is then ``openreview``) and ``github``
(Markdown, ``[![github](…) owner/repo](URL)``, not a URL). A record's ``session`` (CVPR's
lists) is read as an event of its paper without a time (:class:`~paperdeck.model.schedule.ScheduleEvent`
of kind ``"session"``).
For numbers, ``""``, ``0`` and ``-1`` mean missing (a 0 among other per-review scores is kept:
ICLR 2026 scores 0, 2, 4, …, 10). The venue and year come from the file name
(``iclr2018``), else from an iclr.cc-style ``site`` or a status such as ``ICLR 2026 Poster``.

:func:`copilot_paper` also maps the Paper Copilot columns of the Parquet reader.

**Snapshots.** A file whose name carries the day it was taken (``iclr2026_2025-11-22.json``,
``iclr2026-20251129.json``) is a snapshot of its conference that day: each record's ``rating`` and
``confidence`` lists, aligned with its ``reviewers`` list (``"osWr;ivpU"``), become one scores-only
version of each reviewer's review at that day's start (UTC), note id
:func:`~paperdeck.store.review_history.snapshot_note_id`,
signed ``Reviewer_<name>``; the review store keeps each version (:mod:`paperdeck.store.review_history`),
so snapshots imported in any order build the same history, and a snapshot version of a review
stored from OpenReview (the same paper, the same reviewer) joins that review's history. A record
whose lists do not line up (a reviewer without a rating) gives no versions, and is counted
(``"snapshot ratings not aligned with reviewers"``). Snapshot files of different conferences in
one import are refused (:mod:`paperdeck.sources.importer`). A file without a day in its name
gives its papers and, for each record with per-review ``rating`` values (COLM 2025, ICLR 2017,
ICLR 2018), one scores-only review of each reviewer (:func:`list_reviews`: the same note ids, no
time: a file imported again adds nothing), so that every review's rating (and confidence) is kept,
on the venue's own scale, not only their mean.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

from paperdeck.model.decision import bare_decision, normalise_decision
from paperdeck.model.errors import SourceError
from paperdeck.model.ids import canonical_id, openreview_id_from_url, plain_id, valid_openreview_id
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import REVIEW, Review
from paperdeck.model.safe_text import one_line, web_link
from paperdeck.model.schedule import MAX_FIELD_CHARS, ScheduleEvent
from paperdeck.model.venue import venue_group
from paperdeck.sources.base import Skip, SourceRead
from paperdeck.sources.common import collect, finite_scores, provenance_pairs, review_ratings, score_number
from paperdeck.sources.jsonfile import first_record, json_kind, load_json_records, parse_scores, text_value
from paperdeck.sources.openreview import OPENREVIEW, is_note
from paperdeck.store.review_history import snapshot_note_id

NAME = "papercopilot"
#: Skip reason: a snapshot record whose ``rating`` list does not line up with its ``reviewers``.
NOT_ALIGNED = "snapshot ratings not aligned with reviewers"
_SNAPSHOT_DAY = re.compile(r"(?<!\d)(20\d{2})-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?!\d)")

#: Conference names (as Paper Copilot's file names spell them) and how to write them.
_VENUES = {
    "iclr": "ICLR", "neurips": "NeurIPS", "nips": "NeurIPS", "icml": "ICML", "cvpr": "CVPR",
    "iccv": "ICCV", "eccv": "ECCV", "wacv": "WACV", "acl": "ACL", "emnlp": "EMNLP",
    "naacl": "NAACL", "coling": "COLING", "colm": "COLM", "corl": "CoRL", "aaai": "AAAI",
    "ijcai": "IJCAI", "kdd": "KDD", "www": "WWW", "siggraph": "SIGGRAPH", "aistats": "AISTATS",
    "uai": "UAI", "colt": "COLT", "mlsys": "MLSys", "rss": "RSS", "icra": "ICRA", "iros": "IROS",
}  # fmt: skip
_YEAR = r"((?:19|20)\d{2})(?!\d)"
_NAME_VENUE_YEAR = re.compile(rf"(?:^|[^a-z])({'|'.join(_VENUES)})[_\- ]?{_YEAR}")
_NAME_ONLY_VENUE_YEAR = re.compile(rf"^([a-z]+)[_\-]?{_YEAR}$")
_SITE_VENUE_YEAR = re.compile(rf"https?://(?:www\.)?([a-z]+)\.(?:cc|org|com)/virtual/{_YEAR}/")
_STATUS_VENUE_YEAR = re.compile(rf"^\s*([A-Za-z][\w&\-]*)\s+{_YEAR}")
_LINK_TARGET = re.compile(r"\]\((https?://[^)\s]+)\)")
_SNIFF_KEY = re.compile(r'"(status|track|content)"\s*:')
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "huggingface.co")
#: Paper fields a record (or Parquet row) can provide, recorded in ``provenance`` when not empty.
PROVIDED = (
    "title", "abstract", "venue", "year", "authors", "keywords", "primary_area", "decision",
    "ratings", "confidence", "tldr", "pdf_url", "code_url", "openreview_url",
)  # fmt: skip
_EMPTY = ("", (), None, "unknown")


def sniff(path: Path, head: str) -> bool:
    """Paper Copilot JSON: records with ``status`` and ``track``, ``site`` or ``author``; no
    ``content`` (that is an OpenReview note)."""
    record = first_record(head)
    if record is None:  # a first record longer than the head: look for the keys
        text = head.lstrip()
        keys = set(_SNIFF_KEY.findall(text))
        return text.startswith(("[", "{")) and "status" in keys and "content" not in keys
    if is_note(record):
        return False
    return "status" in record and any(key in record for key in ("track", "site", "author"))


def read(path: Path) -> SourceRead:
    """Read a Paper Copilot paperlists JSON file (JSON Lines of the same records also works).

    Raises:
        SourceError: unreadable, invalid JSON (naming the line), or a record that is not an object
            or has no id, title or abstract; nothing is returned from a partly broken file.
    """
    document = load_json_records(path)
    venue, year = venue_year(path, (r for r in document.records if isinstance(r, dict)))
    pairs = provenance_pairs(path, PROVIDED)
    day = snapshot_day(path)

    sessions: dict[str, str] = {}  # paper id → the session its record names (CVPR's lists)
    dropped: Counter[str] = Counter()  # per-review scores for no finite number, left out

    def results() -> Iterator[tuple[str, Paper | str]]:
        for index, record in enumerate(document.records):
            position = document.position(index)
            try:
                if not isinstance(record, dict):
                    raise ValueError(f"expected an object, got {json_kind(record)}")
                paper = copilot_paper(record, venue, year, (path.name,), pairs, dropped)
                session = record.get("session")
                if (
                    isinstance(paper, Paper)
                    and isinstance(session, str)
                    and (name := " ".join(session.split())[:MAX_FIELD_CHARS])
                ):
                    sessions.setdefault(paper.id, name)
                yield position, paper
            except ValueError as exc:
                raise SourceError(path, f"{position}: {exc}", document.line(index)) from None

    read = collect(path, NAME, results(), dropped)
    if sessions:
        events = tuple(
            ScheduleEvent(f"session:{sessions[p.id]}", p.id, "session", sessions[p.id], venue=venue, year=year)
            for p in read.papers
            if p.id in sessions
        )
        read = replace(read, events=events)
    if not read.papers:
        return read
    reviews: list[Review] = []
    skipped: list[Skip] = []
    kept = {p.openreview_id for p in read.papers if p.openreview_id}
    # the reviews' venue, as a group names it: their summaries are ranked within it, on its scale
    group = venue_group(venue, year)
    for index, record in enumerate(document.records):
        if not isinstance(record, dict):
            continue
        if day is None:
            reviews += (r for r in list_reviews(record, group) if r.forum in kept)
            continue
        found = snapshot_reviews(record, day)
        if found is None:
            skipped.append(Skip(document.position(index), NOT_ALIGNED))
        else:
            reviews += found
    return replace(read, reviews=tuple(reviews), skipped=(*read.skipped, *skipped))


def snapshot_day(path: Path) -> int | None:
    """The day a snapshot file was taken, from its name (``…_2025-11-22…``, ``…20251122…``), as
    milliseconds since the epoch at that day's start (UTC); ``None`` when the name has no day."""
    from datetime import UTC, datetime

    match = _SNAPSHOT_DAY.search(path.name)
    if match is None:
        return None
    try:
        moment = datetime(int(match.group(1)), int(match.group(2)), int(match.group(3)), tzinfo=UTC)
    except ValueError:  # 2025-02-30
        return None
    return int(moment.timestamp() * 1000)


def list_reviews(record: dict[str, Any], group: str = "") -> list[Review]:
    """The scores-only reviews of one record of a list (not a snapshot): one for each of its
    per-review ``rating`` values, with its ``confidence`` where the file gives one per review,
    signed by the record's ``reviewers`` (by position, ``R1``, ``R2`` …, when they do not line up
    with the ratings), without a time, of the venue ``group`` (``"COLM/2025/Conference"``: the
    venue's known scale, :func:`~paperdeck.model.venue.group_scale`, and its name for the rank of
    a paper's mean); ``[]`` without a forum id or per-review ratings, or for a rating that is not
    a number from 0 to 100 (the paper keeps its mean alone). A score for no finite number
    (``"1e309"``, ``"NaN"``) is left out of its review, as it is of the paper's mean (counted
    there): that review keeps its other scores, and is left out when it has none."""
    forum = _forum(record)
    raw = record.get("rating")
    items = raw.split(";") if isinstance(raw, str) else raw if isinstance(raw, list) else []
    ratings = [_snapshot_score(item) for item in items]
    if not forum or not plain_id(forum) or not ratings or any(r is None for r in ratings):
        return []
    names = [name.strip() for name in _text(record, "reviewers").split(";")] if record.get("reviewers") else []
    if len(names) != len(ratings) or len(set(names)) != len(names) or not all(plain_id(n) for n in names):
        names = [f"R{n}" for n in range(1, len(ratings) + 1)]
    raw_confidence = record.get("confidence")
    confidences: list[float | None] = [None] * len(ratings)
    if isinstance(raw_confidence, str) and raw_confidence.strip():
        given = [_snapshot_score(item) for item in raw_confidence.split(";")]
        confidences = given if len(given) == len(ratings) else confidences
    found = []
    for name, rating, confidence in zip(names, ratings, confidences, strict=True):
        note_id = snapshot_note_id(forum, name)
        if rating is None or not plain_id(note_id):
            return []
        scores = tuple((key, v) for key, v in (("rating", rating), ("confidence", confidence)) if _finite(v))
        if not scores:
            continue
        signature = name if name.startswith("AnonReviewer") else f"Reviewer_{name}"
        found.append(Review(note_id, forum, forum, REVIEW, signature, None, 0, 0, scores, venue_id=group))
    return found


def _forum(record: dict[str, Any]) -> str:
    """A record's OpenReview forum id, ``""`` when it has none."""
    forum = _text(record, "openreview_id") or openreview_id_from_url(_text(record, "openreview"))
    forum = forum or openreview_id_from_url(_text(record, "site"))
    given = _text(record, "id")
    if not forum and valid_openreview_id(given):
        forum = given
    return forum


def snapshot_reviews(record: dict[str, Any], day: int) -> list[Review] | None:
    """The scores-only review versions in one snapshot record, at ``day`` (ms); ``[]`` when it
    has no forum id, no reviewers or no ratings; ``None`` when its ``rating`` list (or a given
    ``confidence`` list) does not line up with its ``reviewers``, or a reviewer is not a plain
    token. A score for no finite number is left out of its version (as :func:`list_reviews`
    does)."""
    forum = _forum(record)
    reviewers = [name.strip() for name in _text(record, "reviewers").split(";")] if record.get("reviewers") else []
    if not forum or not plain_id(forum) or not reviewers:
        return []
    raw = record.get("rating")
    items = raw.split(";") if isinstance(raw, str) else raw if isinstance(raw, list) else []
    ratings = [_snapshot_score(item) for item in items]
    if not ratings:
        return []
    raw_confidence = record.get("confidence")
    confidences: list[float | None] = [None] * len(reviewers)
    if isinstance(raw_confidence, str) and raw_confidence.strip():
        confidences = [_snapshot_score(item) for item in raw_confidence.split(";")]
    if len(ratings) != len(reviewers) or len(confidences) != len(reviewers):
        return None
    found = []
    for name, rating, confidence in zip(reviewers, ratings, confidences, strict=True):
        note_id = snapshot_note_id(forum, name)
        if rating is None or not plain_id(note_id):
            return None
        scores = tuple((key, v) for key, v in (("rating", rating), ("confidence", confidence)) if _finite(v))
        if not scores:  # its one score stands for no finite number: that day's version left out
            continue
        signature = name if name.startswith("AnonReviewer") else f"Reviewer_{name}"
        found.append(Review(note_id, forum, forum, REVIEW, signature, None, 0, day, scores))
    return found


def _snapshot_score(item: object) -> float | None:
    """One score of a snapshot's list: a finite number from 0 to 100, else ``None`` (missing);
    one for no finite number (``"1e309"``, ``"NaN"``) is returned as that non-finite float, for
    the caller to leave out of its review (:func:`_finite`)."""
    score = score_number(item.strip() if isinstance(item, str) else item)
    if score is not None and not math.isfinite(score):
        return score
    return score if score is not None and 0 <= score <= 100 else None


def _finite(score: float | None) -> TypeGuard[float]:
    """Whether ``score`` is a score to keep in a review: given, and a finite number."""
    return score is not None and math.isfinite(score)


def venue_year(path: Path, records: Iterable[dict[str, Any]]) -> tuple[str, int | None]:
    """``("ICLR", 2018)`` from a known conference in the file name (``iclr2018.json``,
    ``x_iclr_2026.parquet``), else from the first record whose ``site``
    (``https://iclr.cc/virtual/2018/…``) or ``status`` (``ICLR 2026 Poster``) names them, else
    from a ``<name><year>`` file name (``foo2023.json`` → ``FOO``)."""
    stem = path.stem.casefold()
    match = _NAME_VENUE_YEAR.search(stem)
    if match:
        return _VENUES[match.group(1)], int(match.group(2))
    for record in records:
        site, status = record.get("site"), record.get("status")
        match = _SITE_VENUE_YEAR.match(site) if isinstance(site, str) else None
        if match:
            return _VENUES.get(match.group(1), match.group(1).upper()), int(match.group(2))
        match = _STATUS_VENUE_YEAR.match(status) if isinstance(status, str) else None
        if match and not bare_decision(match.group(1)):  # "Poster 2026" names no venue
            return match.group(1), int(match.group(2))
    match = _NAME_ONLY_VENUE_YEAR.match(stem)
    return (match.group(1).upper(), int(match.group(2))) if match else ("", None)


def copilot_paper(
    record: dict[str, Any],
    venue: str,
    year: int | None,
    sources: tuple[str, ...],
    pairs: tuple[tuple[str, str], ...],
    dropped: Counter[str] | None = None,
) -> Paper | str:
    """The paper in one Paper Copilot record (JSON, or a Parquet row), or why it is skipped.

    ``pairs`` are the provenance pairs of the fields it may record (of :data:`PROVIDED`). A
    per-review rating or confidence for no finite number is left out of the paper's (its mean is
    the other reviews') and counted in ``dropped`` (:func:`~paperdeck.sources.common.finite_scores`).

    Raises:
        ValueError: no id, title or abstract, or a field of the wrong type.
    """
    title, abstract = _text(record, "title"), _text(record, "abstract")
    openreview_url = _text(record, "openreview")
    site = _text(record, "site")
    if not openreview_url and "openreview.net" in site:
        openreview_url = site
    pdf = _text(record, "pdf") or _text(record, "pdf_link")
    forum_id = _text(record, "openreview_id") or openreview_id_from_url(openreview_url) or openreview_id_from_url(pdf)
    given_id = _text(record, "id")
    if not forum_id and valid_openreview_id(given_id) and (not site or "openreview.net" in site):
        forum_id = given_id
    if forum_id and not plain_id(forum_id):
        return f"odd id ({one_line(forum_id)[:40]!r}): not a plain token"
    if not title:
        if not forum_id and not given_id and not abstract:
            raise ValueError("no id, title or abstract: not a Paper Copilot record")
        named = forum_id or given_id
        return f"record without a title (id {one_line(named)[:40]})" if plain_id(named) else "record without a title"
    try:
        paper_id = canonical_id(openreview_id=forum_id, venue=venue, year=year, title=title)
    except ValueError:
        return f"no id and a placeholder title ({title!r})"
    if forum_id and not web_link(openreview_url):
        openreview_url = f"{OPENREVIEW}/forum?id={forum_id}"
    if pdf.startswith("/"):
        pdf = OPENREVIEW + pdf
    elif not pdf and forum_id:
        pdf = f"{OPENREVIEW}/pdf?id={forum_id}"
    status = _text(record, "status")
    values: dict[str, Any] = {
        "title": title,
        "abstract": abstract,
        "venue": venue,
        "year": year,
        "authors": _items(record, "author"),
        "keywords": _items(record, "keywords"),
        "primary_area": _text(record, "primary_area"),
        "decision": normalise_decision(status),
        "ratings": ratings_from(
            finite_scores(review_ratings(record.get("rating")), "rating", dropped), record.get("rating_avg")
        ),
        "confidence": mean_from(
            finite_scores(parse_scores(record.get("confidence")), "confidence", dropped), record.get("confidence_avg")
        ),
        "tldr": _text(record, "tldr") or _text(record, "TLDR"),
        "pdf_url": pdf,
        "code_url": code_url(_text(record, "github")),
        "openreview_url": openreview_url,
        "bibtex": _text(record, "bibtex"),
    }
    return Paper(
        id=paper_id,
        sources=sources,
        decision_raw=status,
        openreview_id=forum_id,
        provenance=tuple(pair for pair in pairs if values[pair[0]] not in _EMPTY),
        **values,
    )


def ratings_from(scores: object, average: object = None) -> Ratings | None:
    """Ratings from per-review ``scores`` (``"5;6;8"`` or a list), else from the average (a float,
    a number as text ``"5.0"``, or ``[mean, std]`` as a list or as JSON text ``"[5.75, 0.43]"``, as
    COLM 2025's file writes it); ``None`` when both are missing (``""``, 0, -1).

    Raises:
        ValueError: the average is text starting ``[`` that is no JSON list.
    """
    summary = Ratings.from_scores(parse_scores(scores))
    if summary is not None:
        return summary
    if isinstance(average, str) and average.strip().startswith("["):
        import orjson

        text = average
        try:
            average = orjson.loads(text)
        except orjson.JSONDecodeError:
            raise ValueError(f"rating_avg {one_line(text)[:40]!r} is neither a number nor [mean, std]") from None
        if not isinstance(average, list):
            raise ValueError("rating_avg is neither a number nor [mean, std]")
    pair = average if isinstance(average, list | tuple) else [average]
    mean = parse_scores(pair[:1])
    if not mean:
        return None
    std = pair[1] if len(pair) > 1 else None
    if isinstance(std, bool) or not isinstance(std, int | float) or not std >= 0:
        return Ratings(mean[0])
    return Ratings(mean[0], float(std))


def mean_from(scores: object, average: object = None) -> float | None:
    """The mean of per-review ``scores`` (e.g. confidence), else the average; ``None`` if none."""
    summary = ratings_from(scores, average)
    return summary.mean if summary is not None else None


def code_url(github: str) -> str:
    """The code link in Paper Copilot's ``github`` Markdown (``[![github](…) owner/repo](URL)``):
    a code-hosting URL if there is one, else the last link; a bare URL is kept."""
    targets: list[str] = _LINK_TARGET.findall(github)
    if not targets:
        return web_link(github)
    return next((url for url in targets if any(host in url for host in _CODE_HOSTS)), targets[-1])


def _text(record: dict[str, Any], key: str) -> str:
    """The text field ``key`` of a record (see :func:`text_value`)."""
    return text_value(record.get(key), key)


def _items(record: dict[str, Any], key: str) -> tuple[str, ...]:
    """A ``;``-joined string (``;``, ``; ``, ``;  `` alike) or a list, as stripped non-empty items;
    authors without a ``;`` but with ``, `` are ``, ``-joined."""
    value = record.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split(";" if ";" in value or key != "author" or ", " not in value else ",")
    if not isinstance(value, list | tuple):
        raise ValueError(f"{key} is {json_kind(value)}, expected text or a list")
    return tuple(text for item in value if item is not None and (text := str(item).strip()))
