"""A typed query ranks by relevance whatever sort is saved, unless a sort is picked for it; the
sort in effect is named beside the counts, at 80 columns and at 200."""

from __future__ import annotations

import json

import pytest
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.filter_bar import FilterBar

from tests.ui.helpers import counts, main_screen, settle
from tests.waits import wait_for


def _by_rating(store: Store, ids: list[str]) -> list[str]:
    from paperdeck.search.selection import sort_ids

    return sort_ids(store, ids, "rating")


@pytest.mark.parametrize("size", [(80, 24), (200, 50)], ids=["80 columns", "200 columns"])
async def test_a_typed_title_comes_first_over_the_saved_sort_until_the_query_is_sorted(
    seeded_store: Store, size: tuple[int, int]
) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"sort": "rating"}), "utf-8")
    by_rating = _by_rating(seeded_store, seeded_store.paper_ids)
    target = seeded_store.paper(by_rating[-1])  # the lowest rated: last under the saved sort
    assert target is not None
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.view_ids() == by_rating and "by rating" in counts(app), counts(app)
        screen.query_one(FilterBar).value = target.title
        await settle(pilot)
        await wait_for(pilot, lambda: screen.list_filter.applied_filter == (target.title, False), what="the query")
        shown = screen.view_ids()
        assert shown[0] == target.id, [seeded_store.paper(pid).title for pid in shown[:3]]  # type: ignore[union-attr]
        assert "by relevance" in counts(app) and screen.list_filter.order == "relevance", counts(app)
        # A sort picked now is this query's: it holds through an edit of the query, unsaved.
        screen.sort_by("title")
        await settle(pilot)
        assert "by title" in counts(app), counts(app)
        assert app.settings.settings.sort == "rating"
        screen.query_one(FilterBar).value = target.title + " "
        await settle(pilot)
        assert screen.list_filter.order == "title" and "by title" in counts(app), counts(app)
        # The bar blank again: the saved sort.
        screen.query_one(FilterBar).value = ""
        await settle(pilot)
        await wait_for(pilot, lambda: screen.view_ids() == by_rating, what="the saved sort back")
        assert "by rating" in counts(app) and screen.list_filter.order == "rating", counts(app)
        # A query of field terms alone has nothing to rank by: the saved sort holds.
        screen.query_one(FilterBar).value = "year:2020..2030"
        await settle(pilot)
        assert screen.list_filter.order == "rating" and "by rating" in counts(app), counts(app)


async def test_a_quoted_phrase_ranks_by_relevance_as_its_words_do(seeded_store: Store) -> None:
    """``"speculative decoding"`` kept the saved sort while the same words unquoted ranked by
    relevance: a phrase counts as its words for the relevance sort."""
    (seeded_store.data_dir / CONFIG_FILE).write_text(json.dumps({"sort": "rating"}), "utf-8")
    target = seeded_store.paper(_by_rating(seeded_store, seeded_store.paper_ids)[-1])  # last by rating
    assert target is not None
    phrase = '"' + target.title.replace('"', " ") + '"'
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        screen.query_one(FilterBar).value = phrase
        await settle(pilot)
        await wait_for(pilot, lambda: screen.list_filter.applied_filter == (phrase, False), what="the phrase")
        assert screen.view_ids()[0] == target.id
        assert screen.list_filter.order == "relevance" and "by relevance" in counts(app), counts(app)
