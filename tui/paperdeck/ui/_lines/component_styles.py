"""A widget's component classes styled once for each look of its place in the DOM, then kept.

Textual applies the stylesheet to a widget whenever its pseudo-classes change (a focus moving to
or from it, the mouse over it), and each time it also makes a node of each of the widget's
``COMPONENT_CLASSES`` and applies the whole stylesheet to that node
(``Stylesheet._process_component_classes``). ``PaperList`` declares 16: the typed query's first key
moves the focus from the list to the filter bar, and that blur alone styled 17 nodes.

What a component's styles can depend on is what the rules that can style its node (those whose
last selector is ``*``, the node's type or one of the component classes: ``Stylesheet.apply``'s
first cut) can match on the path from the app to that node: each node's type, and of its id,
classes and pseudo-classes those these rules' selectors name. :class:`KeptComponentStyles` keeps
the component styles Textual made, under that path (the ``key``), and while those rules are the
same objects, a path seen before takes its kept styles back instead of Textual styling the
components again. A new widget type's default CSS makes Textual parse the stylesheet again, but
from its cache of each source's rules, so the rules of the sources that did not change are the
same objects (the detail pane's body, mounted after the first row, is such a type); a theme
change or a reload parses every source anew, and the kept styles are dropped. A component style
is a ``RenderStyles`` that Textual reads and never changes in place once made, so a kept one is
the one Textual would make again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.model import SelectorType
from textual.dom import DOMNode

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.styles import RenderStyles
    from textual.widget import Widget

#: Paths kept at most (a widget meets a few: focused or not, under the mouse or not, per theme).
KEPT_PATHS = 32


class KeptComponentStyles:
    """The component styles of ``widget``, kept per path (see the module docstring). Made in the
    widget's ``__init__``; from then on Textual asks this object, not the widget's class, which
    component classes are to be styled (``DOMNode._get_component_classes``, shadowed on the
    instance): all of them for a path not seen under the current rules, none for one seen (its
    kept styles are put back, and the widget repainted when they are not the ones in place)."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._classes = type(widget)._get_component_classes()
        #: What a component's node is matched by (``DOMNode._selector_names``).
        self._names = frozenset({"*", *(base.__name__ for base in DOMNode._css_bases(DOMNode))}) | {
            f".{name}" for name in self._classes
        }
        #: The stylesheet's rules (the list object) last looked at, and of them those that can
        #: style a component, in order: the kept styles were made under these.
        self._rules: object = None
        self._styling: tuple[RuleSet, ...] = ()
        #: The ids, classes and pseudo-classes the rules that can style a component name.
        self._named: tuple[frozenset[str], frozenset[str], frozenset[str]] = (frozenset(), frozenset(), frozenset())
        self._kept: dict[tuple[object, ...], dict[str, RenderStyles]] = {}
        #: The path whose styles Textual is making (taken into ``_kept`` at the next ask).
        self._making: tuple[object, ...] | None = None
        #: Counts the changes of the rules that can style a component.
        self._generation = 0
        #: The styles in place: the rules' generation and the path (``None`` before the first).
        self.key: tuple[int, tuple[object, ...]] | None = None
        #: Times Textual was asked to style the components (a path not seen under these rules).
        self.made = 0
        widget._get_component_classes = self._classes_to_style  # type: ignore[assignment]

    def path(self) -> tuple[object, ...]:
        """What the rules that can style a component can match on the path from the app to
        ``widget``: each node's type, and the ids, classes and pseudo-classes they name."""
        ids, classes, pseudo_classes = self._named
        return tuple(
            (
                type(node),
                node.id if node.id in ids else None,
                node.classes & classes,
                frozenset(name for name in pseudo_classes if node.has_pseudo_class(name)),
            )
            for node in self._widget.ancestors_with_self
        )

    @staticmethod
    def _names_of(styling: tuple[RuleSet, ...]) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """The ids, classes and pseudo-classes named by the selectors of ``styling``."""
        ids: set[str] = set()
        classes: set[str] = set()
        pseudo_classes: set[str] = set()
        for rule in styling:
            for selector_set in rule.selector_set:
                for selector in selector_set.selectors:
                    pseudo_classes.update(selector.pseudo_classes)
                    if selector.type == SelectorType.ID:
                        ids.add(selector.name)
                    elif selector.type == SelectorType.CLASS:
                        classes.add(selector.name)
        return frozenset(ids), frozenset(classes), frozenset(pseudo_classes)

    def _classes_to_style(self) -> frozenset[str]:
        widget = self._widget
        rules = widget.app.stylesheet.rules
        if rules is not self._rules:
            self._rules = rules
            styling = tuple(rule for rule in rules if not self._names.isdisjoint(rule.selector_names))
            same = len(styling) == len(self._styling) and all(
                a is b for a, b in zip(styling, self._styling, strict=True)
            )
            if not same:
                self._styling, self._making = styling, None
                self._generation += 1
                self._named = self._names_of(styling)
                self._kept.clear()
        if self._making is not None:  # the styles Textual made at the last ask
            if len(self._kept) >= KEPT_PATHS:
                self._kept.clear()
            self._kept[self._making] = dict(widget._component_styles)
            self._making = None
        key = self.path()
        self.key = (self._generation, key)
        kept = self._kept.get(key)
        if kept is None:
            self._making = key
            self.made += 1
            return self._classes
        in_place = widget._component_styles
        if in_place.keys() != kept.keys() or any(in_place[name] is not styles for name, styles in kept.items()):
            in_place.clear()
            in_place.update(kept)
            widget.refresh()
        return frozenset()
