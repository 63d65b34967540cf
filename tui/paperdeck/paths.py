"""Where paperdeck keeps the user's data and finds its bundled styles and seeds.

Nothing here touches the disk at import time.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

APP_NAME = "paperdeck"
DATA_DIR_ENV = "PAPERDECK_DATA_DIR"

_PACKAGE = Path(__file__).resolve().parent


def data_dir(override: str | Path | None = None) -> Path:
    """The data directory: ``override`` (``--data-dir``), else ``$PAPERDECK_DATA_DIR``, else the
    platform's user data directory (``~/.local/share/paperdeck`` on Linux)."""
    if override:
        return Path(override).expanduser()
    from_env = os.environ.get(DATA_DIR_ENV)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs  # deferred: a --data-dir or $PAPERDECK_DATA_DIR needs none

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _bundled(name: str) -> Path:
    """A bundled folder: inside an installed wheel (``paperdeck/_data/NAME``) or at the repository
    top (``tui/paperdeck/`` is two levels below it)."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / name


def styles_dir() -> Path:
    """The folder of the ``.tcss`` style sheets."""
    return _bundled("styles")


def dialog_style_sheets() -> list[str | PurePath]:
    """The style sheet of the rules the dialogs share (``dialogs.tcss``): each dialog's
    ``CSS_PATH``, which Textual reads when the first dialog opens, after the app's first frame."""
    return [str(styles_dir() / "dialogs.tcss")]


def seeds_dir() -> Path:
    """The folder of the bundled seed lists (``*.txt``)."""
    return _bundled("seeds")


def bundled_seed_files() -> list[Path]:
    """The bundled seed lists, sorted by name."""
    return sorted(seeds_dir().glob("*.txt"))
