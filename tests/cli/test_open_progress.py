"""``paperdeck FILE`` (import, then open the app) shows the progress ``paperdeck import FILE``
shows, on standard error when it is a terminal, cleared before the app opens; Ctrl-C during the
import says ``interrupted; nothing was changed`` (status 130) and opens nothing."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from paperdeck.cli.main import main, open_store

from tests.helpers import run

ROWS = "title,decision\nPaper one about graphs,Accept\nPaper two about kernels,Reject\n"
#: What Rich writes last when a transient display ends: the line it drew, erased.
CLEARED = "\x1b[2K"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _csv(tmp_path: Path, name: str = "list [1].csv") -> Path:
    path = tmp_path / name
    path.write_text(ROWS, encoding="utf-8")
    return path


def _stderr_of(monkeypatch: pytest.MonkeyPatch, terminal: bool) -> io.StringIO:
    stream = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    return stream


def test_opening_with_a_file_shows_the_imports_progress_then_clears_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = _stderr_of(monkeypatch, terminal=True)
    _, messages = open_store(str(tmp_path / "data"), [_csv(tmp_path)])
    text = err.getvalue()
    assert "reading list [1].csv" in text and text.endswith(CLEARED)  # the name as it is, no markup
    assert messages[-1].startswith("Imported 1 file(s): 2 new")


def test_the_import_command_shows_the_same_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    err = _stderr_of(monkeypatch, terminal=True)
    assert main(["import", str(_csv(tmp_path)), "--data-dir", str(tmp_path / "data")]) == 0
    text = err.getvalue()
    assert "reading list [1].csv" in text and text.endswith(CLEARED)


def test_no_progress_when_standard_error_is_no_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    err = _stderr_of(monkeypatch, terminal=False)
    open_store(str(tmp_path / "data"), [_csv(tmp_path)])
    assert "reading" not in err.getvalue()


def test_ctrl_c_during_the_import_before_the_app_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperdeck.sources import importer

    def interrupted(
        store: object,
        paths: list[Path],
        format: object = None,
        progress: object = None,
        venue: str = "",
        merging: object = None,
        told: object = None,
        records: object = None,
    ) -> None:
        assert callable(progress)  # the bar was up
        progress(0, len(paths), paths[0])
        raise KeyboardInterrupt

    monkeypatch.setattr(importer, "import_files", interrupted)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    data = tmp_path / "data"
    code, out, err = run(capsys, str(_csv(tmp_path)), "--data-dir", str(data))
    assert code == 130 and out == ""
    assert err.rstrip().endswith("paperdeck: interrupted; nothing was changed")
    assert not data.exists()
