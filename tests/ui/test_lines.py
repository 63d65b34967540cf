"""The shortcuts under Textual's public API (``paperdeck.ui._lines``) hold for the Textual version
they were written against, and stay inside ``paperdeck.ui``."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import paperdeck
import paperdeck.ui._lines as lines
import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.frames import watch_frames
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.widget import Widget

from tests.ui.helpers import main_screen, settle

AppFactory = Callable[..., PaperApp]
PACKAGE = Path(paperdeck.__file__).parent
REPO = PACKAGE.parents[1]


def test_textual_is_the_version_the_shortcuts_were_written_against() -> None:
    """On another Textual version every shortcut must be checked again (their tests are listed
    in the ``_lines`` docstring), and the version named there updated."""
    named = re.search(r"Written against Textual ``([^`]+)``", lines.__doc__ or "")
    assert named is not None, "the _lines docstring names no Textual version"
    assert version("textual") == named.group(1)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def test_only_paperdeck_ui_imports_the_shortcuts() -> None:
    outside = [
        path for path in [*PACKAGE.rglob("*.py"), *(REPO / "bench").rglob("*.py")] if PACKAGE / "ui" not in path.parents
    ]
    assert len(outside) > 20
    importers = [
        str(path.relative_to(REPO))
        for path in outside
        if any(module.startswith("paperdeck.ui._lines") for module in _imported_modules(path))
    ]
    assert importers == []


def test_no_one_shot_timer_is_made_but_through_one_shot() -> None:
    """Textual's ``set_timer`` skips its only tick when the event loop stalls longer than its delay
    as it starts (the timer never fires): the app's one-shot timers are all
    :func:`paperdeck.ui._lines.timers.one_shot` (``tests/ui/test_detail_follows.py``)."""
    callers = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in PACKAGE.rglob("*.py")
        if PACKAGE / "ui" / "_lines" not in path.parents
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "set_timer"
    ]
    assert callers == []


async def test_watch_frames_reports_each_frame_after_it_is_encoded(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[int] = []
    for update_class in (ChopsUpdate, LayoutUpdate):
        render_segments = update_class.render_segments

        def spy(update: Any, console: Any, render: Any = render_segments) -> str:
            encoded.append(frame[0])
            return str(render(update, console))

        monkeypatch.setattr(update_class, "render_segments", spy)
    frame = [0]
    app = make_app()
    async with app.run_test(size=(80, 16)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        reported: list[object] = []
        encoded_first: list[bool] = []

        def shown() -> int:
            frame[0] += 1
            return frame[0]

        def painted(shows: object) -> None:
            encoded_first.append(encoded[-1:] == [shows])  # this frame's update, encoded before
            reported.append(shows)

        watch_frames(screen, shown, painted)
        screen.query_one("#counts", Widget).refresh()
        await pilot.pause()
        await pilot.pause()
        assert reported  # the repaint was a frame
        assert reported == list(range(1, len(reported) + 1))  # each with what it showed as it started
        assert frame[0] == len(reported)
        assert any(encoded_first)


def test_forget_repaints_of_first_frame_drops_those_asked_before_a_whole_first_frame() -> None:
    """The repaints the widgets on screen asked for before the first frame, drawn whole, are let
    go (they would draw the same cells again); one asked while the frame was drawn, and those of
    a widget not on screen, stay; from the second frame on nothing is touched."""
    from paperdeck.ui._lines.frames import forget_repaints_of_first_frame
    from textual.geometry import Region

    before, during, hidden = Region(0, 0, 4, 1), Region(0, 1, 4, 1), Region(0, 2, 4, 1)

    class Drawn:
        def __init__(self, *regions: Region) -> None:
            self._repaint_regions = set(regions)

    shown, busy, away = Drawn(before), Drawn(before), Drawn(hidden)

    class Compositor:
        def __init__(self) -> None:
            self.visible_widgets = {shown: None, busy: None}

        def render_update(self) -> Any:
            busy._repaint_regions.add(during)  # its render_lines asked for a repaint
            return LayoutUpdate([], Region(0, 0, 4, 3))

    class Screen:
        _compositor = Compositor()

        def walk_children(self, *_: Any) -> list[Drawn]:
            return [shown, busy, away]

    screen: Any = Screen()
    forget_repaints_of_first_frame(screen)
    assert isinstance(screen._compositor.render_update(), LayoutUpdate)
    assert shown._repaint_regions == set()
    assert busy._repaint_regions == {during}
    assert away._repaint_regions == {hidden}
    shown._repaint_regions.add(before)
    screen._compositor.render_update()  # a second frame: Textual's own, unwrapped
    assert shown._repaint_regions == {before}
    # What it stands on in Textual: the regions a widget waits to have repainted, which the
    # compositor takes (update_widgets) for the widgets it shows.
    from textual._compositor import Compositor as TextualCompositor

    assert isinstance(Widget()._repaint_regions, set)
    assert isinstance(TextualCompositor.visible_widgets, property)
    assert "_exchange_repaint_regions" in TextualCompositor.update_widgets.__code__.co_names
