"""Reader for OpenReview notes: OpenReview API v2 notes and the flattened dumps made from them.

Shapes, as a JSON array, JSON Lines or an API response ``{"notes": [...], "count": N}``:

- OpenReview API v2 notes, as ``https://api2.openreview.net/notes`` returns them (openreview-py's
  ``Note`` objects carry the same fields): ``id``, ``forum`` (the paper's id; equal to ``id`` for a
  submission), ``number``, ``invitations``, ``domain`` (``ICLR.cc/2026/Conference``), ``cdate``/``mdate``
  in milliseconds, and ``content`` whose every field is wrapped as ``{"value": …}`` (``title``,
  ``abstract``, ``authors``, ``keywords``, ``venue``, ``venueid``, ``pdf`` relative to
  ``https://openreview.net``, ``_bibtex``: the BibTeX entry OpenReview generates, kept as the
  paper's :attr:`~paperdeck.model.paper.Paper.bibtex`, …);
- API v1 notes (``api.openreview.net``, ICLR ≤ 2023): the same envelope with one ``invitation``
  (``ICLR.cc/2020/Conference/-/Blind_Submission``) and plain ``content`` values;
- the same notes flattened by the ReviewTracker scraper (``imczxx/ICLR2026ReviewTracker``):
  ``content`` holds plain values, ``withdrawn`` and ``number`` are at the top, no authors while
  the venue is anonymous;
- flat notes (``title``, ``abstract``, ``authors``, ``keywords``, ``venue``, ``venueid``,
  ``invitations`` holding ``…/Submission<number>/…``, an absolute ``pdf``, the forum ``url``, all
  at the top).

The decision comes from the venue string (``ICLR 2026 Poster``), else the venue id
(``…/Withdrawn_Submission``). Reply notes (reviews, comments: ``forum`` differs from ``id``) and
notes without a title are skipped with a reason, and so is a note whose id is not a plain token
(``"odd id"``: ``../../x``, ``a/b``, control or bidirectional characters; see
:func:`paperdeck.model.ids.plain_id`). A malformed record (not an object, a field of the wrong type)
is skipped with its reason counted (``"malformed record"``) while at most half of the file's records
are malformed; past that, the file is refused whole (it is not a file of notes).

The files are loaded by :mod:`.jsonfile`; :func:`is_note` and :data:`OPENREVIEW` are also used by
the Paper Copilot reader.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from paperdeck.model.decision import bare_decision, normalise_decision
from paperdeck.model.errors import SourceError
from paperdeck.model.ids import canonical_id, plain_id
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.safe_text import one_line, web_link
from paperdeck.sources.base import RECORDS_TOLD_EVERY, SourceRead, records_told
from paperdeck.sources.common import collect, finite_scores, provenance_pairs, review_ratings
from paperdeck.sources.jsonfile import (
    NOTES_KEY,
    JsonRecords,
    LinesNotUtf8,
    first_record,
    json_kind,
    load_json_records,
    parse_scores,
    text_value,
)
from paperdeck.sources.review_notes import ReplyReader

NAME = "openreview"

OPENREVIEW = "https://openreview.net"
_NOTE_KEYS = ("forum", "invitations", "venueid", "replyto", "domain")
_NOTE_KEY_TEXT = re.compile(r'"(?:content|forum|invitations)"\s*:')
_SUBMISSION_NUMBER = re.compile(r"/Submission(\d+)(?:/|$)")
_VENUE_YEAR_TEXT = re.compile(r"^\s*([A-Za-z][\w&\-]*)\s+((?:19|20)\d{2})\b")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_JOURNAL_ID = re.compile(r"^[A-Za-z][A-Za-z0-9]{1,15}$")
_TLDR_KEYS = ("TLDR", "tldr", "TL;DR")
#: Paper fields a note can provide, recorded in ``provenance`` when not empty.
NOTE_FIELDS = (
    "title", "abstract", "venue", "year", "authors", "keywords", "primary_area", "decision",
    "ratings", "confidence", "tldr", "number", "pdf_url", "openreview_url", "bibtex",
)  # fmt: skip


def sniff(path: Path, head: str) -> bool:
    """An OpenReview note file: JSON whose first record has ``content`` or note envelope keys."""
    if head.strip() == "[]" or NOTES_KEY.match(head):
        return True
    record = first_record(head)
    if record is not None:
        return is_note(record)
    text = head.lstrip()  # a first record longer than the head: look for note keys
    return text.startswith(("[", "{")) and _NOTE_KEY_TEXT.search(text) is not None


def is_note(record: dict[str, Any]) -> bool:
    """True when ``record`` looks like an OpenReview note (raw, ReviewTracker or flat)."""
    return isinstance(record.get("content"), dict) or any(key in record for key in _NOTE_KEYS)


def read(path: Path) -> SourceRead:
    """Read OpenReview notes (API v2, ReviewTracker or flat; JSON, JSON Lines or ``{"notes": …}``):
    the submissions as papers, the reply notes (and replies carried in ``details``) as reviews
    (:mod:`.review_notes`).

    Raises:
        SourceError: unreadable, invalid JSON (naming the line), more than half of the records
            malformed (not an object, no id, title or abstract, a field of the wrong type; the
            first is named), or the replies refused (see
            :func:`~paperdeck.sources.review_notes.replies_in`); nothing is returned from a
            broken file.
    """
    try:
        return _read(path, load_json_records(path, lazy=True))
    except LinesNotUtf8:  # decoded as text first: read whole
        return _read(path, load_json_records(path))


def _read(path: Path, document: JsonRecords) -> SourceRead:
    """:func:`read` of the records of ``document``: one pass, each record's paper and replies
    made together and the record dropped (a file of JSON Lines read lazily: each line parsed
    once, the parsed records never all held)."""
    pairs = provenance_pairs(path, NOTE_FIELDS)
    malformed: list[int] = []
    replies = ReplyReader(path, document)

    def results() -> Iterator[tuple[str, Paper | str]]:
        records = document.records
        total, told = len(records), records_told()
        for index in range(total):
            if told is not None and not index % RECORDS_TOLD_EVERY:
                told(index, total)
            record = records[index]
            records[index] = None  # taken: the replies are made of it below
            try:
                yield document.position(index), note_paper(record, (path.name,), pairs, dropped)
            except ValueError as exc:
                malformed.append(index)
                if len(malformed) == 1:
                    first.append(f"{document.position(index)}: {exc}")
                yield document.position(index), f"malformed record: {exc}"
            replies.add(index, record)
        if told is not None:
            told(total, total)

    first: list[str] = []
    dropped: Counter[str] = Counter()  # the papers' per-review scores for no finite number
    read = collect(path, NAME, results(), dropped)
    if malformed and len(malformed) * 2 > len(document.records):
        raise SourceError(path, first[0], document.line(malformed[0]))
    reviews_list, reply_skips = replies.result()
    reviews = tuple(reviews_list)
    if replies.dropped:
        read = replace(read, dropped=tuple((dropped + replies.dropped).items()))
    if reply_skips:
        read = replace(read, skipped=read.skipped + tuple(reply_skips))
    if reviews and not read.papers:
        notice = f"{path}: no papers in this file, {len(reviews):,} reviews and comments"
        return replace(read, reviews=reviews, notice=notice)
    return replace(read, reviews=reviews) if reviews else read


def note_paper(
    record: Any, sources: tuple[str, ...], pairs: tuple[tuple[str, str], ...], dropped: Counter[str] | None = None
) -> Paper | str:
    """The paper in one OpenReview note, or why the note is skipped (a ``str``).

    ``sources`` is the paper's ``sources``; ``pairs`` are the provenance pairs of
    :data:`NOTE_FIELDS`, in that order. A per-review rating or confidence for no finite number is
    left out of the paper's and counted in ``dropped``
    (:func:`~paperdeck.sources.common.finite_scores`).

    Raises:
        ValueError: not a note: not an object, no id, title or abstract, or a field of the
            wrong type.
    """
    if not isinstance(record, dict):
        raise ValueError(f"expected an object, got {json_kind(record)}")
    content = record.get("content")
    note = content if isinstance(content, dict) else {}
    note_id = _text(record.get("id"), "id")
    forum, replyto = record.get("forum"), record.get("replyto")
    if (forum and note_id and forum != note_id) or (replyto and replyto != note_id):
        return f"reply note ({_note_kind(record)}), not a submission"
    if note_id and not plain_id(note_id):
        return f"odd id ({one_line(note_id)[:40]!r}): not a plain token"
    title, abstract = _field(note, record, "title"), _field(note, record, "abstract")
    if not title:
        if not note_id and not abstract:
            raise ValueError("no id, title or abstract: not an OpenReview note")
        return f"note without a title ({_note_kind(record)}), not a submission"
    invitations = record.get("invitations")
    if not isinstance(invitations, list):  # API v1 (the old host): one ``invitation``
        invitations = [record["invitation"]] if isinstance(record.get("invitation"), str) else []
    venue_text, venueid = _field(note, record, "venue"), _field(note, record, "venueid")
    first_invitation = next((i for i in invitations if isinstance(i, str)), "")
    domain = _text(record.get("domain"), "domain")
    venue, year = _venue_year(domain, venueid, first_invitation, venue_text)
    decision, decision_raw = _decision(venue_text, venueid, record.get("withdrawn") is True)
    number = record.get("number")
    if not isinstance(number, int) or isinstance(number, bool):
        found = (_SUBMISSION_NUMBER.search(i) for i in invitations if isinstance(i, str))
        number = next((int(match.group(1)) for match in found if match), None)
    pdf = _field(note, record, "pdf")
    if not pdf and note_id:
        pdf = f"{OPENREVIEW}/pdf?id={note_id}"
    elif pdf.startswith("/"):
        pdf = OPENREVIEW + pdf
    url = _field(note, record, "url")
    if "openreview.net" not in url or not web_link(url):
        url = f"{OPENREVIEW}/forum?id={note_id}" if note_id else ""
    ratings = confidence = None
    if "rating" in note or "rating" in record:
        ratings = Ratings.from_scores(finite_scores(review_ratings(_value(note, record, "rating")), "rating", dropped))
        confidence = Ratings.from_scores(
            finite_scores(parse_scores(_value(note, record, "confidence")), "confidence", dropped)
        )
    authors = _strings(_value(note, record, "authors"), "authors")
    keywords = _strings(_value(note, record, "keywords"), "keywords")
    primary_area = _field(note, record, "primary_area")
    tldr = next((text for key in _TLDR_KEYS if (text := _field(note, record, key))), "")
    bibtex = _field(note, record, "_bibtex")
    if not bibtex.startswith("@"):
        bibtex = ""  # not an entry (a placeholder, a URL): export generates one instead
    try:
        paper_id = canonical_id(openreview_id=note_id, venue=venue, year=year, number=number, title=title)
    except ValueError:
        return f"no id and a placeholder title ({title!r})"
    known = decision != "unknown"
    given = (title, abstract, venue, year, authors, keywords, primary_area, known,
             ratings, confidence, tldr, number is not None, pdf, url, bibtex)  # fmt: skip
    return Paper(
        id=paper_id,
        title=title,
        abstract=abstract,
        venue=venue,
        year=year,
        sources=sources,
        authors=authors,
        keywords=keywords,
        primary_area=primary_area,
        decision=decision,
        decision_raw=decision_raw,
        ratings=ratings,
        confidence=confidence.mean if confidence else None,
        tldr=tldr,
        openreview_id=note_id,
        number=number,
        pdf_url=pdf,
        openreview_url=url,
        bibtex=bibtex,
        provenance=tuple(pair for pair, value in zip(pairs, given, strict=True) if value),
        modified=_modified(record),
    )


def _modified(record: dict[str, Any]) -> int | None:
    """The note's last modification (``tmdate``, else ``mdate``, in ms), ``None`` when it gives none."""
    for key in ("tmdate", "mdate"):
        value = record.get(key)
        if type(value) is int and value > 0:
            return value
    return None


def _value(note: dict[str, Any], record: dict[str, Any], key: str) -> Any:
    """Field ``key`` of a note: in ``content`` (unwrapping ``{"value": …}``), else top level."""
    value = note.get(key)
    if value is None:
        value = record.get(key)
    return value.get("value") if type(value) is dict else value


def _field(note: dict[str, Any], record: dict[str, Any], key: str) -> str:
    """Text field ``key`` of a note (see :func:`_value`), stripped; ``""`` when missing."""
    value = note.get(key)
    if value is None:
        value = record.get(key)
    if type(value) is dict:
        value = value.get("value")
    if type(value) is str:
        return value.strip()
    return "" if value is None else _text(value, key)


def _text(value: Any, field: str) -> str:
    """A text field (see :func:`text_value`)."""
    return text_value(value, field)


def _strings(value: Any, field: str) -> tuple[str, ...]:
    """Names or keywords, items as given (only a plain ``;``- or ``,``-joined string is split)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = value.split(";" if ";" in value else ",")
    if not isinstance(value, list):
        raise ValueError(f"{field} is {json_kind(value)}, expected a list")
    if all(type(item) is str for item in value):
        return tuple(text for item in value if (text := item.strip()))
    return tuple(text for item in value if (text := _text(item, field)))


def _note_kind(record: dict[str, Any]) -> str:
    """``"Official_Review"`` from the note's invitation ``…/Submission1/-/Official_Review``."""
    invitations = record.get("invitations")
    for invitation in invitations if isinstance(invitations, list) else [record.get("invitation")]:
        if isinstance(invitation, str) and "/-/" in invitation:
            return invitation.rsplit("/-/", 1)[1]
    return "unknown type"


@lru_cache(maxsize=4096)
def _venue_year(domain: str, venueid: str, invitation: str, venue: str) -> tuple[str, int | None]:
    """``("ICLR", 2026)`` from ``ICLR.cc/2026/Conference…`` ids, else from ``ICLR 2026 Poster``,
    else a journal's domain without a year (``("TMLR", None)``)."""
    for group in (domain, venueid, invitation):
        parts = group.split("/")
        for index in range(1, len(parts)):
            if _YEAR.match(parts[index]):
                return parts[index - 1].split(".")[0], int(parts[index])
    match = _VENUE_YEAR_TEXT.match(venue)
    if match is not None and bare_decision(match.group(1)):  # "Poster 2026" names no venue
        match = None
    if match is None and _JOURNAL_ID.match(domain):  # a rolling journal (``TMLR``): a venue, no year
        return domain, None
    return (match.group(1), int(match.group(2))) if match else ("", None)


@lru_cache(maxsize=4096)
def _decision(venue: str, venueid: str, withdrawn: bool) -> tuple[str, str]:
    """``(decision, decision_raw)`` from the venue string, else the venue id; ``withdrawn`` wins."""
    decision, raw = normalise_decision(venue), venue
    if decision == "unknown" and venueid:
        decision, raw = normalise_decision(venueid), venueid
    if withdrawn and decision != "withdrawn":
        decision, raw = "withdrawn", raw or "withdrawn"
    return decision, raw
