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
components again; and none is styled before it is asked for (:meth:`KeptComponentStyles.make`,
from the widget's ``get_component_styles``): a path's styles are made one component at a time, at
its first use (the list's first frame draws about half of its components; Textual styled all
sixteen, ~0.37 M instructions each, at the list's mount and again as it took the focus). A new
widget type's default CSS makes Textual parse the stylesheet again, but
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
    instance): none. The path's kept styles are put in place instead (the widget repainted when
    they are not the ones in place), empty for a path not seen under the current rules, and the
    widget's ``get_component_styles`` calls :meth:`make` first, which styles a component not yet
    made as Textual would have."""

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
        #: The component styles made for each path (the one in place is the widget's own
        #: ``_component_styles``, filled by ``make``).
        self._kept: dict[tuple[object, ...], dict[str, RenderStyles]] = {}
        #: Counts the changes of the rules that can style a component.
        self._generation = 0
        #: The styles in place: the rules' generation and the path (``None`` before the first).
        self.key: tuple[int, tuple[object, ...]] | None = None
        #: Paths whose styles were made (a path not seen under these rules).
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
                self._styling = styling
                self._generation += 1
                self._named = self._names_of(styling)
                self._kept.clear()
        key = self.path()
        self.key = (self._generation, key)
        kept = self._kept.get(key)
        if kept is None:
            if len(self._kept) >= KEPT_PATHS:
                self._kept.clear()
            kept = self._kept[key] = {}
            self.made += 1
        if widget._component_styles is not kept:
            widget._component_styles = kept
            widget.refresh()
        return frozenset()

    def make(self, names: tuple[str, ...]) -> None:
        """Style each of the components ``names`` whose styles the path in place lacks, as
        Textual does (``Stylesheet._process_component_classes``): a node of the component's
        class under the widget, the stylesheet applied to it."""
        widget = self._widget
        in_place = widget._component_styles
        for name in names:
            if name not in in_place and name in self._classes:
                node = DOMNode(classes=name)
                node._attach(widget)
                widget.app.stylesheet.apply(node, animate=False)
                in_place[name] = node.styles
