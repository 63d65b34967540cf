"""The reading list through the keyboard: status, next unseen, tags, marks, bulk, undo/redo,
notes in $EDITOR, copy and open — each change and each undo on disk before the next key."""

from __future__ import annotations

import stat
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, UserData
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.prompts import LinkChooser, TagPrompt
from textual.widgets import Input, Static

from tests.ui.helpers import SIZE, highlighted, main_screen, open_tag_prompt, paper_list, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]


def on_disk(store: Store, paper_id: str) -> UserData:
    """The record as a fresh process would read it."""
    return Store(store.data_dir).user_data(paper_id)


@pytest.mark.parametrize(("key", "status"), [("r", "read"), ("t", "to-read"), ("i", "skimmed"), ("x", "dismissed")])
async def test_status_keys_set_toggle_and_undo(
    make_app: AppFactory, seeded_store: Store, key: str, status: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press(key)
        assert on_disk(seeded_store, target).status == status
        assert highlighted(app).id == target  # setting a status does not move the highlight
        assert f"1 {status}" in str(paper_list(app).border_subtitle)
        await pilot.press("u")
        assert on_disk(seeded_store, target).status == "unseen"  # the undo is on disk before the next key
        await pilot.press("ctrl+r")
        assert on_disk(seeded_store, target).status == status
        await pilot.press(key)  # the same key again takes it back
        assert on_disk(seeded_store, target).status == "unseen"


async def test_moving_does_not_change_status_and_next_unseen_jumps(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    papers = seeded_store.paper_ids
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "k")
        assert seeded_store.all_user_data == {}
        await pilot.press("g", "r", "j", "r", "g")  # papers 0 and 1 read
        await pilot.press("right_square_bracket")
        assert highlighted(app).id == papers[2]


async def test_star_undo_redo(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("s")
        assert on_disk(seeded_store, target).starred
        await pilot.press("u")
        assert not on_disk(seeded_store, target).starred
        await pilot.press("ctrl+r")
        assert on_disk(seeded_store, target).starred


async def test_note_undo(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("n", *"first", "ctrl+s")
        await wait_for(pilot, lambda: on_disk(seeded_store, target).note == "first", what="the note saved")
        await pilot.press("u")
        assert on_disk(seeded_store, target).note == ""
        await pilot.press("ctrl+r")
        assert on_disk(seeded_store, target).note == "first"


async def test_tags_prompt_adds_removes_completes_and_undoes(make_app: AppFactory, seeded_store: Store) -> None:
    seeded_store.change([seeded_store.paper_ids[5]], lambda r: r.__class__(**{**r.to_dict(), "tags": ("to-cite",)}))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        target = await open_tag_prompt(app, pilot)
        assert isinstance(app.screen, TagPrompt)
        await pilot.press(*"to-c", "right")  # completes the existing tag
        assert app.screen.query_one(Input).value == "to-cite"
        await pilot.press(*" Must Read", "enter")
        await wait_for(
            pilot, lambda: on_disk(seeded_store, target).tags == ("must", "read", "to-cite"), what="the tags saved"
        )
        await pilot.press("T", *"-read", "enter")
        await wait_for(pilot, lambda: on_disk(seeded_store, target).tags == ("must", "to-cite"), what="the tags saved")
        await pilot.press("u")
        assert on_disk(seeded_store, target).tags == ("must", "read", "to-cite")
        await pilot.press("T", *"robotics, hands,-must", "enter")  # a comma separates tags too
        await wait_for(
            pilot,
            lambda: on_disk(seeded_store, target).tags == ("hands", "read", "robotics", "to-cite"),
            what="the tags saved",
        )


async def test_marks_bulk_star_is_one_undo_step(make_app: AppFactory, seeded_store: Store) -> None:
    app = make_app()
    ids = seeded_store.paper_ids
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")  # marks rows 0 and 1, moving down
        await pilot.press("j", "j", "V")  # range from row 1 to row 4
        assert main_screen(app).marked == set(ids[:5])
        await pilot.press("s")  # a bulk change: saved by a worker
        starred = lambda: all(on_disk(seeded_store, pid).starred for pid in ids[:5])  # noqa: E731
        await wait_for(pilot, starred, what="the five marked papers starred on disk")
        assert not on_disk(seeded_store, ids[5]).starred
        await pilot.press("u")  # one step undoes all five
        unstarred = lambda: not any(on_disk(seeded_store, pid).starred for pid in ids[:5])  # noqa: E731
        await wait_for(pilot, unstarred, what="the five papers unstarred on disk")
        await pilot.press("escape")  # clears the marks, not the filter
        assert main_screen(app).marked == set()


async def test_bulk_over_50_asks_once_then_applies_and_undoes(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"abs:{n:04d}", title=f"Paper {n}", abstract=f"Abstract {n}.") for n in range(80)])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("M", "t")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)  # the change runs in steps, in worker threads, with its progress shown
        assert sum(1 for r in Store(store.data_dir).all_user_data.values() if r.status == "to-read") == 80
        await pilot.press("u")
        await settle(pilot)  # the undo runs in worker threads too
        assert Store(store.data_dir).all_user_data == {}
        await pilot.press("t", "n")  # the marks stay: asked again, and declined
        await pilot.pause()
        assert Store(store.data_dir).all_user_data == {}


async def test_note_in_external_editor(
    make_app: AppFactory, seeded_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "fake-editor"
    editor.write_text(f"#!{sys.executable}\nimport sys\nopen(sys.argv[-1], 'a').write('from the editor')\n")
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("VISUAL", f"{editor} --flag")  # an argument list, split like a shell would
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("N")
        await settle(pilot)
        assert on_disk(seeded_store, target).note == "from the editor"
        await pilot.press("u")
        assert on_disk(seeded_store, target).note == ""


async def test_copy_and_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(
                id="openreview:A1",
                title="With links",
                abstract="x",
                openreview_url="https://openreview.net/forum?id=A1",
                pdf_url="https://openreview.net/pdf?id=A1",
                bibtex="@inproceedings{a1,\ntitle={With links}\n}",
            ),
        ]
    )
    app = PaperApp(store=store)
    opened: list[str] = []
    copied: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url) or True)
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        assert copied == ["With links\nhttps://openreview.net/forum?id=A1"]
        await pilot.press("Y")
        # the source's own entry, with the OpenReview link it lacked (an export read back keeps its id)
        assert (
            copied[-1]
            == "@inproceedings{a1,\ntitle={With links},\n  openreview = {https://openreview.net/forum?id=A1}\n}\n"
        )
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LinkChooser)
        await pilot.press("down", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert opened == ["https://openreview.net/pdf?id=A1"]


async def test_status_and_tags_show_in_the_detail_pane(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t", "T", *"cite", "enter")
        await pilot.pause()
        body = str(main_screen(app).query_one("#detail-body", Static).render())
        assert "to-read" in body and "#cite" in body


async def test_the_status_tally_counts_the_list_shown(make_app: AppFactory, seeded_store: Store) -> None:
    papers = seeded_store.paper_ids
    seeded_store.set_status(papers[0], "read")
    seeded_store.set_status(papers[1], "to-read")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert str(paper_list(app).border_subtitle) == f"{len(papers) - 2:,} unseen · 1 to-read · 1 read"
        await pilot.press("slash", *"status:to-read")
        await settle(pilot)
        assert paper_list(app).row_count == 1
        assert str(paper_list(app).border_subtitle) == "0 unseen · 1 to-read"
        await pilot.press("enter", "r")  # read: it leaves the to-read list at once, and the tally
        await settle(pilot)
        assert str(paper_list(app).border_subtitle) == "0 unseen"
        assert paper_list(app).row_count == 0
        await pilot.press("escape", "slash", *"-status:read")  # longer than the records with a status
        await settle(pilot)
        await wait_for(pilot, lambda: not main_screen(app).list_filter.tally_pending, what="the list counted by status")
        assert paper_list(app).row_count == len(papers) - 2  # both read now
        main_screen(app).store.set_status(papers[2], "skimmed")
        main_screen(app).update_counts()
        tally = f"{len(papers) - 3:,} unseen · 1 skimmed"
        await wait_for(pilot, lambda: str(paper_list(app).border_subtitle) == tally, what=tally)


async def test_a_list_filtered_by_the_users_data_follows_each_change(make_app: AppFactory, seeded_store: Store) -> None:
    """Under ``tag:x``, ``is:starred``, ``status:``, ``has:note`` and starred only, a change to the
    highlighted paper (or another) re-filters the list; the highlight stays, else goes to the next
    paper; undo brings the paper back."""
    ids = seeded_store.paper_ids
    for pid in ids[:3]:
        seeded_store.change([pid], lambda r: r.__class__(**{**r.to_dict(), "tags": ("x",)}))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)

        async def query(text: str) -> None:
            keys = ["minus" if c == "-" else c for c in text]
            await pilot.press("slash", "ctrl+a", "ctrl+k", *keys, "enter")
            await settle(pilot)

        async def tags(typed: str) -> None:
            await pilot.press("T")
            await settle(pilot)
            await pilot.press(*["minus" if c == "-" else c for c in typed], "enter")
            await settle(pilot)

        await query("tag:x")
        assert screen.view_ids() == ids[:3]
        await pilot.press("j")  # the second
        await tags("-x")
        assert screen.view_ids() == [ids[0], ids[2]] and highlighted(app).id == ids[2]  # the next one
        await pilot.press("u")
        await settle(pilot)
        assert screen.view_ids() == ids[:3]
        await query("-tag:x")  # adding x to another paper takes it out of this list
        first = highlighted(app).id
        await tags("x")
        assert first not in screen.view_ids() and highlighted(app).id == ids[4]
        await query("tag:x")
        assert screen.view_ids() == [*ids[:3], first]

        await query("is:starred")
        assert screen.view_ids() == []
        await query("-is:starred")
        await pilot.press("s")  # starred: it leaves "not starred"
        await settle(pilot)
        assert ids[0] not in screen.view_ids() and highlighted(app).id == ids[1]
        await query("is:starred")
        assert screen.view_ids() == [ids[0]]
        await pilot.press("s")
        await settle(pilot)
        assert screen.view_ids() == []

        await query("status:unseen")
        await pilot.press("r")  # read: no longer unseen
        await settle(pilot)
        assert seeded_store.user_data(ids[0]).status == "read"
        assert ids[0] not in screen.view_ids() and highlighted(app).id == ids[1]

        await query("has:note")
        assert screen.view_ids() == []
        assert screen._save_note(ids[1], "a note")  # as the note editor saves it
        await settle(pilot)
        assert screen.view_ids() == [ids[1]]
        await query("")
        await pilot.press("S")  # starred only
        await settle(pilot)
        assert screen.view_ids() == []
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("s")  # in every paper's list: nothing is left out
        await settle(pilot)
        assert len(screen.view_ids()) == len(ids) and highlighted(app).id == ids[0]
        await pilot.press("S")
        await settle(pilot)
        assert screen.view_ids() == [ids[0]]
        await pilot.press("s")  # unstarred under starred only: gone
        await settle(pilot)
        assert screen.view_ids() == []


async def test_a_list_without_statuses_is_tallied_without_a_set_of_its_ids(
    make_app: AppFactory, seeded_store: Store
) -> None:
    """No paper has a reading status: a long filtered list is tallied once the typing pauses, as
    all unseen, without a set of every id listed; a status set then is counted in it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"-zzqx")  # every paper, filtered: longer than the records with a status (none)
        await settle(pilot)
        list_filter = main_screen(app).list_filter
        count = len(seeded_store.paper_ids)
        assert paper_list(app).row_count == count
        await wait_for(pilot, lambda: not list_filter.tally_pending, what="the list tallied")
        assert list_filter.counts._view_id_set[1] is None  # tallied without a set of its ids
        assert str(paper_list(app).border_subtitle) == f"{count:,} unseen"
        main_screen(app).store.set_status(seeded_store.paper_ids[2], "skimmed")
        main_screen(app).update_counts()
        tally = f"{count - 1:,} unseen · 1 skimmed"
        await wait_for(pilot, lambda: str(paper_list(app).border_subtitle) == tally, what=tally)
