"""A resize of the reviews screen keeps the text the reader was at the top of the view.

A second tester of the fourteenth round: narrowing the reviews screen (``R``) from 200×60 to 60×24,
or from 80 to 60 columns, jumped the view to an earlier review. Every section wraps taller in fewer
columns, while the scroll offset stayed the same number of lines from the top of the whole text.
The screen now keeps the section at the top of the view (and the line within it) across a resize.
The notes are the committed sample of real ICLR 2026 replies (``tests/data/``)."""

from __future__ import annotations

from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.reviews import ReviewsScreen, open_reviews
from textual.containers import VerticalScroll
from textual.widget import Widget

from tests.helpers import ReviewSample
from tests.ui.helpers import settle


def _at_top(screen: ReviewsScreen) -> tuple[Widget, int]:
    """The widget of the reviews' text at the top of the view, and the view's top line."""
    body = screen.query_one("#reviews-body", VerticalScroll)
    top = round(body.scroll_y)
    at_top = [child for child in body.children if child.virtual_region.y <= top]
    return at_top[-1], top


async def test_a_resize_keeps_the_section_at_the_top(tmp_path: Path, review_sample: ReviewSample) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file, review_sample.notes_file])
    forums = {note["forum"] for note in review_sample.notes()}
    forum = max(forums, key=lambda f: sum(len(r.sections) for r in store.reviews.reviews(f)))
    paper = next(p for p in store.papers if p.openreview_id == forum)
    app = PaperApp(store=store)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        assert open_reviews(app, store, paper)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewsScreen)
        sections = list(screen.query(".section-text"))
        assert len(sections) >= 8, len(sections)
        target = sections[len(sections) * 2 // 3]  # a section well down the page, its second line at the top
        body = screen.query_one("#reviews-body", VerticalScroll)
        body.scroll_to(y=target.virtual_region.y + 1, animate=False, immediate=True)
        await pilot.pause()
        assert _at_top(screen)[0] is target
        for width, height in ((60, 24), (80, 24), (60, 24), (200, 60), (120, 40), (200, 60)):
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            widget, top = _at_top(screen)
            assert widget is target, (width, height, top, target.virtual_region.y)
            assert top > target.virtual_region.y, (width, height)  # not its first line: the line within it
        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        assert round(body.scroll_y) == target.virtual_region.y + 1  # back where it was, to the line
