"""The export prompt's Zotero choice: ``zotero`` typed instead of a file name sends the marked papers
(or the view) to a running Zotero in a worker (a local stand-in for its connector here), and a
notification says what Zotero imported; a Zotero not running is one error notification."""

from __future__ import annotations

import orjson
import rispy
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.export import ExportPrompt
from textual.widgets import Input, Label

from tests.fetch.hostile_server import ZoteroStandIn, closed_port
from tests.ui.helpers import SIZE, main_screen, settle
from tests.waits import wait_for


def _said(app: PaperApp) -> list[str]:
    return [f"{n.title or ''}: {n.message}" for n in app._notifications]


async def test_zotero_typed_in_the_export_prompt_sends_the_marked_papers(seeded_store: Store) -> None:
    with ZoteroStandIn() as zotero:
        (seeded_store.data_dir / "config.json").write_bytes(orjson.dumps({"zotero_url": zotero.url}))
        app = PaperApp(store=seeded_store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("space", "space", "E")  # mark two papers, export them
            await settle(pilot)
            assert isinstance(app.screen, ExportPrompt)
            app.screen.query_one(Input).value = "Zotero"
            await pilot.press("enter")
            await wait_for(
                pilot, lambda: any("Zotero (2 items" in line for line in _said(app)), what=lambda: _said(app)
            )
            marked = {seeded_store.row(pid).title for pid in main_screen(app).marked}  # type: ignore[union-attr]
    assert not list(seeded_store.data_dir.parent.glob("zotero"))  # no file of that name
    ((_, _, body),) = zotero.imports
    assert zotero.pings == 1
    sent = {record["title"] for record in rispy.loads(body.decode("utf-8"))}
    assert len(sent) == 2 and len(marked) == 2


async def test_a_zotero_not_running_is_one_error_notification(seeded_store: Store) -> None:
    (seeded_store.data_dir / "config.json").write_bytes(orjson.dumps({"zotero_url": closed_port()}))
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        assert isinstance(app.screen, ExportPrompt)
        app.screen.query_one(Input).value = "zotero"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(line.startswith("Not sent") for line in _said(app)), what=lambda: _said(app))
        (line,) = [line for line in _said(app) if line.startswith("Not sent")]
        assert "Zotero is not running" in line and "\n" not in line


async def test_the_reviews_ticked_are_not_sent_to_zotero(seeded_store: Store) -> None:
    with ZoteroStandIn() as zotero:
        (seeded_store.data_dir / "config.json").write_bytes(orjson.dumps({"zotero_url": zotero.url}))
        app = PaperApp(store=seeded_store)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("E")
            await settle(pilot)
            assert isinstance(app.screen, ExportPrompt)
            app.screen.query_one(Input).value = "zotero"
            await pilot.press("tab", "space", "enter")  # tick "include the reviews", then enter
            await settle(pilot)
            assert isinstance(app.screen, ExportPrompt)  # still asking
            hint = app.screen.query_one("#export-hint", Label)
            assert "not to Zotero" in str(hint.render())
    assert zotero.pings == 0 and not zotero.imports
