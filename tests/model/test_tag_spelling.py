"""One spelling of a tag (:func:`paperdeck.model.user.read_tags`, :func:`clean_tag`): a quoted
phrase typed in the app's tag prompt is one tag, its blanks as ``-`` — what ``paperdeck tag ID
"my tag"`` stores — and a tag stored another way before (``my tag``, by a backup) reads as it."""

from __future__ import annotations

import pytest
from paperdeck.model.user import UserData, clean_tag, read_tags


@pytest.mark.parametrize(
    ("typed", "add", "remove"),
    [
        ("my tag", ["my", "tag"], []),
        ('"my tag"', ["my-tag"], []),
        ('"My  Tag", other', ["my-tag", "other"], []),
        ('later -"my tag" -old', ["later"], ["my-tag", "old"]),
        ('"-x"', [], ["x"]),
        ('"left open', ["left-open"], []),
        ("a,b", ["a", "b"], []),
        ("", [], []),
    ],
)
def test_a_quoted_phrase_is_one_tag(typed: str, add: list[str], remove: list[str]) -> None:
    added, removed = read_tags(typed)
    assert [clean_tag(t) for t in added] == add
    assert [clean_tag(t) for t in removed] == remove


def test_the_prompt_and_the_command_line_spell_a_phrase_alike() -> None:
    """The CLI's argument ``my tag`` (one shell word) and the prompt's ``"my tag"`` are one tag."""
    (typed,), _ = read_tags('"my tag"')
    assert clean_tag(typed) == clean_tag("my tag") == "my-tag"


def test_a_stored_tag_written_with_blanks_reads_as_its_one_spelling() -> None:
    record = UserData.from_dict({"paper_id": "p", "tags": ["my tag", "my-tag", "#Robotics", "  "]})
    assert record.tags == ("my-tag", "robotics")
