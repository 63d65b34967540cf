"""The list's component styles, made once per look of the list's place, each at its first ask, and
then kept (``paperdeck.ui._lines.component_styles``): the first frame styles only the components
its rows draw, a change of focus styles none of its 16 components, and the styles kept are the
ones Textual makes, in every theme, focused or not."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import pytest
from paperdeck.ui.app import PaperApp
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from tests.ui.helpers import main_screen, paper_list, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


async def test_a_change_of_focus_styles_none_of_the_lists_components(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The typed query's first key moves the focus from the list to the filter bar: Textual
    styled each of the list's 16 component classes as a node of its own at that blur (and at
    every focus back); once both looks were made, a change of focus styles none."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        styled: list[str] = []
        apply = Stylesheet.apply

        def counted(self: Stylesheet, node: DOMNode, **kwargs: object) -> None:
            if type(node) is DOMNode and node._parent is papers:
                styled.append(" ".join(sorted(node.classes)))
            apply(self, node, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Stylesheet, "apply", counted)
        for round_ in range(3):
            for key, focused in (("slash", False), ("escape", True)):
                await pilot.press(key)
                await wait_for(pilot, lambda: papers.has_focus == focused)  # noqa: B023
                await settle(pilot)
            if round_ == 0:  # the looks seen first (at the start, the list had the focus alone)
                styled.clear()
        assert styled == []


async def test_the_kept_component_styles_are_the_ones_textual_makes(make_app: AppFactory) -> None:
    """After each change of theme and focus, every component style in place is the one Textual
    makes for the list as it is then (a node of the component's class styled anew)."""
    app = make_app()
    compared = 0
    async with app.run_test(size=(110, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        papers = paper_list(app)
        themes = ["textual-dark", "solarized-light", "ansi-dark", "textual-dark"]
        for theme, focused in product(themes, (papers, None, papers, None)):
            app.theme = theme
            screen.set_focus(focused)
            await pilot.pause()
            await wait_for(pilot, lambda: papers.has_focus == (focused is not None))  # noqa: B023
            # Each component is styled at its first ask (the rows ask for those they draw).
            for name in type(papers).COMPONENT_CLASSES:
                papers.get_component_styles(name)
            in_place = papers._component_styles
            assert set(in_place) == set(type(papers).COMPONENT_CLASSES)
            for name, styles in in_place.items():
                fresh = DOMNode(classes=name)
                fresh._attach(papers)
                app.stylesheet.apply(fresh)
                assert styles.base.get_rules() == fresh.styles.base.get_rules(), (theme, focused, name)
            compared += 1
    assert compared == 16
    assert papers.component_styles.made < compared  # some looks were taken back, not made again


async def test_the_first_frame_styles_only_the_components_its_rows_draw(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual styled each of the list's 16 component classes as a node of its own when the list
    was mounted, and all 16 again when it took the focus (0.37 M instructions each): now each
    component is styled when a row first draws it, once for the look it is drawn in. The first
    rows of this store show no query's matches, no venue column, no tags; the empty list's text
    is not drawn."""
    styled: list[str] = []
    apply = Stylesheet.apply

    def counted(self: Stylesheet, node: DOMNode, **kwargs: object) -> None:
        if type(node) is DOMNode and type(node._parent).__name__ == "PaperList":
            styled.append(" ".join(sorted(node.classes)))
        apply(self, node, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stylesheet, "apply", counted)
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        assert papers.has_focus
        assert {"paper-list--mark", "paper-list--star", "paper-list--cursor"} <= set(styled)
        assert not set(styled) & {"paper-list--match", "paper-list--venue", "paper-list--tags", "paper-list--empty"}
        assert len(styled) == len(set(styled)) < len(type(papers).COMPONENT_CLASSES)
