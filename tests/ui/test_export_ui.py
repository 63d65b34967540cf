"""Export from the app: the view or the marked papers to a file whose ending picks the format, and
a backup of the user's data; an existing file is replaced only after a second enter."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from paperdeck.ui.widgets.filter_bar import FilterBar
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.helpers import SIZE, main_screen, settle


async def answer(pilot: Pilot[None], path: Path) -> None:
    """Type ``path`` into the export prompt in place of the suggested name, then enter."""
    assert isinstance(pilot.app.screen, ExportPrompt)
    pilot.app.screen.query_one(Input).value = str(path)  # as if pasted
    await pilot.press("enter")
    await settle(pilot)


async def test_export_marked_papers_as_bibtex_then_the_view_as_markdown(seeded_store: Store, tmp_path: Path) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "E")  # mark two papers, export them
        await settle(pilot)
        await answer(pilot, tmp_path / "marked.bib")
        library = bibtexparser.parse_string((tmp_path / "marked.bib").read_text())
        assert len(library.entries) == 2 and not library.failed_blocks
        marked_titles = {seeded_store.row(pid).title for pid in main_screen(app).marked}  # type: ignore[union-attr]
        assert len(marked_titles) == 2

        await pilot.press("escape")  # clear the marks: now the view is exported
        main_screen(app).query_one(FilterBar).value = "expert"
        await settle(pilot)
        shown = main_screen(app).view_ids()
        assert 0 < len(shown) < 37
        await pilot.press("E")
        await settle(pilot)
        await answer(pilot, tmp_path / "view.md")
        text = (tmp_path / "view.md").read_text()
        assert text.count("\n- ") + text.startswith("- ") == len(shown)


async def test_an_existing_file_needs_a_second_enter_and_a_bad_ending_is_refused(
    seeded_store: Store, tmp_path: Path
) -> None:
    target = tmp_path / "list.csv"
    target.write_text("keep me")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        await answer(pilot, tmp_path / "list.txt")  # no format for .txt
        assert isinstance(app.screen, ExportPrompt)
        await answer(pilot, target)
        assert isinstance(app.screen, ExportPrompt) and target.read_text() == "keep me"  # asked first
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportPrompt)
        assert target.read_text().startswith("id,") and target.read_text().count("\n") >= 38
        await pilot.press("E")
        await settle(pilot)
        await answer(pilot, seeded_store.data_dir / "oops.json")  # never into the store
        assert not (seeded_store.data_dir / "oops.json").exists()


async def test_back_up_from_the_palette_action(seeded_store: Store, tmp_path: Path) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s", "j", "t")
        await settle(pilot)
        main_screen(app).action_back_up()
        await settle(pilot)
        await answer(pilot, tmp_path / "backup.json")
    backup = json.loads((tmp_path / "backup.json").read_text())
    assert next(iter(backup)) == "paperdeck" and len(backup["records"]) == 2


async def test_the_ending_picks_ris_or_csl_json_for_zotero(seeded_store: Store, tmp_path: Path) -> None:
    import rispy

    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "space", "E")  # three marked papers
        await settle(pilot)
        await answer(pilot, tmp_path / "zotero.ris")
        await pilot.press("E")
        await settle(pilot)
        await answer(pilot, tmp_path / "zotero.csl.json")
        await pilot.press("E")
        await settle(pilot)
        await answer(pilot, tmp_path / "plain.json")
        marked = list(main_screen(app).marked)
    records = rispy.loads((tmp_path / "zotero.ris").read_bytes().decode("utf-8"))
    assert [r["type_of_reference"] for r in records] == ["CONF"] * 3
    items = json.loads((tmp_path / "zotero.csl.json").read_text("utf-8"))
    assert [item["type"] for item in items] == ["paper-conference"] * 3
    assert {r["title"] for r in records} == {item["title"] for item in items}
    assert {paper["id"] for paper in json.loads((tmp_path / "plain.json").read_text("utf-8"))} == set(marked)


async def test_a_name_that_cannot_be_written_keeps_the_dialog_open_with_the_name_typed(
    seeded_store: Store, tmp_path: Path
) -> None:
    from textual.widgets import Label

    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        for path, says in [
            (tmp_path / "no-such-folder" / "x.bib", "there is no folder"),
            (seeded_store.data_dir / "x.bib", "inside paperdeck's data directory"),
            (tmp_path, "that is a folder"),
        ]:
            await answer(pilot, path)
            prompt = app.screen
            assert isinstance(prompt, ExportPrompt), path  # not dismissed: nothing to open again
            assert says in str(prompt.query_one("#export-hint", Label).render())
            assert prompt.query_one(Input).value == str(path)
        await pilot.press("escape")
        await settle(pilot)
        main_screen(app).action_back_up()  # the backup's dialog is the same
        await settle(pilot)
        await answer(pilot, seeded_store.data_dir / "backup.json")
        assert isinstance(app.screen, ExportPrompt)
        assert "data directory" in str(app.screen.query_one("#export-hint", Label).render())
    assert not (seeded_store.data_dir / "x.bib").exists() and not (seeded_store.data_dir / "backup.json").exists()


def test_export_target_problem_names_each_kind_of_place(tmp_path: Path) -> None:
    from paperdeck.export.formats import export_target_problem

    (tmp_path / "file").write_text("x")
    store = tmp_path / "store"
    store.mkdir()
    assert export_target_problem(tmp_path / "ok.bib", store) is None
    assert export_target_problem(tmp_path / "file" / "x.bib") == f"{tmp_path / 'file'} is a file, not a folder"
    assert export_target_problem(store / "sub" / "x.bib", store) is not None
    (tmp_path / "link").symlink_to(store)
    assert "data directory" in (export_target_problem(tmp_path / "link" / "x.bib", store) or "")
