"""``N`` with an editor that cannot be started: one message, the app as it was, the note unchanged,
and the terminal never handed over (or always handed back)."""

from __future__ import annotations

import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen

from tests.ui.helpers import SIZE, highlighted, settle

AppFactory = Callable[..., PaperApp]


class Terminal:
    """A stand-in for :meth:`App.suspend` that, like Textual's, hands the terminal back only when
    the block inside it ends without an exception."""

    def __init__(self) -> None:
        self.handed_over = 0
        self.handed_back = 0

    @contextmanager
    def suspend(self) -> Iterator[None]:
        self.handed_over += 1
        yield
        self.handed_back += 1


def _script(path: Path, text: str, *, executable: bool = True) -> Path:
    path.write_text(text)
    if executable:
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.mark.parametrize(
    "visual",
    [
        "/nonexistent/ed",
        "no-such-editor-anywhere --wait",  # a shell-word string whose first word is not found
        "'/nonexistent/my editor' -w",
        "'unbalanced",
        "NOT_EXECUTABLE",
        "BAD_INTERPRETER",  # found and executable, but the system cannot run it
    ],
)
async def test_an_editor_that_cannot_start_leaves_the_app_and_the_note_as_they_were(
    make_app: AppFactory, seeded_store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, visual: str
) -> None:
    not_executable = _script(tmp_path / "plain-file", '#!/bin/sh\necho hi >> "$1"\n', executable=False)
    bad_interpreter = _script(tmp_path / "bad-shebang", "#!/nonexistent/interpreter\n")
    visual = visual.replace("NOT_EXECUTABLE", str(not_executable)).replace("BAD_INTERPRETER", str(bad_interpreter))
    monkeypatch.setenv("VISUAL", visual)
    monkeypatch.setenv("EDITOR", "vi")
    app = make_app()
    terminal = Terminal()
    monkeypatch.setattr(app, "suspend", terminal.suspend)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        target = highlighted(app).id
        await pilot.press("N")
        await settle(pilot)
        assert terminal.handed_over == terminal.handed_back  # never left suspended
        assert isinstance(app.screen, MainScreen)
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1, messages
        assert "the note was not changed" in messages[0]
        assert Store(seeded_store.data_dir).user_data(target).note == ""
        await pilot.press("j")  # the app still answers keys
        await settle(pilot)
        assert highlighted(app).id != target


async def test_a_missing_editor_is_not_handed_the_terminal(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", "/nonexistent/ed")
    app = make_app()
    terminal = Terminal()
    monkeypatch.setattr(app, "suspend", terminal.suspend)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("N")
        await settle(pilot)
        assert terminal.handed_over == 0
        assert "'/nonexistent/ed'" in next(iter(app._notifications)).message


@pytest.mark.parametrize(
    ("environ", "problem"),
    [
        ({"VISUAL": "/nonexistent/ed"}, "'/nonexistent/ed' ($VISUAL): not found"),
        ({"VISUAL": "  ", "EDITOR": "/nonexistent/ed"}, "'/nonexistent/ed' ($EDITOR): not found"),
        ({"VISUAL": "", "EDITOR": "", "PATH": ""}, "neither $VISUAL nor $EDITOR is set"),
        ({"EDITOR": "'a b"}, "Cannot read $EDITOR"),
        ({"EDITOR": "''"}, "$EDITOR"),
    ],
)
def test_editor_command_says_why_it_cannot_start(
    environ: dict[str, str], problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.ui.screens.reading import editor_command

    monkeypatch.setenv("PATH", environ.get("PATH", "/nonexistent-path"))
    command, said = editor_command(environ)
    assert command == []
    assert said is not None and problem in said


def test_editor_command_splits_shell_words(tmp_path: Path) -> None:
    from paperdeck.ui.screens.reading import editor_command

    editor = _script(tmp_path / "my editor", "#!/bin/sh\n")
    assert editor_command({"VISUAL": f"'{editor}' --wait", "EDITOR": "/nonexistent"}) == ([str(editor), "--wait"], None)
