"""Removing papers in the app (``X``) and taking back the last import or removal (``Z``): each asks
first, the list shows the store as it is after, the user's marks stay; and a removal made by the
command line while the app is open is picked up."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from textual.widgets import Label

from tests.helpers import ReviewSample
from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


def view(app: PaperApp) -> list[str]:
    return main_screen(app).view_ids()


async def test_x_removes_the_highlighted_paper_after_asking_and_z_brings_it_back(
    make_app: AppFactory, seeded_store: Store
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("s")  # starred: the star stays while the paper is gone
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("n")  # no: nothing removed
        await settle(pilot)
        assert target in view(app) and target in Store(seeded_store.data_dir).paper_ids
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: target not in view(app), what=lambda: f"{target} gone from {view(app)[:3]}")
        on_disk = Store(seeded_store.data_dir)
        assert target not in on_disk.paper_ids and len(on_disk.paper_ids) == 36
        assert on_disk.user_data(target).starred
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        await pilot.press("y")
        await wait_for(pilot, lambda: target in view(app), what="the paper back in the list")
        assert target in Store(seeded_store.data_dir).paper_ids
        await pilot.press("Z")  # the undo point is used up
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(Store(seeded_store.data_dir).paper_ids) == 37


async def test_x_removes_the_marked_papers(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = view(app)[:3]
        await pilot.press("space", "space", "space", "X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: len(view(app)) == 34, what=lambda: f"{len(view(app))} papers shown")
        assert not set(first) & set(view(app)) and not set(first) & set(Store(seeded_store.data_dir).paper_ids)


async def test_z_takes_back_the_last_import(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        await pilot.press("y")
        await wait_for(pilot, lambda: not view(app), what="an empty list")
        assert Store(seeded_store.data_dir).is_empty
        await wait_for(pilot, lambda: any(n.message.startswith("Undid the import") for n in app._notifications))
        app.check_catalogue()  # what the 2 s timer does: this app's own write is no change from elsewhere
        await settle(pilot)
        said = [n.message for n in app._notifications]
        # This app took the papers away itself: no word of another paperdeck (a tester's find).
        assert not [line for line in said if "another paperdeck" in line], said


async def test_a_removal_by_another_process_is_picked_up(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        Store(seeded_store.data_dir).remove_papers([target])  # as `paperdeck remove` does
        app.check_catalogue()
        await wait_for(pilot, lambda: target not in view(app), what="the removed paper gone from the list")
        assert len(view(app)) == 36


async def test_after_a_removal_the_next_paper_is_highlighted(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        await settle(pilot)
        shown = view(app)
        target = highlighted(app).id
        assert target == shown[3]
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: target not in view(app), what="the paper gone")
        await settle(pilot)
        assert highlighted(app).id == shown[4]  # where the removed paper was, not the top
        await pilot.press("G")  # the last paper: removed, the one above it goes on
        await settle(pilot)
        last = view(app)
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: last[-1] not in view(app), what="the last paper gone")
        await settle(pilot)
        assert highlighted(app).id == last[-2]


async def test_z_after_an_import_of_reviews_alone_says_the_reviews_went(
    tmp_path: Path, review_sample: ReviewSample
) -> None:
    """A tester's find: ``Z`` after an import that brought reviews alone said "Undid the import: no
    paper changed." (their papers not in the store) or "12 set back" (their ratings): it says the
    reviews it took away, and names what the numbers count."""
    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file])
    import_files(store, [review_sample.notes_file])
    notes = store.reviews.counts()["notes"]
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        await pilot.press("y")
        said = f"Undid the import: 12 papers set back, {notes} reviews and comments taken away."
        await wait_for(pilot, lambda: [n for n in app._notifications if str(n.message) == said],
                       what=lambda: [str(n.message) for n in app._notifications])  # fmt: skip
        assert Store(store.data_dir).reviews.counts()["notes"] == 0


async def test_a_removal_says_at_once_it_is_under_way_and_the_keys_answer(
    make_app: AppFactory, seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tester's find: on a large store ``X`` ``y`` showed nothing for most of a minute (the row
    there, the count unchanged) while the store was being written. The write is held here until
    the test lets it go."""
    app = make_app()
    release = threading.Event()
    remove = Store.remove_papers

    def held(self: Store, ids: list[str]) -> object:
        release.wait(60)
        return remove(self, ids)

    def notices() -> list[str]:
        return [str(n.message) for n in app._notifications]

    monkeypatch.setattr(Store, "remove_papers", held)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        try:
            await wait_for(pilot, lambda: any(m.startswith("Removing") for m in notices()), what=notices)
            assert target in view(app)  # not written yet
            await pilot.press("j")  # the keys answer meanwhile
            await wait_for(pilot, lambda: highlighted(app).id != target, what="the highlight moved")
        finally:
            release.set()
        await wait_for(pilot, lambda: target not in view(app), what="the paper gone")
        await wait_for(pilot, lambda: not any(m.startswith("Removing") for m in notices()), what=notices)
        assert any(m.startswith("Removed 1 paper") for m in notices()), notices()


async def test_z_after_a_backup_restore_says_the_restore_stays_before_and_after(
    make_app: AppFactory, seeded_store: Store, tmp_path: Path
) -> None:
    """``paperdeck import --undo`` after a backup restore asks for ``--yes`` and says the restore
    stays; ``Z`` asked only "Take back the import…?". It now asks with the same words (one
    function makes them for both) and its toast ends as the command line's output does."""
    from paperdeck.store.backup import read_backup, restore_backup, write_backup
    from paperdeck.store.undo import restore_came_after, restore_stays

    paper_id = seeded_store.paper_ids[0]
    seeded_store.change([paper_id], lambda record: record.replaced(starred=True))
    write_backup(seeded_store, tmp_path / "backup.json")
    seeded_store.change([paper_id], lambda record: record.replaced(starred=False))
    restore_backup(seeded_store, read_backup(tmp_path / "backup.json"))  # stars it again
    point = seeded_store.undo_point
    assert point is not None and point.restored_at
    came_after, stays = restore_came_after(point), restore_stays(point)
    assert came_after and stays
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("Z")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo question")
        question = str(app.screen.query_one("#confirm-question", Label).render())
        assert question.startswith("A backup restore (") and came_after[1:] in question, question
        await pilot.press("y")
        await wait_for(pilot, lambda: not view(app), what="an empty list")
        said = lambda: " ".join(str(n.message) for n in app._notifications)  # noqa: E731
        await wait_for(pilot, lambda: stays in said(), what=said)
        assert Store(seeded_store.data_dir).user_data(paper_id).starred  # the restored marks stay
