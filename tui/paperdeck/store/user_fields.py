"""What each field of a user record (:class:`~paperdeck.model.user.UserData`) does when the
record changes hands, and how large a record may grow.

Two records of one paper combined after an id change, a step applied again by undo or redo: one
table, :data:`USER_FIELDS`, with one rule per field. The sharded store of the records is
:mod:`paperdeck.store.user_data`; a backup's restore (:mod:`paperdeck.store.backup`) and the undo
history (:mod:`paperdeck.reading.history`) apply the same rules.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from paperdeck.model.user import UserData
from paperdeck.values import FrozenValue

__all__ = [
    "KEPT_FIELDS",
    "MARK_FIELDS",
    "MAX_NOTE_CHARS",
    "MAX_TAGS",
    "MAX_TAG_CHARS",
    "USER_FIELDS",
    "FieldRule",
    "apply_change",
    "apply_change_told",
    "combine_records",
    "is_empty",
    "same_marks",
    "size_problem",
]


class FieldRule(FrozenValue):
    """What happens to one field of :class:`UserData` when the record changes hands.

    Attributes:
        combine: ``(kept, moving) -> value``: the field's value when two records of one paper
            come together (an import gives the paper a better id, a record under an alias is
            adopted, a backup restores a record under an older id); ``kept`` is the record under
            the paper's current id, ``moving`` the one under the old id. Nothing the user wrote
            may be dropped.
        patch: ``(current, before, after) -> (value, kept)``: the field's value when a step that
            took it from ``before`` to ``after`` is applied to the record as it is now (undo
            applies it with ``before`` and ``after`` swapped), and whether what another writer put
            there since stood against the step and was kept (the step then overwrites nothing:
            :func:`apply_change_told`); ``None`` for the bookkeeping fields (the id and the
            timestamps, which the store sets).
    """

    __slots__ = ("combine", "patch")
    FIELDS = ("combine", "patch")

    combine: Callable[[UserData, UserData], Any]
    patch: Callable[[Any, Any, Any], tuple[Any, bool]] | None

    # Immutable as a frozen dataclass is (FrozenValue): making a dataclass (~0.5 ms of CPU) would
    # come before the app's first paint.
    def __init__(
        self,
        combine: Callable[[UserData, UserData], Any],
        patch: Callable[[Any, Any, Any], tuple[Any, bool]] | None,
    ) -> None:
        object.__setattr__(self, "combine", combine)
        object.__setattr__(self, "patch", patch)


def _set_if_still(current: Any, before: Any, after: Any) -> tuple[Any, bool]:
    """A star or a status: ``after`` when the step touched the field and it still holds ``before``
    (what the step left); a value written elsewhere since is kept (and said to be)."""
    if before == after or current == after:
        return current, False
    if current == before:
        return after, False
    return current, True


def _note_patched(current: str, before: str, after: str) -> tuple[str, bool]:
    """A note: ``after`` when the step touched it and it still holds ``before``; a note written
    elsewhere since is kept, with the text the step would bring back after it (both texts, as a
    save over a note changed meanwhile keeps them)."""
    value, kept = _set_if_still(current, before, after)
    if kept and after and after not in current:
        value = f"{current}\n\n{after}"
    return value, kept


def _tags_patched(
    current: tuple[str, ...], before: tuple[str, ...], after: tuple[str, ...]
) -> tuple[tuple[str, ...], bool]:
    """Tags: the ones the step added are added, the ones it removed are removed, others stay (each
    tag is on or off: one written elsewhere since is already what the step gives, none is lost)."""
    return tuple(sorted((set(current) - (set(before) - set(after))) | (set(after) - set(before)))), False


def _status_combined(kept: UserData, moving: UserData) -> str:
    """A status the user set beats ``unseen``; of two set ones, the later-changed record's."""
    if moving.status == "unseen":
        return kept.status
    if kept.status == "unseen" or moving.updated > kept.updated:
        return moving.status
    return kept.status


#: One rule for every field of :class:`UserData` (checked when this module is imported: a field
#: added to the record without a rule here is an error, so no id change can drop it).
USER_FIELDS: dict[str, FieldRule] = {
    "paper_id": FieldRule(lambda kept, moving: kept.paper_id, None),
    "starred": FieldRule(lambda kept, moving: kept.starred or moving.starred, _set_if_still),
    "note": FieldRule(
        lambda kept, moving: "\n\n".join(dict.fromkeys(n for n in (kept.note, moving.note) if n)), _note_patched
    ),
    "status": FieldRule(_status_combined, _set_if_still),
    "tags": FieldRule(lambda kept, moving: tuple(sorted(set(kept.tags) | set(moving.tags))), _tags_patched),
    "created": FieldRule(lambda kept, moving: min(filter(None, (kept.created, moving.created)), default=""), None),
    "updated": FieldRule(lambda kept, moving: max(kept.updated, moving.updated), None),
    # When the user last opened the paper: the later of the two. Not a mark: undo leaves it.
    "looked": FieldRule(lambda kept, moving: max(kept.looked, moving.looked), None),
}
if set(USER_FIELDS) != set(UserData.FIELDS):  # pragma: no cover - a programming error
    raise RuntimeError(f"USER_FIELDS must have exactly one rule per UserData field: {sorted(USER_FIELDS)}")

#: The fields the user sets (star, note, status, tags…): those with a :attr:`FieldRule.patch`.
MARK_FIELDS: tuple[str, ...] = tuple(name for name, rule in USER_FIELDS.items() if rule.patch is not None)


def combine_records(kept: UserData, moving: UserData) -> UserData:
    """Two records of one paper as one, under ``kept``'s id, by the rule of each field
    (:data:`USER_FIELDS`): starred if either is, both notes, the status the user set, all tags,
    the earliest ``created`` and latest ``updated``. ``combine_records(r, UserData(r.paper_id))``
    is ``r``."""
    return kept.replaced(**{name: rule.combine(kept, moving) for name, rule in USER_FIELDS.items()})


def apply_change(current: UserData, before: UserData, after: UserData) -> UserData:
    """``current`` with the change ``before`` → ``after`` applied (:func:`apply_change_told`)."""
    return apply_change_told(current, before, after)[0]


def apply_change_told(current: UserData, before: UserData, after: UserData) -> tuple[UserData, tuple[str, ...]]:
    """``current`` with the change ``before`` → ``after`` (an undo or redo of a step) applied to
    the fields it touched only (:attr:`FieldRule.patch`), and the names of the fields it left as
    another writer wrote them since. A field is set to ``after``'s value only while it still holds
    ``before``'s: what another writer changed since, in any field, is never overwritten (a note
    keeps both texts). The timestamps are left to the store."""
    values: dict[str, Any] = {}
    kept: list[str] = []
    for name, rule in USER_FIELDS.items():
        if rule.patch is not None:
            values[name], stood = rule.patch(getattr(current, name), getattr(before, name), getattr(after, name))
            if stood:
                kept.append(name)
    return current.replaced(**values), tuple(kept)


#: The fields that make a record worth keeping: the marks, and when the paper was last opened.
KEPT_FIELDS: tuple[str, ...] = (*MARK_FIELDS, "looked")

_marks = attrgetter(*MARK_FIELDS)  # read for every record at start-up: one C call per record
_kept = attrgetter(*KEPT_FIELDS)
_NOTHING_KEPT = _kept(UserData(""))


def is_empty(record: UserData) -> bool:
    """True when the record says nothing in any field the user sets and the paper was never
    opened: it need not be kept."""
    return bool(_kept(record) == _NOTHING_KEPT)


def same_marks(a: UserData, b: UserData) -> bool:
    """True when both records say the same in every field the user sets (:data:`MARK_FIELDS`),
    whatever their timestamps."""
    return bool(_marks(a) == _marks(b))


#: Longest note, most tags and longest tag a record may hold (characters): far above what anyone
#: writes; a larger one is a paste gone wrong or a hostile file, and would stall every reader.
MAX_NOTE_CHARS = 1_000_000
MAX_TAGS = 1_000
MAX_TAG_CHARS = 200


def size_problem(record: UserData) -> str | None:
    """What makes ``record`` too large to keep (one line: which field, its size, the limit), or
    ``None``. Every write (the app, the CLI, undo, a restore) checks it first."""
    sizes = (
        ("the note", len(record.note), MAX_NOTE_CHARS, "characters"),
        ("the tags", len(record.tags), MAX_TAGS, "tags"),
        ("a tag", max(map(len, record.tags), default=0), MAX_TAG_CHARS, "characters"),
    )
    for what, size, limit, unit in sizes:
        if size > limit:
            return f"{what} of {record.paper_id} would hold {size:,} {unit}, more than the {limit:,} paperdeck keeps"
    return None
