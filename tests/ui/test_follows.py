"""Following in the app: followed papers marked ◆ in the list and named in the detail pane, the
keys that follow (an author picked from the highlighted paper's, a keyword, the filter's query),
the list that unfollows, ``is:followed`` in the filter bar, and the notice of new papers for the
follows when another paperdeck imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.confirm import ConfirmScreen
from paperdeck.ui.screens.follow_dialogs import AuthorPicker, FollowsScreen, KeywordPrompt
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.row_cells import CHANGED, FOLLOWED
from textual.widgets import Label, Static

from tests.ui.helpers import FIXED_TIME, SIZE, main_screen, paper_list, settle
from tests.waits import GUARD_S, wait_for


def papers(numbers: range) -> list[Paper]:
    authors = {0: ("Jane Doe", "Ann Lee"), 1: ("Bob Smith",), 2: ("Jané DOE",), 3: ("Zed Ward",)}
    titles = {0: "Diffusion for graphs", 1: "Sparse attention", 2: "Denoising proteins", 3: "Reinforcement learning"}
    return [
        Paper(id=f"openreview:P{n}", title=titles.get(n % 4, "x") + ("" if n < 4 else f" {n}"),
              authors=authors[n % 4], abstract=f"Paper {n} about {titles[n % 4].lower()}.", openreview_id=f"P{n}")
        for n in numbers
    ]  # fmt: skip


def store_of(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers(papers(range(4)))
    return store


def marks(app: PaperApp) -> list[bool]:
    """Whether each row of the list shows the follow mark (in the cell after the note mark)."""
    rows = paper_list(app)
    return [rows.render_line(y).text[4] == FOLLOWED for y in range(rows.row_count)]


def detail(app: PaperApp) -> str:
    return str(main_screen(app).query_one(PaperDetail).query_one("#detail-body", Static).render())


async def test_followed_papers_are_marked_and_the_detail_says_why(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    store.follows.add("author", "jane doe")
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert marks(app) == [True, False, True, False]
        assert "◆ following author jane doe" in detail(app)
        await pilot.press("j")
        await settle(pilot)
        assert "following" not in detail(app)
        await pilot.press("slash", *"is:followed")
        await settle(pilot)
        assert paper_list(app).row_count == 2
        await pilot.press("ctrl+a", "minus")  # -is:followed: exactly the others
        await settle(pilot)
        assert main_screen(app).filter_text == "-is:followed"
        assert paper_list(app).row_count == 2 and marks(app) == [False, False]


async def test_the_keys_follow_an_author_a_keyword_and_the_query_and_the_list_unfollows(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "a")  # the second paper: its one author
        await settle(pilot)
        assert isinstance(app.screen, AuthorPicker)
        await pilot.press("enter")
        await settle(pilot)
        assert marks(app) == [False, True, False, False]
        await pilot.press("K")
        await pilot.pause()
        assert isinstance(app.screen, KeywordPrompt)
        await pilot.press("space", "enter")  # nothing typed: the prompt closes and says so
        await settle(pilot)
        assert not isinstance(app.screen, KeywordPrompt)
        assert [str(n.message) for n in app._notifications][-1:] == ["No keyword typed: nothing followed."]
        await pilot.press("K")
        await pilot.pause()
        await pilot.press(*"denoising", "enter")
        await settle(pilot)
        assert marks(app) == [False, True, True, False]
        await pilot.press("slash", *"title:reinforcement", "enter")
        await settle(pilot)
        await app.run_action("follow_query", main_screen(app))
        await settle(pilot)
        await pilot.press("escape")  # every paper again
        await settle(pilot)
        assert marks(app) == [False, True, True, True]
        assert [(f.kind, f.value) for f in store.follows.all()] == [
            ("author", "Bob Smith"), ("keyword", "denoising"), ("query", "title:reinforcement")]  # fmt: skip
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(app.screen, FollowsScreen)
        await pilot.press("d")  # unfollow the first: Bob Smith
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "u cannot undo this" in str(app.screen.query_one("#confirm-question", Label).render())
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert [f.kind for f in Store(store.data_dir).follows.all()] == ["keyword", "query"]
        assert marks(app) == [False, False, True, True]


async def test_a_bad_keyword_is_one_line_and_follows_nothing(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("K", *"?!", "enter")
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Not followed: a keyword to follow needs a letter or digit") for m in said)
        assert store.follows.all() == () and not any(marks(app))


async def test_another_paperdecks_import_is_said_new_for_the_follows(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    store.follows.add("author", "Jane Doe")
    store.follows.add("keyword", "sparse")
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        other = Store(store.data_dir)
        other.import_papers(papers(range(8)))  # four new: two by Jane Doe, one on sparse attention
        app.check_catalogue()
        await settle(pilot)
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert "followed: 3 new papers (author Jane Doe 2, keyword sparse 1)" in said
        # The new papers (rows 4 to 7) are changed since the user looked: the followed ones show
        # both marks, ◆ then •; the other one • alone, in the follow mark's cell.
        cells = [paper_list(app).render_line(y).text[4:6] for y in range(4, 8)]
        assert sorted(cells, key=lambda c: c[0] != FOLLOWED)[:3] == [FOLLOWED + CHANGED] * 3
        assert sum(c[0] == CHANGED for c in cells) == 1


async def test_a_follow_added_from_the_command_line_is_marked(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        Store(store.data_dir).follows.add("author", "Zed Ward")
        main_screen(app).check_external_changes()
        await settle(pilot)
        assert marks(app) == [False, False, False, True]


async def test_a_restart_with_the_saved_search_index_marks_the_followed_papers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The saved index is read before the catalogue is parsed (that waits for a pause in typing):
    the follows are matched once the catalogue is there, not only when the index is (nor only
    when the follows file is seen to change)."""
    from paperdeck.search.searcher import build_index
    from paperdeck.ui.screens.follows import Following

    monkeypatch.setattr(Following, "check_file", lambda self: None)

    store = store_of(tmp_path)
    store.follows.add("author", "jane doe")
    build_index(store)  # saved beside the catalogue, as an import leaves it
    app = PaperApp(store=Store(store.data_dir, now=lambda: FIXED_TIME, lazy=True))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: app.store.loaded and marks(app) == [True, False, True, False],
            what=lambda: f"the catalogue and the marks (loaded: {app.store.loaded}, marks: {marks(app)})",
        )
        await settle(pilot)
        assert marks(app) == [True, False, True, False]
        assert "◆ following author jane doe" in detail(app)


async def test_the_author_picker_moves_with_j_and_k(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")  # the first paper: Jane Doe, Ann Lee
        await settle(pilot)
        assert isinstance(app.screen, AuthorPicker)
        await pilot.press("j", "k", "j", "enter")
        await settle(pilot)
        assert [(f.kind, f.value) for f in store.follows.all()] == [("author", "Ann Lee")]


async def test_enter_in_the_following_list_shows_that_follows_papers(tmp_path: Path) -> None:
    store = store_of(tmp_path)
    store.follows.add("author", "Jane Doe")
    store.follows.add("keyword", "sparse")
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        assert isinstance(app.screen, FollowsScreen)
        await pilot.press("enter")  # author Jane Doe: papers 0 and 2 (Jané DOE)
        await settle(pilot)
        assert not isinstance(app.screen, FollowsScreen)
        assert main_screen(app).filter_text == 'author:"Jane Doe"'
        assert paper_list(app).row_count == 2
        assert marks(app) == [True, True]
        await pilot.press("F")
        await settle(pilot)
        await pilot.press("j", "enter")
        await settle(pilot)
        assert main_screen(app).filter_text == 'keyword:"sparse" OR title:"sparse" OR abstract:"sparse"'
        assert paper_list(app).row_count == 1 and paper_list(app).highlighted_id == "openreview:P1"


async def test_a_changed_followed_paper_shows_both_marks_beside_the_decision_badges(tmp_path: Path) -> None:
    from dataclasses import replace

    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([replace(p, decision="poster") for p in papers(range(4))])
    store.follows.add("author", "Jane Doe")
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        other = Store(store.data_dir)
        other.import_papers([replace(p, decision="oral") for p in papers(range(4, 6))])  # 4: Jane Doe's
        app.check_catalogue()
        await settle(pilot)
        await settle(pilot)
        rows = {paper_list(app).render_line(y).text[4:11] for y in range(paper_list(app).row_count)}
        assert {FOLLOWED + "ORAL" + CHANGED + "D", CHANGED + "ORAL S", FOLLOWED + "POST D"} <= rows


async def test_the_following_list_counts_a_follow_added_while_it_is_matched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F pressed before the new follow's match landed showed it matching 0 papers, and kept that:
    it shows ``…`` until the match lands, then the count."""
    import threading

    import paperdeck.search.selection as selection
    from textual.widgets import OptionList

    matched = threading.Event()
    followed_by = selection.followed_by

    def held(*args: object, **kwargs: object) -> object:
        matched.wait(GUARD_S)
        return followed_by(*args, **kwargs)  # type: ignore[arg-type]

    store = store_of(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        monkeypatch.setattr(selection, "followed_by", held)
        await pilot.press("K", *"denoising", "enter")
        await pilot.pause()
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(app.screen, FollowsScreen)

        def shown() -> list[str]:
            options = app.screen.query_one(OptionList)
            return [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]

        assert shown() == ["     …  keyword denoising"]
        matched.set()
        await settle(pilot)
        assert shown() == ["     1  keyword denoising"]


def test_the_papers_new_after_a_reload_are_those_no_known_id_became() -> None:
    """After a reload, the same ids in the same order (a decisions import) are no new paper; else
    a paper is new unless an id known before is it or was merged into it."""
    from types import SimpleNamespace

    aliases = {"old:2": "new:9"}
    current = ["a", "b", "new:9", "c"]
    store = SimpleNamespace(paper_ids=current, resolve=lambda paper_id: aliases.get(paper_id, paper_id))
    app = SimpleNamespace(store=store)
    assert PaperApp._new_paper_ids(app, ["a", "b", "new:9", "c"]) == []  # type: ignore[arg-type]
    assert PaperApp._new_paper_ids(app, ["a", "old:2"]) == ["b", "c"]  # type: ignore[arg-type]
    assert PaperApp._new_paper_ids(app, ["c", "b", "a"]) == ["new:9"]  # type: ignore[arg-type]
