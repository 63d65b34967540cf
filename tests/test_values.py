"""FrozenValue: the dataclass-free immutable values (a list row, a rendered segment, a field's
rule) behave as frozen dataclasses do."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest
from paperdeck.store.rows import PaperRow
from paperdeck.store.user_fields import FieldRule
from paperdeck.text.render import Segment
from paperdeck.values import FrozenValue


@pytest.mark.parametrize(
    ("value", "same", "other"),
    [
        (PaperRow("p:1", "T", rating=6.0), PaperRow("p:1", "T", False, "unknown", 6.0), PaperRow("p:1", "T")),
        (Segment("x", bold=True), Segment("x", True), Segment("x")),
        (FieldRule(max, None), FieldRule(max, None), FieldRule(min, None)),
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
