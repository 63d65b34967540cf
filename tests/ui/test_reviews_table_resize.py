"""A review's Markdown table is laid out again when the terminal is resized.

The fourteenth round: the reviews screen (``R``) laid a review's tables out at the width the screen
opened with; a wider terminal kept the cell cut with ``…``, a narrower one ran the table past the
edge. Each section with a table keeps its layout per width (:class:`SectionText`): a resize back to
a width seen renders nothing again."""

from __future__ import annotations

from pathlib import Path

from paperdeck.ui.screens.reviews import ReviewsScreen, SectionText

from tests.ui.test_reviews_screen import open_table_reviews, table_review_app


def _table_line(screen: ReviewsScreen) -> str:
    (body,) = [body for body in screen.query(SectionText) if body.has_table]
    return next(line for line in str(body.render()).split("\n") if line.startswith("xxx"))


async def test_a_reviews_table_is_laid_out_again_at_the_new_width(tmp_path: Path) -> None:
    app = table_review_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table_reviews(app, pilot)
        narrow = _table_line(screen)
        assert "…" in narrow and len(narrow) <= 80 - 4, narrow
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        wide = _table_line(screen)
        assert wide == "x" * 120 + " │ " + "y" * 10, wide
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        narrower = _table_line(screen)
        assert "…" in narrower and len(narrower) <= 60 - 4 and narrower.endswith("│ yyyyyyyyyy"), narrower
        (body,) = [body for body in screen.query(SectionText) if body.has_table]
        rendered = body.renderings
        assert rendered == 3
        await pilot.resize_terminal(200, 60)  # a width laid out before: taken as it was
        await pilot.pause()
        assert _table_line(screen) == wide and body.renderings == rendered
        # sections without a table are rendered once, whatever the width
        assert all(other.renderings == 1 for other in screen.query(SectionText) if not other.has_table)
