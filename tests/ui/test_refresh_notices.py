"""The app's refresh says what the fetch decided about a venue (issue 31): a venue whose
submissions carry no reply is refreshed and the notification says it has no public reviews."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp

from tests.fetch.api_server import PASSWORD, USER, ApiServer, iclr2026_notes
from tests.ui.helpers import SIZE, main_screen, settle
from tests.waits import wait_for


async def test_a_refresh_of_a_venue_without_public_reviews_says_so(
    make_app: Callable[..., PaperApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.ui import refresh

    monkeypatch.setattr(refresh, "BACKGROUND_NICENESS", 0)  # as test_refresh: what it does, not its priority
    notes = iclr2026_notes(12)
    for note in notes:
        note["details"]["directReplies"] = []
    with ApiServer(notes) as server:
        monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", server.url)
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
        monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
        monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            main_screen(app).action_refresh()

            def landed() -> bool:
                return any("fetched iclr2026" in n.message for n in app._notifications)

            await wait_for(pilot, landed, what=lambda: [n.message for n in app._notifications])
            done = next(n.message for n in app._notifications if "fetched iclr2026" in n.message)
            assert "OpenReview shows no public reviews" in done and "\n" not in done, done
