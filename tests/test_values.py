"""FrozenValue: the dataclass-free immutable values (a list row, a rendered segment, a field's
rule) behave as frozen dataclasses do."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest
from paperdeck.model.venue import Scale
from paperdeck.search.query import Group, Query, Term
from paperdeck.search.views import View
from paperdeck.store.file_stamp import FileStamp
from paperdeck.store.rows import PaperRow
from paperdeck.store.settings import Settings
from paperdeck.store.user_fields import FieldRule
from paperdeck.text.render import Segment
from paperdeck.values import FrozenValue


@pytest.mark.parametrize(
    ("value", "same", "other"),
    [
        (PaperRow("p:1", "T", rating=6.0), PaperRow("p:1", "T", False, "unknown", 6.0), PaperRow("p:1", "T")),
        (Segment("x", bold=True), Segment("x", True), Segment("x")),
        (FieldRule(max, None), FieldRule(max, None), FieldRule(min, None)),
        (Scale((1.0, 2.0)), Scale((1.0, 2.0)), Scale((1.0, 3.0))),
        (Term("word", "x"), Term("word", "x", ":"), Term("title", "x")),
        (Group("OR", (Term("word", "a"),)), Group("OR", (Term("word", "a"),)), Group("AND", (Term("word", "a"),))),
        (View("Orals", "decision:oral"), View("Orals", "decision:oral", False), View("Orals", "decision:oral", True)),
        (FileStamp(1, 2, 3, 4, 5), FileStamp(1, 2, 3, 4, 5), FileStamp(1, 2, 3, 4, 6)),
    ],
)
def test_a_frozen_value_is_equal_hashed_shown_and_pickled_by_its_fields(
    value: FrozenValue, same: FrozenValue, other: FrozenValue
) -> None:
    assert value == same and hash(value) == hash(same)
    assert value != other
    assert repr(value).startswith(f"{type(value).__name__}({value.FIELDS[0]}=")
    assert all(f"{name}=" in repr(value) for name in value.FIELDS)
    assert set(value.FIELDS) == set(type(value).__slots__)
    assert pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(FrozenInstanceError):
        setattr(value, value.FIELDS[0], "changed")
    with pytest.raises(FrozenInstanceError):
        delattr(value, value.FIELDS[0])
    assert value == same  # unchanged


def test_values_of_two_classes_are_never_equal() -> None:
    assert Segment("p:1") != PaperRow("p:1", "")
    assert PaperRow("p:1", "T").__eq__(Segment("p:1")) is NotImplemented


def test_settings_are_a_frozen_value_replaced_and_written_as_a_dataclass_was() -> None:
    """Settings (made before the first paint) are a FrozenValue: ``replaced`` and ``to_dict``
    stand for ``dataclasses.replace`` and ``asdict``; unhashable, as their mappings are."""
    chosen = Settings(theme="gruvbox", keymap={"star": "f"})
    assert isinstance(chosen, FrozenValue) and chosen == Settings(theme="gruvbox", keymap={"star": "f"})
    assert Settings().keymap is not Settings().keymap  # each its own, as a default factory's
    moved = chosen.replaced(list_width=60)
    assert moved.list_width == 60 and moved.theme == "gruvbox" and chosen.list_width == 55
    with pytest.raises(TypeError):
        chosen.replaced(colour="red")
    written = chosen.to_dict()
    assert list(written) == list(Settings.FIELDS) and Settings.checked(written) == (chosen, ())
    written["keymap"]["star"] = "g"
    assert chosen.keymap == {"star": "f"}  # copied, as asdict copies
    with pytest.raises(FrozenInstanceError):
        chosen.theme = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(chosen)


def test_a_query_is_a_frozen_value_replaced_as_a_dataclass_was() -> None:
    """A parsed query, its terms and a view are made at a query's first key: FrozenValues, not
    dataclasses; ``Query.replaced`` stands for ``dataclasses.replace``, each list its own."""
    query = Query("reap like:starred", ["reap"], Term("title", "x"), like=["starred"])
    assert isinstance(query, FrozenValue) and Query("x").words is not Query("x").words
    unranked = query.replaced(like=[])
    assert unranked == Query("reap like:starred", ["reap"], Term("title", "x")) and query.like == ["starred"]
    with pytest.raises(TypeError):
        query.replaced(colour="red")
    with pytest.raises(FrozenInstanceError):
        query.text = "changed"  # type: ignore[misc]
