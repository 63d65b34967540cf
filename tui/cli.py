"""The ``paperdeck`` command: parse arguments, open the store, import files, run the app."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tui import __version__
from tui.core.errors import PaperdeckError
from tui.core.importer import import_files
from tui.core.store import Store
from tui.paths import DATA_DIR_ENV, bundled_seed_files, data_dir


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``paperdeck [FILE ...]``."""
    parser = argparse.ArgumentParser(
        prog="paperdeck",
        description="Browse, filter, star and annotate conference paper lists in the terminal.",
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        type=Path,
        help="seed-format paper lists to import before opening (default: the store as it is; "
        "the bundled ICLR 2026 lists on first run)",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help=f"where the store lives (default: ${DATA_DIR_ENV}, else the user data directory)",
    )
    parser.add_argument("--version", action="version", version=f"paperdeck {__version__}")
    return parser


def open_store(data_dir_option: str | None, files: Sequence[Path]) -> tuple[Store, list[str]]:
    """Open the store, import ``files`` (or the bundled seeds into an empty store).

    Returns:
        The store and one-line messages for the user (import summaries, notices).

    Raises:
        PaperdeckError: the store cannot be opened or a file cannot be imported.
    """
    store = Store(data_dir(data_dir_option))
    messages: list[str] = []
    to_import = list(files) or (bundled_seed_files() if store.is_empty else [])
    if to_import:
        report = import_files(store, to_import)
        messages.extend(report.notices)
        if files:
            messages.append(f"Imported {len(files)} file(s): {report.summary()}")
    return store, messages


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``paperdeck`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        store, messages = open_store(args.data_dir, args.files)
    except PaperdeckError as error:
        print(f"paperdeck: {error}", file=sys.stderr)
        return 2
    from tui.app import PaperApp  # deferred: the import of Textual is the slow part of start-up

    app = PaperApp(store=store, messages=messages)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
