"""Every part of a list row is readable in every built-in theme: the highlighted row's title,
badge, rating, area, star, note, status, follow, changed and mark characters, and the matched words, each at a
WCAG contrast of at least 4.5:1 against the background it is drawn on — computed from the
segments the list renders, focused and not."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings, with_tags
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.contrast import MIN_CONTRAST, contrast, triplet
from rich.segment import Segment
from textual.strip import Strip

from tests.ui.helpers import main_screen, paper_list, settle


def store_of_every_kind(tmp_path: Path) -> Store:
    """Papers with every column and marker: decisions accepted and rejected, ratings, areas, a
    derived title; the first starred, noted, to-read and tagged; the orals followed."""
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(
                id=f"openreview:P{n}",
                title=f"Diffusion paper {n} on graphs",
                abstract=f"abstract {n}",
                decision=decision,
                ratings=ratings,
                primary_area="reinforcement learning",
            )
            for n, (decision, ratings) in enumerate(
                [("oral", Ratings(7.5)), ("reject", Ratings(3.0)), ("poster", None), ("unknown", Ratings(5.0))] * 3
            )
        ]
        + [Paper(id="abs:0000000000000001", title="", abstract="Diffusion derived title from this abstract. " * 3)]
    )
    first = store.paper_ids[0]
    store.set_star(first, True)
    store.set_note(first, "a note")
    store.set_status(first, "to-read")
    store.change([first], partial(with_tags, add=["must-read"]))
    store.follows.add("query", "decision:oral")  # the follow mark on the orals, the first among them
    return store


def unreadable(strip: Strip, where: str) -> list[str]:
    """The segments of ``strip`` with visible text below ``MIN_CONTRAST``, described."""
    found = []
    for segment in strip:
        assert isinstance(segment, Segment)
        text, style = segment.text, segment.style
        if not text.strip() or style is None:
            continue
        assert style.color is not None and style.bgcolor is not None, (where, text)
        ratio = contrast(triplet(style.color, foreground=True), triplet(style.bgcolor, foreground=False))
        if ratio < MIN_CONTRAST:
            found.append(f"{where}: {text.strip()!r} {ratio:.2f}:1")
    return found


async def test_every_part_of_every_row_is_readable_in_every_theme(tmp_path: Path) -> None:
    store = store_of_every_kind(tmp_path)
    # The first and the fifth changed by a second import (their rating): rows with the changed mark.
    changed = [replace(paper, ratings=Ratings(8.0)) for paper in (store.papers[0], store.papers[4])]
    store.first_look()  # the app opened the store: what follows is news
    store.import_papers(changed)
    assert set(store.changed_since_looked()) == {paper.id for paper in changed}
    app = PaperApp(store=store)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"diff")
        await settle(pilot)
        await pilot.press("enter")  # back to the list, the filter kept: "diff" marked in titles
        await settle(pilot)
        screen, papers = main_screen(app), paper_list(app)
        screen.marked.add(store.paper_ids[0])
        assert papers.columns.area and papers.columns.rating and papers.columns.badge
        problems: list[str] = []
        rows = 0
        for name in app.available_themes:
            app.theme = name
            for focused in (papers, None):
                screen.set_focus(focused)
                await pilot.pause()
                for cursor in (0, 12):
                    papers.cursor = cursor
                    await pilot.pause()
                    for y in range(papers.row_count):
                        state = "focused" if focused else "blurred"
                        where = f"{name} {state} row {y}{' (highlighted)' * (y == cursor)}"
                        problems += unreadable(papers.render_line(y), where)
                        rows += 1
        assert rows > 1000
        assert not problems, "\n".join(problems[:40]) + f"\n… {len(problems)} in all"


def test_a_colour_made_readable_reads_the_backgrounds_luminance_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``readable`` compares each blend toward white or black with the background's luminance,
    worked out once (the first frame makes a dozen parts readable on the highlighted row's
    background, each up to twenty blends): one luminance per colour looked at, counted."""
    from paperdeck.ui.widgets import contrast as module
    from rich.color_triplet import ColorTriplet

    looked_at: list[ColorTriplet] = []
    luminance = module.luminance

    def counted(color: ColorTriplet) -> float:
        looked_at.append(color)
        return luminance(color)

    monkeypatch.setattr(module, "luminance", counted)
    background = ColorTriplet(0, 90, 180)
    fixed = module.readable(ColorTriplet(40, 110, 190), background)
    assert looked_at.count(background) == 1
    assert fixed != ColorTriplet(40, 110, 190) and contrast(fixed, background) >= MIN_CONTRAST


def test_luminance_is_wcag_2s_for_every_channel_value() -> None:
    """``luminance`` reads each channel's linear light from a table worked out once: the same
    number as WCAG 2's formula gives, for every value of every channel."""
    from paperdeck.ui.widgets.contrast import luminance
    from rich.color_triplet import ColorTriplet

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    for value in range(256):
        for red, green, blue in ((value, 0, 0), (0, value, 0), (0, 0, value), (value, 255 - value, value // 2)):
            expected = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
            assert luminance(ColorTriplet(red, green, blue)) == expected
