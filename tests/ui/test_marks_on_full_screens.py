"""The marking keys of the list (``s`` star, ``r`` read, ``n`` note) on the reader and the reviews
screen: they mark the paper shown, as one undoable step of the main screen, and the reader shows
the new state at once."""

from __future__ import annotations

from paperdeck.model.review import REVIEW, Review
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.screens.reviews import ReviewsScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import Static

from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for


def _detail_text(screen: PaperReader) -> str:
    return str(screen.query_one(PaperDetail).query_one("#detail-body", Static).render())


async def test_s_r_n_in_the_reader_mark_the_paper_shown(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        paper = highlighted(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PaperReader), what="the reader")
        reader = app.screen
        assert isinstance(reader, PaperReader)
        assert "★ starred" not in _detail_text(reader)
        await pilot.press("s")
        await settle(pilot)
        assert seeded_store.user_data(paper.id).starred
        assert "★ starred" in _detail_text(reader)  # shown at once
        await pilot.press("r")
        await settle(pilot)
        assert seeded_store.user_data(paper.id).status == "read"
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor), what="the note editor")
        await pilot.press(*"from the reader", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is reader, what="back in the reader")
        # Saved by the editor's dismiss callback, which may run after the screen is back.
        await wait_for(pilot, lambda: seeded_store.user_data(paper.id).note == "from the reader", what="saved")
        assert "from the reader" in _detail_text(reader)
        assert app.screen is reader  # the keys did not leave it
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is main_screen(app) and highlighted(app).id == paper.id
        await pilot.press("u")  # the note, the status and the star are steps of the list's history
        await settle(pilot)
        assert seeded_store.user_data(paper.id).note == ""
        await pilot.press("u", "u")
        await settle(pilot)
        record = seeded_store.user_data(paper.id)
        assert not record.starred and record.status == "unseen"


async def test_s_r_n_on_the_reviews_screen_mark_its_paper(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = highlighted(app)
        reviews = [
            Review(f"note{n}", "forum", "forum", REVIEW, f"Reviewer_{n}", sections=(("summary", f"Text {n}."),))
            for n in range(3)
        ]
        screen = ReviewsScreen(paper, reviews, None, None)
        app.push_screen(screen)
        await settle(pilot)
        await pilot.press("s", "r")
        await settle(pilot)
        record = seeded_store.user_data(paper.id)
        assert record.starred and record.status == "read"
        assert app.screen is screen
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor), what="the note editor")
        await pilot.press(*"from the reviews", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen, what="back on the reviews")
        # Saved by the editor's dismiss callback, which may run after the screen is back.
        await wait_for(pilot, lambda: seeded_store.user_data(paper.id).note == "from the reviews", what="saved")
        await pilot.press("right_curly_bracket")  # the next note moved to }
        await pilot.pause()
        assert len(screen.query(".note.current")) == 1
        await pilot.press("s")  # again: unstarred
        await settle(pilot)
        assert not seeded_store.user_data(paper.id).starred
