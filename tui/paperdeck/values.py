"""Immutable value classes written without :mod:`dataclasses` or named tuples: :class:`FrozenValue`,
:class:`TupleValue`.

A frozen dataclass costs ~0.5–0.8 ms of CPU to make (its methods are generated and compiled at
import), and the classes built on this one are made before the app's first paint or on the
one-paper commands' quick path, which imports neither ``dataclasses`` nor ``typing``. The lowest
room: any room may use it, it imports nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the one-paper commands do not
if TYPE_CHECKING:
    from typing import Any, ClassVar, NoReturn

__all__ = ["FrozenValue", "TupleValue"]


class FrozenValue:
    """A value behaving as a ``@dataclass(frozen=True, slots=True)`` does: compared and hashed by
    its fields in order, shown as ``Name(field=value, …)``, pickled, and assigning or deleting a
    field raises :class:`dataclasses.FrozenInstanceError`.

    A subclass declares ``__slots__``, its fields in order in ``FIELDS``, and an ``__init__``
    taking them in that order and setting each with ``object.__setattr__``.
    """

    __slots__ = ()

    #: The fields, in the order of ``__init__``'s parameters.
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{self.__class__.__name__}({shown})"

    def __reduce__(self) -> tuple[type[FrozenValue], tuple[Any, ...]]:
        return (self.__class__, self._values())

    def __setattr__(self, name: str, value: object) -> NoReturn:
        from dataclasses import FrozenInstanceError  # only when it is raised: no import at start

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")


class TupleValue(tuple):  # type: ignore[type-arg]  # each subclass types its items by its properties
    """A tuple whose items are named, behaving as a ``typing.NamedTuple`` does (a tuple: equal to
    and hashed as the plain tuple of its items, unpacked, indexed; shown as ``Name(field=value,
    …)``, pickled; :meth:`_asdict` and :meth:`_replace`), without the code ``namedtuple``
    generates and compiles when the class is made (~0.9 M instructions each).

    A subclass declares ``__slots__ = ()``, its fields in order in ``FIELDS``, a ``__new__``
    taking them in that order (defaults and keywords as the named tuple had) and calling
    ``tuple.__new__(cls, (…))``, and a property per field reading its item.
    """

    __slots__ = ()

    #: The fields, in the order of the items.
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.FIELDS, self, strict=True))
        return f"{self.__class__.__name__}({shown})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def _asdict(self) -> dict[str, Any]:
        """The items by field name, in order (as a named tuple's ``_asdict``)."""
        return dict(zip(self.FIELDS, self, strict=True))

    def _replace(self, **changes: Any) -> Any:
        """This value with ``changes`` (field name → value), as a named tuple's ``_replace``.

        Raises:
            TypeError: a name is no field.
        """
        return self.__class__(**{**self._asdict(), **changes})
