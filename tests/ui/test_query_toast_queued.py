"""The query's toast taken away while its ``Notify`` is still queued for the app is not shown
when the app comes to it: the query changed (a key the app had handed on while it held the
next ones) in the turn between the toast being asked for and the app adding it, and the hint of
a query no longer typed stayed its six seconds over the results."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from paperdeck.ui.app import PaperApp
from paperdeck.ui.query_toast import QueryToast

from tests.ui.helpers import SIZE, main_screen, settle


@pytest.fixture
def _notices_at_once() -> None:
    """Notifications are posted to the app as Textual posts them (the ui conftest's fixture adds
    them at once, which would hide the queued toast this module is about)."""


async def test_a_toast_taken_away_before_the_app_added_it_is_not_shown(make_app: Callable[..., PaperApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        toast = QueryToast(main_screen(app), 60.0)
        toast.later("unknown field venu:", "venu:iclr", lambda: {"unknown field venu:"})
        timer = toast._timer
        assert timer is not None
        timer.stop()
        tell = timer._callback.args[0]  # type: ignore[union-attr]  # set_timer's partial(call_next, tell)
        tell()  # the pause ran out: the toast is asked for ...
        toast.keep_for("venue:iclr")  # ... and the query changed before the app added it
        await settle(pilot)
        assert [n.message for n in app._notifications if n.title == "Query"] == []
