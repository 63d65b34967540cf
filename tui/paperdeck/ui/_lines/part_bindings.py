"""A screen's bindings merged with those of the plain classes it is made of.

Textual 8.2.8's ``DOMNode._merge_bindings`` (called by ``DOMNode.__init_subclass__`` as each class
is made) merges the ``BINDINGS`` of the class's ``DOMNode`` bases only. A screen made of a part
that is a plain class (``ReadingScreen``, the main screen's reading-list actions: a Textual class
of its own costs ~2.5 M instructions to make before the first frame, docs/performance.md) declares
that part's keys on the part; :func:`merge_part_bindings` merges them as if the part were a
``DOMNode`` base in its place in the MRO: a key of a class nearer the screen replaces the same key
of the classes before it, as Textual's own merge does.

Textual internals touched: ``DOMNode._merge_bindings`` (the body copied, plain bases with
``BINDINGS`` taken in), ``DOMNode._inherit_bindings``, ``BindingsMap.key_to_bindings`` and
``BindingsMap.from_keys``. Pinned by
``tests/ui/test_commands.py::test_the_main_screen_merges_the_reading_keys_as_a_screen_base_would``.
"""

from __future__ import annotations

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

__all__ = ["merge_part_bindings"]


def merge_part_bindings(cls: type[DOMNode]) -> BindingsMap:
    """``cls``'s bindings: its ``DOMNode`` bases' and its plain bases' that declare ``BINDINGS``,
    in the MRO's order (Textual's ``DOMNode._merge_bindings`` with the plain bases taken in)."""
    bindings: list[BindingsMap] = []
    for base in reversed(cls.__mro__):
        if issubclass(base, DOMNode):
            if not base._inherit_bindings:
                bindings.clear()
        elif "BINDINGS" not in base.__dict__:
            continue
        bindings.append(BindingsMap(base.__dict__.get("BINDINGS", [])))
    keys: dict[str, list[Binding]] = {}
    for bindings_ in bindings:
        for key, key_bindings in bindings_.key_to_bindings.items():
            keys[key] = key_bindings
    return BindingsMap.from_keys(keys)
