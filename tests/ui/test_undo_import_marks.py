"""Taking back an import (``Z``) that brought a paper the user starred since: the question says
how many of the papers it takes away hold the user's stars, notes or tags and that they are
kept, and while the store is written the top bar says ``undoing…`` in place of a star count
about to be wrong. A tester's find: ``Take back the import … 995 new`` said nothing of the
starred paper, and the bar kept ``★ 21 (23 all)`` for 15 s while ``paperdeck stats`` said 22."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from paperdeck.search import searcher
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.removing import marks_kept

from tests.helpers import fixture
from tests.ui.helpers import SIZE, counts, settle
from tests.waits import wait_for


def _store(tmp_path: Path) -> tuple[Store, str]:
    """A store of ICLR 2023's submissions (one starred), then ICLR 2018 imported (one of its
    papers starred): the undo point is that import. Returns the store and the starred 2018 paper."""
    store = Store(tmp_path / "data")
    import_files(store, [fixture("iclr2023_submissions_number_title.tsv")])
    store.set_star(store.paper_ids[0], True)
    before = set(store.paper_ids)
    import_files(store, [fixture("papercopilot_iclr2018.json")])
    brought = [pid for pid in store.paper_ids if pid not in before]
    store.set_star(brought[0], True)
    return store, brought[0]


async def test_the_undo_says_the_marks_it_keeps_and_no_stale_star_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, starred = _store(tmp_path)
    point = store.undo_point
    assert point is not None and starred in point.new_ids
    written = threading.Event()  # the undo's index build held until the bar is looked at
    build = searcher.build_index

    def held_build(*args: object, **kwargs: object) -> object:
        written.wait(30)
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(searcher, "build_index", held_build)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "★ 2" in counts(app), what=lambda: counts(app))
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        question = str(app.screen.query_one("#confirm-question").render())
        assert marks_kept(1, len(point.new_ids)) in question, question
        await pilot.press("y")
        await wait_for(pilot, lambda: "undoing…" in counts(app), what=lambda: counts(app))
        assert "★" not in counts(app), counts(app)
        written.set()
        await wait_for(pilot, lambda: "★ 1" in counts(app) and "undoing" not in counts(app), what=lambda: counts(app))
    assert Store(tmp_path / "data").user_data(starred).starred  # kept for its return


def test_the_words_of_the_marks_kept() -> None:
    assert marks_kept(1, 995) == (
        "1 of the 995 papers it brought holds your stars, notes or tags: they are kept, and come back if it is "
        "imported again."
    )
    assert marks_kept(2, 995).startswith("2 of the 995 papers it brought hold your")
    assert marks_kept(1, 1).startswith("The paper it brought holds your")
