"""Behaviour through the keyboard (Pilot): filter, star, note, starred-only, help, hostile text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.note_editor import NoteEditor
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.pilot import Pilot
from textual.widgets import Static, TextArea

from tests.ui.helpers import FIXED_TIME, SIZE, counts, highlighted, main_screen, paper_list, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


def detail_text(app: PaperApp) -> str:
    return str(main_screen(app).query_one(PaperDetail).query_one("#detail-body", Static).render())


async def type_filter(pilot: Pilot[None], text: str) -> None:
    await pilot.press("slash")
    await pilot.press(*text)
    await settle(pilot)


async def test_opens_on_37_papers_with_the_first_highlighted(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert counts(app) == "37 papers"
        assert paper_list(app).row_count == 37
        assert highlighted(app).id == app.store.papers[0].id
        assert highlighted(app).title in detail_text(app)
        assert "title derived from abstract" in detail_text(app)


async def test_filter_tolerates_typos_and_counts(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_filter(pilot, "difusion")
        shown = paper_list(app).row_count
        assert 0 < shown < 37
        assert counts(app) == f"{shown:>2} of 37".rjust(len("37 papers"))  # as wide as the unfiltered counts
        assert "diffusion" in (highlighted(app).title + highlighted(app).abstract).lower()


async def test_acronym_puts_its_paper_first(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_filter(pilot, "REAP")
        assert highlighted(app).title.startswith("REAP")


async def test_escape_clears_the_filter_and_keeps_the_highlight(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_filter(pilot, "GRACE")
        chosen = highlighted(app).id
        assert chosen != app.store.papers[0].id
        await pilot.press("escape")
        await settle(pilot)
        assert counts(app) == "37 papers"
        assert highlighted(app).id == chosen
        assert app.focused is paper_list(app)


async def test_enter_keeps_the_filter_and_returns_to_the_list(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_filter(pilot, "hand")
        await pilot.press("enter")
        await settle(pilot)
        assert app.focused is paper_list(app)
        assert counts(app).endswith("of 37")


async def test_moving_keys(make_app: AppFactory) -> None:
    app = make_app()
    papers = app.store.papers
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "down")
        assert highlighted(app).id == papers[3].id
        await pilot.press("k")
        assert highlighted(app).id == papers[2].id
        await pilot.press("G")
        assert highlighted(app).id == papers[-1].id
        await pilot.press("g")
        assert highlighted(app).id == papers[0].id
        await pilot.press("ctrl+d")
        assert paper_list(app).cursor > 5


async def test_star_is_shown_and_on_disk_at_once(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "s")
        target = highlighted(app).id
        # On disk before the next key: a fresh store on the same directory sees it.
        assert Store(seeded_store.data_dir).user_data(target).starred
        await pilot.pause()
        assert "★ starred" in detail_text(app)
        assert "★ 1" in counts(app)
        await pilot.press("s")
        assert not Store(seeded_store.data_dir).user_data(target).starred


async def test_starred_only_view(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s", "j", "j", "s")
        await pilot.press("S")
        await settle(pilot)
        assert paper_list(app).row_count == 2
        assert counts(app) == "  2 of 37 · ★ 2 · starred only"
        await pilot.press("S")
        await settle(pilot)
        assert paper_list(app).row_count == 37


async def test_note_save(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"see [bold] 5%", "enter", *"line two")
        await pilot.press("ctrl+s")
        target = highlighted(app).id
        await wait_for(
            pilot,
            lambda: Store(seeded_store.data_dir).user_data(target).note == "see [bold] 5%\nline two",
            what="the note saved",
        )
        assert not isinstance(app.screen, NoteEditor)
        assert "see [bold] 5%" in detail_text(app)
        await type_filter(pilot, "bold")
        assert highlighted(app).id == target  # notes are searched


async def test_note_cancel_unchanged_closes_without_asking(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, (NoteEditor, ConfirmScreen))


async def test_note_cancel_changed_asks_then_keeps_or_discards(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n", *"draft")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "draft"
        await pilot.press("escape", "y")  # discard
        await pilot.pause()
        assert not isinstance(app.screen, (NoteEditor, ConfirmScreen))
        assert Store(seeded_store.data_dir).user_data(highlighted(app).id).note == ""


async def test_emptied_note_is_deleted(make_app: AppFactory, seeded_store: Store) -> None:
    target = seeded_store.papers[0].id
    seeded_store.set_note(target, "old")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        app.screen.query_one(TextArea).text = ""
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).note == "", what="deleted")
        assert "Your note" not in detail_text(app).split("\n")


async def test_help_lists_every_main_key(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-body", Static).render())
        for description in [
            "Filter",
            "Clear marks / filter",
            "Star",
            "Note",
            "Starred only",
            "Quit",
            "Down",
            "First",
            "Last",
        ]:
            assert description in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_keys_typed_into_the_filter_are_text_not_commands(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_filter(pilot, "sqn")
        assert app.is_running
        assert not isinstance(app.screen, NoteEditor)
        assert app.store.all_user_data == {}


async def test_hostile_paper_text_is_shown_literally(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    title = "[bold]Bold?[/bold] [CLS] <think> \x1b[31mred\x1b]52;c;ZXZpbA==\x07 5%"
    store.import_papers([Paper(id="abs:1", title=title, abstract="[/INST] 5% better $x$ \x1b[2J")])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = detail_text(app)
        assert "[bold]Bold?[/bold] [CLS] <think> ␛[31mred␛]52;c;ZXZpbA==␇ 5%" in text
        assert "[/INST] 5% better x ␛[2J" in text
        assert "\x1b" not in text


async def test_store_failure_is_a_message_not_a_crash(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        from paperdeck.store.user_data import SHARDS, doc_id_for

        paper_id = highlighted(app).id
        shard = seeded_store.user_dir / f"{doc_id_for(paper_id) % SHARDS:02x}.json"
        shard.parent.mkdir(parents=True, exist_ok=True)
        shard.mkdir()  # a directory where the shard should be: the write fails
        await pilot.press("s")
        await pilot.pause()
        assert app.is_running
        assert any("Not saved" in (n.title or "") for n in app._notifications)
        assert not seeded_store.user_data(highlighted(app).id).starred


async def test_changes_from_another_process_show_up(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        other = Store(seeded_store.data_dir)  # a second paperdeck (e.g. the CLI) on the same store
        other.set_star(target, True)
        other.set_note(target, "written elsewhere")
        main_screen(app).check_external_changes()  # what the 2 s timer and terminal focus do
        await pilot.pause()
        assert "★ 1" in counts(app)
        assert "written elsewhere" in detail_text(app)
        await type_filter(pilot, "elsewhere")
        assert highlighted(app).id == target
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"is:starred")
        await settle(pilot)
        assert main_screen(app).view_ids() == [target]
        other.set_star(target, False)
        main_screen(app).check_external_changes()
        await settle(pilot)
        assert main_screen(app).view_ids() == []  # a list that reads the stars follows the other's change


async def test_a_note_changed_elsewhere_while_editing_keeps_both_texts(
    make_app: AppFactory, seeded_store: Store
) -> None:
    """Another paperdeck (the CLI, a second window) writes the note while the editor is open:
    saving keeps that text too, under a line saying so, and says it; nothing written is lost."""
    from paperdeck.ui.screens.reading import NOTE_CHANGED_ELSEWHERE

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"mine")
        Store(seeded_store.data_dir).set_note(target, "from the CLI")
        await pilot.press("ctrl+s")
        kept = f"mine\n\n{NOTE_CHANGED_ELSEWHERE}\nfrom the CLI"  # saved by the editor's dismiss callback
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).note == kept, what="both kept")
        assert any("both texts are kept" in str(n.message) for n in app._notifications)
