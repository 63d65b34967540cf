"""No dead ends on the screen: Y always copies a BibTeX entry, o without a browser copies the link
and says so, a catalogue changed by another process is reloaded in place, keymap problems are
reported in one line, and bulk changes show their progress."""

from __future__ import annotations

import json
import threading
import time
import weakref
import webbrowser
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper, UserData
from paperdeck.sources.importer import import_files
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.store.undo_steps import StepEdit
from paperdeck.ui.app import PaperApp
from paperdeck.ui.keymap import check_keymap
from paperdeck.ui.screens.help import HelpScreen
from paperdeck.ui.screens.list_actions import Change
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.screens.progress import ProgressScreen
from paperdeck.ui.screens.prompts import LinkChooser

from tests.helpers import submission_parts
from tests.ui.helpers import SIZE, highlighted, main_screen, settle
from tests.waits import wait_for

AppFactory = Callable[..., PaperApp]
RT_PART1 = submission_parts()[0]


#: Every notice each app gave, by app: kept here (a toast expires after its few seconds, which a
#: loaded machine spent before the test looked: "1,001 of 1,001 papers changed" was gone). Keyed by
#: the app itself, weakly: an ``id()`` outlives its app and a later one at that address would
#: inherit its notices.
_SAID: weakref.WeakKeyDictionary[PaperApp, list[str]] = weakref.WeakKeyDictionary()


@pytest.fixture(autouse=True)
def _notices_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    notify = PaperApp.notify

    def kept(self: PaperApp, message: str, *args: Any, **kwargs: Any) -> None:
        _SAID.setdefault(self, []).append(str(message))
        notify(self, message, *args, **kwargs)

    _SAID.clear()
    monkeypatch.setattr(PaperApp, "notify", kept)


def notices(app: PaperApp) -> list[str]:
    """Every notice the app gave (a toast's message), those expired since too, and the toasts
    shown now (a save failure's toast is shown by the screen that holds it, not by ``notify``)."""
    said = list(_SAID.get(app, []))
    return said + [str(n.message) for n in app._notifications if str(n.message) not in said]


@pytest.fixture
def iclr2026_store(tmp_path: Path) -> Store:
    """Five ICLR 2026 submissions cut from the ReviewTracker dump (no BibTeX in it)."""
    with RT_PART1.open(encoding="utf-8") as lines:
        records = [next(lines) for _ in range(5)]
    path = tmp_path / "rt.jsonl"
    path.write_text("".join(records), "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [path])
    return store


async def test_y_copies_a_generated_entry_for_a_paper_whose_source_gave_none(
    iclr2026_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = PaperApp(store=iclr2026_store)
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = highlighted(app)
        assert paper.bibtex == ""
        await pilot.press("Y")
        await pilot.pause()
        assert len(copied) == 1
        library = bibtexparser.parse_string(copied[0])
        (entry,) = library.entries
        assert entry.entry_type == "misc"  # under review, as OpenReview writes it
        assert entry.fields_dict["title"].value == paper.title
        assert entry.fields_dict["url"].value == paper.openreview_url
        assert not any("no BibTeX" in message for message in notices(app))
        assert any("made from its fields" in message for message in notices(app))


async def test_y_copies_the_sources_entry_when_there_is_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "data")
    own = "@inproceedings{\nkey2026own,\ntitle={Its own entry},\nyear={2026}\n}"
    store.import_papers([Paper(id="openreview:B1", title="Its own entry", abstract="x", bibtex=own)])
    app = PaperApp(store=store)
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("Y")
        await pilot.pause()
        assert copied == [own + "\n"]
        assert any("of its source" in message for message in notices(app))


def _linked_store(tmp_path: Path, *, links: int) -> Store:
    store = Store(tmp_path / "data")
    extra = {"pdf_url": "https://openreview.net/pdf?id=A1"} if links > 1 else {}
    forum = "https://openreview.net/forum?id=A1"
    store.import_papers([Paper(id="openreview:A1", title="With links", abstract="x", openreview_url=forum, **extra)])
    return store


@pytest.mark.parametrize("failure", ["none found", "error"])
async def test_o_without_a_browser_copies_the_link_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    def no_browser(url: str, *args: object, **kwargs: object) -> bool:
        if failure == "error":
            raise webbrowser.Error("could not locate runnable browser")
        return False

    monkeypatch.setattr(webbrowser, "open", no_browser)
    app = PaperApp(store=_linked_store(tmp_path, links=1))
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert copied == ["https://openreview.net/forum?id=A1"]
        said = [message for message in notices(app) if "copied the link" in message]
        assert len(said) == 1 and "https://openreview.net/forum?id=A1" in said[0]


async def test_o_through_the_link_chooser_without_a_browser_copies_the_chosen_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: False)
    app = PaperApp(store=_linked_store(tmp_path, links=2))
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LinkChooser)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert copied == ["https://openreview.net/pdf?id=A1"]
        assert any("copied the link" in message for message in notices(app))


async def test_o_with_a_browser_opens_and_copies_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url) or True)
    app = PaperApp(store=_linked_store(tmp_path, links=1))
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        assert opened == ["https://openreview.net/forum?id=A1"] and copied == []


async def test_a_clicked_link_that_is_not_http_is_neither_opened_nor_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url) or False)
    app = PaperApp(store=_linked_store(tmp_path, links=1))
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.action_open_link("javascript:alert(1)")
        await settle(pilot)
        assert opened == [] and copied == []


# -- keymaps -----------------------------------------------------------------------------------


def _keymapped_app(store: Store, keymap: dict[str, str]) -> PaperApp:
    (store.data_dir / CONFIG_FILE).write_text(json.dumps({"keymap": keymap}), "utf-8")
    return PaperApp(store=store)


def _footer(app: PaperApp) -> list[tuple[str, str]]:
    """The shown bindings of the screen, in the order the footer lays them out: (key, action)."""
    return [(b.binding.key, b.binding.action) for b in app.screen.active_bindings.values() if b.binding.show]


def _keymap_reports(app: PaperApp) -> list[str]:
    return [str(n.message) for n in app._notifications if "keymap" in str(n.message)]


def test_check_keymap_refuses_what_would_hide_a_command() -> None:
    check = check_keymap(
        {"main.star": "q", "main.note": "?", "main.nope": "z", "main.tags": "f", "main.undo": "f", "main.mark": "r"}
    )
    assert check.keys["app.quit"] == "q" and check.keys["app.help"] == "question_mark"
    assert check.keys["main.star"] == "s" and check.keys["main.note"] == "n"  # nothing left: their own keys
    assert check.keys["main.tags"] == "f" and check.keys["main.undo"] == "u"  # the first remap keeps f
    assert check.keys["main.mark"] == "space" and check.keys["main.status_read"] == "r"  # r was read's
    report = check.report()
    assert report is not None and "\n" not in report and report.startswith("config.json keymap: 5 problems")
    assert "'main.nope' is no command id" in report


def test_check_keymap_allows_swaps_shared_defaults_and_protects_quit_and_help() -> None:
    swap = check_keymap({"main.star": "n", "main.note": "s", "list.down": "j,down,ctrl+n"})
    assert swap.problems == ()
    assert (swap.keys["main.star"], swap.keys["main.note"], swap.keys["list.down"]) == ("n", "s", "j,down,ctrl+n")
    moved = check_keymap({"app.quit": "ctrl+x", "app.help": "f1"})
    assert moved.keys["app.quit"] == "ctrl+x,q" and moved.keys["app.help"] == "f1,question_mark"
    assert len(moved.problems) == 2
    assert check_keymap({}).applied == {} and check_keymap({}).problems == ()


async def test_keymap_problems_are_one_notification_and_q_and_help_still_work(seeded_store: Store) -> None:
    app = _keymapped_app(seeded_store, {"main.star": "q", "main.note": "?", "main.nope": "z", "main.tags": "s"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reports = _keymap_reports(app)
        assert len(reports) == 1 and "\n" not in reports[0]
        assert "main.nope" in reports[0] and "'q'" in reports[0] and "'question_mark'" in reports[0]
        target = highlighted(app).id
        footer = _footer(app)
        assert ("q", "quit") in footer and ("question_mark", "help") in footer
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")  # main.tags asked for s, but s is the star's
        await wait_for(pilot, lambda: Store(seeded_store.data_dir).user_data(target).starred, what="the star saved")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


async def test_a_remapped_key_keeps_its_place_in_the_footer(seeded_store: Store, make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        default = _footer(app)
        assert not _keymap_reports(app)
    app = _keymapped_app(seeded_store, {"main.star": "f"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert _footer(app) == [("f" if action == "toggle_star" else key, action) for key, action in default]
        assert not _keymap_reports(app)


# -- a catalogue changed by another process ------------------------------------------------------

LONG = " ".join(f"word{n}" for n in range(40))


def _abstract(seed: int) -> str:
    """An abstract of its own (abstracts alike are merged as one paper)."""
    return " ".join(f"term{seed}x{n}" for n in range(30))


async def test_papers_imported_by_another_process_appear_in_place(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PaperApp, "CATALOGUE_CHECK_S", 0.1)
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 0.0)  # the other store saves no search index: not waited for
    threads: list[bool] = []
    reload = Store.reload_catalogue

    def in_thread(store: Store) -> bool:
        threads.append(threading.current_thread() is threading.main_thread())
        return reload(store)

    monkeypatch.setattr(Store, "reload_catalogue", in_thread)
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"model")
        await settle(pilot)
        await pilot.press("enter", "down", "down")
        await settle(pilot)
        before = main_screen(app).view_ids()
        kept = highlighted(app).id
        assert len(before) > 3
        other = Store(seeded_store.data_dir)  # another paperdeck process, as `paperdeck import` opens it
        other.import_papers([Paper(id="openreview:NEW0000001", title="A new model of everything", abstract=LONG)])
        await wait_for(pilot, lambda: app.store.paper_count == 38)
        await settle(pilot)
        assert threads == [False]  # read in a worker thread, never on the event loop
        screen = main_screen(app)
        assert screen.filter_text == "model"
        # the reload, then the refilter it asks for, each hand over to the loop: wait for the list
        await wait_for(pilot, lambda: "openreview:NEW0000001" in screen.view_ids(), what="the new paper listed")
        assert set(before) < set(screen.view_ids())
        assert highlighted(app).id == kept
        assert any("catalogue changed" in message for message in notices(app))


async def test_the_highlighted_paper_is_kept_under_the_id_a_merge_gave_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PaperApp, "CATALOGUE_CHECK_S", 0.1)
    monkeypatch.setattr(PaperApp, "INDEX_WAIT_S", 0.0)  # the other store saves no search index: not waited for
    store = Store(tmp_path / "data")
    titles = ("First paper", "Second paper on graphs", "Third paper")
    papers = [
        Paper(id=f"title:ICLR-2026:{n}", title=t, abstract=_abstract(n), venue="ICLR", year=2026)
        for n, t in enumerate(titles)
    ]
    store.import_papers(papers)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)
        assert highlighted(app).title == "Second paper on graphs"
        forum = "Gr4phs0001"
        merged = Paper(
            id=f"openreview:{forum}", title=titles[1], abstract=_abstract(1), venue="ICLR", year=2026,
            openreview_id=forum, decision="oral",
        )  # fmt: skip
        Store(tmp_path / "data").import_papers([merged])
        await wait_for(pilot, lambda: app.store.paper("openreview:Gr4phs0001") is not None)
        await wait_for(pilot, lambda: highlighted(app).id == "openreview:Gr4phs0001", what="the merged id highlighted")
        assert highlighted(app).decision == "oral"


# -- bulk changes -----------------------------------------------------------------------------------


async def test_a_bulk_change_shows_its_progress_and_formats_its_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"abs:{n:05d}", title=f"Paper {n}", abstract=f"Abstract {n}.") for n in range(1001)])
    app = PaperApp(store=store)
    seen: list[tuple[bool, bool, int]] = []
    change = Store.change

    def watched(
        self: Store,
        paper_ids: Iterable[str],
        how: Callable[[UserData], UserData],
        progress: Callable[[int], None] | None = None,
        step: StepEdit | None = None,
    ) -> list[Change]:
        def shard_staged(papers: int) -> None:  # as each shard is staged, in the writing thread
            screen = app.screen
            done = screen.done if isinstance(screen, ProgressScreen) else -1
            on_loop = threading.current_thread() is threading.main_thread()
            seen.append((isinstance(screen, ProgressScreen), on_loop, done))
            time.sleep(0.01)  # a slow disk: the looks for other writers' changes come meanwhile
            if progress is not None:
                progress(papers)

        return change(self, paper_ids, how, shard_staged, step=step)

    reload, look = Store.reload_user_data, Store.user_data_changed_on_disk
    reloads_during: list[bool] = []  # each look at the user data on disk (a stat first, a read if changed)

    def reload_user_data(self: Store) -> bool:
        reloads_during.append(isinstance(app.screen, ProgressScreen))
        return reload(self)

    def user_data_changed_on_disk(self: Store) -> bool:
        reloads_during.append(isinstance(app.screen, ProgressScreen))
        return look(self)

    monkeypatch.setattr(Store, "change", watched)
    monkeypatch.setattr(Store, "reload_user_data", reload_user_data)
    monkeypatch.setattr(Store, "user_data_changed_on_disk", user_data_changed_on_disk)
    monkeypatch.setattr(MainScreen, "EXTERNAL_CHECK_S", 0.02)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("M", "t", "y")
        await settle(pilot)
        assert len(seen) > 10  # one step per user-data shard touched
        assert all(on_progress and not on_loop for on_progress, on_loop, _ in seen)
        counts = [done for _, _, done in seen]
        assert counts == sorted(counts) and counts[0] == 0 and counts[-1] < 1001  # it moved as it went
        assert not isinstance(app.screen, ProgressScreen)
        assert reloads_during and not any(reloads_during)  # nothing re-read the user data meanwhile
        on_disk = Store(store.data_dir).all_user_data.values()
        assert sum(1 for record in on_disk if record.status == "to-read") == 1001
        assert any("1,001 of 1,001 papers changed" in message for message in notices(app))
        await pilot.press("u")  # one step undoes it all
        await settle(pilot)
        assert Store(store.data_dir).all_user_data == {}


async def test_a_bulk_change_that_fails_midway_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shards are one transaction: a failure at the third leaves the two staged before it
    unwritten too, on disk and on screen, and records no undo step."""
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"abs:{n:05d}", title=f"Paper {n}", abstract=f"Abstract {n}.") for n in range(200)])
    app = PaperApp(store=store)
    change = Store.change
    staged: list[int] = []

    def failing(
        self: Store,
        paper_ids: Iterable[str],
        how: Callable[[UserData], UserData],
        progress: Callable[[int], None] | None = None,
        step: StepEdit | None = None,
    ) -> list[Change]:
        def third_fails(papers: int) -> None:
            staged.append(papers)
            if len(staged) == 3:
                raise StoreError(self.user_dir, "disk full; nothing was changed")
            if progress is not None:
                progress(papers)

        return change(self, paper_ids, how, third_fails, step=step)

    monkeypatch.setattr(Store, "change", failing)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("M", "s", "y")
        await settle(pilot)
        assert len(staged) == 3
        assert Store(store.data_dir).all_user_data == {}
        assert not any(store.user_data(f"abs:{n:05d}").starred for n in range(200))
        assert any("disk full" in message for message in notices(app))
        assert not any("were changed first" in message for message in notices(app))
        monkeypatch.setattr(Store, "change", change)
        await pilot.press("u")
        await settle(pilot)
        assert any("Nothing to undo." in message for message in notices(app))
        assert Store(store.data_dir).all_user_data == {}
