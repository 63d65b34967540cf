"""Saved views: built-in ones on digits, saving the filter under a name (kept in config.json),
the views list with live counts, deleting a view, and the view's name beside the counts."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.refused import RefusedDialog
from paperdeck.ui.screens.views import SaveViewPrompt, ViewsScreen
from paperdeck.ui.widgets.filter_bar import FilterBar
from textual import events
from textual.widgets import Input, Label, OptionList, Static

from tests.ui.helpers import SIZE, counts, main_screen, settle
from tests.waits import wait_for

PAPERS = [
    Paper(id="openreview:A", title="Diffusion sampling fast", abstract="a", decision="oral", ratings=Ratings(7.0)),
    Paper(id="openreview:B", title="Diffusion sampling slow", abstract="b", decision="poster", ratings=Ratings(5.0)),
    Paper(id="openreview:C", title="Graph networks", abstract="c", decision="oral", ratings=Ratings(6.5)),
]


def make_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_star("openreview:C", True)
    store.set_note("openreview:B", "read the appendix")
    return store


async def test_builtin_views_on_digits(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("1")  # Starred
        await settle(pilot)
        assert screen.query_one(FilterBar).value == "is:starred"
        assert screen.view_ids() == ["openreview:C"]
        assert counts(app).startswith("Starred: 1 of 3")
        assert app.focused is screen.paper_list  # the list, not the filter bar, keeps the keys
        await pilot.press("4")  # With notes
        await settle(pilot)
        assert screen.view_ids() == ["openreview:B"]
        await pilot.press("0")
        await settle(pilot)
        assert screen.query_one(FilterBar).value == "" and len(screen.view_ids()) == 3
        await pilot.press("9")  # no such view: a hint, nothing changes
        await settle(pilot)
        assert len(screen.view_ids()) == 3


async def test_save_a_view_and_open_it_after_a_restart(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"decision:oral", "enter")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)
        await pilot.press(*"Orals", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, SaveViewPrompt)
    saved = json.loads((tmp_path / "data" / "config.json").read_text())
    assert saved["views"] == {"Orals": "decision:oral"}

    app = PaperApp(store=Store(tmp_path / "data"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7")  # the first of the user's views, after the six built-in ones
        await settle(pilot)
        assert set(main_screen(app).view_ids()) == {"openreview:A", "openreview:C"}
        assert counts(app).startswith("Orals: 2 of 3")


async def test_saving_needs_a_good_query_and_a_name(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")  # empty filter: nothing to save (said in a dialog that takes the keys)
        await settle(pilot)
        assert isinstance(app.screen, RefusedDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("slash", *"rating>=", "enter")  # enter stays in the bar: the query cannot run
        await settle(pilot)
        assert isinstance(app.focused, FilterBar)
        await pilot.press("down")  # nor does down leave it
        await settle(pilot)
        app.set_focus(main_screen(app).paper_list)  # a click on the list, say: the malformed query kept
        await settle(pilot)
        await pilot.press("w")  # malformed: nothing to save
        await settle(pilot)
        assert isinstance(app.screen, RefusedDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"graph", "enter")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)
        await pilot.press("space", "enter")  # a blank name closes the prompt, saying nothing was saved
        await settle(pilot)
        assert not isinstance(app.screen, SaveViewPrompt)
        assert [str(n.message) for n in app._notifications][-1:] == ["No name typed: the view was not saved."]
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)
        await pilot.press(*("x" * 45))  # the name stops at its longest, and says so
        await settle(pilot)
        assert len(app.screen.query_one("#view-name", Input).value) == 40
        assert "up to 40 characters" in str(app.screen.query_one("#view-hint", Static).render())
        name = app.screen.query_one("#view-name", Input)
        name.value = ""
        await settle(pilot)
        name.post_message(events.Paste("A name pasted\nthat is longer than forty characters"))
        await settle(pilot)  # cut where the name is full, and said so (Input refused it whole)
        assert name.value == "A name pasted that is longer than forty characters"[:40]
        assert "up to 40 characters" in str(app.screen.query_one("#view-hint", Static).render())
        await pilot.press("escape")
        await settle(pilot)
    config = tmp_path / "data" / "config.json"
    assert not config.exists() or json.loads(config.read_text()).get("views", {}) == {}


async def test_views_list_counts_like_my_stars_though_nothing_was_ranked_by_likeness_yet(tmp_path: Path) -> None:
    """The count of "Like my stars" is shown before anything was ranked by likeness (it showed
    ``?`` until then), without building the similarity index for it."""
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_star("openreview:A", True)  # "Diffusion sampling fast": B shares its words
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        searcher = main_screen(app).searcher
        assert searcher.similarity.built is None
        await pilot.press("v")
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        row = str(options.get_option_at_index(4).prompt)
        assert "Like my stars" in row and row.rstrip().endswith(" 2"), row  # every paper but the starred one
        assert searcher.similarity.built is None


async def test_views_list_counts_opens_and_deletes(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    config = {"views": {"Diffusion orals": "diffusion decision:oral"}}
    (tmp_path / "data" / "config.json").write_text(json.dumps(config))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        options = app.screen.query_one(OptionList)
        rows = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        assert [row.split()[0] for row in rows] == ["1", "2", "3", "4", "5", "6", "7"]
        assert rows[0].startswith("1  Starred") and rows[0].rstrip().endswith(" 1")
        assert rows[2].rstrip().endswith(" 3")  # Unseen: nothing has a status yet
        assert "Like my stars" in rows[4] and rows[4].rstrip().endswith(" 2")  # every paper but the starred one
        assert "What changed" in rows[5] and rows[5].rstrip().endswith(" 0")  # no import changed anything
        assert "Diffusion orals" in rows[6] and rows[6].rstrip().endswith(" 1")  # words and fields
        await pilot.press("d")  # on a built-in view: refused
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("end", "d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "u cannot undo this" in str(app.screen.query_one("#confirm-question", Label).render())
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        assert app.screen.query_one(OptionList).option_count == 6
        await pilot.press("2")  # opens "To read"
        await settle(pilot)
        assert main_screen(app).query_one(FilterBar).value == "status:to-read"
        assert main_screen(app).view_ids() == []
    assert json.loads((tmp_path / "data" / "config.json").read_text())["views"] == {}


async def test_escape_in_the_views_list_keeps_the_filter(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")  # To read: a view in the filter bar
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ViewsScreen)
        assert main_screen(app).query_one(FilterBar).value == "status:to-read"


SIMILAR = [
    Paper(id="openreview:D1", title="Denoising diffusion samplers", abstract="diffusion denoising sampling steps"),
    Paper(id="openreview:G1", title="Graph message passing", abstract="graph neural networks message passing nodes"),
    Paper(id="openreview:D2", title="Faster diffusion sampling", abstract="diffusion sampling, fewer denoising steps"),
    Paper(id="openreview:G2", title="Deep graph networks", abstract="graph networks oversmoothing message nodes"),
]


async def test_more_like_this_and_like_my_stars(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(SIMILAR)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("m")  # on the first paper
        await settle(pilot)
        assert screen.query_one(FilterBar).value == "like:openreview:D1"
        # The most alike first, the paper itself left out (it was listed first); no count of "matches".
        assert screen.view_ids()[0] == "openreview:D2" and "openreview:D1" not in screen.view_ids()
        assert counts(app).strip().startswith("most alike first"), counts(app)
        assert app.focused is screen.paper_list
        await pilot.press("5")  # Like my stars, with nothing starred: a hint, the last result kept
        await settle(pilot)
        assert "star some first" in (main_screen(app).query_hint or "") and counts(app).startswith("⚠")
        assert screen.view_ids()[0] == "openreview:D2"
        await pilot.press("0", "g", "j", "s", "5")  # star the graph paper G1, then Like my stars
        await settle(pilot)
        assert screen.view_ids()[0] == "openreview:G2" and "openreview:G1" not in screen.view_ids()
        assert counts(app).startswith("Like my stars: most alike first"), counts(app)  # said "3 of 4"


async def test_a_taken_name_needs_a_second_enter_and_m_keeps_field_terms(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    (tmp_path / "data" / "config.json").write_text(json.dumps({"views": {"Mine": "has:note"}}))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"decision:oral", "enter", "w")
        await settle(pilot)
        await pilot.press(*"mine", "enter")
        await settle(pilot)
        assert isinstance(app.screen, SaveViewPrompt)  # "Mine" exists: asked first
        assert "enter again replaces" in str(app.screen.query_one("#view-hint", Static).render())
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, SaveViewPrompt)
        highlighted = main_screen(app).paper_list.highlighted_id
        await pilot.press("m")
        await settle(pilot)
        assert main_screen(app).query_one(FilterBar).value == f"like:{highlighted} decision:oral"
        await pilot.press("v", "j", "j")
        await settle(pilot)
        assert app.screen.query_one(OptionList).highlighted == 2
    assert json.loads((tmp_path / "data" / "config.json").read_text())["views"] == {"mine": "decision:oral"}


async def test_the_views_list_and_a_confirm_fit_a_small_terminal(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(50, 15)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ViewsScreen)
        first = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "Starred" in first and "is:starred" not in first  # one line a view: no room for the query
        await pilot.resize_terminal(100, 30)
        await settle(pilot)  # the rows are labelled again for the new width after the resize
        first_row = lambda: str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)  # noqa: E731
        await wait_for(pilot, lambda: "is:starred" in first_row(), what=first_row)
        await pilot.resize_terminal(50, 15)
        await settle(pilot)
        await pilot.press("escape", "n", *"abc", "escape")  # a note's discard question
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        dialog = app.screen.query_one("#confirm-dialog")
        assert dialog.region.right <= 50 and all(b.region.right <= 50 for b in app.screen.query("Button"))


async def test_a_sort_picked_on_a_like_list_sorts_it(tmp_path: Path) -> None:
    """A tester's find: ``O`` on ``m``'s list (or on it saved as a view) said "Sorted by title for
    this query" while the rows and the counts stayed ``most alike first``. The sort picked is
    applied and named; cycling back to relevance is likeness again, said as such."""
    store = Store(tmp_path / "data")
    store.import_papers(SIMILAR)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        await pilot.press("m")  # like D1: D2 first
        await settle(pilot)
        alike = screen.view_ids()
        assert alike[0] == "openreview:D2"
        await pilot.press("O")  # relevance → list order
        await settle(pilot)
        assert screen.view_ids() == ["openreview:G1", "openreview:D2", "openreview:G2"]
        assert "in list order" in counts(app) and "most alike" not in counts(app), counts(app)
        await pilot.press("O")  # → title
        await settle(pilot)
        assert screen.view_ids() == ["openreview:G2", "openreview:D2", "openreview:G1"]  # Deep, Faster, Graph
        assert "by title" in counts(app) and "most alike" not in counts(app), counts(app)
        assert any("Sorted by title for this query" in str(n.message) for n in app._notifications)
        await pilot.press("w", *"alike", "enter")  # saved as a view, opened again: its own sort holds
        await settle(pilot)
        await pilot.press("0", "7")
        await settle(pilot)
        assert screen.query_one(FilterBar).value == "like:openreview:D1"
        # the view keeps the sort it was saved with (title), the rows sorted so at once
        assert screen.view_ids() == ["openreview:G2", "openreview:D2", "openreview:G1"]
        for _ in range(9):  # round the sorts after title, back to relevance: likeness
            await pilot.press("O")
        await settle(pilot)
        assert screen.view_ids() == alike
        assert "most alike first" in counts(app), counts(app)
        assert any("Sorted by likeness, most alike first" in str(n.message) for n in app._notifications)
