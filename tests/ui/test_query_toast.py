"""A query's hint cut beside the filter bar is shown whole in one toast at most, which goes as
soon as the query changes or is valid (:mod:`paperdeck.ui.query_toast`): typing ``venu:`` then
``venue:`` left toasts over valid results, and each new hint stacked another."""

from __future__ import annotations

from pathlib import Path

from paperdeck.search.query import parse_query
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import counts, settle
from tests.ui.test_query_bar import papers_app, typed
from tests.waits import wait_for


def query_toasts(app: PaperApp) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Query"]


async def test_one_query_toast_at_most_and_none_once_the_query_is_fixed(tmp_path: Path) -> None:
    app = papers_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        # a misspelt field with a value it does not take: words, the field meant said (a misspelt
        # field that would run is refused: the query's own error, not this note)
        first, second = parse_query("decison:blue").note, parse_query("foo:bar").note
        assert first is not None and second is not None
        await typed(pilot, "decison:blue")
        assert counts(app).endswith("decison: → decision:?"), counts(app)  # the error in the counts line
        await wait_for(pilot, lambda: query_toasts(app) == [first], what="the first hint's toast")
        await typed(pilot, "foo:bar")
        assert query_toasts(app) == [], "the toast of a query no longer typed goes at once"
        await wait_for(pilot, lambda: query_toasts(app) == [second], what="the second hint's toast")
        await typed(pilot, "venue:iclr")
        assert query_toasts(app) == [], "a valid query keeps no toast"
        assert "decison:" not in counts(app) and "foo:" not in counts(app)
        await settle(pilot)
        assert query_toasts(app) == []


async def test_typing_through_a_bad_field_stacks_no_toast(tmp_path: Path) -> None:
    """Each key of ``venu:`` → ``venue:`` typed slowly enough for a toast to be due: one at most."""
    app = papers_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for text in ("decis:blue", "decison:blue", "foo:iclr"):
            await typed(pilot, text)
            note = parse_query(text).note
            await wait_for(pilot, lambda note=note: query_toasts(app) == [note], what=f"the toast of {text}")
        await typed(pilot, "venue:iclr")
        assert query_toasts(app) == []
