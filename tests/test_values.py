"""FrozenValue: the dataclass-free immutable values (a list row, a rendered segment, a field's
rule) behave as frozen dataclasses do."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError
from typing import Any, NamedTuple

import pytest
from paperdeck.model.user import UserData
from paperdeck.model.venue import Scale
from paperdeck.search.index import SearchResult
from paperdeck.search.query import Group, Query, Term
from paperdeck.search.views import View
from paperdeck.store.file_stamp import FileStamp
from paperdeck.store.rows import PaperRow, RowColumns, VenueRuns
from paperdeck.store.settings import Settings
from paperdeck.store.user_fields import FieldRule
from paperdeck.text.render import Segment
from paperdeck.ui.commands import Command, Summary
from paperdeck.ui.keymap import KeymapCheck
from paperdeck.ui.widgets.row_cells import ColumnLayout
from paperdeck.values import FrozenValue, TupleValue


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
    assert list(written) == [name for name in Settings.FIELDS if name != "view_sorts"]  # none kept: not written
    assert Settings.checked(written) == (chosen, ())
    sorted_view = chosen.replaced(views={"Orals": "decision:oral"}, view_sorts={"Orals": "rating"})
    assert list(sorted_view.to_dict()) == list(Settings.FIELDS)
    assert Settings.checked(sorted_view.to_dict()) == (sorted_view, ())
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


# The classes made before the first paint, as they were: each against the dataclass or named tuple
# it replaced, made here with the same fields.
@dataclasses.dataclass(frozen=True, slots=True)
class _UserDataWas:
    paper_id: str
    starred: bool = False
    note: str = ""
    status: str = "unseen"
    tags: tuple[str, ...] = ()
    created: str = ""
    updated: str = ""
    looked: str = ""


def test_a_user_record_behaves_as_the_dataclass_it_was() -> None:
    """UserData (every record read before the first paint) is a FrozenValue: the constructor,
    equality, hash, repr and pickling of the frozen dataclass it was; ``replaced`` stands for
    ``dataclasses.replace``."""
    made = [
        ("p:1",),
        ("p:2", True, "a note", "read", ("a", "b"), "2026-01-01", "2026-01-02", "2026-01-03"),
    ]
    for args in made:
        record, was = UserData(*args), _UserDataWas(*args)
        assert isinstance(record, FrozenValue)
        assert repr(record) == repr(was).replace("_UserDataWas", "UserData")
        assert hash(record) == hash(was) and record == UserData(*args)
        assert list(UserData.FIELDS) == [spec.name for spec in dataclasses.fields(was)]
        assert pickle.loads(pickle.dumps(record)) == record
        changed = record.replaced(note="new", tags=("c",))
        assert repr(changed) == repr(dataclasses.replace(was, note="new", tags=("c",))).replace(
            "_UserDataWas", "UserData"
        )
        assert record.note == was.note  # unchanged
        with pytest.raises(TypeError):
            record.replaced(colour="red")
        with pytest.raises(FrozenInstanceError):
            record.note = "changed"  # type: ignore[misc]
    assert UserData("p", starred=True, tags=("x",)) == UserData("p", True, "", "unseen", ("x",))
    assert UserData("p") != _UserDataWas("p")  # another class, as between two dataclasses
    assert UserData.from_dict(UserData("p", True, "n").to_dict()) == UserData("p", True, "n")


class _RowColumnsWas(NamedTuple):
    decisions: bool
    ratings: bool
    areas: bool = False


class _VenueRunsWas(NamedTuple):
    labels: tuple[str, ...] = ()
    runs: tuple[tuple[int, int], ...] = ()


class _KeymapCheckWas(NamedTuple):
    keys: dict[str, str]
    applied: dict[str, str]
    problems: tuple[str, ...]


class _ColumnLayoutWas(NamedTuple):
    badge: bool
    area: int
    rating: bool
    title: int
    spread: bool = False
    moves: bool = False
    venue: int = 0
    rating_cells: int = 7


class _SummaryWas(NamedTuple):
    key: str
    section: str
    description: str
    keys: str = ""


@pytest.mark.parametrize(
    ("made", "was", "args", "keywords"),
    [
        (RowColumns, _RowColumnsWas, (True, False), {}),
        (RowColumns, _RowColumnsWas, (True,), {"ratings": True, "areas": True}),
        (VenueRuns, _VenueRunsWas, (), {}),
        (VenueRuns, _VenueRunsWas, (("A", "B"),), {"runs": ((0, 2), (1, 1))}),
        (KeymapCheck, _KeymapCheckWas, ({"app.quit": "q"}, {}, ("x",)), {}),
        (ColumnLayout, _ColumnLayoutWas, (True, 12, True, 40), {"venue": 12, "rating_cells": 7}),
        (Summary, _SummaryWas, ("views.all", "find", "All papers"), {"keys": "tab"}),
        (Command, None, ("app.quit", "q", "quit", "Quit", "app", "anywhere", "Quit"), {"show": True, "rows": True}),
    ],
)
def test_a_tuple_value_behaves_as_the_named_tuple_it_was(
    made: type[TupleValue], was: type[tuple[Any, ...]] | None, args: tuple[Any, ...], keywords: dict[str, Any]
) -> None:
    """The named tuples made before the first paint are TupleValues: still tuples, equal to and
    hashed as their items, shown, pickled, ``_asdict`` and ``_replace``d as the named tuple was."""
    value = made(*args, **keywords)
    if was is None:  # Command: its fields as the NamedTuple declared them, in order
        was = NamedTuple("Command", [(name, Any) for name in made.FIELDS])  # type: ignore[misc]
        defaults = (None, None, "", False, False, None, "", "", False)
        expected = was(*args, *defaults[len(args) - 5 :])._replace(**keywords)
    else:
        expected = was(*args, **keywords)
    assert isinstance(value, tuple) and tuple(value) == tuple(expected) and value == expected
    if not any(isinstance(item, dict) for item in value):  # a keymap's mappings are not hashable
        assert hash(value) == hash(expected)
    assert list(made.FIELDS) == list(expected._fields)
    assert [getattr(value, name) for name in made.FIELDS] == list(expected)
    assert repr(value) == repr(expected).replace(type(expected).__name__, made.__name__)
    assert value._asdict() == expected._asdict()
    first = made.FIELDS[-1]
    assert value._replace(**{first: value[-1]}) == value and type(value._replace()) is made
    assert pickle.loads(pickle.dumps(value)) == value and type(pickle.loads(pickle.dumps(value))) is made
    with pytest.raises(AttributeError):
        setattr(value, made.FIELDS[0], "changed")
    with pytest.raises(TypeError):
        value._replace(colour="red")


def test_a_search_result_is_a_frozen_value_as_its_dataclass_was() -> None:
    """SearchResult (its module may be imported by the index's worker before the first paint)
    compares and shows as the frozen dataclass it was; its list makes it unhashable, as then."""
    result = SearchResult([3, 1], 5)
    assert isinstance(result, FrozenValue) and result == SearchResult([3, 1], 5) and result != SearchResult([1, 3], 5)
    assert repr(result) == "SearchResult(positions=[3, 1], total=5)"
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(TypeError):
        hash(result)
    with pytest.raises(FrozenInstanceError):
        result.total = 6  # type: ignore[misc]
