"""An error the user must act on stays longer than any other toast (a broken config.json was
reported in a toast gone after eight seconds, perhaps before the user looked), but it goes too (a
tester's export refusal stayed twenty minutes over every screen): one rule, applied by
``PaperApp.notify`` to every toast, whoever raises it."""

from __future__ import annotations

import ast
from pathlib import Path

import paperdeck.ui.toasts
import pytest
from paperdeck.model.errors import StoreError
from paperdeck.store.settings import CONFIG_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.toasts import CONFIRM_S, ERROR_S, QUOTE_CHARS, quoted, toast_timeout

from tests.ui.helpers import SIZE, settle
from tests.waits import wait_for

UI = Path(__file__).parents[2] / "tui" / "paperdeck" / "ui"


@pytest.fixture(autouse=True)
def _toasts_stay() -> None:
    """The product's own timeouts: this module checks them."""


def errors(app: PaperApp) -> list[tuple[str, str, float]]:
    return [(n.title, str(n.message), n.timeout) for n in app._notifications if n.severity == "error"]


@pytest.mark.parametrize(
    ("severity", "asked"),
    [("error", None), ("error", 6), ("error", 1e9), ("warning", 4), ("warning", 1e9), ("information", None)],
)
def test_an_error_stays_longest_and_every_toast_goes(severity: str, asked: float | None) -> None:
    stays = toast_timeout(severity, asked)  # type: ignore[arg-type]
    assert (stays == ERROR_S) == (severity == "error" or (asked or 0) >= ERROR_S)
    assert CONFIRM_S <= stays <= ERROR_S <= 60


async def test_an_error_goes_by_itself(seeded_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The error times out as the others do (with ``ERROR_S`` made short for the test)."""
    monkeypatch.setattr(paperdeck.ui.toasts, "ERROR_S", 0.5)
    (seeded_store.data_dir / CONFIG_FILE).write_text('{"theme": "x",\n', "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: not errors(app), what="the error gone")


async def test_a_broken_config_file_stays_until_dismissed_or_timed_out(seeded_store: Store) -> None:
    (seeded_store.data_dir / CONFIG_FILE).write_text('{"theme": "x",\n\x1b[31m', "utf-8")
    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        [(title, message, timeout)] = errors(app)
        assert timeout == ERROR_S and title == "Settings not read"
        assert str(seeded_store.data_dir / CONFIG_FILE) in message and "\n" not in message and "\x1b" not in message
        await pilot.press("s", "j")  # keys, time: the toast is still there
        await settle(pilot)
        assert errors(app)
        await app.run_action("dismiss_messages")  # the palette's "Dismiss messages"
        await pilot.pause()
        assert not errors(app)


async def test_settings_that_cannot_be_written_stay(seeded_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(**changes: object) -> None:
        raise StoreError(seeded_store.data_dir / CONFIG_FILE, "cannot write (disk full)")

    app = PaperApp(store=seeded_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        monkeypatch.setattr(app.settings, "update", fail)
        await pilot.press("D")  # a screen's notify, not the app's
        await pilot.pause()
        [(title, message, timeout)] = errors(app)
        assert title == "Settings not saved" and str(seeded_store.data_dir / CONFIG_FILE) in message
        assert timeout == ERROR_S


def test_no_toast_is_raised_past_the_rule() -> None:
    """Every toast is made by the rule (:func:`~paperdeck.ui.toasts.made_toast`, which the app's
    ``notify`` and the save failures' toasts use): none is made as a ``Notification`` elsewhere but
    the query's hint (a warning, :mod:`paperdeck.ui.query_toast`)."""
    made = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            name = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(name, "id", getattr(name, "attr", "")) == "Notification":
                made.append((path.name, ast.unparse(node)))
    assert [name for name, _ in made] == ["query_toast.py", "toasts.py"], made
    assert all("'error'" not in call and '"error"' not in call for _, call in made), made
    assert "toast_timeout(severity, timeout)" in made[1][1], made  # the rule's own


# -- confirmations: long enough to read, and they say what was done -------------------------------


@pytest.mark.parametrize("asked", [None, 1.5, 2, 8])
def test_a_confirmation_stays_long_enough_to_read(asked: float | None) -> None:
    assert toast_timeout("information", asked) == max(CONFIRM_S, asked or 0)
    assert 3 <= CONFIRM_S <= 4


def test_a_quote_is_one_line_and_short() -> None:
    assert quoted("A title\non\ttwo lines") == "A title on two lines"
    long = quoted("word " * 40)
    assert len(long) == QUOTE_CHARS and long.endswith("…")


@pytest.mark.parametrize("key", ["y", "Y"])
async def test_a_copy_says_what_was_copied(seeded_store: Store, monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    paper = seeded_store.papers[0]
    app = PaperApp(store=seeded_store)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        shown = app.screen.query_one("#paper-list").highlighted_id  # type: ignore[attr-defined]
        paper = seeded_store.paper(shown) or paper
        await pilot.press(key)
        await pilot.pause()
        [toast] = [n for n in app._notifications if str(n.message).startswith("Copied")]
        message = str(toast.message)
        assert toast.timeout >= CONFIRM_S and copied
        if key == "y":
            assert quoted(paper.title) in message
        else:
            assert copied[0].strip().splitlines()[0][:20] in message
        assert all(len(line) <= QUOTE_CHARS + 40 for line in message.splitlines())
