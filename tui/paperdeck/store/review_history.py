"""Every version of a note: merging what an import reads into what the review store holds.

OpenReview overwrites a review when it is edited; only a copy taken earlier tells what it said
before. The review store keeps, for each note, its current version whole (text and scores, at its
``tmdate``) and each earlier version's scores only, oldest first: :attr:`Review.earlier
<paperdeck.model.review.Review.earlier>`, stored as the note's ``"v"`` key (``[[time, {field:
score}], …]``, left out for a note seen in one version; :meth:`Review.to_dict
<paperdeck.model.review.Review.to_dict>`). A version's time is the note's ``tmdate``, else its
``mdate``, else (no time at all) the time of the import that saw it. For the shipped ICLR 2026
files this adds one short list to 932 of 75,848 reviews: the store grows by well under 1 %.

:func:`merge_versions` is the one rule, the same within one file, across the files of an import,
across imports and across fetches:

- versions are keyed by time: the same time with the same scores is one version (a file imported
  again adds nothing); the same time with other scores keeps the version met first (stored before
  read) and counts the other (:data:`CONFLICT`);
- every version is placed in time order, whenever it arrives: one older than the stored current
  version joins the history and leaves the current version (its text) as it is; one newer becomes
  the current version. Nothing is reordered or invented: the history only ever gains versions;
- a version with no time takes the import's, unless its scores are the current version's (a file
  without times imported again adds nothing);
- a version of an official review without a rating, where another version of it has one, is
  skipped and counted (:data:`NO_RATING`); non-numeric scores never get here (the reader skips
  the reply as malformed, :mod:`paperdeck.sources.review_notes`);
- a version without text (a snapshot's scores, :mod:`paperdeck.sources.papercopilot`) that is the
  latest keeps the text of the latest version that has some.

Snapshot reviews (note ids :func:`snapshot_note_id`: a paper's reviewer seen in a snapshot of
scores) are joined to the OpenReview review of the same paper signed by the same reviewer,
whichever arrives first (:func:`snapshot_joins`): their versions become that review's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from paperdeck.model.review import REVIEW, Review, ReviewVersion
from paperdeck.model.review import SNAPSHOT_PREFIX as _SNAPSHOT_PREFIX

__all__ = [
    "CONFLICT",
    "NO_RATING",
    "SNAPSHOT_PREFIX",
    "VersionMerge",
    "merge_versions",
    "renamed",
    "snapshot_joins",
    "snapshot_note_id",
]

#: The prefix of a snapshot review's note id (:func:`snapshot_note_id`), the model's.
SNAPSHOT_PREFIX = _SNAPSHOT_PREFIX


def snapshot_note_id(forum: str, reviewer: str) -> str:
    """The note id of reviewer ``reviewer``'s review of paper ``forum`` read from a snapshot of
    scores: ``"pc_<forum>_<reviewer>"`` (a plain token when both are)."""
    return f"{SNAPSHOT_PREFIX}{forum}_{reviewer}"


def snapshot_joins(ids_signatures: list[tuple[str, str, str]]) -> dict[str, str]:
    """Which snapshot review is which OpenReview review: ``(note id, kind, signature)`` of one
    paper's notes (stored and read) → ``{snapshot note id: OpenReview note id}`` for each
    snapshot review whose signature is that of exactly one official review not from a snapshot."""
    real: dict[str, list[str]] = {}
    for note_id, kind, signature in ids_signatures:
        if kind == REVIEW and signature and not note_id.startswith(SNAPSHOT_PREFIX):
            real.setdefault(signature, []).append(note_id)
    joins = {}
    for note_id, _, signature in ids_signatures:
        if note_id.startswith(SNAPSHOT_PREFIX) and len(found := set(real.get(signature, ()))) == 1:
            joins[note_id] = found.pop()
    return joins


#: Skip reason: a version at the time of another one, with other scores (the first one met is kept).
CONFLICT = "review version at the time of another, with other scores"
#: Skip reason: a version of an official review without a rating, where another version has one.
NO_RATING = "review version without a rating"


@dataclass(frozen=True, slots=True)
class VersionMerge:
    """What :func:`merge_versions` made of one note.

    Attributes:
        review: the note as it is to be stored: its current version (the latest) whole, every
            earlier version's scores in :attr:`Review.earlier`; ``None`` when no usable version
            was given and none was stored.
        added: versions the stored note did not have (``0``: nothing to write).
        current_changed: the current version is another than the stored one (a newer version
            came, or nothing was stored).
        skipped: versions left out, by reason (:data:`CONFLICT`, :data:`NO_RATING`).
    """

    review: Review | None
    added: int
    current_changed: bool
    skipped: Counter[str]


def merge_versions(stored: Review | None, incoming: Sequence[Review], now_ms: int) -> VersionMerge:
    """Merge the versions of one note read by an import into the note as stored.

    Args:
        stored: the note as the store holds it (its history in ``earlier``), ``None``: not stored.
        incoming: the versions read (same note id), in the order met, any times; each may carry
            earlier versions of its own (a note exported by paperdeck).
        now_ms: the import's time, milliseconds since the epoch, for versions without a time.

    Returns:
        the merge (the module docstring gives the rules); ``added`` counts versions by time.
    """
    skipped: Counter[str] = Counter()
    # time -> scores, and time -> the whole note for the versions that carry their text
    scores_at: dict[int, tuple[tuple[str, float], ...]] = {}
    whole_at: dict[int, Review] = {}
    stored_times: set[int] = set()
    if stored is not None:
        for version in stored.history():
            scores_at.setdefault(version.time, version.scores)
        whole_at[stored.tmdate] = stored
        stored_times = set(scores_at)
    held_notes = [stored] if stored is not None else []
    rated = any(
        note.kind == REVIEW and any(_has_rating_scores(version) for version in note.history())
        for note in (*held_notes, *incoming)
    )
    current = stored
    for note in incoming:
        versions = list(note.earlier)
        time = note.tmdate
        if time <= 0:
            latest = max(scores_at) if scores_at else None
            if latest is not None and scores_at[latest] == note.scores:
                continue  # the current version again, without a time
            time = max(now_ms, (latest or 0) + 1)
        versions.append(ReviewVersion(time, note.scores))
        for version in versions:
            if rated and note.kind == REVIEW and not _has_rating_scores(version):
                skipped[NO_RATING] += 1
                continue
            held = scores_at.get(version.time)
            if held is None:
                scores_at[version.time] = version.scores
                if version.time == time:
                    whole_at[time] = note if note.tmdate == time else _at(note, time)
            elif held != version.scores:
                skipped[CONFLICT] += 1
    if not scores_at:
        return VersionMerge(stored, 0, False, skipped)
    latest = max(scores_at)
    head = whole_at.get(latest)
    if head is None:  # the latest version came as scores only (another note's history): keep the text held
        base = current if current is not None else next(iter(whole_at.values()), None)
        if base is None:
            return VersionMerge(stored, 0, False, skipped)
        head = _at(base, latest, scores_at[latest])
    if not head.sections:  # a snapshot's scores: the text as last written
        texts = [note for time, note in sorted(whole_at.items()) if note.sections and note.id == head.id]
        if texts:
            head = _at(texts[-1], latest, head.scores)
    earlier = tuple(ReviewVersion(time, scores_at[time]) for time in sorted(scores_at) if time < latest)
    added = len(set(scores_at) - stored_times)
    if added == 0 and stored is not None:
        return VersionMerge(stored, 0, False, skipped)
    if head.earlier != earlier:
        head = _with_earlier(head, earlier)
    changed = stored is None or latest != stored.tmdate
    return VersionMerge(head, added, changed, skipped)


def _has_rating_scores(version: ReviewVersion) -> bool:
    return version.score("rating") is not None


def _at(note: Review, time: int, scores: tuple[tuple[str, float], ...] | None = None) -> Review:
    """``note`` as the version at ``time`` (with ``scores`` when given)."""
    return Review(
        note.id, note.forum, note.replyto, note.kind, note.signature, note.number, note.cdate, time,
        note.scores if scores is None else scores, note.score_labels, note.sections, note.venue_id, note.earlier,
    )  # fmt: skip


def renamed(note: Review, note_id: str) -> Review:
    """``note`` under the id ``note_id`` (a snapshot review joined to its OpenReview review)."""
    return Review(
        note_id, note.forum, note.replyto, note.kind, note.signature, note.number, note.cdate, note.tmdate,
        note.scores, note.score_labels, note.sections, note.venue_id, note.earlier,
    )  # fmt: skip


def _with_earlier(note: Review, earlier: tuple[ReviewVersion, ...]) -> Review:
    return Review(
        note.id, note.forum, note.replyto, note.kind, note.signature, note.number, note.cdate, note.tmdate,
        note.scores, note.score_labels, note.sections, note.venue_id, earlier,
    )  # fmt: skip
