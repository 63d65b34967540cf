"""What every subcommand prints: one JSON document with ``--json``, else plain lines; a paper as one
line; progress on standard error while files are read."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import one_line
from paperdeck.sources.importer import Progress
from paperdeck.store.store import Store


def progress_reporter(total: int) -> Progress | None:
    """A Rich progress display on stderr when it is a terminal and there is more than one file."""
    if total < 2 or not sys.stderr.isatty():
        return None
    from rich.console import Console

    console = Console(stderr=True)

    def report(index: int, count: int, path: Path) -> None:
        console.print(f"[dim]reading {index + 1}/{count}[/dim] ", end="")
        console.out(path.name, highlight=False)

    return report


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print ``data`` as one line of JSON when ``--json`` was given, else ``text`` (nothing when empty)."""
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=None))
    elif text:
        print(text)


def paper_row(store: Store, paper: Paper) -> str:
    """One line for ``paper``: star and note marks, id, decision (blank when unknown), title."""
    user = store.user_data(paper.id)
    marks = ("★" if user.starred else " ") + ("✎" if user.note else " ")
    decision = paper.decision if paper.decision != "unknown" else ""
    return f"{marks} {paper.id:<24} {decision:<13} {one_line(paper.title)}"
