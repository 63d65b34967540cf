"""Undo in the app beside another paperdeck writing the same store: only what the step changed
is taken back; a note, tags or a status the other one wrote meanwhile stay."""

from __future__ import annotations

from collections.abc import Callable

from paperdeck.model.paper import with_tags
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.ui.helpers import SIZE, highlighted, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


async def test_undo_of_a_star_keeps_what_another_paperdeck_wrote(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    other = Store(seeded_store.data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("s")
        other.change([target], lambda r: with_tags(r.replaced(note="from the CLI", status="read"), add=["later"]))
        await pilot.press("u")
        await pilot.pause()
        record = Store(seeded_store.data_dir).user_data(target)
        assert (record.starred, record.note, record.status, record.tags) == (False, "from the CLI", "read", ("later",))
        await pilot.press("ctrl+r")
        await pilot.pause()
        record = Store(seeded_store.data_dir).user_data(target)
        assert (record.starred, record.note, record.status, record.tags) == (True, "from the CLI", "read", ("later",))


async def test_undo_of_a_note_keeps_a_star_and_tags_another_paperdeck_set(
    make_app: AppFactory, seeded_store: Store
) -> None:
    app = make_app()
    other = Store(seeded_store.data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("n", *"mine", "ctrl+s")
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).note == "mine", what="saved")
        other.change([target], lambda r: with_tags(r.replaced(starred=True), add=["theirs"]))
        await pilot.press("u")
        await pilot.pause()
        record = Store(seeded_store.data_dir).user_data(target)
        assert (record.starred, record.note, record.tags) == (True, "", ("theirs",))


async def test_undo_of_a_note_another_window_saved_over_keeps_its_text(
    make_app: AppFactory, seeded_store: Store
) -> None:
    """The tester's data loss: B saved a note, A then saved its own (both texts kept); B's undo
    deleted A's text. Now the note stays as A left it, and the undo says so in one line: "Not
    undone", the note being left as it was (not "Undone: note")."""
    app = make_app()
    other = Store(seeded_store.data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("n", *"text from B", "ctrl+s")
        saved = lambda: Store(seeded_store.data_dir).user_data(target).note == "text from B"  # noqa: E731
        await wait_for(pilot, saved, what="saved")
        both = "text from A\n\ntext from B"
        other.change([target], lambda r: r.replaced(note=both))
        await pilot.press("u")
        await wait_for(pilot, lambda: any("undone" in str(n.message) for n in app._notifications), what="said")
        assert Store(seeded_store.data_dir).user_data(target).note == both
        [said] = [str(n.message) for n in app._notifications if "undone" in str(n.message)]
        assert said == "Not undone: note; the note of 1 paper changed elsewhere since: kept as written there."
