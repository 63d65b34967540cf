"""The user's data about a paper (:class:`UserData`: star, note, reading status, tags), apart from
the paper record (:mod:`paperdeck.model.paper`): opening the store reads every record before the
first frame, which needs no paper record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from paperdeck.values import FrozenValue


class UserData(FrozenValue):
    """What the user said about one paper.

    Immutable, compared and hashed by its fields, as a frozen dataclass is
    (:class:`~paperdeck.values.FrozenValue`: the user data are read before the first paint,
    where making a dataclass would cost ~6 M instructions); :meth:`replaced` stands for
    ``dataclasses.replace`` and :data:`FIELDS` for ``dataclasses.fields``.

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

    __slots__ = ("created", "looked", "note", "paper_id", "starred", "status", "tags", "updated")
    FIELDS = ("paper_id", "starred", "note", "status", "tags", "created", "updated", "looked")

    paper_id: str
    starred: bool
    note: str
    status: str
    tags: tuple[str, ...]
    created: str
    updated: str
    looked: str

    def __init__(
        self,
        paper_id: str,
        starred: bool = False,
        note: str = "",
        status: str = "unseen",
        tags: tuple[str, ...] = (),
        created: str = "",
        updated: str = "",
        looked: str = "",
    ) -> None:
        put = object.__setattr__
        put(self, "paper_id", paper_id)
        put(self, "starred", starred)
        put(self, "note", note)
        put(self, "status", status)
        put(self, "tags", tags)
        put(self, "created", created)
        put(self, "updated", updated)
        put(self, "looked", looked)

    def replaced(self, **changes: Any) -> UserData:
        """This record with ``changes`` (field name → value), as ``dataclasses.replace`` makes it
        (through ``__init__``: a subclass's record stays of its class).

        Raises:
            TypeError: a name is no field.
        """
        return self.__class__(**{**{name: getattr(self, name) for name in self.FIELDS}, **changes})

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
                _stored_tags(tags) if tags else (),
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
        record.tags = _stored_tags(tags) if tags else ()
        record.created = created if type(created) is str else str(created)
        record.updated = updated if type(updated) is str else str(updated)
        record.looked = looked if type(looked) is str else str(looked)
        record.__class__ = UserData  # type: ignore[assignment]
        return record  # type: ignore[return-value]


class _UserDataSlots(FrozenValue):
    """The layout of :class:`UserData` (its slots, in its order), without its frozen ``__setattr__``:
    :meth:`UserData.from_dict` fills one, then makes it a :class:`UserData` (a class assignment
    Python allows between classes of one base and the same slots)."""

    __slots__ = UserData.__slots__
    __setattr__ = object.__setattr__  # type: ignore[assignment]
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
    ``"must-read"``), without the ``#`` the app and the exports write before a tag (``"#moe"`` →
    ``"moe"``; a tag of ``#`` signs only is kept as typed) and without double quotes, which the
    query language reads as quoting (``tag:"q`` could not be typed); ``""`` for a blank one. The
    ``#`` goes before the white space becomes ``-`` (``"# must read"`` → ``"must-read"``)."""
    text = text.replace('"', " ").casefold()
    return "-".join(text.lstrip().lstrip("#").split()) or "-".join(text.split())


def read_tags(text: str) -> tuple[list[str], list[str]]:
    """The tags typed on one line (the app's tag prompt) → (to add, to remove), each as typed
    (:func:`clean_tag` stores it). The one rule of a tag's spelling, which the command line,
    ``tag:`` in a query and every import follow too: blanks and commas separate tags, a quoted
    phrase is one tag whose inner blanks become ``-`` (``"my tag"`` → ``my-tag``, what ``paperdeck
    tag ID "my tag"`` stores), and a ``-`` before a tag (``-old``, ``-"my tag"``) removes it. A
    quote left open runs to the end of the line."""
    add: list[str] = []
    remove: list[str] = []
    piece: list[str] = []
    quoted = False
    for char in [*text, " "]:
        if char == '"':
            quoted = not quoted
            piece.append(char)  # kept: ``-"x"`` is told from ``"-x"`` below, clean_tag drops it
        elif quoted or not (char.isspace() or char == ","):
            piece.append(char)
        elif piece:
            _sort_tag("".join(piece), add, remove)
            piece = []
    if piece:  # a quote left open at the end of the line
        _sort_tag("".join(piece), add, remove)
    return add, remove


def _sort_tag(word: str, add: list[str], remove: list[str]) -> None:
    """Put ``word`` (a tag as typed, quotes and all) in ``remove`` when a ``-`` begins it
    (``-x``, ``-"my tag"``, ``"-x"``: a tag so named could not be typed), else in ``add``."""
    bare = word.replace('"', " ").strip()
    if bare.startswith("-"):
        remove.append(bare[1:])
    else:
        add.append(word)


def split_tags(texts: Iterable[str]) -> list[str]:
    """Tags as typed, one per comma-separated piece (``["x, y"]`` → ``["x", "y"]``, ``["robotics,",
    "hands"]`` → ``["robotics", "hands"]``): a comma is never part of a tag. Empty pieces are dropped;
    a text of commas and blanks only gives ``""``, which :func:`blank_tag` refuses."""
    return [piece for text in texts for piece in ([p for p in text.split(",") if p.strip()] or [""])]


def _stored_tags(tags: Iterable[object]) -> tuple[str, ...]:
    """A stored record's tags as :func:`clean_tag` spells them (sorted, no blank, no duplicate): a
    tag written another way before (``my tag`` by a backup or an older paperdeck) is the tag
    ``my-tag`` that ``tag:my-tag`` finds and the prompt removes."""
    return tuple(sorted({clean_tag(str(tag)) for tag in tags} - {""}))


#: Why a blank tag is refused (one line; the CLI and the app's tag prompt say it).
BLANK_TAG = "a tag cannot be empty or blank: give it a letter, digit or sign"


def blank_tag(texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` is a tag that :func:`clean_tag` leaves empty (``""``, ``"  "``):
    refused with :data:`BLANK_TAG`, never taken for a tag already there or not there."""
    return any(not clean_tag(text) for text in texts)


def colon_tag(texts: Iterable[str]) -> str:
    """The first of ``texts`` (tags as typed, to add) that holds a ``:`` once cleaned, ``""`` when
    none does. Such a tag is refused (:func:`colon_refusal`): ``tag:week1`` could not be searched
    sanely (a query reads ``tag:tag:week1``, ``tag:a:b`` as terms), and most often it is a query
    typed into the tags by mistake."""
    return next((text for text in texts if ":" in clean_tag(text)), "")


def colon_refusal(text: str) -> str:
    """Why the tag ``text`` (see :func:`colon_tag`) is refused, in one line naming it, with the
    tag meant when it begins with a query's ``tag:`` (``tag:week1`` → ``week1``)."""
    tag = clean_tag(text)
    meant = "-".join(tag.removeprefix("tag:").replace(":", " ").split())
    return f"a tag cannot hold ':' ({tag}); type {meant}" if meant else f"a tag cannot hold ':' ({tag})"


def with_tags(record: UserData, add: Iterable[str] = (), remove: Iterable[str] = ()) -> UserData:
    """``record`` with tags added and removed (cleaned, sorted, no duplicates)."""
    tags = set(record.tags) | {clean_tag(t) for t in add}
    tags -= {clean_tag(t) for t in remove}
    tags.discard("")
    return record.replaced(tags=tuple(sorted(tags)))


def missing_tags(remove: Iterable[str], tags: Iterable[str]) -> list[str]:
    """The tags of ``remove`` (as typed) that ``tags`` (as stored) do not hold, cleaned, in order,
    once each: the tags a removal would not find."""
    held = set(tags)
    return list(dict.fromkeys(t for t in map(clean_tag, remove) if t and t not in held))


def no_tag_said(missing: Iterable[str], where: str = "this paper", rest_done: bool = False) -> str:
    """What a removal of tags ``where`` does not hold says, in one line: ``"No tag nosuch on this
    paper: nothing removed."``, or, when other tags were changed, ``"No tag nosuch on this paper:
    the other changes made."``."""
    names = ", ".join(missing)
    return f"No tag {names} on {where}: {'the other changes made' if rest_done else 'nothing removed'}."


__all__ = [
    "BLANK_TAG",
    "STATUSES",
    "UserData",
    "blank_tag",
    "clean_tag",
    "colon_refusal",
    "colon_tag",
    "missing_tags",
    "no_tag_said",
    "read_tags",
    "split_tags",
    "with_tags",
]
