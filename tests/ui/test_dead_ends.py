"""No dead ends on the screen: Y always copies a BibTeX entry, o without a browser copies the link
and says so, a catalogue changed by another process is reloaded in place, keymap problems are
reported in one line, and bulk changes show their progress."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import bibtexparser
import pytest
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.prompts import LinkChooser

from tests.conftest import SHARED_DATA
from tests.ui.conftest import SIZE, highlighted, settle

RT_PART1 = SHARED_DATA / "iclr2026_submissions_reviewtracker.part1of3.jsonl"


def notices(app: PaperApp) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


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
