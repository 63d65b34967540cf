"""The footer recomposed at each screen change keeps nothing of its earlier compositions."""

from __future__ import annotations

import gc
from typing import ClassVar

from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.footer import PaperFooter
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.widgets._footer import FooterKey

from tests.ui.helpers import SIZE, main_screen, settle
from tests.waits import wait_for


async def test_screen_changes_leave_no_footer_keys_alive(seeded_store: Store) -> None:
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(6):  # the reader and back, help and back: the main footer composed anew each time
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("question_mark")
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        footer = main_screen(app).query_one(PaperFooter)
        shown = list(footer.query(FooterKey))
        watchers = [watcher for watcher, _ in getattr(footer, "__watchers", {}).get("compact", [])]
        assert shown and set(watchers) <= set(shown)  # only the keys it shows now
        gc.collect()
        gone = [o for o in gc.get_objects() if isinstance(o, FooterKey) and not o.is_attached]
        assert gone == []


class _LateFooter(App[None]):
    """Mounts its footer after the screen has published its keys, as the main screen does."""

    BINDINGS: ClassVar[list[BindingType]] = [("s", "star", "Star"), ("question_mark", "help", "Help")]

    def compose(self) -> ComposeResult:
        yield Horizontal(id="footer-row")

    def on_mount(self) -> None:
        self.set_timer(0.3, lambda: self.query_one("#footer-row").mount(PaperFooter()))


async def test_a_footer_mounted_late_shows_the_keys_at_once() -> None:
    """The main screen mounts its footer after the first frame, when the screen has published its
    keys already: the footer takes them at once (it stayed empty until a change of focus)."""
    app = _LateFooter()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.query(PaperFooter), what="the footer mounted")
        await settle(pilot)
        keys = [key.key for key in app.query_one(PaperFooter).query(FooterKey)]
        assert "s" in keys and "question_mark" in keys
