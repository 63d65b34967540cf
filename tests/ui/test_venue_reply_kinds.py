"""Every reply kind a venue has is shown on the reviews screen (issue 31): COLM 2025's pages as the
fetch keeps them (:mod:`tests.fetch.venues_data`: string scores, a meta-review with a text
recommendation, a decision, author comments, an ethics review and a kind of the venue's own)."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.reviews import ReviewsScreen
from textual.widgets import Static

from tests.fetch.venues_data import colm2025_notes, records
from tests.ui.helpers import SIZE, highlighted, main_screen, settle


async def test_the_reviews_screen_heads_every_reply_kind_of_a_venue(tmp_path: Path) -> None:
    page = tmp_path / "openreview-colmweb.org-COLM-2025-Conference.json"
    page.write_text(json.dumps({"notes": colm2025_notes(), "count": 8}))
    store = Store(tmp_path / "data")
    import_files(store, [page])
    first, second = (record["id"] for record in records("colm2025")[:2])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown: dict[str, str] = {}
        for _ in range(len(store.papers)):
            forum = highlighted(app).openreview_id
            if forum in (first, second) and forum not in shown:
                await pilot.press("R")
                await settle(pilot)
                assert isinstance(app.screen, ReviewsScreen)
                heads = [str(note.render()) for note in app.screen.query(".note")]
                shown[forum] = "\n".join(heads) + "\n" + "\n".join(str(s.render()) for s in app.screen.query(Static))
                await pilot.press("escape")
                await settle(pilot)
                assert app.screen is main_screen(app)
            await pilot.press("j")
            await pilot.pause()
        assert set(shown) == {first, second}
        for head in ("Decision", "Meta-review", "Review", "Author response"):
            assert head in shown[first] and head in shown[second], head
        assert "Ethics review" in shown[first] and "None found." in shown[first]
        assert "Reviewer flag" in shown[second] and "Look again." in shown[second]
        assert "Ethics review" not in shown[second] and "Reviewer flag" not in shown[first]
        assert "Marginally above acceptance threshold" in shown[first]  # a string score's label
