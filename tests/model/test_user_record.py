"""A user record read from its stored form is the record the constructor makes: every field, its
equality and hash, and frozen like any other."""

from __future__ import annotations

import dataclasses

import pytest
from paperdeck.model.paper import UserData

RECORDS = [
    UserData("openreview:Rec1"),
    UserData("openreview:Rec2", starred=True),
    UserData(
        "abs:00000000000000aa",
        True,
        "a note\nwith two lines",
        "to-read",
        ("a", "b"),
        "2026-11-29T19:30:00+00:00",
        "2026-11-30T19:30:00+00:00",
        "2026-12-01T08:00:00+00:00",
    ),
]


@pytest.mark.parametrize("record", RECORDS)
def test_a_record_read_back_is_the_record_written(record: UserData) -> None:
    read = UserData.from_dict(record.to_dict())
    assert type(read) is UserData
    assert read == record and hash(read) == hash(record)
    assert [getattr(read, name) for name in UserData.FIELDS] == [getattr(record, name) for name in UserData.FIELDS]
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.note = "changed"  # type: ignore[misc]
    assert read.replaced(starred=not read.starred).starred is not read.starred


def test_values_of_other_types_are_converted_as_before() -> None:
    read = UserData.from_dict({"paper_id": 7, "starred": 1, "note": 5, "tags": ["b", "a", "b"], "created": 3})
    assert read == UserData("7", True, "5", "unseen", ("a", "b"), "3", "", "")
    assert type(read.paper_id) is str and read.starred is True


def test_a_subclass_reads_its_own_records() -> None:
    class Marked(UserData):
        __slots__ = ()

    read = Marked.from_dict({"paper_id": "abs:1", "starred": True})
    assert type(read) is Marked and read.starred and read.paper_id == "abs:1"


def test_missing_tags_are_the_removals_a_record_does_not_hold() -> None:
    """``-nosuch`` on a paper without it: named, cleaned, once (the tag prompt and ``untag`` say so)."""
    from paperdeck.model.user import missing_tags, no_tag_said

    assert missing_tags(["#NoSuch", "later", "nosuch"], ("later",)) == ["nosuch"]
    assert missing_tags(["later"], ("later",)) == []
    assert no_tag_said(["nosuch"]) == "No tag nosuch on this paper: nothing removed."
    assert no_tag_said(["a", "b"], "the 2 marked papers", rest_done=True) == (
        "No tag a, b on the 2 marked papers: the other changes made."
    )
